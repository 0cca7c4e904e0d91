-- bench/brass.lua — Brass: Birmingham's match lengths and observation sizes (bench/dece_lengths.lua):
-- the decision counter D (games/brass/RULES.md, "Decisions": every sub-decision with more than
-- one option), player turns, D/n and observation sizes, for matches of Random players, of
-- Heuristic players (ε = 0.1), and of Random, Heuristic and ISMCTS (SIMULATIONS simulations, 18
-- steps); with TIMED > 0, ISMCTS's CPU time per decision at TIMED_SIMULATIONS simulations on
-- TIMED positions spread over a heuristic match.
-- Run: tabula bench/brass.lua [MATCHES=20] [SIMULATIONS=64] [ISMCTS_MATCHES=3] [TIMED=0]
--        [TIMED_SIMULATIONS=1024] [PLAYERS=3]
local G = require "games.brass"
local lengths = require "bench.dece_lengths"

local matches = tonumber(arg[1] or "20")
local sims = tonumber(arg[2] or "64")
local im = tonumber(arg[3] or "3")
local timed = tonumber(arg[4] or "0")
local timed_sims = tonumber(arg[5] or "1024")
local n = tonumber(arg[6] or "3")

-- a turn: the decisions of one seat's turn (era, round, place in the order)
local function turn_key(s) return s.era .. s.round .. ":" .. s.pos end

if matches > 0 then
  lengths.run(G, { label = "random x" .. n, players = { "random" }, count = matches, n = n, turn_key = turn_key })
  lengths.run(G, { label = "heuristic x" .. n, players = { "heuristic" }, count = matches, n = n, turn_key = turn_key })
end
if im > 0 then
  lengths.run(G, { label = string.format("random/heuristic/ismcts(%d)", sims), players = { "random", "heuristic", "ismcts" },
                   count = im, n = n, simulations = sims, turn_key = turn_key })
end
if timed > 0 then lengths.timed(G, { positions = timed, simulations = timed_sims, n = n }) end
