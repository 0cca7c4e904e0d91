-- The Castles of Burgundy rules: the data manifest (estate, 164 tiles, depots, goods), invariants
-- over random playouts (tiles and goods conserved, limits held, points never fall), each dice
-- action with hand-computed legal counts, worker shifts wrapping 1<->6, the black depot, storage,
-- each building type, castle, mine, ship and animal effect, each of the 26 knowledge tiles,
-- region and colour completion, turn order by ships, phase and end scoring, tie-break, replay,
-- the perturbation and determinization tests of hidden information, the observation size, the
-- heuristic against Random, the drawing, a model match over the mock server, a full arena run
-- through the command line, and the rules audit (RULES-AUDIT.md).
-- slow: full matches through the arena and random playouts (left out by make check)
local t = require "tabula.testing"
local G = require "games.burgundy"
local D = require "games.burgundy.data"
local kit = require "games.kit"
local json = require "tabula.json"
local rt = require "games.rules_test"
local ismcts = require "games.ismcts"
local fs = require "tabula.fs"
local test, T = t.suite()

local S = G.SPID
local TILE = D.TILES

-- every tile and goods tile in one place; limits held
local function invariant(s, where)
  where = where or ""
  local tiles, goods = G.census(s)
  if tiles ~= #TILE then error(string.format("%s: %d tiles instead of %d", where, tiles, #TILE), 0) end
  for g = 1, 6 do
    if goods[g] ~= D.GOODS_PER_TYPE then error(string.format("%s: %d goods of type %d", where, goods[g], g), 0) end
  end
  for i = 1, s.n do
    local p = s.players[i]
    if #p.storage > D.STORAGE then error(where .. ": more than three tiles in storage", 0) end
    if #p.goods > D.GOODS_SLOTS then error(where .. ": more than three goods types stored", 0) end
    if p.silver < 0 or p.workers < 0 then error(where .. ": negative silverlings or workers", 0) end
    if #p.dice > 2 then error(where .. ": more than two dice", 0) end
    for h = 1, #D.SPACES do
      local n = p.estate[h]
      if n and TILE[n].kind ~= D.KINDS[({ C = 1, W = 2, P = 3, M = 4, B = 5, K = 6 })[D.SPACES[h].letter]].id then
        error(where .. ": a tile on a space of another colour", 0)
      end
    end
    -- a city holds each building type once unless knowledge 1 is placed
    if not p.know[1] then
      for _, reg in ipairs(G.REGIONS) do
        local seen = {}
        for _, h in ipairs(reg.spaces) do
          local n = p.estate[h]
          if n and TILE[n].building then
            if seen[TILE[n].building] then error(where .. ": a building twice in one city", 0) end
            seen[TILE[n].building] = true
          end
        end
      end
    end
  end
  for _, k in ipairs(D.KINDS) do if #s.bonus[k.id] > 2 then error(where .. ": three colour bonuses", 0) end end
end

