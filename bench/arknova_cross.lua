-- bench/arknova_cross.lua — how often Ark Nova's markers cross (games/arknova/RULES.md,
-- "Decisions"): the same matches as bench/harmonies.lua (seeds 7001-..., seats rotated, the
-- heuristic with ε = 0.1), counting the matches in which a seat crossed before our bound and the
-- best seat's final score (median and range), for Random and for Heuristic players.
-- Run: tabula bench/arknova_cross.lua [MATCHES=20] [MAP=ours]
local G = require "games.arknova"
local kit = require "games.kit"
local ismcts = require "games.ismcts"
local scores = require "scenarios.dece.scores"

local matches = tonumber(arg[1] or "20")
local map = arg[2] or "ours"

for _, who in ipairs({ "random", "heuristic" }) do
  local crossed, best = 0, {}
  for m = 1, matches do
    local s = G.setup(3, 7000 + m, { map = map })
    local rand = kit.generator(m)
    while not G.is_terminal(s) do
      local seat = G.current_seats(s)[1]
      local legal = G.legal_actions(s, seat)
      local id
      if who == "random" then id = legal[rand(#legal)].id else id = ismcts.heuristic_pick(G, s, seat, legal, rand, 0.1) end
      assert(G.apply(s, seat, id))
    end
    if s.final_from ~= 0 then crossed = crossed + 1 end
    local b
    for i = 1, s.n do local v = G.score_of(s.players[i]); if not b or v > b then b = v end end
    best[#best + 1] = b
  end
  local sorted = scores.sorted(best)
  print(string.format("%-9s x3 on %s: %d of %d matches crossed; best seat's final score median %.1f (%d to %d)", who, map,
    crossed, matches, scores.quantile(sorted, 0.5), sorted[1], sorted[#sorted]))
end
