-- Ark Nova rules: the data manifest (map, buildings, action cards, 128 animals, 64 sponsors,
-- projects, final-scoring cards), invariants over random playouts (cards conserved, limits, tracks
-- monotone, the map never overbuilt), every action on hand-built positions with hand-computed
-- legal counts (Build, Animals, Cards, Sponsors or break, Association, X-tokens), the action-card
-- cycle and upgrades, track bonuses, the break, projects, the crossing end and final scoring,
-- tie-breaks, replay, the perturbation and determinization tests of hidden information, the
-- observation size, the heuristic against Random, heuristic matches ending by the crossing, the
-- drawing, a match with a model over the mock server, the arena run with the three baselines, and
-- the rules audit (RULES-AUDIT.md).
-- slow: full Ark Nova matches through the arena and random playouts (long games: D >= 150) (left out by make check)
local t = require "tabula.testing"
local G = require "games.arknova"
local D = require "games.arknova.data"
local kit = require "games.kit"
local json = require "tabula.json"
local rt = require "games.rules_test"
local ismcts = require "games.ismcts"
local test, T = t.suite()

local H = G.HEXID
local NCARDS = 212

-- a match after its setup choices (each seat discards its first four cards, keeps its first
-- final-scoring card); seat 1 to play its first turn
-- the rule tests place buildings on our own layout (opts.map = "ours", where their hex names were
-- chosen) unless they name a map; Plan A, the default, has tests of its own
local function fresh(n, seed, opts)
  opts = opts or {}
  if opts.map == nil then opts = setmetatable({ map = "ours" }, { __index = opts }) end
  local s = G.setup(n or 3, seed or 1, opts)
  while s.step.k ~= "turn" do
    local seat = G.current_seats(s)[1]
    assert(G.apply(s, seat, G.legal_actions(s, seat, true)[1].id))
  end
  return s
end

-- give seat the cards (taking them from wherever they are: deck, display, discard)
local function give(s, seat, ids)
  for _, id in ipairs(ids) do
    for _, list in ipairs({ s.deck, s.display, s.discard }) do
      for i = #list, 1, -1 do if list[i] == id then table.remove(list, i) end end
    end
    for i = 1, s.n do
      local h = s.players[i].hand
      for k = #h, 1, -1 do if h[k] == id then table.remove(h, k) end end
    end
    table.insert(s.players[seat].hand, id)
  end
