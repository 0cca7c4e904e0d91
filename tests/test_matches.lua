-- Matches on the runner: DECE (a fixed schedule of matches) and ChessArena (a plan that
-- grows from the ratings) get the run lock, run-wide budgets, the configuration-error
-- stop, workers, transcripts per participant, `tabula show`, resume mid-match and
-- sharding (DECE) or its refusal (ChessArena); their records are the ones main's code
-- made for the same seeds (tests/data/old_runs), and old run directories re-report
-- identically. A damaged DECE event line is one line naming file and line, and
-- --discard-damaged restarts that match from its seed.
-- slow: DECE and ChessArena runs in child processes, killed, resumed, sharded and re-reported (left out by make check)
local t = require "tabula.testing"
local records = require "tabula.records"
local json = require "tabula.json"
local fs = require "tabula.fs"
local test, T = t.suite()

local DECE = "scenarios/dece.lua"
local ARENA = "scenarios/chessarena.lua"
local OLD = t.root() .. "/tests/data/old_runs"

-- tabula(args) -> rc, output (stdout and stderr) of the real binary
local function tabula(args)
  local q = {}
  for i, a in ipairs(args) do q[i] = "'" .. a:gsub("'", "'\\''") .. "'" end
  local out = t.sh("cd " .. t.root() .. " && " .. t.tabula_bin() .. " " .. table.concat(q, " "))
  local rc = tonumber(out:match("rc=(%d+)\n$"))
  return rc, out:gsub("rc=%d+\n$", "")
end

