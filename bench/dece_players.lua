-- bench/dece_players.lua — the DECE baselines on the arena's games (Azul, Splendor, Century,
-- 7 Wonders, Carcassonne by default): decision time of Random, Heuristic (ε = 0.1) and ISMCTS
-- (1024 simulations, 18 steps), as ratios to Random in the same run and against the reference
-- study's 30-second ISMCTS target, and their strength: the three-player PWS of each and the
-- pairwise score of Heuristic and ISMCTS against Random (1 placed ahead, ½ tie), ISMCTS's
-- simulations per second (CPU time) per game, seats rotated
-- over the matches. A simultaneous choice (7 Wonders) is decided seat by seat on the state as it
-- stands, the earlier seats' choices pending in it (ISMCTS determinizes them away; the
-- heuristic does not read them).
-- Run: tabula bench/dece_players.lua [MATCHES_PER_GAME=6] [SIMULATIONS=1024]
--        [GAMES=azul,splendor,century,7wonders,carcassonne]
local kit = require "games.kit"
local ismcts = require "games.ismcts"

local matches = tonumber(arg[1] or "6")
local sims = tonumber(arg[2] or "1024")
local games = {}
for g in (arg[3] or "azul,splendor,century,7wonders,carcassonne"):gmatch("[^,]+") do games[#games + 1] = g end
local NAMES = { "random", "heuristic", "ismcts" }

local function decide(kind, G, s, seat, rand)
  local legal = G.legal_actions(s, seat)
  if kind == "random" then return legal[rand(#legal)].id end
  if kind == "heuristic" then return ismcts.heuristic_pick(G, s, seat, legal, rand, 0.1) end
  return (ismcts.choose(G, s, seat, rand, { simulations = sims, steps = 18 }))
end

print(string.format("DECE baselines: %d three-player matches per game, ISMCTS %d simulations / 18 steps", matches, sims))
for _, gname in ipairs(games) do
  local G = require("games." .. gname)
  local time, count, pws, vs_random, apps = {}, {}, {}, {}, {}
  for _, k in ipairs(NAMES) do time[k], count[k], pws[k], vs_random[k], apps[k] = 0, 0, 0, 0, 0 end
  for m = 1, matches do
    local who = {}
    for seat = 1, 3 do who[seat] = NAMES[(seat + m) % 3 + 1] end
    local s = G.setup(3, 1000 + m)
    local rand = kit.generator(m)
    while not G.is_terminal(s) do
      local seat = G.current_seats(s)[1]
      local t0 = os.clock()
      local id = decide(who[seat], G, s, seat, rand)
      time[who[seat]] = time[who[seat]] + os.clock() - t0
      count[who[seat]] = count[who[seat]] + 1
      assert(G.apply(s, seat, id))
    end
    local r = G.ranking(s)
    local rseat
    for seat = 1, 3 do if who[seat] == "random" then rseat = seat end end
    for seat = 1, 3 do
      local k = who[seat]
      pws[k] = pws[k] + ismcts.pws(r.ranks, seat)
      apps[k] = apps[k] + 1
      if seat ~= rseat then
        vs_random[k] = vs_random[k] + (r.ranks[seat] < r.ranks[rseat] and 1 or (r.ranks[seat] == r.ranks[rseat] and 0.5 or 0))
      end
    end
    io.stderr:write(string.format("%s match %d: %s scores %s\n", gname, m, table.concat(who, ","), table.concat(r.scores, ",")))
  end
  local base = time.random / math.max(1, count.random)
  print(string.format("\n%s", gname))
  print("player      decisions   ms/decision   x Random   PWS %   vs Random %")
  for _, k in ipairs(NAMES) do
    local per = time[k] / math.max(1, count[k])
    print(string.format("%-10s %10d %13.3f %10.0f %7.1f %13s", k, count[k], 1000 * per, per / base, 100 * pws[k] / apps[k],
      k == "random" and "-" or string.format("%.1f", 100 * vs_random[k] / apps[k])))
  end
  local per = time.ismcts / math.max(1, count.ismcts)
  print(string.format("ISMCTS decision time: %.2f s, %.1f%% of the reference study's 30 s target; %.0f simulations per second",
    per, 100 * per / 30, per > 0 and sims / per or 0))
end
