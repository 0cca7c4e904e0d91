-- Splendor rules: token and card conservation over random playouts, legal-action counts in
-- hand-built positions (the first turn of a 3-player game), buying with bonuses and gold,
-- the ten-token limit, nobles, the end of the game and its tie-break, determinism,
-- serialization, a blind-reserved card seen only by its owner, turn order, reserving and
-- buying from the reserve, empty decks, nobles counting bonuses only, the data manifest and
-- the rules audit (games/splendor/RULES-AUDIT.md).
local t = require "tabula.testing"
local G = require "games.splendor"
local kit = require "games.kit"
local rt = require "games.rules_test"
local test, T = t.suite()

local W, U, Gr, R, K, GOLD = 1, 2, 3, 4, 5, 6

local function conserved(s, where)
  local function bad(msg, ...) error((where or "") .. ": " .. string.format(msg, ...), 0) end
  for k = 1, 6 do
    local total = s.bank[k]
    if s.bank[k] < 0 then bad("negative bank") end
    for i = 1, s.n do total = total + s.players[i].tokens[k] end
    if total ~= (k == GOLD and 5 or G.TOKENS[s.n]) then bad("%d tokens of colour %d", total, k) end
  end
  local seen, count = {}, 0
  local function card(id)
    if seen[id] then bad("card %d twice", id) end
    seen[id] = true; count = count + 1
  end
  for level = 1, 3 do
    for _, id in ipairs(s.decks[level]) do card(id) end
    for _, id in ipairs(s.market[level]) do if id > 0 then card(id) end end
  end
  local nobles = #s.nobles
  for i = 1, s.n do
    local p = s.players[i]
    local pts, bonus = 3 * #p.nobles, { 0, 0, 0, 0, 0 }
    for _, id in ipairs(p.cards) do card(id); local c = G.card(id); pts = pts + c.points; bonus[c.bonus] = bonus[c.bonus] + 1 end
    for _, r in ipairs(p.reserved) do card(r.id) end
    if #p.reserved > 3 then bad("more than three reserved") end
    if pts ~= p.points then bad("points %d but cards and nobles make %d", p.points, pts) end
    for k = 1, 5 do if bonus[k] ~= p.bonus[k] then bad("bonuses do not match the cards") end end
    local tokens = 0
    for k = 1, 6 do tokens = tokens + p.tokens[k] end
    if tokens > 10 and not (s.phase == "return" and s.turn == i) then bad("seat %d holds %d tokens", i, tokens) end
    nobles = nobles + #p.nobles
  end
  if count ~= 90 then bad("%d cards instead of 90", count) end
  if nobles ~= s.n + 1 then bad("%d nobles instead of %d", nobles, s.n + 1) end
end

-- a 3-player position with no cards drawn yet beyond the market of the seed
local function position() return G.setup(3, 9) end

test("splendor: 100 fast random playouts (2-4 players) conserve tokens, cards and nobles", function()
  t.eq(rt.playouts(G, { games = 100, seed = 21, light = true, invariant = conserved }).matches, 100)
end)

test("splendor: full checks (actions, illegal ids, serialization, hidden information, determinism) on 6 playouts", function()
  local r = rt.playouts(G, { games = 6, seed = 4, invariant = conserved, hidden_every = 5 })
  t.ok(r.steps > 6 * 30)
end)

