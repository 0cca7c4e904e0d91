-- bench/jianghu108_reference.lua — the built-in Jianghu108 player's accuracy
-- next to a Fairy-Stockfish reference on the same problems, same run: overall,
-- by circumstance (win / draw) and on the problems whose answer is not E, plus
-- how often each one's best option is the key on those.
-- Run: tabula bench/jianghu108_reference.lua [DATA] [DEPTH]   (or bench/jianghu108_reference.sh)
--
-- The reference: Fairy-Stockfish searches the position after each option to
-- DEPTH (default 20) and takes the best option from Red's side; it answers E
-- when that option does not keep enough for the circumstance: below +REF_WIN
-- centipawns in a won problem, below -REF_DRAW in a drawn one (every option loses).
local jh = require "games.xiangqi.jianghu"
local player = require "scenarios.jianghu108.engine"
local xq = require "games.xiangqi"
local engine = require "tabula.engine"
local loop = require "tabula.loop"
local fs = require "tabula.fs"

local data = arg[1] or "../shared/data/jianghu108/江湖残局.json"
local depth = tonumber(arg[2] or "20")
local REF_WIN, REF_DRAW = 200, 200
if not fs.kind(data) then print("no problems at " .. data); return end
if not fs.kind("/usr/games/fairy-stockfish") then print("fairy-stockfish not installed (make deps)"); return end
local problems = jh.load(data)

local function red_score(line)
  -- the engine's score is the side to move's (Black after an option)
  if line.mate then return line.mate > 0 and -(30000 - line.mate) or (30000 + line.mate) end
  return -(line.cp or 0)
end

local function tally() return { n = 0, ok = 0, win = { 0, 0 }, draw = { 0, 0 }, note = { 0, 0 }, key = 0 } end

local function count(t, p, circ, choice, best)
  local right = choice == p.correctAnswer
  t.n, t.ok = t.n + 1, t.ok + (right and 1 or 0)
  t[circ][1], t[circ][2] = t[circ][1] + (right and 1 or 0), t[circ][2] + 1
  if p.correctAnswer ~= "E" then
    t.note[1], t.note[2] = t.note[1] + (right and 1 or 0), t.note[2] + 1
    if best == p.correctAnswer then t.key = t.key + 1 end
  end
end

loop.run(function()
  local e = engine.start({ name = "fairy-stockfish", argv = { "/usr/games/fairy-stockfish" }, timeout = 3600 })
  e:uci({ UCI_Variant = "xiangqi", Threads = 1, Hash = 64 })
  local mine, ref = tally(), tally()
  local t_mine, t_ref = 0, 0
  for _, p in ipairs(problems) do
    local circ = jh.CIRCUMSTANCE[p.circumstance]
    local t0 = loop.now()
    local choice, detail = player.choose(p)
    t_mine = t_mine + (loop.now() - t0)
    local own_best = detail.scores and (function()
      local b, s
      for _, l in ipairs({ "A", "B", "C", "D" }) do
        local v = detail.scores[l]
        if v and (not s or v > s) then b, s = l, v end
      end
      return b
    end)() or choice
    count(mine, p, circ, choice, own_best)
    -- the reference
    local board, moves = player.options(p)
    local best, best_score
    t0 = loop.now()
    for _, l in ipairs({ "A", "B", "C", "D" }) do
      local m = moves and moves[l]
      if m then
        e:send("ucinewgame"); e:ready()
        e:send("position fen " .. board:fen() .. " moves " .. xq.iccs_to_engine(m))
        e:send("go depth " .. depth)
        local lines = e:read_until("^bestmove")
        local last
        for _, line in ipairs(lines) do
          if line:match("^info .* score ") and not line:match("bound") then
            last = { cp = tonumber(line:match(" score cp (%-?%d+)")), mate = tonumber(line:match(" score mate (%-?%d+)")) }
          end
        end
        local s = last and red_score(last) or -30000   -- no reply: Black is mated or stalemated
        if not best_score or s > best_score then best, best_score = l, s end
      end
    end
    t_ref = t_ref + (loop.now() - t0)
    local rchoice = best or "E"
    if best and circ == "win" and best_score < REF_WIN then rchoice = "E" end
    if best and circ ~= "win" and best_score < -REF_DRAW then rchoice = "E" end
    count(ref, p, circ, rchoice, best)
  end
  e:close()
  local function pct(a, b) return b > 0 and string.format("%5.1f%% (%d/%d)", 100 * a / b, a, b) or "n/a" end
  print(string.format("Jianghu108, %d problems: built-in player (%d nodes per position) vs Fairy-Stockfish depth %d per option", #problems, player.NODES, depth))
  print(string.format("%-22s %-20s %-20s", "", "built-in", "fairy-stockfish"))
  print(string.format("%-22s %-20s %-20s", "overall", pct(mine.ok, mine.n), pct(ref.ok, ref.n)))
  print(string.format("%-22s %-20s %-20s", "win", pct(mine.win[1], mine.win[2]), pct(ref.win[1], ref.win[2])))
  print(string.format("%-22s %-20s %-20s", "draw", pct(mine.draw[1], mine.draw[2]), pct(ref.draw[1], ref.draw[2])))
  print(string.format("%-22s %-20s %-20s", "answer not E", pct(mine.note[1], mine.note[2]), pct(ref.note[1], ref.note[2])))
  print(string.format("%-22s %-20s %-20s", "best option is the key", pct(mine.key, mine.note[2]), pct(ref.key, ref.note[2])))
  print(string.format("%-22s %-20s %-20s", "seconds", string.format("%.1f", t_mine), string.format("%.1f", t_ref)))
  print(string.format("accuracy ratio built-in / reference: %.2f", mine.ok / math.max(1, ref.ok)))
  -- the figure to publish, both players from this one run (README quotes the built-in one)
  print(string.format("built-in player: %d/%d; fairy-stockfish depth %d: %d/%d (same run)", mine.ok, mine.n, depth, ref.ok, ref.n))
end)
