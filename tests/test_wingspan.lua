-- Wingspan rules: the data manifest (170 birds by habitat, colour, nest, sums; 26 bonus cards
-- with their bird counts; 8 goal tiles; the mat), invariants over random playouts (cards,
-- bonus cards conserved; egg limits; cubes), the four actions with their column costs and
-- gains, row activation right to left, the feeder, the tray, rounds and goals, final scoring
-- and the tie-break, every power family on hand-built positions (pink powers as other seats'
-- decisions out of turn), hidden information (perturbation and determinization), the
-- observation size, the heuristic against Random, the drawing, an arena run, a model over the
-- mock server, and the rules audit (RULES-AUDIT.md) with its bird coverage.
-- slow: full matches through the arena and random playouts (left out by make check)
local t = require "tabula.testing"
local G = require "games.wingspan"
local D = require "games.wingspan.data"
local kit = require "games.kit"
local json = require "tabula.json"
local rt = require "games.rules_test"
local ismcts = require "games.ismcts"
local test, T = t.suite()

local B = G.BIRD

-- invariant: 170 bird cards and 26 bonus cards accounted for; eggs within limits; cubes
local function invariant(s, where)
  where = where or ""
  local birds, bonus = G.census(s)
  if birds ~= 170 then error(string.format("%s: %d bird cards instead of 170", where, birds), 0) end
  if bonus ~= 26 then error(string.format("%s: %d bonus cards instead of 26", where, bonus), 0) end
  local seen = {}
  local function card(id)
    if seen[id] then error(where .. ": bird " .. id .. " in two places", 0) end
    seen[id] = true
  end
  for _, id in ipairs(s.deck) do card(id) end
  for _, id in ipairs(s.tray) do card(id) end
  for _, e in ipairs(s.discard) do card(e.id) end
  if #s.tray > D.TRAY then error(where .. ": more than three birds in the tray", 0) end
  if #s.feeder > D.DICE then error(where .. ": more than five dice in the feeder", 0) end
  for i = 1, s.n do
    local p = s.players[i]
    for _, id in ipairs(p.hand) do card(id) end
    for _, h in ipairs(D.HABITATS) do
      if #p.rows[h] > D.COLUMNS then error(where .. ": more than five birds in a row", 0) end
      for _, x in ipairs(p.rows[h]) do
        card(x.id)
        if x.eggs < 0 or x.eggs > B[x.id].eggs then error(where .. ": " .. x.id .. " holds " .. x.eggs .. " eggs", 0) end
        if not G.lives(B[x.id], h) then error(where .. ": " .. x.id .. " in the " .. h, 0) end
      end
    end
    for _, f in ipairs(D.FOODS) do if p.food[f] < 0 then error(where .. ": negative food", 0) end end
    if s.cubes[i] < 0 or s.cubes[i] > D.CUBES[s.round] then error(where .. ": cubes out of range", 0) end
  end
end

-- monotone: bird points, cached food and tucked cards never go down; goal points only grow
local last = setmetatable({}, { __mode = "k" })
local function monotone(s, where)
  invariant(s, where)
  local prev, now = last[s] or {}, {}
  for i = 1, s.n do
    local _, b = G.score_of(s.players[i])
    now[i] = { b.birds, b.cached, b.tucked, b.goals }
    if prev[i] then
      for k = 1, 4 do
        if now[i][k] < prev[i][k] then error(string.format("%s: seat %d: a monotone count went down (%d)", where, i, k), 0) end
      end
    end
  end
  last[s] = now
end

-- fresh(n, seed): a match past setup (every seat keeps no bird, the first bonus card), seat 1
-- to choose an action with 5 food (one of each) and an empty hand
local function fresh(n, seed)
  local s = G.setup(n or 3, seed or 1)
  while s.phase == "setup" do
    local seat = G.current_seats(s)[1]
    assert(G.apply(s, seat, s.ask.kind == "setup_birds" and "done" or G.legal_actions(s, seat)[1].id))
  end
  return s
end

-- grab(s, id): take bird id from wherever it is (deck, tray, discard, hands)
local function grab(s, id)
  local function from(list) for i, x in ipairs(list) do if x == id then table.remove(list, i); return true end end end
  if from(s.deck) or from(s.tray) then return id end
  for i, e in ipairs(s.discard) do if e.id == id then table.remove(s.discard, i); return id end end
  for i = 1, s.n do if from(s.players[i].hand) then return id end end
  error("bird " .. id .. " is not free")
