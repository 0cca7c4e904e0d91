-- Brass: Birmingham rules: the data manifest (map, links, tiles, deck and merchant tiles by
-- player count, markets, income track), invariants over random playouts (cards conserved,
-- money and markets in range, tiles and links legal for the era), a hand-checked full canal
-- era of two players on a fixed seed (every money, income and turn-order step and the era's
-- scoring), hand-built positions for the actions (build and overbuild, coal and iron from the
-- board and the markets, network, double rail, develop, sell with merchant bonuses, loan,
-- scout), the tie-break, replay, the perturbation and determinization tests of hidden
-- information, the observation size, the heuristic against Random, the drawing, a full arena
-- match of the three baselines, and the rules audit (RULES-AUDIT.md).
-- slow: full matches through the arena and random playouts (left out by make check)
local t = require "tabula.testing"
local G = require "games.brass"
local D = require "games.brass.data"
local kit = require "games.kit"
local json = require "tabula.json"
local rt = require "games.rules_test"
local ismcts = require "games.ismcts"
local test, T = t.suite()

local function ids(list)
  local r = {}
  for i, a in ipairs(list) do r[i] = a.id end
  return r
end
-- advanced(seed, steps, rand, eps) -> a three-player match after `steps` heuristic sub-decisions
local function advanced(seed, steps, rand, eps)
  local s = G.setup(3, seed)
  for _ = 1, steps do
    local seat = G.current_seats(s)[1]
    assert(G.apply(s, seat, ismcts.heuristic_pick(G, s, seat, G.legal_actions(s, seat), rand, eps)))
  end
  return s
end
local function has(list, id)
  for _, a in ipairs(list) do if a.id == id then return true end end
  return false
end

-- cards conserved (deck, hands, discards, face down; wild cards in hands and supply), money
-- never negative, markets in range, the era's limits on tiles and links
local function invariant(s, where)
  where = where or ""
  local c = G.census(s)
  local want = kit.counts(G.deck_for(s.n))
  for card, k in pairs(want) do
    if (c[card] or 0) ~= k then error(string.format("%s: %d %s cards instead of %d", where, c[card] or 0, card, k), 0) end
  end
  for card in pairs(c) do
    if not want[card] and card ~= "wild-loc" and card ~= "wild-ind" then error(where .. ": unknown card " .. card, 0) end
  end
  if (c["wild-loc"] or 0) + s.wild.loc ~= 4 or (c["wild-ind"] or 0) + s.wild.ind ~= 4 then error(where .. ": wild cards not conserved", 0) end
  if s.coal < 0 or s.coal > 14 or s.iron < 0 or s.iron > 10 then error(where .. ": market out of range", 0) end
  local per_town = {}
  for i = 1, s.n do
    local p = s.players[i]
    if p.money < 0 then error(where .. ": negative money", 0) end
    if #p.hand > 8 then error(where .. ": more than 8 cards", 0) end
    if p.progress < 0 or p.progress > 100 then error(where .. ": income track out of range", 0) end
  end
  for si, tile in ipairs(s.tiles) do
    if tile then
      local sl = G.SLOTS[si]
      if not sl.ok[tile.industry] then error(where .. ": a tile on a space that does not allow it", 0) end
      local key = sl.town .. ":" .. tile.owner
      per_town[key] = (per_town[key] or 0) + 1
      if s.era == "canal" and per_town[key] > 1 then error(where .. ": two tiles of one player in a town in the canal era", 0) end
      if tile.cubes < 0 then error(where .. ": negative cubes", 0) end
    end
  end
  for li, o in ipairs(s.links) do
    if o ~= 0 and not G.LINKS[li][s.era] then error(where .. ": a link of the wrong era", 0) end
  end
  -- tiles: on the mat + on the board <= the printed count per level
  for i = 1, s.n do
    for _, x in ipairs(D.INDUSTRIES) do
      for lv, tl in ipairs(G.TILES[x.id]) do
        local on = 0
        for _, tile in ipairs(s.tiles) do if tile and tile.owner == i and tile.industry == x.id and tile.level == lv then on = on + 1 end end
        if s.players[i].mat[x.id][lv] + on > tl.count or s.players[i].mat[x.id][lv] < 0 then error(where .. ": tiles not conserved", 0) end
      end
    end
  end
end

