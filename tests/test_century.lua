-- Century: Spice Road rules: card, point-card and coin conservation over random playouts,
-- legal-action counts in hand-built positions, acquiring with spices left on earlier cards,
-- upgrades and repeated trades, coins, the caravan limit, the end of the game after the round
-- with hand-computed scores and the tie-break, determinism, serialization, nothing hidden
-- but the deck orders; turn order, upgrade limits, the data manifest and the rules audit
-- (games/century/RULES-AUDIT.md).
-- slow: full rule checks over playouts and an arena run (left out by make check)
local t = require "tabula.testing"
local G = require "games.century"
local kit = require "games.kit"
local rt = require "games.rules_test"
local test, T = t.suite()

local Y, R, Gr, B = 1, 2, 3, 4

local function conserved(s, where)
  local function bad(msg, ...) error((where or "") .. ": " .. string.format(msg, ...), 0) end
  local seen, count = {}, 0
  local function card(id)
    if seen[id] then bad("merchant card %d twice", id) end
    seen[id] = true; count = count + 1
  end
  for _, id in ipairs(s.deck) do card(id) end
  for _, m in ipairs(s.market) do
    card(m.card)
    for k = 1, 4 do if m.spices[k] < 0 then bad("negative spices on a card") end end
  end
  local pseen, pcount = {}, 0
  local function pcard(id)
    if pseen[id] then bad("point card %d twice", id) end
    pseen[id] = true; pcount = pcount + 1
  end
  for _, id in ipairs(s.point_deck) do pcard(id) end
  for _, id in ipairs(s.point_row) do pcard(id) end
  local gold, silver = s.gold, s.silver
  for i = 1, s.n do
    local p = s.players[i]
    local own = {}
    for _, list in ipairs({ p.hand, p.played }) do
      for _, id in ipairs(list) do
        if id <= 2 then
          if own[id] then bad("seat %d holds starting card %d twice", i, id) end
          own[id] = true
        else card(id) end
      end
    end
    if not (own[1] and own[2]) then bad("seat %d lost a starting card", i) end
    for _, id in ipairs(p.points) do pcard(id) end
    local held = 0
    for k = 1, 4 do
      if p.spices[k] < 0 then bad("seat %d has negative spices", i) end
      held = held + p.spices[k]
    end
    if held > 10 and not (s.phase == "discard" and s.turn == i) then bad("seat %d holds %d spices", i, held) end
    gold, silver = gold + p.gold, silver + p.silver
  end
  if count ~= 43 then bad("%d merchant cards instead of 43", count) end
  if pcount ~= 36 then bad("%d point cards instead of 36", pcount) end
  if gold ~= 2 * s.n or silver ~= 2 * s.n then bad("coins %d gold, %d silver", gold, silver) end
  if s.gold < 0 or s.silver < 0 then bad("negative coins") end
end

test("century: 40 fast random playouts (2-5 players) conserve cards, point cards and coins", function()
  t.eq(rt.playouts(G, { games = 40, seed = 3, light = true, invariant = conserved, max_steps = 6000 }).matches, 40)
end)

test("century: full checks (actions, illegal ids, serialization, hidden information, determinism) on 3 playouts", function()
  local r = rt.playouts(G, { players = 3, games = 3, seed = 8, invariant = conserved, hidden_every = 7, max_steps = 6000 })
  t.ok(r.steps > 3 * 50)
end)