end
local function put(s, seat, hab, id, eggs)
  grab(s, id)
  local row = s.players[seat].rows[hab]
  row[#row + 1] = { id = id, eggs = eggs or 0, cache = 0, tucked = 0 }
  return row[#row]
end
local function give(s, seat, list) for _, id in ipairs(list) do grab(s, id); local h = s.players[seat].hand; h[#h + 1] = id end end
local function food(s, seat, f)
  for _, x in ipairs(D.FOODS) do s.players[seat].food[x] = f[x] or 0 end
end
-- on_top(s, list): list[1] is the next card drawn from the deck, then list[2], ...
local function on_top(s, list)
  for k = #list, 1, -1 do grab(s, list[k]); s.deck[#s.deck + 1] = list[k] end
end
local function ids(list)
  local r = {}
  for i, a in ipairs(list) do r[i] = a.id end
  return r
end
local function legal(s) return ids(G.legal_actions(s, G.current_seats(s)[1])) end
-- act(s, ids): apply each id for the seat that must choose ("*": its first legal action). Every
-- power asks `use` or `skip` first (all are optional); act answers `use` to such a question
-- unless the list itself answers it, and after its last id. The tests of declining a power
-- call G.apply themselves.
local function use_open_powers(s)
  while not s.over and s.ask and s.ask.kind == "use_power" do assert(G.apply(s, s.ask.seat, "use")) end
end
local function act(s, list)
  for _, id in ipairs(list) do
    if id ~= "use" and id ~= "skip" then use_open_powers(s) end
    local seat = G.current_seats(s)[1]
    if id == "*" then id = legal(s)[1] end
    local ok, err = G.apply(s, seat, id)
    if not ok then error("seat " .. tostring(seat) .. ": " .. id .. ": " .. tostring(err) .. " (legal: " .. table.concat(legal(s), " ") .. ")", 2) end
  end
  use_open_powers(s)
end
local function sorted(list) local c = { table.unpack(list) }; table.sort(c); return c end

-- the data -------------------------------------------------------------------------------------

test("wingspan: data manifest: 170 birds by habitat, power colour, nest; point, food, egg and wingspan sums", function()
  t.eq(#D.BIRDS, 170)
  local ids_, hab, colour, nest, nhab = {}, {}, {}, {}, {}
  local pts, foodc, eggs, wing, any, wild = 0, 0, 0, 0, 0, 0
  for _, b in ipairs(D.BIRDS) do
    t.ok(not ids_[b.id], "bird ids unique: " .. b.id); ids_[b.id] = true
    for _, h in ipairs(b.habitats) do hab[h] = (hab[h] or 0) + 1 end
    nhab[#b.habitats] = (nhab[#b.habitats] or 0) + 1
    colour[b.colour] = (colour[b.colour] or 0) + 1
    nest[b.nest] = (nest[b.nest] or 0) + 1
    pts, foodc, eggs, wing = pts + b.points, foodc + #b.cost, eggs + b.eggs, wing + b.wingspan
    if b.any then any = any + 1 end
    for _, c in ipairs(b.cost) do if c == "wild" then wild = wild + 1 end end
    t.ok((b.colour == "none") == (b.family == nil), b.id .. ": a power exactly when it has a colour")
    if b.family then t.ok(G.POWER[b.family] and G.POWER_WORDS[b.family], b.id .. ": family " .. b.family .. " implemented") end
  end
  t.eq(hab, { forest = 83, grassland = 83, wetland = 85 })
  t.eq(nhab, { [1] = 116, [2] = 27, [3] = 27 })
  t.eq(colour, { brown = 116, white = 36, pink = 12, none = 6 })
  t.eq(nest, { bowl = 38, cavity = 38, ground = 38, platform = 38, star = 16, none = 2 })
  t.eq(pts, 683); t.eq(foodc, 372); t.eq(eggs, 485); t.eq(wing, 10791)
  t.eq(any, 31, "birds paying one food of several"); t.eq(wild, 34, "wild food symbols")
  local to_pay = 0
  for _, b in ipairs(D.BIRDS) do to_pay = to_pay + (b.any and 1 or #b.cost) end
  t.eq(to_pay, 334, "food paid to play every bird once (a slash cost is one food)")
  -- three no-cost birds (the vultures and the condor), the two cowbirds lay no eggs
  local free, noeggs = {}, {}
  for _, b in ipairs(D.BIRDS) do
    if #b.cost == 0 then free[#free + 1] = b.id end
    if b.eggs == 0 then noeggs[#noeggs + 1] = b.id end
  end
  t.eq(free, { "black_vulture", "california_condor", "turkey_vulture" })
  t.eq(noeggs, { "bronzed_cowbird", "brown_headed_cowbird" })
  -- the published spot checks
  local e = B.bald_eagle
  t.eq({ e.habitats, e.cost, e.points, e.nest, e.eggs, e.wingspan, e.colour, e.family, e.p1 },
       { { "wetland" }, { "fish", "fish", "rodent" }, 9, "platform", 1, 203, "white", "feeder_all", "f" })
  t.eq(B.american_white_pelican.wingspan, 274); t.eq(B.ruby_throated_hummingbird.wingspan, 10)
end)

test("wingspan: data manifest: 26 bonus cards and the birds each one counts; 8 goal tiles; the mat, dice, cubes", function()
  t.eq(#D.BONUS, 26)
  local want = { anatomist = 39, backyard_birder = 71, bird_counter = 25, bird_feeder = 75, cartographer = 37,
    enclosure_builder = 54, falconer = 22, fishery_manager = 30, food_web_expert = 16, forester = 40, historian = 19,
    large_bird_specialist = 57, nest_box_builder = 54, omnivore_specialist = 28, passerine_specialist = 60, photographer = 58,
    platform_builder = 54, prairie_manager = 31, rodentologist = 25, viticulturalist = 37, wetland_scientist = 45,
    wildlife_gardener = 54 }
  local got, per, tiers = {}, 0, 0
  for _, c in ipairs(D.BONUS) do
    if c.per then per = per + 1 else tiers = tiers + 1 end
    if want[c.id] then
      local k = 0
      for _, b in ipairs(D.BIRDS) do if G.qualifies(b.id, c) then k = k + 1 end end
      got[c.id] = k
    end
  end
  t.eq(got, want, "birds counted by each bird-list bonus card")
  t.eq(per, 8); t.eq(tiers, 18)
  -- goal tiles: 8 tiles, 16 distinct sides
  t.eq(#D.GOAL_TILES, 8)
  local sides = {}
  for _, tile in ipairs(D.GOAL_TILES) do for _, g in ipairs(tile) do t.ok(not sides[g], g); sides[g] = true end end
  local k = 0
  for _ in pairs(sides) do k = k + 1 end
  t.eq(k, 16)
  t.eq(D.GOAL_GREEN, { { 4, 1, 0 }, { 5, 2, 1 }, { 6, 3, 2 }, { 7, 4, 3 } })
  t.eq(D.ROW_GAIN, { forest = { 1, 1, 2, 2, 3, 3 }, grassland = { 2, 2, 3, 3, 4, 4 }, wetland = { 1, 1, 2, 2, 3, 3 } })
  t.eq(D.ROW_TRADE, { false, true, false, true, false, true })
  t.eq(D.EGG_COST, { 0, 1, 1, 2, 2 }); t.eq(D.CUBES, { 8, 7, 6, 5 })
  t.eq(#D.DIE_FACES, 6); t.eq(D.DICE, 5)
  t.eq(D.DIE_FACES, { "invertebrate", "seed", "fish", "fruit", "rodent", "invertebrate/seed" })
  -- each card's scoring as both sources give it (the spreadsheet; ajgreenwell/wingsim's
  -- bonus_cards.json, read 2026-12-02: all 25 agree with ours); a number is points per bird
  local scoring = {}
  for _, c in ipairs(D.BONUS) do if c.id ~= "anatomist" then scoring[c.id] = c.per or c.tiers end end
  t.eq(scoring, { backyard_birder = { { 5, 3 }, { 7, 6 } }, bird_counter = 2, bird_feeder = { { 5, 3 }, { 8, 7 } },
    breeding_manager = 1, cartographer = { { 2, 3 }, { 4, 7 } }, ecologist = 2, enclosure_builder = { { 4, 4 }, { 6, 7 } },
    falconer = 2, fishery_manager = { { 2, 3 }, { 4, 8 } }, food_web_expert = 2, forester = { { 3, 4 }, { 5, 8 } },
    historian = 2, large_bird_specialist = { { 4, 3 }, { 6, 6 } }, nest_box_builder = { { 4, 4 }, { 6, 7 } },
    omnivore_specialist = 2, oologist = { { 7, 3 }, { 9, 6 } }, passerine_specialist = { { 4, 3 }, { 6, 6 } },
    photographer = { { 4, 3 }, { 6, 6 } }, platform_builder = { { 4, 4 }, { 6, 7 } }, prairie_manager = { { 2, 3 }, { 4, 8 } },
    rodentologist = 2, visionary_leader = { { 5, 4 }, { 8, 7 } }, viticulturalist = { { 2, 3 }, { 4, 7 } },
    wetland_scientist = { { 3, 3 }, { 5, 7 } }, wildlife_gardener = { { 4, 4 }, { 6, 7 } } })
  -- the one disputed tier value (RULES.md, audit line W-C2b): the Anatomist's 4+ birds give 7
  -- in the spreadsheet, 6 in the simulator; we use 7
  t.eq(G.BONUS.anatomist.tiers, { { 2, 3 }, { 4, 7 } })
end)

-- setup ---------------------------------------------------------------------------------------

test("wingspan: setup: 5 birds, 2 bonus cards, 5 food each; keep birds for food; tray of 3, feeder of 5, 4 goals, 8 cubes", function()
  -- four different tiles, each on a random side: over a few seeds both sides turn up
  local sides = {}
  for seed = 1, 12 do
    local g = G.setup(2, seed)
    local used = {}
    for r = 1, 4 do
      for ti, tile in ipairs(D.GOAL_TILES) do
        for side, goal in ipairs(tile) do
          if goal == g.goals[r] then sides[side] = true; t.ok(not used[ti], "a tile once"); used[ti] = true end
        end
      end
    end
  end
  t.ok(sides[1] and sides[2], "both sides of the goal tiles appear")
  local s = G.setup(3, 7)
  invariant(s)
  t.eq(s.phase, "setup"); t.eq(G.current_seats(s), { 1 })
  t.eq(#s.tray, 3); t.eq(#s.feeder, 5); t.eq(#s.goals, 4); t.eq(s.cubes, { 8, 8, 8 })
  local tiles = {}
  for _, g in ipairs(s.goals) do
    for ti, tile in ipairs(D.GOAL_TILES) do if tile[1] == g or tile[2] == g then t.ok(not tiles[ti], "one side of each tile"); tiles[ti] = true end end
  end
  local p = s.players[1]
  t.eq(#p.dealt, 5); t.eq(#p.dealt_bonus, 2)
  t.eq(#legal(s), 6, "keep any of 5, or done")
  local a, b = p.dealt[1], p.dealt[2]
  act(s, { "keep:" .. a, "keep:" .. b, "done" })
  t.eq(p.hand, { a, b }); t.eq(#s.discard, 3)
  t.eq(legal(s), { "drop:invertebrate", "drop:seed", "drop:fish", "drop:fruit", "drop:rodent" })
  act(s, { "drop:fish" })
  t.eq(legal(s), { "drop:invertebrate", "drop:seed", "drop:fruit", "drop:rodent" }, "no fish left to give")
  act(s, { "drop:rodent" })
  t.eq(p.food, { invertebrate = 1, seed = 1, fish = 0, fruit = 1, rodent = 0 })
  local keep = p.dealt_bonus[2]
  t.eq(legal(s), { "bonus:" .. p.dealt_bonus[1], "bonus:" .. keep })
  -- seat 2 cannot see what seat 1 kept or gave back while the setup lasts
  local o2 = G.observation(s, 2)
  t.eq(o2.players[1].food, nil); t.eq(o2.players[1].hand_count, nil)
  act(s, { "bonus:" .. keep })
  t.eq(p.bonus, { keep }); t.eq(#s.bonus_discard, 1)
  t.eq(G.current_seats(s), { 2 })
  for seat = 2, 3 do act(s, { "done" }); act(s, { G.legal_actions(s, seat)[1].id }) end
  t.eq(s.phase, "play"); t.eq(G.current_seats(s), { 1 }); t.eq(s.ask.kind, "action")
  t.eq(G.observation(s, 2).players[1].hand_count, 2, "after setup the hand sizes are public")
  invariant(s)
end)

-- the actions -----------------------------------------------------------------------------------

test("wingspan: play a bird: its habitats, its food, 0/1/1/2/2 eggs by column; a full row takes no more", function()
  local s = fresh(3, 2)
  give(s, 1, { "mallard" })
  t.eq(legal(s), { "play:mallard:wetland", "food", "eggs", "cards" }, "the mallard lives only in wetlands")
  local w = put(s, 1, "wetland", "killdeer", 0)
  t.eq(legal(s), { "food", "eggs", "cards" }, "column 2 costs an egg and no bird holds one")
  w.eggs = 1
  act(s, { "play:mallard:wetland" })
  t.eq(legal(s), { "pay:i", "pay:s" }, "invertebrate or seed")
  act(s, { "pay:s" })                     -- the one egg comes from the killdeer: no choice
  local p = s.players[1]
  t.eq(p.rows.wetland[2].id, "mallard"); t.eq(w.eggs, 0); t.eq(p.food.seed, 0); t.eq(s.cubes[1], 7)
  t.eq(p.hand, {}); t.eq(G.current_seats(s), { 2 })
  -- column 3 costs one egg
  local r = fresh(3, 2)
  put(r, 1, "grassland", "bairds_sparrow", 1); put(r, 1, "grassland", "cassins_sparrow", 0)
  give(r, 1, { "chipping_sparrow" }); food(r, 1, { seed = 5, invertebrate = 5 })
  t.ok(G.can_play(r.players[1], "chipping_sparrow", "grassland"), "column 3 costs one egg")
  local q = s.players[2]
  food(s, 2, { seed = 5, invertebrate = 5 })
  for _, id in ipairs({ "bairds_sparrow", "cassins_sparrow", "grasshopper_sparrow" }) do put(s, 2, "grassland", id, 0) end
  give(s, 2, { "chipping_sparrow" })
  q.rows.grassland[1].eggs = 1
  t.eq(G.can_play(q, "chipping_sparrow", "grassland"), false, "column 4 costs 2 eggs")
  t.ok(G.can_play(q, "chipping_sparrow", "forest"), "column 1 of the forest costs none")
  q.rows.grassland[2].eggs = 1
  t.ok(G.can_play(q, "chipping_sparrow", "grassland"))
  act(s, { "play:chipping_sparrow:grassland", "pay:i" })
  t.eq(legal(s), { "egg:grassland:1", "egg:grassland:2" }, "the first egg: from either bird")
  act(s, { "egg:grassland:2" })            -- the second comes from the other one
  t.eq({ q.rows.grassland[1].eggs, q.rows.grassland[2].eggs }, { 0, 0 })
  t.eq(q.rows.grassland[4].id, "chipping_sparrow")
  local r = s.players[3]
  put(s, 3, "forest", "downy_woodpecker", 1)
  for _, id in ipairs({ "blue_jay", "northern_cardinal", "pine_siskin", "red_crossbill" }) do put(s, 3, "forest", id, 1) end
  give(s, 3, { "juniper_titmouse" })
  food(s, 3, { seed = 5, invertebrate = 5 })
  t.eq(#r.rows.forest, 5)
  t.eq(G.can_play(r, "juniper_titmouse", "forest"), false, "a row holds five birds")
  invariant(s)
end)

test("wingspan: food payment: wild takes any food, a slash cost takes one, 2 food pay for 1 only when needed", function()
  local function f(tbl) local x = { invertebrate = 0, seed = 0, fish = 0, fruit = 0, rodent = 0 }; for k, v in pairs(tbl) do x[k] = v end; return x end
  t.eq(G.payments(f { seed = 1, fish = 1 }, B.blue_jay), { "sf" })
  t.eq(G.payments(f { seed = 2, fish = 1 }, B.blue_jay), { "sf", "ss" })
  t.eq(G.payments(f { invertebrate = 1, fruit = 1 }, B.american_robin), { "b", "i" })
  t.eq(G.payments(f { fish = 2, invertebrate = 1, seed = 1 }, B.bald_eagle), { "isff" }, "no rodent: two food for it")
  t.eq(G.payments(f { fish = 4 }, B.bald_eagle), { "ffff" })
  t.eq(G.payments(f { fish = 3, rodent = 1 }, B.bald_eagle), { "ffr" }, "a direct payment exists: no 2-for-1")
  t.eq(G.payments(f { fish = 1 }, B.bald_eagle), {})
  t.eq(G.payments(f {}, B.turkey_vulture), { "" }, "no food cost")
  t.eq(G.payments(f { invertebrate = 1, seed = 1, fish = 1, fruit = 1, rodent = 1 }, B.whooping_crane),
    sorted({ "isf", "isb", "isr", "ifb", "ifr", "ibr", "sfb", "sfr", "sbr", "fbr" }), "three wild: any three different of five")
end)

test("wingspan: gain food: 1/1/2/2/3/3 dice by forest birds, a card for one more on spaces 2/4/6, the two-food die, reroll when all faces match", function()
  local s = fresh(3, 3)
  s.feeder = { "seed", "seed", "fish", "fruit", "invertebrate/seed" }
  act(s, { "food" })
  t.eq(legal(s), { "take:s", "take:f", "take:b", "take:x:i", "take:x:s" })
  act(s, { "take:x:i" })
  t.eq(s.players[1].food.invertebrate, 2); t.eq(s.feeder, { "seed", "seed", "fish", "fruit" })
  t.eq(G.current_seats(s), { 2 })
  put(s, 2, "forest", "hooded_warbler")
  give(s, 2, { "mallard" })
  act(s, { "food" })
  t.eq(legal(s), { "trade:mallard", "notrade" })
  act(s, { "trade:mallard" })
  t.eq(s.ask.n, 2, "one die for one bird, one more for the card")
  t.eq(s.discard[#s.discard], { id = "mallard", by = 2 })
  act(s, { "take:s", "take:f" })
  t.eq(s.players[2].food, { invertebrate = 1, seed = 2, fish = 2, fruit = 1, rodent = 1 })
  t.eq(G.current_seats(s), { 3 })
  s.feeder = { "fish" }
  act(s, { "food" })
  t.eq(legal(s), { "take:f", "reroll" }, "one die left shows one face: the feeder may be rerolled")
  act(s, { "reroll" })
  t.eq(#s.feeder, 5)
  act(s, { "*" })
  t.eq(#s.feeder, 4)
  s.feeder = {}
  put(s, 1, "forest", "wild_turkey"); put(s, 1, "forest", "american_woodcock")
  act(s, { "food" })
  t.eq(#s.feeder, 5, "an empty feeder is refilled before food is taken")
  t.eq(s.ask.n, 2, "two forest birds: two dice, no trade space")
  invariant(s)
end)

test("wingspan: lay eggs: 2/2/3/3/4/4 by grassland birds, never past a bird's limit, a food for one more on spaces 2/4/6", function()
  local s = fresh(3, 4)
  local wc = put(s, 1, "forest", "american_woodcock", 1)
  act(s, { "eggs" })
  t.eq(wc.eggs, 2, "the one bird with room takes one egg; the second is lost")
  t.eq(G.current_seats(s), { 2 })
  local k = put(s, 2, "grassland", "killdeer", 0)
  local tk = put(s, 2, "forest", "wild_turkey", 0)
  act(s, { "eggs" })
  t.eq(legal(s), { "trade:invertebrate", "trade:seed", "trade:fish", "trade:fruit", "trade:rodent", "notrade" })
  act(s, { "trade:fish" })
  t.eq(s.ask.n, 3); t.eq(s.players[2].food.fish, 0)
  t.eq(legal(s), { "lay:forest:1", "lay:grassland:1" })
  act(s, { "lay:grassland:1", "lay:grassland:1", "lay:forest:1" })
  t.eq({ k.eggs, tk.eggs }, { 2, 1 })
  t.eq({ s.ask.kind, s.ask.bird }, { "egg_spend", "killdeer" }, "then the grassland's brown power")
  act(s, { "skip" })
  t.eq(G.current_seats(s), { 3 })
end)

test("wingspan: draw cards: 1/1/2/2/3/3 from the tray or the deck, an egg for one more on spaces 2/4/6, the tray refilled at the end of the turn", function()
  local s = fresh(3, 5)
  local tray = { table.unpack(s.tray) }
  act(s, { "cards" })
  t.eq(legal(s), { "tray:" .. tray[1], "tray:" .. tray[2], "tray:" .. tray[3], "deck" })
  local deck = #s.deck
  act(s, { "tray:" .. tray[2] })
  local p = s.players[1]
  t.eq(p.hand, { tray[2] }); t.eq(p.shown, { tray[2] }, "a card from the tray is known to all")
  t.eq(s.tray, { tray[1], tray[3], s.tray[3] }); t.eq(#s.deck, deck - 1, "refilled from the deck")
  local k = put(s, 2, "wetland", "killdeer", 1)
  act(s, { "cards" })
  t.eq(legal(s), { "trade:wetland:1", "notrade" })
  act(s, { "trade:wetland:1" })
  t.eq(k.eggs, 0); t.eq(s.ask.n, 2)
  act(s, { "tray:" .. s.tray[1] })
  t.eq(#s.tray, 2, "the tray waits for the end of the turn"); t.eq(#legal(s), 3)
  act(s, { "deck" })
  t.eq(#s.tray, 3); t.eq(#s.players[2].hand, 2); t.eq(#s.players[2].shown, 1)
  t.eq(G.current_seats(s), { 3 })
  -- 3 birds in the wetland: 2 cards; 4: 3 cards (no egg to trade)
  for nb, want in pairs({ [3] = 2, [4] = 3 }) do
    local d = fresh(3, 5)
    for j, id in ipairs({ "killdeer", "mallard", "american_coot", "common_loon" }) do if j <= nb then put(d, 1, "wetland", id, 0) end end
    act(d, { "cards" })
    if d.ask.kind == "mat_trade" then act(d, { "notrade" }) end
    t.eq(d.ask.n, want, nb .. " wetland birds")
  end
end)

test("wingspan: activation: the row's brown powers run right to left after the action; white powers do not run again", function()
  local s = fresh(3, 6)
  put(s, 1, "wetland", "black_tern")
  put(s, 1, "wetland", "franklins_gull", 1)
  put(s, 1, "wetland", "black_necked_stilt")
  act(s, { "cards" })
  t.eq(s.ask.kind, "mat_trade")
  act(s, { "notrade" })
  t.eq(s.ask.n, 2, "three birds: two cards")
  act(s, { "deck", "deck" })
  t.eq({ s.ask.kind, s.ask.bird }, { "egg_spend", "franklins_gull" }, "column 2 first (the stilt in column 3 is white)")
  t.eq(legal(s), { "egg:wetland:2", "skip" })
  act(s, { "egg:wetland:2" })
  t.eq({ s.ask.kind, s.ask.bird }, { "draw_discard", "black_tern" }, "then column 1")
  act(s, { "use" })
  local p = s.players[1]
  t.eq(#p.hand, 5); t.eq(s.ask.kind, "discard", "the tern's discard is owed at the end of the turn")
  act(s, { "discard:" .. p.hand[1] })
  t.eq(#p.hand, 4); t.eq(G.current_seats(s), { 2 })
  invariant(s)
end)

test("wingspan: rounds: 8/7/6/5 action cubes each, the first player passes on, a goal scored at each round end, four rounds", function()
  local s = fresh(3, 9)
  local rand = kit.generator(3)
  local turns, firsts = {}, {}
  while not G.is_terminal(s) do
    if s.ask.kind == "action" then
      if not turns[s.round] then firsts[s.round] = s.ask.seat end
      turns[s.round] = (turns[s.round] or 0) + 1
      t.eq(s.cubes[s.ask.seat], D.CUBES[s.round] - (turns[s.round] - 1) // 3)
    end
    local l = legal(s)
    act(s, { l[rand(#l)] })
  end
  t.eq(turns, { 24, 21, 18, 15 }); t.eq(firsts, { 1, 2, 3, 1 })
  t.eq(#s.round_goals, 4)
  for i = 1, 3 do t.eq(#s.players[i].goal_points, 4) end
  t.eq(G.current_seats(s), {}); t.eq(G.legal_actions(s, 1), {})
  invariant(s)
end)

test("wingspan: round goals: what each goal counts; green side places 4/1/0 .. 7/4/3, ties share rounded down, 0 scores nothing; blue side 1 each up to 5", function()
  local s = fresh(3, 10)
  local p = s.players[1]
  put(s, 1, "forest", "acorn_woodpecker", 2)
  put(s, 1, "grassland", "bobolink", 1)
  put(s, 1, "wetland", "atlantic_puffin", 1)
  put(s, 1, "wetland", "anhinga", 0)
  local want = { ["birds:wetland"] = 2, ["eggs_hab:forest"] = 2, ["nest_birds:cavity"] = 2, ["eggs_nest:platform"] = 1,
    egg_sets = 1, total_birds = 4, ["nest_birds:ground"] = 2, ["eggs_nest:bowl"] = 1, ["birds:forest"] = 1, ["eggs_hab:wetland"] = 1 }
  for g, n in pairs(want) do t.eq(G.goal_count(p, g), n, g) end
  t.eq(G.goal_points({ 3, 3, 1 }, 1, "green"), { 2, 2, 0 })
  t.eq(G.goal_points({ 0, 2, 1 }, 4, "green"), { 0, 7, 4 })
  t.eq(G.goal_points({ 2, 2, 2 }, 2, "green"), { 2, 2, 2 })
  t.eq(G.goal_points({ 1, 5, 3, 2 }, 3, "green"), { 0, 6, 3, 2 })
  t.eq(G.goal_points({ 7, 3, 0 }, 1, "blue"), { 5, 3, 0 })
  -- at the end of round 1, with "total birds": seats 1 and 2 tie for first
  s.goals[1] = "total_birds"
  put(s, 2, "forest", "wild_turkey"); put(s, 2, "forest", "hooded_warbler"); put(s, 2, "forest", "blue_winged_warbler"); put(s, 2, "forest", "prothonotary_warbler")
  local tray
  while s.round == 1 do tray = { table.unpack(s.tray) }; act(s, { s.ask.kind == "action" and "cards" or "deck" }) end
  local gone = {}
  for _, e in ipairs(s.discard) do if e.by == 0 then gone[#gone + 1] = e.id end end
  t.eq(sorted(gone), sorted(tray), "the tray is discarded face up at the end of the round")
  t.eq(#s.tray, 3)
  t.eq(s.round_goals[1].counts, { 4, 4, 0 }); t.eq(s.round_goals[1].points, { 2, 2, 0 })
  t.eq(p.goal_points, { 2 }); t.eq(s.players[3].goal_points, { 0 })
  local o = G.observation(s, 3)
  t.eq(o.goals[1].points, { 2, 2, 0 }); t.eq(o.players[1].breakdown.goals, 2)
end)

test("wingspan: final score: bird points, eggs, cached food, tucked cards, goals and bonus cards; ties go to the most food left, then share", function()
  local s = fresh(3, 12)
  for i = 1, 3 do
    for _, c in ipairs(s.players[i].bonus) do s.bonus_deck[#s.bonus_deck + 1] = c end
    s.players[i].bonus = {}
  end
  local p1, p2 = s.players[1], s.players[2]
  put(s, 1, "wetland", "bald_eagle", 1)
  local aw = put(s, 1, "forest", "acorn_woodpecker", 2); aw.cache = 3
  local coot = put(s, 1, "wetland", "american_coot"); coot.tucked = 2
  p1.goal_points = { 2, 0, 1 }
  for i, c in ipairs(s.bonus_deck) do if c == "rodentologist" then table.remove(s.bonus_deck, i) end end
  p1.bonus = { "rodentologist" }
  local total, b = G.score_of(p1, true)
  t.eq(b, { birds = 17, eggs = 3, cached = 3, tucked = 2, goals = 3, bonus = 2 }); t.eq(total, 30)
  t.eq(G.observation(s, 2).scores[1], 28, "another seat sees the score without the hidden bonus card")
  t.eq(G.observation(s, 1).players[1].score_with_bonus, 30)
  p2.goal_points = { 30 }
  food(s, 1, { seed = 2 })
  local r = G.ranking(s)
  t.eq(r.scores, { 30, 30, 0 }); t.eq(r.ranks, { 2, 1, 3 }, "the tie goes to the seat with more food left")
  food(s, 2, { fish = 2 })
  t.eq(G.ranking(s).ranks, { 1, 1, 3 })
end)

test("wingspan: bonus cards: per-bird and tiered cards count the birds in play (and the hand for the Visionary Leader)", function()
  local s = fresh(3, 13)
  local p = s.players[1]
  put(s, 1, "forest", "blue_jay", 1)
  put(s, 1, "forest", "blue_gray_gnatcatcher")
  put(s, 1, "grassland", "american_goldfinch", 2)
  put(s, 1, "wetland", "black_tern")
  local function pts(id) return G.bonus_points(p, G.BONUS[id]) end
  local want = { photographer = 3, wildlife_gardener = 4, omnivore_specialist = 2, food_web_expert = 2, ecologist = 2,
    oologist = 0, bird_feeder = 0, cartographer = 0, anatomist = 0, passerine_specialist = 0, large_bird_specialist = 0,
    breeding_manager = 0, visionary_leader = 0 }
  for id, v in pairs(want) do t.eq(pts(id), v, id) end
  t.eq(G.bonus_count(p, G.BONUS.oologist), 2)
  give(s, 1, { "mallard", "killdeer", "wild_turkey", "anhinga", "osprey" })
  t.eq(pts("visionary_leader"), 4)
  give(s, 1, { "brown_pelican", "canada_goose", "sandhill_crane" })
  t.eq(pts("visionary_leader"), 7)
  put(s, 1, "grassland", "american_kestrel"); put(s, 1, "grassland", "barn_owl")
  put(s, 1, "grassland", "burrowing_owl"); put(s, 1, "grassland", "dickcissel")
  t.eq(G.bonus_count(p, G.BONUS.passerine_specialist), 3, "goldfinch 23, gnatcatcher 15, dickcissel 25 cm: 30 cm or less")
  t.eq(G.bonus_points(p, G.BONUS.rodentologist), 6, "kestrel, barn owl, burrowing owl eat rodents: 2 each")
end)

test("wingspan: bonus cards: the Backyard Birder as printed: 5 to 6 birds worth less than 4 points give 3, 7 or more give 6", function()
  local s = fresh(3, 13)
  local p = s.players[1]
  local cheap = {}
  for _, b in ipairs(D.BIRDS) do
    if b.points < 4 and b.habitats[1] and #cheap < 8 then cheap[#cheap + 1] = b end
  end
  local got = {}
  for k = 1, 8 do
    local b = cheap[k]
    local h = b.habitats[1]
    if #p.rows[h] >= 5 then h = (h == "forest") and "wetland" or "forest" end
    grab(s, b.id)
    local row = p.rows[h]
    row[#row + 1] = { id = b.id, eggs = 0, cache = 0, tucked = 0 }
    got[k] = G.bonus_points(p, G.BONUS.backyard_birder)
  end
  t.eq(got, { 0, 0, 0, 0, 3, 3, 6, 6 })
  t.eq(G.BONUS.backyard_birder.tiers, { { 5, 3 }, { 7, 6 } })
end)

-- powers, family by family ----------------------------------------------------------------------

test("wingspan: powers: gain food from the supply (one bird; every player); a bird without a power does nothing", function()
  local s = fresh(3, 11)
  put(s, 1, "forest", "blue_gray_gnatcatcher")
  put(s, 1, "forest", "baltimore_oriole")
  put(s, 1, "forest", "hooded_warbler")
  s.feeder = { "fish", "seed", "fish", "fish", "fish" }
  act(s, { "food" })
  t.eq(s.ask.n, 2, "three forest birds: two dice, a trade space but no card in hand")
  act(s, { "take:f", "take:f" })
  t.eq(s.players[1].food, { invertebrate = 2, seed = 1, fish = 3, fruit = 2, rodent = 1 }, "gnatcatcher: 1 invertebrate; oriole: 1 fruit")
  t.eq(s.players[2].food.fruit, 2); t.eq(s.players[3].food.fruit, 2, "the oriole feeds everyone")
  t.eq(G.current_seats(s), { 2 })
  -- white: 3 fish from the supply
  give(s, 2, { "brown_pelican" }); food(s, 2, { fish = 2 })
  act(s, { "play:brown_pelican:wetland" })
  t.eq(s.players[2].food.fish, 3)
end)

test("wingspan: the food and egg supplies are unlimited: more than the box's 75 eggs and 103 food tokens still come", function()
  local s = fresh(3, 11)
  -- the other two mats full of eggs (no pink power, so nothing answers the action out of turn)
  local plain, on_mats = {}, 0
  for _, b in ipairs(D.BIRDS) do if b.colour ~= "pink" and b.eggs >= 2 and b.id ~= "american_woodcock" and b.id ~= "brown_pelican" then plain[#plain + 1] = b end end
  table.sort(plain, function(a, b) return a.eggs > b.eggs or (a.eggs == b.eggs and a.id < b.id) end)
  local k = 0
  for seat = 2, 3 do
    for _, hab in ipairs({ "forest", "grassland", "wetland" }) do
      for _ = 1, 5 do
        k = k + 1
        put(s, seat, hab, plain[k].id, plain[k].eggs)
        on_mats = on_mats + plain[k].eggs
      end
    end
  end
  t.ok(on_mats > 75, "eggs on the mats: " .. on_mats)
  local wc = put(s, 1, "forest", "american_woodcock", 0)
  act(s, { "eggs" })
  t.eq(wc.eggs, 2, "two more eggs laid")
  -- food: far more fish than the box holds, and a power still gives three more
  t.eq(G.current_seats(s), { 2 })
  give(s, 2, { "brown_pelican" }); food(s, 2, { fish = 200 })
  s.players[2].rows.wetland = {}
  act(s, { "play:brown_pelican:wetland" })
  t.eq(s.players[2].food.fish, 200 - 2 + 3)
end)

test("wingspan: powers: gain food from the birdfeeder (one type, every die of a type, each player in turn, the fewest birds)", function()
  local s = fresh(3, 14)
  put(s, 1, "forest", "great_crested_flycatcher")
  s.feeder = { "invertebrate", "fish", "fish", "fruit", "rodent" }
  act(s, { "food", "take:f" })
  t.eq(s.players[1].food.invertebrate, 2, "the flycatcher's invertebrate, the only choice, taken at once")
  t.eq(s.feeder, { "fish", "fruit", "rodent" })
  -- white: every fish die
  give(s, 2, { "bald_eagle" }); food(s, 2, { fish = 2, rodent = 1 })
  s.feeder = { "fish", "fish", "seed", "fish", "rodent" }
  act(s, { "play:bald_eagle:wetland" })
  t.eq(s.players[2].food.fish, 3); t.eq(s.feeder, { "seed", "rodent" })
  -- each player a die, from the player chosen, out of turn
  put(s, 3, "forest", "annas_hummingbird")
  act(s, { "food", "take:s" })
  t.eq(legal(s), { "start:1", "start:2", "start:3" })
  act(s, { "start:1" })
  t.eq(G.current_seats(s), { 1 }, "seat 1 chooses a die during seat 3's turn")
  t.eq(legal(s), { "take:r", "reroll" })
  act(s, { "take:r" })
  t.eq(G.current_seats(s), { 2 }); t.eq(#s.feeder, 5, "the empty feeder was refilled")
  act(s, { "*" })
  t.eq(G.current_seats(s), { 3 })
  act(s, { "*" })
  t.eq(s.players[1].food.rodent, 2)
  -- the fewest birds in the forest: seat 2 alone (seat 1 has two, seat 3 one)
  t.eq(G.current_seats(s), { 1 })
  put(s, 1, "forest", "hermit_thrush")
  s.feeder = { "seed", "seed", "seed", "seed", "fish" }
  act(s, { "food", "take:s", "take:s" })
  t.eq(G.current_seats(s), { 2 }, "the thrush gives seat 2 a die")
  local fish = s.players[2].food.fish
  act(s, { "take:f" })
  t.eq(s.players[2].food.fish, fish + 1)
  t.eq(legal(s), { "reroll", "skip" }, "the flycatcher: no invertebrate, but both dice left show seed")
  act(s, { "skip" })
  t.eq(G.current_seats(s), { 2 })
end)

test("wingspan: powers: cache food (from the supply; from the feeder, cache or keep)", function()
  local s = fresh(3, 15)
  local ch = put(s, 1, "forest", "carolina_chickadee")
  s.feeder = { "fish", "seed", "fruit", "rodent", "invertebrate" }
  act(s, { "food", "take:f" })
  t.eq(ch.cache, 1); t.eq(s.players[1].food.seed, 1, "cached from the supply")
  local aw = put(s, 2, "forest", "acorn_woodpecker")
  act(s, { "food", "take:b" })
  t.eq({ s.ask.kind, s.ask.bird }, { "cache_choice", "acorn_woodpecker" })
  t.eq(legal(s), { "cache", "keep" })
  act(s, { "cache" })
  t.eq(aw.cache, 1); t.eq(s.players[2].food.seed, 1)
  local _, b = G.score_of(s.players[2])
  t.eq(b.cached, 1, "a cached food is a point")
end)

test("wingspan: powers: predators: a card under the wingspan is tucked, else discarded; the vultures take a die when another's predator succeeds", function()
  local s = fresh(3, 16)
  local owl = put(s, 1, "forest", "barred_owl")
  put(s, 2, "forest", "black_vulture")
  on_top(s, { "black_necked_stilt" })
  s.feeder = { "fish", "seed", "fruit", "rodent", "invertebrate" }
  act(s, { "food", "take:f" })
  t.eq(owl.tucked, 1, "74 cm is under 75")
  t.eq(G.current_seats(s), { 2 }); t.eq(s.ask.kind, "die", "seat 2's vulture, out of turn")
  act(s, { "take:s" })
  t.eq(s.players[2].food.seed, 2)
  t.eq(G.current_seats(s), { 2 }); t.eq(s.ask.kind, "action")
  local hawk = put(s, 2, "forest", "coopers_hawk")
  on_top(s, { "black_bellied_whistling_duck" })
  act(s, { "food", "*", "*" })
  t.eq(hawk.tucked, 0); t.eq(s.discard[#s.discard], { id = "black_bellied_whistling_duck", by = 0 }, "76 cm is not under 75: discarded face up")
  t.eq(G.current_seats(s), { 3 })
  invariant(s)
  -- the limit itself is not under it: a card of exactly 75 cm is discarded (no printed bird
  -- has a hunting predator's limit as its wingspan, so one card is given 75 cm for this check)
  local s2 = fresh(3, 16)
  local owl2 = put(s2, 1, "forest", "barred_owl")
  on_top(s2, { "black_necked_stilt" })
  s2.feeder = { "fish", "seed", "fruit", "rodent", "invertebrate" }
  local was = B.black_necked_stilt.wingspan
  B.black_necked_stilt.wingspan = 75
  local ok, err = pcall(act, s2, { "food", "take:f" })
  B.black_necked_stilt.wingspan = was
  assert(ok, err)
  t.eq(owl2.tucked, 0, "75 cm is not under 75")
  t.eq(s2.discard[#s2.discard], { id = "black_necked_stilt", by = 0 })
end)

test("wingspan: every power is optional: one that feeds every player, a predator, a plain gain and a pink power each ask use or skip", function()
  -- the oriole (every player gains 1 fruit): declined, nobody gains
  local s = fresh(3, 11)
  put(s, 1, "forest", "baltimore_oriole")
  s.feeder = { "fish", "seed", "fish", "fish", "fish" }
  act(s, { "food" })
  assert(G.apply(s, 1, "take:f"))
  t.eq({ s.ask.kind, s.ask.seat, s.ask.bird }, { "use_power", 1, "baltimore_oriole" })
  t.eq(legal(s), { "use", "skip" })
  assert(G.apply(s, 1, "skip"))
  for i = 1, 3 do t.eq(s.players[i].food.fruit, 1, "seat " .. i .. ": no fruit") end
  t.eq(G.current_seats(s), { 2 })
  -- used, everyone gains
  local u = fresh(3, 11)
  put(u, 1, "forest", "baltimore_oriole")
  u.feeder = { "fish", "seed", "fish", "fish", "fish" }
  act(u, { "food" })
  assert(G.apply(u, 1, "take:f")); assert(G.apply(u, 1, "use"))
  for i = 1, 3 do t.eq(u.players[i].food.fruit, 2, "seat " .. i .. ": a fruit") end
  -- the predator declined: the deck is not touched; the vulture's pink power declined too
  local h = fresh(3, 16)
  local owl = put(h, 1, "forest", "barred_owl")
  put(h, 2, "forest", "black_vulture")
  on_top(h, { "black_necked_stilt" })
  h.feeder = { "fish", "seed", "fruit", "rodent", "invertebrate" }
  act(h, { "food" })
  assert(G.apply(h, 1, "take:f"))
  t.eq({ h.ask.kind, h.ask.bird }, { "use_power", "barred_owl" })
  local top, ndisc = h.deck[#h.deck], #h.discard
  assert(G.apply(h, 1, "skip"))
  t.eq(owl.tucked, 0); t.eq(h.deck[#h.deck], top); t.eq(#h.discard, ndisc)
  local v = fresh(3, 16)
  put(v, 1, "forest", "barred_owl")
  put(v, 2, "forest", "black_vulture")
  on_top(v, { "black_necked_stilt" })
  v.feeder = { "fish", "seed", "fruit", "rodent", "invertebrate" }
  act(v, { "food" })
  assert(G.apply(v, 1, "take:f")); assert(G.apply(v, 1, "use"))
  t.eq({ v.ask.kind, v.ask.seat, v.ask.bird }, { "use_power", 2, "black_vulture" }, "the vulture's owner is asked, out of turn")
  local seed2 = v.players[2].food.seed
  assert(G.apply(v, 2, "skip"))
  t.eq(v.players[2].food.seed, seed2); t.eq(#v.feeder, 4, "no die taken")
  t.eq({ v.ask.kind, G.current_seats(v)[1] }, { "action", 2 })
  -- a plain gain from the supply asks too
  local g = fresh(3, 11)
  put(g, 1, "forest", "blue_gray_gnatcatcher")
  g.feeder = { "fish", "seed", "fish", "fish", "fish" }
  act(g, { "food" })
  assert(G.apply(g, 1, "take:f"))
  t.eq({ g.ask.kind, g.ask.bird }, { "use_power", "blue_gray_gnatcatcher" })
  assert(G.apply(g, 1, "skip"))
  t.eq(g.players[1].food.invertebrate, 1)
  invariant(s); invariant(h); invariant(v); invariant(g)
end)

test("wingspan: powers: predators that roll the dice outside the feeder and cache on a hit", function()
  local hits, misses = 0, 0
  for seed = 1, 12 do
    local s = fresh(3, 100 + seed)
    local k = put(s, 1, "grassland", "american_kestrel")
    s.feeder = { "fish" }
    act(s, { "eggs", "notrade" })
    t.eq(#s.last_roll, 4, "four dice are outside the feeder")
    local hit = false
    for _, f in ipairs(s.last_roll) do if f == "rodent" then hit = true end end
    t.eq(k.cache, hit and 1 or 0)
    if hit then hits = hits + 1 else misses = misses + 1 end
    if seed == 1 then
      s.feeder = { "fish", "fish", "fish", "fish", "fish" }
      act(s, { "eggs" })          -- seat 2 lays nowhere
      act(s, { "eggs" })
      s.players[1].rows.grassland[1].cache = 0
      s.last_roll = nil
      act(s, { "eggs", "notrade" })
      t.eq(s.last_roll, nil, "all five dice in the feeder: nothing to roll, the power does not ask"); t.eq(k.cache, 0)
    end
  end
  t.ok(hits > 0 and misses > 0, "both outcomes seen: " .. hits .. " hits, " .. misses .. " misses")
end)

test("wingspan: powers: tuck a card from hand (then draw, gain food or lay), discard food to tuck two from the deck", function()
  local s = fresh(3, 17)
  local coot = put(s, 1, "wetland", "american_coot")
  give(s, 1, { "mallard", "killdeer" })
  act(s, { "cards", "deck" })
  t.eq({ s.ask.kind, #legal(s) }, { "tuck", 4 }, "three cards in hand, or skip")
  act(s, { "tuck:mallard" })
  t.eq(coot.tucked, 1); t.eq(#s.players[1].hand, 3, "tucked one, drew one")
  local goose = put(s, 2, "grassland", "canada_goose")
  local deck = #s.deck
  act(s, { "eggs", "notrade" })
  t.eq(goose.eggs, 2)
  t.eq(legal(s), { "use", "skip" })
  act(s, { "use" })
  t.eq(goose.tucked, 2); t.eq(s.players[2].food.seed, 0); t.eq(#s.deck, deck - 2)
  local bb = put(s, 3, "grassland", "brewers_blackbird")
  give(s, 3, { "wild_turkey" })
  act(s, { "eggs", "notrade", "tuck:wild_turkey" })
  t.eq(bb.tucked, 1); t.eq(bb.eggs, 3, "two from the action, one from the power")
  local nut = put(s, 1, "forest", "pygmy_nuthatch")
  act(s, { "food", "notrade", "*" })
  act(s, { "tuck:" .. s.players[1].hand[1] })
  t.eq(legal(s), { "food:invertebrate", "food:seed" })
  act(s, { "food:seed" })
  t.eq(nut.tucked, 1)
  local _, b = G.score_of(s.players[1])
  t.eq(b.tucked, 2, "a tucked card is a point")
  invariant(s)
end)

test("wingspan: powers: lay eggs (on any bird, on this bird, every player on a nest type, each bird of a nest type when played)", function()
  local s = fresh(3, 18)
  local sp = put(s, 1, "grassland", "bairds_sparrow")
  local tk = put(s, 1, "forest", "wild_turkey")
  act(s, { "eggs", "notrade", "lay:grassland:1", "lay:grassland:1" })
  t.eq({ sp.eggs, tk.eggs }, { 2, 1 }, "the sparrow's egg goes on the one bird with room")
  local q = put(s, 2, "grassland", "california_quail")
  act(s, { "eggs", "notrade" })
  t.eq(q.eggs, 3)
  local jay = put(s, 1, "forest", "blue_jay")
  local lz = put(s, 3, "grassland", "lazuli_bunting")
  local rb = put(s, 3, "forest", "american_robin")
  act(s, { "eggs", "notrade", "lay:grassland:1", "lay:forest:1" })
  t.eq(s.ask.kind, "lay"); t.eq(legal(s), { "lay:forest:1", "lay:grassland:1" })
  act(s, { "lay:grassland:1" })
  t.eq(legal(s), { "lay:forest:1", "skip" }, "the second egg: another bowl bird, or none")
  act(s, { "lay:forest:1" })
  t.eq({ lz.eggs, rb.eggs, jay.eggs }, { 2, 2, 1 }, "seat 1's one bowl bird takes one egg")
  -- white: an egg on each bowl bird (the star nest counts), the new bird too
  local u = fresh(3, 19)
  local j2 = put(u, 1, "forest", "blue_jay")
  local tern = put(u, 1, "wetland", "black_tern")
  local wc = put(u, 1, "forest", "american_woodcock")
  give(u, 1, { "says_phoebe" }); food(u, 1, { invertebrate = 3 })
  act(u, { "play:says_phoebe:grassland" })
  t.eq({ j2.eggs, tern.eggs, wc.eggs, u.players[1].rows.grassland[1].eggs }, { 1, 1, 0, 1 })
end)

test("wingspan: powers: draw cards (from the deck; draw then discard at the end of the turn; fewest birds; every player; a face-up draft)", function()
  local s = fresh(3, 20)
  put(s, 1, "wetland", "mallard")
  act(s, { "cards", "deck" })
  t.eq(#s.players[1].hand, 2)
  put(s, 2, "wetland", "american_bittern")
  act(s, { "cards", "deck" })
  t.eq({ #s.players[1].hand, #s.players[2].hand, #s.players[3].hand }, { 2, 1, 1 }, "seat 3 alone has the fewest wetland birds")
  put(s, 3, "wetland", "northern_shoveler")
  act(s, { "cards", "deck" })
  t.eq({ #s.players[1].hand, #s.players[2].hand, #s.players[3].hand }, { 3, 2, 3 })
  -- white: draw 2
  give(s, 1, { "carolina_wren" }); food(s, 1, { fruit = 1 })
  act(s, { "play:carolina_wren:forest" })
  t.eq(#s.players[1].hand, 5)
  -- the oystercatcher: players + 1 cards face up, one each from the player on, the extra to the player
  s.players[2].rows.wetland[1].eggs = 1
  give(s, 2, { "american_oystercatcher" }); food(s, 2, { invertebrate = 2 })
  local top = { s.deck[#s.deck], s.deck[#s.deck - 1], s.deck[#s.deck - 2], s.deck[#s.deck - 3] }
  act(s, { "play:american_oystercatcher:wetland" })
  t.eq(sorted(s.draft), sorted(top))
  t.eq({ G.current_seats(s), #legal(s) }, { { 2 }, 4 })
  act(s, { "pick:" .. top[1] })
  t.eq({ G.current_seats(s), #legal(s) }, { { 3 }, 3 }, "seat 3 picks out of turn")
  act(s, { "pick:" .. top[2] })
  act(s, { "pick:" .. top[3] })
  t.eq(s.players[1].shown, { top[3] }); t.eq(s.players[2].shown, { top[1], top[4] }); t.eq(s.players[3].shown, { top[2] })
  t.eq(G.observation(s, 3).players[2].face_up_in_hand, { top[1], top[4] }, "cards taken face up stay known")
  invariant(s)
end)

test("wingspan: powers: play an additional bird (in a named habitat, paying its normal cost)", function()
  local s = fresh(3, 21)
  put(s, 1, "wetland", "killdeer", 1)
  give(s, 1, { "downy_woodpecker", "blue_jay", "mallard" })
  food(s, 1, { seed = 2, invertebrate = 1, fish = 1 })
  act(s, { "play:downy_woodpecker:forest" })
  t.eq(legal(s), { "pay:i", "pay:s" })
  act(s, { "pay:i" })
  t.eq(legal(s), { "play:blue_jay:forest", "skip" }, "a forest bird only; the mallard is no forest bird")
  act(s, { "play:blue_jay:forest" })
  t.eq(legal(s), { "pay:sf", "pay:ss" })
  act(s, { "pay:ss" })
  local p = s.players[1]
  t.eq({ p.rows.forest[1].id, p.rows.forest[2].id }, { "downy_woodpecker", "blue_jay" })
  t.eq(p.rows.wetland[1].eggs, 0, "column 2 cost the killdeer's egg"); t.eq(s.cubes[1], 7, "one action")
  t.eq(G.current_seats(s), { 2 })
  -- the house wren: another bird in the wren's own habitat
  put(s, 2, "wetland", "american_coot", 1)
  give(s, 2, { "house_wren", "bairds_sparrow", "wild_turkey" }); food(s, 2, { invertebrate = 1, seed = 3, fruit = 1 })
  act(s, { "play:house_wren:grassland" })
  t.eq(legal(s), { "play:bairds_sparrow:grassland", "play:wild_turkey:grassland", "skip" }, "the wren's own habitat only (the turkey could live in the forest too)")
  act(s, { "skip" })
  t.eq(G.current_seats(s), { 3 })
end)

test("wingspan: an empty deck is refilled from the shuffled discard pile", function()
  local s = fresh(3, 28)
  for _, id in ipairs(s.deck) do s.discard[#s.discard + 1] = { id = id, by = 0 } end
  s.deck = {}
  local pile = #s.discard
  act(s, { "cards", "deck" })
  t.eq(#s.players[1].hand, 1); t.eq(#s.discard, 0); t.eq(#s.deck, pile - 1)
  invariant(s)
end)

test("wingspan: powers: repeat a brown power of another bird in the habitat (any, or a predator's)", function()
  local s = fresh(3, 22)
  put(s, 1, "forest", "blue_gray_gnatcatcher")
  put(s, 1, "forest", "gray_catbird")
  s.feeder = { "fish", "seed", "fruit", "rodent", "seed" }
  act(s, { "food", "take:f", "take:b" })
  t.eq(legal(s), { "repeat:forest:1", "skip" })
  act(s, { "repeat:forest:1" })
  t.eq(s.players[1].food.invertebrate, 3, "the gnatcatcher's invertebrate twice")
  put(s, 2, "wetland", "anhinga")
  put(s, 2, "wetland", "hooded_merganser")
  put(s, 2, "wetland", "mallard")
  act(s, { "cards", "deck", "deck" })
  t.eq(#s.players[2].hand, 3, "two drawn, one by the mallard")
  t.eq(legal(s), { "repeat:wetland:1", "skip" }, "the merganser repeats the anhinga (a predator), not the mallard")
  act(s, { "repeat:wetland:1" })
  t.eq(#s.last_roll, D.DICE - #s.feeder)
end)

test("wingspan: powers: pink powers answer other players' actions out of turn, once between their owner's turns", function()
  local s = fresh(3, 23)
  put(s, 2, "forest", "eastern_kingbird")
  give(s, 1, { "blue_gray_gnatcatcher", "northern_cardinal" })
  act(s, { "play:blue_gray_gnatcatcher:forest" })
  t.eq(s.players[2].food.invertebrate, 2, "seat 1 played a forest bird")
  act(s, { "cards", "deck" })                -- seat 2's turn: its pink power is ready again
  give(s, 3, { "red_crossbill" }); food(s, 3, { seed = 2 })
  act(s, { "play:red_crossbill:forest" })
  t.eq(s.players[2].food.invertebrate, 3)
  s.players[1].rows.forest[1].eggs = 1
  act(s, { "play:northern_cardinal:forest" })  -- seat 1 again, before seat 2's next turn
  t.eq(s.players[2].food.invertebrate, 3, "once between turns")
  -- a pink decision: seat 3's horned lark when seat 2 plays in its grassland
  put(s, 3, "grassland", "horned_lark")
  give(s, 3, { "mallard" })
  give(s, 2, { "dickcissel" }); food(s, 2, { invertebrate = 1, seed = 2 })
  act(s, { "play:dickcissel:grassland" })
  t.eq(G.current_seats(s), { 3 }); t.eq(legal(s), { "tuck:mallard", "skip" })
  act(s, { "tuck:mallard" })
  t.eq(s.players[3].rows.grassland[1].tucked, 1)
  t.eq(G.current_seats(s), { 3 }); t.eq(s.ask.kind, "action", "then seat 3's own turn")
  -- the shrike caches a rodent when another's gain-food action takes one
  local sh = put(s, 1, "grassland", "loggerhead_shrike")
  s.feeder = { "rodent", "fish", "fish", "fish", "fish" }
  act(s, { "food", "take:f" })
  t.eq(sh.cache, 0, "no rodent taken")
  act(s, { "cards", "deck" })                   -- seat 1's turn resets the shrike
  s.feeder = { "rodent", "fish", "fish", "fish", "fish" }
  act(s, { "food", "notrade", "take:r" })
  t.eq(sh.cache, 1, "seat 2 took a rodent")
  -- egg parasites: another's lay-eggs action
  local s2 = fresh(3, 24)
  put(s2, 2, "grassland", "bronzed_cowbird")
  local jay = put(s2, 2, "forest", "blue_jay")
  local av = put(s2, 3, "wetland", "american_avocet")
  local kd = put(s2, 3, "wetland", "killdeer")
  put(s2, 1, "forest", "wild_turkey")
  act(s2, { "eggs" })
  t.eq({ jay.eggs, kd.eggs, av.eggs }, { 1, 1, 0 }, "the cowbird's egg on the bowl nest; the avocet's on another ground nest")
end)

test("wingspan: powers: trade food, discard an egg for food, move the rightmost bird to another habitat", function()
  local s = fresh(3, 25)
  put(s, 1, "wetland", "green_heron")
  act(s, { "cards", "deck" })
  t.eq(legal(s), { "give:invertebrate", "give:seed", "give:fish", "give:fruit", "give:rodent", "skip" })
  act(s, { "give:fish" })
  t.eq(legal(s), { "food:invertebrate", "food:seed", "food:fruit", "food:rodent" })
  act(s, { "food:rodent" })
  t.eq(s.players[1].food, { invertebrate = 1, seed = 1, fish = 0, fruit = 1, rodent = 2 })
  local tk = put(s, 2, "forest", "wild_turkey", 1)
  local crow = put(s, 2, "forest", "american_crow", 1)
  s.feeder = { "fish", "seed", "fruit", "rodent", "seed" }
  act(s, { "food", "take:f", "take:s" })
  t.eq(legal(s), { "egg:forest:1", "skip" }, "an egg from another bird, not the crow's own")
  act(s, { "egg:forest:1", "food:seed" })
  t.eq({ tk.eggs, crow.eggs, s.players[2].food.seed }, { 0, 1, 3 })
  put(s, 3, "forest", "hooded_warbler")
  put(s, 3, "forest", "bewicks_wren")
  act(s, { "food", "*", "*" })
  t.eq(legal(s), { "move:grassland", "move:wetland", "skip" })
  act(s, { "move:wetland" })
  local r = s.players[3]
  t.eq({ #r.rows.forest, r.rows.wetland[1].id }, { 1, "bewicks_wren" })
  -- not the rightmost: no move
  local u = fresh(3, 26)
  put(u, 1, "forest", "bewicks_wren"); put(u, 1, "forest", "hooded_warbler")
  act(u, { "food", "*", "*" })
  t.eq(G.current_seats(u), { 2 }, "the wren is not rightmost: nothing to decide")
end)

test("wingspan: powers: draw 2 bonus cards and keep 1 when played", function()
  local s = fresh(3, 27)
  give(s, 1, { "atlantic_puffin" }); food(s, 1, { fish = 3 })
  local discards = #s.bonus_discard
  act(s, { "play:atlantic_puffin:wetland" })
  t.eq(s.ask.kind, "bonus_keep"); t.eq(#legal(s), 2)
  local pick = legal(s)[2]
  act(s, { pick })
  t.eq(#s.players[1].bonus, 2); t.eq(s.players[1].bonus[2], pick:sub(7)); t.eq(#s.bonus_discard, discards + 1)
  invariant(s)
end)

-- whole matches, hidden information, what a model gets -------------------------------------------

test("wingspan: 40 fast random playouts (2-5 players) conserve cards and bonus cards, keep limits, and scores monotone", function()
  local r = rt.playouts(G, { games = 40, seed = 11, light = true, invariant = monotone })
  t.eq(r.matches, 40)
end)

test("wingspan: full checks (actions, illegal ids, serialization, hidden information, determinism) on 3 playouts", function()
  local r = rt.playouts(G, { players = 3, games = 3, seed = 5, invariant = invariant, hidden_every = 9 })
  t.ok(r.steps > 3 * 150, "matches have many sub-decisions: " .. r.steps)
end)

test("wingspan: replay from the events gives the same state; the state survives serialization mid-turn", function()
  rt.replay_check(G, 3, 4242, 60)
end)

-- hide(s, seat): a copy in which everything seat may not see is changed: the deck order, the
-- other seats' hidden hand cards (swapped with deck cards), their bonus cards (swapped with the
-- bonus deck), the order of the bonus deck, and the random state
local function hide(s, seat)
  local o = kit.copy(s)
  o.rng = o.rng ~ 0x5DEECE66D
  for i = 1, #o.deck // 2 do o.deck[i], o.deck[#o.deck + 1 - i] = o.deck[#o.deck + 1 - i], o.deck[i] end
  for i = 1, o.n do
    if i ~= seat then
      local p = o.players[i]
      local face = {}
      for _, id in ipairs(p.shown) do face[id] = true end
      for k, id in ipairs(p.hand) do
        if not face[id] and #o.deck > k then p.hand[k], o.deck[k] = o.deck[k], id end
      end
      for k = 1, #p.dealt do if #o.deck > 20 + k then p.dealt[k], o.deck[20 + k] = o.deck[20 + k], p.dealt[k] end end
      for k = 1, #p.bonus do if #o.bonus_deck >= k then p.bonus[k], o.bonus_deck[k] = o.bonus_deck[k], p.bonus[k] end end
    end
  end
  for i = 1, #o.bonus_deck // 2 do o.bonus_deck[i], o.bonus_deck[#o.bonus_deck + 1 - i] = o.bonus_deck[#o.bonus_deck + 1 - i], o.bonus_deck[i] end
  return o
end

test("wingspan: hidden information: other hands, bonus cards, deck orders and the random state never reach a seat's observation or legal list", function()
  local rand = kit.generator(17)
  local checked, owner_differs = 0, 0
  for g = 1, 3 do
    local s = G.setup(3, 300 + g)
    local steps = 0
    while not G.is_terminal(s) do
      steps = steps + 1
      if steps % 13 == 0 then
        for seat = 1, 3 do
          local other = hide(s, seat)
          t.eq(json.canonical(G.observation(other, seat)), json.canonical(G.observation(s, seat)), "JSON of seat " .. seat)
          t.eq(G.render(G.observation(other, seat)), G.render(G.observation(s, seat)), "text of seat " .. seat)
          if G.current_seats(s)[1] == seat then t.eq(ids(G.legal_actions(other, seat)), ids(G.legal_actions(s, seat))) end
          for j = 1, 3 do
            if j ~= seat and json.canonical(G.observation(other, j)) ~= json.canonical(G.observation(s, j)) then owner_differs = owner_differs + 1 end
          end
        end
        checked = checked + 1
      end
      local seat = G.current_seats(s)[1]
      local l = G.legal_actions(s, seat)
      assert(G.apply(s, seat, l[rand(#l)].id))
    end
  end
  t.ok(checked >= 30, "checked " .. checked .. " states")
  t.ok(owner_differs >= checked, "the changes are real: the owners see them (" .. owner_differs .. ")")
end)

-- unseen(s, seat) -> sorted bird ids that seat cannot place: the deck, the others' hidden hand
-- cards and undecided setup cards, the cards others discarded face down
local function unseen(s, seat)
  local out = { table.unpack(s.deck) }
  for _, e in ipairs(s.discard) do if e.by ~= 0 and e.by ~= seat then out[#out + 1] = e.id end end
  for i = 1, s.n do
    if i ~= seat then
      local p = s.players[i]
      local face = {}
      for _, id in ipairs(p.shown) do face[id] = true end
      for _, id in ipairs(p.hand) do if not face[id] then out[#out + 1] = id end end
      for _, id in ipairs(p.dealt) do out[#out + 1] = id end
      for _, id in ipairs(p.kept) do out[#out + 1] = id end
    end
  end
  table.sort(out)
  return out
end

test("wingspan: determinization: every world keeps what the seat has seen and the public counts, and resamples the rest", function()
  local rand = kit.generator(23)
  local s = G.setup(3, 77)
  for _ = 1, 120 do
    local seat = G.current_seats(s)[1]
    assert(G.apply(s, seat, ismcts.heuristic_pick(G, s, seat, G.legal_actions(s, seat), rand, 0.1)))
  end
  local hands = {}
  for k = 1, 24 do
    local seat = (k - 1) % 3 + 1
    local d = G.determinize(s, seat, rand)
    invariant(d)
    t.eq(unseen(d, seat), unseen(s, seat), "the same cards are unseen")
    t.eq(d.tray, s.tray); t.eq(d.feeder, s.feeder); t.eq(d.players[seat], s.players[seat], "the seat's own holdings")
    for i = 1, 3 do
      local a, b = d.players[i], s.players[i]
      t.eq({ a.rows, a.food, #a.hand, #a.bonus, a.shown, a.goal_points }, { b.rows, b.food, #b.hand, #b.bonus, b.shown, b.goal_points })
    end
    t.eq(#d.bonus_deck, #s.bonus_deck)
    local own = {}
    for _, c in ipairs(s.players[seat].bonus) do own[c] = true end
    for _, c in ipairs(d.bonus_deck) do t.ok(not own[c], "a bonus card the seat holds is not in the bonus deck") end
    if seat == 1 then hands[table.concat(d.players[2].hand, ",") .. "|" .. table.concat(d.players[2].bonus, ",")] = true end
  end
  local n = 0
  for _ in pairs(hands) do n = n + 1 end
  t.ok(n >= 6, "other hands resampled: " .. n .. " of 8")
end)

test("wingspan: the text observation stays model-sized (under 12,000 characters) and shows no hidden card", function()
  local rand = kit.generator(31)
  local max_text = 0
  for g = 1, 3 do
    rt.play(G, 4, 500 + g, function(st, seat, l)
      local o = G.observation(st, seat)
      local txt = G.render(o)
      if #txt > max_text then max_text = #txt end
      t.ok(o.rng == nil and type(o.deck) == "number" and o.bonus_deck and type(o.bonus_deck) == "number")
      for i = 1, st.n do
        if i ~= seat then
          t.eq(o.players[i].hand, nil)
          for _, id in ipairs(st.players[i].bonus) do
            local mine = false
            for _, c in ipairs(st.players[seat].bonus) do if c == id then mine = true end end
            if not mine then t.ok(not txt:find(id, 1, true), "another's bonus card " .. id .. " in the text") end
          end
        end
      end
      return ismcts.heuristic_pick(G, st, seat, l, rand, 0.1)
    end)
  end
  t.ok(max_text < 12000, "longest text " .. max_text)
end)

test("wingspan: the heuristic beats Random clearly (12 three-player matches against two Random seats)", function()
  local wins = rt.heuristic_wins(G, 12)
  t.ok(wins >= 7, "heuristic first in " .. wins .. " of 12 (Random alone would be first in about 4)")
end)

test("wingspan: the heuristic plays a bird it can pay for before gaining food, lays eggs when they unblock a bird", function()
  local s = fresh(3, 40)
  give(s, 1, { "mallard" })
  t.ok(G.heuristic(s, 1, "play:mallard:wetland") > G.heuristic(s, 1, "food"))
  put(s, 1, "wetland", "killdeer")
  t.ok(G.heuristic(s, 1, "eggs") > G.heuristic(s, 1, "food"), "column 2 needs an egg")
  t.ok(G.heuristic(s, 1, "eggs") > G.heuristic(s, 1, "cards"))
end)

test("wingspan: ISMCTS picks a legal action within its simulation budget", function()
  local s = fresh(3, 41)
  give(s, 1, { "mallard", "wild_turkey" })
  local id, info = ismcts.choose(G, s, 1, kit.generator(3), { simulations = 48, steps = 18 })
  local ok = false
  for _, a in ipairs(G.legal_actions(s, 1)) do if a.id == id then ok = true end end
  t.ok(ok, "legal: " .. tostring(id)); t.eq(info.simulations, 48)
end)

test("wingspan: the drawing: a card per bird on the mats and in the tray, an empty slot for the rest, the feeder's dice, the eggs", function()
  local o, svg = rt.drawn(G, 200)
  t.ok(svg:find("^<svg") and svg:find("</svg>$"))
  local birds, eggs, want_birds, want_eggs = 0, 0, #o.tray, 0
  for _ in svg:gmatch('<g class="bird">') do birds = birds + 1 end
  for _ in svg:gmatch('class="egg"') do eggs = eggs + 1 end
  for i = 1, 3 do for _, h in ipairs(D.HABITATS) do
    for _, x in ipairs(o.players[i].rows[h]) do want_birds = want_birds + 1; want_eggs = want_eggs + x.eggs end
  end end
  t.eq(birds, want_birds); t.eq(eggs, want_eggs)
  t.ok(want_birds > 6 and want_eggs > 0, "the heuristic played birds and laid eggs")
  local dice, slots = 0, 0
  for _ in svg:gmatch('<g class="die">') do dice = dice + 1 end
  for _ in svg:gmatch('stroke%-dasharray="3,3"') do slots = slots + 1 end
  t.eq(dice, #o.feeder); t.eq(slots, 3 * 15 - (want_birds - #o.tray))
end)

test("wingspan: the arena runs the game by name: three baselines, a full built-in match each, report and D", function()
  local fs = require "tabula.fs"
  local records = require "tabula.records"
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/parts.json", json.encode({ participants = {
    { name = "random", player = "random" }, { name = "heuristic", player = "heuristic" },
    { name = "ismcts", player = "ismcts", simulations = 6, steps = 12 } } }))
  local rc = t.run_scenario("scenarios/dece", { "--no-html", "--participants", dir .. "/parts.json", "--out", dir .. "/run",
    "--games", "wingspan", "--matches-per-game", "3", "--draws", "200", "--quiet", "--workers", "1" })
  t.eq(rc, 0)
  local recs = records.read(dir .. "/run/matches.jsonl")
  t.eq(#recs, 3)
  for _, r in ipairs(recs) do
    t.eq(r.game, "wingspan"); t.eq(r.status, "finished")
    t.ok(r.D > 150, "decisions counted: " .. tostring(r.D))
  end
  local report = fs.read(dir .. "/run/report.md")
  t.contains(report, "3 of 3 scheduled matches finished.")
  t.contains(report, "## wingspan (3 matches)")
  t.contains(report, "Decisions per match D: median")
end)

test("wingspan: an arena match with a model over the mock server: a legal setup choice, then an invalid answer forfeits", function()
  local first = rt.mock_match(G, { { match = "Decision 1 ", reply = "I keep none.\nACTION: done", times = 1 },
                           { reply = "ACTION: bonus:no_such_card" } }, 3)
  t.contains(first, "done: keep none of the dealt birds")
  t.contains(first, "Wingspan (base game), round 1 of 4. You are player 1 of 3.")
end)

-- the rules audit -------------------------------------------------------------------------------

local function audit()
  local text = assert(io.open(t.root() .. "/games/wingspan/RULES-AUDIT.md")):read("a")
  local rows = {}
  for line in text:gmatch("[^\n]+") do
    local id, rule, name, status = line:match("^| *(W[%w%.%-]+) *| *(.-) *| *(.-) *| *([%u%-]+) *|$")
    if id then rows[#rows + 1] = { id = id, rule = rule, test = name:match("^`(.*)`$") or name, status = status } end
  end
  return rows, text
end

test("wingspan: RULES-AUDIT.md names existing tests; coverage by status", function()
  local rows = audit()
  local names = {}
  for _, e in ipairs(T) do names[e[1]] = true end
  local counts, seen = { PASS = 0, MISSING = 0, ["OUT-OF-SCOPE"] = 0 }, {}
  for _, r in ipairs(rows) do
    t.ok(not seen[r.id], "rule id " .. r.id .. " once"); seen[r.id] = true
    t.ok(counts[r.status], r.id .. ": status " .. r.status)
    t.ok(r.rule ~= "", r.id .. ": a rule")
    counts[r.status] = counts[r.status] + 1
    if r.status == "PASS" then t.ok(names[r.test], r.id .. ": no test named " .. r.test) end
  end
  t.ok(counts.PASS >= 40, "rules audited: " .. counts.PASS)
  io.write(string.format("  RULES-AUDIT: %d PASS, %d MISSING, %d OUT-OF-SCOPE\n", counts.PASS, counts.MISSING, counts["OUT-OF-SCOPE"]))
end)

test("wingspan: RULES-AUDIT.md: every one of the 170 birds is covered by a power family line that passes, or is listed out of scope", function()
  local rows, text = audit()
  local family_ok = {}
  for _, r in ipairs(rows) do
    local fams = r.rule:match("%[families: ([^%]]+)%]")
    if fams and r.status == "PASS" then for f in fams:gmatch("[%w_]+") do family_ok[f] = true end end
  end
  local covered, out, missing = 0, 0, {}
  for _, b in ipairs(D.BIRDS) do
    local fam = b.family or "none"
    if family_ok[fam] then covered = covered + 1
    elseif text:find("OUT-OF-SCOPE bird: " .. b.id, 1, true) then out = out + 1
    else missing[#missing + 1] = b.id .. " (" .. fam .. ")" end
  end
  t.eq(missing, {}, "birds neither covered nor out of scope")
  t.eq(covered + out, 170)
  io.write(string.format("  birds: %d covered by a tested power family, %d out of scope\n", covered, out))
end)

return T
