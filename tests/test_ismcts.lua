-- ISMCTS over the game interface: it never changes the state it searches, it is
-- deterministic for a seed, it takes an obviously best action, and from one seat's view its
-- search does not depend on another seat's hidden card (single observer).
local t = require "tabula.testing"
local kit = require "games.kit"
local ismcts = require "games.ismcts"
local S = require "games.splendor"
local A = require "games.azul"
local test, T = t.suite()

test("ismcts: in the last turn of Splendor it buys the card that wins; state unchanged; same seed, same choice", function()
  local s = S.setup(3, 9)
  -- the final round: seat 1 has 15 points, seat 3 (last to play) has 11 and can afford a 5-point card
  local id
  for j, x in ipairs(s.decks[3]) do if S.card(x).points == 5 then id = x; table.remove(s.decks[3], j); break end end
  table.insert(s.decks[3], s.market[3][1]); s.market[3][1] = id
  s.players[1].points = 15
  s.final_round, s.turn = true, 3
  local p = s.players[3]
  p.points = 11
  local c = S.card(id)
  for k = 1, 5 do p.tokens[k] = c.cost[k] - math.min(c.cost[k], 3); p.bonus[k] = math.min(c.cost[k], 3) end
  local before = kit.serialize(s)
  local pick, info = ismcts.choose(S, s, 3, kit.generator(3), { simulations = 96 })
  local bought = pick:match("^buy:(%d+)$")
  t.ok(bought and S.card(tonumber(bought)).points >= 5, "a winning buy, not " .. pick)
  t.eq(info.simulations, 96)
  t.eq(kit.serialize(s), before, "the searched state is untouched")
  t.eq(ismcts.choose(S, s, 3, kit.generator(3), { simulations = 96 }), pick)
end)

test("ismcts: from seat 2's view the identity of seat 1's blind-reserved card does not matter", function()
  local s = S.setup(3, 4)
  assert(S.apply(s, 1, "reserve:deck3"))
  local other = kit.copy(s)
  local mine = other.players[1].reserved[1]
  other.decks[3][1], mine.id = mine.id, other.decks[3][1]
  t.eq(kit.serialize(S.determinize(s, 2, kit.generator(8))), kit.serialize(S.determinize(other, 2, kit.generator(8))),
    "the same information set gives the same determinizations")
  t.ok(kit.serialize(S.determinize(s, 1, kit.generator(8))) ~= kit.serialize(S.determinize(other, 1, kit.generator(8))),
    "the owner's own card is known to it")
  local a, ia = ismcts.choose(S, s, 2, kit.generator(8), { simulations = 64 })
  local b, ib = ismcts.choose(S, other, 2, kit.generator(8), { simulations = 64 })
  t.eq(a, b); t.eq(ia.visits, ib.visits); t.eq(ia.nodes, ib.nodes)
end)

test("ismcts: completes an Azul line that scores rather than flooring tiles", function()
  local s = A.setup(3, 2)
  local p = s.players[1]
  -- tiles already on the wall next to row 1's red space, and two reds in a factory
  p.wall[1][A.wall_column(1, 2)] = 1; p.wall[1][A.wall_column(1, 4)] = 1
  s.factories[1] = { 0, 0, 1, 0, 0 }
  local pick = ismcts.choose(A, s, 1, kit.generator(5), { simulations = 128 })
  t.eq(pick, "f1:red:1")
end)

