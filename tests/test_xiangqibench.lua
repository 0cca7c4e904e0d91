-- XiangqiBench: estimators, scripted trials that hit every ending and budget
-- (through replay: and the mock server), golden prompts, and resume after a kill.
-- slow: scripted XiangqiBench runs against the mock server, killed and resumed (left out by make check)
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local metrics = require "tabula.metrics"
local loop = require "tabula.loop"
local test, T = t.suite()

local tmpdir = t.tmpdir

test("pass@k and pass^k against hand-computed values (n = 3)", function()
  local at = { [0] = { 0, 0, 0 }, { 1 / 3, 2 / 3, 1 }, { 2 / 3, 1, 1 }, { 1, 1, 1 } }
  local hat = { [0] = { 0, 0, 0 }, { 1 / 3, 0, 0 }, { 2 / 3, 1 / 3, 0 }, { 1, 1, 1 } }
  for c = 0, 3 do
    for k = 1, 3 do
      t.near(metrics.pass_at_k(3, c, k), at[c][k], 1e-12, string.format("pass@%d c=%d", k, c))
      t.near(metrics.pass_hat_k(3, c, k), hat[c][k], 1e-12, string.format("pass^%d c=%d", k, c))
    end
  end
  t.eq(metrics.pass_at_k(3, 1, 4), nil)
end)

test("the case bootstrap is deterministic for a fixed seed", function()
  local values = {}
  for i = 1, 40 do values[i] = metrics.pass_at_k(3, i % 4, 1) end
  local mean = metrics.mean(values)
  local lo1, hi1 = metrics.bootstrap_mean(values, 4000, 7)
  local lo2, hi2 = metrics.bootstrap_mean(values, 4000, 7)
  local lo3, hi3 = metrics.bootstrap_mean(values, 4000, 8)
  t.eq({ lo1, hi1 }, { lo2, hi2 })
  t.ok(lo1 < mean and mean < hi1)
  t.ok(lo1 ~= lo3 or hi1 ~= hi3, "another seed gives other draws")
end)

