-- Brass: Birmingham rules: the data manifest (map, links, tiles, deck and merchant tiles by
-- player count, markets, income track), invariants over random playouts (cards conserved,
-- money and markets in range, tiles and links legal for the era), a hand-checked full canal
-- era of two players on a fixed seed (every money, income and turn-order step and the era's
-- scoring), hand-built positions for the actions (build and overbuild, coal and iron from the
-- board and the markets, network, double rail, develop, sell with merchant bonuses, loan,
-- scout), the tie-break, replay, the perturbation and determinization tests of hidden
-- information, the observation size, the heuristic against Random, the drawing, a full arena
-- match of the three baselines, and the rules audit (RULES-AUDIT.md).
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
  for card, k in pairs(c) do
    if not want[card] and card ~= "wild-loc" and card ~= "wild-ind" then error(where .. ": unknown card " .. card, 0) end
    local _ = k
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
      if s.era == "rail" and tile.level == 1 and G.TILES[tile.industry][1].era == "canal" and false then error("unreachable") end
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

test("brass: 30 fast random playouts (2-4 players) conserve cards, keep money, markets and the era's limits", function()
  local r = rt.playouts(G, { games = 30, seed = 11, light = true, invariant = invariant, max_steps = 5000 })
  t.eq(r.matches, 30)
end)

test("brass: full checks (actions, illegal ids, serialization, hidden information, determinism) on 3 playouts", function()
  local r = rt.playouts(G, { games = 3, seed = 5, invariant = invariant, hidden_every = 9, max_steps = 5000 })
  t.ok(r.steps > 3 * 150, "matches have many sub-decisions")
end)

-- the canal era of seed 2026, two players, every sub-decision of both players
local CANAL = {
  "build", "card:tamworth", "at:tamworth:1:cotton", "build", "card:ind-brewery", "at:stone:1:brewery",
  "build", "card:burton", "at:burton:2:brewery", "loan", "card:birmingham", "loan",
  "card:walsall", "network", "card:dudley", "link:tamworth-birmingham", "network", "card:ind-coal",
  "link:birmingham-oxford", "sell", "card:wolverhampton", "sell:tamworth:1", "to:oxford:1", "build",
  "card:kidderminster", "at:kidderminster:1:cotton", "network", "card:ind-iron", "link:kidderminster-worcester", "build",
  "card:birmingham", "at:birmingham:1:cotton", "sell", "card:coventry", "sell:birmingham:1", "network",
  "card:burton", "link:worcester-gloucester", "network", "card:stafford", "link:gloucester-redditch", "network",
  "card:cannock", "link:redditch-oxford", "sell", "card:coalbrookdale", "sell:kidderminster:1", "to:oxford:1",
  "beer:stone:1", "build", "card:nuneaton", "at:nuneaton:2:cotton", "network", "card:ind-coal",
  "link:tamworth-nuneaton", "loan", "card:coalbrookdale", "build", "card:ind-brewery", "at:stone:1:brewery",
  "build", "card:cannock", "at:cannock:1:coal", "loan", "card:birmingham", "build",
  "card:coventry", "at:coventry:1:pottery", "network", "card:ind-brewery", "link:coventry-birmingham", "build",
  "card:coventry", "at:coventry:2:goods", "sell", "card:dudley", "sell:coventry:2", "to:gloucester:1",
  "beer:stone:1", "build", "card:redditch", "at:redditch:1:coal", "build", "card:ind-brewery",
  "at:burton:2:brewery", "build", "card:worcester", "at:worcester:1:cotton", "loan", "card:ind-brewery",
  "build", "card:ind-pottery", "at:coventry:1:pottery", "build", "card:kidderminster", "at:kidderminster:2:cotton",
  "network", "card:ind-iron", "link:worcester-birmingham", "loan", "card:stafford", "build",
  "card:ind-iron", "at:birmingham:3:iron", "build", "card:ind-iron", "at:birmingham:3:iron", "build",
  "card:wolverhampton", "at:wolverhampton:2:coal", "network", "card:worcester", "link:coalbrookdale-kidderminster",
}

