-- The engine supervisor: Fairy-Stockfish over UCI (and its agreement with the
-- built-in mate search), GNU Go over GTP, a killed engine restarted, a hung
-- engine timing out, a missing binary, and the pool.
local t = require "tabula.testing"
local engine = require "tabula.engine"
local loop = require "tabula.loop"
local xq = require "games.xiangqi"
local test, T = t.suite()

local FSF = "/usr/games/fairy-stockfish"

local function fsf()
  t.need_program(FSF)
  return engine.uci({ name = "fairy-stockfish", argv = { FSF }, timeout = 60,
    options = { UCI_Variant = "xiangqi", Threads = 1, Hash = 16 } })
end

test("Fairy-Stockfish agrees with the built-in search on mate distances", function()
  local dir = t.need_shared("xiangqibench")
  local u = fsf()
  local records = require "tabula.records"
  local sample = {}
  for _, c in ipairs(records.read(dir .. "/cases.jsonl")) do
    if c.verified_by == "engine" and c.win_in_plies <= 7 and #sample < 8 then sample[#sample + 1] = c end
  end
  t.eq(#sample, 8)
  for _, c in ipairs(sample) do
    local b = xq.new(c.fen)
    local mine = xq.mate(b, { plies = 11, nodes = 4000000 })
    local r = u:go({ fen = c.fen, depth = 18 })
    local theirs = r.lines[1].mate
    t.ok(theirs and theirs > 0, c.id .. ": engine reports a mate")
    t.eq(2 * theirs - 1, mine.plies, c.id .. " mate distance in plies")
    t.ok(xq.engine_to_iccs(r.bestmove), "bestmove in engine coordinates: " .. tostring(r.bestmove))
  end
  t.eq(u:describe().id:match("^Fairy%-Stockfish") ~= nil, true)
  u:close()
end)

test("MultiPV lines are parsed with their scores", function()
  local u = fsf()
  local r = u:go({ fen = xq.START, depth = 6, multipv = 3 })
  t.ok(r.lines[1] and r.lines[2] and r.lines[3], "three lines")
  for i = 1, 3 do t.ok(r.lines[i].cp ~= nil and #r.lines[i].pv >= 1, "line " .. i) end
  t.ok(r.lines[1].cp >= r.lines[3].cp, "ordered best first")
  u:close()
end)

test("a killed engine is reported with its last command and restarted for the next request", function()
  local u = fsf()
  u:go({ fen = xq.START, depth = 2 })
  u.e.proc:kill(9)
  local ok, err = pcall(u.go, u, { fen = xq.START, depth = 2 })
  t.eq(ok, false)
  t.ok(engine.is_failure(err), "an infrastructure failure")
  t.eq(err.infra, true)
  t.eq(err.engine, "fairy-stockfish")
  t.contains(err.message, "engine fairy-stockfish")
  t.ok(err.last_command ~= nil)
  local r = u:go({ fen = xq.START, depth = 2 })
  t.ok(r.bestmove, "answers after the restart")
  t.eq(u:describe().restarts, 1)
  u:close()
end)

test("a hung engine times out; a missing binary is a clear error", function()
  local u = engine.uci({ name = "silent", argv = { "sh", "-c", "cat > /dev/null" }, start_timeout = 0.3 })
  local ok, err = pcall(u.go, u, { fen = xq.START, depth = 1 })
  t.eq(ok, false)
  t.ok(engine.is_failure(err))
  t.contains(err.message, "engine silent did not answer within 0.3s (last command: uci)")
  local m = engine.uci({ name = "nothere", argv = { "/nonexistent/engine" } })
  ok, err = pcall(m.go, m, { depth = 1 })
  t.eq(ok, false)
  t.contains(err.message, "cannot start /nonexistent/engine: no such program")
end)

test("GNU Go over GTP: answers, engine errors, and a dead engine", function()
  t.need_program("/usr/games/gnugo")
  local g = engine.gtp({ name = "gnugo", argv = { "/usr/games/gnugo", "--mode", "gtp", "--level", "1" } })
  t.eq(g:command("boardsize 9"), "")
  t.eq(g:command("play black E5"), "")
  local none, why = g:command("play white E5")
  t.eq(none, nil)
  t.eq(why, "illegal move")
  local mv = g:command("genmove white")
  t.ok(mv:match("^[A-HJ-T]%d+$") or mv == "PASS", "a move: " .. mv)
  g.e.proc:kill(9)
  local ok, err = pcall(g.command, g, "showboard")
  t.eq(ok, false)
  t.ok(engine.is_failure(err))
  t.eq(g:command("boardsize 9"), "", "restarted")
  g:close()
end)

test("the pool lends each engine to one task at a time", function()
  local made, busy, peak = 0, 0, 0
  local pool = engine.pool(function() made = made + 1; return { close = function() end } end, 2)
  local g = loop.group()
  for _ = 1, 6 do
    g:spawn(function()
      pool:with(function()
        busy = busy + 1
        peak = math.max(peak, busy)
        loop.sleep(0.002)
        busy = busy - 1
      end)
    end)
  end
  g:wait()
  t.eq(made, 2)
  t.eq(peak, 2)
end)

return T