test("pass table: running products agree with the binomial formulas for every n <= 60, c, k", function()
  local stats = require "tabula.c.stats"
  local worst = 0
  for n = 1, 60 do
    for c = 0, n do
      local rows = stats.pass_table({ { n = n, c = c } }, 50, 1)   -- one case: each row is that case's value
      t.eq(#rows, n)
      for k = 1, n do
        local at, hat = rows[k].pass_at.value, rows[k].pass_hat.value
        worst = math.max(worst, math.abs(at - metrics.pass_at_k(n, c, k)), math.abs(hat - metrics.pass_hat_k(n, c, k)))
        -- exact where the answer is exact
        if n - c < k then t.eq(at, 1.0, string.format("pass@%d n=%d c=%d", k, n, c)) end
        if c < k then t.eq(hat, 0.0, string.format("pass^%d n=%d c=%d", k, n, c)) end
        if c == 0 then t.eq(at, 0.0) end
        if c == n then t.eq(hat, 1.0) end
      end
    end
  end
  t.ok(worst < 1e-12, "largest difference " .. worst)
end)

test("pass table: past the binomials' range (n > 1030) the values stay in [0, 1] and monotone", function()
  local stats = require "tabula.c.stats"
  local ref = metrics.pass_hat_k(1200, 1100, 600)
  t.ok(ref ~= ref, "the binomial reference overflows to NaN here")
  local rows = stats.pass_table({ { n = 1200, c = 900 }, { n = 1500, c = 3 } }, 20, 1)
  t.eq(#rows, 1500)
  for k = 2, #rows do
    local a, b = rows[k - 1], rows[k]
    t.ok(b.pass_at.value >= 0 and b.pass_at.value <= 1 and b.pass_hat.value >= 0 and b.pass_hat.value <= 1, "k=" .. k)
    if a.cases == b.cases then
      t.ok(b.pass_at.value >= a.pass_at.value and b.pass_hat.value <= a.pass_hat.value, "monotone at k=" .. k)
    end
  end
  t.eq(rows[1200].cases, 2); t.eq(rows[1201].cases, 1)
  t.eq(rows[1500].pass_at.value, 1.0); t.eq(rows[1500].pass_hat.value, 0.0)
  -- pass^k of c = 900 of 1200 at k = 2: (900/1200) * (899/1199)
  t.near(rows[2].pass_hat.value, (900 / 1200 * 899 / 1199 + 3 / 1500 * 2 / 1499) / 2, 1e-15)
  t.raises(function() stats.pass_table({ { n = 2, c = 3 } }, 10, 1) end, "3 successes of 2 trials")
end)

test("pass table: every row, interval and case count as the k-by-k reference (uneven trials per case)", function()
  local report = require "scenarios.xiangqibench.report"
  local rng = metrics.rng(11)
  local cases = {}
  for i = 1, 23 do   -- trial counts that make several groups of k and chunks of 32
    local n = ({ 1, 3, 33, 40, 70, 70, 65 })[i % 7 + 1]
    cases[string.format("case%02d", i)] = { n = n, c = rng(n + 1) - 1 }
  end
  local got, ncases = report.pass_table(cases)
  local want, nref = report.pass_table_reference(cases)
  t.eq(ncases, nref); t.eq(#got, #want); t.eq(#got, 70)
  for k, w in ipairs(want) do
    local g = got[k]
    t.eq({ g.k, g.cases, g.pass_at.cases, g.pass_hat.cases }, { w.k, w.cases, w.pass_at.cases, w.pass_hat.cases })
    for _, h in ipairs({ "pass_at", "pass_hat" }) do
      for _, f in ipairs({ "value", "lo", "hi" }) do
        t.near(g[h][f], w[h][f], 1e-12, string.format("%s.%s at k=%d", h, f, k))
      end
    end
  end
end)

-- ---- scripted trials ----

local CASES = {
  mate1 = "3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1",          -- b1b9 mates
  doomed = "3k5/9/9/P8/8r/9/9/9/r8/4K4 w - - 0 1",         -- Black mates after a6a7 (i5i0)
  calm = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1",             -- nothing happens quickly
  shuffle = "3k5/9/R8/9/9/9/9/9/9/4K4 w - - 0 1",          -- Black can only go d9-d8-d9
  perpetual = "5k3/9/9/9/9/9/9/9/R8/3K5 w - - 0 1",        -- Red can check back and forth
}

local function write_cases(dir)
  local lines = {}
  for id, fen in pairs(CASES) do
    lines[#lines + 1] = json.canonical({ id = id, fen = fen, first_winning_move = "b1b9", win_in_plies = 1,
      category = "forced_mate" })
  end
  table.sort(lines)
  fs.write_atomic(dir .. "/cases.jsonl", table.concat(lines, "\n") .. "\n")
  return dir .. "/cases.jsonl"
end

local function cmd(text) return "```bash\n" .. text .. "\n```" end

-- play one case with scripted replies; returns the trial record
local function scripted(case, replies, extra)
  local dir = tmpdir()
  local cases = write_cases(dir)
  local lines = {}
  for i, r in ipairs(replies) do lines[i] = json.canonical({ text = r }) end
  fs.write_atomic(dir .. "/replies.jsonl", table.concat(lines, "\n") .. "\n")
  local args = { "--model", "replay:" .. dir .. "/replies.jsonl", "--cases", cases, "--ids", case,
    "--trials", "1", "--out", dir .. "/run", "--quiet" }
  for _, a in ipairs(extra or {}) do args[#args + 1] = a end
  t.run_scenario("scenarios/xiangqibench.lua", args)
  local recs = records.read(dir .. "/run/trials.jsonl")
  t.eq(#recs, 1)
  return recs[1], dir
end

test("win by mate", function()
  local r = scripted("mate1", { "I mate.\n" .. cmd("move b1b9") })
  t.eq({ r.reason, r.status, r.success, r.plies, r.first_move }, { "win_mate", "success", true, 1, "b1b9" })
  t.eq(r.moves[1].fen_before, CASES.mate1)
  t.eq(r.moves[1].fen_after, "1R1k5/R8/9/9/9/9/9/9/9/4K4 b - - 1 1")
  t.eq(r.moves[1].check, true)
  t.eq(#r.moves[1].legal_before, 36)
  t.eq(r.actions[1].command, { name = "move", move = "b1b9", raw = "move b1b9" })
  t.eq(r.actions[1].model_text, "I mate.\n" .. cmd("move b1b9"))
  t.eq(r.calls, 1)
end)

test("loss by the defender's mate, with the defender's backend recorded", function()
  local r = scripted("doomed", { cmd("move a6a7") })
  t.eq(r.reason, "loss_mate")
  t.eq(r.status, "failure")
  t.eq(r.moves[2].move, "i5i0")
  t.eq(r.moves[2].by, "builtin")
  t.eq(r.defender_moves[1].backend, "builtin")
  t.eq(r.defender_moves[1].mate, 1)
end)

test("resignation", function()
  t.eq(scripted("mate1", { cmd("resign") }).reason, "resignation")
end)

test("three illegal moves in a row forfeit; feedback lists the legal moves when sighted", function()
  local r = scripted("mate1", { cmd("move b1c3"), cmd("move b1c3"), cmd("move b1c3") })
  t.eq(r.reason, "illegal_move_limit")
  t.eq(r.official_reason, "forfeit_invalid_action_limit")
  t.eq(#r.actions, 3)
  t.eq(r.actions[1].kind, "illegal")
  t.contains(r.actions[1].reject_reason, "the chariot on b1 cannot move to c3")
  t.contains(r.actions[1].feedback, "Illegal move: the chariot on b1 cannot move to c3 (1 of 3 invalid actions this turn). Legal moves: a8a0")
  local rr = scripted("mate1", { cmd("move b1c3"), cmd("move b1b9") }, { "--setting", "restricted" })
  t.eq(rr.reason, "win_mate")
  t.eq(rr.actions[1].feedback:find("Legal moves", 1, true), nil, "restricted feedback has no legal list")
end)

test("three invalid actions forfeit; a query over its budget is refused but not invalid", function()
  local r = scripted("mate1", { cmd("fly away"), cmd("move to b9"), cmd("view_board"), cmd("view_board"), cmd("jump") })
  t.eq(r.reason, "rejected_limit")
  t.eq(r.official_reason, "forfeit_invalid_action_limit")
  t.eq(#r.actions, 5)
  t.eq({ r.actions[1].kind, r.actions[2].kind, r.actions[3].kind, r.actions[4].kind, r.actions[5].kind },
    { "rejected", "rejected", "accepted", "refused", "rejected" })
  t.contains(r.actions[4].reject_reason, "view_board is over its budget")
end)

test("five replies without a command forfeit", function()
  local r = scripted("mate1", { "hmm", "let me see", "```bash\n# only a comment\n\n```", "no", "still no" })
  t.eq(r.reason, "no_command_limit")
  t.eq(r.official_reason, "forfeit_no_command")
  t.eq(r.actions[5].kind, "no_command")
  t.contains(r.actions[1].feedback, "1 of 5 replies without a command this turn")
end)

test("a non-move action past the eighth forfeits", function()
  local replies = {}
  for i = 1, 9 do replies[i] = cmd("think step " .. i) end
  local r = scripted("mate1", replies)
  t.eq(r.reason, "action_limit")
  t.eq(r.official_reason, "forfeit_action_limit")
  t.eq(#r.actions, 9)
  t.eq(r.actions[9].kind, "over_limit")
  t.eq(r.actions[1].feedback, "Noted. Continue with a command.")
end)

test("the ply cap", function()
  local r = scripted("calm", { cmd("move a1a2"), cmd("move a2a3"), cmd("move a3a4") }, { "--max-plies", "4" })
  t.eq({ r.reason, r.plies }, { "turn_cap", 4 })
end)

test("a repetition without perpetual check is a draw", function()
  local r = scripted("shuffle", { cmd("move a7b7"), cmd("move b7a7"), cmd("move a7b7"), cmd("move b7a7") })
  t.eq(r.reason, "repetition_draw")
  t.eq(r.plies, 8)
  t.eq(r.repetition.result, "draw")
  t.eq(r.status, "failure")
end)

test("a repetition where Red checked every move: attacker perpetual check", function()
  local r = scripted("perpetual", { cmd("move a1f1"), cmd("move f1e1"), cmd("move e1f1"), cmd("move f1e1"), cmd("move e1f1") })
  t.eq(r.reason, "attacker_perpetual_check")
  t.eq(r.repetition.result, "red_loses")
  t.eq(r.plies, 9)
end)

test("a repetition where Black checked every move ends as defender_perpetual_check (a win)", function()
  -- the defender's choices cannot be scripted, so this drives the referee directly:
  -- Black checks with the chariot on the f- and e-files, Red's king has one reply each time
  local S = require("tabula.cmd.run").lib.load(t.root() .. "/scenarios/xiangqibench.lua")
  local env = { opts = { ["max-plies"] = 40 }, prompts = require("tabula.prompt").set("xiangqibench"), defender = { kind = "builtin" } }
  local tr = S.new_trial({ id = "x", case = { fen = "3k5/r8/9/9/9/9/9/9/9/5K3 b - - 0 1" }, setting = "sighted", index = 1 }, env)
  tr.rec = { moves = {} }
  local line = { "a8f8", "f0e0", "f8e8", "e0f0", "e8f8", "f0e0", "f8e8", "e0f0", "e8f8" }
  local reason
  for i, m in ipairs(line) do
    local side = i % 2 == 1 and "black" or "red"
    tr:record_move(side, m, side == "black" and "builtin" or "agent")
    reason = tr:terminal_after(side)
    if i < #line then t.eq(reason, nil, "ply " .. i) end
  end
  t.eq(reason, "defender_perpetual_check")
  t.eq(S.REASONS.win[reason], true)
  t.eq(tr.rec.repetition.result, "black_loses")
end)

test("both defenders see the game's history: no losing perpetual check", function()
  -- Black, a chariot down, has checked with every move since the position after
  -- a8f8; e8f8 would repeat it (the long-check rule makes that Black's loss)
  local S = require("tabula.cmd.run").lib.load(t.root() .. "/scenarios/xiangqibench.lua")
  local start = "3k5/r8/9/9/9/9/9/7R1/8R/5K3 b - - 0 1"
  local history = { "a8f8", "f0e0", "f8e8", "e0f0" }
  local function trial(defender)
    local env = { opts = { ["max-plies"] = 40, ["defender-depth"] = 4 }, prompts = require("tabula.prompt").set("xiangqibench"),
      defender = defender }
    local tr = S.new_trial({ id = "x", case = { fen = start }, setting = "sighted", index = 1 }, env)
    tr.rec = { moves = {}, initial_fen = tr.board:fen() }
    for i, m in ipairs(history) do tr:record_move(i % 2 == 1 and "black" or "red", m, "test") end
    return tr
  end
  local d = trial({ kind = "builtin" }):defend()
  t.ok(d.move ~= "e8f8", "the built-in defender avoids the perpetual check, chose " .. tostring(d.move))
  -- an engine defender is sent the trial's start and every move, in engine coordinates
  local sent
  local fake = { go = function(_, req) sent = req; return { bestmove = "e9e7", lines = {} } end }
  local e = trial({ kind = "uci", name = "fake", pool = { with = function(_, fn) return fn(fake) end } }):defend()
  t.eq(sent.fen, start)
  t.eq(sent.moves, { "a9f9", "f1e1", "f9e9", "e1f1" })
  t.eq(e.move, "e8e6")
end)

test("simulate reports each ply and stops at an illegal ply 3; the game is untouched", function()
  local r = scripted("mate1", { cmd("simulate a8a7 d9d8 a7c5"), cmd("move b1b9") })
  t.eq(r.reason, "win_mate")
  local sim = r.simulations[1]
  t.eq({ sim.outcome, sim.stopped_at, sim.length }, { "illegal", 3, 3 })
  t.eq({ sim.plies[1].valid, sim.plies[2].valid, sim.plies[3].valid }, { true, true, false })
  t.contains(r.actions[1].feedback, "3. a7c5: illegal: the chariot on a7 cannot move to c5")
  t.contains(r.actions[1].feedback, "Stopped at ply 3.")
  t.eq(r.moves[1].fen_before, CASES.mate1, "the real board did not move")
end)

test("a disabled command under Restricted is rejected", function()
  local r = scripted("mate1", { cmd("legal_moves"), cmd("simulate b1b9"), cmd("move b1b9") }, { "--setting", "restricted" })
  t.eq(r.reason, "win_mate")
  t.eq(r.actions[1].reject_reason, "legal_moves is disabled in this setting")
  t.eq(r.actions[2].reject_reason, "simulate is disabled in this setting")
end)

test("an unknown command is rejected with the list of the setting's commands", function()
  local r = scripted("mate1", { cmd("show"), cmd("move b1b9") })
  t.eq(r.reason, "win_mate")
  t.eq(r.actions[1].reject_reason, "unknown command 'show'")
  t.contains(r.actions[1].feedback, "Invalid: unknown command 'show' (1 of 3 invalid actions this turn). The commands are:\n- move <from><to>")
  t.contains(r.actions[1].feedback, "- simulate <m1> <m2>")
  local rr = scripted("mate1", { cmd("show"), cmd("move b1b9") }, { "--setting", "restricted" })
  t.contains(rr.actions[1].feedback, "- history:")
  t.eq(rr.actions[1].feedback:find("simulate", 1, true), nil, "Restricted lists only its own commands")
end)

test("per-ply material by piece type and the balance, Sighted and Restricted; the move number when Sighted", function()
  for _, setting in ipairs({ "sighted", "restricted" }) do
    local r = scripted("calm", { cmd("move a1a2"), cmd("resign") }, { "--setting", setting })
    local fb = r.actions[1].feedback
    t.contains(fb, "Material: Red R1 N0 B0 A0 C0 P0 | Black R0 N0 B0 A0 C0 P0 | balance: Red +9 (nominal)")
    if setting == "sighted" then t.contains(fb, "Move 2. The board now:") else t.eq(fb:find("FEN", 1, true), nil) end
  end
end)

test("Restricted has its own blindfold system prompt; Sighted the won-endgame one", function()
  local r = scripted("mate1", { cmd("move b1b9") }, { "--setting", "restricted" })
  local s = scripted("mate1", { cmd("move b1b9") })
  t.ok(r.system_prompt ~= s.system_prompt)
  t.contains(r.system_prompt, "You are never shown the board")
  t.contains(r.system_prompt, "Red: general e0; advisors d0, f0; elephants c0, g0; horses b0, h0; chariots a0, i0; cannons b2, h2; soldiers a3, c3, e3, g3, i3.")
  t.contains(r.system_prompt, "Giving check three or more times in a row")
  t.eq(r.system_prompt:find("force checkmate", 1, true), nil, "no won-endgame framing")
  t.eq(r.system_prompt:find("endgame", 1, true), nil, "no won-endgame framing")
  t.contains(r.initial_message, "This is the only time you are shown the board")
  t.contains(s.system_prompt, "Red can force checkmate")
  t.contains(s.system_prompt, "one slack or quiet move")
end)

test("the mock server plays a trial over HTTP; usage and cost are recorded", function()
  local mock = require "tests.mock"
  local s = mock.start({ { match = "The game begins", reply = cmd("think the chariot mates on b9"),
    usage = { input = 500, output = 20 } }, { match = "Noted.", reply = cmd("move b1b9"), usage = { input = 600, output = 10 } } })
  local dir = tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return { mock = { provider = "openai", model = "m",
    base_url = %q, key_env = "TABULA_NO_KEY", optional_key = true, prices = { input = 1, output = 2 } } }]], s.url .. "/v1"))
  local r = scripted("mate1", {}, { "--model", "mock", "--models", dir .. "/models.lua" })
  s:close()
  t.eq(r.reason, "win_mate")
  t.eq(r.calls, 2)
  t.eq({ r.usage.input, r.usage.output }, { 1100, 30 })
  t.near(r.cost, 1e-6 * (1100 + 60), 1e-12)
end)

-- ---- golden prompts ----

local GOLDEN = t.root() .. "/tests/golden/xiangqibench"

test("golden prompts: the first messages and one per-turn message of every setting", function()
  local S = require("tabula.cmd.run").lib.load(t.root() .. "/scenarios/xiangqibench.lua")
  local prompt = require "tabula.prompt"
  local update = require("tabula.c.host").getenv("TABULA_UPDATE_GOLDEN") == "1"
  local opts = { ["max-plies"] = 40, actions = 8, ["view-budget"] = 1, ["simulate-budget"] = 1, ["simulate-max"] = 8,
    rejected = 3, illegal = 3, ["no-command"] = 5 }
  local env = { opts = opts, prompts = prompt.set("xiangqibench"), defender = { kind = "builtin" } }
  local checked = 0
  for _, setting in ipairs({ "sighted", "restricted", "full", "no-queries", "no-refresh", "neither" }) do
    local tr = S.new_trial({ id = "x", case = { fen = CASES.mate1 }, setting = setting, index = 1 }, env)
    local texts = { system = tr:system_prompt(), initial = tr:initial_message() }
    local b = tr.board
    local agent_desc = b:describe("a8a7")
    b:play("a8a7")
    local def_desc = b:describe("d9d8")
    b:play("d9d8")
    texts.turn = tr:after_ply(agent_desc, def_desc, false, false)
    for part, text in pairs(texts) do
      local path = string.format("%s/%s_%s.txt", GOLDEN, setting, part)
      if update then fs.mkdir_p(GOLDEN); fs.write_atomic(path, text) end
      local want = fs.read(path)
      t.ok(want, "missing golden file " .. path .. " (TABULA_UPDATE_GOLDEN=1 writes it)")
      t.eq(text, want, path)
      checked = checked + 1
    end
  end
  t.eq(checked, 18)
end)

test("report counts: rows give the cases they cover; an error superseded on resume is no error", function()
  local mock = require "tests.mock"
  local s = mock.start({ { fault = "500", times = 1 }, { reply = cmd("move b1b9") } })
  local dir = tmpdir()
  local lines = {}
  for i, rank5 in ipairs({ "P8", "8P" }) do
    lines[i] = json.canonical({ id = "case_" .. i, fen = "3k5/R8/9/9/" .. rank5 .. "/9/9/9/1R7/4K4 w - - 0 1",
      first_winning_move = "b1b9", win_in_plies = 1 })
  end
  fs.write_atomic(dir .. "/cases.jsonl", table.concat(lines, "\n") .. "\n")
  fs.write_atomic(dir .. "/models.lua", string.format([[return { mock = { provider = "openai", model = "m",
    base_url = %q, optional_key = true } }]], s.url .. "/v1"))
  local command = table.concat({ t.tabula_bin(), "run", t.root() .. "/scenarios/xiangqibench.lua", "--model", "mock",
    "--models", dir .. "/models.lua", "--cases", dir .. "/cases.jsonl", "--trials", "2", "--concurrency", "1",
    "--retries", "0", "--max-attempts", "1", "--out", dir .. "/run", "--quiet", "2>/dev/null" }, " ")
  local function run()
    local h = io.popen(command)
    local out = h:read("a")
    h:close()
    return out, json.read_file(dir .. "/run/summary.json"), fs.read(dir .. "/run/report.md")
  end
  -- first run: case_1's first trial is an infrastructure error, so case_1 has
  -- one scored trial; it stays in rows 2 and 3 as the official scorer keeps it
  local out, sm, md = run()
  t.contains(out, "1 infrastructure errors not scored")
  t.eq(sm.errors, 1)
  local rows = sm.settings.sighted.pass
  t.eq({ sm.settings.sighted.cases, #rows, rows[1].cases, rows[2].cases, rows[3].cases }, { 2, 3, 2, 2, 2 })
  t.eq(sm.settings.sighted.incomplete, 2)
  t.contains(md, "| sighted | 2 | 1 |")
  t.contains(md, "| sighted | 2 | 2 |")
  -- the resume plays that trial again: nothing is an error any more
  out, sm, md = run()
  t.ok(not out:find("infrastructure", 1, true), out)
  t.eq(sm.errors, 0)
  t.eq(sm.trials, 4)
  t.contains(md, "infrastructure errors not scored: 0")
  t.eq(#records.read(dir .. "/run/trials.jsonl"), 5, "the error line stays in the file")
  t.eq(select(2, records.final(records.read(dir .. "/run/trials.jsonl"))), 0)
  s:close()
end)

-- ---- resume ----

test("a run killed mid-way resumes to the same trials without re-sending cached calls", function()
  local mock = require "tests.mock"
  local proc = require "tabula.c.proc"
  local s = mock.start({ { match = "The game begins", reply = cmd("think b1b9 mates") },
    { match = "Noted.", reply = cmd("move b1b9"), delay_ms = 1500 } })
  local dir = tmpdir()
  local lines = {}
  for i, file in ipairs({ "a", "c", "g", "i" }) do
    -- the same mate with a Red soldier on a different square each time
    local rank5 = ({ a = "P8", c = "2P6", g = "6P2", i = "8P" })[file]
    lines[i] = json.canonical({ id = "case_" .. file, fen = "3k5/R8/9/9/" .. rank5 .. "/9/9/9/1R7/4K4 w - - 0 1",
      first_winning_move = "b1b9", win_in_plies = 1 })
  end
  fs.write_atomic(dir .. "/cases.jsonl", table.concat(lines, "\n") .. "\n")
  fs.write_atomic(dir .. "/models.lua", string.format([[return { mock = { provider = "openai", model = "m",
    base_url = %q, optional_key = true } }]], s.url .. "/v1"))
  local argv = { t.tabula_bin(), "run", t.root() .. "/scenarios/xiangqibench.lua", "--model", "mock", "--models",
    dir .. "/models.lua", "--cases", dir .. "/cases.jsonl", "--trials", "2", "--concurrency", "1",
    "--out", dir .. "/run", "--quiet" }
  local p = assert(proc.spawn(argv, "null"))
  -- kill while a trial is inside its second (slow) call: more second calls seen
  -- by the server than trials recorded
  local killed = false
  for _ = 1, 400 do
    loop.sleep(0.05)
    local recorded = #records.read(dir .. "/run/trials.jsonl")
    local seconds = 0
    for _, r in ipairs(s:log()) do if r.body:find("Noted.", 1, true) then seconds = seconds + 1 end end
    if recorded >= 2 and seconds > recorded then p:kill(9); killed = true; break end
  end
  p:reap(true)
  t.ok(killed, "the run was killed mid-trial")
  local before = records.read(dir .. "/run/trials.jsonl")
  t.ok(#before >= 2 and #before < 8)
  -- continue the run
  local h = io.popen(table.concat(argv, " ") .. " > /dev/null 2>&1; echo $?")
  t.eq(h:read("a"), "0\n")
  h:close()
  local after = records.read(dir .. "/run/trials.jsonl")
  t.eq(#after, 8)
  local ids = {}
  for _, r in ipairs(after) do
    t.eq(ids[r.trial_id], nil, "no duplicate trial " .. r.trial_id)
    ids[r.trial_id] = true
    t.eq(r.reason, "win_mate")
  end
  -- every first call was sent once: the interrupted trial's first call came from the cache
  local firsts, seconds = 0, 0
  for _, r in ipairs(s:log()) do
    if r.body:find("Noted.", 1, true) then seconds = seconds + 1
    elseif r.body:find("The game begins", 1, true) then firsts = firsts + 1 end
  end
  t.eq(firsts, 8)
  t.eq(seconds, 9, "only the call that was cut off was sent again")
  local interrupted
  for _, r in ipairs(after) do if r.cached_calls > 0 then interrupted = r end end
  t.ok(interrupted, "one trial replayed its first call from the cache")
  s:close()
end)

return T