-- the participants of tests/data/old_runs/dece (main's run): three built-ins and the
-- built-in random player behind a model harness
local OLD_PARTS = { participants = {
  { name = "random", player = "random" },
  { name = "heuristic", player = "heuristic", epsilon = 0.1 },
  { name = "ismcts", player = "ismcts", simulations = 8, steps = 18 },
  { name = "m", model = "random", harness = { memory = "last:2" } } } }

local function parts_file(dir, doc)
  fs.write_atomic(dir .. "/parts.json", json.encode(doc or OLD_PARTS))
  return dir .. "/parts.json"
end

-- by_id(path, id_field) -> records by id, without wall-clock fields
local function by_id(path, id_field)
  local out, n = {}, 0
  for _, r in ipairs((records.read(path))) do
    r.seconds, r.wall_seconds = nil, nil
    for _, m in ipairs(r.per_move or {}) do m.seconds = nil end
    if r.pgn then r.pgn = r.pgn:gsub("%[Date [^\n]*\n", "") end
    out[r[id_field]] = r
    n = n + 1
  end
  return out, n
end

local function copy_dir(from, to)
  fs.mkdir_p(to)
  for _, f in ipairs(fs.list(from)) do fs.write_atomic(to .. "/" .. f, fs.read(from .. "/" .. f)) end
end

-- (the DECE report's summary.json and report.md were re-made from main's records when issue
-- 30 changed the statistics: split-half τ_b, matched studies, the added intervals)
-- issue 48 added the robustness appendix at the end of both reports (tests/test_robustness.lua):
-- it is taken off before comparing with main's
-- and the seat term's bootstrap intervals beside each game's seat effects (seat_intervals, the
-- report.md line's wording), and the gap it is set against: also taken off
local function summary(path)
  local x = json.read_file(path)
  t.ok(x.robustness, path)
  x.robustness = nil
  for _, g in pairs(type(x.games) == "table" and x.games or {}) do
    if g.seat_effects then t.ok(g.seat_intervals, "the seat term's intervals") end
    g.seat_intervals, g.seat_draws, g.smallest_elo_gap, g.seat_larger_than_gap = nil, nil, nil, nil
  end
  return x
end
local function appendix_off(text)
  local at = text:find("\n## Robustness")
  t.ok(at, "the appendix")
  return (text:sub(1, at - 1):gsub("\nSeat effects %([^\n]*", "\nSeat effects"))
end

test("old runs re-report identically: a DECE run and a ChessArena arena made by main's code", function()
  local dir = t.tmpdir()
  copy_dir(OLD .. "/dece", dir .. "/dece")
  require("scenarios.dece.report").write(dir .. "/dece")
  t.eq(summary(dir .. "/dece/summary.json"), json.read_file(OLD .. "/dece/summary.json"))
  -- report.md's title names the run directory; the rest is the same
  local function body(path) return (fs.read(path):gsub("^[^\n]*\n", "")) end
  t.eq(appendix_off(body(dir .. "/dece/report.md")), (body(OLD .. "/dece/report.md"):gsub("\nSeat effects %([^\n]*", "\nSeat effects")))
  copy_dir(OLD .. "/arena", dir .. "/arena")
  local S = require("tabula.cmd.run").lib.load(t.root() .. "/" .. ARENA)
  S.report(dir .. "/arena", true)
  t.eq(summary(dir .. "/arena/summary.json"), json.read_file(OLD .. "/arena/summary.json"))
  t.eq(appendix_off(fs.read(dir .. "/arena/leaderboard.md")), fs.read(OLD .. "/arena/leaderboard.md"))
end)

test("dece on the runner: main's records for the same seeds, with two worker processes", function()
  local dir = t.tmpdir()
  -- the azul matches come first in the schedule: the same with --games azul
  local rc, out = tabula({ "run", DECE, "--no-html", "--participants", parts_file(dir), "--games", "azul", "--matches-per-game", "4",
    "--out", dir .. "/run", "--workers", "2", "--quiet" })
  t.eq(rc, 0, out)
  local new, n = by_id(dir .. "/run/matches.jsonl", "match_id")
  local old = by_id(OLD .. "/dece/matches.jsonl", "match_id")
  t.eq(n, 4)
  for id, r in pairs(new) do t.eq(r, old[id], id) end
  -- the run directory: run.json with the identity, the schedule, and a transcript per match
  local meta = json.read_file(dir .. "/run/run.json")
  t.eq(meta.order, { "random", "heuristic", "ismcts", "m" })
  t.eq(meta.records, { file = "matches.jsonl", id = "match_id", logs = "matches", files = { "schedule.json" },
    required = { "status", "game", "seats", "ranks" } })
  t.eq(#json.read_file(dir .. "/run/schedule.json").matches, 4)
  -- running again: everything is recorded, nothing is played twice
  rc, out = tabula({ "run", DECE, "--no-html", "--participants", dir .. "/parts.json", "--games", "azul", "--matches-per-game", "4",
    "--out", dir .. "/run", "--quiet" })
  t.eq(rc, 0, out)
  t.contains(out, "resuming: 4 of 4 trials already recorded")
  t.eq(select(2, by_id(dir .. "/run/matches.jsonl", "match_id")), 4)
end)

test("chessarena on the runner: main's games for the same seed; a second run with --add-games adds games after them", function()
  t.need_program("/usr/games/stockfish")
  local dir = t.tmpdir()
  local rc, out = tabula({ "run", ARENA, "--arena", dir .. "/arena", "--players", "random,stockfish:depth=1,random@blitz+legal",
    "--game-count", "4", "--max-moves", "20", "--analysis-depth", "2", "--all", "--quiet" })   -- main's 10 full moves = 20 plies
  t.eq(rc, 0, out)
  local new, n = by_id(dir .. "/arena/games.jsonl", "game_id")
  local old = by_id(OLD .. "/arena/games.jsonl", "game_id")
  t.eq(n, 4)
  for id, r in pairs(new) do t.eq(r, old[id], id) end
  t.eq(summary(dir .. "/arena/summary.json"), json.read_file(OLD .. "/arena/summary.json"))
  rc, out = tabula({ "run", ARENA, "--arena", dir .. "/arena", "--game-count", "2", "--add-games", "--max-moves", "20",
    "--analysis-depth", "2", "--quiet", "--concurrency", "2" })
  t.eq(rc, 0, out)
  local all, m = by_id(dir .. "/arena/games.jsonl", "game_id")
  t.eq(m, 6)
  t.ok(all["game-00005"] and all["game-00006"], "numbered after the arena's games")
  -- how games are played is the arena's identity: a change is refused
  rc, out = tabula({ "run", ARENA, "--arena", dir .. "/arena", "--game-count", "1", "--max-moves", "40", "--quiet" })
  t.eq(rc, 2, out)
  t.contains(out, "option --max-moves: 20 in the run, 40 now")
end)

test("both arenas take the run lock: a second run on the same directory is refused before anything is played", function()
  local dir = t.tmpdir()
  for _, case in ipairs({
    { dir = dir .. "/dece", args = { "run", DECE, "--no-html", "--games", "azul", "--participants", parts_file(dir), "--out", dir .. "/dece", "--quiet" },
      file = "matches.jsonl" },
    { dir = dir .. "/arena", args = { "run", ARENA, "--arena", dir .. "/arena", "--players", "random,random@bullet", "--game-count", "1",
      "--analysis-depth", "0", "--quiet" }, file = "games.jsonl" } }) do
    fs.mkdir_p(case.dir)
    local lock = assert(fs.lock(case.dir .. "/.lock"))   -- as another run holds it
    local rc, out = tabula(case.args)
    t.eq(rc, 2, out)
    t.contains(out, case.dir .. " is in use by another run (process " .. require("tabula.c.proc").getpid())
    t.eq(fs.kind(case.dir .. "/" .. case.file), nil, "nothing played")
    t.eq(fs.kind(case.dir .. "/players.json"), nil, "the arena is left untouched")
    lock:unlock()
    rc, out = tabula(case.args)
    t.eq(rc, 0, out)
    t.eq(fs.kind(case.dir .. "/" .. case.file), "file")
  end
end)

-- a models.lua naming the mock server m (priced)
local function mock_models(dir, url)
  fs.write_atomic(dir .. "/models.lua", string.format([[return { m = { provider = "openai", model = "m",
    base_url = %q, optional_key = true, prices = { input = 2, cached = 1, output = 10 } } }]], url .. "/v1"))
  return dir .. "/models.lua"
end

local function llm_parts(dir)
  return parts_file(dir, { participants = {
    { name = "llm", model = "m", harness = { fallback = "random" } },
    { name = "random", player = "random" }, { name = "heuristic", player = "heuristic" } } })
end

test("dece: --max-calls binds the model participant's calls over HTTP: exactly 5 calls; the stop names the budget, exit 4", function()
  local mock = require "tests.mock"
  local s = mock.start({ { reply = "ACTION: nothing-legal", usage = { input = 10, output = 5 } } })
  local dir = t.tmpdir()
  local rc, out = tabula({ "run", DECE, "--no-html", "--participants", llm_parts(dir), "--models", mock_models(dir, s.url),
    "--games", "azul", "--out", dir .. "/run", "--concurrency", "1", "--max-calls", "5", "--quiet" })
  local requests = s:requests()
  s:close()
  t.eq(rc, 4, out)
  t.contains(out, "the --max-calls budget of 5 calls was reached")
  t.ok(select(2, by_id(dir .. "/run/matches.jsonl", "match_id")) < 3, "the schedule was not finished")
  local spent = 0
  records.each(dir .. "/run/spend.jsonl", function(r) spent = spent + r.calls end)
  t.eq(spent, requests, "every call is counted")
  t.eq(requests, 5, "the budget binds per call: exactly the 5 calls allowed (one at a time), none past it")
end)

test("dece: a 401 stops the run with one line; nothing is recorded as a result", function()
  local mock = require "tests.mock"
  local s = mock.start({ { fault = "401" } })
  local dir = t.tmpdir()
  local rc, out = tabula({ "run", DECE, "--no-html", "--participants", llm_parts(dir), "--models", mock_models(dir, s.url),
    "--games", "azul", "--out", dir .. "/run", "--concurrency", "1", "--quiet" })
  local requests = s:requests()
  s:close()
  t.eq(rc, 2, out)
  t.contains(out, "configuration error, the run stopped")
  t.eq(requests, 1, "no call after the 401")
  t.eq(select(2, by_id(dir .. "/run/matches.jsonl", "match_id")), 0)
  t.ok(not out:find("stack traceback", 1, true), out)
end)

test("dece transcripts: each participant's conversation, labelled; tabula show RUN MATCH shows each", function()
  local dir = t.tmpdir()
  local rc, out = tabula({ "run", DECE, "--no-html", "--participants", parts_file(dir, { participants = {
      { name = "m1", model = "random" }, { name = "m2", model = "random", harness = { memory = "full" } },
      { name = "random", player = "random" } } }),
    "--games", "azul", "--matches-per-game", "3", "--out", dir .. "/run", "--quiet" })
  t.eq(rc, 0, out)
  local rec = by_id(dir .. "/run/matches.jsonl", "match_id")["azul-001"]
  local tr = assert(require("tabula.transcripts").load(dir .. "/run", "azul-001"))
  local per = {}
  for _, c in ipairs(tr.calls) do per[c.participant] = (per[c.participant] or 0) + 1 end
  for s, name in ipairs(rec.seats) do
    if name ~= "random" then t.eq(per[name], rec.calls[s], name .. "'s calls") end
  end
  t.eq(per.random, nil, "the built-in player makes no model calls")
  -- m2 keeps its whole conversation: its last call starts with all its earlier ones
  local last
  for _, c in ipairs(tr.calls) do if c.participant == "m2" then last = c end end
  t.eq(#last.messages, 2 * per.m2, "system + one user message per decision + the replies")
  local shown
  rc, shown = tabula({ "show", dir .. "/run", "azul-001" })
  t.eq(rc, 0, shown)
  t.contains(shown, "### participant m1 (" .. per.m1 .. " calls)")
  t.contains(shown, "### participant m2 (" .. per.m2 .. " calls)")
  rc, shown = tabula({ "show", dir .. "/run" })
  t.eq(rc, 0, shown)
  t.contains(shown, "azul-003")
end)

test("chessarena transcripts: tabula show ARENA GAME shows each model player's conversation", function()
  local dir = t.tmpdir()
  local rc, out = tabula({ "run", ARENA, "--arena", dir .. "/arena", "--players", "random@bullet,random@blitz+legal",
    "--game-count", "1", "--max-moves", "6", "--analysis-depth", "0", "--quiet" })   -- 3 moves each (plies)
  t.eq(rc, 0, out)
  local shown
  rc, shown = tabula({ "show", dir .. "/arena", "game-00001" })
  t.eq(rc, 0, shown)
  t.contains(shown, "### participant random@bullet (3 calls)")
  t.contains(shown, "### participant random@blitz+legal (3 calls)")
end)

test("dece --shard: the schedule split in disjoint slices whose records are the full run's", function()
  local dir = t.tmpdir()
  local pf = parts_file(dir)
  local seen = {}
  for k = 1, 2 do
    local rc, out = tabula({ "run", DECE, "--no-html", "--participants", pf, "--games", "azul", "--matches-per-game", "4",
      "--out", dir .. "/s" .. k, "--shard", k .. "/2", "--quiet", "--workers", "1" })
    t.eq(rc, 0, out)
    local recs, n = by_id(dir .. "/s" .. k .. "/matches.jsonl", "match_id")
    t.eq(n, 2)
    for id, r in pairs(recs) do
      t.eq(seen[id], nil, id .. " in one shard only")
      seen[id] = r
    end
  end
  local old = by_id(OLD .. "/dece/matches.jsonl", "match_id")
  for _, id in ipairs({ "azul-001", "azul-002", "azul-003", "azul-004" }) do t.eq(seen[id], old[id], id) end
end)

test("chessarena refuses --shard, --trials and --variant in one line each, with the reason", function()
  local dir = t.tmpdir()
  for _, case in ipairs({ { { "--shard", "1/2" }, "--shard: scenario chessarena plans as it runs (each game's pairing is drawn from the ratings" },
                          { { "--trials", "3" }, "--trials: ChessArena plays --game-count games per run" },
                          { { "--variant", "a" }, "--variant: ChessArena's prompts are one folder" } }) do
    local args = { "run", ARENA, "--arena", dir .. "/arena", "--players", "random,random@bullet", "--game-count", "1" }
    for _, a in ipairs(case[1]) do args[#args + 1] = a end
    local rc, out = tabula(args)
    t.eq(rc, 2, out)
    t.contains(out, case[2])
    t.eq(select(2, out:gsub("\n", "")), 1, "one line: " .. out)
  end
  t.eq(fs.kind(dir .. "/arena/games.jsonl"), nil)
end)

test("dece refuses --games azul,azul and --players (renamed --seats)", function()
  local dir = t.tmpdir()
  local rc, out = tabula({ "run", DECE, "--games", "azul,azul", "--out", dir .. "/run" })
  t.eq(rc, 2, out)
  t.contains(out, "--games: azul is given twice")
  rc, out = tabula({ "run", DECE, "--players", "3", "--out", dir .. "/run" })
  t.eq(rc, 2, out)
  t.contains(out, "--players: DECE's seats per match are --seats")
  t.eq(fs.kind(dir .. "/run/matches.jsonl"), nil)
end)

-- lines(path) -> the file's lines
local function lines(path)
  local out = {}
  for l in fs.read(path):gmatch("[^\n]+") do out[#out + 1] = l end
  return out
end

-- drop(dir, id): remove a match's record, as if the run had been killed before it was written
local function drop(dir, id)
  local keep = {}
  for _, l in ipairs(lines(dir .. "/matches.jsonl")) do
    if json.decode(l).match_id ~= id then keep[#keep + 1] = l end
  end
  fs.write_atomic(dir .. "/matches.jsonl", table.concat(keep, "\n") .. "\n")
  os.remove(dir .. "/matches.jsonl.idx")
end

test("dece resume mid-match on the runner: a killed match continues from its event log to the same record", function()
  local dir = t.tmpdir()
  local pf = parts_file(dir)
  local args = { "run", DECE, "--no-html", "--participants", pf, "--games", "azul", "--matches-per-game", "4", "--out", dir .. "/run", "--quiet" }
  local rc, out = tabula(args)
  t.eq(rc, 0, out)
  local before = by_id(dir .. "/run/matches.jsonl", "match_id")["azul-002"]
  -- killed in the middle of azul-002: its log keeps the first 20 steps, no end, no record
  local log = dir .. "/run/matches/azul-002.jsonl"
  fs.write_atomic(log, table.concat(lines(log), "\n", 1, 21) .. "\n")
  drop(dir .. "/run", "azul-002")
  rc, out = tabula(args)
  t.eq(rc, 0, out)
  t.contains(out, "resuming: 3 of 4 trials already recorded")
  local after = by_id(dir .. "/run/matches.jsonl", "match_id")["azul-002"]
  t.eq(after.resumed_steps, 20)
  after.resumed_steps = nil
  t.eq(after, before)
end)

test("dece damaged event lines: one line naming file and line; --discard-damaged restarts the match from its seed", function()
  local dir = t.tmpdir()
  local pf = parts_file(dir)
  local args = { "run", DECE, "--no-html", "--participants", pf, "--games", "azul", "--matches-per-game", "4", "--out", dir .. "/run", "--quiet" }
  local rc, out = tabula(args)
  t.eq(rc, 0, out)
  local before = by_id(dir .. "/run/matches.jsonl", "match_id")["azul-003"]
  local log = dir .. "/run/matches/azul-003.jsonl"
  local good = lines(log)
  local function damage(line_no, text)
    local l = { table.unpack(good, 1, 25) }
    l[line_no] = text
    fs.write_atomic(log, table.concat(l, "\n") .. "\n")
    drop(dir .. "/run", "azul-003")
  end
  local step5 = json.decode(good[6])
  local kinds = {
    { 6, "{\"k\":\"step\",\"step\":5,", "not JSON" },
    { 6, (good[6]:gsub('"action":"[^"]*"', '"action":"bogus"', 1)), "logged action bogus is refused" },
    { 6, (function() local e = json.decode(good[6]); e.step = 9; return json.encode(e) end)(), "expected step 5" },
    { 6, json.encode({ k = "chat", text = "hello" }), "not a step of the match" },
    { 1, json.encode({ k = "setup", setup_seed = 1, seats = { "a", "b", "c" } }), "belongs to another match" },
    { 6, json.encode({ k = "step", step = 5, choices = { { seat = 9, action = step5.choices[1].action } } }), "not one of a seat to move" },
  }
  for _, k in ipairs(kinds) do
    damage(k[1], k[2])
    rc, out = tabula(args)
    t.eq(rc, 2, k[3] .. ": " .. out:sub(1, 300))
    t.contains(out, log .. ":" .. k[1] .. ": damaged event line (")
    t.contains(out, k[3])
    t.contains(out, "--discard-damaged")
    t.ok(not out:find("traceback", 1, true), out)
    t.eq(by_id(dir .. "/run/matches.jsonl", "match_id")["azul-003"], nil, "not recorded")
  end
  args[#args + 1] = "--discard-damaged"
  rc, out = tabula(args)
  t.eq(rc, 0, out)
  local after = by_id(dir .. "/run/matches.jsonl", "match_id")["azul-003"]
  t.eq(after.restarted.line, 6)
  t.eq(after.restarted.kept, log .. ".damaged")
  t.eq(fs.kind(log .. ".damaged"), "file", "the damaged log is kept")
  after.restarted = nil
  t.eq(after, before, "the same match, replayed from its seed")
end)

test("dece: the default run of built-in players uses a worker per core; a model participant keeps one process", function()
  local run = require("tabula.cmd.run").lib
  local S = run.load(t.root() .. "/" .. DECE)
  local dir = t.tmpdir()
  local opts = assert(require("tabula.cli").parse(run.spec(S), { "--out", dir .. "/x" }))
  t.eq(run.workers(opts, { provider = "builtin", name = "engine" }, S), require("tabula.workers").cores())
  opts = assert(require("tabula.cli").parse(run.spec(S), { "--participants", parts_file(dir, { participants = {
    { name = "m1", model = "random" }, { name = "r", player = "random" }, { name = "h", player = "heuristic" } } }) }))
  t.eq(run.workers(opts, { provider = "builtin", name = "engine" }, S), 1)
end)

test("the progress line counts a match's calls and tokens over its seats, and a game's over its moves", function()
  local progress = require "tabula.progress"
  local st = { done = 0, ok = 0, failed = 0, errors = 0, calls = 0, tokens = 0, cost = 0 }
  progress.add(st, { match_id = "azul-001", status = "finished", calls = { 3, 0, 2 },
    usage = { { input = 10, output = 5 }, { input = 0, output = 0 }, { input = 7, output = 1 } } })
  progress.add(st, { game_id = "game-00001", result = "1-0", per_move = { { attempts = 2, usage = { input = 4, output = 2 }, cost = 0.5 },
    { player = "random" } } })
  progress.add(st, { match_id = "azul-002", status = "forfeit", calls = { 1, 0, 0 }, usage = { { input = 1, output = 1 }, {}, {} } })
  t.eq({ st.ok, st.failed, st.calls, st.tokens, st.cost }, { 2, 1, 8, 31, 0.5 })
end)

return T
