-- bench/harmonies.lua — Harmonies' match lengths and observation sizes (bench/dece_lengths.lua):
-- the decision counter D (every sub-decision the game counts, games/harmonies/RULES.md) per
-- three-player match, its median and interquartile range, player turns and D/3, and the acting
-- seat's observation size (text and JSON) at the median and the maximum over every decision,
-- for matches between Random players, between Heuristic players (ε = 0.1), and of Random,
-- Heuristic and ISMCTS (seats rotated; ISMCTS with SIMULATIONS simulations and 18 steps).
-- With TIMED > 0, also ISMCTS's decision time (CPU seconds) at TIMED_SIMULATIONS simulations
-- on TIMED positions spread over a heuristic match (the figure bench/dece_players.lua gives
-- over whole matches, for when a whole match at 1024 simulations is too long for the machine).
-- GAME (default harmonies) measures another game the same way (burgundy: The Castles of
-- Burgundy, games/burgundy/RULES.md); a player turn is then told by the game's
-- G.turns_played(state) where it has one.
-- Run: tabula bench/harmonies.lua [MATCHES=20] [SIMULATIONS=64] [ISMCTS_MATCHES=3] [TIMED=0]
--        [TIMED_SIMULATIONS=1024] [GAME=harmonies]
local G = require("games." .. (arg[6] or "harmonies"))
local lengths = require "bench.dece_lengths"

local matches = tonumber(arg[1] or "20")
local sims = tonumber(arg[2] or "64")
local im = tonumber(arg[3] or "3")
local timed = tonumber(arg[4] or "0")
local timed_sims = tonumber(arg[5] or "1024")

local function turn_key(s)
  if G.turns_played then return tostring(G.turns_played(s)) end
  return s.round .. ":" .. s.turn
end

if matches > 0 then
  lengths.run(G, { label = "random x3", players = { "random", "random", "random" }, count = matches, turn_key = turn_key })
  lengths.run(G, { label = "heuristic x3", players = { "heuristic", "heuristic", "heuristic" }, count = matches, turn_key = turn_key })
end
if im > 0 then
  lengths.run(G, { label = string.format("random/heuristic/ismcts(%d)", sims), players = { "random", "heuristic", "ismcts" },
                   count = im, simulations = sims, turn_key = turn_key })
end
if timed > 0 then lengths.timed(G, { positions = timed, simulations = timed_sims }) end
