-- bench/harmonies.lua — Harmonies' match lengths and observation sizes: the decision counter D
-- (every sub-decision the game counts, games/harmonies/RULES.md) per three-player match, its
-- median and interquartile range (linear-interpolation quantiles, as the reference study's
-- Table 8), player turns and D/3, and the size in characters of the acting seat's observation
-- (text and JSON) at the median and the maximum over every decision, for matches between
-- Random players, between Heuristic players (ε = 0.1), and of Random, Heuristic and ISMCTS
-- (seats rotated; ISMCTS with SIMULATIONS simulations and 18 steps).
-- Run: tabula bench/harmonies.lua [MATCHES=20] [SIMULATIONS=64] [ISMCTS_MATCHES=3]
local G = require "games.harmonies"
local kit = require "games.kit"
local ismcts = require "games.ismcts"
local json = require "tabula.json"

local matches = tonumber(arg[1] or "20")
local sims = tonumber(arg[2] or "64")
local im = tonumber(arg[3] or "3")

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

run("random x3", { "random", "random", "random" }, matches)
run("heuristic x3", { "heuristic", "heuristic", "heuristic" }, matches)
if im > 0 then run(string.format("random/heuristic/ismcts(%d)", sims), { "random", "heuristic", "ismcts" }, im) end