test("century: setup: starting spices by seat, two starting cards, 6 merchants, 5 point cards, 2n coins", function()
  local s = G.setup(5, 4)
  t.eq(s.players[1].spices, { 3, 0, 0, 0 }); t.eq(s.players[2].spices, { 4, 0, 0, 0 })
  t.eq(s.players[3].spices, { 4, 0, 0, 0 }); t.eq(s.players[4].spices, { 3, 1, 0, 0 }); t.eq(s.players[5].spices, { 3, 1, 0, 0 })
  for i = 1, 5 do t.eq(s.players[i].hand, { 1, 2 }) end
  t.eq(#s.market, 6); t.eq(#s.point_row, 5); t.eq(#s.deck, 37); t.eq(#s.point_deck, 31)
  t.eq({ s.gold, s.silver }, { 10, 10 })
  t.eq(G.threshold(2), 6); t.eq(G.threshold(3), 6); t.eq(G.threshold(4), 5); t.eq(G.threshold(5), 5)
  conserved(s)
end)

-- a 3-player position whose market and point row are chosen by hand
local function position(market, points)
  local s = G.setup(3, 9)
  for _, m in ipairs(s.market) do s.deck[#s.deck + 1] = m.card end
  for _, id in ipairs(s.point_row) do s.point_deck[#s.point_deck + 1] = id end
  s.market, s.point_row = {}, {}
  for _, id in ipairs(market) do
    for j, x in ipairs(s.deck) do if x == id then table.remove(s.deck, j) end end
    s.market[#s.market + 1] = { card = id, spices = { 0, 0, 0, 0 } }
  end
  for _, id in ipairs(points) do
    for j, x in ipairs(s.point_deck) do if x == id then table.remove(s.point_deck, j) end end
    s.point_row[#s.point_row + 1] = id
  end
  conserved(s)
  return s
end

test("century: first turn with 3 yellow: produce, upgrade, acquire positions 1-4, nothing to claim or rest", function()
  local s = position({ 3, 4, 5, 6, 7, 8 }, { 1, 2, 3, 4, 5 })
  t.eq(#G.legal_actions(s, 1), 6)
  t.eq(rt.count_actions(G, s, 1, "^play:"), 2)
  t.eq(rt.count_actions(G, s, 1, "^acquire:"), 4, "3 spices pay for position 4 at most")
  t.eq(rt.count_actions(G, s, 1, "^claim:"), 0)
  t.eq(rt.count_actions(G, s, 1, "^rest"), 0)
  t.eq(#G.legal_actions(s, 2), 0)
  -- with 6 yellow and 2 red: card 3 (3 yellow -> 1 brown) twice, card 4 (1 red -> 3 yellow) twice
  local p = s.players[1]
  p.spices = { 6, 2, 0, 0 }; p.hand = { 1, 2, 3, 4 }
  for j = #s.deck, 1, -1 do if s.deck[j] == 3 or s.deck[j] == 4 then table.remove(s.deck, j) end end
  s.market[1].card, s.market[2].card = 9, 10
  for j = #s.deck, 1, -1 do if s.deck[j] == 9 or s.deck[j] == 10 then table.remove(s.deck, j) end end
  conserved(s)
  t.eq(rt.count_actions(G, s, 1, "^trade:3:"), 2); t.eq(rt.count_actions(G, s, 1, "^trade:4:"), 2)
  t.eq(rt.count_actions(G, s, 1, "^acquire:"), 6)
  t.eq(rt.count_actions(G, s, 1, "^claim:"), 2, "YYRR (6) and YYYRR (7)")
end)

test("century: acquiring pays one spice onto each earlier card; the next buyer takes them", function()
  local s = position({ 3, 4, 5, 6, 7, 8 }, { 1, 2, 3, 4, 5 })
  assert(G.apply(s, 1, "acquire:3"))
  t.eq(s.phase, "pay"); t.eq(G.counts_decision(s, 1), false)
  t.eq(G.apply(s, 1, "pay:red"), nil, "no red held")
  assert(G.apply(s, 1, "pay:yellow")); assert(G.apply(s, 1, "pay:yellow"))
  t.eq(s.players[1].hand, { 1, 2, 5 })
  t.eq(s.players[1].spices, { 1, 0, 0, 0 })
  t.eq(s.market[1].card, 3); t.eq(s.market[1].spices, { 1, 0, 0, 0 })
  t.eq(s.market[2].card, 4); t.eq(s.market[2].spices, { 1, 0, 0, 0 })
  t.eq(s.market[3].card, 6, "the row slides left"); t.eq(#s.market, 6, "and is refilled at the end")
  t.eq(s.turn, 2)
  assert(G.apply(s, 2, "acquire:2"))
  assert(G.apply(s, 2, "pay:yellow"))
  t.eq(s.players[2].hand, { 1, 2, 4 })
  t.eq(s.players[2].spices, { 4, 0, 0, 0 }, "4 - 1 paid + 1 taken from the card")
  t.eq(s.market[1].spices, { 2, 0, 0, 0 })
  conserved(s)
end)

test("century: an upgrade card raises one spice twice; a trade card is used three times at once", function()
  local s = position({ 3, 4, 5, 6, 7, 8 }, { 1, 2, 3, 4, 5 })
  assert(G.apply(s, 1, "play:2"))
  t.eq(s.phase, "upgrade")
  t.eq(#G.legal_actions(s, 1), 2, "up:yellow and stop")
  assert(G.apply(s, 1, "up:yellow")); assert(G.apply(s, 1, "up:red"))
  t.eq(s.players[1].spices, { 2, 0, 1, 0 }, "one yellow became a green")
  t.eq(s.players[1].played, { 2 }); t.eq(s.turn, 2)
  local p = s.players[2]
  p.spices = { 9, 0, 0, 0 }
  table.remove(s.deck, (function() for j, x in ipairs(s.deck) do if x == 41 then return j end end end)())
  p.hand[#p.hand + 1] = 41                 -- card 41: 3 yellow -> 3 red
  t.eq(rt.count_actions(G, s, 2, "^trade:41:"), 3)
  assert(G.apply(s, 2, "trade:41:3"))
  t.eq(p.spices, { 0, 9, 0, 0 })
  conserved(s)
  s.turn = 1
  assert(G.apply(s, 1, "rest"))
  t.eq(s.players[1].hand, { 1, 2 }); t.eq(s.players[1].played, {})
end)

test("century: claiming takes the gold coin at position 1, silver at 2; without gold, silver moves to 1", function()
  local s = position({ 3, 4, 5, 6, 7, 8 }, { 1, 2, 3, 4, 5 })
  local p = s.players[1]
  p.spices = { 5, 4, 0, 0 }
  assert(G.apply(s, 1, "claim:2"))           -- card 2: 3 yellow, 2 red, 7 points
  t.eq(p.points, { 2 }); t.eq(p.silver, 1); t.eq(p.spices, { 2, 2, 0, 0 })
  t.eq(#s.point_row, 5)
  t.eq({ s.point_row[1], s.point_row[2], s.point_row[3], s.point_row[4] }, { 1, 3, 4, 5 }, "the row slides left")
  t.ok(s.point_row[5] > 5, "the new card enters at the right")
  s.turn = 1
  s.players[2].gold, s.gold = 6, 0           -- every gold coin is taken
  assert(G.apply(s, 1, "claim:1"))           -- card 1: 2 yellow, 2 red, 6 points
  t.eq(p.silver, 2, "silver on position 1"); t.eq(p.gold, 0)
  t.eq(G.score(p), 6 + 7 + 2)
  conserved(s)
end)

test("century: over ten spices the same seat discards one at a time (not decisions)", function()
  local s = position({ 3, 4, 5, 6, 7, 8 }, { 1, 2, 3, 4, 5 })
  local p = s.players[1]
  p.spices = { 9, 1, 0, 0 }
  assert(G.apply(s, 1, "play:1"))
  t.eq(s.phase, "discard"); t.eq(G.counts_decision(s, 1), false); t.eq(G.current_seats(s), { 1 })
  t.eq(#G.legal_actions(s, 1), 2)
  assert(G.apply(s, 1, "discard:red"))
  t.eq(s.phase, "discard")
  assert(G.apply(s, 1, "discard:yellow"))
  t.eq(s.phase, "main"); t.eq(s.turn, 2); t.eq(p.spices, { 10, 0, 0, 0 })
end)

test("century: the sixth point card (3 players) ends the game after the round; hand-computed scores; later seat wins ties", function()
  local s = position({ 3, 4, 5, 6, 7, 8 }, { 1, 2, 3, 4, 5 })
  local p2 = s.players[2]
  -- seat 2 holds five point cards: 8 (5 red, 10), 12 (4 green, 12), 20 (4 brown, 16), 9 (2Y 2B, 10), 24 (5 brown, 20)
  for _, id in ipairs({ 8, 12, 20, 9, 24 }) do
    for j, x in ipairs(s.point_deck) do if x == id then table.remove(s.point_deck, j) end end
    p2.points[#p2.points + 1] = id
  end
  s.gold, p2.gold = s.gold - 1, 1
  p2.spices = { 3, 2, 1, 1 }
  conserved(s)
  s.turn = 2
  assert(G.apply(s, 2, "claim:1"))           -- card 1: 2 yellow, 2 red -> 6 points + gold
  t.ok(s.final_round and not G.is_terminal(s), "seat 3 still plays")
  assert(G.apply(s, 3, "play:1"))
  t.ok(G.is_terminal(s), "the round ends with seat 3")
  -- 10+12+16+10+20+6 point cards, 2 gold = 6, spices left 1 yellow, 1 green, 1 brown = 2
  t.eq(G.score(p2), 74 + 6 + 2)
  t.eq(G.ranking(s).scores[2], 82)
  local p1, p3 = s.players[1], s.players[3]
  p1.spices = { 0, 0, 0, 0 }; p3.spices = { 0, 0, 0, 0 }
  p1.points, p3.points = { 28 }, { 28 }      -- 13 points each
  t.eq(G.ranking(s).ranks, { 3, 1, 2 }, "equal scores: the later seat is ahead")
end)

test("century: nothing is hidden but the deck order; merchant hands are public", function()
  local a = G.setup(3, 11)
  local b = kit.copy(a)
  b.deck[1], b.deck[2] = b.deck[2], b.deck[1]
  for seat = 1, 3 do rt.same_observation(G, a, b, seat) end
  local o = G.observation(a, 2)
  t.eq(#o.players[1].hand, 2, "another seat's hand is shown")
  t.eq(o.merchant_deck, 37)
  t.ok(not G.render(o):find("deck = ", 1, true))
  t.contains(G.render(o), "hand: #1 produce 2 yellow; #2 upgrade 2")
end)

test("century: turns pass from seat 1 in seat order, one action each; a produce card adds its spices and is played", function()
  local s = position({ 3, 4, 5, 6, 7, 8 }, { 1, 2, 3, 4, 5 })
  t.eq(G.current_seats(s), { 1 })
  assert(G.apply(s, 1, "play:1"))
  t.eq(s.players[1].spices, { 5, 0, 0, 0 }, "3 yellow + 2")
  t.eq(s.players[1].hand, { 2 }); t.eq(s.players[1].played, { 1 })
  t.eq(G.current_seats(s), { 2 })
  t.eq(G.apply(s, 1, "play:2"), nil, "not seat 1's turn")
  assert(G.apply(s, 2, "play:1"))
  t.eq(G.current_seats(s), { 3 })
  assert(G.apply(s, 3, "play:1"))
  t.eq(G.current_seats(s), { 1 }, "after the last seat, seat 1 again")
  t.eq(s.turns, 3)
end)

test("century: an upgrade card never raises brown, needs a spice below brown, and may stop early", function()
  local s = position({ 3, 4, 5, 6, 7, 8 }, { 1, 2, 3, 4, 5 })
  local p = s.players[1]
  p.spices = { 0, 0, 0, 2 }
  t.eq(rt.count_actions(G, s, 1, "^play:2$"), 0, "only brown: nothing to upgrade")
  p.spices = { 1, 0, 0, 1 }
  assert(G.apply(s, 1, "play:2"))
  local ids = {}
  for _, a in ipairs(G.legal_actions(s, 1)) do ids[#ids + 1] = a.id end
  t.eq(ids, { "up:yellow", "stop" }, "the brown spice is not offered")
  assert(G.apply(s, 1, "up:yellow"))
  t.eq(s.phase, "upgrade", "one upgrade left")
  t.eq(rt.count_actions(G, s, 1, "^stop$"), 1, "stopping after one upgrade")
  assert(G.apply(s, 1, "stop"))
  t.eq(p.spices, { 0, 1, 0, 1 }); t.eq(s.phase, "main"); t.eq(s.turn, 2)
end)

-- The component manifest, against the card lists of RULES.md ("Sources of the number tables").
test("century: data manifest: 2 starting cards, 43 merchant cards, 36 point cards", function()
  local D = require "games.century.cards"
  t.eq(#D.merchants, 45); t.eq(#D.points, 36)
  t.eq(D.merchants[1], { "produce", { 2, 0, 0, 0 } }, "starting card: produce 2 yellow")
  t.eq(D.merchants[2], { "upgrade", 2 }, "starting card: upgrade 2")
  -- the deck: 8 produce, 1 upgrade 3, 34 trade cards, no two alike; over all of them the
  -- produce and trade cards give 38/31/28/19 and the trade cards take 34/20/15/9
  local kinds, seen, give, take = {}, {}, { 0, 0, 0, 0 }, { 0, 0, 0, 0 }
  for id = 3, 45 do
    local c = D.merchants[id]
    kinds[c[1]] = (kinds[c[1]] or 0) + 1
    local key = c[1] .. ":" .. (type(c[2]) == "table" and table.concat(c[2], ",") or c[2]) .. ":" .. (c[3] and table.concat(c[3], ",") or "")
    t.ok(not seen[key], "merchant card " .. id .. " repeats card " .. tostring(seen[key])); seen[key] = id
    if c[1] == "upgrade" then t.eq(c[2], 3, "the deck's upgrade card")
    else
      local out = c[1] == "produce" and c[2] or c[3]
      for k = 1, 4 do give[k] = give[k] + out[k] end
      if c[1] == "trade" then
        local vin, vout = 0, 0
        for k = 1, 4 do take[k] = take[k] + c[2][k]; vin = vin + k * c[2][k]; vout = vout + k * c[3][k] end
        t.ok(vout > vin, "merchant card " .. id .. ": a trade gains value")
      end
    end
  end
  t.eq(kinds, { produce = 8, upgrade = 1, trade = 34 })
  t.eq(give, { 38, 31, 28, 19 }); t.eq(take, { 34, 20, 15, 9 })
  -- the cards where one source differs: the value the two others give
  t.eq(D.merchants[16], { "produce", { 2, 1, 0, 0 } }, "card 16: 2 yellow and 1 red")
  t.eq(D.merchants[40], { "trade", { 0, 3, 0, 0 }, { 0, 0, 3, 0 } }, "card 40: 3 red for 3 green, once in the deck")
  -- point cards: 6 to 20 points, 468 in all, 37/46/46/46 spices asked; 13 ask 4 spices, 15 five, 8 six
  local pts, spices, sizes, pseen = 0, { 0, 0, 0, 0 }, {}, {}
  for id, c in ipairs(D.points) do
    t.ok(c[1] >= 6 and c[1] <= 20, "point card " .. id .. ": points")
    local key = table.concat(c[2], ",")
    t.ok(not pseen[key], "point card " .. id .. " repeats card " .. tostring(pseen[key])); pseen[key] = id
    pts = pts + c[1]
    local n = 0
    for k = 1, 4 do spices[k] = spices[k] + c[2][k]; n = n + c[2][k] end
    sizes[n] = (sizes[n] or 0) + 1
  end
  t.eq(pts, 468); t.eq(spices, { 37, 46, 46, 46 }); t.eq(sizes, { [4] = 13, [5] = 15, [6] = 8 })
  t.eq(D.points[21], { 16, { 0, 2, 0, 3 } }, "point card 21: 2 red, 3 brown")
end)

test("century: RULES-AUDIT.md names existing tests; coverage by status", function()
  local counts = rt.audit(t.root() .. "/games/century/RULES-AUDIT.md", T, "CE")
  t.ok(counts.PASS >= 30, "rules audited: " .. counts.PASS)
end)

return T