test("brass: data manifest: 20 towns and 2 farm breweries, 39 links, 45 tiles a player, deck 40/54/64, 5/7/9 merchant tiles, markets", function()
  local towns, farms, spaces = 0, 0, 0
  for _, tw in ipairs(D.TOWNS) do
    if tw.farm then farms = farms + 1 else towns = towns + 1 end
    spaces = spaces + #tw.slots
  end
  t.eq(towns, 20); t.eq(farms, 2); t.eq(spaces, 49)
  t.eq(#D.MERCHANTS, 5)
  local ms = 0
  for _, m in ipairs(D.MERCHANTS) do ms = ms + m.spaces end
  t.eq(ms, 9)
  t.eq(#D.LINKS, 39)
  local canal, rail, both = 0, 0, 0
  for _, l in ipairs(D.LINKS) do
    if l.canal then canal = canal + 1 end
    if l.rail then rail = rail + 1 end
    if l.canal and l.rail then both = both + 1 end
  end
  t.eq({ canal, rail, both }, { 31, 38, 30 })
  -- every location is on some link; every link joins known locations
  local known = {}
  for _, tw in ipairs(D.TOWNS) do known[tw.id] = true end
  for _, m in ipairs(D.MERCHANTS) do known[m.id] = true end
  local touched = {}
  for _, l in ipairs(D.LINKS) do
    for _, e in ipairs({ l.a, l.b, l.c }) do t.ok(known[e], "link end " .. e); touched[e] = true end
  end
  for id in pairs(known) do t.ok(touched[id], id .. " is on a link") end
  -- tiles: counts per industry, cost totals per industry (a wrong tile changes them)
  local count, money, vp = {}, {}, {}
  for _, tl in ipairs(D.TILES) do
    count[tl.industry] = (count[tl.industry] or 0) + tl.count
    money[tl.industry] = (money[tl.industry] or 0) + tl.count * tl.money
    vp[tl.industry] = (vp[tl.industry] or 0) + tl.count * tl.vp
  end
  t.eq(count, { cotton = 11, goods = 11, pottery = 5, coal = 7, iron = 4, brewery = 7 })
  t.eq(money, { cotton = 166, goods = 156, pottery = 63, coal = 55, iron = 33, brewery = 51 })
  t.eq(vp, { cotton = 88, goods = 74, pottery = 43, coal = 19, iron = 24, brewery = 42 })
  for n = 2, 4 do t.eq(#G.deck_for(n), D.DECK_SIZE[n - 1], n .. " players' deck") end
  for n = 2, 4 do
    local k = 0
    for _, mt in ipairs(D.MERCHANT_TILES) do if n >= mt.min_players then k = k + 1 end end
    t.eq(k, ({ 5, 7, 9 })[n - 1])
    local sp = 0
    for _, m in ipairs(D.MERCHANTS) do if n >= m.min_players then sp = sp + m.spaces end end
    t.eq(sp, k, "one merchant tile a merchant space")
  end
  t.eq(#D.COAL_MARKET.prices, 14); t.eq(D.COAL_MARKET.empty, 8); t.eq(#D.IRON_MARKET.prices, 10); t.eq(D.IRON_MARKET.empty, 6)
  -- the income track: 0..10 are -10..0, then 2, 3, 4 spaces a level; top() inverts level()
  t.eq({ D.level(0), D.level(10), D.level(11), D.level(12), D.level(13), D.level(30), D.level(31), D.level(60), D.level(61), D.level(100) },
       { -10, 0, 1, 1, 2, 10, 11, 20, 21, 30 })
  for l = -10, 30 do t.eq(D.level(D.top(l)), l); if l < 30 then t.eq(D.level(D.top(l) + 1), l + 1) end end
end)

test("brass: setup: 17 money, income level 0, 8 cards and one face down each, merchant tiles with beer, markets 13 and 8", function()
  for n = 2, 4 do
    local s = G.setup(n, 3)
    for i = 1, n do
      local p = s.players[i]
      t.eq({ p.money, p.progress, p.vp, #p.hand }, { 17, 10, 0, 8 })
    end
    t.eq(#s.removed, n); t.eq(#s.deck, D.DECK_SIZE[n - 1] - 9 * n)
    t.eq(#s.merchants, ({ 5, 7, 9 })[n - 1])
    local at = {}
    for _, m in ipairs(s.merchants) do at[m.merchant] = (at[m.merchant] or 0) + 1 end
    t.eq({ at.warrington or 0, at.nottingham or 0, at.shrewsbury, at.oxford, at.gloucester },
         { n >= 3 and 2 or 0, n >= 4 and 2 or 0, 1, 2, 2 }, n .. " players: Warrington from 3, Nottingham from 4")
    for _, m in ipairs(s.merchants) do t.eq(m.beer, m.tile == "blank" and 0 or 1) end
    -- which tiles: 2 players 2 blank, cotton, manufacturer, "all three"; 3 players add a blank
    -- and a pottery; 4 players a cotton and a manufacturer (RULES.md)
    local tiles = {}
    for _, m in ipairs(s.merchants) do tiles[#tiles + 1] = tostring(m.tile) end
    table.sort(tiles)
    t.eq(tiles, ({ { "any", "blank", "blank", "cotton", "goods" },
                   { "any", "blank", "blank", "blank", "cotton", "goods", "pottery" },
                   { "any", "blank", "blank", "blank", "cotton", "cotton", "goods", "goods", "pottery" } })[n - 1],
         n .. " players: the merchant tiles in play")
    t.eq({ s.coal, s.iron }, { 13, 8 })
    t.eq(G.current_seats(s), { 1 }); t.eq(s.actions_left, 1)
    invariant(s)
  end
  t.raises(function() G.setup(5, 1) end, "2 to 4 players")
end)

test("brass: 30 fast random playouts (2-4 players) conserve cards, keep money, markets and the era's limits", function()
  local r = rt.playouts(G, { games = 30, seed = 11, light = true, invariant = invariant, max_steps = 5000 })
  t.eq(r.matches, 30)
end)

test("brass: full checks (actions, illegal ids, serialization, hidden information, determinism) on 3 playouts", function()
  local r = rt.playouts(G, { games = 3, seed = 5, invariant = invariant, hidden_every = 9, max_steps = 5000 })
  t.ok(r.steps > 3 * 150, "matches have many sub-decisions")
end)

test("brass: apply's direct legality checks accept exactly the listed actions, card and build target", function()
  local rand = kit.generator(8)
  local checked = 0
  for g = 1, 2 do
    local s = G.setup(3, 600 + g)
    while not G.is_terminal(s) do
      local seat = G.current_seats(s)[1]
      local legal = G.legal_actions(s, seat, true)
      local st = not s.pend.queue and s.pend.stage
      local cands
      if st == "action" then cands = { "build", "network", "develop", "sell", "loan", "scout", "pass", "nothing" }
      elseif st == "card" then
        cands = { "card:wild-loc", "card:wild-ind", "card:nowhere" }
        for _, e in ipairs(D.DECK) do cands[#cands + 1] = "card:" .. e.card end
      elseif st == "target" then
        cands = {}
        for _, sl in ipairs(G.SLOTS) do for _, x in ipairs(D.INDUSTRIES) do cands[#cands + 1] = "at:" .. sl.name .. ":" .. x.id end end
      end
      if cands then
        local listed = {}
        for _, a in ipairs(legal) do listed[a.id] = true end
        for _, id in ipairs(cands) do
          local ok = G.apply(kit.copy(s), seat, id)
          t.eq(ok == true, listed[id] == true, st .. " " .. id)
        end
        checked = checked + 1
      end
      assert(G.apply(s, seat, legal[rand(#legal)].id))
    end
  end
  t.ok(checked > 100, "states checked: " .. checked)
end)

-- the canal era of seed 2033, two players, every sub-decision of both players
local CANAL = {
  "build", "card:ind-coal", "at:leek:2:coal", "build", "card:ind-coal", "at:stone:2:coal",
  "build", "card:burton", "at:burton:1:coal", "loan", "card:birmingham", "build",
  "card:tamworth", "at:tamworth:1:cotton", "loan", "card:coventry", "build", "card:coventry",
  "at:coventry:1:pottery", "network", "card:ind-brewery", "link:coventry-birmingham", "network", "card:ind-brewery",
  "link:tamworth-birmingham", "network", "card:ind-iron", "link:birmingham-oxford", "sell", "card:ind-brewery",
  "sell:tamworth:1", "build", "card:coalbrookdale", "at:coalbrookdale:3:coal", "network", "card:burton",
  "link:worcester-birmingham", "network", "card:coalbrookdale", "link:worcester-gloucester", "remove:leek:2", "sell",
  "card:dudley", "sell:coventry:1", "dev:pottery", "scout", "card:dudley", "card:kidderminster",
  "card:kidderminster", "build", "card:cannock", "at:cannock:2:coal", "loan", "card:redditch",
  "pass", "card:coalbrookdale", "pass", "card:walsall", "build", "card:birmingham",
  "at:birmingham:1:cotton", "build", "card:coventry", "at:coventry:2:goods", "develop", "card:nuneaton",
  "dev:goods", "pass", "card:wolverhampton", "sell", "card:ind-iron", "sell:coventry:2",
  "build", "card:stafford", "at:stafford:1:brewery", "pass", "card:worcester", "pass",
  "card:ind-brewery", "sell", "card:stafford", "sell:birmingham:1", "to:oxford:2", "loan",
  "card:wolverhampton", "pass", "card:ind-brewery", "pass", "card:ind-pottery", "build",
  "card:worcester", "at:worcester:1:cotton", "network", "card:ind-iron", "link:kidderminster-worcester", "network",
  "card:wild-ind", "link:gloucester-redditch", "pass", "card:wild-loc", "network", "card:ind-iron",
  "link:redditch-oxford", "network", "card:ind-pottery", "link:coalbrookdale-shrewsbury",
}

test("brass: a hand-checked full canal era (2 players, seed 2033): money, income, turn order each round, the era's scoring", function()
  local s = G.setup(2, 2033)
  -- at the start of each round: money, income-track progress and turn order, checked by hand
  -- from the tiles' costs, the market prices, the loans, the flips, the merchant bonuses, the
  -- income and the money spent (equal spending keeps the order: rounds 1 and 8). Round 4 ends
  -- with player 1 owing 3 with 1 in hand: it removes its coal mine 1 at Leek for 2 and pays.
  local EXPECT = {
    [2] = { 12, 12, 10, 10, { 1, 2 } }, [3] = { 32, 27, 7, 7, { 1, 2 } }, [4] = { 7, 18, 7, 7, { 2, 1 } },
    [5] = { 0, 13, 7, 14, { 1, 2 } }, [6] = { 1, 35, 12, 9, { 1, 2 } }, [7] = { 2, 13, 12, 9, { 1, 2 } },
    [8] = { 1, 8, 12, 16, { 1, 2 } }, [9] = { 2, 43, 12, 20, { 1, 2 } }, [10] = { 3, 33, 12, 20, { 1, 2 } },
  }
  local seen = {}
  local checked = 0
  for i, id in ipairs(CANAL) do
    local e = EXPECT[s.round]
    if e and not seen[s.round] then
      seen[s.round] = true
      t.eq({ s.players[1].money, s.players[2].money, s.players[1].progress, s.players[2].progress, s.order },
           { e[1], e[2], e[3], e[4], e[5] }, "start of round " .. s.round)
      checked = checked + 1
    end
    t.eq(s.era, "canal", "still the canal era at step " .. i)
    local seat = G.current_seats(s)[1]
    local ok, err = G.apply(s, seat, id)
    t.ok(ok, "step " .. i .. " " .. id .. ": " .. tostring(err))
    invariant(s, "step " .. i)
    -- after step 40 (round 4's last action) player 1 must cover a shortfall: one of its three
    -- tiles; after step 44, player 1's pottery sold to Gloucester with its beer: flipped (+5
    -- spaces) and Gloucester's free develop pending
    if i == 40 then
      t.eq({ s.pend.stage, G.current_seats(s)[1], #G.legal_actions(s, 1) }, { "shortfall", 1, 3 })
      t.eq(ids(G.legal_actions(s, 1)), { "remove:leek:2", "remove:burton:1", "remove:coventry:1" })
    end
    if i == 44 then t.eq({ s.players[1].progress, s.pend.stage }, { 12, "free" }) end
  end
  t.eq(checked, 9)
  t.eq(s.era, "rail")
  -- the canal scoring. Player 1: links 9 (coventry-birmingham 3 + 1, worcester-birmingham 0 + 1,
  -- worcester-gloucester 0 + 2, gloucester-redditch 2 + 0) and its flipped pottery 1 at Coventry
  -- 10. Player 2: links 9 (tamworth-birmingham 1 + 1, birmingham-oxford 1 + 2, redditch-oxford
  -- 0 + 2, coalbrookdale-shrewsbury 0 + 2, kidderminster-worcester and the farm brewery 0) and
  -- its flipped cotton mills 1 at Tamworth and Birmingham (5 + 5), manufacturer 1 at Coventry
  -- (3) and brewery 1 at Stafford (4)
  t.eq(s.era_scores, { { 19, 26 } })
  t.eq({ s.players[1].vp, s.players[2].vp }, { 19, 26 })
  t.eq({ s.players[1].money, s.players[2].money }, { 1, 32 })
  t.eq({ s.players[1].progress, s.players[2].progress }, { 12, 20 })
  -- the rail era begins: no links, no level-1 tiles, merchants' beer back, a new deck dealt
  for _, o in ipairs(s.links) do t.eq(o, 0) end
  local left = {}
  for si, tile in ipairs(s.tiles) do
    if tile then left[#left + 1] = G.SLOTS[si].name .. "=" .. tile.industry .. tile.level .. ":" .. tile.cubes end
  end
  t.eq(left, { "burton:1=coal2:3", "cannock:2=coal2:3", "coalbrookdale:3=coal2:3" })
  for _, m in ipairs(s.merchants) do t.eq(m.beer, m.tile == "blank" and 0 or 1) end
  t.eq({ #s.players[1].hand, #s.players[2].hand, #s.deck, #s.discard, #s.removed }, { 8, 8, 24, 0, 0 })
  t.eq(s.order, { 1, 2 }, "player 1 spent 3 in the last round, player 2 6"); t.eq(s.actions_left, 2)
end)

-- position(hand): three players, player 1 to choose an action with the given hand (the cards
-- come from the deck so the census holds), nothing on the board
local function position(hand)
  local s = G.setup(3, 1)
  local p = s.players[1]
  for _, c in ipairs(p.hand) do s.deck[#s.deck + 1] = c end
  p.hand = {}
  for _, c in ipairs(hand) do
    for j, d in ipairs(s.deck) do if d == c then table.remove(s.deck, j); break end end
    p.hand[#p.hand + 1] = c
  end
  return s
end
local function link(s, id, owner) s.links[G.LINK_AT[id]] = owner end
local function put(s, space, owner, ind, lv, flipped, cubes)
  s.tiles[G.SLOT_AT[space]] = { owner = owner, industry = ind, level = lv, flipped = flipped or false, cubes = cubes or 0 }
  s.players[owner].mat[ind][lv] = s.players[owner].mat[ind][lv] - 1
end
local function run(s, seat, list)
  for _, id in ipairs(list) do
    local ok, err = G.apply(s, seat, id)
    if not ok then error(id .. ": " .. tostring(err), 2) end
  end
end

test("brass: markets: a cube costs the cheapest filled space, 8 (coal) or 6 (iron) when empty; sales fill the dearest empty space", function()
  t.eq(G.buy_cost(13, 2, D.COAL_MARKET), 1 + 2)
  t.eq(G.buy_cost(1, 3, D.COAL_MARKET), 7 + 8 + 8)
  t.eq(G.buy_cost(8, 3, D.IRON_MARKET), 2 + 2 + 3)
  t.eq(G.buy_cost(0, 2, D.IRON_MARKET), 12)
  -- an iron works always sells to the iron market: 4 cubes into spaces 2, 2, 1, 1 (8 of 10 full)
  local s = position({ "birmingham", "coalbrookdale" })
  s.iron = 6
  link(s, "coalbrookdale-shrewsbury", 2)           -- coal from the market through Shrewsbury
  run(s, 1, { "build", "card:coalbrookdale", "at:coalbrookdale:2:iron" })
  local tile = s.tiles[G.SLOT_AT["coalbrookdale:2"]]
  t.eq(s.iron, 10); t.eq(tile.cubes, 0); t.ok(tile.flipped)
  t.eq(s.players[1].money, 17 - 5 - 1 + 2 + 2 + 1 + 1, "iron works 5, one coal 1, four cubes sold into spaces 4, 3, 2, 1: 2+2+1+1")
  t.eq(s.coal, 12); t.eq(s.players[1].progress, 10 + 3, "flipped: income +3 spaces")
  -- a coal mine connected to a merchant location sells to the coal market (13 cubes: one
  -- space of 1 left), the rest stays on the mine; unconnected, it keeps all its coal
  local c = position({ "redditch", "dudley" })
  link(c, "redditch-oxford", 2)
  run(c, 1, { "build", "card:redditch", "at:redditch:1:coal" })
  t.eq(c.coal, 14); t.eq(c.tiles[G.SLOT_AT["redditch:1"]].cubes, 1); t.eq(c.players[1].money, 17 - 5 + 1)
  local c2 = position({ "dudley" })
  run(c2, 1, { "build", "card:dudley", "at:dudley:1:coal" })
  t.eq(c2.coal, 13); t.eq(c2.tiles[G.SLOT_AT["dudley:1"]].cubes, 2)
  -- a merchant location without merchant tiles (Nottingham with three players) still counts
  local c3 = position({ "ind-coal" })
  link(c3, "derby-nottingham", 2)
  c3.coal = 10
  run(c3, 1, { "build", "card:ind-coal", "at:belper:2:coal" })
  t.eq(c3.coal, 10, "Belper is not connected")
  local c4 = position({ "ind-coal" })
  link(c4, "derby-nottingham", 2); link(c4, "belper-derby", 2)
  c4.coal = 10
  run(c4, 1, { "build", "card:ind-coal", "at:belper:2:coal" })
  t.eq(c4.coal, 12, "connected to Nottingham, which has no merchant tile at three players")
end)

test("brass: build: a location card builds in its town; coal needs a connected mine or a merchant connection; one tile a town in the canal era", function()
  local s = position({ "birmingham", "ind-coal" })
  run(s, 1, { "build" })
  t.eq(ids(G.legal_actions(s, 1)), { "card:birmingham", "card:ind-coal" })
  run(s, 1, { "card:birmingham" })
  -- no link to a merchant: only the cotton mill (no coal); goods and iron need coal
  t.eq(ids(G.legal_actions(s, 1)), { "at:birmingham:1:cotton" })
  local s2 = position({ "birmingham", "ind-coal" })
  link(s2, "birmingham-oxford", 2)
  run(s2, 1, { "build", "card:birmingham" })
  -- a manufacturer goes on a goods-only space while one is free, not on the cotton/goods one
  t.eq(ids(G.legal_actions(s2, 1)), { "at:birmingham:1:cotton", "at:birmingham:2:goods", "at:birmingham:3:iron", "at:birmingham:4:goods" })
  put(s2, "birmingham:2", 2, "goods", 1, false); put(s2, "birmingham:4", 3, "goods", 1, false)
  t.eq(ids(G.legal_actions(s2, 1)), { "at:birmingham:1:cotton", "at:birmingham:1:goods", "at:birmingham:3:iron" })
  -- a wild location card never builds on a farm brewery; an industry card may
  local s5 = position({ "wild-loc", "ind-brewery" })
  s5.wild.loc = 3
  run(s5, 1, { "build", "card:wild-loc" })
  local l5 = G.legal_actions(s5, 1)
  t.ok(has(l5, "at:stone:1:brewery") and not has(l5, "at:farm_north:1:brewery") and not has(l5, "at:farm_south:1:brewery"))
  local s6 = position({ "ind-brewery" })
  run(s6, 1, { "build", "card:ind-brewery" })
  t.ok(has(G.legal_actions(s6, 1), "at:farm_north:1:brewery"), "nothing on the board: an industry card builds anywhere")
  -- an industry card builds only in the network: a link Wolverhampton-Dudley of player 1
  local s3 = position({ "ind-coal", "ind-iron" })
  link(s3, "wolverhampton-dudley", 1)
  run(s3, 1, { "build", "card:ind-coal" })
  t.eq(ids(G.legal_actions(s3, 1)), { "at:wolverhampton:2:coal", "at:dudley:1:coal" })
  -- with nothing on the board, anywhere a coal mine may go
  local s4 = position({ "ind-coal" })
  run(s4, 1, { "build", "card:ind-coal" })
  t.eq(#G.legal_actions(s4, 1), 14, "the 15 spaces that allow a coal mine but Cannock's coal/goods space (Cannock has a coal-only one)")
  -- canal era: a second tile of player 1 in Dudley is refused, another player's is not
  put(s3, "dudley:2", 1, "iron", 1, false, 2)
  t.eq(ids(G.legal_actions(s3, 1)), { "at:wolverhampton:2:coal" })
  -- a location card builds in its town outside the network (player 1's pieces are far away)
  local s7 = position({ "birmingham" })
  link(s7, "wolverhampton-dudley", 1)
  t.eq(G.network(s7, 1).birmingham, nil)
  run(s7, 1, { "build", "card:birmingham" })
  t.eq(ids(G.legal_actions(s7, 1)), { "at:birmingham:1:cotton" }, "Birmingham is not in the network: the card still builds there")
end)

test("brass: coal comes from the nearest connected mine (a choice between equals), any player's, before the market", function()
  local s = position({ "birmingham" })
  link(s, "birmingham-oxford", 2); link(s, "dudley-birmingham", 3); link(s, "walsall-birmingham", 3)
  put(s, "dudley:1", 3, "coal", 2, false, 1)
  put(s, "walsall:1", 2, "iron", 1, true, 0)
  put(s, "cannock:1", 2, "coal", 2, false, 3)
  link(s, "cannock-walsall", 2)
  local before = s.coal
  run(s, 1, { "build", "card:birmingham", "at:birmingham:3:iron" })
  -- Dudley (one link) is nearer than Cannock (two): its last cube is used and it flips
  local dud = s.tiles[G.SLOT_AT["dudley:1"]]
  t.eq(dud.cubes, 0); t.ok(dud.flipped); t.eq(s.players[3].progress, 10 + 7)
  t.eq(s.tiles[G.SLOT_AT["cannock:1"]].cubes, 3)
  t.eq(s.coal, before)
  t.eq(G.current_seats(s), { 2 }, "one action in the first round")
  -- two mines at the same distance: the player chooses
  local s2 = position({ "birmingham" })
  link(s2, "dudley-birmingham", 3); link(s2, "walsall-birmingham", 3)
  put(s2, "dudley:1", 3, "coal", 2, false, 2)
  put(s2, "walsall:1", 2, "goods", 1, true, 0)
  put(s2, "tamworth:1", 2, "coal", 2, false, 2)
  link(s2, "tamworth-birmingham", 2)
  run(s2, 1, { "build", "card:birmingham", "at:birmingham:3:iron" })
  t.eq(ids(G.legal_actions(s2, 1)), { "coal:tamworth:1", "coal:dudley:1" })
  run(s2, 1, { "coal:tamworth:1" })
  t.eq(s2.tiles[G.SLOT_AT["tamworth:1"]].cubes, 1)
end)

test("brass: overbuilding: one's own tile with a higher level; another's coal mine only when no coal is left anywhere", function()
  local s = position({ "dudley", "dudley" })
  put(s, "dudley:1", 2, "coal", 1, false, 1)
  run(s, 1, { "build", "card:dudley" })
  t.ok(not has(G.legal_actions(s, 1), "at:dudley:1:coal"), "coal in the market and on the board")
  local s2 = position({ "dudley" })
  put(s2, "dudley:1", 2, "coal", 1, true, 0)
  s2.coal = 0
  s2.players[1].mat.coal[1] = 0                       -- player 1's next coal mine is level 2
  run(s2, 1, { "build", "card:dudley" })
  t.ok(has(G.legal_actions(s2, 1), "at:dudley:1:coal"), "no coal anywhere: the mine may be overbuilt")
  run(s2, 1, { "at:dudley:1:coal" })
  local tile = s2.tiles[G.SLOT_AT["dudley:1"]]
  t.eq({ tile.owner, tile.level }, { 1, 2 })
  -- a cotton mill of another player is never overbuilt; one's own is
  local s3 = position({ "worcester" })
  put(s3, "worcester:1", 2, "cotton", 1, false)
  put(s3, "worcester:2", 1, "cotton", 1, false)
  t.ok(not has(G.legal_actions(s3, 1), "build"), "cotton 2 needs coal (no connection); worcester:1 is another's")
  s3.players[1].mat.cotton = { 0, 2, 3, 3 }
  link(s3, "worcester-gloucester", 2)
  run(s3, 1, { "build", "card:worcester" })
  t.eq(ids(G.legal_actions(s3, 1)), { "at:worcester:2:cotton" }, "one's own cotton mill 1 overbuilt by a cotton mill 2")
  -- one's own tile only by a higher level: the same level is refused
  local s4 = position({ "dudley" })
  put(s4, "dudley:1", 1, "coal", 1, true, 0)
  s4.coal = 0
  t.eq(s4.players[1].mat.coal[1], 0); s4.players[1].mat.coal[1] = 1
  t.eq(G.can_place(s4, 1, G.SLOT_AT["dudley:1"], "coal"), nil, "one's own coal mine 1 and a coal mine 1 next")
  s4.players[1].mat.coal[1] = 0
  t.ok(G.can_place(s4, 1, G.SLOT_AT["dudley:1"], "coal"), "a coal mine 2 over one's own coal mine 1")
  -- another's coal mine: each of the two conditions alone keeps it: coal in the market only,
  -- then coal on another tile only
  local function other_mine(market, elsewhere)
    local m = position({ "dudley" })
    put(m, "dudley:1", 2, "coal", 1, true, 0)
    m.coal = market
    if elsewhere > 0 then put(m, "coalbrookdale:3", 3, "coal", 1, false, elsewhere) end
    m.players[1].mat.coal[1] = 0
    return G.can_place(m, 1, G.SLOT_AT["dudley:1"], "coal") ~= nil
  end
  t.ok(not other_mine(4, 0), "coal in the market only: not overbuilt")
  t.ok(not other_mine(0, 2), "coal on another mine only: not overbuilt")
  t.ok(other_mine(0, 0), "no coal anywhere: overbuilt")
  -- another's iron works, the same rule with iron (rail era; the builder's own mine gives the coal)
  local function other_works(market, elsewhere)
    local m = position({ "dudley" })
    m.era, m.round = "rail", 1
    put(m, "dudley:2", 2, "iron", 1, true, 0)
    put(m, "dudley:1", 1, "coal", 2, false, 2)
    m.iron = market
    if elsewhere > 0 then put(m, "coalbrookdale:2", 3, "iron", 1, false, elsewhere) end
    m.players[1].mat.iron[1] = 0
    return G.can_place(m, 1, G.SLOT_AT["dudley:2"], "iron") ~= nil
  end
  t.ok(not other_works(3, 0), "iron in the market only: not overbuilt")
  t.ok(not other_works(0, 2), "iron on another works only: not overbuilt")
  t.ok(other_works(0, 0), "no iron anywhere: another's iron works overbuilt")
end)

test("brass: network: a canal for 3 touching one's network (anywhere with nothing on the board); rails for 5 and 1 coal, a second for 10, 1 coal and 1 beer", function()
  local s = position({ "birmingham", "dudley" })
  run(s, 1, { "network", "card:dudley" })
  local canals = 0
  for _, l in ipairs(D.LINKS) do if l.canal then canals = canals + 1 end end
  t.eq(#G.legal_actions(s, 1), canals, "nothing on the board: every canal line")
  run(s, 1, { "link:birmingham-oxford" })
  t.eq(s.players[1].money, 14); t.eq(s.links[G.LINK_AT["birmingham-oxford"]], 1)
  -- with a piece on the board only links touching the network
  local s2 = position({ "birmingham" })
  put(s2, "dudley:1", 1, "coal", 2, false, 3)
  run(s2, 1, { "network", "card:birmingham" })
  t.eq(ids(G.legal_actions(s2, 1)), { "link:wolverhampton-dudley", "link:dudley-kidderminster", "link:dudley-birmingham" })
  -- the rail era: one rail takes coal from the nearest connected mine, a second rail needs beer
  local r = position({ "birmingham", "dudley", "coventry" })
  r.era, r.round, r.actions_left = "rail", 2, 2
  put(r, "birmingham:2", 1, "goods", 2, true)
  put(r, "dudley:1", 2, "coal", 2, false, 2)
  put(r, "walsall:2", 3, "brewery", 2, false, 2)
  run(r, 1, { "network", "card:dudley", "link:dudley-birmingham" })
  t.eq(r.players[1].money, 12); t.eq(r.tiles[G.SLOT_AT["dudley:1"]].cubes, 1)
  t.eq(r.pend.stage, "rail2")
  t.ok(has(G.legal_actions(r, 1), "link:walsall-birmingham") and has(G.legal_actions(r, 1), "stop"))
  t.ok(not has(G.legal_actions(r, 1), "link:dudley-birmingham"), "a built line")
  run(r, 1, { "link:walsall-birmingham" })
  t.eq(r.players[1].money, 2, "15 for the two rails")
  t.eq(r.tiles[G.SLOT_AT["dudley:1"]].cubes, 0); t.ok(r.tiles[G.SLOT_AT["dudley:1"]].flipped)
  t.eq(r.tiles[G.SLOT_AT["walsall:2"]].cubes, 1, "the beer of another's brewery connected to the second rail")
  -- without beer no second rail: the action ends after the first
  local nb = position({ "birmingham", "dudley", "coventry" })
  nb.era, nb.round, nb.actions_left = "rail", 2, 2
  put(nb, "birmingham:2", 1, "goods", 2, true)
  put(nb, "dudley:1", 2, "coal", 2, false, 2)
  run(nb, 1, { "network", "card:dudley", "link:dudley-birmingham" })
  t.ok(nb.pend.stage ~= "rail2", "no beer anywhere: no second rail")
  t.eq(nb.actions_left, 1)
  -- the Kidderminster-Worcester link also puts the southern farm brewery in the network
  local f = position({ "ind-brewery" })
  link(f, "kidderminster-worcester", 1)
  run(f, 1, { "build", "card:ind-brewery" })
  t.ok(has(G.legal_actions(f, 1), "at:farm_south:1:brewery") and not has(G.legal_actions(f, 1), "at:farm_north:1:brewery"))
  t.eq(G.distances(f, { "kidderminster" }).farm_south, 1)
  -- no canals in the rail era, no rails in the canal era
  local c = position({ "birmingham" })
  run(c, 1, { "network", "card:birmingham" })
  t.ok(not has(G.legal_actions(c, 1), "link:nuneaton-birmingham"), "a rail-only line in the canal era")
  local r2 = position({ "birmingham" })
  r2.era = "rail"
  run(r2, 1, { "network", "card:birmingham" })
  t.ok(not has(G.legal_actions(r2, 1), "link:burton-walsall"), "a canal-only line in the rail era")
end)

test("brass: eras: level-1 tiles only in the canal era (pottery 1 in both), pottery 5 and brewery 4 only in the rail era; breweries hold 1 or 2 beer", function()
  local s = position({ "birmingham", "stafford", "stafford" })
  s.era, s.round, s.actions_left = "rail", 2, 2
  s.players[1].money = 30                             -- pottery 1: 17 and an iron at 2
  link(s, "birmingham-oxford", 2)
  run(s, 1, { "build" })
  t.eq(ids(G.legal_actions(s, 1)), { "card:stafford" }, "every lowest tile is level 1 but the pottery, and Birmingham has no pottery space")
  local s2 = position({ "stafford" })
  s2.era, s2.round, s2.actions_left = "rail", 2, 2
  s2.players[1].money = 30
  run(s2, 1, { "build", "card:stafford" })
  t.eq(ids(G.legal_actions(s2, 1)), { "at:stafford:2:pottery" }, "pottery 1 in the rail era")
  local s3 = position({ "stafford" })
  s3.players[1].mat.pottery = { 0, 0, 0, 0, 1 }
  s3.players[1].mat.brewery = { 0, 0, 0, 1 }
  t.ok(not has(G.legal_actions(s3, 1), "build"), "pottery 5 and brewery 4 not in the canal era (and goods 1 needs coal)")
  local s4 = position({ "stafford" })
  s4.era, s4.round, s4.actions_left = "rail", 2, 2
  s4.players[1].mat.brewery = { 0, 2, 2, 1 }
  run(s4, 1, { "build", "card:stafford", "at:stafford:1:brewery" })
  t.eq(s4.tiles[G.SLOT_AT["stafford:1"]].cubes, 2, "two barrels in the rail era")
  local s5 = position({ "stafford" })
  run(s5, 1, { "build", "card:stafford", "at:stafford:1:brewery" })
  t.eq(s5.tiles[G.SLOT_AT["stafford:1"]].cubes, 1, "one barrel in the canal era")
end)

test("brass: rounds: turn order by money spent (ties keep their order), income paid or owed, a shortfall costs points", function()
  local s = G.setup(3, 9)
  s.players[1].progress = 20; s.players[2].progress = 0; s.players[3].progress = 7
  s.players[2].money = 4; s.players[2].vp = 10
  for seat = 1, 3 do
    local p = s.players[seat]
    if seat == 1 then
      run(s, seat, { "network", "card:" .. p.hand[1] })
      run(s, seat, { G.legal_actions(s, seat)[1].id })
    else run(s, seat, { "pass", "card:" .. p.hand[1] }) end
  end
  -- seat 1 spent 3, seats 2 and 3 nothing: 2, 3, 1; income +5, -10 (4 paid, 6 short: 6 points), -3 paid
  t.eq(s.order, { 2, 3, 1 })
  t.eq({ s.players[1].money, s.players[2].money, s.players[3].money }, { 17 - 3 + 5, 0, 17 - 3 })
  t.eq(s.players[2].vp, 4)
  t.eq(s.round, 2); t.eq(s.actions_left, 2, "two actions from the second round")
  for i = 1, 3 do t.eq(#s.players[i].hand, 8, "hands refilled") end
  -- the last round of the game: no income; the last round of the canal era: income
  for _, era in ipairs({ "rail", "canal" }) do
    local e = G.setup(2, 1)
    e.era, e.round = era, 5
    for _, c in ipairs(e.deck) do e.discard[#e.discard + 1] = c end
    e.deck = {}
    for i = 1, 2 do
      local h = e.players[i].hand
      while #h > 1 do e.discard[#e.discard + 1] = table.remove(h) end
      e.players[i].progress = 20                                        -- level 5
    end
    run(e, 1, { "pass", "card:" .. e.players[1].hand[1] })
    run(e, 2, { "pass", "card:" .. e.players[2].hand[1] })
    t.eq({ e.players[1].money, e.players[2].money }, era == "rail" and { 17, 17 } or { 22, 22 })
    t.eq(e.over, era == "rail"); t.eq(e.era, "rail")
    invariant(e)
  end
end)

test("brass: a shortfall of negative income: remove one's own tiles for half their cost (the player's choice) until it is paid, then points", function()
  local s = G.setup(3, 9)
  s.players[2].progress = 2; s.players[2].money = 1; s.players[2].vp = 10       -- level -8
  put(s, "birmingham:1", 2, "cotton", 2, false)                                  -- cost 14: 7
  put(s, "dudley:1", 2, "coal", 3, true)                                         -- cost 8: 4
  for seat = 1, 3 do run(s, seat, { "pass", "card:" .. s.players[seat].hand[1] }) end
  t.eq(G.current_seats(s), { 2 }); t.eq(s.pend.stage, "shortfall")
  t.eq(ids(G.legal_actions(s, 2)), { "remove:dudley:1", "remove:birmingham:1" })
  t.eq(ismcts.heuristic_pick(G, s, 2, G.legal_actions(s, 2), kit.generator(1), 0), "remove:birmingham:1", "the unflipped tile first")
  run(s, 2, { "remove:dudley:1" })
  t.eq(s.pend.stage, "shortfall", "1 + 4 money is not yet 8")
  run(s, 2, { "remove:birmingham:1" })
  t.eq({ s.players[2].money, s.players[2].vp }, { 1 + 4 + 7 - 8, 10 })
  t.eq(s.tiles[G.SLOT_AT["birmingham:1"]], false)
  t.eq(s.round, 2); t.eq(G.current_seats(s), { s.order[1] })
  invariant(s)
  -- not enough even with every tile sold: the rest in points
  local s2 = G.setup(3, 9)
  s2.players[1].progress = 0; s2.players[1].money = 0; s2.players[1].vp = 20     -- level -10
  put(s2, "dudley:1", 1, "coal", 1, true)                                        -- cost 5: 2
  for seat = 1, 3 do run(s2, seat, { "pass", "card:" .. s2.players[seat].hand[1] }) end
  run(s2, 1, { "remove:dudley:1" })
  t.eq({ s2.players[1].money, s2.players[1].vp }, { 0, 20 - 8 })
end)

test("brass: merchant bonuses: Warrington +5 money, Shrewsbury +4 VP, Nottingham +3 VP (4 players)", function()
  local function sale(n, merchant, linkid)
    local s = G.setup(n, 1)
    local p = s.players[1]
    put(s, "stoke:1", 1, "cotton", 1, false)
    if merchant == "shrewsbury" then s.tiles[G.SLOT_AT["stoke:1"]] = false; p.mat.cotton[1] = p.mat.cotton[1] + 1; put(s, "coalbrookdale:2", 1, "iron", 2, true) end
    link(s, linkid, 1)
    for _, m in ipairs(s.merchants) do if m.merchant == merchant then m.tile = "any"; m.beer = 1 end end
    return s
  end
  local s = sale(3, "warrington", "warrington-stoke")
  run(s, 1, { "sell", "card:" .. s.players[1].hand[1], "sell:stoke:1", "to:warrington:1" })
  t.eq(s.players[1].money, 17 + 5)
  local s2 = G.setup(4, 1)
  put(s2, "derby:1", 1, "cotton", 1, false)
  link(s2, "derby-nottingham", 1)
  for _, m in ipairs(s2.merchants) do if m.merchant == "nottingham" then m.tile = "cotton"; m.beer = 1 end end
  run(s2, 1, { "sell", "card:" .. s2.players[1].hand[1], "sell:derby:1", "to:nottingham:1" })
  t.eq(s2.players[1].vp, 3)
  local s3 = G.setup(2, 1)
  t.ok(not has(G.legal_actions(s3, 1), "sell"))
  local nmerch = {}
  for _, m in ipairs(s3.merchants) do nmerch[m.merchant] = true end
  t.eq(nmerch, { shrewsbury = true, oxford = true, gloucester = true }, "two players: no Warrington, no Nottingham")
  put(s3, "coalbrookdale:1", 1, "brewery", 1, false, 1)
  s3.tiles[G.SLOT_AT["coalbrookdale:1"]] = false
  s3.players[1].mat.brewery[1] = s3.players[1].mat.brewery[1] + 1
  put(s3, "kidderminster:2", 1, "cotton", 1, false)
  link(s3, "coalbrookdale-shrewsbury", 1); link(s3, "coalbrookdale-kidderminster", 1)
  for _, m in ipairs(s3.merchants) do if m.merchant == "shrewsbury" then m.tile = "cotton"; m.beer = 1 end end
  run(s3, 1, { "sell", "card:" .. s3.players[1].hand[1], "sell:kidderminster:2" })
  t.eq(s3.players[1].vp, 4)
end)

test("brass: loan: +30 money, income 3 levels down to the top of the lower level; refused below -10", function()
  local s = position({ "birmingham", "dudley" })
  s.players[1].progress = 20                                   -- level 5
  run(s, 1, { "loan", "card:dudley" })
  t.eq(s.players[1].money, 47); t.eq(s.players[1].progress, D.top(2)); t.eq(D.top(2), 14)
  local s2 = position({ "birmingham" })
  s2.players[1].progress = 2                                   -- level -8
  t.ok(not has(G.legal_actions(s2, 1), "loan"))
  s2.players[1].progress = 3                                   -- level -7: a loan reaches -10
  t.ok(has(G.legal_actions(s2, 1), "loan"))
  run(s2, 1, { "loan", "card:birmingham" })
  t.eq(s2.players[1].progress, 0)
end)

test("brass: sell: a connected merchant that buys the industry, beer from the merchant gives its bonus; the tile flips", function()
  local s = position({ "birmingham", "dudley" })
  put(s, "birmingham:1", 1, "cotton", 1, false)
  link(s, "birmingham-oxford", 1)
  for _, m in ipairs(s.merchants) do if m.merchant == "oxford" then m.tile = "cotton"; m.beer = 1 end end
  run(s, 1, { "sell", "card:dudley" })
  t.eq(ids(G.legal_actions(s, 1)), { "sell:birmingham:1" })
  run(s, 1, { "sell:birmingham:1" })
  t.eq(ids(G.legal_actions(s, 1)), { "to:oxford:1", "to:oxford:2" })
  run(s, 1, { "to:oxford:1" })
  local tile = s.tiles[G.SLOT_AT["birmingham:1"]]
  t.ok(tile.flipped)
  t.eq(s.players[1].progress, 10 + 5 + 2, "cotton mill 1: +5 spaces; Oxford's bonus: +2")
  -- a second sale in the same action, or stop; the income marker stops at level 30
  local sx = position({ "birmingham" })
  put(sx, "birmingham:1", 1, "cotton", 1, false)
  put(sx, "birmingham:2", 1, "goods", 3, false)
  link(sx, "birmingham-oxford", 1)
  for _, m in ipairs(sx.merchants) do if m.merchant == "oxford" then m.tile = "any"; m.beer = 1 end end
  sx.players[1].progress = 98
  run(sx, 1, { "sell", "card:birmingham", "sell:birmingham:2" })
  t.eq(ids(G.legal_actions(sx, 1)), { "to:oxford:1", "to:oxford:2" }, "a manufacturer 3 needs no beer")
  run(sx, 1, { "to:oxford:2" })
  t.eq(sx.players[1].progress, 100, "capped at the top of level 30")
  t.eq(ids(G.legal_actions(sx, 1)), { "sell:birmingham:1", "stop" })
  run(sx, 1, { "sell:birmingham:1", "to:oxford:1" })
  t.ok(sx.tiles[G.SLOT_AT["birmingham:1"]].flipped and sx.tiles[G.SLOT_AT["birmingham:2"]].flipped)
  -- no beer anywhere and a tile that needs beer: no sale
  local s2 = position({ "birmingham" })
  put(s2, "birmingham:1", 1, "cotton", 1, false)
  link(s2, "birmingham-oxford", 1)
  for _, m in ipairs(s2.merchants) do m.beer = 0 end
  t.ok(not has(G.legal_actions(s2, 1), "sell"))
  -- another's brewery counts only when connected; one's own anywhere
  put(s2, "walsall:2", 2, "brewery", 1, false, 1)
  t.ok(not has(G.legal_actions(s2, 1), "sell"), "another's brewery, not connected")
  link(s2, "walsall-birmingham", 3)
  t.ok(has(G.legal_actions(s2, 1), "sell"), "another's brewery, connected")
  s2.links[G.LINK_AT["walsall-birmingham"]] = 0
  put(s2, "stone:1", 1, "brewery", 1, false, 1)
  t.ok(has(G.legal_actions(s2, 1), "sell"), "one's own brewery, not connected")
end)

test("brass: scout: three cards for a wild location and a wild industry card; not when holding a wild card", function()
  local s = position({ "birmingham", "dudley", "ind-coal", "coventry" })
  run(s, 1, { "scout", "card:birmingham", "card:dudley", "card:ind-coal" })
  local hand = kit.counts(s.players[1].hand)
  t.eq({ hand.coventry, hand["wild-loc"], hand["wild-ind"], #s.players[1].hand }, { 1, 1, 1, 8 }, "refilled to 8 at the end of the turn")
  t.eq({ s.discard[1], s.discard[2], s.discard[3] }, { "birmingham", "dudley", "ind-coal" })
  local s2 = position({ "birmingham", "dudley", "coventry" })
  t.ok(has(G.legal_actions(s2, 1), "scout"))
  s2.players[1].hand[#s2.players[1].hand + 1] = "wild-ind"; s2.wild.ind = 3
  t.ok(not has(G.legal_actions(s2, 1), "scout"), "a wild card in hand")
  local s3 = position({ "birmingham", "dudley" })
  t.ok(not has(G.legal_actions(s3, 1), "scout"), "fewer than three cards")
  t.eq({ s.wild.loc, s.wild.ind }, { 3, 3 })
  invariant(s)
end)

test("brass: develop: 1 iron a tile, one or two tiles, never a light-bulb pottery", function()
  local s = position({ "birmingham", "dudley" })
  run(s, 1, { "develop", "card:dudley" })
  t.eq(ids(G.legal_actions(s, 1)), { "dev:cotton", "dev:goods", "dev:coal", "dev:iron", "dev:brewery" }, "pottery 1 has the light bulb")
  run(s, 1, { "dev:coal", "dev:coal" })
  t.eq(s.players[1].mat.coal, { 0, 1, 2, 2 })
  t.eq(s.iron, 6); t.eq(s.players[1].money, 17 - 2 - 2)
  -- iron from any iron works with cubes, connected or not, before the market: a choice
  local s2 = position({ "birmingham" })
  put(s2, "dudley:2", 2, "iron", 1, false, 2)
  put(s2, "stoke:2", 3, "iron", 2, false, 1)
  run(s2, 1, { "develop", "card:birmingham", "dev:coal" })
  t.eq(ids(G.legal_actions(s2, 1)), { "iron:stoke:2", "iron:dudley:2" })
  run(s2, 1, { "iron:stoke:2" })
  t.ok(s2.tiles[G.SLOT_AT["stoke:2"]].flipped); t.eq(s2.players[3].progress, 13)
  t.eq(s2.iron, 8); t.eq(s2.players[1].money, 17)
  -- no iron on the board and no money for the market's: no develop
  local s3 = position({ "birmingham" })
  s3.iron = 0; s3.players[1].money = 5
  t.ok(not has(G.legal_actions(s3, 1), "develop"), "an iron from the empty market costs 6")
  s3.players[1].money = 6
  t.ok(has(G.legal_actions(s3, 1), "develop"))
end)

test("brass: ranking: points, then the income track space (not the level), then money; ties share", function()
  local s = position({})
  s.over = true
  s.players[1].vp, s.players[2].vp, s.players[3].vp = 50, 50, 40
  s.players[1].progress, s.players[2].progress = 30, 20
  s.players[1].money, s.players[2].money = 5, 20
  t.eq(G.ranking(s).ranks, { 1, 2, 3 })
  -- spaces 29 and 30 are both income level 10: the space further along still wins, before money
  t.eq(D.level(29), D.level(30))
  s.players[2].progress = 29
  t.eq(G.ranking(s).ranks, { 1, 2, 3 }, "space 30 ahead of space 29 at one level")
  s.players[1].progress, s.players[2].progress = 29, 30
  t.eq(G.ranking(s).ranks, { 2, 1, 3 })
  -- the same space: more money
  s.players[1].progress = 30
  t.eq(G.ranking(s).ranks, { 2, 1, 3 })
  s.players[1].money = 20
  t.eq(G.ranking(s).ranks, { 1, 1, 3 })
end)

test("brass: hidden information: other hands, the deck order, the face-down cards and the random state leave observations and legal lists byte-identical", function()
  local rand = kit.generator(17)
  local checked, differs = 0, 0
  for g = 1, 2 do
    local s = G.setup(3, 300 + g)
    local steps = 0
    while not G.is_terminal(s) and steps < 400 do
      steps = steps + 1
      local seat = G.current_seats(s)[1]
      if steps % 25 == 0 then
        local other = kit.copy(s)
        other.rng = other.rng ~ 0x5DEECE66D
        -- swap the non-wild hand of another player with cards of the deck
        local o = seat % 3 + 1
        local h = other.players[o].hand
        for j = 1, #h do
          if not h[j]:find("^wild") and #other.deck > 0 then h[j], other.deck[1] = other.deck[1], h[j]; table.insert(other.deck, table.remove(other.deck, 1)) end
        end
        for i = 1, #other.deck // 2 do other.deck[i], other.deck[#other.deck + 1 - i] = other.deck[#other.deck + 1 - i], other.deck[i] end
        t.eq(json.canonical(G.observation(other, seat)), json.canonical(G.observation(s, seat)))
        t.eq(G.render(G.observation(other, seat)), G.render(G.observation(s, seat)))
        t.eq(ids(G.legal_actions(other, seat)), ids(G.legal_actions(s, seat)))
        if json.canonical(G.observation(other, o)) ~= json.canonical(G.observation(s, o)) then differs = differs + 1 end
        checked = checked + 1
      end
      local legal = G.legal_actions(s, seat)
      assert(G.apply(s, seat, legal[rand(#legal)].id))
    end
  end
  t.ok(checked >= 20, "checked " .. checked)
  t.ok(differs >= checked // 2, "the owner of the changed hand sees the change: " .. differs)
end)

test("brass: determinization: every world keeps the seat's hand, the board and the counts of unseen cards, and varies the rest", function()
  local rand = kit.generator(23)
  local s = advanced(77, 60, rand, 0.1)
  local worlds = {}
  for k = 1, 20 do
    local seat = (k - 1) % 3 + 1
    local d = G.determinize(s, seat, rand)
    invariant(d, "world " .. k)
    t.eq(d.players[seat].hand, s.players[seat].hand)
    t.eq(d.tiles, s.tiles); t.eq(d.links, s.links); t.eq(d.discard, s.discard)
    for i = 1, 3 do
      t.eq(#d.players[i].hand, #s.players[i].hand)
      local w1, w2 = 0, 0
      for _, c in ipairs(d.players[i].hand) do if c:find("^wild") then w1 = w1 + 1 end end
      for _, c in ipairs(s.players[i].hand) do if c:find("^wild") then w2 = w2 + 1 end end
      t.eq(w1, w2, "wild cards are public")
    end
    t.eq(#d.deck, #s.deck); t.eq(#d.removed, #s.removed)
    worlds[table.concat(d.deck, ",")] = true
  end
  local k = 0
  for _ in pairs(worlds) do k = k + 1 end
  t.ok(k >= 18, "deck orders resampled: " .. k)
end)

test("brass: the text observation stays model-sized (under 12,000 characters)", function()
  local rand = kit.generator(31)
  local max_text = 0
  for g = 1, 2 do
    rt.play(G, 4, 500 + g, function(st, seat, legal)
      local o = G.observation(st, seat)
      local txt = G.render(o)
      if #txt > max_text then max_text = #txt end
      t.ok(o.rng == nil and type(o.deck) == "number")
      return legal[rand(#legal)].id
    end, nil, 5000)
  end
  t.ok(max_text < 12000, "longest text " .. max_text)
end)

test("brass: the heuristic beats Random clearly (9 three-player matches against two Random seats)", function()
  local wins = rt.heuristic_wins(G, 9, 5000)
  t.ok(wins >= 6, "heuristic first in " .. wins .. " of 9")
end)

test("brass: the drawing: every town's spaces, every link, built links and tiles in their owner's colour", function()
  local s = advanced(12, 120, kit.generator(2), 0)
  local o = G.observation(s, 2)
  local svg = G.svg(o)
  t.ok(svg:find("^<svg") and svg:find("</svg>$"))
  local links, tiles, spaces = 0, 0, 0
  for _ in svg:gmatch('class="link"') do links = links + 1 end
  for _ in svg:gmatch('class="tile"') do tiles = tiles + 1 end
  for _ in svg:gmatch('class="space"') do spaces = spaces + 1 end
  t.eq(links, 39); t.eq(tiles, #o.tiles); t.eq(tiles + spaces, 49)
  t.ok(#o.tiles > 0)
  -- everything fits: each text's box (0.6 em a character, generous for DejaVu Sans) and each
  -- rectangle lie inside the picture, and the legend names all six industries
  local W, H = svg:match('viewBox="0 0 (%d+) (%d+)"')
  W, H = tonumber(W), tonumber(H)
  for body, text in svg:gmatch("<text([^>]*)>([^<]*)</text>") do
    local x, size = tonumber(body:match(' x="([%d%.%-]+)"')), tonumber(body:match('font%-size="([%d%.]+)"'))
    local y = tonumber(body:match(' y="([%d%.%-]+)"'))
    local w = 0.6 * size * utf8.len(text)
    local anchor = body:match('text%-anchor="(%a+)"') or "start"
    local left = anchor == "middle" and x - w / 2 or (anchor == "end" and x - w or x)
    t.ok(left >= 0 and left + w <= W and y - size >= 0 and y <= H, "text inside the picture: " .. text)
  end
  for body in svg:gmatch("<rect([^>]*)/>") do
    local x, y = tonumber(body:match(' x="([%d%.%-]+)"')), tonumber(body:match(' y="([%d%.%-]+)"'))
    local w, h = tonumber(body:match('width="([%d%.]+)"')), tonumber(body:match('height="([%d%.]+)"'))
    t.ok(x >= 0 and y >= 0 and x + w <= W and y + h <= H, "a rectangle inside the picture")
  end
  for _, word in ipairs({ "coal", "iron", "brewery", "cotton", "manufacturer", "pottery", "flipped", "rail only" }) do
    t.contains(svg, word)
  end
end)

test("brass: the arena end to end (tabula run scenarios/dece --games brass): three baselines, three matches, ranks, counted decisions, a report", function()
  local records = require "tabula.records"
  local fs = require "tabula.fs"
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/parts.json", json.encode({ participants = {
    { name = "random", player = "random" }, { name = "heuristic", player = "heuristic" },
    { name = "ismcts", player = "ismcts", simulations = 8, steps = 18 } } }))
  local rc = t.run_scenario("scenarios/dece", { "--no-html", "--participants", dir .. "/parts.json", "--out", dir .. "/run",
    "--games", "brass", "--matches-per-game", "3", "--draws", "50", "--quiet" })
  t.eq(rc, 0)
  local recs = records.read(dir .. "/run/matches.jsonl")
  t.eq(#recs, 3)
  for _, rec in ipairs(recs) do
    t.eq(rec.status, "finished"); t.eq(#rec.ranks, 3)
    local total = 0
    for s = 1, 3 do total = total + rec.decisions[s]; t.ok(rec.turns[s] >= rec.decisions[s]) end
    t.eq(rec.D, total)
    t.ok(total >= 200, "a real game: D = " .. total)
    local ev = records.read(dir .. "/run/matches/" .. rec.match_id .. ".jsonl")
    t.eq(ev[1].k, "setup"); t.eq(ev[#ev].k, "end"); t.eq(ev[#ev].ranks, rec.ranks)
  end
  t.contains(fs.read(dir .. "/run/report.md"), "## brass (3 matches)")
end)

test("brass: an arena match with a model over the mock server: a legal sub-decision, then an invalid answer forfeits", function()
  local first = rt.mock_match(G, { { match = "Decision 1 ", reply = "I will build first.\nACTION: build", times = 1 },
                                    { reply = "ACTION: link:nowhere" } }, 3)
  t.contains(first, "build: build an industry tile")
  t.contains(first, "Brass: Birmingham, canal era, round 1. You are player 1 of 3.")
end)

test("brass: RULES-AUDIT.md names existing tests; coverage by status", function()
  local counts = rt.audit(t.root() .. "/games/brass/RULES-AUDIT.md", T, "B")
  t.ok(counts.PASS >= 25, "rules audited: " .. counts.PASS)
end)


return T