test("splendor: setup by player count: 4/5/7 gems, 5 gold, 12 cards on view, n+1 nobles", function()
  for n, gems in pairs({ [2] = 4, [3] = 5, [4] = 7 }) do
    local s = G.setup(n, 2)
    t.eq(s.bank, { gems, gems, gems, gems, gems, 5 })
    t.eq(#s.nobles, n + 1)
    t.eq({ #s.decks[1], #s.decks[2], #s.decks[3] }, { 36, 26, 16 })
    conserved(s)
  end
end)

test("splendor: the first turn of a 3-player game has 30 actions (10 + 5 + 12 + 3 + 0)", function()
  local s = position()
  t.eq(#G.legal_actions(s, 1), 30)
  t.eq(rt.count_actions(G, s, 1, "^take:"), 10)
  t.eq(rt.count_actions(G, s, 1, "^take2:"), 5)
  t.eq(rt.count_actions(G, s, 1, "^reserve:%d"), 12)
  t.eq(rt.count_actions(G, s, 1, "^reserve:deck"), 3)
  t.eq(rt.count_actions(G, s, 1, "^buy:"), 0)
  t.eq(#G.legal_actions(s, 2), 0)
end)

test("splendor: hand-built bank: take two needs four, fewer than three colours, three reserved", function()
  local s = position()
  local p = s.players[1]
  s.bank = { 3, 0, 4, 0, 0, 0 }     -- the rest is held by the three seats (totals: 5 each, 5 gold)
  p.tokens = { 2, 5, 0, 0, 0, 0 }
  s.players[2].tokens = { 0, 0, 1, 5, 0, 3 }
  s.players[3].tokens = { 0, 0, 0, 0, 5, 2 }
  t.eq(rt.count_actions(G, s, 1, "^take:"), 1, "one take of the two colours left")
  t.eq(G.legal_actions(s, 1)[1].id, "take:white,green")
  t.eq(rt.count_actions(G, s, 1, "^take2:"), 1, "only green has four")
  for level = 1, 3 do table.insert(p.reserved, { id = table.remove(s.decks[level]), blind = true }) end
  t.eq(rt.count_actions(G, s, 1, "^reserve"), 0, "three reserved: no more")
  conserved(s)
end)

-- put card `id` (in its deck, or already taken out of it) on view at `slot` of its level
local function to_market(s, id, slot)
  for level = 1, 3 do
    for j, x in ipairs(s.decks[level]) do
      if x == id then s.decks[level][j] = s.market[level][slot]; s.market[level][slot] = id; return end
    end
  end
  local level = G.card(id).level      -- a card taken out of its deck: the one on view goes back
  table.insert(s.decks[level], s.market[level][slot])
  s.market[level][slot] = id
end

local function take_from_decks(s, want)
  for level = 1, 3 do
    for j, x in ipairs(s.decks[level]) do if want(G.card(x)) then return table.remove(s.decks[level], j) end end
  end
end

test("splendor: buying uses bonuses, then coloured tokens, then gold; the market refills", function()
  local s = position()
  t.eq(G.CARDS[1], { 1, "white", 0, { 0, 0, 0, 2, 1 } }, "card 1 costs 2 red and 1 black")
  to_market(s, 1, 1)
  local p = s.players[1]
  local red = take_from_decks(s, function(c) return c.bonus == R and c.points == 0 end)
  p.cards[1] = red; p.bonus[R] = 1                     -- a red bonus from a card bought earlier
  p.tokens[K], p.tokens[GOLD] = 1, 1
  s.bank[K], s.bank[GOLD] = s.bank[K] - 1, s.bank[GOLD] - 1
  conserved(s)
  t.eq(G.payment(p, G.card(1)), { 0, 0, 0, 0, 1, 1 }, "red: 1 by bonus, 1 by gold; black by its token")
  local deck_before = #s.decks[1]
  assert(G.apply(s, 1, "buy:1"))
  t.eq(p.tokens, { 0, 0, 0, 0, 0, 0 })
  t.eq(s.bank, { 5, 5, 5, 5, 5, 5 })
  t.eq(p.bonus, { 1, 0, 0, 1, 0 })
  t.eq(#s.decks[1], deck_before - 1, "the market slot was refilled from the deck")
  t.ok(s.market[1][1] ~= 1 and s.market[1][1] > 0)
  conserved(s)
end)

test("splendor: hand-computed purchase: 2 white bonus, cost 3 white 3 red, holding 1 white 2 red 1 gold", function()
  local p = { bonus = { 2, 0, 0, 0, 0 }, tokens = { 1, 0, 0, 2, 0, 1 } }
  t.eq(G.payment(p, { cost = { 3, 0, 0, 3, 0 } }), { 1, 0, 0, 2, 0, 1 })
  t.eq(G.payment(p, { cost = { 3, 0, 0, 4, 0 } }), nil)
  t.eq(G.payment(p, { cost = { 2, 0, 0, 0, 0 } }), { 0, 0, 0, 0, 0, 0 }, "bonuses alone pay")
end)

test("splendor: over ten tokens the same seat returns them one at a time (not decisions)", function()
  local s = position()
  local p = s.players[1]
  p.tokens = { 2, 2, 2, 2, 1, 0 }
  for k = 1, 5 do s.bank[k] = s.bank[k] - p.tokens[k] end
  assert(G.apply(s, 1, "take:white,blue,green"))
  t.eq(s.phase, "return"); t.eq(G.current_seats(s), { 1 })
  t.eq(G.counts_decision(s, 1), false)
  t.eq(#G.legal_actions(s, 1), 5, "one return per colour held")
  t.eq(G.apply(s, 1, "return:gold"), nil, "no gold held")
  assert(G.apply(s, 1, "return:black"))
  t.eq(s.phase, "return")
  assert(G.apply(s, 1, "return:white"))
  t.eq(s.phase, "main"); t.eq(s.turn, 2)
  conserved(s)
end)

test("splendor: nobles: one visits by itself, several give a choice, one per turn", function()
  local s = position()
  local p = s.players[1]
  local a, b = s.nobles[1], s.nobles[2]
  -- bonuses meeting both nobles' needs, minus one card the buy will add
  local need = {}
  for k = 1, 5 do need[k] = math.max(G.NOBLES[a][k], G.NOBLES[b][k]) end
  -- buy a free card: the bonuses come from cards the player "already has"
  local id = s.market[1][1]
  local c = G.card(id)
  for k = 1, 5 do p.bonus[k] = math.max(need[k], c.cost[k]) end
  p.bonus[c.bonus] = p.bonus[c.bonus] - 1
  assert(G.apply(s, 1, "buy:" .. id))
  t.eq(s.phase, "noble"); t.eq(s.turn, 1)
  t.eq(G.counts_decision(s, 1), false)
  local ids = {}
  for _, x in ipairs(G.legal_actions(s, 1)) do ids[#ids + 1] = x.id end
  t.ok(#ids >= 2, "a choice of nobles")
  assert(G.apply(s, 1, ids[2]))
  t.eq(#p.nobles, 1, "one noble per turn")
  t.eq(p.points, c.points + 3)
  t.eq(s.turn, 2)
  -- next turn the other noble visits by itself
  s.turn = 1
  assert(G.apply(s, 1, "take:white,blue,green"))
  t.eq(#p.nobles, 2)
end)

test("splendor: 15 points end the game after the round; tie-break by fewer cards", function()
  local s = position()
  s.turn = 2
  local p2 = s.players[2]
  local old = take_from_decks(s, function(c) return c.level == 3 and c.points == 5 end)
  p2.cards = { old, take_from_decks(s, function(c) return c.level == 3 and c.points == 5 end),
               take_from_decks(s, function(c) return c.level == 2 and c.points == 3 end),
               take_from_decks(s, function(c) return c.level == 1 and c.points == 1 end) }
  p2.points = 14
  for _, x in ipairs(p2.cards) do local c = G.card(x); p2.bonus[c.bonus] = p2.bonus[c.bonus] + 1 end
  local one = take_from_decks(s, function(c) return c.level == 1 and c.points == 1 end)
  to_market(s, one, 1)
  p2.tokens[GOLD] = 4; s.bank[GOLD] = 1                 -- four gold pay a four-token card
  conserved(s)
  assert(G.apply(s, 2, "buy:" .. one))
  t.eq(p2.points, 15)
  t.ok(s.final_round and not G.is_terminal(s), "seat 3 still plays")
  t.eq(G.current_seats(s), { 3 })
  assert(G.apply(s, 3, "take:white,blue,green"))
  t.ok(G.is_terminal(s))
  local p1, p2, p3 = s.players[1], s.players[2], s.players[3]
  p1.points, p2.points, p3.points = 16, 16, 3
  p1.cards, p2.cards = { 1, 2, 3 }, { 4, 5 }
  t.eq(G.ranking(s).ranks, { 2, 1, 3 }, "equal points: fewer cards wins")
  p2.cards = { 4, 5, 6 }
  t.eq(G.ranking(s).ranks, { 1, 1, 3 }, "still equal: shared")
end)

test("splendor: a whole round of passes ends the game (a deadlock found by a long random run)", function()
  local s = position()
  local n = 0
  for k = 1, 5 do
    -- the bank's gems go to seats 1 and 2 (ten at most each)
    while s.bank[k] > 0 do
      local p = s.players[(n % 2) + 1]
      s.bank[k] = s.bank[k] - 1; p.tokens[k] = p.tokens[k] + 1; n = n + 1
    end
  end
  s.players[3].tokens[1] = 0
  for i = 1, 3 do
    for level = 1, 3 do table.insert(s.players[i].reserved, { id = table.remove(s.decks[level]), blind = true }) end
  end
  for i = 1, 3 do for k = 1, 5 do s.players[i].bonus[k] = 0 end end
  -- give the tokens of seats 1 and 2 back down to ten by moving the rest to seat 3
  for i = 1, 2 do
    local p = s.players[i]
    for k = 1, 5 do while p.tokens[1] + p.tokens[2] + p.tokens[3] + p.tokens[4] + p.tokens[5] > 10 and p.tokens[k] > 0 do
      p.tokens[k] = p.tokens[k] - 1; s.players[3].tokens[k] = s.players[3].tokens[k] + 1 end end
  end
  -- nothing on view can be bought with 0 gold and a few tokens? make sure: empty the market
  for level = 1, 3 do for slot = 1, 4 do table.insert(s.decks[level], s.market[level][slot]); s.market[level][slot] = 0 end end
  conserved(s)
  t.eq(G.legal_actions(s, 1), { { id = "pass", label = "pass (no other action is possible)" } })
  assert(G.apply(s, 1, "pass")); assert(G.apply(s, 2, "pass"))
  t.ok(not G.is_terminal(s))
  assert(G.apply(s, 3, "pass"))
  t.ok(G.is_terminal(s), "three passes in a row end it")
  rt.check_ranking(G, s, 3, "after the passes")
end)

test("splendor: a card reserved unseen is seen only by its owner", function()
  local s = position()
  assert(G.apply(s, 1, "reserve:deck2"))
  local other = kit.copy(s)
  local mine = other.players[1].reserved[1]
  other.decks[2][1], mine.id = mine.id, other.decks[2][1]
  t.ok(s.players[1].reserved[1].id ~= mine.id)
  rt.same_observation(G, s, other, 2)
  rt.same_observation(G, s, other, 3)
  t.ok(kit.serialize(G.observation(s, 1)) ~= kit.serialize(G.observation(other, 1)), "the owner sees which card")
  t.eq(G.observation(s, 2).players[1].reserved[1], { hidden = true, level = 2 })
  t.eq(s.players[1].tokens[GOLD], 1, "reserving takes a gold")
  -- a visible reservation is public
  s.turn = 2
  local seen = s.market[1][2]
  assert(G.apply(s, 2, "reserve:" .. seen))
  t.eq(G.observation(s, 3).players[2].reserved[1].id, seen)
end)

test("splendor: turns pass from seat 1 in seat order; a take moves one gem of each colour, or two of one, from the bank", function()
  local s = position()
  t.eq(G.current_seats(s), { 1 })
  assert(G.apply(s, 1, "take:white,blue,green"))
  t.eq(s.players[1].tokens, { 1, 1, 1, 0, 0, 0 })
  t.eq(s.bank, { 4, 4, 4, 5, 5, 5 })
  t.eq(G.current_seats(s), { 2 })
  assert(G.apply(s, 2, "take2:red"))
  t.eq(s.players[2].tokens, { 0, 0, 0, 2, 0, 0 })
  t.eq(s.bank[R], 3)
  t.eq(G.current_seats(s), { 3 })
  t.eq(G.apply(s, 1, "take:white,blue,green"), nil, "not seat 1's turn")
  assert(G.apply(s, 3, "take:green,red,black"))
  t.eq(s.players[3].tokens, { 0, 0, 1, 1, 1, 0 })
  t.eq(G.current_seats(s), { 1 }, "after the last seat, seat 1 again")
  conserved(s)
end)

test("splendor: reserving: the card on view is replaced from its deck; a gold comes only while the bank has one", function()
  local s = position()
  local id = s.market[2][3]
  local deck = #s.decks[2]
  assert(G.apply(s, 1, "reserve:" .. id))
  t.eq(s.players[1].reserved[1], { id = id, blind = false })
  t.eq(#s.decks[2], deck - 1, "the level 2 deck refilled the slot")
  t.ok(s.market[2][3] > 0 and s.market[2][3] ~= id)
  t.eq(s.players[1].tokens[GOLD], 1); t.eq(s.bank[GOLD], 4)
  conserved(s)
  -- every gold is taken: the next reservation brings none
  s.players[3].tokens[GOLD], s.bank[GOLD] = 4, 0
  assert(G.apply(s, 2, "reserve:deck3"))
  t.eq(#s.players[2].reserved, 1)
  t.eq(s.players[2].tokens[GOLD], 0, "no gold left to take")
  t.eq(s.bank[GOLD], 0)
  conserved(s)
end)

test("splendor: a reserved card is bought only by its owner; it leaves the reserve and the market is untouched", function()
  local s = position()
  local id = s.market[1][1]
  assert(G.apply(s, 1, "reserve:" .. id))
  local c = G.card(id)
  for i = 1, 3 do for k = 1, 5 do s.players[i].bonus[k] = c.cost[k] end end  -- every seat could pay for it
  local market = kit.copy(s.market)
  t.eq(rt.count_actions(G, s, 2, "^buy:" .. id .. "$"), 0, "not listed for another seat")
  t.eq(G.apply(s, 2, "buy:" .. id), nil, "another seat cannot buy it")
  s.turn = 1
  t.eq(rt.count_actions(G, s, 1, "^buy:" .. id .. "$"), 1)
  assert(G.apply(s, 1, "buy:" .. id))
  t.eq(s.players[1].reserved, {}); t.eq(s.players[1].cards, { id })
  t.eq(s.market, market, "buying from the reserve draws nothing")
end)

test("splendor: a card taken from the market when its deck is empty leaves its space empty", function()
  local s = position()
  local p = s.players[1]
  local id = s.market[3][2]
  local c = G.card(id)
  for k = 1, 5 do p.bonus[k] = c.cost[k] end
  s.decks[3] = {}
  assert(G.apply(s, 1, "buy:" .. id))
  t.eq(s.market[3][2], 0, "nothing to draw")
  t.eq(G.observation(s, 2).market[3][2], { empty = true })
  t.eq(rt.count_actions(G, s, 2, "^reserve:deck3$"), 0, "an empty deck cannot be reserved from")
end)

test("splendor: nobles look at bonuses only: gem tokens that match a noble's needs bring no visit", function()
  local s = position()
  local p = s.players[1]
  local need = G.NOBLES[s.nobles[1]]
  for k = 1, 5 do p.tokens[k] = need[k]; s.bank[k] = s.bank[k] - need[k] end
  conserved(s)
  assert(G.apply(s, 1, "reserve:deck1"))
  t.eq(p.nobles, {}, "no noble visits"); t.eq(s.turn, 2); t.eq(p.points, 0)
  -- with the bonuses instead, the same noble visits at the end of a turn
  s.turn = 1
  for k = 1, 5 do p.bonus[k] = need[k]; s.bank[k] = s.bank[k] + p.tokens[k]; p.tokens[k] = 0 end
  assert(G.apply(s, 1, "reserve:deck2"))
  t.ok(#p.nobles == 1 or s.phase == "noble", "the bonuses bring a visit")
end)

-- The component manifest. Splendor's decks are symmetric: within a level every colour has
-- the same cards up to a permutation of the gem colours, and every gem colour is demanded
-- equally. One wrong cost (card 54 once cost 3 white 2 green 2 red instead of 3 red) breaks
-- both the pattern and the totals, so this pins every card without copying the list.
test("splendor: data manifest: 90 cards and 10 nobles against the decks' structural totals", function()
  local cards, nobles = require("games.splendor.cards").cards, require("games.splendor.cards").nobles
  local colours = { "white", "blue", "green", "red", "black" }
  t.eq(#cards, 90, "cards")
  local per_level, per_colour, points, demand, pattern, seen = {}, {}, {}, {}, {}, {}
  for lv = 1, 3 do
    per_level[lv], demand[lv] = 0, { 0, 0, 0, 0, 0 }
    for _, c in ipairs(colours) do
      per_colour[lv .. c], points[lv .. c], pattern[lv .. c] = 0, 0, {}
    end
  end
  for id, c in ipairs(cards) do
    local lv, colour, pts, cost = c[1], c[2], c[3], c[4]
    t.ok(per_colour[lv .. colour], "card " .. id .. ": level and colour")
    local key = string.format("%d %s %d %s", lv, colour, pts, table.concat(cost, ","))
    t.ok(not seen[key], "card " .. id .. " repeats card " .. tostring(seen[key])); seen[key] = id
    per_level[lv], per_colour[lv .. colour] = per_level[lv] + 1, per_colour[lv .. colour] + 1
    points[lv .. colour] = points[lv .. colour] + pts
    local sorted = {}
    for k = 1, 5 do demand[lv][k] = demand[lv][k] + cost[k]; if cost[k] > 0 then sorted[#sorted + 1] = cost[k] end end
    table.sort(sorted)
    table.insert(pattern[lv .. colour], pts .. ":" .. table.concat(sorted, ","))
  end
  t.eq(per_level, { 40, 30, 20 }, "cards per level")
  local want_points, want_demand = { 1, 11, 16 }, { 33, 41, 43 }
  for lv = 1, 3 do
    for _, c in ipairs(colours) do
      t.eq(per_colour[lv .. c], ({ 8, 6, 4 })[lv], string.format("level %d %s cards", lv, c))
      t.eq(points[lv .. c], want_points[lv], string.format("level %d %s points", lv, c))
      table.sort(pattern[lv .. c])
      t.eq(pattern[lv .. c], pattern[lv .. "white"],
        string.format("level %d: %s cards' (points: sorted cost) differ from white's", lv, c))
    end
    t.eq(demand[lv], { want_demand[lv], want_demand[lv], want_demand[lv], want_demand[lv], want_demand[lv] },
      string.format("level %d: gems of each colour over all its costs", lv))
  end
  -- nobles: five ask 3+3+3 of three colours, five ask 4+4 of two; each colour is in three
  -- of the first kind and two of the second
  t.eq(#nobles, 10, "nobles")
  local kinds, in3, in4 = {}, { 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0 }
  for _, need in ipairs(nobles) do
    local sorted = {}
    for k = 1, 5 do if need[k] > 0 then sorted[#sorted + 1] = need[k]; local tally = need[k] == 3 and in3 or in4; tally[k] = tally[k] + 1 end end
    local kind = table.concat(sorted, ",")
    kinds[kind] = (kinds[kind] or 0) + 1
  end
  t.eq(kinds, { ["3,3,3"] = 5, ["4,4"] = 5 })
  t.eq(in3, { 3, 3, 3, 3, 3 }); t.eq(in4, { 2, 2, 2, 2, 2 })
  t.eq(G.card(54).cost, { 3, 0, 2, 3, 0 }, "card 54: 3 white, 2 green, 3 red")
  -- the five 3+3+3 nobles ask for three colours next to each other in the order white, blue,
  -- green, red, black (read as a circle), the five 4+4 nobles for two (three of the four
  -- sources of RULES.md agree on all ten; the other two each change one 3+3+3 noble)
  local want = {}
  for k = 0, 4 do
    local three, two = { 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0 }
    for j = 0, 2 do three[(k + j) % 5 + 1] = 3 end
    for j = 0, 1 do two[(k + j) % 5 + 1] = 4 end
    want[table.concat(three, ",")], want[table.concat(two, ",")] = true, true
  end
  for i, need in ipairs(nobles) do
    local key = table.concat(need, ",")
    t.ok(want[key], "noble " .. i .. " asks for " .. key); want[key] = nil
  end
  -- the cards where one source of RULES.md differs from the others: the value the others give
  local disputed = {
    [1] = { 1, "white", 0, { 0, 0, 0, 2, 1 } }, [4] = { 1, "white", 0, { 0, 2, 0, 0, 2 } },
    [5] = { 1, "white", 0, { 0, 2, 2, 0, 1 } }, [32] = { 1, "red", 1, { 4, 0, 0, 0, 0 } },
    [34] = { 1, "black", 0, { 0, 0, 2, 1, 0 } }, [40] = { 1, "black", 1, { 0, 4, 0, 0, 0 } },
    [56] = { 2, "green", 2, { 0, 5, 3, 0, 0 } }, [67] = { 2, "black", 2, { 0, 0, 5, 3, 0 } },
    [74] = { 3, "white", 5, { 3, 0, 0, 0, 7 } }, [75] = { 3, "blue", 3, { 3, 0, 3, 3, 5 } },
    [81] = { 3, "green", 4, { 3, 6, 3, 0, 0 } }, [85] = { 3, "red", 4, { 0, 3, 6, 3, 0 } },
  }
  for id, c in pairs(disputed) do t.eq(cards[id], c, "card " .. id) end
  -- the token supply and the game's limits, as the rulebook's setup and summaries give them
  t.eq(G.TOKENS, { [2] = 4, [3] = 5, [4] = 7 }, "gems of each colour by player count")
end)

test("splendor: RULES-AUDIT.md names existing tests; coverage by status", function()
  local counts = rt.audit(t.root() .. "/games/splendor/RULES-AUDIT.md", T, "SP")
  t.ok(counts.PASS >= 30, "rules audited: " .. counts.PASS)
end)

return T
