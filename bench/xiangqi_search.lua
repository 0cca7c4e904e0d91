-- bench/xiangqi_search.lua — the built-in search against Fairy-Stockfish, same
-- positions, same run: nodes/second at a fixed depth, and the time to prove
-- every reference mate (built-in exhaustive mate search vs Fairy-Stockfish's
-- `go mate N`). Run: tabula bench/xiangqi_search.lua [CASES] [DEPTH] [search]
-- (a third argument "search" skips the mate proofs). Target: time to depth 7
-- within 3x of Fairy-Stockfish. Both run single-threaded from empty tables
-- (ucinewgame), timed from "go" to "bestmove" the same way; "depth" is each
-- engine's own nominal depth (both extend checks and reduce late moves), so the
-- line also says how many of the mates each found at that depth.
local xq = require "games.xiangqi"
local records = require "tabula.records"
local engine = require "tabula.engine"
local loop = require "tabula.loop"

local cases_path = arg[1] or "../shared/data/xiangqibench/cases.jsonl"
local depth = tonumber(arg[2] or "7")
local cases = records.read(cases_path)
if #cases == 0 then print("no cases at " .. cases_path); return end

loop.run(function()
  local e = engine.start({ name = "fairy-stockfish", argv = { "/usr/games/fairy-stockfish" }, timeout = 600 })
  e:uci({ UCI_Variant = "xiangqi", Threads = 1, Hash = 64 })
  -- 1. nodes per second at a fixed depth
  local tn, tt, fn, ft, tm, fm = 0, 0, 0, 0, 0, 0
  for _, c in ipairs(cases) do
    local b = xq.new(c.fen)
    local t0 = loop.now()
    local r = xq.search(b, { depth = depth })
    tt = tt + (loop.now() - t0)
    tn = tn + r.nodes
    if r.mate and r.mate > 0 then tm = tm + 1 end
    e:send("ucinewgame"); e:ready()
    e:send("position fen " .. c.fen)
    local w0 = loop.now()
    e:send("go depth " .. depth)
    local lines = e:read_until("^bestmove")
    ft = ft + (loop.now() - w0)
    for i = #lines, 1, -1 do
      local n = lines[i]:match(" nodes (%d+)")
      if n then
        fn = fn + tonumber(n)
        if lines[i]:match(" score mate %d") then fm = fm + 1 end
        break
      end
    end
  end
  print(string.format("search to depth %d on %d positions: tabula %.2f M nodes/s (%d nodes, %.1fs, %d mates found); fairy-stockfish %.2f M nodes/s (%d nodes, %.1fs, %d mates found); nps ratio %.2fx; time ratio tabula/fairy-stockfish %.2fx (target <= 3x)",
    depth, #cases, tn / tt / 1e6, tn, tt, tm, fn / ft / 1e6, fn, ft, fm, (tn / tt) / (fn / ft), tt / ft))
  if arg[3] == "search" then e:close(); return end
  -- 2. proving every reference mate
  local tp, fp, tok, fok = 0, 0, 0, 0
  for _, c in ipairs(cases) do
    local b = xq.new(c.fen)
    local t0 = os.clock()
    local r = xq.mate(b, { plies = c.win_in_plies, checks_only = c.verified_by == "solver_proof", nodes = 50000000 })
    tp = tp + (os.clock() - t0)
    if r.found then tok = tok + 1 end
    e:send("ucinewgame"); e:ready()
    e:send("position fen " .. c.fen)
    local w0 = loop.now()
    e:send("go mate " .. ((c.win_in_plies + 1) // 2))
    local lines = e:read_until("^bestmove")
    fp = fp + (loop.now() - w0)
    for _, l in ipairs(lines) do if l:match(" score mate %d") then fok = fok + 1; break end end
  end
  print(string.format("proving the %d reference mates: tabula %d proved in %.1fs; fairy-stockfish (go mate N) %d in %.1fs; time ratio %.2fx",
    #cases, tok, tp, fok, fp, tp / fp))
  e:close()
end)
