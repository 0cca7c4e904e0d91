-- bench/arknova_crossing.lua — how Ark Nova matches approach the crossing (games/arknova/RULES.md):
-- three-player matches of one player kind (seeds 7001.., the same as bench/harmonies.lua), with
-- the best seat's appeal / CP / score at each break, whether the match crossed or ended on the
-- bound, and per action card the score (appeal + CP on the appeal track) a turn added on average.
-- PLAYER=mixed: one heuristic seat (seats rotated over the matches) against two Random seats:
-- how often the heuristic is placed first, and its pairwise score against Random (1 placed
-- ahead, ½ tie), as bench/dece_players.lua counts it.
-- Run: tabula bench/arknova_crossing.lua [MATCHES=20] [MAX_BREAKS=14] [MAX_TURNS=80]
--        [PLAYER=heuristic|random|mixed] [VERBOSE=0] [MAP=planA|ours|plan7] (default planA)
local G = require "games.arknova"
local D = require "games.arknova.data"
local kit = require "games.kit"
local ismcts = require "games.ismcts"

local matches = tonumber(arg[1] or "20")
local opts = { max_breaks = tonumber(arg[2] or "14"), max_turns = tonumber(arg[3] or "80") }
local who = arg[4] or "heuristic"
local verbose = (arg[5] or "0") ~= "0"
opts.map = arg[6]
if opts.map and not D.MAPS[opts.map] then
  io.stderr:write("arknova_crossing: MAP (argument 6) must be one of " .. table.concat(D.MAP_NAMES, ", ") .. ", not " .. opts.map .. "\n")
  os.exit(1)
end
if who ~= "heuristic" and who ~= "random" and who ~= "mixed" then
  io.stderr:write("arknova_crossing: PLAYER (argument 4) must be heuristic, random or mixed, not " .. who .. "\n")
  os.exit(1)
end

local function points(p) return p.appeal + D.cp_value(p.cp) end
local function best_seat(s)
  local b = 1
  for i = 2, s.n do if G.score_of(s.players[i]) > G.score_of(s.players[b]) then b = i end end
  return b
end

local crossed, bests, at, per = 0, {}, {}, {}
local first, pair, pairs_n = 0, 0, 0   -- PLAYER=mixed: the heuristic placed first; its pairwise score
for m = 1, matches do
  local hseat = (m - 1) % 3 + 1
  local s = G.setup(3, 7000 + m, opts)
  local rand = kit.generator(m)
  local open, trail, lastb = {}, {}, -1
  while not G.is_terminal(s) do
    if s.breaks ~= lastb then
      lastb = s.breaks
      local p = s.players[best_seat(s)]
      trail[#trail + 1] = string.format("%d:%d/%d/%d", s.breaks, p.appeal, p.cp, G.score_of(p))
    end
    local seat = G.current_seats(s)[1]
    local legal = G.legal_actions(s, seat)
    local random = who == "random" or (who == "mixed" and seat ~= hseat)
    local id = random and legal[rand(#legal)].id or ismcts.heuristic_pick(G, s, seat, legal, rand, 0.1)
    if s.step and s.step.k == "turn" and #s.bonuses == 0 and #s.pend == 0 and #s.discards == 0 then
      local p = s.players[seat]
      if open[seat] then
        local a = per[open[seat].a] or { n = 0, d = 0 }
        a.n, a.d = a.n + 1, a.d + points(p) - open[seat].v
        per[open[seat].a] = a
      end
      open[seat] = { a = id:find("^x:") and "X-token" or id:match("^(%a+)"), v = points(p) }
    end
    assert(G.apply(s, seat, id))
  end
  if G.crossed(s) then crossed = crossed + 1 end
  if who == "mixed" then
    local r = G.ranking(s).ranks
    if r[hseat] == 1 then first = first + 1 end
    for q = 1, 3 do
      if q ~= hseat then
        pairs_n = pairs_n + 1
        pair = pair + (r[hseat] < r[q] and 1 or r[hseat] == r[q] and 0.5 or 0)
      end
    end
  end
  local b = G.score_of(s.players[best_seat(s)])
  bests[#bests + 1], at[#at + 1] = b, s.breaks
  if verbose then
    print(string.format("match %d: %s after %d breaks, best score %d; per break (appeal/CP/score): %s", m,
      G.crossed(s) and "crossed" or "bound", s.breaks, b, table.concat(trail, " ")))
  end
end
table.sort(bests)
local q = bests[(#bests + 1) // 2]
print(string.format("%s%s, bound %d breaks / %d turns: crossed in %d of %d matches; best seat's final score median %d (%d to %d); breaks played: %s",
  who == "mixed" and "heuristic + random x2" or (who .. " x3"), opts.map and (" on map " .. opts.map) or "", opts.max_breaks, opts.max_turns, crossed, matches, q, bests[1], bests[#bests], table.concat(at, " ")))
if who == "mixed" then
  print(string.format("the heuristic against two Random seats: placed first in %d of %d matches; pairwise score against Random %.1f%% (%g of %d)",
    first, matches, 100 * pair / pairs_n, pair, pairs_n))
end
local names = {}
for k in pairs(per) do names[#names + 1] = k end
table.sort(names)
for _, k in ipairs(names) do
  print(string.format("  %-12s %4d turns, %.2f points a turn", k, per[k].n, per[k].d / per[k].n))
end