-- monotone over a match: points on the track, tiles on each estate and goods sold never go down
local last = setmetatable({}, { __mode = "k" })
local function monotone(s, where)
  invariant(s, where)
  local prev = last[s] or {}
  local now = {}
  for i = 1, s.n do
    local p = s.players[i]
    local sold = 0
    for g = 1, 6 do sold = sold + p.sold[g] end
    now[i] = { p.vp, #D.SPACES - G.empty_spaces(p), sold, p.track }
    if prev[i] then
      for k = 1, 4 do
        if now[i][k] < prev[i][k] then error(string.format("%s: seat %d: a monotone count went down (%d)", where, i, k), 0) end
      end
    end
  end
  last[s] = now
end

-- grab(s, pred) -> a tile matching pred, taken from wherever it lies off the estates (piles,
-- depots, the box), so the census still holds
local function grab(s, pred)
  local function from(list)
    for j = #list, 1, -1 do
      local n = list[j]
      if n and pred(TILE[n]) then return n, j end
    end
  end
  for _, k in ipairs(D.KINDS) do
    local n, j = from(s.piles[k.id])
    if n then table.remove(s.piles[k.id], j); return n end
  end
  local n, j = from(s.black_pile)
  if n then table.remove(s.black_pile, j); return n end
  n, j = from(s.box)
  if n then table.remove(s.box, j); return n end
  for k = 1, 6 do
    for jj = 1, 4 do
      local m = s.depots[k].tiles[jj]
      if m and pred(TILE[m]) then s.depots[k].tiles[jj] = false; return m end
    end
  end
  for jj = 1, D.BLACK do
    local m = s.black[jj]
    if m and pred(TILE[m]) then s.black[jj] = false; return m end
  end
  error("no such tile left")
end
local function building(b) return function(x) return x.building == b end end
local function kind(k) return function(x) return x.kind == k end end
local function animal(a, c) return function(x) return x.animal == a and x.count == c end end
local function knowledge(k) return function(x) return x.knowledge == k end end

-- put(s, seat, space, pred): a tile on the estate without its effects
local function put(s, seat, space, pred)
  local n = grab(s, pred)
  s.players[seat].estate[S[space]] = n
  return n
end
-- give(s, seat, pred): a tile into storage
local function give(s, seat, pred)
  local n = grab(s, pred)
  table.insert(s.players[seat].storage, n)
  return n
end
-- learn(s, seat, k): knowledge tile k on the estate (on some free yellow space, effects only)
local function learn(s, seat, k)
  local n = grab(s, knowledge(k))
  s.players[seat].know[k] = true
  s.box[#s.box + 1] = n
end

-- a three-player state, seat 1 to move with the given dice, no goods, no workers
local function position(dice, n)
  local s = G.setup(n or 3, 1)
  for i = 1, s.n do
    local p = s.players[i]
    for _, sl in ipairs(p.goods) do for _ = 1, sl.count do s.goods_stack[#s.goods_stack + 1] = sl.type end end
    p.goods, p.workers = {}, 0
  end
  s.players[1].dice = dice or { 2, 5 }
  return s
end
-- set_goods(s, seat, {type = count}): goods into storage, taken from the stack
local function set_goods(s, seat, map)
  local p = s.players[seat]
  for g, c in pairs(map) do
    for _ = 1, c do
      for j = #s.goods_stack, 1, -1 do if s.goods_stack[j] == g then table.remove(s.goods_stack, j); break end end
    end
    p.goods[#p.goods + 1] = { type = g, count = c }
  end
  table.sort(p.goods, function(a, b) return a.type < b.type end)
end
local function depot_tile(s, k, j, pred)
  local old = s.depots[k].tiles[j]
  if old then s.box[#s.box + 1] = old end
  s.depots[k].tiles[j] = grab(s, pred)
  return s.depots[k].tiles[j]
end

local function ids(list)
  local r = {}
  for i, a in ipairs(list) do r[i] = a.id end
  return r
end
local count = function(s, seat, pat) return rt.count_actions(G, s, seat, pat) end
local function ok(s, seat, id) local r, err = G.apply(s, seat, id); t.ok(r, tostring(err) .. " (" .. id .. ")") end

test("burgundy: data manifest: the estate of 37 spaces, 164 tiles of six kinds, depots, 42 goods", function()
  -- the estate: composition by colour as estate no. 1 (the layout itself: the test below)
  t.eq(#D.SPACES, 37)
  t.eq(G.KIND_SPACES, { castle = 4, ship = 6, animal = 6, mine = 3, building = 12, knowledge = 6 })
  t.eq(D.SPACES[S[D.START]].letter, "C")
  -- the hex graph: symmetric, 90 edges in a hexagon of radius 3, the middle has six neighbours
  local edges = 0
  for i = 1, #D.SPACES do
    for _, q in ipairs(G.NB[i]) do
      local back = false
      for _, r in ipairs(G.NB[q]) do if r == i then back = true end end
      t.ok(back, "adjacency symmetric")
      if q > i then edges = edges + 1 end
    end
  end
  t.eq(edges, 90); t.eq(#G.NB[S[D.START]], 6)
  -- tiles: 164 by kind; backs; 26 knowledge tiles, each once; 6 of each building type; animals
  t.eq(#TILE, 164)
  local by, backs, know, builds, animals, heads = {}, {}, {}, {}, {}, {}
  for i, x in ipairs(TILE) do
    t.eq(x.n, i)
    by[x.kind] = (by[x.kind] or 0) + 1
    backs[x.back] = (backs[x.back] or 0) + 1
    if x.knowledge then know[x.knowledge] = (know[x.knowledge] or 0) + 1 end
    if x.building then builds[x.building] = (builds[x.building] or 0) + 1 end
    if x.animal then animals[x.animal] = (animals[x.animal] or 0) + 1; heads[x.animal] = (heads[x.animal] or 0) + x.count end
  end
  t.eq(by, { castle = 20, ship = 26, animal = 28, mine = 16, building = 48, knowledge = 26 })
  t.eq(backs, { start = 4, coloured = 120, black = 40 })
  for k = 1, 26 do t.eq(know[k], 1, "knowledge " .. k) end
  t.eq(#D.KNOWLEDGE, 26); t.eq(#D.BUILDINGS, 8)
  -- knowledge 1-14 change rules, 15-26 score at the end: 16-23 one building type each, in the
  -- buildings' order; 24 animal types, 25 goods tiles sold, 26 bonus tiles
  local scores = {}
  for k, e in ipairs(D.KNOWLEDGE) do t.eq(e[1] == "end", k >= 15, "knowledge " .. k); scores[k] = e[3] end
  for k = 16, 23 do t.eq(scores[k], D.BUILDINGS[k - 15].id) end
  t.eq({ scores[15], scores[24], scores[25], scores[26] }, { "types_sold", "animal_types", "tiles_sold", "bonus" })
  for _, b in ipairs(D.BUILDINGS) do t.eq(builds[b.id], 6, b.id) end
  t.eq(animals, { cattle = 7, sheep = 7, pigs = 7, chickens = 7 })
  t.eq(heads, { cattle = 21, sheep = 21, pigs = 21, chickens = 21 })
  -- the depots: 24 coloured spaces per phase at 4 players; the coloured piles last five phases
  local spaces = {}
  for _, dep in ipairs(D.DEPOTS) do t.eq(#dep, 4); for _, k in ipairs(dep) do spaces[k] = (spaces[k] or 0) + 1 end end
  t.eq(spaces, { building = 8, ship = 4, animal = 4, knowledge = 4, castle = 2, mine = 2 })
  -- the spaces used with two players, by depot (the two sources of RULES.md agree on these)
  local two = {}
  for k, dep in ipairs(D.DEPOTS) do local l = { dep[1], dep[2] }; table.sort(l); two[k] = table.concat(l, "+") end
  t.eq(two, { "building+ship", "castle+knowledge", "animal+building", "building+ship", "knowledge+mine", "animal+building" })
  local coloured = {}
  for _, x in ipairs(TILE) do if x.back == "coloured" then coloured[x.kind] = (coloured[x.kind] or 0) + 1 end end
  for k, c in pairs(spaces) do t.eq(coloured[k], 5 * c, k .. ": five phases of its depot spaces") end
  t.eq(backs.black, 5 * D.BLACK, "five phases of the black depot")
  t.eq(D.GOODS, 6 * D.GOODS_PER_TYPE)
  t.eq(D.REGION_POINTS, { 1, 3, 6, 10, 15, 21, 28, 36 }); t.eq(D.PHASE_BONUS, { 10, 8, 6, 4, 2 })
  t.eq(D.PHASES * D.ROUNDS, 25)
end)

test("burgundy: estate no. 1 as printed: colours and numbers by row, its regions, the start castle and its neighbours", function()
  -- the board row by row (C castle, W water, P pasture, M mine, B city, K knowledge; the die number)
  local rows = {}
  for _, sp in ipairs(D.SPACES) do
    local r = sp.name:sub(1, 1)
    rows[r] = (rows[r] and rows[r] .. " " or "") .. sp.letter .. sp.die
  end
  t.eq(rows, { a = "P6 C5 C4 K3", b = "P2 P1 C6 K5 B4", c = "P5 P4 B3 K1 B2 B3", d = "W6 W1 W2 C6 W5 W4 W1",
               e = "B2 B5 M4 B3 B1 P2", f = "B6 M1 K2 B5 B6", g = "M3 K4 K1 B3" })
  -- the die numbers: 1 on seven spaces, every other number on six (the start castle is a 6)
  local dice = {}
  for _, sp in ipairs(D.SPACES) do dice[sp.die] = (dice[sp.die] or 0) + 1 end
  t.eq(dice, { 7, 6, 6, 6, 6, 6 })
  -- the regions (connected spaces of one colour): 13, each named by its spaces
  local regions = {}
  for _, reg in ipairs(G.REGIONS) do
    local names = {}
    for _, h in ipairs(reg.spaces) do names[#names + 1] = D.SPACES[h].name end
    table.sort(names)
    regions[#regions + 1] = reg.kind .. " " .. table.concat(names, ",")
  end
  table.sort(regions)
  t.eq(regions, {
    "animal a1,b1,b2,c1,c2", "animal e6",
    "building b5,c5,c6", "building c3", "building e1,e2,f1", "building e4,e5,f4,f5,g4",
    "castle a2,a3,b3", "castle d4",
    "knowledge a4,b4,c4", "knowledge f3,g2,g3",
    "mine e3,f2,g1",
    "ship d1,d2,d3", "ship d5,d6,d7" })
  -- so the cities are of 5, 3, 3 and 1 spaces, as the rulebook says of estate no. 1
  local sizes = {}
  for _, reg in ipairs(G.REGIONS) do
    sizes[reg.kind] = sizes[reg.kind] or {}
    table.insert(sizes[reg.kind], #reg.spaces)
  end
  for _, l in pairs(sizes) do table.sort(l) end
  t.eq(sizes, { building = { 1, 3, 3, 5 }, castle = { 1, 3 }, ship = { 3, 3 }, animal = { 1, 5 }, mine = { 3 },
                knowledge = { 3, 3 } })
  -- the start castle in the middle (a 6); the first tile goes on one of its six neighbours
  t.eq(D.START, "d4")
  local function around(name)
    local l = {}
    for _, q in ipairs(G.NB[S[name]]) do l[#l + 1] = D.SPACES[q].name .. "=" .. D.SPACES[q].letter .. D.SPACES[q].die end
    table.sort(l)
    return table.concat(l, " ")
  end
  t.eq(around("d4"), "c3=B3 c4=K1 d3=W2 d5=W5 e3=M4 e4=B3")
  -- corners and the ends of the middle row have three neighbours; an inner space six
  t.eq(around("a1"), "a2=C5 b1=P2 b2=P1"); t.eq(around("g4"), "f4=B5 f5=B6 g3=K1")
  t.eq(around("d1"), "c1=P5 d2=W1 e1=B2"); t.eq(around("d7"), "c6=B3 d6=W4 e6=P2")
  t.eq(around("b3"), "a2=C5 a3=C4 b2=P1 b4=K5 c3=B3 c4=K1")
  t.eq(around("f2"), "e2=B5 e3=M4 f1=B6 f3=K2 g1=M3 g2=K4")
end)

test("burgundy: 40 fast random playouts (2-4 players) conserve tiles and goods, hold limits, points never fall", function()
  -- 40 keep the file fast; bench/dece_rules.lua plays thousands with the same invariant
  local r = rt.playouts(G, { games = 40, seed = 11, light = true, invariant = monotone })
  t.eq(r.matches, 40)
end)

test("burgundy: full checks (actions, illegal ids, serialization, hidden information, determinism) on 4 playouts", function()
  local r = rt.playouts(G, { games = 4, seed = 5, invariant = invariant, hidden_every = 9 })
  t.ok(r.steps > 4 * 100, "matches have many sub-decisions: " .. r.steps)
end)

test("burgundy: setup: start castle, 3 goods and 1 silverling each, workers 1-4 by seat, depots filled by player count", function()
  for n = 2, 4 do
    local s = G.setup(n, 3)
    invariant(s)
    for i = 1, n do
      local p = s.players[i]
      t.eq(TILE[p.estate[S.d4]].back, "start")
      t.eq(G.empty_spaces(p), 36)
      local g = 0
      for _, sl in ipairs(p.goods) do g = g + sl.count end
      t.eq(g, 3); t.eq(p.silver, 1); t.eq(p.workers, i); t.eq(#p.dice, 2)
    end
    local filled = 0
    for k = 1, 6 do for j = 1, 4 do if s.depots[k].tiles[j] then filled = filled + 1; t.ok(j <= n) end end end
    t.eq(filled, 6 * n)
    -- the black depot: two tiles per player (4, 6, 8), the first spaces of its eight
    local black = 0
    for j = 1, D.BLACK do if s.black[j] then black = black + 1; t.ok(j <= 2 * n, "black space " .. j) end end
    t.eq(black, 2 * n, n .. " players: the black depot's fill")
    -- the round's goods tile went to the depot of the white die; four wait for rounds 2-5
    t.eq(#s.depots[s.white].goods, 1)
    local waiting = 0
    for r = 1, 5 do if s.round_goods[r] > 0 then waiting = waiting + 1 end end
    t.eq(waiting, 4)
    t.eq(G.current_seats(s), { 1 }); t.eq(s.order, n == 2 and { 1, 2 } or (n == 3 and { 1, 2, 3 } or { 1, 2, 3, 4 }))
  end
end)

test("burgundy: take a tile: a die takes from the depot of its number; workers shift it; storage full asks for a discard", function()
  local s = position({ 2, 5 })
  -- 3 players: three tiles per depot; dice 2 and 5, no worker: depots 2 and 5 only
  t.eq(count(s, 1, "^take:"), 6)
  t.eq(count(s, 1, "^workers:"), 2)
  t.eq(#G.legal_actions(s, 1), 8, "takes and workers; no goods to sell, nothing stored, no silverlings for the black depot")
  s.players[1].workers = 1
  t.eq(count(s, 1, "^take:"), 18, "one worker reaches depots 1, 3 (from 2) and 4, 6 (from 5)")
  t.eq(count(s, 1, "^take:2:"), 9)
  local n = s.depots[3].tiles[1]
  ok(s, 1, "take:2:t" .. n)
  t.eq(s.players[1].workers, 0); t.eq(s.players[1].storage, { n }); t.eq(s.depots[3].tiles[1], false)
  t.eq(s.players[1].dice, { 5 })
  -- full storage: the new tile waits while one of the three stored is discarded
  local s2 = position({ 4, 4 })
  local a = give(s2, 1, kind("mine")); local b = give(s2, 1, kind("ship")); local c = give(s2, 1, kind("castle"))
  local m = s2.depots[4].tiles[2]
  t.eq(count(s2, 1, "^take:4:"), 3, "equal dice give one set of actions")
  ok(s2, 1, "take:4:t" .. m)
  t.eq(ids(G.legal_actions(s2, 1)), { "discard:t" .. a, "discard:t" .. b, "discard:t" .. c })
  ok(s2, 1, "discard:t" .. b)
  t.eq(s2.players[1].storage, { a, c, m })
  t.eq(s2.box[#s2.box], b)
  invariant(s2)
end)

test("burgundy: worker shifts wrap 1<->6; any number of workers on one die", function()
  t.eq(G.dist(1, 6), 1); t.eq(G.dist(6, 1), 1); t.eq(G.dist(2, 6), 2); t.eq(G.dist(1, 4), 3); t.eq(G.dist(3, 3), 0)
  local s = position({ 6, 6 })
  s.players[1].workers = 1
  -- die 6 with one worker: depots 5, 6 and 1
  local seen = {}
  for _, a in ipairs(G.legal_actions(s, 1)) do
    local n = a.id:match("^take:6:t(%d+)$")
    if n then
      for k = 1, 6 do for j = 1, 4 do if s.depots[k].tiles[j] == tonumber(n) then seen[k] = true end end end
    end
  end
  t.eq(seen, { [1] = true, [5] = true, [6] = true })
  s.players[1].workers = 3
  t.eq(count(s, 1, "^take:6:"), 18, "three workers reach every depot")
  local n = s.depots[3].tiles[1]
  ok(s, 1, "take:6:t" .. n)
  t.eq(s.players[1].workers, 0, "6 to 3 costs three workers either way round")
end)

test("burgundy: place a tile: next to a placed tile, on the colour and die number; the city takes a building type once", function()
  local s = position({ 3, 1 })
  local bank = give(s, 1, building("bank"))
  -- around the start castle: c3 B3 (a city of one), c4 K1, d3 W2, d5 W5, e3 M4, e4 B3 (in the
  -- city of five); die 3 reaches both city spaces, die 1 no city space
  t.eq(count(s, 1, "^place:"), 2)
  t.ok(count(s, 1, "^place:3:t" .. bank .. ":c3$") == 1 and count(s, 1, "^place:3:t" .. bank .. ":e4$") == 1)
  ok(s, 1, "place:3:t" .. bank .. ":e4")
  t.eq(s.players[1].estate[S.e4], bank); t.eq(s.players[1].silver, 3, "the bank's two silverlings")
  -- a second bank may not go into the same city (e5 B1 and f4 B5 are in e4's city, now touching
  -- the estate); c3 (its own city) is open
  local bank2 = give(s, 1, building("bank"))
  s.players[1].dice = { 3, 1 }
  t.eq(count(s, 1, "^place:"), 1)
  t.eq(count(s, 1, "^place:3:t" .. bank2 .. ":c3$"), 1)
  local church = give(s, 1, building("church"))
  t.eq(count(s, 1, "^place:1:t" .. church .. ":e5$"), 1, "another building type goes in")
  -- a tile never goes on a space of another colour or away from the estate
  local sheep = give(s, 1, animal("sheep", 2))
  t.eq(count(s, 1, "^place:%d:t" .. sheep .. ":"), 0, "no pasture space touches a placed tile yet")
end)

test("burgundy: sell goods: all of one type, the die's number; 1 silverling and 2/3/4 points a tile by player count", function()
  for n = 2, 4 do
    local s = position({ 3, 6 }, n)
    set_goods(s, 1, { [3] = 2, [5] = 1 })
    t.eq(count(s, 1, "^sell:"), 1, "die 3 sells type 3; nothing shifts die 6 to 5 without workers")
    ok(s, 1, "sell:3:3")
    local p = s.players[1]
    t.eq(p.vp, 2 * D.SELL_POINTS[n]); t.eq(p.silver, 2); t.eq(p.sold[3], 2); t.eq(#p.goods, 1)
  end
  t.eq(D.SELL_POINTS, { [2] = 2, [3] = 3, [4] = 4 })
end)

test("burgundy: take workers: any die gives two workers", function()
  local s = position({ 2, 5 })
  ok(s, 1, "workers:5")
  t.eq(s.players[1].workers, 2); t.eq(s.players[1].dice, { 2 })
  ok(s, 1, "workers:2")
  t.eq(s.players[1].workers, 4)
  t.eq(s.turn, 2, "both dice used, no silverlings to buy: the turn passed")
end)

test("burgundy: the black depot: once a turn, 2 silverlings, before, between or after the dice", function()
  local s = position({ 2, 5 })
  s.players[1].silver = 5
  t.eq(count(s, 1, "^buy:"), 6, "three players: six tiles on the black depot")
  local n = s.black[3]
  ok(s, 1, "buy:t" .. n)
  t.eq(s.players[1].silver, 3); t.eq(s.players[1].storage, { n }); t.eq(s.black[3], false)
  t.eq(count(s, 1, "^buy:"), 0, "once a turn")
  ok(s, 1, "workers:2"); ok(s, 1, "workers:5")
  t.eq(s.turn, 2)
  -- after the dice: the turn waits for a purchase or the end
  s.players[2].silver = 2
  ok(s, 2, "workers:" .. s.players[2].dice[1]); ok(s, 2, "workers:" .. s.players[2].dice[1])
  t.eq(s.turn, 2)
  t.ok(count(s, 2, "^buy:") == 5 and count(s, 2, "^end$") == 1)
  -- workers never pay for it: two workers and one silverling buy nothing
  local w = position({ 2, 5 }); w.players[1].silver, w.players[1].workers = 1, 2
  t.eq(count(w, 1, "^buy:"), 0)
  ok(s, 2, "end")
  t.eq(s.turn, 3)
  s.players[3].silver = 1
  t.eq(count(s, 3, "^buy:"), 0, "one silverling is not enough")
end)

-- buildings ---------------------------------------------------------------------------------

-- a position where seat 1 can place the stored building on e4 (in the city of five) with die 3
local function building_position(b)
  local s = position({ 3, 3 })
  local n = give(s, 1, building(b))
  return s, n
end

test("burgundy: building warehouse: sell all goods of any one type without a die", function()
  local s, n = building_position("warehouse")
  set_goods(s, 1, { [2] = 3, [6] = 1 })
  ok(s, 1, "place:3:t" .. n .. ":e4")
  t.eq(ids(G.legal_actions(s, 1)), { "sell:f:2", "sell:f:6" })
  ok(s, 1, "sell:f:2")
  t.eq(s.players[1].vp, 9); t.eq(s.players[1].silver, 2); t.eq(s.players[1].dice, { 3 })
end)

test("burgundy: building watchtower: 4 points", function()
  local s, n = building_position("watchtower")
  ok(s, 1, "place:3:t" .. n .. ":e4")
  t.eq(s.players[1].vp, 4)
end)

test("burgundy: building carpenter's workshop: take a building from any numbered depot", function()
  local s, n = building_position("carpenter")
  local want = 0
  for k = 1, 6 do for j = 1, 3 do local m = s.depots[k].tiles[j]; if m and TILE[m].kind == "building" then want = want + 1 end end end
  ok(s, 1, "place:3:t" .. n .. ":e4")
  t.eq(count(s, 1, "^take:f:"), want); t.eq(count(s, 1, "^skip$"), 1); t.eq(#G.legal_actions(s, 1), want + 1)
  local m = s.depots[6].tiles[1]
  t.eq(TILE[m].kind, "building")
  ok(s, 1, "take:f:t" .. m)
  t.eq(s.players[1].storage, { m }); t.eq(s.players[1].dice, { 3 }, "no die used")
end)

test("burgundy: building church: take a mine, castle or knowledge tile from any numbered depot", function()
  local s, n = building_position("church")
  local want = 0
  for k = 1, 6 do for j = 1, 3 do
    local m = s.depots[k].tiles[j]
    if m and (TILE[m].kind == "mine" or TILE[m].kind == "castle" or TILE[m].kind == "knowledge") then want = want + 1 end
  end end
  t.ok(want >= 4)
  ok(s, 1, "place:3:t" .. n .. ":e4")
  t.eq(count(s, 1, "^take:f:"), want)
  ok(s, 1, "skip")
  t.eq(#s.players[1].storage, 0)
end)

test("burgundy: building market: take a ship or animal tile from any numbered depot", function()
  local s, n = building_position("market")
  local want = 0
  for k = 1, 6 do for j = 1, 3 do
    local m = s.depots[k].tiles[j]
    if m and (TILE[m].kind == "ship" or TILE[m].kind == "animal") then want = want + 1 end
  end end
  ok(s, 1, "place:3:t" .. n .. ":e4")
  t.eq(count(s, 1, "^take:f:"), want)
  local m = s.depots[1].tiles[2]
  t.eq(TILE[m].kind, "ship")
  ok(s, 1, "take:f:t" .. m)
  t.eq(s.players[1].storage, { m })
end)

test("burgundy: building boarding house: 4 workers", function()
  local s, n = building_position("boarding")
  ok(s, 1, "place:3:t" .. n .. ":e4")
  t.eq(s.players[1].workers, 4)
end)

test("burgundy: building bank: 2 silverlings", function()
  local s, n = building_position("bank")
  ok(s, 1, "place:3:t" .. n .. ":e4")
  t.eq(s.players[1].silver, 3)
end)

test("burgundy: building city hall: place a stored tile on any number; chains to that tile's effect", function()
  local s, n = building_position("cityhall")
  local tower = give(s, 1, building("watchtower"))
  ok(s, 1, "place:3:t" .. n .. ":e4")
  -- the watchtower may go on any empty building space touching the estate: c3, e5, f4
  t.eq(count(s, 1, "^place:f:t" .. tower .. ":"), 3)
  ok(s, 1, "place:f:t" .. tower .. ":f4")
  t.eq(s.players[1].vp, 4, "the watchtower's points")
  t.eq(s.players[1].dice, { 3 })
end)

-- castles, mines, ships, animals ------------------------------------------------------------

test("burgundy: castle: a free action with a die of any number (take, place, sell or workers)", function()
  local s = position({ 6, 6 })
  put(s, 1, "c3", building("watchtower"))
  local castle = give(s, 1, kind("castle"))
  local mine = give(s, 1, kind("mine"))
  set_goods(s, 1, { [4] = 1 })
  ok(s, 1, "place:6:t" .. castle .. ":b3")
  -- the free die: every tile of every depot (18), the mine on e3 (a 4, next to the start castle),
  -- sell 4, workers
  t.eq(count(s, 1, "^take:x:"), 18); t.eq(count(s, 1, "^sell:x:4$"), 1); t.eq(count(s, 1, "^workers:x$"), 1)
  t.eq(count(s, 1, "^place:x:t" .. mine .. ":e3$"), 1); t.eq(count(s, 1, "^place:x:"), 1)
  t.eq(#G.legal_actions(s, 1), 21)
  ok(s, 1, "sell:x:4")
  t.eq(s.players[1].vp, 3, "b3 does not complete its castle region of three; then 1 goods tile x 3")
  t.eq(s.players[1].dice, { 6 }, "the player's die is still there")
end)

test("burgundy: castle chains: a castle placed by a castle's free action gives another", function()
  local s = position({ 6, 6 })
  put(s, 1, "c3", building("watchtower"))
  local c1 = give(s, 1, kind("castle")); local c2 = give(s, 1, kind("castle"))
  ok(s, 1, "place:6:t" .. c1 .. ":b3")
  -- a2 (die 5) touches b3: the free die places the second castle there
  ok(s, 1, "place:x:t" .. c2 .. ":a2")
  t.eq(count(s, 1, "^workers:x$"), 1, "a second free action")
  ok(s, 1, "workers:x")
  t.eq(s.players[1].workers, 2)
end)

test("burgundy: mine: no immediate effect; 1 silverling per mine at the end of each phase", function()
  local s = position({ 4, 4 })
  local m = give(s, 1, kind("mine"))
  ok(s, 1, "place:4:t" .. m .. ":e3")
  t.eq(s.players[1].silver, 1); t.eq(s.players[1].vp, 0)
  put(s, 1, "f2", kind("mine"))
  -- to the last turn of phase A: rounds 1-5
  s.players[2].estate[S.e3] = grab(s, kind("mine"))
  local before = { s.players[1].silver, s.players[2].silver, s.players[3].silver }
  while s.phase == 1 do
    local seat = G.current_seats(s)[1]
    local d = s.players[seat].dice[1]
    if d then ok(s, seat, "workers:" .. d) else ok(s, seat, "end") end
  end
  t.eq(s.players[1].silver, before[1] + 2, "two mines"); t.eq(s.players[2].silver, before[2] + 1); t.eq(s.players[3].silver, before[3])
end)

test("burgundy: ship: take all goods of one depot, move ahead on the turn-order track", function()
  local s = position({ 1, 2 })
  local sh = give(s, 1, kind("ship"))
  -- goods on depots 2 and 4
  for _, d in ipairs({ 2, 4 }) do
    for j = #s.goods_stack, 1, -1 do
      if #s.depots[d].goods < 2 then table.insert(s.depots[d].goods, table.remove(s.goods_stack, j)) end
    end
  end
  for k = 1, 6 do if k ~= 2 and k ~= 4 then for _, g in ipairs(s.depots[k].goods) do s.goods_stack[#s.goods_stack + 1] = g end; s.depots[k].goods = {} end end
  local took = kit.copy(s.depots[4].goods)
  ok(s, 1, "place:2:t" .. sh .. ":d3")
  t.eq(ids(G.legal_actions(s, 1)), { "ship:2", "ship:4" })
  ok(s, 1, "ship:4")
  t.eq(#s.depots[4].goods, 0)
  local got = {}
  for _, sl in ipairs(s.players[1].goods) do for _ = 1, sl.count do got[#got + 1] = sl.type end end
  table.sort(took); t.eq(got, took)
  t.eq(s.players[1].track, 1)
  invariant(s)
end)

test("burgundy: ship: goods of a fourth type stay on the depot when the three storage spaces are taken", function()
  local s = position({ 2, 2 })
  set_goods(s, 1, { [1] = 1, [2] = 1, [3] = 1 })
  local sh = give(s, 1, kind("ship"))
  for k = 1, 6 do for _, g in ipairs(s.depots[k].goods) do s.goods_stack[#s.goods_stack + 1] = g end; s.depots[k].goods = {} end
  for _, g in ipairs({ 2, 6 }) do
    for j = #s.goods_stack, 1, -1 do if s.goods_stack[j] == g then table.remove(s.goods_stack, j); break end end
    table.insert(s.depots[5].goods, g)
  end
  ok(s, 1, "place:2:t" .. sh .. ":d3")
  ok(s, 1, "ship:5")
  t.eq(s.players[1].goods, { { type = 1, count = 1 }, { type = 2, count = 2 }, { type = 3, count = 1 } })
  t.eq(s.depots[5].goods, { 6 })
  invariant(s)
end)

test("burgundy: turn order by ships: furthest on the track first; the last to arrive on a space goes first", function()
  local s = G.setup(3, 9)
  local p1, p2, p3 = s.players[1], s.players[2], s.players[3]
  -- seat 3 ships once, then seat 2 reaches the same space later: seat 2 first, then 3, then 1
  p3.track, p3.stamp = 1, 10
  p2.track, p2.stamp = 1, 11
  while s.round == 1 do
    local seat = G.current_seats(s)[1]
    local d = s.players[seat].dice[1]
    if d then ok(s, seat, "workers:" .. d) else ok(s, seat, "end") end
  end
  t.eq(s.order, { 2, 3, 1 }); t.eq(G.current_seats(s), { 2 })
  p2.silver = 0                                     -- no purchase: the turn ends with the dice
  for _, d in ipairs({ table.unpack(p2.dice) }) do ok(s, 2, "workers:" .. d) end
  t.eq(G.current_seats(s), { 3 }, "then seat 3, then seat 1")
  -- through the rules: seat 1 places a ship and passes both
  local s2 = position({ 2, 2 })
  local sh = give(s2, 1, kind("ship"))
  s2.players[2].track, s2.players[2].stamp = 1, 5
  ok(s2, 1, "place:2:t" .. sh .. ":d3")
  if G.legal_actions(s2, 1)[1] and G.legal_actions(s2, 1)[1].id:find("^ship:") then ok(s2, 1, G.legal_actions(s2, 1)[1].id) end
  t.eq(s2.players[1].track, 1)
  while s2.round == 1 do
    local seat = G.current_seats(s2)[1]
    local d = s2.players[seat].dice[1]
    if d then ok(s2, seat, "workers:" .. d) else ok(s2, seat, "end") end
  end
  t.eq(s2.order, { 1, 2, 3 }, "seat 1 arrived after seat 2 on space 1")
end)

test("burgundy: animals score by herd: the animals of that type in the same pasture, the new tile included", function()
  local s = position({ 4, 4 })
  put(s, 1, "c3", building("bank"))
  local a = give(s, 1, animal("cattle", 3))
  ok(s, 1, "place:4:t" .. a .. ":c2")
  t.eq(s.players[1].vp, 3)
  local b = give(s, 1, animal("cattle", 2))
  local c = give(s, 1, animal("sheep", 4))
  s.players[1].dice = { 1, 2 }
  ok(s, 1, "place:1:t" .. b .. ":b2")
  t.eq(s.players[1].vp, 3 + (2 + 3), "the 2 new cattle and the 3 already in the pasture")
  ok(s, 1, "place:2:t" .. c .. ":b1")
  t.eq(s.players[1].vp, 8 + 4, "sheep score only the sheep")
  -- cattle in the other pasture (e6, a pasture of one) do not count towards c2's herd
  local s2 = position({ 2, 2 })
  put(s2, 1, "c3", building("bank")); put(s2, 1, "c2", animal("cattle", 4))
  put(s2, 1, "e4", building("church")); put(s2, 1, "e5", building("bank"))
  local d = give(s2, 1, animal("cattle", 2))
  ok(s2, 1, "place:2:t" .. d .. ":e6")
  t.eq(s2.players[1].vp, 2 + 1 + 10, "its own 2 cattle, and e6 completes a pasture of one in phase A")
end)

test("burgundy: region completion: points by size plus the phase's bonus (A 10 ... E 2)", function()
  for phase = 1, 5 do
    local s = position({ 3, 3 })
    s.phase = phase
    local tower = give(s, 1, building("watchtower"))
    ok(s, 1, "place:3:t" .. tower .. ":c3")        -- c3 alone is a city of one
    t.eq(s.players[1].vp, 4 + 1 + ({ 10, 8, 6, 4, 2 })[phase], "phase " .. phase)
  end
  -- the city of five (e4, e5, f4, f5, g4): 15 points and phase A's 10
  local c5 = position({ 3, 3 })
  put(c5, 1, "e4", building("church")); put(c5, 1, "e5", building("market"))
  put(c5, 1, "f4", building("boarding")); put(c5, 1, "f5", building("watchtower"))
  local bank = give(c5, 1, building("bank"))
  ok(c5, 1, "place:3:t" .. bank .. ":g4")
  t.eq(c5.players[1].vp, 15 + 10, "a region of five")
  -- a region of three: the third tile scores 6 + bonus, the first two nothing
  local s = position({ 4, 4 })
  put(s, 1, "f2", kind("mine")); put(s, 1, "g1", kind("mine"))
  local m = give(s, 1, kind("mine"))
  ok(s, 1, "place:4:t" .. m .. ":e3")
  t.eq(s.players[1].vp, 6 + 10 + D.BONUS_FIRST[3], "the region, and the last mine space fills the colour")
end)

test("burgundy: colour completion: the first to fill every space of a colour gets the large bonus, the second the small", function()
  local s = position({ 6, 6 })
  for i = 1, 3 do
    local p = s.players[i]
    p.estate[S.a2] = grab(s, kind("castle")); p.estate[S.a3] = grab(s, kind("castle"))
  end
  local function finish(seat)
    local p = s.players[seat]
    p.dice = { 6, 6 }
    local c = give(s, seat, kind("castle"))
    local before = p.vp
    ok(s, seat, "place:6:t" .. c .. ":b3")
    ok(s, seat, "workers:x")
    return p.vp - before
  end
  -- b3 completes the castle region of 3 (6 + 10) and the colour (with the start castle)
  t.eq(finish(1), 6 + 10 + D.BONUS_FIRST[3])
  ok(s, 1, "workers:6")
  t.eq(finish(2), 6 + 10 + D.BONUS_SECOND[3])
  ok(s, 2, "workers:6")
  t.eq(finish(3), 6 + 10, "no third bonus")
  t.eq(s.bonus.castle, { 1, 2 })
end)

test("burgundy: end scoring: 1 point per goods tile, per silverling, per two workers; ranking by points then most empty spaces", function()
  local s = G.setup(3, 21)
  local p = s.players[1]
  p.silver, p.workers = 4, 5
  local total_goods = 0
  for _, sl in ipairs(p.goods) do total_goods = total_goods + sl.count end
  t.eq(G.final_points(s, p), total_goods + 4 + 2)
  -- play to the end with workers only: the end adds the final points once
  while not G.is_terminal(s) do
    local seat = G.current_seats(s)[1]
    local d = s.players[seat].dice[1]
    if d then ok(s, seat, "workers:" .. d) else ok(s, seat, "end") end
  end
  for i = 1, 3 do
    local q = s.players[i]
    t.eq(q.final, G.final_points(s, q))
    t.eq(G.ranking(s).scores[i], q.vp)
  end
  -- 50 dice x 2 workers + the start workers; 5 phases without mines
  t.eq(s.players[1].workers, 5 + 100)
  -- tie-break: equal points, more empty spaces ahead; fully equal: shared
  s.players[1].vp, s.players[2].vp, s.players[3].vp = 50, 50, 50
  s.players[2].estate[S.c3] = grab(s, building("bank"))
  t.eq(G.ranking(s).ranks, { 1, 3, 1 })
  -- the English text's reading (an option): fewer empty spaces ahead
  G.TIE_MOST_EMPTY = false
  local r = G.ranking(s)
  G.TIE_MOST_EMPTY = true
  t.eq(r.ranks, { 2, 1, 2 })
end)

test("burgundy: the game lasts 5 phases of 5 rounds; every phase refills the depots and the black depot", function()
  local s = G.setup(4, 8)
  local phases_seen, rounds = { [1] = true }, 1
  local refills = 0
  local last_phase = 1
  while not G.is_terminal(s) do
    local seat = G.current_seats(s)[1]
    local d = s.players[seat].dice[1]
    local pr = s.round
    if d then ok(s, seat, "workers:" .. d) else ok(s, seat, "end") end
    if s.round ~= pr and not s.over then rounds = rounds + 1 end
    if s.phase ~= last_phase then
      last_phase = s.phase; phases_seen[s.phase] = true
      local full = true
      for k = 1, 6 do for j = 1, 4 do if not s.depots[k].tiles[j] then full = false end end end
      for j = 1, D.BLACK do if not s.black[j] then full = false end end
      if full then refills = refills + 1 end
      -- five goods tiles for the phase's rounds: one already on a depot, four waiting
      local waiting = 0
      for r = 1, 5 do if (s.round_goods[r] or 0) > 0 then waiting = waiting + 1 end end
      t.eq(waiting, 4, "phase " .. s.phase .. ": four goods tiles wait for rounds 2-5")
    end
  end
  t.eq(rounds, 25); t.eq(refills, 4)
  t.eq(phases_seen, { true, true, true, true, true })
  invariant(s)
end)

-- knowledge tiles ---------------------------------------------------------------------------

local KNOW = {}
KNOW[1] = { "a city may hold a building type twice", function()
  local s = position({ 1, 1 })
  put(s, 1, "e4", building("bank"))
  local b = give(s, 1, building("bank"))
  t.eq(count(s, 1, "^place:1:t" .. b .. ":e5$"), 0)
  learn(s, 1, 1)
  t.eq(count(s, 1, "^place:1:t" .. b .. ":e5$"), 1)
end }
KNOW[2] = { "each mine gives a worker at the end of a phase too", function()
  local s = position({ 1, 1 })
  put(s, 1, "e3", kind("mine")); put(s, 1, "f2", kind("mine"))
  learn(s, 1, 2)
  local w = nil
  while s.phase == 1 do
    local seat = G.current_seats(s)[1]
    local d = s.players[seat].dice[1]
    if seat == 1 and s.round == 5 and d and not w then w = s.players[1].workers end
    if d then ok(s, seat, "workers:" .. d) else ok(s, seat, "end") end
  end
  t.eq(s.players[1].workers, w + 4 + 2, "two dice of workers and two mines")
end }
KNOW[3] = { "selling gives a second silverling", function()
  local s = position({ 3, 3 }); set_goods(s, 1, { [3] = 1 }); learn(s, 1, 3)
  ok(s, 1, "sell:3:3"); t.eq(s.players[1].silver, 3)
end }
KNOW[4] = { "selling gives a worker", function()
  local s = position({ 3, 3 }); set_goods(s, 1, { [3] = 1 }); learn(s, 1, 4)
  ok(s, 1, "sell:3:3"); t.eq(s.players[1].workers, 1); t.eq(s.players[1].silver, 2)
end }
KNOW[5] = { "a ship takes the goods of two neighbouring depots", function()
  local s = position({ 2, 2 })
  local sh = give(s, 1, kind("ship"))
  for k = 1, 6 do for _, g in ipairs(s.depots[k].goods) do s.goods_stack[#s.goods_stack + 1] = g end; s.depots[k].goods = {} end
  s.depots[6].goods = { table.remove(s.goods_stack) }; s.depots[1].goods = { table.remove(s.goods_stack) }
  s.depots[3].goods = { table.remove(s.goods_stack) }
  learn(s, 1, 5)
  ok(s, 1, "place:2:t" .. sh .. ":d3")
  t.eq(ids(G.legal_actions(s, 1)), { "ship:1", "ship:3", "ship:6", "ship:6+1" })
  ok(s, 1, "ship:6+1")
  local got = 0
  for _, sl in ipairs(s.players[1].goods) do got = got + sl.count end
  t.eq(got, 2); t.eq(#s.depots[6].goods + #s.depots[1].goods, 0)
  invariant(s)
end }
KNOW[6] = { "the purchase may come from any depot, paid with silverlings only", function()
  local s = position({ 2, 2 }); s.players[1].silver, s.players[1].workers = 2, 3
  t.eq(count(s, 1, "^buy:"), 6)
  learn(s, 1, 6)
  t.eq(count(s, 1, "^buy:"), 6 + 18, "the black depot and the 18 tiles of the numbered depots")
  local n = s.depots[4].tiles[1]
  ok(s, 1, "buy:t" .. n); t.eq(s.players[1].storage, { n })
  t.eq(s.players[1].silver, 0); t.eq(s.players[1].workers, 3, "two silverlings paid, no worker")
  t.eq(count(s, 1, "^buy:"), 0, "still once a turn")
  -- workers never pay for it (the rulebook's tile text: the price stays 2 silverlings)
  local s2 = position({ 2, 2 }); s2.players[1].silver, s2.players[1].workers = 0, 2
  learn(s2, 1, 6)
  t.eq(count(s2, 1, "^buy:"), 0, "two workers, no silverling: no purchase")
  local r, err = G.apply(s2, 1, "buy:t" .. s2.black[1])
  t.eq(r, nil); t.ok(err ~= nil)
  t.eq(s2.players[1].workers, 2); t.eq(#s2.players[1].storage, 0)
  local s3 = position({ 2, 2 }); s3.players[1].silver, s3.players[1].workers = 1, 5
  learn(s3, 1, 6)
  t.eq(count(s3, 1, "^buy:"), 0, "one silverling and workers: no purchase")
end }
KNOW[7] = { "each animal tile scored adds a point", function()
  local s = position({ 1, 3 })
  put(s, 1, "c3", building("bank")); put(s, 1, "c2", animal("pigs", 3))
  learn(s, 1, 7)
  local a = give(s, 1, animal("pigs", 2))
  ok(s, 1, "place:1:t" .. a .. ":b2")
  t.eq(s.players[1].vp, 2 + 3 + 2, "two pig tiles scored")
end }
KNOW[8] = { "a worker shifts a die by up to 2", function()
  local s = position({ 1, 1 })
  s.players[1].workers = 1
  t.eq(count(s, 1, "^take:1:"), 9, "without: depots 6, 1, 2")
  learn(s, 1, 8)
  t.eq(count(s, 1, "^take:1:"), 15, "with: depots 5, 6, 1, 2, 3")
  local n = s.depots[3].tiles[1]
  ok(s, 1, "take:1:t" .. n); t.eq(s.players[1].workers, 0)
  t.eq(G.cost(s.players[1], 1, 4, false), 2, "three steps: two workers")
end }
KNOW[9] = { "placing a building, the die shifts by 1 for free", function()
  local s = position({ 4, 4 }); local b = give(s, 1, building("bank"))
  t.eq(count(s, 1, "^place:"), 0)
  learn(s, 1, 9)
  t.eq(count(s, 1, "^place:4:"), 2, "c3 and e4 (3s)"); ok(s, 1, "place:4:t" .. b .. ":e4"); t.eq(s.players[1].workers, 0)
end }
KNOW[10] = { "placing a ship or animal, the die shifts by 1 for free", function()
  local s = position({ 3, 3 })
  put(s, 1, "e4", building("church")); put(s, 1, "e5", building("bank"))
  local sh = give(s, 1, kind("ship"))
  t.eq(count(s, 1, "^place:"), 0, "d3 needs a 2, d5 a 5, d6 a 4")
  learn(s, 1, 10)
  t.eq(count(s, 1, "^place:3:t" .. sh .. ":"), 2, "d3 (2) and d6 (4), each one away")
  put(s, 1, "c3", building("bank"))
  local a = give(s, 1, animal("sheep", 2))
  t.eq(count(s, 1, "^place:3:t" .. a .. ":b2$"), 0, "b2 is a 1: two away, one free shift is not enough")
  t.eq(count(s, 1, "^place:3:t" .. a .. ":c2$"), 1, "c2 is a 4: one away")
  ok(s, 1, "place:3:t" .. sh .. ":d3"); t.eq(s.players[1].workers, 0)
end }
KNOW[11] = { "placing a castle, mine or knowledge tile, the die shifts by 1 for free", function()
  local s = position({ 2, 2 }); local k = give(s, 1, knowledge(20))
  t.eq(count(s, 1, "^place:"), 0, "c4 is a 1")
  learn(s, 1, 11)
  t.eq(count(s, 1, "^place:2:t" .. k .. ":c4$"), 1); ok(s, 1, "place:2:t" .. k .. ":c4"); t.eq(s.players[1].workers, 0)
end }
KNOW[12] = { "taking a tile, the die shifts by 1 for free", function()
  local s = position({ 2, 2 })
  t.eq(count(s, 1, "^take:"), 3)
  learn(s, 1, 12)
  t.eq(count(s, 1, "^take:"), 9, "depots 1, 2, 3")
end }
KNOW[13] = { "taking workers gives a silverling too", function()
  local s = position({ 2, 5 }); learn(s, 1, 13)
  ok(s, 1, "workers:2"); t.eq(s.players[1].workers, 2); t.eq(s.players[1].silver, 2)
end }
KNOW[14] = { "taking workers gives four", function()
  local s = position({ 2, 5 }); learn(s, 1, 14)
  ok(s, 1, "workers:2"); t.eq(s.players[1].workers, 4)
end }
local function end_points_case(k, setup, want)
  return function()
    local s = position({ 1, 1 })
    local p = s.players[1]
    p.silver, p.workers = 0, 0
    setup(s, p)
    local base = G.final_points(s, p)
    learn(s, 1, k)
    t.eq(G.final_points(s, p) - base, want)
  end
end
KNOW[15] = { "3 points per goods type sold", end_points_case(15, function(_, p) p.sold = { 2, 0, 1, 0, 0, 5 } end, 9) }
-- tiles 16-23 as numbered in the one source (RULES.md), written out here, not read from data.lua
local END_BUILDING = { "warehouse", "watchtower", "carpenter", "church", "market", "boarding", "bank", "cityhall" }
for k = 16, 23 do
  local b = END_BUILDING[k - 15]
  KNOW[k] = { "4 points per " .. b .. " on the estate", end_points_case(k, function(s)
    put(s, 1, "c3", building(b)); put(s, 1, "e4", building(b))
    put(s, 1, "e1", building(b == "bank" and "church" or "bank"))
  end, 8) }
end
KNOW[24] = { "4 points per animal type on the estate", end_points_case(24, function(s)
  put(s, 1, "c2", animal("pigs", 3)); put(s, 1, "b2", animal("pigs", 2)); put(s, 1, "e6", animal("sheep", 2))
end, 8) }
KNOW[25] = { "1 point per goods tile sold", end_points_case(25, function(_, p) p.sold = { 2, 0, 1, 0, 0, 5 } end, 8) }
KNOW[26] = { "2 points per bonus tile taken", end_points_case(26, function(_, p) p.bonus = { "castle", "mine" } end, 4) }
for k = 1, 26 do
  test(string.format("burgundy: knowledge %d: %s", k, KNOW[k][1]), KNOW[k][2])
end

test("burgundy: knowledge tiles: placing one records it; end-scoring ones count at the end only", function()
  local s = position({ 1, 1 })
  local k = give(s, 1, knowledge(23))
  put(s, 1, "e4", building("cityhall"))
  ok(s, 1, "place:1:t" .. k .. ":c4")
  t.ok(s.players[1].know[23])
  t.eq(s.players[1].vp, 0)
  t.eq(G.final_points(s, s.players[1]) - s.players[1].silver - s.players[1].workers // 2, 4)
end)

-- the whole game ---------------------------------------------------------------------------

test("burgundy: replay from the events gives the same state; the state survives serialization mid-turn", function()
  rt.replay_check(G, 3, 4242, 77)
end)

test("burgundy: no stuck state: every pending choice has an action; effects with nothing to offer are dropped", function()
  -- a warehouse without goods, a carpenter with no building on the depots, a ship with no goods
  local s = position({ 3, 3 })
  local wh = give(s, 1, building("warehouse"))
  ok(s, 1, "place:3:t" .. wh .. ":e4")
  t.eq(#s.pend, 0); t.eq(s.players[1].dice, { 3 })
  local s2 = position({ 3, 3 })
  for k = 1, 6 do for j = 1, 4 do local n = s2.depots[k].tiles[j]; if n and TILE[n].kind == "building" then s2.box[#s2.box + 1] = n; s2.depots[k].tiles[j] = false end end end
  local cp = give(s2, 1, building("carpenter"))
  ok(s2, 1, "place:3:t" .. cp .. ":e4")
  t.eq(#s2.pend, 0)
  local s3 = position({ 2, 2 })
  for k = 1, 6 do for _, g in ipairs(s3.depots[k].goods) do s3.goods_stack[#s3.goods_stack + 1] = g end; s3.depots[k].goods = {} end
  local sh = give(s3, 1, kind("ship"))
  ok(s3, 1, "place:2:t" .. sh .. ":d3")
  t.eq(#s3.pend, 0); t.eq(s3.players[1].track, 1, "the ship still moves on the track")
  -- a free take that has something to offer may be declined
  local s4 = position({ 3, 3 })
  local cp4 = give(s4, 1, building("carpenter"))
  ok(s4, 1, "place:3:t" .. cp4 .. ":e4")
  t.ok(count(s4, 1, "^take:f:") > 0); t.eq(count(s4, 1, "^skip$"), 1, "the carpenter's take may be skipped")
  -- at least one action whenever the game is on (workers are always open to a die)
  local r = rt.playouts(G, { games = 10, seed = 2, light = true })
  t.eq(r.matches, 10)
end)

test("burgundy: hidden information: other pile and goods-stack orders or random state leave every observation and legal list byte-identical", function()
  local rand = kit.generator(17)
  local checked, differs = 0, 0
  for g = 1, 3 do
    local s = G.setup(3, 300 + g)
    local steps = 0
    while not G.is_terminal(s) do
      steps = steps + 1
      if steps % 11 == 0 then
        local other = kit.copy(s)
        other.rng = other.rng ~ 0x5DEECE66D
        for _, k in ipairs(D.KINDS) do
          local pile = other.piles[k.id]
          for i = 1, #pile // 2 do pile[i], pile[#pile + 1 - i] = pile[#pile + 1 - i], pile[i] end
        end
        local bp, gs = other.black_pile, other.goods_stack
        for i = 1, #bp // 2 do bp[i], bp[#bp + 1 - i] = bp[#bp + 1 - i], bp[i] end
        for i = 1, #gs // 2 do gs[i], gs[#gs + 1 - i] = gs[#gs + 1 - i], gs[i] end
        for seat = 1, 3 do
          local a, b = G.observation(s, seat), G.observation(other, seat)
          t.eq(json.canonical(b), json.canonical(a), "JSON of seat " .. seat)
          t.eq(G.render(b), G.render(a), "text of seat " .. seat)
        end
        local seat = G.current_seats(s)[1]
        t.eq(ids(G.legal_actions(other, seat)), ids(G.legal_actions(s, seat)))
        -- the perturbation is real: finishing the round rolls other dice
        local x, y = kit.copy(s), kit.copy(other)
        local function to_next_round(st)
          local r0 = st.round
          while st.round == r0 and not st.over do
            local sx = G.current_seats(st)[1]
            local l = G.legal_actions(st, sx, true)
            local pick = l[#l].id
            for _, a in ipairs(l) do if a.id:find("^workers:") or a.id == "end" or a.id:find("^discard:") or a.id == "skip" then pick = a.id; break end end
            assert(G.apply(st, sx, pick))
          end
          local d = {}
          for i = 1, st.n do d[i] = table.concat(st.players[i].dice, ",") end
          return table.concat(d, ";") .. st.white
        end
        if to_next_round(x) ~= to_next_round(y) then differs = differs + 1 end
        checked = checked + 1
      end
      local seat = G.current_seats(s)[1]
      local legal = G.legal_actions(s, seat)
      assert(G.apply(s, seat, legal[rand(#legal)].id))
    end
  end
  t.ok(checked >= 30, "checked " .. checked .. " states")
  t.ok(differs >= checked // 2, "the hidden parts decide the next rolls: " .. differs)
end)

test("burgundy: determinization: every world keeps the public counts (tiles by kind per pile, goods by type) and varies the rest", function()
  local rand = kit.generator(23)
  local s = G.setup(3, 77)
  for _ = 1, 60 do
    local seat = G.current_seats(s)[1]
    assert(G.apply(s, seat, ismcts.heuristic_pick(G, s, seat, G.legal_actions(s, seat), rand, 0.1)))
  end
  local function sorted(l) local c = kit.copy(l); table.sort(c); return c end
  local orders, rolls = {}, {}
  for k = 1, 30 do
    local seat = (k - 1) % 3 + 1
    local d = G.determinize(s, seat, rand)
    for _, kk in ipairs(D.KINDS) do
      t.eq(sorted(d.piles[kk.id]), sorted(s.piles[kk.id]), "the same unseen tiles in the " .. kk.id .. " pile")
      for _, n in ipairs(d.piles[kk.id]) do t.eq(TILE[n].kind, kk.id) end
    end
    t.eq(sorted(d.black_pile), sorted(s.black_pile)); t.eq(sorted(d.goods_stack), sorted(s.goods_stack))
    t.eq(d.depots, s.depots); t.eq(d.black, s.black); t.eq(d.round_goods, s.round_goods)
    for i = 1, 3 do t.eq(d.players[i], s.players[i]) end
    invariant(d)
    orders[table.concat(d.piles.building, ",") .. table.concat(d.goods_stack, ",")] = true
    local x = kit.copy(d)
    local r0 = x.round
    while x.round == r0 do
      local sx = G.current_seats(x)[1]
      local l = G.legal_actions(x, sx, true)
      local pick = l[1].id
      for _, a in ipairs(l) do if a.id:find("^workers:") or a.id == "end" or a.id == "skip" or a.id:find("^discard:") then pick = a.id; break end end
      assert(G.apply(x, sx, pick))
    end
    rolls[table.concat(x.players[1].dice, ",") .. table.concat(x.players[2].dice, ",") .. x.white] = true
  end
  local no, nr = 0, 0
  for _ in pairs(orders) do no = no + 1 end
  for _ in pairs(rolls) do nr = nr + 1 end
  t.ok(no >= 25, "pile and stack orders resampled: " .. no)
  t.ok(nr >= 10, "future dice resampled: " .. nr)
end)

test("burgundy: the text observation stays model-sized (under 12,000 characters) and shows no hidden order", function()
  local rand = kit.generator(31)
  local max_text = 0
  for g = 1, 2 do
    rt.play(G, 4, 500 + g, function(st, seat, legal)
      local o = G.observation(st, seat)
      local txt = G.render(o)
      if #txt > max_text then max_text = #txt end
      t.ok(o.rng == nil and type(o.goods_stack) == "number" and type(o.piles.building) == "number")
      return ismcts.heuristic_pick(G, st, seat, legal, rand, 0.1)
    end)
  end
  t.ok(max_text < 12000, "longest text " .. max_text)
end)

test("burgundy: the neighbour rule the text observation states is the estate's graph", function()
  local lens = { 4, 5, 6, 7, 6, 5, 4 }
  local txt = G.render(G.observation(G.setup(3, 1), 1))
  t.contains(txt, "in rows a-c also j and j+1 of the row below and j-1 and j of the row above")
  for i, sp in ipairs(D.SPACES) do
    local row, j = sp.name:byte(1) - 96, tonumber(sp.name:sub(2))
    local want = {}
    local function add(r, k) if r >= 1 and r <= 7 and k >= 1 and k <= lens[r] then want[string.char(96 + r) .. k] = true end end
    add(row, j - 1); add(row, j + 1)
    if row < 4 then add(row + 1, j); add(row + 1, j + 1); add(row - 1, j - 1); add(row - 1, j)
    elseif row == 4 then add(3, j - 1); add(3, j); add(5, j - 1); add(5, j)
    else add(row + 1, j - 1); add(row + 1, j); add(row - 1, j); add(row - 1, j + 1) end
    local got = {}
    for _, q in ipairs(G.NB[i]) do got[D.SPACES[q].name] = true end
    t.eq(got, want, sp.name)
  end
end)

test("burgundy: the heuristic beats Random clearly (9 three-player matches against two Random seats)", function()
  local wins = rt.heuristic_wins(G, 9)
  t.ok(wins >= 8, "heuristic first in " .. wins .. " of 9")
end)

test("burgundy: the heuristic prefers completing a region to a take, a free shift to a paid one, a take to workers", function()
  local s = position({ 3, 3 })
  local tower = give(s, 1, building("watchtower"))
  local n = s.depots[3].tiles[1]
  t.ok(G.heuristic(s, 1, "place:3:t" .. tower .. ":c3") > G.heuristic(s, 1, "take:3:t" .. n))
  t.ok(G.heuristic(s, 1, "take:3:t" .. n) > G.heuristic(s, 1, "workers:3"))
  s.players[1].workers = 1
  local m = s.depots[4].tiles[1]
  local paid = G.heuristic(s, 1, "take:3:t" .. m)
  learn(s, 1, 12)
  t.near(G.heuristic(s, 1, "take:3:t" .. m) - paid, 1.5, 1e-9, "a free shift saves the worker's 1.5")
  -- every legal action gets a number
  for _, a in ipairs(G.legal_actions(s, 1)) do t.eq(type(G.heuristic(s, 1, a.id)), "number", a.id) end
end)

test("burgundy: the drawing: one hexagon per estate space and player, the depots and the black depot", function()
  local o, svg = rt.drawn(G, 120)
  t.ok(svg:find("^<svg") and svg:find("</svg>$"))
  local spaces = 0
  for _ in svg:gmatch('stroke="#5a4a2a"/>') do spaces = spaces + 1 end
  t.eq(spaces, 3 * 37)
  local placed, want = 0, 0
  for _ in svg:gmatch('<g class="tile">') do placed = placed + 1 end
  for i = 1, 3 do
    for _ in pairs(o.players[i].estate) do want = want + 1 end
    want = want + #o.players[i].storage
  end
  for k = 1, 6 do for j = 1, 4 do if o.depots[k].tiles[j] then want = want + 1 end end end
  for j = 1, 8 do if o.black[j] then want = want + 1 end end
  t.eq(placed, want)
  t.contains(svg, "black depot"); t.contains(svg, "depot 6")
end)

test("burgundy: an arena match with a model over the mock server: a legal sub-decision, then an invalid answer forfeits", function()
  local s0 = G.setup(3, 3)
  local first = G.legal_actions(s0, 1)[1].id
  local body = rt.mock_match(G, { { match = "Decision 1 ", reply = "I take workers.\nACTION: " .. first, times = 1 },
                           { reply = "ACTION: place:9:t999:z9" } }, 3)
  t.contains(body, "The Castles of Burgundy, phase A (1 of 5), round 1 of 5. You are player 1 of 3.")
  t.contains(body, first)
end)

test("burgundy: the arena runs the game by name from the command line with the three baselines", function()
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/parts.json", json.encode({ participants = {
    { name = "random", player = "random" }, { name = "heuristic", player = "heuristic", epsilon = 0.1 },
    { name = "ismcts", player = "ismcts", simulations = 8, steps = 18 } } }))
  local rc, out = t.tabula("run", t.root() .. "/scenarios/dece", "--no-html", "--games", "burgundy", "--participants", dir .. "/parts.json",
    "--matches-per-game", "3", "--out", dir .. "/run", "--quiet")
  t.eq(rc, 0, out)
  local recs = {}
  for line in fs.read(dir .. "/run/matches.jsonl"):gmatch("[^\n]+") do recs[#recs + 1] = json.decode(line) end
  t.eq(#recs, 3)
  for _, r in ipairs(recs) do
    t.eq(r.game, "burgundy"); t.eq(r.status, "finished"); t.eq(#r.ranks, 3)
    t.ok(r.D > 100, "a whole game of sub-decisions: " .. tostring(r.D))
  end
end)

test("burgundy: RULES-AUDIT.md names existing tests; coverage by status", function()
  local counts, passed = rt.audit(t.root() .. "/games/burgundy/RULES-AUDIT.md", T, "B")
  local know = {}
  for _, tname in ipairs(passed) do
    local k = tname:match("^burgundy: knowledge (%d+):")
    if k then know[tonumber(k)] = true end
  end
  for k = 1, 26 do t.ok(know[k], "knowledge tile " .. k .. " has its audit line") end
  t.ok(counts.PASS >= 50, "rules audited: " .. counts.PASS)
end)

return T