end
local function set_hand(s, seat, ids)
  local p = s.players[seat]
  for _, c in ipairs(p.hand) do s.deck[#s.deck + 1] = c end
  p.hand = {}
  give(s, seat, ids)
end
-- put a building straight onto seat's map
local function put(s, seat, typ, names, animals)
  local p = s.players[seat]
  local hexes = {}
  for _, nm in ipairs(names) do hexes[#hexes + 1] = H[nm] end
  table.sort(hexes)
  p.buildings[#p.buildings + 1] = { t = typ, hexes = hexes, animals = animals or {} }
  for _, h in ipairs(hexes) do p.cover[h] = #p.buildings end
  return #p.buildings
end
local function ids(list) local r = {} for i, a in ipairs(list) do r[i] = a.id end return r end
local function has(list, id) for _, a in ipairs(list) do if a.id == id then return true end end return false end
local function count(s, seat, pattern) return rt.count_actions(G, s, seat, pattern) end
local function slots(s, seat, order) s.players[seat].slots = order end
-- the cards' prerequisites waived for every seat (the tests of other rules play cards without
-- meeting them; the prerequisites have their own test)
local function waive(s) for _, p in ipairs(s.players) do p.no_prereqs = true end end
-- put the cards on top of the deck, the last one topmost (taken from wherever they are)
local function top(s, list)
  for _, id in ipairs(list) do
    give(s, 1, { id })
    table.remove(s.players[1].hand)
    s.deck[#s.deck + 1] = id
  end
end

-- invariants ---------------------------------------------------------------------------------
local last = setmetatable({}, { __mode = "k" })
local function invariant(s, where)
  where = where or ""
  local n = 0
  for _ in pairs(G.census(s)) do n = n + 1 end
  local board = 0
  for _, bp in ipairs(s.projects) do if bp.card then board = board + 1 end end
  if n ~= #s.deck + #s.display + #s.discard + #s.revealed + board + (function() local k = 0 for _, p in ipairs(s.players) do k = k + #p.hand + #p.zoo + #p.sponsors + #p.held + #p.tucked + #(p.set_aside or {}) end return k end)() then
    error(where .. ": census miscount", 0) end
  if n ~= NCARDS then error(string.format("%s: %d zoo cards instead of %d", where, n, NCARDS), 0) end
  if #s.display > D.DISPLAY then error(where .. ": display over 6", 0) end
  local prev = last[s] or {}
  local now = {}
  for i, p in ipairs(s.players) do
    if p.money < 0 then error(where .. ": negative money", 0) end
    if p.x < 0 or p.x > D.MAX_X then error(where .. ": X-tokens " .. p.x, 0) end
    if p.rep > D.MAX_REP or p.cp > D.MAX_CP or p.appeal > D.MAX_APPEAL then error(where .. ": a track over its end", 0) end
    if p.workers > D.MAX_WORKERS or p.busy > p.workers then error(where .. ": workers", 0) end
    local seen = {}
    for _, a in ipairs(p.slots) do seen[a] = true end
    for _, a in ipairs(D.ACTIONS) do if not seen[a] then error(where .. ": action card " .. a .. " missing", 0) end end
    if #p.slots ~= 5 then error(where .. ": slots", 0) end
    local cov = {}
    local animals = 0
    for bi, b in ipairs(p.buildings) do
      for _, h in ipairs(b.hexes) do
        if cov[h] then error(where .. ": two buildings on one hex", 0) end
        if G.TERRAIN[h] and not G.has_effect(p, "diversity") then error(where .. ": a building on rock or water", 0) end
        if p.cover[h] ~= bi then error(where .. ": cover map out of step", 0) end
        cov[h] = true
      end
      local cap = G.BUILD[b.t].capacity or (G.BUILD[b.t].kind == "enclosure" and 1 or 0)
      if G.BUILD[b.t].kind == "enclosure" and #b.animals > 1 then
        -- flock animals share an enclosure that holds a herbivore: one animal without flock at most
        local plain, herb = 0, false
        for _, a in ipairs(b.animals) do
          local flock = false
          for _, e in ipairs(G.ABILITY[a]) do if e[1] == "flock" then flock = true end end
          if not flock then plain = plain + 1 end
          if G.CARD[a].class == "herbivore" then herb = true end
        end
        if plain <= 1 and herb then cap = #b.animals end
      end
      if #b.animals > cap then error(where .. ": a building over its capacity", 0) end
      animals = animals + #b.animals
    end
    if animals ~= #p.zoo then error(where .. ": animals in buildings " .. animals .. " vs zoo " .. #p.zoo, 0) end
    -- a released animal leaves the zoo and takes its appeal: counted back in, the rest never drops
    now[i] = { p.appeal + (p.released_appeal or 0), p.cp, p.rep, #p.buildings, #p.zoo + (p.released or 0) }
    if prev[i] then for k = 1, 5 do if now[i][k] < prev[i][k] then error(where .. ": a count went down (" .. k .. ")", 0) end end end
  end
  last[s] = now
end

-- manifest -----------------------------------------------------------------------------------
test("arknova: data manifest: 58-hex map, 10 buildings, 128 animals by class, 64 sponsors, 12 projects, 11 final cards", function()
  t.eq(#D.HEXES, 58)
  local per = {}
  for _, h in ipairs(D.HEXES) do per[h.name:sub(1, 1)] = (per[h.name:sub(1, 1)] or 0) + 1 end
  t.eq(per, { a = 6, b = 7, c = 6, d = 7, e = 6, f = 7, g = 6, h = 7, i = 6 })
  local border = 0
  for i = 1, #D.HEXES do if G.BORDER[i] then border = border + 1 end end
  t.eq(border, 26, "columns a and i, and the top and bottom hex of b-h")
  t.eq(#D.BUILDINGS, 10)
  local sizes = {}
  for _, b in ipairs(D.BUILDINGS) do sizes[#sizes + 1] = #b.shape end
  t.eq(sizes, { 1, 2, 3, 4, 5, 1, 1, 3, 5, 5 })
  -- each shape by the steps between its hexes (the same under any turn): 3 a triangle, 4 a
  -- rhombus, the Petting Zoo a bent row of 3, and so on (RULES.md: the shapes of an open
  -- implementation); a moved hex changes these
  local sig = {}
  for _, b in ipairs(D.BUILDINGS) do
    local ds = {}
    for i = 1, #b.shape do
      for j = i + 1, #b.shape do
        ds[#ds + 1] = 0
        local dq, dr = b.shape[i][1] - b.shape[j][1], b.shape[i][2] - b.shape[j][2]
        ds[#ds] = (math.abs(dq) + math.abs(dr) + math.abs(dq + dr)) // 2
      end
    end
    table.sort(ds)
    sig[b.id] = table.concat(ds, " ")
  end
  t.eq(sig, { e1 = "", e2 = "1", e3 = "1 1 1", e4 = "1 1 1 1 1 2", e5 = "1 1 1 1 1 1 1 2 2 2", kiosk = "", pavilion = "",
    petting = "1 1 2", reptile = "1 1 1 1 1 1 2 2 2 2", aviary = "1 1 1 1 1 1 2 2 2 2" })
  local animals, sponsors, by_class, by_cont, nums = 0, 0, {}, {}, {}
  local cost, appeal, levels = 0, 0, 0
  local projects = 0
  for _, c in ipairs(D.CARDS) do
    nums[#nums + 1] = c.num
    if c.project then projects = projects + 1
    elseif c.sponsor then sponsors = sponsors + 1; levels = levels + c.level
    else
      animals = animals + 1
      local k = c.class == "" and "petting" or c.class
      by_class[k] = (by_class[k] or 0) + 1
      if c.cont ~= "" then by_cont[c.cont] = (by_cont[c.cont] or 0) + 1 end
      cost, appeal = cost + c.cost, appeal + c.appeal
      t.ok((c.size == 0) == (c.flags:find("P") ~= nil), c.name .. ": petting-zoo animals and only they have no size")
      t.ok(c.size <= 5 and c.rock <= 2 and c.water <= 2, c.name)
    end
  end
  t.eq(animals, 128); t.eq(sponsors, 64); t.eq(projects, 20); t.eq(#D.CARDS, 212)
  t.eq(by_class, { predator = 25, herbivore = 25, primate = 18, reptile = 25, bird = 25, petting = 10 })
  t.eq(by_cont, { AF = 26, EU = 20, AS = 26, AM = 26, AU = 20 })
  table.sort(nums)
  for i, k in ipairs(nums) do
    t.eq(k, i <= 20 and 112 + i or i <= 84 and 180 + i or 316 + i, "card numbers 113-132, 201-264 and 401-528")
  end
  -- pinned from our entry (three sources, the majority where they differ; RULES.md): a changed
  -- number anywhere changes these sums
  t.eq(cost, 1845, "sum of animal costs"); t.eq(appeal, 659, "sum of animal appeal"); t.eq(levels, 284, "sum of sponsor levels")
  t.eq(#D.PROJECTS, 12); t.eq(#D.FINALS, 11); t.eq(#D.ACTIONS, 5)
  t.eq(D.BREAK_LENGTH, { [2] = 9, [3] = 12, [4] = 15 })
  t.eq({ D.MAX_APPEAL, D.MAX_CP, D.MAX_REP, D.MAX_X, D.MAX_WORKERS, D.START_MONEY }, { 113, 41, 15, 5, 4, 25 })
  t.eq({ D.cp_value(0), D.cp_value(10), D.cp_value(11), D.cp_value(20) }, { 0, 20, 23, 50 })
  -- the tables of games/arknova/SOURCES.md: each `check` line there is what the sources give;
  -- our data must give the same, value for value
  local src = assert(io.open(t.root() .. "/games/arknova/SOURCES.md")):read("a")
  local checks = {}
  for key, vals in src:gmatch("\n%s*check ([%w_%- ]+): ([^\n]+)") do checks[key] = vals end
  local function income(a) local m = 0 for _, r in ipairs(D.INCOME) do if a >= r[1] then m = r[2] end end return m end
  local want, prev = {}, nil
  for a = 0, D.MAX_APPEAL do if income(a) ~= prev then want[#want + 1] = a .. "=" .. income(a); prev = income(a) end end
  t.eq(table.concat(want, " "), checks.income, "appeal income by the printed track")
  local rb = {}
  for k = 1, D.MAX_REP do if D.REP_BONUS[k] then rb[#rb + 1] = k .. "=" .. D.REP_BONUS[k] end end
  t.eq(table.concat(rb, " "), checks.rep_bonus, "reputation track bonuses")
  t.eq(table.concat(D.REP_RANGE, " "), checks.rep_range, "reputation range")
  local sa = {}
  for seat = 1, 4 do sa[#sa + 1] = seat .. "=" .. D.start_appeal(seat) end
  t.eq(table.concat(sa, " "), checks.start_appeal, "starting appeal by seat")
  t.eq(tostring(D.CROSSING), checks.crossing)
  for side, key in pairs({ [false] = "cards_1", [true] = "cards_2" }) do
    local rows = {}
    for k, r in ipairs(D.CARDS_TABLE[side]) do rows[#rows + 1] = k .. "=" .. r[1] .. "-" .. r[2] .. (r.snap and "s" or "") end
    t.eq(table.concat(rows, " "), checks[key], "the Cards action table, " .. key)
  end
  local nfinal = 0
  for _, f in ipairs(D.FINALS) do
    nfinal = nfinal + 1
    t.eq(f.steps and table.concat(f.steps, " ") or "-", checks["final " .. f.id], f.name)
  end
  t.eq(nfinal, 11)
end)

-- playouts -----------------------------------------------------------------------------------
test("arknova: 24 fast random playouts (2-4 players) conserve the 212 cards, keep limits, the map and monotone tracks", function()
  rt.playouts(G, { games = 24, seed = 7, light = true, invariant = invariant, max_steps = 4000 })
  -- an empty deck is refilled from the shuffled discard pile (AN-K5)
  local s = fresh(3, 9)
  local p = s.players[1]
  set_hand(s, 1, {})
  for _, c in ipairs(s.deck) do s.discard[#s.discard + 1] = c end
  s.deck = {}
  slots(s, 1, { "animals", "cards", "build", "association", "sponsors" })
  assert(G.apply(s, 1, "cards"))   -- strength 2: draw 1
  t.eq(#p.hand, 1, "drawn from the reshuffled discard pile"); t.ok(#s.deck > 0 and #s.discard == 0)
  -- the tracks stop at their ends (AN-T4)
  p.cp = 40; G.gain_cp(s, 1, 3); t.eq(p.cp, D.MAX_CP)
end)

test("arknova: full checks (actions, illegal ids, serialization, hidden information, determinism) on 3 playouts", function()
  rt.playouts(G, { games = 3, seed = 8, hidden_every = 9, invariant = invariant, max_steps = 4000 })
end)

-- setup --------------------------------------------------------------------------------------
test("arknova: setup: 8 cards kept down to 4, 2 final cards down to 1, 25 money, Animals in slot 1, 6 on display, 3 projects (4 with 4)", function()
  local s = G.setup(3, 5)
  t.eq(#s.display, 6); t.eq(#s.projects, 3); t.eq(#s.deck, NCARDS - 24 - 6)
  for i = 1, 3 do
    local p = s.players[i]
    t.eq(#p.hand, 8); t.eq(#p.finals, 2); t.eq(p.money, 25); t.eq(p.slots[1], "animals"); t.eq(p.workers, 1)
    t.eq({ p.rep, p.cp }, { 0, 0 }, "reputation and conservation start at 0 (SOURCES.md)")
  end
  t.eq(G.current_seats(s), { 1 })
  t.eq(count(s, 1, "^discard:"), 8)
  for k = 1, 4 do assert(G.apply(s, 1, G.legal_actions(s, 1)[1].id)); if k < 4 then t.eq(count(s, 1), 8 - k) end end
  t.eq(#s.discard, 0, "set aside face down until every seat has chosen"); t.eq(#s.players[1].set_aside, 4)
  t.eq(ids(G.legal_actions(s, 1)), { "final:" .. s.players[1].finals[1], "final:" .. s.players[1].finals[2] })
  assert(G.apply(s, 1, "final:" .. s.players[1].finals[2]))
  t.eq(#s.players[1].finals, 1); t.eq(G.current_seats(s), { 2 })
  t.eq(#G.setup(4, 5).projects, 4)
  t.eq(#G.setup(2, 5, { deck = "animals" }).deck, 128 - 16 - 6)
  t.raises(function() G.setup(3, 5, { deck = "marine" }) end, "deck must be")
  t.raises(function() G.setup(5, 5) end, "2 to 4 players")
end)

-- action cards -------------------------------------------------------------------------------
test("arknova: action strength is the slot (+1 per X spent); a used card goes to slot 1 and pushes the others right; X-token action", function()
  local s = fresh(3, 2)
  slots(s, 1, { "animals", "build", "cards", "association", "sponsors" })
  local p = s.players[1]
  p.x = 2
  set_hand(s, 1, {})
  for k, a in ipairs(p.slots) do t.eq(G.strength(p, a), k, "slot " .. k .. ": strength " .. k) end
  -- the cards card at slot 3, with 0..2 X: strengths 3, 4, 5
  t.ok(has(G.legal_actions(s, 1), "cards") and has(G.legal_actions(s, 1), "cards+1") and has(G.legal_actions(s, 1), "cards+2"))
  t.ok(not has(G.legal_actions(s, 1), "cards+3"), "no more X than held")
  t.eq(count(s, 1, "^x:"), 5, "the X-token action with any of the five cards")
  t.contains(G.legal_actions(s, 1)[1].label, "strength")
  assert(G.apply(s, 1, "cards+2"))  -- strength 5, side I: may snap or draw 3, discard 1
  t.eq(p.x, 0)
  t.eq(p.slots, { "cards", "animals", "build", "association", "sponsors" })
  t.eq(s.step.k, "snap")
  -- the X-token action: the card moves to slot 1, one X gained; never above 5
  s = fresh(3, 2)
  slots(s, 1, { "animals", "build", "cards", "association", "sponsors" })
  assert(G.apply(s, 1, "x:association"))
  t.eq(s.players[1].x, 1); t.eq(s.players[1].slots, { "association", "animals", "build", "cards", "sponsors" })
  t.eq(G.current_seats(s), { 2 })
  s = fresh(3, 2); s.players[1].x = 5
  assert(G.apply(s, 1, "x:sponsors")); t.eq(s.players[1].x, 5)
end)

test("arknova: upgrades: a CP-2 bonus offers an upgrade or a worker; side II changes the action (Build II, Animals II, Sponsors II)", function()
  local s = fresh(3, 3)
  G.gain_cp(s, 1, 2)
  t.eq(G.current_seats(s), { 1 })
  t.eq(count(s, 1, "^upgrade:"), 5); t.ok(has(G.legal_actions(s, 1), "worker"))
  assert(G.apply(s, 1, "upgrade:build"))
  t.ok(s.players[1].up.build)
  -- reputation 5 offers an upgrade only, of the four cards left (the reputation track: its own test)
  s.players[1].rep = 4
  G.gain_rep(s, 1, 1)
  t.eq(count(s, 1), 4); t.ok(not has(G.legal_actions(s, 1), "worker"))
  assert(G.apply(s, 1, "upgrade:animals"))
  -- conservation 10: an X-token
  s.players[1].cp = 9; G.gain_cp(s, 1, 1); t.eq(s.players[1].x, 1)
  t.eq(s.step.k, "turn")
end)

-- issue 42: the printed tracks, the Cards table, the setup and the break ----------------------
test("arknova: reputation track as printed: 5 an upgrade, 8 a worker, 10 and 13 a card from the deck or within range, 11 and 14 1 CP, 12 and 15 an X-token", function()
  local s = fresh(3, 3)
  local p = s.players[1]
  p.up.cards = true                            -- past 9
  p.rep, p.workers, p.cp, p.x = 4, 1, 0, 0
  G.gain_rep(s, 1, 1)                          -- 5: an upgrade, no worker
  t.eq(G.current_seats(s), { 1 }); t.eq(count(s, 1, "^upgrade:"), 4); t.ok(not has(G.legal_actions(s, 1), "worker"))
  assert(G.apply(s, 1, "upgrade:build"))
  G.gain_rep(s, 1, 3)                          -- 6, 7, 8: a worker at 8
  t.eq(p.rep, 8); t.eq(p.workers, 2); t.eq(p.cp, 0); t.eq(p.x, 0); t.eq(s.step.k, "turn")
  local hand = #p.hand
  G.gain_rep(s, 1, 1)                          -- 9: nothing
  t.eq(#p.hand, hand); t.eq(G.current_seats(s), { 1 }); t.eq(s.step.k, "turn"); t.eq(#s.pend, 0)
  G.gain_rep(s, 1, 1)                          -- 10: a card from the deck or within reputation range (folders 1-5)
  t.eq(s.pend[1].f, "take-card"); t.eq(count(s, 1, "^take:"), 5); t.ok(has(G.legal_actions(s, 1), "draw"))
  assert(G.apply(s, 1, "draw")); t.eq(#p.hand, hand + 1)
  G.gain_rep(s, 1, 1); t.eq(p.cp, 1, "11: 1 CP")
  G.gain_rep(s, 1, 1); t.eq(p.x, 1, "12: an X-token")
  G.gain_rep(s, 1, 1); t.eq(s.pend[1].f, "take-card", "13: a card"); assert(G.apply(s, 1, "take:1")); t.eq(#p.hand, hand + 2)
  G.gain_rep(s, 1, 1); t.eq(p.cp, 2, "14: 1 CP")
  G.gain_rep(s, 1, 1); t.eq(p.x, 2, "15: an X-token")
  t.eq(p.workers, 2, "one worker only (8)")
end)

test("arknova: reputation range: folder 1 at reputation 0-1, 1-2 at 2-3, 1-3 at 4-6, 1-4 at 7-9, 1-5 at 10-12, all six at 13-15", function()
  local s = fresh(3, 3)
  local p = s.players[1]
  local got = {}
  for r = 0, 15 do p.rep = r; got[#got + 1] = G.reach(p) end
  t.eq(got, { 1, 1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6 })
end)

test("arknova: appeal income follows the printed track: 5 at 0, 10 at 5, 16 at 17, 21 at 32, 27 at 56, 35 at 96, 37 at 113", function()
  local s = fresh(3, 3)
  local p = s.players[1]
  local want = { [0] = 5, [4] = 9, [5] = 10, [6] = 10, [7] = 11, [16] = 15, [17] = 16, [19] = 16, [20] = 17, [31] = 20,
    [32] = 21, [43] = 23, [55] = 26, [56] = 27, [75] = 30, [76] = 31, [95] = 34, [96] = 35, [101] = 35, [102] = 36, [113] = 37 }
  for a, m in pairs(want) do p.appeal = a; t.eq(G.income_of(p), m, "income at appeal " .. a) end
  -- one more per step within each stretch, never less with more appeal
  local prev = 0
  for a = 0, D.MAX_APPEAL do p.appeal = a; local m = G.income_of(p); t.ok(m == prev or m == prev + 1 or a == 0, a); prev = m end
end)

test("arknova: the Cards action table as printed: side I draws 1-1, 1, 2-1, 2, 3-1 or snap; side II 1, 2-1, 2 or snap, 3-1 or snap, 4-1 or snap", function()
  local want = { [false] = { { 1, 1 }, { 1, 0 }, { 2, 1 }, { 2, 0 }, { 3, 1, true } },
    [true] = { { 1, 0 }, { 2, 1 }, { 2, 0, true }, { 3, 1, true }, { 4, 1, true } } }
  for _, up in ipairs({ false, true }) do
    for k = 1, 5 do
      local s = fresh(3, 7)
      local p = s.players[1]
      p.up.cards = up
      set_hand(s, 1, {})
      local order = { "animals", "build", "association", "sponsors" }
      table.insert(order, k, "cards")
      slots(s, 1, order)
      assert(G.apply(s, 1, "cards"))
      local w = want[up][k]
      local where = (up and "II" or "I") .. " at " .. k
      if s.step.k == "snap" then
        t.ok(w[3], where .. ": a snap offered")
        t.eq(count(s, 1, "^snap:"), 6, where .. ": any display card")
        assert(G.apply(s, 1, "draw"))
      else t.ok(not w[3], where .. ": no snap") end
      t.eq(#p.hand, w[1], where .. ": drawn")
      t.eq(count(s, 1, "^discard:"), w[2] > 0 and w[1] or 0, where .. ": discard offered")
      if w[2] > 0 then assert(G.apply(s, 1, "discard:" .. p.hand[1])) end
      t.eq(#p.hand, w[1] - w[2], where .. ": kept"); t.eq(G.current_seats(s), { 2 }, where)
    end
  end
end)

test("arknova: starting appeal by seat order: the start player 0, the next 1, 2, 3", function()
  for n = 2, 4 do
    local s = G.setup(n, 5)
    for seat = 1, n do t.eq(s.players[seat].appeal, seat - 1, n .. " players, seat " .. seat) end
  end
end)

test("arknova: setup discards are simultaneous and hidden: no seat sees another's discards until every seat has chosen", function()
  -- seat 1 discards its first four cards in one match and its last four in another: seat 2's
  -- observation (and legal actions) must be the same in both
  local function after_seat1(which)
    local s = G.setup(3, 21)
    local hand = kit.copy(s.players[1].hand)
    for k = 1, 4 do assert(G.apply(s, 1, "discard:" .. hand[which == "first" and k or 8 - k + 1])) end
    assert(G.apply(s, 1, "final:" .. s.players[1].finals[1]))
    return s
  end
  local a, b = after_seat1("first"), after_seat1("last")
  t.eq(G.current_seats(a), { 2 })
  t.eq(#a.discard, 0, "nothing on the discard pile yet")
  t.eq(G.render(G.observation(a, 2)), G.render(G.observation(b, 2)), "seat 2 sees the same whatever seat 1 discarded")
  t.eq(json.encode(G.observation(a, 3)), json.encode(G.observation(b, 3)))
  t.eq(ids(G.legal_actions(a, 2)), ids(G.legal_actions(b, 2)))
  t.eq(#G.observation(a, 1).players[1].set_aside, 4, "seat 1 sees its own set-aside cards")
  t.contains(G.render(G.observation(a, 1)), "set aside")
  -- determinization from seat 2 deals seat 1's set-aside cards afresh (they are unseen)
  local moved = false
  for k = 1, 20 do
    local d = G.determinize(a, 2, kit.generator(k))
    if json.encode(d.players[1].set_aside) ~= json.encode(a.players[1].set_aside) then moved = true end
  end
  t.ok(moved, "seat 1's set-aside cards are not known to seat 2")
  -- once every seat has chosen, all twelve go to the discard pile (public, our reading: RULES.md)
  for seat = 2, 3 do
    for _ = 1, 4 do assert(G.apply(a, seat, G.legal_actions(a, seat, true)[1].id)) end
    if seat == 2 then t.eq(#a.discard, 0) end
    assert(G.apply(a, seat, G.legal_actions(a, seat, true)[1].id))
  end
  t.eq(#a.discard, 12); t.eq(a.step.k, "turn")
  for i = 1, 3 do t.eq(#a.players[i].set_aside, 0); t.eq(#a.players[i].hand, 4) end
end)

test("arknova: the hand limit is the break's first step: a Science Lab's income card comes after the discards", function()
  local s = fresh(3, 11)
  local p = s.players[2]
  waive(s)
  p.sponsors = { "s201" }                      -- Science Lab: at each break a card from the deck or within range
  set_hand(s, 2, { "a406", "a407", "a408", "a409" })   -- 4 cards, limit 3
  set_hand(s, 3, { "a410", "a411", "a412" })           -- at the limit
  s.brk = 11
  slots(s, 1, { "animals", "build", "cards", "association", "sponsors" })
  set_hand(s, 1, {})
  assert(G.apply(s, 1, "sponsors")); assert(G.apply(s, 1, "break"))   -- the break is due after this turn
  local who, n = G.current_seats(s)[1], count(s, 2, "^discard:")
  t.eq(who, 2); t.eq(n, 4, "seat 2 discards from its own 4 cards, before the Science Lab's card")
  assert(G.apply(s, 2, "discard:a406"))
  t.eq(s.pend[1] and s.pend[1].f, "take-card", "then the income: the Science Lab's card")
  assert(G.apply(s, 2, "draw"))
  t.eq(#p.hand, 4, "3 kept and the income card")
end)

-- build --------------------------------------------------------------------------------------
test("arknova: build: the first building touches the map edge: 17 free edge hexes for each 1-hex building at strength 1", function()
  local s = fresh(3, 4)
  slots(s, 1, { "build", "animals", "cards", "association", "sponsors" })
  assert(G.apply(s, 1, "build"))
  t.eq(ids(G.legal_actions(s, 1)), { "build:e1", "build:kiosk", "build:pavilion" }, "size 1 only, no stop before building")
  assert(G.apply(s, 1, "build:e1"))
  -- 26 edge hexes less e1 (rock), d7 (water), i1-i6 and h7 (Build II only)
  t.eq(count(s, 1, "^place:"), 17)
  t.ok(not has(G.legal_actions(s, 1), "place:e1:0") and not has(G.legal_actions(s, 1), "place:i3:0") and not has(G.legal_actions(s, 1), "place:c3:0"))
  assert(G.apply(s, 1, "place:a6:0"))
  local p = s.players[1]
  t.eq(p.money, 23, "2 money per hex"); t.eq(p.rep, 1, "a6 bonus: +1 reputation")
  t.eq(#p.buildings, 1); t.eq(G.current_seats(s), { 2 }, "Build I: one building")
end)

test("arknova: build: later buildings touch one already built; rock, water and covered hexes never; Build II hexes and the two houses need side II", function()
  local s = fresh(3, 4)
  local p = s.players[1]
  p.money = 100
  put(s, 1, "e1", { "c3" })
  slots(s, 1, { "animals", "cards", "association", "sponsors", "build" })
  assert(G.apply(s, 1, "build"))  -- strength 5
  local types = ids(G.legal_actions(s, 1))
  t.eq(types, { "build:e1", "build:e2", "build:e3", "build:e4", "build:e5", "build:kiosk", "build:pavilion", "build:petting" })
  assert(G.apply(s, 1, "build:e1"))
  -- c3's neighbours: b3, c2, d3, d4 (b4 and c4 are rock)
  local places = {}
  for _, a in ipairs(G.legal_actions(s, 1)) do places[#places + 1] = a.id end
  table.sort(places)
  t.eq(places, { "place:b3:0", "place:c2:0", "place:d3:0", "place:d4:0" })
  -- not upgraded: the i-column (Build II) hexes next to h5 are not offered
  s = fresh(3, 4)
  p = s.players[1]; p.money = 100
  put(s, 1, "e1", { "h5" })
  slots(s, 1, { "animals", "cards", "association", "sponsors", "build" })
  assert(G.apply(s, 1, "build")); assert(G.apply(s, 1, "build:e1"))
  t.ok(not has(G.legal_actions(s, 1), "place:i4:0") and not has(G.legal_actions(s, 1), "place:i5:0") and has(G.legal_actions(s, 1), "place:h4:0"),
    "Build-II hexes need the upgraded Build card")
  -- upgraded: the aviary and reptile house appear, i-column hexes become buildable
  s = fresh(3, 4)
  p = s.players[1]; p.money = 100; p.up.build = true
  put(s, 1, "e1", { "h5" })
  slots(s, 1, { "animals", "cards", "association", "sponsors", "build" })
  assert(G.apply(s, 1, "build"))
  t.ok(has(G.legal_actions(s, 1), "build:aviary") and has(G.legal_actions(s, 1), "build:reptile"))
  assert(G.apply(s, 1, "build:e1"))
  t.ok(has(G.legal_actions(s, 1), "place:i4:0") and has(G.legal_actions(s, 1), "place:i5:0"))
  -- side II: several different buildings, total size <= strength
  assert(G.apply(s, 1, "place:i4:0"))
  t.eq(s.step.k, "build"); t.eq(s.step.left, 4)
  t.ok(not has(G.legal_actions(s, 1), "build:e1"), "not the same type twice")
  t.ok(has(G.legal_actions(s, 1), "stop") and not has(G.legal_actions(s, 1), "build:e5"))
  assert(G.apply(s, 1, "build:e4"))
  assert(G.apply(s, 1, G.legal_actions(s, 1)[1].id))
  t.eq(G.current_seats(s), { 2 }, "nothing of size 0 is left")
end)

test("arknova: build: kiosks at least 3 apart; one Petting Zoo per zoo; a pavilion gives 1 appeal; footprints are turns of the shape", function()
  local s = fresh(3, 4)
  local p = s.players[1]
  p.money = 100
  put(s, 1, "kiosk", { "a3" })
  for _, f in ipairs(G.FOOT.kiosk) do
    local d = G.distance(f.hexes[1], H.a3)
    local ok = G.can_place(p, "kiosk", f, false)
    if d < 3 then t.ok(not ok, "kiosk too close at " .. G.hex_name(f.hexes[1])) end
  end
  t.eq(G.distance(H.a1, H.a4), 3); t.eq(G.distance(H.a3, H.b3), 1)
  -- a zoo with buildings all around a kiosk at c3: every free space that touches a building takes
  -- a kiosk exactly when it is 3 or more steps from c3 (spaces 1, 2 and 3 steps away all tried)
  local z = fresh(3, 4)
  local zp = z.players[1]
  put(z, 1, "kiosk", { "c3" })
  for _, nm in ipairs({ "b1", "b2", "b3", "b5", "b6", "d1", "d2", "d3", "d4", "d5", "d6", "e2", "e3", "e4" }) do put(z, 1, "e1", { nm }) end
  local b2 = {}
  for _, nm in ipairs(D.MAP.build2) do b2[H[nm]] = true end
  local tried = {}
  for _, f in ipairs(G.FOOT.kiosk) do
    local h = f.hexes[1]
    local touch = false
    for _, j in ipairs(G.NB[h]) do if zp.cover[j] ~= 0 then touch = true end end
    if zp.cover[h] == 0 and not G.TERRAIN[h] and not b2[h] and touch then
      local d = G.distance(h, H.c3)
      t.eq(G.can_place(zp, "kiosk", f, false), d >= 3, "a kiosk at " .. G.hex_name(h) .. ", " .. d .. " steps from c3")
      tried[d] = true
    end
  end
  t.ok(tried[1] and tried[2] and tried[3], "spaces 1, 2 and 3 steps away are all tried")
  put(s, 1, "petting", { "c1", "c2", "d2" })
  local types = G.build_types(p, 5)
  for _, x in ipairs(types) do t.ok(x ~= "petting", "a second petting zoo") end
  -- one footprint per distinct set of hexes: 1-hex buildings 58, size 2 at most 3 turns per hex
  t.eq(#G.FOOT.e1, 58); t.eq(#G.FOOT.kiosk, 58)
  -- a shape without symmetry covers an inner hex in 6 turns x its size ways (each of its hexes on
  -- it, in each turn; a mirror image would double that)
  for _, typ in ipairs({ "e5", "petting", "aviary" }) do
    local n = 0
    for _, f in ipairs(G.FOOT[typ]) do for _, h in ipairs(f.hexes) do if h == G.HEXID.e3 then n = n + 1 end end end
    t.eq(n, 6 * #G.BUILD[typ].shape, typ .. ": six turns over e3")
  end
  t.ok(#G.FOOT.e2 < 58 * 3 + 1 and #G.FOOT.e2 > 100)
  s = fresh(3, 4)
  slots(s, 1, { "build", "animals", "cards", "association", "sponsors" })
  assert(G.apply(s, 1, "build")); assert(G.apply(s, 1, "build:pavilion")); assert(G.apply(s, 1, "place:a2:0"))
  t.eq(s.players[1].appeal, 1)
end)

-- animals ------------------------------------------------------------------------------------
test("arknova: animals: size, rock and water next to the enclosure, petting zoo, reptile house, aviary; one animal per standard enclosure", function()
  local s = fresh(3, 5)
  local p = s.players[1]
  p.money = 200
  local e3 = put(s, 1, "e3", { "b3", "c2", "c3" })      -- touches rock b4, c4
  local e2 = put(s, 1, "e2", { "f3", "f4" })            -- touches water g2? (f3's neighbours)
  local pz = put(s, 1, "petting", { "h4", "h5", "g5" })
  local rh = put(s, 1, "reptile", { "d4", "d5", "e4", "e5", "f5" })
  local av = put(s, 1, "aviary", { "a1", "a2", "b1", "b2", "c1" })
  t.eq(G.touching(p.buildings[e3], "rock"), 2)
  local C = G.CARD
  t.ok(G.fits(p, C.a403, e3), "Leopard: size 3, 1 rock")
  t.ok(not G.fits(p, C.a402, e3), "Lion needs 4")
  t.ok(G.fits(p, C.a404, e3), "a smaller animal fits a larger enclosure")
  t.eq(G.touching(p.buildings[e2], "water") >= 1, true)
  t.ok(G.fits(p, C.a430, e2), "Pygmy Hippo: size 2, 1 water")
  t.ok(not G.fits(p, C.a444, e2), "Alpine Ibex needs rock")
  t.ok(G.fits(p, C.a519, pz) and not G.fits(p, C.a519, e3), "a goat only in the petting zoo")
  t.ok(not G.fits(p, C.a420, pz), "a stoat not in the petting zoo")
  t.ok(G.fits(p, C.a469, rh) and not G.fits(p, C.a470, av), "reptiles in the reptile house, not the aviary")
  t.ok(not G.fits(p, C.a494, rh), "a bird not in the reptile house")
  t.ok(G.fits(p, C.a494, av) and not G.fits(p, C.a497, av), "ostrich may live in the aviary, flamingo not")
  t.ok(not G.fits(p, C.s201, e3), "a sponsor is no animal")
  p.buildings[e3].animals = { "a404" }
  t.ok(not G.fits(p, C.a403, e3), "the enclosure is occupied")
  p.buildings[pz].animals = { "a520", "a521", "a522" }
  t.ok(not G.fits(p, C.a519, pz), "three in the petting zoo")
end)

test("arknova: animals action: I plays 0/1/1/1/2 by strength, II plays 1/1/2/2/2 (+1 rep at 5); cost less 3 with a partner zoo", function()
  t.eq(D.ANIMALS_PLAYS[false], { 0, 1, 1, 1, 2 }); t.eq(D.ANIMALS_PLAYS[true], { 1, 1, 2, 2, 2 })
  local s = fresh(3, 6)
  local p = s.players[1]
  p.money = 40
  waive(s)
  set_hand(s, 1, { "a405", "a420", "a406" })   -- fennec 8, stoat 4, siberian tiger 30 (size 5)
  top(s, { "s201" })                           -- the stoat hunts (1 card): a sponsor, no animal
  put(s, 1, "e1", { "a3" }); put(s, 1, "e1", { "a2" })
  slots(s, 1, { "animals", "build", "cards", "association", "sponsors" })
  t.ok(not has(G.legal_actions(s, 1), "animals"), "Animals I at strength 1 plays nothing")
  slots(s, 1, { "build", "cards", "association", "sponsors", "animals" })
  assert(G.apply(s, 1, "animals"))
  t.eq(ids(G.legal_actions(s, 1)), { "play:a405:1", "play:a405:2", "play:a420:1", "play:a420:2" })
  assert(G.apply(s, 1, "play:a405:1"))
  t.eq(p.money, 32); t.eq(p.appeal, 3)
  t.eq(ids(G.legal_actions(s, 1)), { "play:a420:2", "stop" })
  assert(G.apply(s, 1, "play:a420:2"))
  t.eq(p.appeal, 6)
  t.eq(s.discard[#s.discard], "s201", "the stoat's hunt found no animal: discarded")
  t.eq(G.current_seats(s), { 1 }, "the fennec fox's clever ability after the action")
  assert(G.apply(s, 1, "stop"))
  t.eq(G.current_seats(s), { 2 }, "two animals at strength 5")
  -- the partner discount and the reputation of a card
  s = fresh(3, 6); p = s.players[1]
  p.money = 8; p.partners = { "AS" }; p.up.animals = true
  set_hand(s, 1, { "a461" })                   -- tarsier: Asia, cost 14, 2 reputation
  put(s, 1, "e1", { "a3" })
  t.eq(G.animal_cost(p, G.CARD.a461), 11)
  t.eq(#G.animal_plays(p), 0, "11 > 8 money")
  p.money = 11
  slots(s, 1, { "build", "cards", "association", "sponsors", "animals" })
  assert(G.apply(s, 1, "animals"))
  t.eq(p.rep, 1, "side II at strength 5: +1 reputation")
  assert(G.apply(s, 1, "play:a461:1"))
  t.eq(p.money, 0 + 4, "paid 11; its jumping 4 gives 4"); t.eq(p.rep, 3); t.eq(p.appeal, 3)
  t.eq(G.count_icon(p, "AS"), 2, "the tarsier and the partner zoo")
  t.eq(G.count_icon(p, "primate"), 1)
end)

-- cards --------------------------------------------------------------------------------------
test("arknova: cards action: draw/discard by strength, snap any display card at 5 (II from 3), 2 spaces on the break track", function()
  local s = fresh(3, 7)
  local p = s.players[1]
  set_hand(s, 1, {})
  slots(s, 1, { "animals", "build", "cards", "association", "sponsors" })
  assert(G.apply(s, 1, "cards"))            -- strength 3: draw 2, discard 1
  t.eq(#p.hand, 2); t.eq(s.brk, 2)
  t.eq(count(s, 1, "^discard:"), 2)
  local c = p.hand[1]
  assert(G.apply(s, 1, "discard:" .. c))
  t.eq(#p.hand, 1); t.eq(s.discard[#s.discard], c); t.eq(G.current_seats(s), { 2 })
  -- strength 5: snap any display card (whatever the reputation) or draw
  s = fresh(3, 7); p = s.players[1]
  p.rep = 2
  slots(s, 1, { "animals", "build", "association", "sponsors", "cards" })
  assert(G.apply(s, 1, "cards"))
  t.eq(ids(G.legal_actions(s, 1)), { "draw", "snap:1", "snap:2", "snap:3", "snap:4", "snap:5", "snap:6" })
  local third, fourth = s.display[3], s.display[4]
  local before = #p.hand
  assert(G.apply(s, 1, "snap:3"))
  t.eq(#p.hand, before + 1); t.eq(p.hand[#p.hand], third); t.eq(s.display[3], fourth, "the display slides")
  t.eq(#s.display, 6)
  t.eq(G.observation(s, 2).players[1].known, { third }, "a snapped card is known to all")
  -- side II snaps from strength 3
  s = fresh(3, 7); s.players[1].up.cards = true
  slots(s, 1, { "animals", "build", "cards", "association", "sponsors" })
  assert(G.apply(s, 1, "cards")); t.eq(s.step.k, "snap")
end)

-- sponsors -----------------------------------------------------------------------------------
test("arknova: sponsors action: I one sponsor of level <= strength, II several up to strength + 1; or the break: k money (2k on II), k spaces", function()
  local s = fresh(3, 8)
  local p = s.players[1]
  waive(s)
  set_hand(s, 1, { "s205", "s231", "s201", "s210", "a401" })  -- levels 3, 3, 5, 4
  slots(s, 1, { "animals", "build", "sponsors", "association", "cards" })
  assert(G.apply(s, 1, "sponsors"))          -- strength 3
  t.eq(ids(G.legal_actions(s, 1)), { "sponsor:s205", "sponsor:s231", "break" }, "not the level-4 Expert on the Americas")
  local m0, x0, ap0 = p.money, p.x, p.appeal
  assert(G.apply(s, 1, "sponsor:s205"))
  t.eq(p.cp, 1); t.eq(p.rep, 2); t.eq(G.count_icon(p, "science"), 1)
  t.eq({ p.money, p.x, p.appeal }, { m0, x0, ap0 }, "Gorilla Field Research: its printed numbers only, no effect")
  t.eq(G.current_seats(s), { 2 }, "side I: one sponsor")
  s = fresh(3, 8); p = s.players[1]
  p.up.sponsors = true
  waive(s)
  set_hand(s, 1, { "s205", "s231", "s201" })
  slots(s, 1, { "animals", "build", "sponsors", "association", "cards" })
  assert(G.apply(s, 1, "sponsors"))          -- strength 3, side II: levels up to 4
  assert(G.apply(s, 1, "sponsor:s231"))
  t.eq(G.current_seats(s), { 2 }, "1 level left and s205 is level 3: the action ends")
  t.eq(G.count_icon(p, "primate"), 0, "a sponsorship card shows no icon (two of three sources)")
  p.sponsors[#p.sponsors + 1] = "s210"
  t.eq(G.count_icon(p, "AM"), 1, "a sponsor's continent icon counts (Expert on the Americas)")
  s = fresh(3, 8); p = s.players[1]
  p.up.sponsors = true
  waive(s)
  set_hand(s, 1, { "s205", "s231", "s201" })
  slots(s, 1, { "animals", "build", "cards", "association", "sponsors" })
  assert(G.apply(s, 1, "sponsors"))          -- strength 5, side II: levels up to 6
  assert(G.apply(s, 1, "sponsor:s205"))
  t.eq(ids(G.legal_actions(s, 1)), { "sponsor:s231", "stop" }, "3 levels left")
  assert(G.apply(s, 1, "sponsor:s231"))
  t.eq(#p.sponsors, 2); t.eq(G.current_seats(s), { 2 })
  -- the break alternative
  s = fresh(3, 8); p = s.players[1]
  set_hand(s, 1, {})
  slots(s, 1, { "animals", "build", "association", "sponsors", "cards" })
  local m = p.money
  assert(G.apply(s, 1, "sponsors")); t.eq(ids(G.legal_actions(s, 1)), { "break" })
  assert(G.apply(s, 1, "break")); t.eq(p.money, m + 4); t.eq(s.brk, 4)
  s = fresh(3, 8); p = s.players[1]; p.up.sponsors = true
  set_hand(s, 1, {})
  slots(s, 1, { "animals", "build", "association", "sponsors", "cards" })
  m = p.money
  assert(G.apply(s, 1, "sponsors")); assert(G.apply(s, 1, "break")); t.eq(p.money, m + 8)
end)

-- association --------------------------------------------------------------------------------
test("arknova: association: tasks by strength (2 rep, 3 partner zoo, 4 university, 5 project), a worker each; II several, donations 2/5/7", function()
  local s = fresh(3, 9)
  local p = s.players[1]
  slots(s, 1, { "animals", "build", "cards", "sponsors", "association" })
  assert(G.apply(s, 1, "association"))       -- strength 5, side I, no icons for a project
  t.eq(ids(G.legal_actions(s, 1)), { "rep", "partner:AF", "partner:EU", "partner:AS", "partner:AM", "partner:AU", "uni:u1", "uni:u2", "uni:u3" })
  assert(G.apply(s, 1, "uni:u2"))
  t.eq(p.unis, { "u2" }); t.eq(p.busy, 1); t.eq(G.hand_limit(p), 5); t.eq(G.current_seats(s), { 2 })
  t.eq(G.count_icon(p, "science"), 1)
  p.unis = { "u3" }; t.eq(G.count_icon(p, "science"), 2, "the third university shows two science icons"); p.unis = { "u2" }
  -- no free worker: the association card is not usable even at strength 5 (the X-token action still is)
  s.turn = 1; s.step = { k = "turn" }
  slots(s, 1, { "animals", "build", "cards", "sponsors", "association" })
  t.ok(not has(G.legal_actions(s, 1), "association") and has(G.legal_actions(s, 1), "x:association"))
  -- a free worker, the card in slot 1: no task needs strength 1 (side I: no donation), so the
  -- action is offered only with an X-token (strength 2: reputation)
  p.busy = 0; p.x = 1
  slots(s, 1, { "association", "animals", "build", "cards", "sponsors" })
  t.ok(not has(G.legal_actions(s, 1), "association") and has(G.legal_actions(s, 1), "association+1"), "offered only where it can do something")
  -- side II: several different tasks within the strength, one donation per action
  s = fresh(3, 9); p = s.players[1]
  p.up.association = true; p.workers = 3; p.money = 30
  slots(s, 1, { "animals", "build", "cards", "sponsors", "association" })
  assert(G.apply(s, 1, "association"))
  assert(G.apply(s, 1, "rep")); t.eq(p.rep, 2); t.eq(s.step.left, 3)
  t.ok(not has(G.legal_actions(s, 1), "rep") and has(G.legal_actions(s, 1), "partner:EU") and not has(G.legal_actions(s, 1), "uni:u1"))
  assert(G.apply(s, 1, "donate")); t.eq(p.money, 28); t.eq(p.cp, 1); t.eq(s.donations, 1)
  t.ok(not has(G.legal_actions(s, 1), "donate"), "one donation per action")
  assert(G.apply(s, 1, "partner:EU"))
  t.eq(G.current_seats(s), { 2 }, "strength used up")
  t.eq(D.DONATIONS[2], 5)
  -- after two donations the next costs 7
  s = fresh(3, 9); p = s.players[1]
  p.up.association = true; p.money = 30; s.donations = 2
  slots(s, 1, { "animals", "build", "cards", "sponsors", "association" })
  assert(G.apply(s, 1, "association")); assert(G.apply(s, 1, "donate")); t.eq(p.money, 23, "the third donation costs 7")
  -- partner zoos: two on side I
  p.partners = { "EU", "AF" }; p.up.association = false; p.busy = 0
  t.eq(#G.assoc_tasks(s, 1, 5, {}) - #G.assoc_tasks(s, 1, 2, {}), 3, "only the universities beyond reputation")
end)

test("arknova: conservation projects: icons needed per level (predators 5/4/2 for 5/4/2 CP), one seat per level, once per project per seat", function()
  local s = fresh(3, 10)
  s.projects = { { id = "p110", levels = { 0, 0, 0 } } }
  local p = s.players[1]
  p.zoo = { "a412", "a402", "a404", "a405" }    -- four predators
  p.buildings = {}
  for i, c in ipairs(p.zoo) do put(s, 1, "e" .. 4, { ({ "a1", "a3", "a5", "c1" })[i] }, { c }) end
  local tasks = G.assoc_tasks(s, 1, 5, {})
  t.ok(has({ { id = tasks[#tasks] } }, "project:p110:3"))
  local pr = {}
  for _, x in ipairs(tasks) do if x:find("^project") then pr[#pr + 1] = x end end
  t.eq(pr, { "project:p110:2", "project:p110:3" })
  slots(s, 1, { "animals", "build", "cards", "sponsors", "association" })
  assert(G.apply(s, 1, "association")); assert(G.apply(s, 1, "project:p110:2"))
  t.eq(p.cp, 4); t.eq(s.projects[1].levels, { 0, 1, 0 }); t.eq(p.supported, { "p110" })
  local none = {}
  p.busy = 0   -- a free worker: only the project rule keeps the tasks out
  for _, x in ipairs(G.assoc_tasks(s, 1, 5, {})) do if x:find("^project") then none[#none + 1] = x end end
  t.eq(none, {}, "not the same project twice")
  local q = s.players[2]
  q.zoo = { "a403", "a410", "a413", "a420" }    -- four predators: enough for level 2, which is taken
  for i, c in ipairs(q.zoo) do put(s, 2, "e4", { ({ "a1", "a3", "a5", "c1" })[i] }, { c }) end
  local theirs = {}
  for _, x in ipairs(G.assoc_tasks(s, 2, 5, {})) do if x:find("^project") then theirs[#theirs + 1] = x end end
  t.eq(theirs, { "project:p110:3" }, "level 2 is taken by seat 1, level 1 needs 5")
end)

-- break --------------------------------------------------------------------------------------
test("arknova: the break: at the end of the track after the turn; trigger seat +1 X; income (appeal + kiosks); workers back; display 1-2 out; hand limit", function()
  local s = fresh(3, 11)
  local p, q = s.players[1], s.players[2]
  p.appeal = 10; q.appeal = 0
  put(s, 2, "kiosk", { "a3" }); put(s, 2, "e1", { "a2" }, { "a401" }); put(s, 2, "e2", { "b3", "b2" }); put(s, 2, "kiosk", { "a6" })
  t.eq(G.income_of(q), 5 + 1, "5 at appeal 0, the kiosk at a3 touches an occupied and an empty enclosure, the one at a6 none")
  t.eq(G.income_of(p), 12, "appeal 10: 10 at 5, one more per 2 appeal")
  p.busy = 1
  set_hand(s, 3, { "a401", "a402", "a403", "a404", "a405" })
  set_hand(s, 2, { "a406", "a407", "a408" })
  s.brk = 10
  local d1, d3 = s.display[1], s.display[3]
  local m1, m2 = p.money, q.money
  slots(s, 1, { "cards", "animals", "build", "association", "sponsors" })
  set_hand(s, 1, {})
  assert(G.apply(s, 1, "cards"))              -- +2: 12, the break is due; draw 1 discard 1 (strength 1)
  t.eq(p.x, 1, "the seat that triggers it takes an X-token")
  assert(G.apply(s, 1, G.legal_actions(s, 1)[1].id))
  t.eq(s.brk, 0); t.eq(s.breaks, 1)
  -- the hand limit is the break's first step: seat 3 discards before anything else happens
  t.eq(G.current_seats(s), { 3 }, "seat 3 holds 5 cards over a limit of 3")
  t.eq(count(s, 3), 5)
  t.eq(p.money, m1); t.eq(s.display[1], d1); t.eq(p.busy, 1, "no income, display or workers before the discards")
  assert(G.apply(s, 3, "discard:a401")); assert(G.apply(s, 3, "discard:a402"))
  t.eq(#s.players[3].hand, 3); t.eq(G.current_seats(s), { 2 })
  t.eq(p.money, m1 + 12); t.eq(q.money, m2 + 6); t.eq(p.busy, 0)
  t.eq(s.discard[#s.discard - 1], d1); t.eq(s.display[1], d3)
end)

-- end and scoring ----------------------------------------------------------------------------
test("arknova: the end: markers meet (appeal + CP value >= 114); the other seats play once more; final cards add CP; score and tie-break", function()
  local s = fresh(3, 12)
  local p = s.players[2]
  -- the rulebook's final-scoring example (p. 19; SOURCES.md): 22 CP, lowest appeal of that scoring
  -- area 58, 54 appeal: -4; 23 CP, area from 55, 64 appeal: 9; 64 appeal and 20 CP meet
  p.appeal, p.cp = 54, 22; t.eq(G.score_of(p), -4, "Blue: 54 appeal, 22 CP")
  p.appeal, p.cp = 64, 23; t.eq(G.score_of(p), 9, "Red: 64 appeal, 23 CP")
  p.appeal, p.cp = 64, 20; t.ok(G.score_of(p) >= 0, "64 appeal and 20 CP: the counters meet")
  p.appeal, p.cp = 93, 10                      -- 93 + 20 = 113: not yet (the conservation marker at 10 stands on appeal 94)
  s.turn = 2
  assert(G.apply(s, 2, "x:animals"))
  t.eq(s.final_from, 0)
  p.appeal = 94
  for seat = 3, 3 do assert(G.apply(s, seat, "x:animals")) end
  assert(G.apply(s, 1, "x:animals"))
  assert(G.apply(s, 2, "x:build"))            -- 94 + 20 = 114: the markers meet
  t.eq(s.final_from, 2); t.ok(not s.over)
  s.players[3].finals = { "f-favourite" }; s.players[3].rep = 9   -- 9 reputation: 2 CP
  local cp3 = s.players[3].cp
  assert(G.apply(s, 3, "x:build")); t.ok(not s.over)
  assert(G.apply(s, 1, "x:build")); t.ok(s.over, "after every other seat played once more")
  t.eq(s.players[3].final_cp, 2); t.eq(s.players[3].cp, cp3 + 2, "the final card's CP on the track")
  local r = G.ranking(s)
  t.eq(p.cp, 10 + p.final_cp, "final-scoring CP added")
  t.eq(r.scores[2], p.appeal + D.cp_value(p.cp) - 114)
  t.eq(r.ranks[2], 1)
  -- tie-break: more conservation projects supported ahead; still tied, shared
  local u = fresh(2, 1)
  u.players[1].appeal, u.players[1].cp = 40, 10
  u.players[2].appeal, u.players[2].cp = 60, 0
  u.players[1].supported = { "p101" }
  t.eq(G.ranking(u).scores, { -54, -54 }); t.eq(G.ranking(u).ranks, { 1, 2 }, "one project against none, less appeal")
  u.players[2].supported = { "p102" }
  t.eq(G.ranking(u).ranks, { 1, 1 })
end)

test("arknova: final-scoring cards count what they name, 1-4 CP at their thresholds", function()
  -- the base game's current printing (games/arknova/SOURCES.md); the old entry fails here on
  -- Research 6 science (it gave 4), Conservation 1 project (1), Climbing Park's rock spaces (2),
  -- Architectural and Diverse Species (they counted building kinds and classes)
  local s = fresh(3, 13)
  local p, left, right = s.players[1], s.players[2], s.players[3]
  p.zoo = { "a401", "a402", "a405", "a419" }   -- sizes 5, 4, 1, 2; 5 predator icons
  t.eq(G.final_count(s, p, "large"), 2); t.eq(G.final_points(s, p, "f-large"), 2)
  t.eq(G.final_count(s, p, "small"), 2); t.eq(G.final_points(s, p, "f-small"), 0)
  -- Research Zoo: 3 / 4 / 5 / 7 science icons (universities count)
  p.unis = { "u3", "u3", "u1" }; t.eq(G.final_count(s, p, "science"), 5); t.eq(G.final_points(s, p, "f-research"), 3)
  p.unis = { "u3", "u3", "u3" }; t.eq(G.final_points(s, p, "f-research"), 3, "6 science: still 3, the fourth CP needs 7")
  p.unis = { "u3", "u3", "u3", "u1" }; t.eq(G.final_points(s, p, "f-research"), 4)
  p.unis = {}
  -- Conservation Zoo: 2 / 3 / 4 / 5 projects supported
  p.supported = { "p101" }; t.eq(G.final_points(s, p, "f-conservation"), 0)
  p.supported = { "p101", "p102" }; t.eq(G.final_points(s, p, "f-conservation"), 1)
  p.supported = { "p101", "p102", "p103", "p104", "p105" }; t.eq(G.final_points(s, p, "f-conservation"), 4)
  p.supported = {}
  -- Climbing Park (1 / 3 / 5 / 6) and Aquatic Park (2 / 4 / 6 / 7) count icons, not map spaces
  put(s, 1, "e3", { "b3", "c2", "c3" })       -- touches the rock spaces b4 and c4
  t.eq(G.final_count(s, p, "rock_icons"), 0); t.eq(G.final_points(s, p, "f-climbing"), 0, "rock spaces are no icons")
  t.eq(G.final_count(s, p, "empty"), 58 - 8 - 3)
  p.zoo[#p.zoo + 1] = "a444"                  -- Alpine Ibex: 2 rock icons, a herbivore
  t.eq(G.final_count(s, p, "rock_icons"), 2); t.eq(G.final_points(s, p, "f-climbing"), 1)
  p.zoo[#p.zoo + 1] = "a446"                  -- Dugong: 2 water icons, a herbivore
  t.eq(G.final_count(s, p, "water_icons"), 2); t.eq(G.final_points(s, p, "f-aquatic"), 1)
  p.zoo[#p.zoo + 1] = "a407"                  -- Sumatran Tiger: 2 more water icons
  t.eq(G.final_points(s, p, "f-aquatic"), 2)
  p.rep = 15; t.eq(G.final_points(s, p, "f-favourite"), 4)
  -- Diverse Species Zoo: 1 CP per class with more icons than the player to the right (seat 3
  -- for seat 1: it plays just before), at most 4
  left.zoo, right.zoo = {}, { "a403", "a404", "a406", "a408", "a409", "a410", "a412" }   -- 7 predators
  t.eq(G.final_points(s, p, "f-diverse"), 1, "6 predators against 7, 2 herbivores against 0")
  left.zoo, right.zoo = right.zoo, {}
  t.eq(G.final_points(s, p, "f-diverse"), 2, "the seat to the left does not count")
  p.zoo[#p.zoo + 1] = "a501"; p.zoo[#p.zoo + 1] = "a453"; p.zoo[#p.zoo + 1] = "a469"   -- bird, primate, reptile
  t.eq(G.final_points(s, p, "f-diverse"), 4, "five classes ahead: at most 4")
  t.eq(G.final_points(s, right, "f-diverse"), 0, "seat 3 compares with seat 2 and has nothing")
  -- Architectural Zoo: 1 CP each for every water space connected, every rock space connected,
  -- every border space covered, the whole map covered (rock and water left out)
  t.eq(G.final_points(s, p, "f-architect"), 0)
  local terrain = {}
  for _, nm in ipairs(D.MAP.rock) do terrain[H[nm]] = true end
  for _, nm in ipairs(D.MAP.water) do terrain[H[nm]] = true end
  for h = 1, #D.HEXES do if not terrain[h] then p.cover[h] = 1 end end
  t.eq(G.final_points(s, p, "f-architect"), 4, "the whole map covered")
  t.ok(not G.BORDER[H.d4]); p.cover[H.d4] = 0
  t.eq(G.final_points(s, p, "f-architect"), 3, "an inner space free: map not covered")
  t.ok(G.BORDER[H.a1]); p.cover[H.a1] = 0
  t.eq(G.final_points(s, p, "f-architect"), 2, "a border space free too")
  for _, w in ipairs({ H.g2, H.g3 }) do
    for _, j in ipairs(G.NB[w]) do if not terrain[j] then p.cover[j] = 0 end end
  end
  t.eq(G.final_points(s, p, "f-architect"), 1, "g2 and g3 water no longer connected: rock only")
end)

test("arknova: no stuck state: the X-token action is always open; a match without a crossing ends after 14 breaks (or 80 turns each)", function()
  local s = fresh(3, 14)
  t.eq(s.max_breaks, 14); t.eq(s.max_turns, 80)
  s.breaks = 13; s.brk = 11
  slots(s, 1, { "animals", "build", "cards", "association", "sponsors" })
  set_hand(s, 1, {})
  assert(G.apply(s, 1, "sponsors")); assert(G.apply(s, 1, "break"))
  t.ok(s.over); t.eq(G.current_seats(s), {})
  s = fresh(2, 14, { max_turns = 2 })
  for _ = 1, 4 do local seat = G.current_seats(s)[1]; assert(G.apply(s, seat, "x:sponsors")) end
  t.ok(s.over)
end)

-- serialization, hidden information ----------------------------------------------------------
test("arknova: replay from the events gives the same state; the state survives serialization mid-action", function()
  local rand = kit.generator(3)
  local final, log = rt.play(G, 3, 33, function(_, _, legal) return legal[rand(#legal)].id end, nil, 4000)
  local again = G.setup(3, 33)
  for _, e in ipairs(log) do assert(G.apply(again, e[1], e[2])) end
  t.eq(kit.serialize(again), kit.serialize(final))
  local s = fresh(3, 2)
  slots(s, 1, { "animals", "cards", "build", "association", "sponsors" })
  assert(G.apply(s, 1, "cards"))
  local back = kit.deserialize(kit.serialize(s))
  t.eq(ids(G.legal_actions(back, 1)), ids(G.legal_actions(s, 1)))
end)

test("arknova: hidden information: another deck order, other hands or final cards leave every other seat's observation and legal list byte-identical", function()
  local s = fresh(3, 15)
  local a = kit.copy(s)
  local b = kit.copy(s)
  -- swap a hidden card of seat 2's hand with a deck card, reverse the deck, change seat 2's final
  local p = b.players[2]
  p.hand[1], b.deck[1] = b.deck[1], p.hand[1]
  for i = 1, #b.deck // 2 do b.deck[i], b.deck[#b.deck + 1 - i] = b.deck[#b.deck + 1 - i], b.deck[i] end
  p.finals[1] = b.fin_deck[1]
  b.rng = b.rng + 12345
  for _, seat in ipairs({ 1, 3 }) do
    t.eq(json.encode(G.observation(a, seat)), json.encode(G.observation(b, seat)), "seat " .. seat)
    t.eq(G.render(G.observation(a, seat)), G.render(G.observation(b, seat)))
  end
  t.eq(ids(G.legal_actions(a, 1)), ids(G.legal_actions(b, 1)))
  t.ok(json.encode(G.observation(a, 2)) ~= json.encode(G.observation(b, 2)), "the owner sees the difference")
  local o = G.observation(s, 1)
  t.eq(o.players[2].hand, nil); t.eq(o.players[2].finals, nil); t.eq(type(o.deck), "number"); t.eq(o.rng, nil)
end)

test("arknova: determinization: every world keeps public knowledge (counts, known hand cards, own cards) and varies the hidden rest", function()
  local s = fresh(3, 16)
  -- seat 2 snapped a known card
  local known = s.display[1]
  table.remove(s.display, 1); s.display[#s.display + 1] = table.remove(s.deck)
  table.insert(s.players[2].hand, known); s.players[2].public[known] = true
  local rand = kit.generator(5)
  local varied = false
  for _ = 1, 6 do
    local d = G.determinize(s, 1, rand)
    invariant(d, "determinized")
    t.eq(d.players[1].hand, s.players[1].hand); t.eq(d.players[1].finals, s.players[1].finals)
    t.eq(#d.deck, #s.deck); t.eq(d.display, s.display); t.eq(d.discard, s.discard)
    for i = 2, 3 do t.eq(#d.players[i].hand, #s.players[i].hand); t.eq(#d.players[i].finals, 1) end
    local still = false
    for _, c in ipairs(d.players[2].hand) do if c == known then still = true end end
    t.ok(still, "the known card stays in seat 2's hand")
    -- the unseen final cards: never seat 1's own
    for i = 2, 3 do t.ok(d.players[i].finals[1] ~= s.players[1].finals[1]) end
    if kit.serialize(d.players[3].hand) ~= kit.serialize(s.players[3].hand) then varied = true end
  end
  t.ok(varied, "hidden hands vary")
  rt.hidden_check(G, s, rand)
end)

-- what a model gets --------------------------------------------------------------------------
test("arknova: the text observation stays model-sized (under 12,000 characters) and shows no hidden order", function()
  local rand = kit.generator(31)
  local sizes = {}
  for g = 1, 2 do
    rt.play(G, 3, 500 + g, function(st, seat, legal)
      local o = G.observation(st, seat)
      local txt = G.render(o)
      sizes[#sizes + 1] = #txt
      t.ok(not txt:find("rng") and o.rng == nil and type(o.deck) == "number")
      return ismcts.heuristic_pick(G, st, seat, legal, rand, 0.1)
    end, nil, 4000)
  end
  table.sort(sizes)
  t.ok(sizes[#sizes] < 12000, "longest text " .. sizes[#sizes])
  io.write(string.format("  observation text: median %d, max %d characters\n", sizes[(#sizes + 1) // 2], sizes[#sizes]))
end)

test("arknova: the heuristic beats Random clearly (6 three-player matches against two Random seats)", function()
  local wins = rt.heuristic_wins(G, 6, 4000)
  t.ok(wins >= 5, "heuristic first in " .. wins .. " of 6")
end)

-- the matches of bench/arknova_crossing.lua (seeds 7001.., the heuristic with ε = 0.1 on every
-- seat, the generator seeded by the match number) at the default bound: each ends by the crossing
-- of the appeal and conservation markers, as the real game does, not on our bound
test("arknova: heuristic matches end by the crossing, not on the bound (5 three-player matches, seeds 7001-7005)", function()
  for m = 1, 5 do
    local s = G.setup(3, 7000 + m)
    local rand = kit.generator(m)
    local turns = 0
    while not G.is_terminal(s) do
      local seat = G.current_seats(s)[1]
      assert(G.apply(s, seat, ismcts.heuristic_pick(G, s, seat, G.legal_actions(s, seat), rand, 0.1)))
      turns = turns + 1
      assert(turns < 20000, "match " .. m .. " does not end")
    end
    t.ok(G.crossed(s), "match " .. m .. " ended on the bound after " .. s.breaks .. " breaks")
  end
end)

test("arknova: heuristic_all equals heuristic action by action; an animal outscores the X-token action", function()
  local s = fresh(3, 17)
  local p = s.players[1]
  p.money = 50
  set_hand(s, 1, { "a402" })
  put(s, 1, "e4", { "a1", "a2", "b2", "b1" })
  slots(s, 1, { "build", "cards", "association", "sponsors", "animals" })
  t.ok(G.heuristic(s, 1, "animals") > G.heuristic(s, 1, "x:animals"))
  local legal = G.legal_actions(s, 1)
  local all = G.heuristic_all(s, 1, legal)
  t.eq(#all, #legal)
  for i, a in ipairs(legal) do t.eq(all[i], G.heuristic(s, 1, a.id), a.id) end
  -- sub-decisions too: the Build step's types
  slots(s, 1, { "animals", "cards", "association", "sponsors", "build" })
  assert(G.apply(s, 1, "build"))
  legal = G.legal_actions(s, 1)
  all = G.heuristic_all(s, 1, legal)
  for i, a in ipairs(legal) do t.eq(all[i], G.heuristic(s, 1, a.id), a.id) end
end)

test("arknova: the drawing: 58 hexes per zoo, each building's animals, the action cards and the display", function()
  local o, svg = rt.drawn(G, 150)
  t.ok(svg:find("^<svg") and svg:find("</svg>$"))
  local hexes = 0
  for _ in svg:gmatch('<polygon points="[^"]*" fill="[^"]*" stroke="#6b5b3e"/>') do hexes = hexes + 1 end
  t.eq(hexes, 3 * 58)
  local animals, want = 0, 0
  for _ in svg:gmatch('<g class="animal">') do animals = animals + 1 end
  for i = 1, 3 do want = want + #o.players[i].zoo end
  t.eq(animals, want); t.ok(want > 0, "the heuristic played animals")
  t.contains(svg, G.CARD[o.display[1]].name:sub(1, 6))
end)

-- card abilities -------------------------------------------------------------------------------
-- seat 1 plays animal `id` with Animals I at strength 5 into a new building: a standard enclosure
-- of its size on the first hexes of `hexes` (default column a), or a petting zoo; with keep_hand
-- the rest of the hand stays (there is no other free building, so the action ends after it)
local function play(s, id, hexes, keep_hand)
  local p = s.players[1]
  p.money = 100
  waive(s)
  if keep_hand then give(s, 1, { id }) else set_hand(s, 1, { id }) end
  local c = G.CARD[id]
  local hs = {}
  for i = 1, math.max(c.size, 3) do hs[i] = (hexes or { "a1", "a2", "a3", "a4", "a5" })[i] end
  if c.size > 0 then for i = #hs, c.size + 1, -1 do hs[i] = nil end end
  local bi = put(s, 1, c.size > 0 and ("e" .. c.size) or "petting", hs)
  slots(s, 1, { "build", "cards", "association", "sponsors", "animals" })
  assert(G.apply(s, 1, "animals"))
  assert(G.apply(s, 1, "play:" .. id .. ":" .. bi))
  return p
end
-- put cards straight into seat's zoo (icons count) / sponsors, taken from wherever they are
local function into_zoo(s, seat, list)
  for _, id in ipairs(list) do
    give(s, seat, { id }); table.remove(s.players[seat].hand)
    s.players[seat].zoo[#s.players[seat].zoo + 1] = id
  end
end
local function own_sponsors(s, seat, list)
  for _, id in ipairs(list) do
    give(s, seat, { id }); table.remove(s.players[seat].hand)
    s.players[seat].sponsors[#s.players[seat].sponsors + 1] = id
  end
end
local function set_display(s, list)
  for _, c in ipairs(s.display) do s.deck[#s.deck + 1] = c end
  s.display = {}
  for _, id in ipairs(list) do give(s, 1, { id }); table.remove(s.players[1].hand) end
  s.display = list
end

test("arknova: abilities at once: sprint draws, pack and iconic-animal appeal, inventive X, full-throated worker, jumping break token and money, sponsor magnet", function()
  local s = fresh(3, 21)
  local p = play(s, "a401")                    -- Cheetah: sprint 3
  t.eq(#p.hand, 3); t.eq(p.appeal, 6)
  s = fresh(3, 21); p = play(s, "a507")        -- Greater Rhea: sprint 1
  t.eq(#p.hand, 1)
  -- pack: 1 appeal per predator icon in the zoo, its own and the Cheetah's two included
  s = fresh(3, 21); set_hand(s, 1, {})
  into_zoo(s, 1, { "a404", "a401" })
  p = play(s, "a402", nil, true)               -- Lion: 9 appeal
  t.eq(G.count_icon(p, "predator"), 4, "caracal 1, cheetah 2, lion 1")
  t.eq(p.appeal, 9 + 4)
  -- inventive 1; the Red-Shanked Douc: 1 / 2 / 3 X for 1 / 3 / 5 primate icons
  s = fresh(3, 21); p = play(s, "a464"); t.eq(p.x, 1)
  s = fresh(3, 21); set_hand(s, 1, {}); into_zoo(s, 1, { "a455", "a460" })
  p = play(s, "a459", nil, true); t.eq(p.x, 2, "3 primate icons")
  s = fresh(3, 21); set_hand(s, 1, {}); into_zoo(s, 1, { "a455", "a460", "a465", "a467" })
  p = play(s, "a459", nil, true); t.eq(p.x, 3, "5 primate icons")
  -- Grizzly Bear: inventive and full-throated (a worker)
  s = fresh(3, 21); p = play(s, "a411"); t.eq(p.x, 1); t.eq(p.workers, 2)
  s = fresh(3, 21); s.players[1].workers = 4; p = play(s, "a411"); t.eq(p.workers, 4, "at most 4")
  -- jumping 4 (Horsfield's Tarsier, cost 14): the break token 4 on, 4 money
  s = fresh(3, 21); p = play(s, "a461")
  t.eq(s.brk, 4); t.eq(p.money, 100 - 14 + 4)
  s = fresh(3, 21); s.brk = 10; p = play(s, "a461")
  t.eq(s.breaks, 1, "the token reached the end: a break after the turn"); t.eq(p.x, 1, "the seat that moved it takes an X")
  -- iconic animal (Eurasian Lynx, Europe, 2 appeal): 1 appeal per Europe icon in all zoos, at most 8
  s = fresh(3, 21); set_hand(s, 1, {})
  into_zoo(s, 2, { "a417", "a441" })           -- wolf 1, european bison 2
  s.players[1].partners = { "EU" }
  p = play(s, "a418", nil, true)
  t.eq(p.appeal, 2 + 5, "2 + 1 + partner zoo + the lynx itself")
  s = fresh(3, 21); set_hand(s, 1, {})
  into_zoo(s, 2, { "a417", "a441" }); into_zoo(s, 3, { "a419", "a420", "a443", "a445" })
  p = play(s, "a418", nil, true)
  t.eq(p.appeal, 2 + 8, "9 icons, at most 8 appeal")
  -- sponsor magnet (Muskox): every sponsor on the display into the hand, the display refilled
  s = fresh(3, 21); set_hand(s, 1, {})
  set_display(s, { "a406", "s202", "a407", "s203", "a433", "a468" })
  p = play(s, "a437", nil, true)
  t.eq(p.hand, { "s202", "s203" }); t.ok(p.public.s202 and p.public.s203, "taken in view")
  t.eq(#s.display, 6); t.eq(s.display[1], "a406"); t.eq(s.display[3], "a433")
end)

test("arknova: hunter reveals the top cards and keeps one animal; perception keeps 2 of 4 in private; scavenging draws from the discard pile; resistance keeps 1 of 2 final cards", function()
  local s = fresh(3, 22)
  set_hand(s, 1, {})
  top(s, { "a406", "a407", "s201", "s202" })   -- s202 topmost
  local p = play(s, "a403", { "a2", "a3", "a4" }, true)   -- Leopard: hunter 4 (rock: b4)
  t.eq(G.current_seats(s), { 1 })
  t.eq(s.revealed, { "s202", "s201", "a407", "a406" }, "revealed to everyone")
  t.eq(ids(G.legal_actions(s, 1)), { "keep:a407", "keep:a406" }, "only animals; no stop")
  assert(G.apply(s, 1, "keep:a406"))
  t.eq(p.hand, { "a406" }); t.ok(p.public.a406)
  t.eq({ s.discard[#s.discard - 2], s.discard[#s.discard - 1], s.discard[#s.discard] }, { "s202", "s201", "a407" })
  t.eq(s.revealed, {}); t.eq(G.current_seats(s), { 2 })
  s = fresh(3, 22); set_hand(s, 1, {}); top(s, { "s203" })
  play(s, "a410", nil, true)                   -- Yellow-Throated Marten: hunter 1, no animal
  t.eq(s.discard[#s.discard], "s203"); t.eq(G.current_seats(s), { 2 })
  -- perception 4 (Snowy Owl): draw 4, keep 2, the rest discarded; the others see only a count
  s = fresh(3, 22); set_hand(s, 1, {}); top(s, { "a406", "a407", "a433", "a468" })
  p = play(s, "a503", nil, true)
  t.eq(p.held, { "a468", "a433", "a407", "a406" })
  local o2 = G.observation(s, 2)
  t.eq(o2.players[1].held, nil); t.eq(o2.players[1].held_count, 4)
  t.eq(#G.legal_actions(s, 1), 4)
  assert(G.apply(s, 1, "keep:a433")); assert(G.apply(s, 1, "keep:a406"))
  t.eq(p.hand, { "a433", "a406" }); t.ok(not p.public.a433, "kept in private")
  t.eq({ s.discard[#s.discard - 1], s.discard[#s.discard] }, { "a468", "a407" }); t.eq(p.held, {})
  -- scavenging 2 (Marabou): two of the discard pile (shuffled), keep 1, the other back
  s = fresh(3, 22); set_hand(s, 1, {})
  for _, c in ipairs(s.discard) do s.deck[#s.deck + 1] = c end
  s.discard = {}
  for _, c in ipairs({ "a406", "a407", "a433" }) do give(s, 1, { c }); table.remove(s.players[1].hand); s.discard[#s.discard + 1] = c end
  p = play(s, "a496", nil, true)
  t.eq(#s.revealed, 2); t.eq(#s.discard, 1)
  local keep = s.revealed[2]
  t.eq(#G.legal_actions(s, 1), 2)
  assert(G.apply(s, 1, "keep:" .. keep))
  t.eq(p.hand, { keep }); t.ok(p.public[keep], "everyone saw which cards left the pile"); t.eq(#s.discard, 2)
  -- resistance (African Bush Elephant): 2 more final cards, keep 1
  s = fresh(3, 22); p = s.players[1]
  local fin = #s.fin_deck
  p = play(s, "a426")
  t.eq(#p.finals, 3); t.eq(#s.fin_deck, fin - 2)
  local opts = ids(G.legal_actions(s, 1))
  t.eq(opts, { "keep:" .. p.finals[2], "keep:" .. p.finals[3] })
  local kept = p.finals[3]
  assert(G.apply(s, 1, "keep:" .. kept))
  t.eq(#p.finals, 2); t.eq(p.finals[2], kept); t.eq(#s.fin_deck, fin - 1)
end)

test("arknova: sunbathing sells up to k cards for 4 money; pouch tucks up to k cards for 2 appeal; digging cycles the display or the hand; snapping takes any display card", function()
  local s = fresh(3, 23)
  set_hand(s, 1, { "a401", "a402", "a403" })
  local p = play(s, "a473", nil, true)         -- Common Agama: sunbathing 2, cost 9
  t.eq(ids(G.legal_actions(s, 1)), { "sell:a401", "sell:a402", "sell:a403", "stop" })
  assert(G.apply(s, 1, "sell:a401")); t.eq(p.money, 100 - 9 + 4)
  assert(G.apply(s, 1, "sell:a402")); t.eq(p.money, 100 - 9 + 8)
  t.eq(p.hand, { "a403" }); t.eq(s.discard[#s.discard], "a402"); t.eq(G.current_seats(s), { 2 }, "two sold: done")
  -- pouch 2 (Red Kangaroo, 7 appeal)
  s = fresh(3, 23); set_hand(s, 1, { "a401", "a402" })
  p = play(s, "a447", nil, true)
  assert(G.apply(s, 1, "pouch:a401")); t.eq(p.appeal, 7 + 2); t.eq(p.tucked, { "a401" })
  assert(G.apply(s, 1, "stop")); t.eq(G.current_seats(s), { 2 })
  local o2 = G.observation(s, 2)
  t.eq(o2.players[1].tucked_count, 1); t.eq(o2.players[1].hand_count, 1)
  t.eq(G.census(s).a401, "tucked 1")
  -- digging 3 (Malayan Tapir)
  s = fresh(3, 23); set_hand(s, 1, { "a401" })
  set_display(s, { "a406", "s202", "a407", "s203", "a433", "a468" })
  p = play(s, "a435", nil, true)
  t.eq(#G.legal_actions(s, 1), 6 + 1 + 1, "6 display cards, 1 hand card, stop")
  assert(G.apply(s, 1, "dig:1"))
  t.eq(s.discard[#s.discard], "a406"); t.eq(s.display[1], "s202"); t.eq(#s.display, 6)
  assert(G.apply(s, 1, "dig:a401"))
  t.eq(s.discard[#s.discard], "a401"); t.eq(#p.hand, 1); t.ok(p.hand[1] ~= "a401")
  assert(G.apply(s, 1, "stop")); t.eq(G.current_seats(s), { 2 })
  -- snapping 1 (Veiled Chameleon) at reputation 0: any folder, not only the range
  s = fresh(3, 23); set_hand(s, 1, {})
  set_display(s, { "a406", "s202", "a407", "s203", "a433", "a468" })
  p = play(s, "a477", nil, true)
  t.eq(#G.legal_actions(s, 1), 6, "every folder, no stop")
  assert(G.apply(s, 1, "take:6"))
  t.eq(p.hand, { "a468" }); t.ok(p.public.a468); t.eq(#s.display, 6); t.eq(G.current_seats(s), { 2 })
  -- snapping 2 (Saltwater Crocodile, water next to g1)
  s = fresh(3, 23); set_hand(s, 1, {})
  p = play(s, "a489", { "g1", "f1", "f2", "h1", "h2" }, true)
  assert(G.apply(s, 1, "take:1")); t.eq(G.current_seats(s), { 1 }, "a second card")
  assert(G.apply(s, 1, "take:1")); t.eq(#p.hand, 2); t.eq(G.current_seats(s), { 2 })
end)

test("arknova: posturing places up to k free kiosks or pavilions; peacocking a free Large Bird Aviary", function()
  local s = fresh(3, 24)
  local p = play(s, "a501")                    -- Indian Peafowl: posturing 2, cost 18, 7 appeal
  t.ok(has(G.legal_actions(s, 1), "free:pavilion:b1:0") and has(G.legal_actions(s, 1), "free:kiosk:b2:0"))
  t.ok(not has(G.legal_actions(s, 1), "free:kiosk:e3:0"), "next to a building only")
  assert(G.apply(s, 1, "free:pavilion:b1:0"))
  t.eq(p.money, 100 - 18); t.eq(p.appeal, 7 + 1); t.eq(p.rep, 1, "b1's bonus")
  assert(G.apply(s, 1, "free:kiosk:b2:0"))
  t.eq(p.money, 100 - 18); t.eq(#p.buildings, 3); t.eq(G.current_seats(s), { 2 })
  -- Emu: a Large Bird Aviary for free, the Build card not upgraded
  s = fresh(3, 24); p = play(s, "a514")
  t.ok(not p.up.build)
  local avi = G.legal_actions(s, 1)[1].id
  t.ok(avi:find("^free:aviary:"), avi)
  assert(G.apply(s, 1, avi))
  local bonus = 0
  for _, h in ipairs(p.buildings[2].hexes) do if G.BONUS[h] == "money5" then bonus = bonus + 5 end end
  t.eq(p.buildings[2].t, "aviary"); t.eq(p.money, 100 - 22 + bonus, "no cost for the hexes")
  s = fresh(3, 24); put(s, 1, "aviary", { "i1", "i2", "i3", "h1", "h2" }); play(s, "a514")
  t.eq(G.current_seats(s), { 2 }, "one aviary per zoo: nothing to choose")
end)

test("arknova: after the action: clever moves any card to slot 1, boost its card to slot 1 or 5, action and determination take another action", function()
  local s = fresh(3, 25)
  local p = play(s, "a405")                    -- Fennec Fox: clever
  t.eq(ids(G.legal_actions(s, 1)), { "slot1:build", "slot1:cards", "slot1:association", "slot1:sponsors", "stop" })
  assert(G.apply(s, 1, "slot1:sponsors"))
  t.eq(p.slots, { "sponsors", "animals", "build", "cards", "association" })
  s = fresh(3, 25); p = play(s, "a419")        -- European Badger: boost animals
  t.eq(ids(G.legal_actions(s, 1)), { "boost:5", "stop" })
  assert(G.apply(s, 1, "boost:5")); t.eq(p.slots, { "build", "cards", "association", "sponsors", "animals" })
  s = fresh(3, 25); p = play(s, "a408")        -- Sloth Bear: boost association (slot 4)
  t.eq(ids(G.legal_actions(s, 1)), { "boost:1", "boost:5", "stop" })
  assert(G.apply(s, 1, "boost:5")); t.eq(p.slots, { "animals", "build", "cards", "sponsors", "association" })
  -- Sun Bear: the Association action at its slot's strength (4)
  s = fresh(3, 25); p = play(s, "a409")
  t.eq(ids(G.legal_actions(s, 1)), { "extra:association", "stop" })
  assert(G.apply(s, 1, "extra:association"))
  t.eq(s.step.k, "association"); t.eq(s.step.left, 4); t.eq(p.slots[1], "association")
  assert(G.apply(s, 1, "rep")); t.eq(p.rep, 2); t.eq(G.current_seats(s), { 2 })
  -- Golden Eagle: determination, any other action card but Animals
  s = fresh(3, 25); p = play(s, "a509")
  t.eq(ids(G.legal_actions(s, 1)), { "extra:build", "extra:cards", "extra:association", "extra:sponsors", "stop" })
end)

test("arknova: pilfering: the seat with the most appeal (and with pilfering 2 the most CP) chooses 5 money or a random hand card; Quarantine Lab protects", function()
  local s = fresh(3, 26)
  s.players[2].appeal, s.players[3].appeal = 20, 10
  s.players[2].money = 30
  local p = play(s, "a456")                    -- Barbary Macaque: pilfering 1, cost 13
  t.eq(G.current_seats(s), { 2 }, "the victim decides")
  t.eq(ids(G.legal_actions(s, 2)), { "give:money", "give:card" })
  t.eq(G.legal_actions(s, 1), {})
  assert(G.apply(s, 2, "give:money"))
  t.eq(s.players[2].money, 25); t.eq(p.money, 100 - 13 + 5); t.eq(G.current_seats(s), { 2 }, "seat 2's own turn now")
  -- Japanese Macaque: pilfering 2, the appeal leader and the CP leader
  s = fresh(3, 26)
  s.players[2].appeal, s.players[3].cp = 20, 9
  local h2 = #s.players[2].hand
  p = play(s, "a458", { "g1", "f1", "f2" })
  assert(G.apply(s, 2, "give:card"))
  t.eq(#s.players[2].hand, h2 - 1); t.eq(#p.hand, 1); t.ok(p.public[p.hand[1]])
  t.eq(G.current_seats(s), { 3 })
  local m3 = s.players[3].money
  assert(G.apply(s, 3, "give:money")); t.eq(s.players[3].money, m3 - 5)
  -- Quarantine Lab: immune; a leader that is the pilferer itself: nobody
  s = fresh(3, 26)
  s.players[2].appeal = 20
  own_sponsors(s, 2, { "s225" })
  t.eq(G.pilfer_targets(s, 1, 1), {})
  s.players[1].appeal = 30
  s.players[2].sponsors = {}
  t.eq(G.pilfer_targets(s, 1, 2), {})
  s.players[1].appeal = 0
  t.eq(G.pilfer_targets(s, 1, 1), { 2 })
end)

-- sponsor effects ------------------------------------------------------------------------------
local function sponsor_play(s, id)
  local p = s.players[1]
  waive(s)
  set_hand(s, 1, { id })
  p.up.sponsors = true
  slots(s, 1, { "animals", "build", "cards", "association", "sponsors" })
  assert(G.apply(s, 1, "sponsors"))
  assert(G.apply(s, 1, "sponsor:" .. id))
  return p
end

test("arknova: sponsors at once: a worker, patents (CP per science, money to the others), money / appeal / X per count", function()
  local s = fresh(3, 27)
  local p = sponsor_play(s, "s216"); t.eq(p.workers, 2)
  s = fresh(3, 27); p = s.players[1]
  p.unis = { "u3" }; own_sponsors(s, 1, { "s223" })  -- 2 + 2 science
  local m2 = s.players[2].money
  sponsor_play(s, "s222")
  t.eq(p.cp, 4); t.eq(s.players[2].money, m2 + 8)
  s = fresh(3, 27); p = s.players[1]; p.unis = { "u3" }
  local m = p.money
  sponsor_play(s, "s204"); t.eq(p.money, m + 2 * 3, "2 money per science icon (2 + its own)")
  s = fresh(3, 27); p = s.players[1]; into_zoo(s, 1, { "a401", "a402", "a404" })
  sponsor_play(s, "s230"); t.eq(p.appeal, 2 * 2, "2 appeal per large animal")
  s = fresh(3, 27); p = s.players[1]; into_zoo(s, 1, { "a455", "a460", "a457" })
  sponsor_play(s, "s231"); t.eq(p.appeal, 4, "1 appeal per primate icon (the mandrill shows two)")
  s = fresh(3, 27); p = sponsor_play(s, "s225"); t.eq(p.x, 1)
  s = fresh(3, 27); p = s.players[1]; p.unis = { "u1", "u3" }
  m = p.money
  sponsor_play(s, "s203"); t.eq(p.money, m + 5, "2 universities: 5 money")
  s = fresh(3, 27); p = s.players[1]; p.unis = { "u1", "u2", "u3" }
  m = p.money
  sponsor_play(s, "s203"); t.eq(p.money, m + 10, "3 universities: 10 money")
  -- Science Lab: take a card, from the deck or in range
  s = fresh(3, 27); p = sponsor_play(s, "s201")
  t.eq(ids(G.legal_actions(s, 1)), { "draw", "take:1" })
  assert(G.apply(s, 1, "take:1")); t.eq(#p.hand, 1)
end)

test("arknova: sponsors ongoing: icons played into any zoo pay money, into one's own zoo reputation or CP; animals cost less; the Veterinarian supports projects at 4", function()
  local s = fresh(3, 28)
  own_sponsors(s, 2, { "s239" }); own_sponsors(s, 3, { "s208" }); own_sponsors(s, 1, { "s202", "s204" })
  local m2, m3 = s.players[2].money, s.players[3].money
  play(s, "a406")                              -- a predator (Siberian Tiger, no ability)
  t.eq(s.players[2].money, m2 + 3); t.eq(s.players[3].money, m3)
  assert(G.apply(s, 1, "worker"))             -- the tiger's 2 CP reached the CP-2 bonus
  local p = s.players[1]
  local rep, cp = p.rep, p.cp
  s.turn = 1; s.step = { k = "turn" }
  sponsor_play(s, "s223")                      -- two science icons
  t.eq(p.rep, rep + 2); t.eq(p.cp, cp + 2); t.eq(s.players[3].money, m3 + 4)
  -- the Spokesperson alone: reputation per science icon, no CP
  s = fresh(3, 28); p = s.players[1]
  own_sponsors(s, 1, { "s202" })
  rep, cp = p.rep, p.cp
  sponsor_play(s, "s223")
  t.eq(p.rep, rep + G.CARD.s223.rep + 2, "1 reputation per science icon"); t.eq(p.cp, cp + G.CARD.s223.cp)
  -- costs
  s = fresh(3, 28); p = s.players[1]
  own_sponsors(s, 1, { "s229" })
  t.eq(G.animal_cost(p, G.CARD.a404), 9 - 3); t.eq(G.animal_cost(p, G.CARD.a418), 11)
  own_sponsors(s, 1, { "s230" })
  t.eq(G.animal_cost(p, G.CARD.a402), 16 - 4); t.eq(G.animal_cost(p, G.CARD.a405), 8 - 3)
  -- the Veterinarian
  s = fresh(3, 28); p = s.players[1]
  s.projects = { { id = "p110", levels = { 0, 0, 0 } } }
  into_zoo(s, 1, { "a401", "a404", "a405", "a410" })
  local function projects(budget)
    local n = 0
    for _, x in ipairs(G.assoc_tasks(s, 1, budget, {})) do if x:find("^project") then n = n + 1 end end
    return n
  end
  t.eq(projects(4), 0); t.eq(projects(5), 3)
  own_sponsors(s, 1, { "s203" })
  t.eq(projects(4), 3)
  -- the experts on a continent: a free kiosk per Americas icon, an action card to slot 1 per Africa icon
  s = fresh(3, 28); p = s.players[1]
  own_sponsors(s, 1, { "s210" })
  play(s, "a468")                              -- Cotton-Top Tamarin: Americas, no ability
  t.ok(G.legal_actions(s, 1)[1].id:find("^free:kiosk:"), "a free kiosk")
  local money = p.money
  assert(G.apply(s, 1, G.legal_actions(s, 1)[1].id))
  t.eq(p.buildings[2].t, "kiosk"); t.ok(p.money >= money, "free"); t.eq(G.current_seats(s), { 2 })
  s = fresh(3, 28); p = s.players[1]
  own_sponsors(s, 1, { "s211" })
  play(s, "a484", { "g1" })                    -- European Pond Turtle: Europe, no ability (water: g2)
  local e1 = G.legal_actions(s, 1)[1].id
  t.ok(e1:find("^free:e1:"), e1)
  assert(G.apply(s, 1, e1)); t.eq(p.buildings[2].t, "e1"); t.eq(G.current_seats(s), { 2 })
  s = fresh(3, 28); p = s.players[1]
  own_sponsors(s, 1, { "s214" })
  play(s, "a498")                              -- Shoebill: Africa, no ability
  assert(G.apply(s, 1, "slot1:sponsors")); t.eq(p.slots[1], "sponsors")
  -- the Explorer: 2 money per icon kind at once, then 1 appeal and 2 money per new kind
  s = fresh(3, 28); p = s.players[1]
  into_zoo(s, 1, { "a404" })                   -- Africa, predator
  money = p.money
  sponsor_play(s, "s262"); t.eq(p.money, money + 4)
  s.turn = 1; s.step = { k = "turn" }
  local ap = p.appeal
  play(s, "a406")                              -- Asia (new), predator (not new): 10 appeal
  t.eq(p.appeal, ap + 10 + 1); t.eq(p.money, 100 - 30 + 2)
end)

test("arknova: sponsors at the break (money, CP, X, money by class icons, a card) and at the end (CP for science, classes, continents, universities, reputation)", function()
  local s = fresh(3, 29)
  local p = s.players[1]
  p.cp = 5                                     -- no track bonus on the way to 7
  own_sponsors(s, 1, { "s206", "s209", "s220", "s231" })
  into_zoo(s, 1, { "a455", "a460", "a465" })  -- 3 primate icons: 6 money
  for i = 1, 3 do set_hand(s, i, {}) end      -- no seat over its hand limit: the break goes on to income
  local m, cp, x = p.money, p.cp, p.x
  local inc = G.income_of(p)
  G.do_break(s)
  t.eq(p.money, m + inc + 3 + 6); t.eq(p.cp, cp + 1); t.eq(p.x, x + 1)
  own_sponsors(s, 1, { "s201" })
  G.do_break(s)
  t.eq(G.current_seats(s), { 1 }, "Science Lab: a card at the break")
  t.eq(#s.pend, 1); t.eq(s.pend[1].f, "take-card", "the Science Lab's card at the break")
  t.ok(has(G.legal_actions(s, 1), "draw"))
  -- end-game CP
  s = fresh(3, 29); p = s.players[1]
  own_sponsors(s, 1, { "s201" })
  t.eq(G.sponsor_end_cp(p), 0)
  p.unis = { "u3" }; t.eq(G.sponsor_end_cp(p), 1, "3 science: 2 and the lab's own")
  p.unis = { "u1", "u3" }; t.eq(G.sponsor_end_cp(p), 1, "3 science + the lab's own")
  own_sponsors(s, 1, { "s223" }); t.eq(G.sponsor_end_cp(p), 2, "6 science")
  own_sponsors(s, 1, { "s216" }); p.rep = 9; t.eq(G.sponsor_end_cp(p), 3, "reputation 9")
  own_sponsors(s, 1, { "s209" }); t.eq(G.sponsor_end_cp(p), 3, "2 universities, not 3")
  p.unis = { "u1", "u2", "u3" }; t.eq(G.sponsor_end_cp(p), 2 + 1 + 1, "8 science 2, reputation 1, 3 universities 1")
  s = fresh(2, 29); p = s.players[1]
  own_sponsors(s, 1, { "s226", "s261", "s211" })
  put(s, 1, "e1", { "e6" })                    -- an empty 1-hex enclosure does not count
  for i, h in ipairs({ "a1", "a3", "a5", "c1", "c3" }) do
    t.eq(G.sponsor_end_cp(p), 0, "occupied 1-hex enclosures " .. (i - 1))
    put(s, 1, "e1", { h }, { "a405" })
  end
  t.eq(G.sponsor_end_cp(p), 1, "5 occupied 1-hex enclosures")
  p.buildings = {}
  p.partners = { "AF", "EU", "AS", "AM", "AU" }
  t.eq(G.sponsor_end_cp(p), 1, "5 continents; not 5 classes")
  into_zoo(s, 1, { "a401", "a426", "a455", "a469", "a494" })
  t.eq(G.sponsor_end_cp(p), 2)
  p.appeal, p.cp = 113, 1                      -- 113 + 2 >= 114: the markers meet
  local fin = 0
  for _, f in ipairs(p.finals) do fin = fin + G.final_points(s, p, f) end
  assert(G.apply(s, 1, "x:animals")); assert(G.apply(s, 2, "x:animals"))
  t.ok(s.over); t.eq(p.final_cp, fin + 2); t.eq(p.cp, 1 + fin + 2)
end)

test("arknova: card coverage: every animal family PASS or OUT-OF-SCOPE in the audit, every sponsor implemented or out of scope with a reason, the card lists agree on the families", function()
  local AB = require "games.arknova.abilities"
  local text = assert(io.open(t.root() .. "/games/arknova/RULES-AUDIT.md")):read("a")
  local status = {}
  for line in text:gmatch("[^\n]+") do
    local id, st = line:match("^| *(AN[%w%.%-]+) *|.*| *([%u%-]+) *|$")
    if id then status[id] = st end
  end
  local covered, oos = 0, 0
  for _, c in ipairs(D.CARDS) do
    if c.project then
      -- project cards have no ability families (their rules: the AN-C8 and AN-G project lines)
    elseif c.sponsor then
      local impl, out = AB.SPONSOR[c.num] ~= nil, AB.SPONSOR_OOS[c.num] ~= nil
      t.ok(impl ~= out, c.id .. ": implemented or out of scope, not both")
      if out then t.eq(status["AN-SP-" .. c.num], "OUT-OF-SCOPE", c.id) end
      if impl then
        for _, e in ipairs(AB.SPONSOR[c.num]) do t.eq(status["AN-SP-" .. e[1]], "PASS", c.id .. " " .. e[1]) end
      end
      if impl then covered = covered + 1 else oos = oos + 1 end
    else
      local mine, theirs = {}, {}
      for _, e in ipairs(G.ABILITY[c.id]) do mine[#mine + 1] = e[1] end
      for f in c.ability:gmatch("[^+]+") do theirs[#theirs + 1] = f end
      table.sort(mine); table.sort(theirs)
      t.eq(mine, theirs, c.id .. ": the two card lists name the same families")
      local all = true
      for _, f in ipairs(mine) do
        local want = G.IMPLEMENTED[f] and "PASS" or "OUT-OF-SCOPE"
        t.eq(status["AN-F-" .. f], want, c.id .. " " .. f)
        if not G.IMPLEMENTED[f] then all = false end
      end
      if all then covered = covered + 1 else oos = oos + 1 end
    end
  end
  t.eq(covered + oos, 192, "the animals and sponsors")
  io.write(string.format("  cards covered in full %d, with an effect out of scope %d (of 192 entered)\n", covered, oos))
end)

-- arena --------------------------------------------------------------------------------------
test("arknova: an arena match with a model over the mock server: a legal setup discard, then an invalid answer forfeits", function()
  local first = G.setup(3, 3).players[1].hand[1]
  local body = rt.mock_match(G, { { match = "Decision 1 ", reply = "I drop this one.\nACTION: discard:" .. first, times = 1 },
                           { reply = "ACTION: build:z9" } }, 3)
  t.contains(body, "discard:" .. first)
  t.contains(body, "Ark Nova (one zoo map; animal and sponsor cards), round 1. You are player 1 of 3.")
end)

test("arknova: the arena runs the game by name with the three baselines (3 matches, every seat each)", function()
  local fs = require "tabula.fs"
  local records = require "tabula.records"
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/parts.json", json.encode({ participants = {
    { name = "random", player = "random" }, { name = "heuristic", player = "heuristic" },
    { name = "ismcts", player = "ismcts", simulations = 4, steps = 12 } } }))
  t.eq(G.incomplete, nil, "the module no longer says it is incomplete")
  -- the arena's guard for a module that says so: refused without --incomplete-games
  G.incomplete = "a test's reason"
  local ok, err = pcall(t.run_scenario, "scenarios/dece", { "--participants", dir .. "/parts.json", "--out", dir .. "/run0",
    "--games", "arknova", "--quiet" })
  G.incomplete = nil
  t.ok(not ok); t.contains(tostring(err), "arknova is incomplete (a test's reason)")
  local rc = t.run_scenario("scenarios/dece", { "--no-html", "--participants", dir .. "/parts.json", "--out", dir .. "/run",
    "--games", "arknova", "--draws", "100", "--quiet" })
  t.eq(rc, 0)
  local recs = records.read(dir .. "/run/matches.jsonl")
  t.eq(#recs, 3)
  for _, r in ipairs(recs) do
    t.eq(r.status, "finished"); t.eq(#r.ranks, 3); t.ok(r.D >= 150, "a real match: D " .. r.D)
  end
  t.contains(fs.read(dir .. "/run/report.md"), "## arknova (3 matches)")
end)

test("arknova: RULES-AUDIT.md names existing tests; every card family covered or out of scope; coverage by status", function()
  local counts, _, text = rt.audit(t.root() .. "/games/arknova/RULES-AUDIT.md", T, "AN")
  -- every ability family named on a card has its own line
  local fams = {}
  for _, c in ipairs(D.CARDS) do
    for f in c.ability:gmatch("[^+]+") do fams[f] = true end
  end
  for f in pairs(fams) do t.contains(text, "ability: " .. f .. " ", "family " .. f .. " in the audit") end
  t.ok(counts.PASS >= 40, "rules audited: " .. counts.PASS)
  -- the mutations kept beside the audit (games/arknova/mutations.tsv, run by
  -- bench/audit_mutations.lua): every PASS line has one; each names a PASS line and a text found
  -- exactly once in its file, replaced by a different one
  local test_of = {}
  for line in text:gmatch("[^\n]+") do
    local id, name = line:match("^| *(AN%-[%w%.%-]+) *| *.- *| *`(.-)` *| *PASS *|$")
    if id then test_of[id] = name end
  end
  local tsv = assert(io.open(t.root() .. "/games/arknova/mutations.tsv")):read("a")
  local has_mut = {}
  for line in tsv:gmatch("[^\n]+") do
    if not line:match("^#") then
      local f = {}
      for field in (line .. "\t"):gmatch("([^\t]*)\t") do f[#f + 1] = (field:gsub("\\n", "\n")) end
      t.eq(#f, 4, "four fields: " .. line:sub(1, 40))
      local m = { id = f[1], file = f[2], from = f[3], to = f[4] }
      t.ok(test_of[m.id], m.id .. ": a PASS line")
      has_mut[m.id] = true
      local src = assert(io.open(t.root() .. "/" .. m.file)):read("a")
      local n, at = 0, 1
      while true do
        local i = src:find(m.from, at, true)
        if not i then break end
        n, at = n + 1, i + 1
      end
      t.eq(n, 1, m.id .. ": the mutated text once in " .. m.file)
      t.ok(m.to ~= m.from, m.id)
    end
  end
  for id in pairs(test_of) do t.ok(has_mut[id], id .. ": a PASS line without a mutation") end
end)

-- conservation projects (games/arknova/projects.lua) ------------------------------------------
-- the project tasks open to seat at strength 5 (those of one project if named)
local function ptasks(s, seat, only)
  local out = {}
  for _, x in ipairs(G.assoc_tasks(s, seat, 5, {})) do
    if x:find("^project") and (not only or x:find("^project:" .. only .. ":")) then out[#out + 1] = x end
  end
  return out
end
-- seat 1 takes Association at strength 5 and the task
local function support(s, task)
  slots(s, 1, { "animals", "build", "cards", "sponsors", "association" })
  s.turn = 1; s.step = { k = "turn" }
  assert(G.apply(s, 1, "association")); assert(G.apply(s, 1, task))
end
-- seat's zoo holds the animals, each in a standard enclosure of its size on its own hexes
local function zoo_of(s, seat, list)
  local spots = { "a1", "a3", "a5", "c1", "c3", "c5", "e2", "e4", "g4", "g6" }
  for _, id in ipairs(list) do
    into_zoo(s, seat, { id })
    put(s, seat, "e1", { spots[#s.players[seat].buildings + 1] }, { id })
  end
end

test("arknova: project data: 12 base projects (101-112) and 20 deck cards (113-132), levels, CP and reputation as entered", function()
  local PJ = D.PROJECT_DATA
  t.eq(#PJ.BASE, 12); t.eq(#PJ.DECK, 20)
  local kinds, cp, need = {}, 0, 0
  for i, pr in ipairs(PJ.BASE) do
    t.eq(pr.num, 100 + i); t.eq(#pr.levels, 3)
    for _, l in ipairs(pr.levels) do cp = cp + l.cp; need = need + l.need end
  end
  -- pinned from our entry (RULES.md: the sources and where they disagree)
  t.eq(cp, 5 * (5 + 3 + 2) + 7 * (5 + 4 + 2), "base CP: 5/3/2 (101-104, 106) and 5/4/2 (105, 107-112)")
  t.eq(need, 2 * (5 + 4 + 3) + 10 * (5 + 4 + 2), "icons: 5/4/3 (101-102), 5/4/2 (103-112)")
  local rel, dcp = 0, 0
  for i, pr in ipairs(PJ.DECK) do
    t.eq(pr.num, 112 + i); t.ok(pr.project and G.CARD[pr.id] == pr, pr.name .. " is a zoo card")
    kinds[pr.kind] = (kinds[pr.kind] or 0) + 1
    for _, l in ipairs(pr.levels) do dcp = dcp + l.cp; rel = rel + l.rep end
    if pr.kind == "release" then rel = rel + 3 * pr.rep end
  end
  t.eq(kinds, { release = 10, breeding = 5, count = 5 })
  t.eq(dcp, 10 * 12 + 5 * 5 + 5 * 9, "CP: release 5/4/3, breeding 2/1/2, counting 4/3/2")
  t.eq(rel, 10 * 3 + 5 * 4, "reputation: 1 per release support, breeding 2/2/0")
  t.eq(PJ.BY_ID.c130.levels[1].need, 8); t.eq(PJ.BY_ID.c131.levels[1].need, 4)
  -- the deck of the full scope holds them; the animals scope does not
  local s = G.setup(3, 2)
  local seen = 0
  for id in pairs(G.census(s)) do if G.CARD[id].project then seen = seen + 1 end end
  t.eq(seen, 20)
  local a = G.setup(3, 2, { deck = "animals" })
  for id in pairs(G.census(a)) do t.ok(not G.CARD[id].project and not G.CARD[id].sponsor, id) end
end)

test("arknova: base projects count what they name: different classes and continents (5/4/3), water and rock icons, small and large animals, science", function()
  local s = fresh(3, 40)
  local p = s.players[1]
  s.projects = { { id = "p101", levels = { 0, 0, 0 } }, { id = "p102", levels = { 0, 0, 0 } } }
  -- lion (AF predator), snowy owl (AS bird), llama (AM herbivore): 3 classes, 3 continents
  zoo_of(s, 1, { "a402", "a503", "a439" })
  t.eq(ptasks(s, 1), { "project:p101:3", "project:p102:3" })
  p.partners = { "EU" }                        -- a partner zoo counts as its continent's icon
  t.eq(ptasks(s, 1), { "project:p101:3", "project:p102:2", "project:p102:3" })
  support(s, "project:p102:2")
  t.eq(p.cp, 3); t.eq(s.projects[2].levels, { 0, 1, 0 }); t.eq(p.supported, { "p102" })
  local PJ, E = D.PROJECT_DATA, G.PENV
  local q = s.players[2]
  zoo_of(s, 2, { "a407", "a444", "a421", "a405", "a420", "a406" })
  t.eq(PJ.count(E, q, "water"), 2 + 1)        -- Sumatran Tiger 2, fur seal 1
  t.eq(PJ.count(E, q, "rock"), 2 + 1)         -- ibex 2, fur seal 1
  t.eq(PJ.count(E, q, "small"), 3)            -- ibex 2, fennec 1, stoat 1
  t.eq(PJ.count(E, { zoo = { "a403" } }, "small"), 0, "a size-3 animal is not small")
  t.eq(PJ.count(E, q, "large"), 3)            -- tigers 4 and 5, fur seal 5
  own_sponsors(s, 2, { "s223" }); q.unis = { "u3" }
  t.eq(PJ.count(E, q, "science"), 4)
end)

test("arknova: a project card from hand: Association 5 plays it onto the board and supports it at once; others support the rest; one played card per player", function()
  local s = fresh(3, 41)
  local p = s.players[1]
  zoo_of(s, 1, { "a402", "a404" })            -- lion size 4 (large), caracal 2
  give(s, 1, { "c131" })                      -- Large Animals: 4 / 3 / 2 large animals
  t.eq(ptasks(s, 1, "c131"), {}, "one large animal: no level")
  zoo_of(s, 1, { "a401" })
  local base = #s.projects
  t.eq(ptasks(s, 1, "c131"), { "project:c131:3" })
  local label
  slots(s, 1, { "animals", "build", "cards", "sponsors", "association" })
  assert(G.apply(s, 1, "association"))
  for _, a in ipairs(G.legal_actions(s, 1)) do if a.id == "project:c131:3" then label = a.label end end
  t.contains(label, "play from your hand and support the Large Animals project at level 3")
  assert(G.apply(s, 1, "project:c131:3"))
  t.eq(p.cp, 2); t.eq(#s.projects, base + 1); t.eq(s.projects[base + 1].id, "c131")
  t.eq(s.projects[base + 1].levels, { 0, 0, 1 }); t.ok(not has({ { id = p.hand[1] } }, "c131"))
  t.eq(G.census(s).c131, "projects")
  invariant(s, "after playing a project")
  -- seat 2 supports it from the board
  local q = s.players[2]
  zoo_of(s, 2, { "a406", "a407", "a411" })
  t.eq(ptasks(s, 2, "c131"), { "project:c131:2" }, "level 2 with 3 large animals; level 3 is taken")
  -- four more cards played: three players, so only the three newest stay; the oldest is discarded
  for i, id in ipairs({ "c128", "c129", "c132" }) do
    give(s, 1, { id })
    local placed = D.PROJECT_DATA.support(G.PENV, s, 1, "project:" .. id .. ":" .. 3)
    t.eq(placed, 2)
    t.eq(s.projects[base + 1].id, id, "the newest first")
    t.eq(#s.projects, base + math.min(3, i + 1))
  end
  t.eq(s.projects[#s.projects].id, "c128"); t.eq(s.discard[#s.discard], "c131", "the oldest left for the discard pile")
  t.eq(q.cp, 0); t.eq(p.supported, { "c131", "c128", "c129", "c132" })
end)

test("arknova: release into the wild: the animal of the icon and size leaves the zoo, its appeal is lost, its enclosure is empty again, 5/4/3 CP + 1 reputation", function()
  local s = fresh(3, 42)
  local p = s.players[1]
  p.money = 100
  zoo_of(s, 1, { "a402", "a404", "a413" })    -- lion size 4, caracal 2 (Africa); cougar 3 (Americas)
  p.appeal = 20
  give(s, 1, { "c118" })                      -- Savanna: release 1 predator
  t.eq(ptasks(s, 1, "c118"), { "project:c118:1:a402", "project:c118:2:a413", "project:c118:3:a404" })
  give(s, 1, { "c116" })                      -- Serengeti: an Africa animal
  t.eq(ptasks(s, 1, "c116"), { "project:c116:1:a402", "project:c116:3:a404" }, "the Africa animals only")
  local rep = p.rep
  support(s, "project:c118:1:a402")
  t.eq(p.cp, 5); t.eq(p.rep, rep + 1); t.eq(p.appeal, 20 - 9, "the lion's 9 appeal lost")
  t.eq(p.zoo, { "a404", "a413" }); t.eq(p.buildings[1].animals, {}, "its enclosure is empty")
  t.eq(s.discard[#s.discard], "a402"); t.eq(G.count_icon(p, "predator"), 2)
  t.ok(G.fits(p, G.CARD.a405, 1), "another animal may move into the enclosure")
  t.eq(s.projects[#s.projects].levels, { 1, 0, 0 })
  invariant(s, "after a release")
  -- the Serengeti card now offers the caracal only, and Savanna is done for seat 1
  p.busy = 0                                  -- (the worker back, as after a break)
  t.eq(ptasks(s, 1, "c116"), { "project:c116:3:a404" }); t.eq(ptasks(s, 1, "c118"), {})
end)

test("arknova: breeding programmes need an animal of the class from a partner-zoo continent: 2 CP + 2 rep / 1 CP + 2 rep / 2 CP", function()
  local s = fresh(3, 43)
  local p = s.players[1]
  zoo_of(s, 1, { "a494" })                    -- ostrich: an Africa bird
  give(s, 1, { "c123" })                      -- Bird Breeding Program
  t.eq(ptasks(s, 1, "c123"), {}, "no partner zoo in Africa")
  p.partners = { "AS" }; t.eq(ptasks(s, 1, "c123"), {})
  p.partners = { "AS", "AF" }
  t.eq(ptasks(s, 1, "c123"), { "project:c123:1", "project:c123:2", "project:c123:3" })
  local rep = p.rep
  support(s, "project:c123:1")
  t.eq(p.cp, 2); t.eq(p.rep, rep + 2); t.eq(p.zoo, { "a494" }, "nothing released")
end)

test("arknova: 2 players: one level of each base project is blocked; 3 players: none", function()
  local s = G.setup(2, 44)
  t.eq({ s.projects[1].levels, s.projects[2].levels, s.projects[3].levels }, { { -1, 0, 0 }, { 0, -1, 0 }, { 0, 0, -1 } })
  t.eq(G.setup(3, 44).projects[1].levels, { 0, 0, 0 })
  local f = fresh(2, 44)
  f.projects = { { id = "p110", levels = { -1, 0, 0 } } }
  zoo_of(f, 1, { "a401", "a402", "a403", "a404", "a405" })
  t.eq(ptasks(f, 1, "p110"), { "project:p110:2", "project:p110:3" }, "5 predators, the left level blocked")
  t.contains(G.render(G.observation(f, 1)), "(blocked)")
end)

test("arknova: reputation stops at 9 until the Cards card is upgraded; past 15 each step is 1 appeal; a partner zoo takes 3 per continent icon", function()
  local s = fresh(3, 45)
  local p = s.players[1]
  p.rep = 8
  G.gain_rep(s, 1, 3); t.eq(p.rep, 9, "capped at 9")
  t.ok(not has({ { id = G.assoc_tasks(s, 1, 2, {})[1] } }, "rep"), "no reputation task at the cap")
  p.up.cards = true
  G.gain_rep(s, 1, 2); t.eq(p.rep, 11)
  p.rep = 14; p.appeal = 10
  G.gain_rep(s, 1, 3); t.eq(p.rep, 15); t.eq(p.appeal, 12, "two steps past 15")
  p.partners = { "AF" }
  t.eq(G.animal_cost(p, G.CARD.a426), 36 - 6, "the elephant shows two Africa icons")
  t.eq(G.animal_cost(p, G.CARD.a402), 16 - 3)
end)

test("arknova: the heuristic values projects: a supportable project card is kept over a weak sponsor, Association with a project beats no project, a release weighs the appeal lost", function()
  local s = fresh(3, 46)
  local p = s.players[1]
  zoo_of(s, 1, { "a401", "a406", "a407" })    -- three large animals
  t.ok(G.keep_value(s, 1, "c131") > G.keep_value(s, 1, "s261"), "Large Animals card over a level-3 sponsor")
  t.ok(G.keep_value(s, 1, "c131") > G.keep_value(s, 1, "c123"), "a card it could support over one it cannot")
  t.eq(G.keep_value(s, 1, "s226"), 0, "a level-6 sponsor with Sponsors I")
  slots(s, 1, { "animals", "build", "cards", "sponsors", "association" })
  set_hand(s, 1, {})
  s.projects = { { id = "p112", levels = { 0, 0, 0 } } }   -- Birds: nothing to support
  local before = G.heuristic(s, 1, "association")
  give(s, 1, { "c131" })
  t.ok(G.heuristic(s, 1, "association") > before + 5, "a project to support makes Association worth more")
  t.ok(G.project_value(s, 1, "project:c131:2") > G.project_value(s, 1, "project:c131:3"))
  t.ok(G.project_value(s, 1, "project:c118:1:a406") < G.project_value(s, 1, "project:c118:1:a401"),
    "releasing the 10-appeal tiger is worth less than releasing the 6-appeal cheetah")
end)

-- prerequisites (games/arknova/prereqs.lua) -----------------------------------------------------
test("arknova: prerequisites: icons, a partner zoo of the animal's continent, the upgraded Animals / Sponsors card, reputation, at most 25 appeal; 63 animals and 29 sponsors have some", function()
  local PRE = require "games.arknova.prereqs"
  local na, ns = 0, 0
  for n in pairs(PRE.BY_NUM) do if n >= 400 then na = na + 1 else ns = ns + 1 end end
  t.eq({ na, ns }, { 63, 29 })
  local s = fresh(3, 47)
  local p = s.players[1]
  p.money = 100
  local function playable(id)
    for _, pl in ipairs(G.animal_plays(p)) do if pl.card == id then return true end end
    return false
  end
  set_hand(s, 1, { "a402", "a403", "a411" })
  put(s, 1, "e5", { "a1", "a2", "a3", "b1", "b2" })
  zoo_of(s, 1, { "a404", "a405" })            -- two predators
  t.ok(not playable("a402"), "the Lion needs 3 predator icons")
  zoo_of(s, 1, { "a410" })
  t.ok(playable("a402"))
  t.ok(not playable("a403"), "the Leopard needs a partner zoo in Africa")
  p.partners = { "EU" }; t.ok(not playable("a403"))
  p.partners = { "EU", "AF" }; t.ok(playable("a403"))
  t.ok(not playable("a411"), "the Grizzly needs the upgraded Animals card")
  p.up.animals = true; t.ok(playable("a411"))
  t.contains(G.card_words("a411"), "needs upgraded Animals card, 2 predator icons")
  -- sponsors
  local function sponsorable(id)
    set_hand(s, 1, { id })
    return #G.sponsor_plays(p, 6) == 1
  end
  t.ok(not sponsorable("s204"), "Science Museum needs 4 science icons")
  p.unis = { "u3" }; own_sponsors(s, 1, { "s223" })
  t.eq(G.count_icon(p, "science"), 4); t.ok(sponsorable("s204"))
  p.up.sponsors = true; p.appeal = 26
  t.ok(not sponsorable("s207"), "Basic Research: appeal 25 at most")
  p.appeal = 25; t.ok(sponsorable("s207"))
  p.up.sponsors = false; t.ok(not sponsorable("s207"), "and the upgraded Sponsors card")
  p.rep = 5; t.ok(not sponsorable("s227")); p.rep = 6; t.ok(sponsorable("s227"), "WAZA Special Assignment: reputation 6")
  p.partners = { "AS" }; t.ok(not sponsorable("s215"), "2 partner zoos of any continent")
  p.partners = { "EU", "AF" }; t.ok(sponsorable("s215"))
  -- the setup option waives them
  local w = G.setup(3, 47, { prereqs = false })
  t.ok(w.players[1].no_prereqs and w.players[3].no_prereqs)
  t.ok(PRE.ok(G.PENV, w.players[1], G.CARD.a402))
  t.ok(not PRE.ok(G.PENV, G.setup(3, 47).players[1], G.CARD.a402))
end)

test("arknova: project cards are zoo cards: snapped from the display into hand (known), discarded at the break, hidden in hands and dealt afresh by determinization", function()
  local s = fresh(3, 48)
  local p = s.players[1]
  set_display(s, { "c120", "a401", "a402", "a403", "a404", "a405" })
  p.up.cards = true; p.rep = 2
  slots(s, 1, { "animals", "build", "association", "sponsors", "cards" })
  assert(G.apply(s, 1, "cards")); assert(G.apply(s, 1, "snap:1"))
  t.ok(has({ { id = p.hand[#p.hand] } }, "c120") and p.public.c120, "snapped: in hand and known")
  t.eq(G.observation(s, 2).players[1].known, { "c120" })
  invariant(s, "after a snap")
  -- seat 3 holds a project card the others cannot see; determinization may deal it elsewhere
  local q = s.players[3]
  set_hand(s, 3, { "c121", "a406" })
  t.eq(G.observation(s, 1).players[3].hand, nil); t.eq(G.observation(s, 1).players[3].hand_count, 2)
  local rand = kit.generator(9)
  local moved = false
  for _ = 1, 8 do
    local d = G.determinize(s, 1, rand)
    invariant(d, "determinized")
    t.eq(#d.players[3].hand, 2); t.eq(d.players[1].hand, p.hand)
    local here = false
    for _, c in ipairs(d.players[3].hand) do if c == "c121" then here = true end end
    if not here then moved = true end
  end
  t.ok(moved, "the hidden project card is not pinned to seat 3")
  -- a break over the hand limit: a project card may be the one discarded
  set_hand(s, 1, {}); set_hand(s, 2, {}); set_hand(s, 3, { "c121", "a406", "a407", "a408" })
  G.do_break(s)
  t.eq(s.discards, { 3 }, "seat 3 is one over the limit of 3")
  assert(G.apply(s, 3, "discard:c121"))
  t.eq(s.discard[#s.discard - 2], "c121", "then the display's folders 1 and 2 follow it"); t.eq(#q.hand, 3)
end)

-- sponsor buildings (helper anfam) ----------------------------------------------------------------
-- cover every space of seat's map but `free` (and rock / water) with one building
local function fill_but(s, seat, free)
  local keep = {}
  for _, n in ipairs(free) do keep[n] = true end
  local names = {}
  for i, h in ipairs(D.HEXES) do
    if not keep[h.name] and not G.TERRAIN[i] then names[#names + 1] = h.name end
  end
  return put(s, seat, "e1", names)
end
local function hexes_of(p, bi)
  local out = {}
  for _, h in ipairs(p.buildings[bi].hexes) do out[#out + 1] = G.hex_name(h) end
  table.sort(out)
  return out
end
-- seat 1 starts a Sponsors action II at strength 5 with these cards in hand
local function sponsors_turn(s, hand)
  local p = s.players[1]
  waive(s)   -- the prerequisites have their own tests; these test the effects
  set_hand(s, 1, hand)
  p.up.sponsors = true
  slots(s, 1, { "animals", "build", "cards", "association", "sponsors" })
  assert(G.apply(s, 1, "sponsors"))
  return p
end

test("arknova: sponsor buildings: 15 shapes and needs; playable only with a legal place; placed free with its bonuses; rock / water / border / apart rules", function()
  local sizes, rock, water, border, n = {}, 0, 0, 0, 0
  for num, b in pairs(D.SPONSOR_BUILDINGS) do
    n = n + 1
    sizes[num] = #b.shape
    rock, water, border = rock + (b.rock or 0), water + (b.water or 0), border + (b.border or 0)
    t.ok(#G.FOOT["sb" .. num] > 0, num .. " fits the map")
  end
  t.eq(n, 15)
  t.eq(sizes, { [243] = 3, [244] = 4, [245] = 4, [246] = 4, [247] = 4, [248] = 4, [249] = 3, [250] = 4, [251] = 4,
    [252] = 4, [253] = 4, [254] = 3, [255] = 2, [256] = 2, [257] = 2 })
  t.eq({ rock, water, border }, { 6, 6, 4 })
  -- the same shape up to a turn has the same footprints: a 2-hex pair, the bent 3 of the Petting Zoo
  t.eq(#G.FOOT.sb255, #G.FOOT.e2); t.eq(#G.FOOT.sb243, #G.FOOT.petting); t.eq(#G.FOOT.sb254, #G.FOOT.petting)
  t.ok(#G.FOOT.sb249 ~= #G.FOOT.petting, "the straight 3 of the Barred Owl Hut is another shape")
  -- free spaces a1, a2, a3, b1, b2 (the rest covered): a2-a3 is the only pair next to rock (b4);
  -- nothing free is next to water; the pairs with both hexes on the border are a1-a2, a2-a3, a1-b1
  local s = fresh(3, 41)
  fill_but(s, 1, { "a1", "a2", "a3", "b1", "b2" })
  local p = sponsors_turn(s, { "s255", "s256", "s257" })
  local legal = G.legal_actions(s, 1, true)
  t.ok(has(legal, "sponsor:s255") and has(legal, "sponsor:s257"), "Adventure Playground and Side Entrance have a place")
  t.ok(not has(legal, "sponsor:s256"), "the Water Playground has no space next to water: not playable")
  local money, appeal = p.money, p.appeal
  assert(G.apply(s, 1, "sponsor:s255"))
  legal = G.legal_actions(s, 1, true)
  t.eq(#legal, 1, "one place, no stop: the building must be placed"); t.contains(legal[1].id, "free:sb255:")
  assert(G.apply(s, 1, legal[1].id))
  t.eq(hexes_of(p, #p.buildings), { "a2", "a3" }); t.eq(p.money, money, "free"); t.eq(p.appeal, appeal + 4)
  -- Sponsors II: strength 5 + 1 leaves 3 for the Side Entrance: a1-b1 is the one border pair left; b1's bonus
  t.eq(count(s, 1, "^sponsor:s257$"), 1)
  local rep = p.rep
  assert(G.apply(s, 1, "sponsor:s257"))
  t.eq(count(s, 1, "^free:sb257:"), 1)
  assert(G.apply(s, 1, G.legal_actions(s, 1, true)[1].id))
  t.eq(hexes_of(p, #p.buildings), { "a1", "b1" }); t.eq(p.rep, rep + 1, "b1's placement bonus: 1 reputation")
  -- apart: the Side Entrance need not touch a building, the Adventure Playground must
  s = fresh(3, 42); p = s.players[1]
  put(s, 1, "e1", { "f4" })
  local function foot(t_, names)
    local want = {}
    for _, nm in ipairs(names) do want[#want + 1] = H[nm] end
    table.sort(want)
    for _, f in ipairs(G.FOOT[t_]) do if table.concat(f.hexes, ",") == table.concat(want, ",") then return f end end
  end
  t.ok(G.sponsor_can_place(p, "sb257", foot("sb257", { "a1", "a2" })), "Side Entrance on two border spaces, apart")
  t.ok(not G.sponsor_can_place(p, "sb257", foot("sb257", { "a2", "b2" })), "b2 is not a border space")
  t.ok(not G.sponsor_can_place(p, "sb255", foot("sb255", { "a2", "a3" })), "not touching the enclosure at f4")
  local p2 = s.players[2]
  t.ok(G.sponsor_can_place(p2, "sb255", foot("sb255", { "a2", "a3" })), "a first building: on the border, next to rock")
  t.ok(not G.sponsor_can_place(p2, "sb255", foot("sb255", { "b3", "c3" })), "next to rock but not on the border")
  -- Build-II spaces only with the upgraded Build card (i1-i6, h7): the Side Entrance on i5-i6
  t.ok(not G.sponsor_can_place(p, "sb257", foot("sb257", { "i5", "i6" })))
  p.up.build = true
  t.ok(G.sponsor_can_place(p, "sb257", foot("sb257", { "i5", "i6" })))
end)

test("arknova: sponsor buildings' icon effects: appeal or X per icon (own icons count, the Polar Bear any zoo); rock / water icons; Barred Owl Hut, Sea Turtle Tank and Hyena choices", function()
  -- the rulebook's example: the Meerkat Den's own herbivore icon gives its 2 appeal at once
  local s = fresh(3, 43)
  local p = sponsors_turn(s, { "s243" })
  assert(G.apply(s, 1, "sponsor:s243"))
  assert(G.apply(s, 1, G.legal_actions(s, 1, true)[1].id))
  t.eq(p.appeal, 2); t.eq(G.count_icon(p, "rock"), 1, "its rock need is a rock icon")
  -- a herbivore (Llama, 4 appeal) gives 2 more, a predator (Fennec Fox, 3) none
  s = fresh(3, 43); p = s.players[1]; own_sponsors(s, 1, { "s243" })
  play(s, "a439"); t.eq(p.appeal, 4 + 2)
  s = fresh(3, 43); p = s.players[1]; own_sponsors(s, 1, { "s243" })
  play(s, "a405"); t.eq(p.appeal, 3)
  -- Aquarium: each water icon, an animal's water need included (Pygmy Hippopotamus: 1 water)
  s = fresh(3, 44); p = s.players[1]; own_sponsors(s, 1, { "s245" })
  t.eq(G.count_icon(p, "water"), 2)
  play(s, "a430", { "f3", "f4" }); t.eq(p.appeal, 6 + 2); t.eq(G.count_icon(p, "water"), 3)
  -- Rhesus Monkey Park: 1 X per primate icon (the Mandrill shows two)
  s = fresh(3, 45); p = s.players[1]; own_sponsors(s, 1, { "s248" })
  play(s, "a457"); t.eq(p.x, 2)
  -- Polar Bear Exhibit: a bear icon played into any zoo gives its owner 2 appeal
  s = fresh(3, 46); own_sponsors(s, 2, { "s251" })
  local a2 = s.players[2].appeal
  play(s, "a415"); t.eq(s.players[2].appeal, a2 + 2); t.eq(G.count_icon(s.players[2], "water"), 0, "its water need is no icon")
  -- Barred Owl Hut: perception 2 per bird icon, after the Barn Owl's own perception 4 and not mixed with it
  s = fresh(3, 47); p = s.players[1]; own_sponsors(s, 1, { "s249" })
  top(s, { "a401", "a402", "a403", "a404", "a405", "a406" })   -- a406 on top
  local h0 = #p.hand
  play(s, "a513", nil, true)
  t.eq(s.pend[1].f, "perception"); t.eq(count(s, 1, "^keep:"), 4, "the Barn Owl's 4 cards")
  assert(G.apply(s, 1, "keep:a406")); assert(G.apply(s, 1, "keep:a405"))
  t.eq(s.pend[1].f, "perception"); t.eq(ids(G.legal_actions(s, 1, true)), { "keep:a402", "keep:a401" }, "the hut's 2 cards, drawn now")
  assert(G.apply(s, 1, "keep:a401"))
  t.eq(#s.pend, 0); t.eq({ p.hand[#p.hand - 2], p.hand[#p.hand - 1], p.hand[#p.hand] }, { "a406", "a405", "a401" })
  t.eq(#p.hand, h0 + 3); t.eq(#p.held, 0)
  for _, c in ipairs({ "a404", "a403", "a402" }) do t.eq(G.census(s)[c], "discard") end
  -- Sea Turtle Tank: a reptile icon lets one sell up to 2 cards for 4 money each
  s = fresh(3, 48); p = s.players[1]; own_sponsors(s, 1, { "s250" })
  give(s, 1, { "a401", "a402", "a403" })
  play(s, "a473", nil, true)   -- Common Agama: its own sunbathing 2, then the tank's
  t.eq(s.pend[1].f, "sunbathing"); assert(G.apply(s, 1, "stop"))
  t.eq(s.pend[1].f, "sunbathing"); t.eq(s.pend[1].left, 2)
  local m = p.money
  assert(G.apply(s, 1, "sell:a401")); assert(G.apply(s, 1, "sell:a402"))
  t.eq(p.money, m + 8); t.eq(#s.pend, 0)
  -- Spotted Hyena Compound: a predator icon reveals X = the owner's predator icons (the hyena's and the fox's)
  s = fresh(3, 49); p = s.players[1]; own_sponsors(s, 1, { "s252" })
  top(s, { "s201", "a402", "s202" })
  play(s, "a405", nil, true)
  t.eq(#s.revealed, 2); t.eq(ids(G.legal_actions(s, 1, true)), { "keep:a402" }, "only the animal may be kept")
  assert(G.apply(s, 1, "keep:a402")); t.eq(#s.revealed, 0)
  -- the Explorer does not take rock or water for a new kind of icon
  s = fresh(3, 50); p = s.players[1]; own_sponsors(s, 1, { "s262" })
  play(s, "a430", { "f3", "f4" }); t.eq(p.money, 100 - 15 + 2 * 2, "Africa and herbivore new: 2 x 2 money, water not a kind")
  t.eq(p.appeal, 6 + 2)
end)

test("arknova: sponsor buildings at the break and the end: Side Entrance income by neighbours, a covered map 5 appeal, 6 icons 1 CP, bears 3 / 6; Zoo School takes a card", function()
  local s = fresh(3, 51)
  local p = s.players[1]
  own_sponsors(s, 1, { "s257" })
  put(s, 1, "sb257", { "a1", "a2" })
  put(s, 1, "e1", { "b2" }, { "a405" }); p.zoo = { "a405" }
  put(s, 1, "e1", { "a3" })                                   -- empty: does not count
  put(s, 1, "kiosk", { "b1" })
  local m = p.money
  G.sponsor_income(s, 1); t.eq(p.money, m + 2 * 2, "the occupied enclosure and the kiosk")
  t.eq(G.sponsor_end_appeal(p), 0)
  fill_but(s, 1, { "a1", "a2", "a3", "b1", "b2" })
  t.eq(G.sponsor_end_appeal(p), 5, "every space without rock or water covered")
  -- Meerkat Den: 1 CP at the end for 6 herbivore icons (the den's own counts)
  s = fresh(3, 52); p = s.players[1]
  own_sponsors(s, 1, { "s243" }); into_zoo(s, 1, { "a428", "a429", "a430", "a435" })
  t.eq(G.sponsor_end_cp(p), 0, "5 herbivore icons")
  into_zoo(s, 1, { "a439" }); t.eq(G.sponsor_end_cp(p), 1)
  -- Polar Bear Exhibit: 1 / 2 CP for 3 / 6 bear icons (its own counts)
  s = fresh(3, 53); p = s.players[1]
  own_sponsors(s, 1, { "s251" }); into_zoo(s, 1, { "a408", "a409" })
  t.eq(G.sponsor_end_cp(p), 1)
  into_zoo(s, 1, { "a411", "a414", "a415" }); t.eq(G.sponsor_end_cp(p), 2)
  -- Zoo School: on 2 border spaces, 1 CP and 1 reputation, then a card from the deck or in range
  s = fresh(3, 54)
  p = sponsors_turn(s, { "s254" })
  assert(G.apply(s, 1, "sponsor:s254"))
  t.eq(p.cp, 1); t.eq(p.rep, 1)
  local first = G.legal_actions(s, 1, true)[1].id
  t.contains(first, "free:sb254:")
  assert(G.apply(s, 1, first))
  local b = p.buildings[#p.buildings]
  local on_border = 0
  for _, h in ipairs(b.hexes) do if G.BORDER[h] then on_border = on_border + 1 end end
  t.ok(on_border >= 2, "at least 2 border spaces")
  local want = { "draw" }
  for k = 1, G.reach(p) do want[#want + 1] = "take:" .. k end
  t.eq(ids(G.legal_actions(s, 1, true)), want, "a card from the deck or within reputation range")
end)

test("arknova: venom and constriction tokens on the action cards of the seats ahead: venom costs 2 money a turn until a venomed card is used, constriction takes 2 strength; the break clears them; Quarantine Lab protects", function()
  local s = fresh(3, 61)
  local p1, p2, p3 = s.players[1], s.players[2], s.players[3]
  p2.appeal, p3.appeal = 10, 0
  slots(s, 2, { "cards", "build", "animals", "association", "sponsors" })
  play(s, "a470")   -- Western Green Mamba: venom 2 (appeal 6 for seat 1: seat 2 with 10 is ahead, seat 3 is not)
  t.eq(p2.tokens.venom, { cards = true, build = true }, "on seat 2's cards in slots 1 and 2")
  t.eq(p3.tokens.venom, {})
  -- seat 2 takes the X-token action with its sponsors card: no venom removed, 2 money paid
  t.eq(G.current_seats(s)[1], 2)
  local m = p2.money
  assert(G.apply(s, 2, "x:sponsors")); t.eq(p2.money, m - 2)
  -- seats 3 and 1 (no tokens), then seat 2 uses its Cards card (now slot 2): the token goes, nothing to pay
  assert(G.apply(s, 3, "x:sponsors")); assert(G.apply(s, 1, "x:sponsors"))
  m = p2.money
  local sl = G.slot_of(p2, "cards")
  m = p2.money
  assert(G.apply(s, 2, "cards"))
  while G.current_seats(s)[1] == 2 do assert(G.apply(s, 2, G.legal_actions(s, 2, true)[1].id)) end
  t.eq(p2.tokens.venom, { build = true }); t.eq(p2.money, m, "a venomed card used: no payment (strength " .. sl .. ")")
  -- constriction: seat 2 ahead on appeal and CP gets tokens on its slot 5 and slot 4 cards
  s = fresh(3, 62); p1, p2, p3 = s.players[1], s.players[2], s.players[3]
  p2.appeal, p2.cp = 10, 3
  p3.appeal = 10; own_sponsors(s, 3, { "s225" })              -- Quarantine Lab: untouched
  slots(s, 2, { "cards", "build", "animals", "association", "sponsors" })
  play(s, "a474")   -- Indian Rock Python: constriction
  t.eq(p2.tokens.constriction, { sponsors = 1, association = 1 }); t.eq(p3.tokens.constriction, {})
  t.eq(G.strength(p2, "sponsors"), 3, "slot 5 - 2"); t.eq(G.strength(p2, "association", 1), 3, "slot 4 + 1 X - 2")
  t.eq(G.strength(p2, "cards"), 1)
  local legal = G.legal_actions(s, 2)
  for _, a in ipairs(legal) do
    if a.id == "sponsors" then t.contains(a.label, "strength 3") end
  end
  -- only one track ahead: the slot 5 card only
  s = fresh(3, 63); p2 = s.players[2]; p2.appeal = 10
  play(s, "a482", { "f3", "f4" })   -- Anaconda (1 water: g3)
  local five = p2.slots[5]
  t.eq(p2.tokens.constriction, { [five] = 1 })
  -- the break takes every token back
  p2.tokens.venom.cards = true
  for i = 1, 3 do set_hand(s, i, {}) end
  G.do_break(s)
  t.eq(p2.tokens, { venom = {}, constriction = {}, multiplier = {} })
end)

test("arknova: multiplier: a token on the named action card; its next use may be repeated once per token at the same strength, or it gives 1 X-token more; flock shares a herbivore's enclosure of size X+", function()
  local s = fresh(3, 64)
  local p = s.players[1]
  play(s, "a510")   -- White Stork: multiplier on the Build card
  t.eq(p.tokens.multiplier, { build = 1 })
  -- seat 1's next turn: Build at strength 5 (side I: one building), then the same once more at 5
  s.turn = 1; s.step = { k = "turn" }; s.pend = {}; s.after = {}
  p.money = 100
  slots(s, 1, { "animals", "cards", "association", "sponsors", "build" })
  assert(G.apply(s, 1, "build"))
  assert(G.apply(s, 1, "build:e1"))
  assert(G.apply(s, 1, G.legal_actions(s, 1, true)[1].id))
  t.eq(ids(G.legal_actions(s, 1, true)), { "again:build", "stop" })
  t.contains(G.legal_actions(s, 1)[1].label, "strength 5")
  local nb = #p.buildings
  assert(G.apply(s, 1, "again:build"))
  t.eq(s.step.k, "build"); t.eq(s.step.left, 5, "the same strength again")
  assert(G.apply(s, 1, "build:e2")); assert(G.apply(s, 1, G.legal_actions(s, 1, true)[1].id))
  t.eq(#p.buildings, nb + 1); t.eq(p.tokens.multiplier, {}); t.eq(G.current_seats(s)[1], 2, "no token left: the turn ends")
  -- the X-token action with a multiplied card: 1 X-token more per token
  s = fresh(3, 65); p = s.players[1]
  p.tokens.multiplier.cards = 2
  assert(G.apply(s, 1, "x:cards")); t.eq(p.x, 3); t.eq(p.tokens.multiplier, {})
  -- flock: the Llama (flock 2) may share an occupied enclosure of 2+ spaces holding a herbivore
  s = fresh(3, 66); p = s.players[1]; p.money = 100
  local big = put(s, 1, "e3", { "a1", "a2", "b2" }, { "a428" })     -- Giraffe (herbivore)
  local pred = put(s, 1, "e3", { "a4", "a5", "b5" }, { "a403" })    -- Leopard (predator)
  local small = put(s, 1, "e1", { "c1" }, { "a445" })              -- Crested Porcupine (herbivore), 1 space
  p.zoo = { "a428", "a403", "a445" }
  set_hand(s, 1, { "a439", "a405" })
  slots(s, 1, { "build", "cards", "association", "sponsors", "animals" })
  t.ok(G.fits(p, G.CARD.a439, big), "a herbivore's 3-space enclosure")
  t.ok(not G.fits(p, G.CARD.a439, pred), "not with a predator")
  t.ok(not G.fits(p, G.CARD.a439, small), "a 1-space enclosure is under flock 2")
  t.ok(not G.fits(p, G.CARD.a405, big), "the Fennec Fox has no flock")
  local two = put(s, 1, "e2", { "e1", "e2" }, { "a444" })          -- Alpine Ibex (herbivore), 2 spaces
  t.ok(G.fits(p, G.CARD.a439, two), "a 2-space enclosure is enough for flock 2")
  p.buildings[two].animals = {}
  assert(G.apply(s, 1, "animals")); assert(G.apply(s, 1, "play:a439:" .. big))
  t.eq(p.buildings[big].animals, { "a428", "a439" })
end)

test("arknova: map option: the printed map 7 (opts.map = plan7): its rock, water, Build-II spaces and bonuses; matches on two maps interleave; a bad map name is one clear error", function()
  local s7, s0 = fresh(3, 70, { map = "plan7" }), fresh(3, 70)
  t.eq(s7.map, "plan7"); t.eq(s0.map, "ours")
  local function first_build(s)
    slots(s, 1, { "build", "animals", "cards", "association", "sponsors" })
    assert(G.apply(s, 1, "build")); assert(G.apply(s, 1, "build:kiosk"))
    return G.legal_actions(s, 1, true)
  end
  local l7 = first_build(s7)
  local l0 = first_build(s0)
  -- 26 border spaces; on map 7 less a1, a2, e1 (rock), h1, i1, i2, i3, i6 (water) and d7 (Build II)
  t.eq(#l7, 17); t.eq(#l0, 17)
  t.ok(has(l0, "place:a1:0") and not has(l7, "place:a1:0"), "a1 is rock on map 7")
  t.ok(has(l7, "place:i5:0") and not has(l0, "place:i5:0"), "i5 needs Build II on ours, not on map 7")
  t.eq(#G.legal_actions(s7, 1, true), 17, "back to map 7 after a look at the other match")
  -- covering i5 gives map 7's X-token; d2 a card from the deck or in range; h4 a card to slot 1 after the action
  local p = s7.players[1]
  assert(G.apply(s7, 1, "place:i5:0")); t.eq(p.x, 1)
  s7 = fresh(3, 71, { map = "plan7" }); p = s7.players[1]
  put(s7, 1, "e1", { "c2" })
  slots(s7, 1, { "build", "animals", "cards", "association", "sponsors" })
  assert(G.apply(s7, 1, "build")); assert(G.apply(s7, 1, "build:kiosk")); assert(G.apply(s7, 1, "place:d2:0"))
  t.eq(s7.pend[1].f, "take-card"); t.eq(G.legal_actions(s7, 1, true)[1].id, "draw")
  s7 = fresh(3, 72, { map = "plan7" }); p = s7.players[1]
  put(s7, 1, "e1", { "h5" })
  slots(s7, 1, { "build", "animals", "cards", "association", "sponsors" })
  assert(G.apply(s7, 1, "build")); assert(G.apply(s7, 1, "build:kiosk")); assert(G.apply(s7, 1, "place:h4:0"))
  t.eq(s7.pend[1].f, "clever"); t.eq(count(s7, 1, "^slot1:"), 4)
  local o = G.observation(s7, 1)
  t.eq(o.map, "plan7"); t.contains(G.render(o), "Ice Cream Parlors"); t.contains(G.render(o), "h4 after the action any action card to slot 1")
  t.contains(G.svg(o), "<svg")
  t.raises(function() G.setup(3, 1, { map = "plan9" }) end, "map must be one of planA, ours, plan7, not plan9")
end)

test("arknova: the default map is the printed Plan A: rock, water, Build-II spaces and bonuses as SOURCES.md's two sources give them; 14 free border spaces; its +2 reputation, worker and 10 money bonuses", function()
  t.eq(G.setup(3, 1).map, "planA", "the default")
  t.eq(D.DEFAULT_MAP, "planA")
  -- every space of Plan A against the `check map` lines of SOURCES.md (the two sources' values)
  local src = assert(io.open(t.root() .. "/games/arknova/SOURCES.md")):read("a")
  local checks = {}
  for key, vals in src:gmatch("\n%s*check (map [%w_]+): ([^\n]+)") do checks[key] = vals end
  local A = D.MAPS.planA
  local function sorted(list) local c = {} for i, v in ipairs(list) do c[i] = v end table.sort(c) return table.concat(c, " ") end
  t.eq(sorted(A.rock), checks["map rock"], "Plan A rock")
  t.eq(sorted(A.water), checks["map water"], "Plan A water")
  t.eq(sorted(A.build2), checks["map build2"], "Plan A Build-II spaces")
  local bn = {}
  for n, b in pairs(A.bonus) do bn[#bn + 1] = n .. "=" .. b end
  t.eq(sorted(bn), checks["map bonus"], "Plan A placement bonuses")
  -- the first kiosk goes on the border: 26 spaces less b1, b7, d1 (rock), c1, c6, d7, e1, h1, i1, i2
  -- (water) and h7, i6 (Build II)
  local s = fresh(3, 74, { map = "planA" })
  local p = s.players[1]
  slots(s, 1, { "build", "animals", "cards", "association", "sponsors" })
  assert(G.apply(s, 1, "build")); assert(G.apply(s, 1, "build:kiosk"))
  local l = G.legal_actions(s, 1, true)
  t.eq(#l, 14, "free border spaces for a kiosk on Plan A")
  t.ok(has(l, "place:a1:0") and not has(l, "place:b1:0") and not has(l, "place:i6:0"), "a1 free, b1 rock, i6 Build II")
  local rep = p.rep
  assert(G.apply(s, 1, "place:a1:0")); t.eq(p.rep, rep + 2, "a1: +2 reputation")
  s = fresh(3, 75, { map = "planA" }); p = s.players[1]
  slots(s, 1, { "build", "animals", "cards", "association", "sponsors" })
  local money = p.money
  assert(G.apply(s, 1, "build")); assert(G.apply(s, 1, "build:kiosk")); assert(G.apply(s, 1, "place:i3:0"))
  t.eq(p.money, money - 2 + 10, "i3: 10 money (the kiosk cost 2)")
  s = fresh(3, 76, { map = "planA" }); p = s.players[1]
  put(s, 1, "e1", { "g2" })
  slots(s, 1, { "build", "animals", "cards", "association", "sponsors" })
  local workers = p.workers
  assert(G.apply(s, 1, "build")); assert(G.apply(s, 1, "build:kiosk")); assert(G.apply(s, 1, "place:h2:0"))
  t.eq(p.workers, workers + 1, "h2: an association worker")
  local o = G.observation(s, 1)
  t.eq(o.map, "planA"); t.contains(G.render(o), "Plan A"); t.contains(G.render(o), "i3 +10 money")
  t.contains(G.svg(o), "<svg")
  -- a state recorded before opts.map existed (no map) was played on our layout, and still is
  s.map = nil
  t.contains(G.render(G.observation(s, 1)), "plan A (our layout)")
end)

test("arknova: the supply of enclosures and kiosks is not limited (rulebook: a substitute when one runs out): a 29th 1-space enclosure can be built", function()
  local s = fresh(3, 73)
  local p = s.players[1]
  p.money = 100
  local n = 0
  for i, h in ipairs(D.HEXES) do
    if n < 28 and not G.TERRAIN[i] and not G.B2[i] and h.name ~= "a6" then put(s, 1, "e1", { h.name }); n = n + 1 end
  end
  t.eq(n, 28, "the box's 28 one-space enclosures all on the map")
  slots(s, 1, { "build", "animals", "cards", "association", "sponsors" })
  assert(G.apply(s, 1, "build"))
  t.ok(has(G.legal_actions(s, 1, true), "build:e1"))
end)

test("arknova: Engineer: one more building of a kind just built, once per Build action, paid, outside the strength; Basic Research: 1 CP per 2 icon kinds, 2 money to the others per CP", function()
  local s = fresh(3, 74)
  local p = s.players[1]
  own_sponsors(s, 1, { "s217" })
  p.money = 30
  slots(s, 1, { "build", "animals", "cards", "association", "sponsors" })   -- Build I at strength 1
  assert(G.apply(s, 1, "build")); assert(G.apply(s, 1, "build:kiosk")); assert(G.apply(s, 1, "place:a3:0"))
  t.eq(#s.pend, 0, "a second kiosk would touch the first, closer than 3 steps: nothing to offer")
  -- a 1-space enclosure instead: after it, one more, paid, and not again in the same action
  s = fresh(3, 75); p = s.players[1]; own_sponsors(s, 1, { "s217" }); p.money = 30
  slots(s, 1, { "build", "animals", "cards", "association", "sponsors" })
  assert(G.apply(s, 1, "build")); assert(G.apply(s, 1, "build:e1")); assert(G.apply(s, 1, "place:a1:0"))
  t.eq(p.money, 28)
  t.eq(count(s, 1, "^copy:e1:"), 3, "a2, b1 and b2 touch a1")
  assert(G.apply(s, 1, "copy:e1:a2:0"))
  t.eq(p.money, 26); t.eq(#p.buildings, 2); t.eq(#s.pend, 0); t.eq(G.current_seats(s)[1], 2, "Build I at strength 1: done")
  -- Build II at strength 5: the copy does not use the strength, and comes once per action
  s = fresh(3, 75); p = s.players[1]; own_sponsors(s, 1, { "s217" }); p.money = 30; p.up.build = true
  slots(s, 1, { "animals", "cards", "association", "sponsors", "build" })
  assert(G.apply(s, 1, "build")); assert(G.apply(s, 1, "build:e1")); assert(G.apply(s, 1, "place:a1:0"))
  assert(G.apply(s, 1, "copy:e1:a2:0"))
  t.eq(s.step.k, "build"); t.eq(s.step.left, 4, "5 less the first 1-space enclosure only")
  assert(G.apply(s, 1, "build:kiosk")); assert(G.apply(s, 1, "place:a3:0"))
  t.eq(#s.pend, 0, "no second copy in the same Build action")
  -- Basic Research: the zoo shows Africa, Asia, predator, herbivore, primate (5 kinds): 2 CP, 4 money to each other seat
  s = fresh(3, 76); p = s.players[1]
  into_zoo(s, 1, { "a402", "a431", "a460" })   -- Lion (AF predator), Asian Elephant (AS herbivore), Dusky Leaf Monkey (AS primate)
  local m2, m3 = s.players[2].money, s.players[3].money
  sponsor_play(s, "s207")
  t.eq(p.cp, 2); t.eq(s.players[2].money, m2 + 4); t.eq(s.players[3].money, m3 + 4)
end)

test("arknova: map connectivity sponsors: Hydrologist and Geologist (appeal by icons, money per space next to water / rock, all connected 1 CP), the Natives and Free-Range Monkeys (connected and unconnected spaces, free groups)", function()
  -- our map: rock b4, c4, e1, h6; water g2, g3, h3, d7; bonus spaces b1, f6, d2, h1, a6
  local s = fresh(3, 77)
  local p = s.players[1]
  into_zoo(s, 1, { "a430" })                      -- Pygmy Hippopotamus: 1 water icon
  sponsor_play(s, "s241"); t.eq(p.appeal, 1, "1 appeal per water icon")
  -- a 1-space enclosure at g1 (next to water g2): 2 money less, 1 money back
  s = fresh(3, 78); p = s.players[1]; own_sponsors(s, 1, { "s241" })
  local m = p.money
  slots(s, 1, { "build", "animals", "cards", "association", "sponsors" })
  assert(G.apply(s, 1, "build")); assert(G.apply(s, 1, "build:e1")); assert(G.apply(s, 1, "place:g1:0"))
  t.eq(p.money, m - 2 + 1)
  t.eq(G.sponsor_end_cp(p), 0, "g3, h3 and d7 are not connected")
  put(s, 1, "e1", { "f4" }); put(s, 1, "e1", { "h2" })
  t.eq(G.sponsor_end_cp(p), 0, "d7 still not")
  put(s, 1, "e1", { "d6" }); t.eq(G.sponsor_end_cp(p), 1, "every water space next to a building")
  -- Geologist: 3 appeal per 2 rock icons (Alpine Ibex 2 + Leopard 1 = 3 icons: one pair)
  s = fresh(3, 79); p = s.players[1]
  into_zoo(s, 1, { "a444", "a403" })
  sponsor_play(s, "s242"); t.eq(p.appeal, 3)
  s = fresh(3, 79); p = s.players[1]
  into_zoo(s, 1, { "a444", "a403", "a440" })   -- and a Mountain Tapir: 4 rock icons, two pairs
  sponsor_play(s, "s242"); t.eq(G.count_icon(p, "rock"), 4); t.eq(p.appeal, 6)
  -- Native Seabirds: g2 (by g1) and g3 (by f4) connected: 2 appeal; h3 and d7 not: 1 CP
  s = fresh(3, 80); p = s.players[1]
  put(s, 1, "e1", { "g1" }); put(s, 1, "e1", { "f4" })
  sponsor_play(s, "s258"); t.eq(p.appeal, 2); t.eq(G.sponsor_end_cp(p), 1)
  -- Native Lizards: b4 by a3: 1 appeal; c4, e1, h6 unconnected: 1 CP (3 // 2)
  s = fresh(3, 81); p = s.players[1]
  put(s, 1, "e1", { "a3" })
  sponsor_play(s, "s259"); t.eq(p.appeal, 1); t.eq(G.sponsor_end_cp(p), 1)
  -- Native Farm Animals: the empty border spaces a2, a4 next to a3: 2 appeal; 58 - 8 rock / water - 1
  -- covered = 49 free spaces in one group: 8 CP
  s = fresh(3, 82); p = s.players[1]
  put(s, 1, "e1", { "a3" })
  sponsor_play(s, "s260"); t.eq(p.appeal, 2)
  t.eq(G.free_groups(p), { 49 }); t.eq(G.sponsor_end_cp(p), 8)
  -- Free-Range New World Monkeys: b1 covered and a6 next to a5: 2 connected bonus spaces; f6, d2,
  -- h1 unconnected: 1 CP
  s = fresh(3, 83); p = s.players[1]
  put(s, 1, "e1", { "b1" }); put(s, 1, "e1", { "a5" })
  sponsor_play(s, "s264"); t.eq(p.appeal, 2); t.eq(G.sponsor_end_cp(p), 1)
end)

test("arknova: Diversity Researcher: building over rock and water, rock / water needs ignored, 2 money per rock / water icon, 2 appeal per rock-water pair at the end (at most 3)", function()
  local s = fresh(3, 84)
  local p = s.players[1]
  into_zoo(s, 1, { "a444", "a430" })               -- Alpine Ibex (2 rock), Pygmy Hippopotamus (1 water)
  local m = p.money
  sponsor_play(s, "s219"); t.eq(p.money, m + 2 * 3)
  t.eq(G.sponsor_end_appeal(p), 2, "one rock-water pair")
  into_zoo(s, 1, { "a446", "a515" })               -- Dugong (2 water), Australian Pelican (2 water): 5 water, 2 rock
  t.eq(G.sponsor_end_appeal(p), 2 * 2)
  into_zoo(s, 1, { "a403", "a413" })               -- Leopard, Cougar (1 rock each): 4 rock, 5 water
  t.eq(G.sponsor_end_appeal(p), 2 * 3, "at most 3 pairs")
  -- a 1-space enclosure on rock e1 (a border space): legal with the researcher only
  s = fresh(3, 85); p = s.players[1]
  slots(s, 1, { "build", "animals", "cards", "association", "sponsors" })
  assert(G.apply(s, 1, "build")); assert(G.apply(s, 1, "build:e1"))
  t.ok(not has(G.legal_actions(s, 1, true), "place:e1:0"))
  own_sponsors(s, 1, { "s219" })
  t.ok(has(G.legal_actions(s, 1, true), "place:e1:0"))
  assert(G.apply(s, 1, "place:e1:0"))
  -- its needs ignored: the Alpine Ibex (size 2, 2 rock) fits an enclosure of 2 without rock next to it
  s = fresh(3, 86); p = s.players[1]
  local bi = put(s, 1, "e2", { "f4", "f5" })
  t.ok(not G.fits(p, G.CARD.a444, bi))
  own_sponsors(s, 1, { "s219" }); t.ok(G.fits(p, G.CARD.a444, bi))
end)

test("arknova: a sponsor's own icons trigger its own effects (rulebook p. 16): the Primatologist's primate icon pays it 3, the Expert on the Americas' icon a free kiosk", function()
  local s = fresh(3, 87)
  local p = s.players[1]
  local m = p.money
  sponsor_play(s, "s236"); t.eq(p.money, m + 3)
  s = fresh(3, 88); p = s.players[1]
  put(s, 1, "e1", { "a1" })
  sponsor_play(s, "s210")
  t.eq(s.pend[1].f, "free-kiosk"); t.ok(count(s, 1, "^free:kiosk:") > 0)
end)

-- anx: the last card effects and the kiosk income ------------------------------------------------
test("arknova: kiosk income: 1 per occupied standard enclosure, special enclosure, pavilion or sponsor building next to it; empty standard enclosures and kiosks give nothing (rulebook p. 18)", function()
  local s = fresh(3, 201)
  local q = s.players[2]
  q.appeal = 0
  local base = G.income_of(q)
  put(s, 2, "kiosk", { "c3" })
  put(s, 2, "e1", { "c2" }); put(s, 2, "e2", { "b3", "b4" })
  t.eq(G.income_of(q), base, "two empty standard enclosures next to the kiosk: nothing")
  q.buildings[2].animals = { "a401" }
  t.eq(G.income_of(q), base + 1, "the occupied one pays")
  put(s, 2, "pavilion", { "d3" })
  t.eq(G.income_of(q), base + 2, "a pavilion pays")
  put(s, 2, "petting", { "d4", "c4", "d5" })
  t.eq(G.income_of(q), base + 3, "an empty special enclosure pays")
end)

test("arknova: assertion takes any unused base project into the hand, dominance only Primates; it is then played from the hand and supported like a project card", function()
  local s = fresh(3, 202)
  local p = s.players[1]
  local onboard = {}
  for _, bp in ipairs(s.projects) do onboard[bp.id] = true end
  play(s, "a427")                                   -- White Rhinoceros: assertion
  t.eq(s.pend[1].f, "assertion")
  local offered = {}
  for _, a in ipairs(G.legal_actions(s, 1, true)) do if a.id:find("^assert:") then offered[#offered + 1] = a.id:sub(8) end end
  t.eq(#offered, 12 - 3, "the 9 base projects not on the board")
  for _, pid in ipairs(offered) do t.ok(not onboard[pid], pid .. " is not on the board") end
  t.ok(has(G.legal_actions(s, 1), "stop"), "optional")
  local pick
  for _, want in ipairs({ "p101", "p102", "p103", "p111" }) do
    for _, pid in ipairs(offered) do if pid == want and not pick then pick = pid end end
  end
  assert(G.apply(s, 1, "assert:" .. pick))
  t.eq(p.bhand, { pick }); t.eq(#s.pend, 0)
  t.contains(G.render(G.observation(s, 2)), "base projects in hand (public): " .. G.data.PROJECT_DATA.BY_ID[pick].name)
  -- a second assertion no longer offers it
  s.turn = 1; s.step = { k = "turn" }
  play(s, "a432")
  t.ok(not has(G.legal_actions(s, 1, true), "assert:" .. pick), "taken once only")
  t.ok(#G.legal_actions(s, 1, true) > 0)
  assert(G.apply(s, 1, "stop")); t.eq(p.bhand, { pick })
  -- played from the hand: fill the zoo so its left level is reachable, support, it joins the board
  local pr = G.data.PROJECT_DATA.BY_ID[pick]
  p.no_prereqs = true
  -- 3 classes, 4 continents, 3 Africa icons, 3 herbivores with the two rhinoceroses
  zoo_of(s, 1, { "a401", "a436", "a469", "a425" })
  local task = ptasks(s, 1, pick)[1]
  t.ok(task ~= nil, "a level of " .. pick .. " from the hand is open")
  local cp = p.cp
  support(s, task)
  t.eq(p.bhand, {}, "played out of the hand")
  local found
  for _, bp in ipairs(s.projects) do if bp.id == pick then found = bp end end
  t.ok(found and found.from_hand and not found.card, "on the board as a played project")
  t.ok(p.cp > cp)
  local n = 0
  for _ in pairs(G.census(s)) do n = n + 1 end
  t.eq(n, 212, "the zoo cards are still 212: a base project is not one of them")
  -- dominance (451 Proboscis Monkey) offers Primates only, and only when it is unused
  s = fresh(3, 203); p = s.players[1]
  local primates_on = false
  for _, bp in ipairs(s.projects) do if bp.id == "p108" then primates_on = true end end
  play(s, "a451")
  if primates_on then t.eq(#s.pend, 0, "Primates on the board: nothing to take")
  else
    local l = G.legal_actions(s, 1, true)
    t.eq(#l, 2); t.ok(has(l, "assert:p108") and has(l, "stop"))
    assert(G.apply(s, 1, "assert:p108")); t.eq(p.bhand, { "p108" })
  end
  -- with Primates on the board
  s = fresh(3, 203); p = s.players[1]
  s.projects[1].id = "p108"
  play(s, "a451"); t.eq(#s.pend, 0, "Primates is in the game: dominance gives nothing")
end)

test("arknova: Migration Recording (224): 1 X-token; each release support 1 CP more, and a release project may be supported again at a free level", function()
  local function run(with)
    local s = fresh(3, 204)
    local p = s.players[1]
    p.no_prereqs = true
    if with then
      local x = p.x
      sponsor_play(s, "s224"); t.eq(p.x, x + 1, "1 X-token at once")
    end
    give(s, 1, { "c113" })                            -- Bavarian Forest National Park: release a Europe animal
    zoo_of(s, 1, { "a416", "a418" })                  -- Eurasian Brown Bear (size 5), Eurasian Lynx (size 3)
    local cp = p.cp
    support(s, "project:c113:1:a416")
    local gain = p.cp - cp
    if #s.bonuses > 0 then assert(G.apply(s, 1, "upgrade:cards")) end   -- the CP track's bonus
    p.busy = 0                                        -- the worker back, to ask again
    return s, p, gain
  end
  local s, p, gain = run(false)
  t.eq(gain, 5, "level 1 of a release: 5 CP")
  t.eq(ptasks(s, 1, "c113"), {}, "supported once: no more")
  s, p, gain = run(true)
  t.eq(gain, 5 + 1, "one more CP with Migration Recording")
  t.eq(ptasks(s, 1, "c113"), { "project:c113:2:a418" }, "the same release project again, at the free level 2")
  local cp = p.cp
  support(s, "project:c113:2:a418"); t.eq(p.cp - cp, 4 + 1)
  p.busy = 0
  t.eq(ptasks(s, 1, "c113"), {}, "no animal left for level 3")
end)

test("arknova: Breeding Cooperation / Breeding Program (215, 218): 2 tokens, exactly 1 spent as any icon for a base project (not a project card); 1 CP at the end for 5 projects supported", function()
  local s = fresh(3, 205)
  local p = s.players[1]
  s.projects[1] = { id = "p110", levels = { 0, 0, 0 } }     -- Predators: level 3 needs 2 predator icons
  zoo_of(s, 1, { "a405" })                                  -- Fennec Fox: 1 predator
  t.eq(ptasks(s, 1, "p110"), {}, "1 predator: not enough without a token")
  sponsor_play(s, "s215")
  t.eq(p.icon_tokens, 2)
  t.eq(ptasks(s, 1, "p110"), { "project:p110:3:token" }, "one token makes up the second icon, not two (level 2 needs 4)")
  give(s, 1, { "c124", "c130" })                            -- project cards in hand: no token for them (Small Animals: 1 of 2)
  for _, x in ipairs(ptasks(s, 1)) do t.ok(not (x:find("^project:c") and x:find(":token$")), x) end
  local cp = p.cp
  support(s, "project:p110:3:token")
  t.eq(p.cp - cp, 2); t.eq(p.icon_tokens, 1, "the token is spent")
  -- the end: 1 CP for 5 supported projects
  local before = G.sponsor_end_cp(p)
  p.supported = { "p110", "p101", "p102", "p103" }
  t.eq(G.sponsor_end_cp(p), before, "4 supported: nothing")
  p.supported[5] = "p104"
  t.eq(G.sponsor_end_cp(p), before + 1, "5 supported: 1 CP")
end)

test("arknova: WAZA Large Animal Program (263): a free 5-hex enclosure at once; a large animal may miss one condition, a small one not", function()
  local PRE = require "games.arknova.prereqs"
  local s = fresh(3, 206)
  local p = s.players[1]
  put(s, 1, "e1", { "a1" })
  local n, m = #p.buildings, nil
  p = sponsor_play(s, "s263")
  p.no_prereqs = nil
  t.eq(s.pend[1] and s.pend[1].f, "free-e5")
  local free
  for _, a in ipairs(G.legal_actions(s, 1, true)) do if a.id:find("^free:e5:") then free = free or a.id end end
  t.ok(free ~= nil, "a free 5-hex enclosure is offered")
  m = p.money
  assert(G.apply(s, 1, free))
  t.eq(#p.buildings, n + 1); t.eq(p.buildings[#p.buildings].t, "e5"); t.eq(p.money, m, "for free")
  -- the Lion (size 4) needs 3 predator icons: with 2 it may be played, with 1 not
  zoo_of(s, 1, { "a405", "a425" })
  t.ok(PRE.ok(G.PENV, p, G.CARD.a402), "one icon missing: ignored")
  local keep = p.sponsors
  p.sponsors = {}
  t.eq(PRE.ok(G.PENV, p, G.CARD.a402), false, "without the sponsor 2 predators are not enough")
  p.sponsors = keep
  p.zoo = { p.zoo[1] }
  t.eq(PRE.ok(G.PENV, p, G.CARD.a402), false, "two icons missing: not ignored")
  t.eq(PRE.ok(G.PENV, p, G.CARD.a420), false, "a small animal (the Stoat, size 1) may not miss its Europe icon")
end)

return T
