-- bench/wingspan.lua — Wingspan's match lengths, observation sizes and ISMCTS decision time:
-- the decision counter D (every sub-decision, games/wingspan/RULES.md) per three-player match,
-- its median and interquartile range (type-7 quantiles, as the reference study's Table 8),
-- player turns (actions) and D/3, the acting seat's observation size in characters (text
-- and JSON) at the median and the maximum over every decision, for Random x3 and Heuristic x3
-- (ε = 0.1); with TIMED > 0, ISMCTS's CPU seconds per decision at TIMED_SIMULATIONS
-- simulations (18 steps) on TIMED positions spread over a heuristic match.
-- Run: tabula bench/wingspan.lua [MATCHES=20] [TIMED=0] [TIMED_SIMULATIONS=1024] [PLAYERS=3]
local G = require "games.wingspan"
local kit = require "games.kit"
local ismcts = require "games.ismcts"
local json = require "tabula.json"
local scores = require "scenarios.dece.scores"

local matches, timed = tonumber(arg[1] or "20"), tonumber(arg[2] or "0")
local timed_sims, n = tonumber(arg[3] or "1024"), tonumber(arg[4] or "3")
local function q(xs, p) return scores.quantile(scores.sorted(xs), p) or 0 end

local function run(label, heuristic)
  local Ds, turns, text, js = {}, {}, {}, {}
  for m = 1, matches do
    local s, rand, d, a = G.setup(n, 7000 + m), kit.generator(m), 0, 0
    while not G.is_terminal(s) do
      local seat = G.current_seats(s)[1]
      local o = G.observation(s, seat)
      text[#text + 1], js[#js + 1] = #G.render(o), #json.encode(o)
      d = d + 1
      if s.ask.kind == "action" then a = a + 1 end
      local legal = G.legal_actions(s, seat)
      assert(G.apply(s, seat, heuristic and ismcts.heuristic_pick(G, s, seat, legal, rand, 0.1) or legal[rand(#legal)].id))
    end
    Ds[#Ds + 1], turns[#turns + 1] = d, a
  end
  local d3 = {}
  for i, d in ipairs(Ds) do d3[i] = d / n end
  print(string.format("%-13s %3d matches, %d seats: D median %.1f [IQR %.1f-%.1f], turns %.0f, D/%d %.1f; text chars median %.0f max %d; JSON median %.0f max %d",
    label, matches, n, q(Ds, 0.5), q(Ds, 0.25), q(Ds, 0.75), q(turns, 0.5), n, q(d3, 0.5), q(text, 0.5), q(text, 1), q(js, 0.5), q(js, 1)))
end

if matches > 0 then run("random x" .. n, false); run("heuristic x" .. n, true) end

if timed > 0 then
  local rand = kit.generator(99)
  local s = G.setup(n, 4321)
  local positions = {}
  while not G.is_terminal(s) do
    positions[#positions + 1] = kit.copy(s)
    local seat = G.current_seats(s)[1]
    assert(G.apply(s, seat, ismcts.heuristic_pick(G, s, seat, G.legal_actions(s, seat), rand, 0.1)))
  end
  local times, sum = {}, 0
  for j = 1, timed do
    local st = positions[math.floor((j - 0.5) * #positions / timed) + 1]
    local t0 = os.clock()
    ismcts.choose(G, st, G.current_seats(st)[1], rand, { simulations = timed_sims, steps = 18 })
    times[j] = os.clock() - t0
    sum = sum + times[j]
  end
  print(string.format("ISMCTS %d simulations, 18 steps: %.2f s mean CPU per decision (median %.2f, max %.2f) over %d positions",
    timed_sims, sum / timed, q(times, 0.5), q(times, 1), timed))
end
