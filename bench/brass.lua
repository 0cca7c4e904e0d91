-- bench/brass.lua — Brass: Birmingham's match lengths and observation sizes: the decision
-- counter D (games/brass/RULES.md, "Decisions": every sub-decision with more than one option)
-- per match, its median and interquartile range (linear-interpolation quantiles, as the
-- reference study's Table 8), player turns and D/3, and the acting seat's observation size in
-- characters (text and JSON) at the median and the maximum over every decision, for matches of
-- Random players, of Heuristic players (ε = 0.1), and of Random, Heuristic and ISMCTS (seats
-- rotated; ISMCTS with SIMULATIONS simulations and 18 steps). With TIMED > 0, also ISMCTS's
-- decision time (CPU seconds) at TIMED_SIMULATIONS simulations on TIMED positions spread over a
-- heuristic match.
-- Run: tabula bench/brass.lua [MATCHES=20] [SIMULATIONS=64] [ISMCTS_MATCHES=3] [TIMED=0]
--        [TIMED_SIMULATIONS=1024] [PLAYERS=3]
local G = require "games.brass"
local kit = require "games.kit"
local ismcts = require "games.ismcts"
local json = require "tabula.json"
local scores = require "scenarios.dece.scores"

local matches = tonumber(arg[1] or "20")
local sims = tonumber(arg[2] or "64")
local im = tonumber(arg[3] or "3")
local timed = tonumber(arg[4] or "0")
local timed_sims = tonumber(arg[5] or "1024")
local n = tonumber(arg[6] or "3")

local function q(xs, p) return scores.quantile(scores.sorted(xs), p) or 0 end

local function run(label, players, count)
  local Ds, turns, text, js = {}, {}, {}, {}
  for m = 1, count do
    local who = {}
    for seat = 1, n do who[seat] = players[(seat + m) % #players + 1] end
    local s = G.setup(n, 7000 + m)
    local rand = kit.generator(m)
    local d, t, last = 0, 0, nil
    while not G.is_terminal(s) do
      local seat = G.current_seats(s)[1]
      local o = G.observation(s, seat)
      text[#text + 1] = #G.render(o)
      js[#js + 1] = #json.encode(o)
      if G.counts_decision(s, seat) then d = d + 1 end
      local key = s.era .. s.round .. ":" .. s.pos
      if key ~= last then t = t + 1; last = key end
      local legal = G.legal_actions(s, seat)
      local id
      if who[seat] == "random" then id = legal[rand(#legal)].id
      elseif who[seat] == "heuristic" then id = ismcts.heuristic_pick(G, s, seat, legal, rand, 0.1)
      else id = ismcts.choose(G, s, seat, rand, { simulations = sims, steps = 18 }) end
      assert(G.apply(s, seat, id))
    end
    Ds[#Ds + 1], turns[#turns + 1] = d, t
  end
  local d3 = {}
  for i, d in ipairs(Ds) do d3[i] = d / n end
  print(string.format("%-30s %d players %3d matches  D median %.1f [IQR %.1f-%.1f]  turns %.0f  D/%d %.1f  text chars median %.0f max %d  JSON median %.0f max %d",
    label, n, count, q(Ds, 0.5), q(Ds, 0.25), q(Ds, 0.75), q(turns, 0.5), n, q(d3, 0.5),
    q(text, 0.5), math.floor(q(text, 1)), q(js, 0.5), math.floor(q(js, 1))))
end

if matches > 0 then
  run("random x" .. n, { "random" }, matches)
  run("heuristic x" .. n, { "heuristic" }, matches)
end
if im > 0 then run(string.format("random/heuristic/ismcts(%d)", sims), { "random", "heuristic", "ismcts" }, im) end

if timed > 0 then
  local rand = kit.generator(99)
  local s = G.setup(n, 4321)
  local positions = {}
  while not G.is_terminal(s) do
    positions[#positions + 1] = kit.copy(s)
    local seat = G.current_seats(s)[1]
    assert(G.apply(s, seat, ismcts.heuristic_pick(G, s, seat, G.legal_actions(s, seat), rand, 0.1)))
  end
  local times = {}
  for k = 1, timed do
    local st = positions[math.floor((k - 0.5) * #positions / timed) + 1]
    local seat = G.current_seats(st)[1]
    if #G.legal_actions(st, seat, true) > 1 then
      local t0 = os.clock()
      ismcts.choose(G, st, seat, rand, { simulations = timed_sims, steps = 18 })
      times[#times + 1] = os.clock() - t0
    end
  end
  local sum = 0
  for _, x in ipairs(times) do sum = sum + x end
  print(string.format("ISMCTS %d simulations / 18 steps: %d decisions, mean %.2f s, median %.2f s, max %.2f s (CPU)",
    timed_sims, #times, sum / math.max(1, #times), q(times, 0.5), q(times, 1)))
end
