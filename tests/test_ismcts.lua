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

return T