test("brass: a hand-checked full canal era (2 players, seed 2026): money, income, turn order each round, the era's scoring", function()
  local s = G.setup(2, 2026)
  -- at the start of each round: money, income-track progress and turn order (checked by hand
  -- from the tiles' costs, the market prices, the loans, the flips and the money spent)
  local EXPECT = {
    [2] = { 5, 10, 10, 10, { 2, 1 } }, [3] = { 29, 30, 7, 7, { 1, 2 } }, [4] = { 28, 12, 14, 7, { 1, 2 } },
    [5] = { 22, 3, 21, 7, { 2, 1 } }, [6] = { 13, 3, 21, 16, { 2, 1 } }, [7] = { 41, 23, 16, 10, { 1, 2 } },
    [8] = { 21, 19, 16, 20, { 2, 1 } }, [9] = { 36, 12, 10, 24, { 1, 2 } }, [10] = { 19, 43, 10, 18, { 2, 1 } },
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
  end
  t.eq(checked, 9)
  t.eq(s.era, "rail")
  -- the canal scoring: P1 links 10 (tamworth-birmingham 2, tamworth-nuneaton 1, coventry-
  -- birmingham 3, birmingham-oxford 3, coalbrookdale-kidderminster 1) + flipped cotton mills
  -- at Tamworth and Birmingham 5 + 5; P2 links 12 (kidderminster-worcester 1, worcester-
  -- gloucester 2, worcester-birmingham 1, gloucester-redditch 4, redditch-oxford 4) + brewery 2
  -- at Stone 5, cotton mill 1 at Kidderminster 5, manufacturer 1 at Coventry 3, coal mine 1 at
  -- Redditch 1
  t.eq(s.era_scores, { { 20, 26 } })
  t.eq({ s.players[1].vp, s.players[2].vp }, { 20, 26 })
  t.eq({ s.players[1].money, s.players[2].money }, { 9, 48 })
  t.eq({ s.players[1].progress, s.players[2].progress }, { 10, 21 })
  -- the rail era begins: no links, no level-1 tiles, merchants' beer back, a new deck dealt
  for _, o in ipairs(s.links) do t.eq(o, 0) end
  local left = {}
  for si, tile in ipairs(s.tiles) do
    if tile then
      t.ok(tile.level > 1, "level-1 tiles removed")
      left[#left + 1] = G.SLOTS[si].name .. "=" .. tile.industry .. tile.level
    end
  end
  t.eq(left, { "stone:1=brewery2", "burton:2=brewery2", "wolverhampton:2=coal2", "kidderminster:2=cotton2", "worcester:1=cotton2",
               "birmingham:3=iron2", "coventry:1=pottery2" })
  for _, m in ipairs(s.merchants) do t.eq(m.beer, m.tile == "blank" and 0 or 1) end
  t.eq({ #s.players[1].hand, #s.players[2].hand, #s.deck, #s.discard, #s.removed }, { 8, 8, 24, 0, 0 })
  t.eq(s.order, { 1, 2 }, "player 1 spent 10 in the last round, player 2 17"); t.eq(s.actions_left, 2)
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
  t.eq(ids(G.legal_actions(s2, 1)), { "at:birmingham:1:cotton", "at:birmingham:1:goods", "at:birmingham:2:goods", "at:birmingham:3:iron", "at:birmingham:4:goods" })
  -- an industry card builds only in the network: a link Wolverhampton-Dudley of player 1
  local s3 = position({ "ind-coal", "ind-iron" })
  link(s3, "wolverhampton-dudley", 1)
  run(s3, 1, { "build", "card:ind-coal" })
  t.eq(ids(G.legal_actions(s3, 1)), { "at:wolverhampton:2:coal", "at:dudley:1:coal" })
  -- with nothing on the board, anywhere a coal mine may go
  local s4 = position({ "ind-coal" })
  run(s4, 1, { "build", "card:ind-coal" })
  t.eq(#G.legal_actions(s4, 1), 15, "the 15 spaces that allow a coal mine")
  -- canal era: a second tile of player 1 in Dudley is refused, another player's is not
  put(s3, "dudley:2", 1, "iron", 1, false, 2)
  t.eq(ids(G.legal_actions(s3, 1)), { "at:wolverhampton:2:coal" })
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
end)

test("brass: loan: +30 money, income 3 levels down to the top of the lower level; refused below -10", function()
  local s = position({ "birmingham", "dudley" })
  s.players[1].progress = 20                                   -- level 5
  run(s, 1, { "loan", "card:dudley" })
  t.eq(s.players[1].money, 47); t.eq(s.players[1].progress, D.top(2)); t.eq(D.top(2), 14)
  local s2 = position({ "birmingham" })
  s2.players[1].progress = 2                                   -- level -8
  t.ok(not has(G.legal_actions(s2, 1), "loan"))
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
  -- no beer anywhere and a tile that needs beer: no sale
  local s2 = position({ "birmingham" })
  put(s2, "birmingham:1", 1, "cotton", 1, false)
  link(s2, "birmingham-oxford", 1)
  for _, m in ipairs(s2.merchants) do m.beer = 0 end
  t.ok(not has(G.legal_actions(s2, 1), "sell"))
  -- another's brewery counts only when connected; one's own anywhere
  put(s2, "stone:1", 1, "brewery", 1, false, 1)
  t.ok(has(G.legal_actions(s2, 1), "sell"))
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
end)

test("brass: ranking: points, then income level, then money; ties share", function()
  local s = position({})
  s.over = true
  s.players[1].vp, s.players[2].vp, s.players[3].vp = 50, 50, 40
  s.players[1].progress, s.players[2].progress = 30, 20
  t.eq(G.ranking(s).ranks, { 1, 2, 3 })
  s.players[2].progress = 30
  s.players[2].money = 20
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
  local s = G.setup(3, 77)
  for _ = 1, 60 do
    local seat = G.current_seats(s)[1]
    assert(G.apply(s, seat, ismcts.heuristic_pick(G, s, seat, G.legal_actions(s, seat), rand, 0.1)))
  end
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
  local rand = kit.generator(41)
  local wins = 0
  for m = 1, 9 do
    local hseat = (m - 1) % 3 + 1
    local final = rt.play(G, 3, 900 + m, function(st, seat, legal)
      if seat == hseat then return ismcts.heuristic_pick(G, st, seat, legal, rand, 0.1) end
      return legal[rand(#legal)].id
    end, nil, 5000)
    if G.ranking(final).ranks[hseat] == 1 then wins = wins + 1 end
  end
  t.ok(wins >= 6, "heuristic first in " .. wins .. " of 9")
end)

test("brass: the drawing: every town's spaces, every link, built links and tiles in their owner's colour", function()
  local rand = kit.generator(2)
  local s = G.setup(3, 12)
  for _ = 1, 120 do
    local seat = G.current_seats(s)[1]
    assert(G.apply(s, seat, ismcts.heuristic_pick(G, s, seat, G.legal_actions(s, seat), rand, 0)))
  end
  local o = G.observation(s, 2)
  local svg = G.svg(o)
  t.ok(svg:find("^<svg") and svg:find("</svg>$"))
  local links, tiles, spaces = 0, 0, 0
  for _ in svg:gmatch('class="link"') do links = links + 1 end
  for _ in svg:gmatch('class="tile"') do tiles = tiles + 1 end
  for _ in svg:gmatch('class="space"') do spaces = spaces + 1 end
  t.eq(links, 39); t.eq(tiles, #o.tiles); t.eq(tiles + spaces, 49)
  t.ok(#o.tiles > 0)
end)

test("brass: a full arena match of the three baselines (Random, Heuristic, ISMCTS) ends with ranks and counted decisions", function()
  local participants = require "scenarios.dece.participants"
  local match = require "scenarios.dece.match"
  local records = require "tabula.records"
  local dir = t.tmpdir()
  local by = {}
  for _, e in ipairs({ { name = "random", player = "random" }, { name = "heuristic", player = "heuristic" },
                       { name = "ismcts", player = "ismcts", simulations = 8, steps = 18 } }) do
    local pp = participants.normalize(e, "test")
    by[pp.name] = pp
  end
  local arena = { dir = dir, participants = by, agents = {}, prompts = {}, games = { brass = G } }
  local rec = match.play(arena, { id = "brass-1", game = "brass", seats = { "ismcts", "random", "heuristic" }, setup_seed = 77 })
  t.eq(rec.status, "finished"); t.eq(#rec.ranks, 3)
  local total = 0
  for s = 1, 3 do total = total + rec.decisions[s]; t.ok(rec.turns[s] >= rec.decisions[s]) end
  t.eq(rec.D, total)
  t.ok(total >= 200, "a real game: D = " .. total)
  local ev = records.read(dir .. "/matches/brass-1.jsonl")
  t.eq(ev[1].k, "setup"); t.eq(ev[#ev].k, "end")
end)

test("brass: RULES-AUDIT.md names existing tests; coverage by status", function()
  local text = assert(io.open(t.root() .. "/games/brass/RULES-AUDIT.md")):read("a")
  local names = {}
  for _, e in ipairs(T) do names[e[1]] = true end
  local counts, ids_ = { PASS = 0, MISSING = 0, ["OUT-OF-SCOPE"] = 0 }, {}
  for line in text:gmatch("[^\n]+") do
    local id, rule, name, status = line:match("^| *(B[%w%.%-]+) *| *(.-) *| *(.-) *| *([%u%-]+) *|$")
    if id then
      t.ok(not ids_[id], "rule id " .. id .. " once"); ids_[id] = true
      t.ok(counts[status], id .. ": status " .. status)
      t.ok(rule ~= "", id .. ": a rule")
      counts[status] = counts[status] + 1
      if status == "PASS" then
        local tname = name:match("^`(.*)`$") or name
        t.ok(names[tname], id .. ": no test named " .. tname)
      end
    end
  end
  t.ok(counts.PASS >= 25, "rules audited: " .. counts.PASS)
  io.write(string.format("  RULES-AUDIT: %d PASS, %d MISSING, %d OUT-OF-SCOPE\n", counts.PASS, counts.MISSING, counts["OUT-OF-SCOPE"]))
end)

return T