-- Turn-by-turn games are searched exactly as before the decoupled treatment of simultaneous
-- choices: the pick, its visits and the generator's next draw (how many draws the search made)
-- on fixed positions, recorded with games/ismcts.lua before that change.
test("ismcts: turn-by-turn choices unchanged (Azul, Splendor, Century, Carcassonne)", function()
  local want = {
    { "azul", 1, "f2:blue:2", 2, 278935 },
    { "azul", 1, "c:red:3", 30, 478684 },
    { "azul", 1, "c:blue:2", 31, 825705 },
    { "splendor", 1, "take:blue,red,black", 8, 200203 },
    { "splendor", 1, "take:white,green,red", 11, 170892 },
    { "splendor", 3, "buy:32", 44, 677122 },            -- since card 54's cost was corrected (3 red)
    { "century", 3, "acquire:1", 77, 99932 },
    { "century", 1, "acquire:1", 67, 763520 },
    { "century", 3, "acquire:1", 79, 456055 },
    { "carcassonne", 2, "follower:city1", 91, 749644 },
    { "carcassonne", 1, "place:1:-2:0", 36, 924500 },
    { "carcassonne", 1, "place:-3:0:0", 7, 887415 },
  }
  local got = {}
  for _, g in ipairs({ "azul", "splendor", "century", "carcassonne" }) do
    local G = require("games." .. g)
    local s, r = G.setup(3, 31), kit.generator(17)
    local function step()
      local seat = G.current_seats(s)[1]
      local l = G.legal_actions(s, seat, true)
      assert(G.apply(s, seat, l[r(#l)].id))
    end
    for _, k in ipairs({ 3, 9, 12 }) do
      for _ = 1, k do step() end
      while #G.legal_actions(s, G.current_seats(s)[1], true) < 2 do step() end
      local seat = G.current_seats(s)[1]
      local rand = kit.generator(5)
      local id, info = ismcts.choose(G, s, seat, rand, { simulations = 120 })
      got[#got + 1] = { g, seat, id, info.visits, rand(1000000) }
    end
  end
  t.eq(got, want)
end)

-- doors(simultaneous) -> a two-seat game of one step: seat 1 plays safe (a shared first place,
-- trailing 0 to 10) or opens one of three doors; seat 2 guesses a door. A guessed door loses
-- 0 to 10, an unguessed one wins 10 to 0. Chosen together (simultaneous) a door is worth two
-- chances in three; when seat 2 guesses after seeing seat 1's choice (in turn) it always loses.
local function doors(simultaneous)
  local D = { name = "doors", players = { min = 2, max = 2 } }
  function D.setup() return { n = 2, rng = kit.seed_state(1), pending = { "", "" }, moved = 0 } end
  function D.current_seats(s)
    if s.moved == 2 then return {} end
    if not simultaneous then return { s.moved + 1 } end
    local r = {}
    for i = 1, 2 do if s.pending[i] == "" then r[#r + 1] = i end end
    return r
  end
  function D.is_terminal(s) return s.moved == 2 end
  function D.legal_actions(s, seat)
    if s.pending[seat] ~= "" or s.moved == 2 then return {} end
    if seat == 1 then return { { id = "safe" }, { id = "door1" }, { id = "door2" }, { id = "door3" } } end
    return { { id = "guess1" }, { id = "guess2" }, { id = "guess3" } }
  end
  function D.apply(s, seat, id)
    for _, a in ipairs(D.legal_actions(s, seat)) do
      if a.id == id then s.pending[seat] = id; s.moved = s.moved + 1; return true end
    end
    return nil, "not legal"
  end
  function D.ranking(s)
    local mine, guess = s.pending[1], s.pending[2]
    if mine == "safe" then return { ranks = { 1, 1 }, scores = { 0, 10 } } end
    if mine:sub(-1) == guess:sub(-1) then return { ranks = { 2, 1 }, scores = { 0, 10 } } end
    return { ranks = { 1, 2 }, scores = { 10, 0 } }
  end
  function D.heuristic() return 0 end
  function D.determinize(s, seat)
    local d = kit.copy(s)
    for i = 1, 2 do if i ~= seat and d.pending[i] ~= "" then d.pending[i] = ""; d.moved = d.moved - 1 end end
    return d
  end
  return D
end

test("ismcts: in a simultaneous choice the other seat does not see the observer's sealed choice", function()
  local sim = doors(true)
  local id, info = ismcts.choose(sim, sim.setup(), 1, kit.generator(3), { simulations = 600 })
  -- seat 2 guessing blind: a door is worth about 2/3 * 0.96 + 1/3 * 0.04 = 0.65, safe 0.39
  t.ok(id:match("^door%d$"), "a door, not " .. id)
  t.ok(info.value > 0.5, "the door's value is not biased by a seeing opponent: " .. info.value)
  -- control: when seat 2 really moves after seeing seat 1's choice, every door loses
  local seq = doors(false)
  local sid, sinfo = ismcts.choose(seq, seq.setup(), 1, kit.generator(3), { simulations = 600 })
  t.eq(sid, "safe")
  t.ok(sinfo.value < 0.45, "safe is worth about 0.39: " .. sinfo.value)
end)

-- the reference study's 30-second decision target besides the 1024-simulation cap: a
-- wall-time target per decision, measured here on a clock that advances one second per
-- reading (no dependence on the machine's speed), recorded in the participant manifest
test("ismcts: a wall-time target per decision stops the search; the participant manifest records it", function()
  local s = A.setup(3, 4)
  local now = 0
  local function clock() now = now + 1; return now end
  local _, info = ismcts.choose(A, s, 1, kit.generator(2), { simulations = 40, time = 5, clock = clock })
  t.eq({ info.simulations, info.stopped }, { 5, "time" }, "simulations started before 5 s had passed")
  _, info = ismcts.choose(A, s, 1, kit.generator(2), { simulations = 40, time = 100, clock = clock })
  t.eq({ info.simulations, info.stopped }, { 40, "simulations" }, "the cap binds first")
  _, info = ismcts.choose(A, s, 1, kit.generator(2), { simulations = 40, time = 0.5, clock = clock })
  t.eq(info.simulations, 1, "one simulation always runs")
  local participants = require "scenarios.dece.participants"
  local timed = participants.normalize({ name = "i30", player = "ismcts", time_target = 30 }, "test")
  local plain = participants.normalize({ name = "i30", player = "ismcts" }, "test")
  t.eq(timed.manifest.time_target, 30)
  t.eq(plain.manifest.time_target, nil)
  t.ok(timed.id ~= plain.id, "the target is part of the configuration's identity")
  t.raises(function() participants.normalize({ name = "x", player = "ismcts", time_target = "30s" }, "test") end, "time_target")
  -- the arena's ISMCTS player searches with the manifest's target
  local players = require "scenarios.dece.players"
  local seen
  local choose = ismcts.choose
  ismcts.choose = function(G, st, seat, rand, opts) seen = opts.time; return choose(G, st, seat, rand, { simulations = 2 }) end
  local ok, err = pcall(players.decide, timed, { G = A, state = s, seat = 1, rand = kit.generator(1), legal = A.legal_actions(s, 1) })
  ismcts.choose = choose
  assert(ok, err)
  t.eq(seen, 30)
end)

return T
