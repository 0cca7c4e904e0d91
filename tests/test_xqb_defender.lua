-- XiangqiBench's official defender path: --defender pikafish:PATH, tested with
-- a stand-in UCI engine that numbers ranks as Pikafish does (0-9, as ICCS;
-- Fairy-Stockfish numbers them 1-10). The engine gets the official settings
-- (Threads 1, Hash 256, the network as EvalFile, `ucinewgame` and the current
-- position only, depth 18); each trial records the defender; a position the
-- engine rejects is answered by the rule-search fallback; an engine that dies
-- stops the run unless --defender-fallback.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local test, T = t.suite()

-- the stand-in: answers the built-in search's move in ICCS (Pikafish's
-- numbering) and logs what it was sent and what it answered. MODE: ok, reject
-- (bestmove (none)), die (exits on go).
local STAND_IN = [[
local xq = require "games.xiangqi"
local mode, logfile = arg[1], arg[2]
local log = io.open(logfile, "a")
local board
local function say(s) io.write(s, "\n"); io.flush() end
for line in io.lines() do
  log:write("< ", line, "\n"); log:flush()
  if line == "uci" then say("id name Pikafish stand-in"); say("uciok")
  elseif line == "isready" then say("readyok")
  elseif line:match("^position fen ") then
    local fen, moves = line:match("^position fen (.-) moves (.*)$")
    board = xq.new(fen or line:match("^position fen (.*)$"))
    for m in (moves or ""):gmatch("%S+") do board:play(m) end
  elseif line:match("^go") then
    if mode == "die" then os.exit(3) end
    if mode == "reject" then say("bestmove (none)")
    else
      local m = xq.search(board, { depth = 1 }).best
      log:write("> ", m, "\n"); log:flush()
      say("info depth 1 score cp 0 pv " .. m)
      say("bestmove " .. m)
    end
  elseif line == "quit" then break end
end
]]

local CALM = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"

local function setup(mode)
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/stand_in.lua", STAND_IN)
  fs.write_atomic(dir .. "/pikafish", string.format("#!/bin/sh\nexec %s %s %s %s\n", t.quote(t.tabula_bin()),
    t.quote(dir .. "/stand_in.lua"), mode, t.quote(dir .. "/engine.log")))
  os.execute("chmod +x " .. t.quote(dir .. "/pikafish"))
  fs.write_atomic(dir .. "/net.nnue", "net")
  fs.write_atomic(dir .. "/cases.jsonl", json.canonical({ id = "calm", fen = CALM, first_winning_move = "a1a2",
    win_in_plies = 1 }) .. "\n")
  local replies = { json.canonical({ text = "```bash\nmove a1a2\n```" }), json.canonical({ text = "```bash\nresign\n```" }) }
  fs.write_atomic(dir .. "/replies.jsonl", table.concat(replies, "\n") .. "\n")
  return dir
end

local function args(dir, extra)
  local a = { "--model", "replay:" .. dir .. "/replies.jsonl", "--cases", dir .. "/cases.jsonl", "--trials", "1",
    "--defender", "pikafish:" .. dir .. "/pikafish", "--defender-nnue", dir .. "/net.nnue", "--out", dir .. "/run", "--quiet" }
  for _, x in ipairs(extra or {}) do a[#a + 1] = x end
  return a
end

test("Pikafish's moves are read in its own rank numbering, with the official settings", function()
  local dir = setup("ok")
  t.run_scenario("scenarios/xiangqibench.lua", args(dir))
  local r = records.read(dir .. "/run/trials.jsonl")[1]
  t.eq(r.reason, "resignation")
  local log = fs.read(dir .. "/engine.log")
  local answered = {}
  for m in log:gmatch("> (%S+)") do answered[#answered + 1] = m end
  t.eq(#answered, 1, "one defender move")
  -- the move played is the engine's move as it wrote it (read as Fairy-Stockfish's
  -- numbering it would be another square, here not even a legal move)
  t.eq({ r.moves[2].move, r.moves[2].by, r.defender_moves[1].backend }, { answered[1], "pikafish", "pikafish" })
  t.contains(log, "< setoption name Threads value 1")
  t.contains(log, "< setoption name Hash value 256")
  t.contains(log, "< setoption name EvalFile value " .. dir .. "/net.nnue")
  -- ucinewgame, then the position after the agent's move only (no move list), depth 18
  local after = "3k5/9/9/9/9/9/9/R8/9/4K4 b - - 1 1"
  t.contains(log, "< ucinewgame\n< isready\n< position fen ")
  local pos = log:match("< position fen ([^\n]*)")
  t.eq(pos:find(" moves ", 1, true), nil, "no move list: the position only")
  t.eq(pos:match("^(%S+ %S+)"), after:match("^(%S+ %S+)"))
  t.contains(log, "< go depth 18")
  -- the trial's defender record
  local d = r.defender
  t.eq({ d.backend, d.engine_id, d.engine_path, d.nnue, d.depth, d.threads, d.hash },
    { "pikafish", "Pikafish stand-in", dir .. "/pikafish", dir .. "/net.nnue", 18, 1, 256 })
  t.eq(d.nnue_sha256, "a08a0fcbdeafd3c1b3a4b495b9a9c9d96850f08946b52bc0622347d3b6e73b78")   -- sha256("net")
  -- a standard run but for nothing: the report names the defender as Pikafish
  local sm = json.read_file(dir .. "/run/summary.json")
  t.eq({ sm.standard, #sm.nonstandard }, { true, 0 })
  t.contains(fs.read(dir .. "/run/report.md"), "Defender: Pikafish (")
end)

test("a position the engine rejects is answered by the rule-search fallback, recorded as such", function()
  local dir = setup("reject")
  t.run_scenario("scenarios/xiangqibench.lua", args(dir))
  local r = records.read(dir .. "/run/trials.jsonl")[1]
  t.eq(r.reason, "resignation")
  t.eq(r.defender_moves[1].backend, "fallback")
  t.contains(r.defender_moves[1].reason, "engine answered nil, not a legal move here")
end)

test("an engine that dies stops the run with one line; --defender-fallback answers instead (non-standard)", function()
  local dir = setup("die")
  local rc, out = t.tabula("run", t.root() .. "/scenarios/xiangqibench.lua", table.unpack(args(dir)))
  t.ok(rc ~= 0, "the run stops")
  t.contains(out, "configuration error, the run stopped: the defender engine " .. dir .. "/pikafish failed")
  t.contains(out, "--defender-fallback lets the rule search answer instead")
  t.eq(select(2, out:gsub("\n", "")) <= 2, true, "one line (and the exit code): " .. out)
  local dir2 = setup("die")
  t.run_scenario("scenarios/xiangqibench.lua", args(dir2, { "--defender-fallback" }))
  local r = records.read(dir2 .. "/run/trials.jsonl")[1]
  t.eq({ r.status, r.defender_moves[1].backend }, { "failure", "fallback" })
  t.contains(r.defender_moves[1].reason, "engine failed")
  local sm = json.read_file(dir2 .. "/run/summary.json")
  t.eq(sm.nonstandard, { "--defender-fallback (the rule search answers when the engine dies; standard: the run stops)" })
end)

test("--defender-nnue belongs to a Pikafish defender", function()
  local rc, out = t.tabula("run", t.root() .. "/scenarios/xiangqibench.lua", "--model", "random", "--defender-nnue", "/x.nnue",
    "--limit", "1", "--trials", "1", "--out", t.tmpdir() .. "/run")
  t.ok(rc ~= 0)
  t.contains(out, "option --defender-nnue: only for --defender pikafish:PATH")
end)

return T
