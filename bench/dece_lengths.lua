-- bench/dece_lengths.lua — what bench/<game>.lua scripts of the DECE games share: match lengths
-- and observation sizes over matches of given players, and ISMCTS's decision time on positions
-- spread over a heuristic match.
--   lengths.run(G, { label =, players = { "random" | "heuristic" | "ismcts", … }, count =, n =,
--                    simulations =, turn_key = function(state) -> key })
-- prints the decision counter D per match (the game's counts_decision) as median and
-- interquartile range (linear-interpolation quantiles, as the reference study's Table 8),
-- player turns (a turn = a run of decisions with the same turn_key), D/n, and the acting seat's
-- observation size in characters (text and JSON) at the median and the maximum over every
-- decision; seats rotate over the matches (match m: seat i plays players[(i + m) % #players + 1]);
-- for a game with G.crossed(state) (a match that reached its own end, not a bound), how many did.
--   lengths.timed(G, { positions =, simulations =, n = })
-- prints ISMCTS's CPU time per decision at that many simulations (18 steps).
local kit = require "games.kit"
local ismcts = require "games.ismcts"
local json = require "tabula.json"
local scores = require "scenarios.dece.scores"

local M = {}

local function q(xs, p) return scores.quantile(scores.sorted(xs), p) or 0 end

function M.run(G, o)
  local n = o.n or 3
  local Ds, turns, text, js = {}, {}, {}, {}
  local crossed = 0
  for m = 1, o.count do
    local who = {}
    for seat = 1, n do who[seat] = o.players[(seat + m) % #o.players + 1] end
    local s = G.setup(n, 7000 + m)
    local rand = kit.generator(m)
    local d, t, last = 0, 0, nil
    while not G.is_terminal(s) do
      local seat = G.current_seats(s)[1]
      local obs = G.observation(s, seat)
      text[#text + 1] = #G.render(obs)
      js[#js + 1] = #json.encode(obs)
      if not G.counts_decision or G.counts_decision(s, seat) then d = d + 1 end
      local key = o.turn_key(s)
      if key ~= last then t = t + 1; last = key end
      local legal = G.legal_actions(s, seat)
      local id
      if who[seat] == "random" then id = legal[rand(#legal)].id
      elseif who[seat] == "heuristic" then id = ismcts.heuristic_pick(G, s, seat, legal, rand, 0.1)
      else id = ismcts.choose(G, s, seat, rand, { simulations = o.simulations, steps = 18 }) end
      assert(G.apply(s, seat, id))
    end
    Ds[#Ds + 1], turns[#turns + 1] = d, t
    if G.crossed and G.crossed(s) then crossed = crossed + 1 end
  end
  local dn = {}
  for i, d in ipairs(Ds) do dn[i] = d / n end
  print(string.format("%-30s %d players %3d matches  D median %.1f [IQR %.1f-%.1f]  turns %.0f  D/%d %.1f  text chars median %.0f max %d  JSON median %.0f max %d",
    o.label, n, o.count, q(Ds, 0.5), q(Ds, 0.25), q(Ds, 0.75), q(turns, 0.5), n, q(dn, 0.5),
    q(text, 0.5), math.floor(q(text, 1)), q(js, 0.5), math.floor(q(js, 1))))
  if G.crossed then print(string.format("%-30s crossed (the game's own end, not the bound) in %d of %d matches", o.label, crossed, o.count)) end
end

function M.timed(G, o)
  local rand = kit.generator(99)
  local s = G.setup(o.n or 3, 4321)
  local positions = {}
  while not G.is_terminal(s) do
    positions[#positions + 1] = kit.copy(s)
    local seat = G.current_seats(s)[1]
    assert(G.apply(s, seat, ismcts.heuristic_pick(G, s, seat, G.legal_actions(s, seat), rand, 0.1)))
  end
  local times = {}
  for k = 1, o.positions do
    local st = positions[math.floor((k - 0.5) * #positions / o.positions) + 1]
    local seat = G.current_seats(st)[1]
    if #G.legal_actions(st, seat, true) > 1 then
      local t0 = os.clock()
      ismcts.choose(G, st, seat, rand, { simulations = o.simulations, steps = 18 })
      times[#times + 1] = os.clock() - t0
    end
  end
  local sum = 0
  for _, x in ipairs(times) do sum = sum + x end
  print(string.format("ISMCTS %d simulations / 18 steps: %d decisions, mean %.2f s, median %.2f s, max %.2f s (CPU)",
    o.simulations, #times, sum / math.max(1, #times), q(times, 0.5), q(times, 1)))
end

return M
