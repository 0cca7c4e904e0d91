-- bench/harmonies.lua — Harmonies' match lengths and observation sizes: the decision counter D
-- (every sub-decision the game counts, games/harmonies/RULES.md) per three-player match, its
-- median and interquartile range (linear-interpolation quantiles, as the reference study's
-- Table 8), player turns and D/3, and the size in characters of the acting seat's observation
-- (text and JSON) at the median and the maximum over every decision, for matches between
-- Random players, between Heuristic players (ε = 0.1), and of Random, Heuristic and ISMCTS
-- (seats rotated; ISMCTS with SIMULATIONS simulations and 18 steps).
-- With TIMED > 0, also ISMCTS's decision time (CPU seconds) at TIMED_SIMULATIONS simulations
-- on TIMED positions spread over a heuristic match (the figure bench/dece_players.lua gives
-- over whole matches, for when a whole match at 1024 simulations is too long for the machine).
-- Run: tabula bench/harmonies.lua [MATCHES=20] [SIMULATIONS=64] [ISMCTS_MATCHES=3] [TIMED=0]
--        [TIMED_SIMULATIONS=1024]
local G = require "games.harmonies"
local kit = require "games.kit"
local ismcts = require "games.ismcts"
local json = require "tabula.json"

local matches = tonumber(arg[1] or "20")
local sims = tonumber(arg[2] or "64")
local im = tonumber(arg[3] or "3")
local timed = tonumber(arg[4] or "0")
local timed_sims = tonumber(arg[5] or "1024")

local function quantile(xs, q)
  local s = {}
  for i, x in ipairs(xs) do s[i] = x end
  table.sort(s)
  if #s == 0 then return 0 end
  local h = (#s - 1) * q + 1
  local lo = math.floor(h)
  return s[lo] + (h - lo) * ((s[math.min(lo + 1, #s)] or s[lo]) - s[lo])
end

local function run(label, players, count)
  local Ds, turns, text, js = {}, {}, {}, {}
  for m = 1, count do
    local who = {}
    for seat = 1, 3 do who[seat] = players[(seat + m) % 3 + 1] end
    local s = G.setup(3, 7000 + m)
    local rand = kit.generator(m)
    local d, t = 0, 0
    while not G.is_terminal(s) do
      local seat = G.current_seats(s)[1]
      local o = G.observation(s, seat)
      text[#text + 1] = #G.render(o)
      js[#js + 1] = #json.encode(o)
      if G.counts_decision(s, seat) then d = d + 1 end
      local legal = G.legal_actions(s, seat)
      local id
      if who[seat] == "random" then id = legal[rand(#legal)].id
      elseif who[seat] == "heuristic" then id = ismcts.heuristic_pick(G, s, seat, legal, rand, 0.1)
      else id = ismcts.choose(G, s, seat, rand, { simulations = sims, steps = 18 }) end
      if id == "end" then t = t + 1 end
      assert(G.apply(s, seat, id))
    end
    Ds[#Ds + 1], turns[#turns + 1] = d, t
  end
  local d3 = {}
  for i, d in ipairs(Ds) do d3[i] = d / 3 end
  print(string.format("%-32s %3d matches  D median %.1f [IQR %.1f-%.1f]  turns %.0f  D/3 %.1f  text chars median %.0f max %d  JSON median %.0f max %d",
    label, count, quantile(Ds, 0.5), quantile(Ds, 0.25), quantile(Ds, 0.75), quantile(turns, 0.5), quantile(d3, 0.5),
    quantile(text, 0.5), math.floor(quantile(text, 1)), quantile(js, 0.5), math.floor(quantile(js, 1))))
end

if matches > 0 then
  run("random x3", { "random", "random", "random" }, matches)
  run("heuristic x3", { "heuristic", "heuristic", "heuristic" }, matches)
end
if im > 0 then run(string.format("random/heuristic/ismcts(%d)", sims), { "random", "heuristic", "ismcts" }, im) end

if timed > 0 then
  local rand = kit.generator(99)
  local s = G.setup(3, 4321)
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
    timed_sims, #times, sum / math.max(1, #times), quantile(times, 0.5), quantile(times, 1)))
end
