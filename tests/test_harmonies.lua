-- Harmonies rules: the data manifest (120 tokens, side A, 32 animal cards), invariants over
-- random playouts (tokens and cards conserved, stacks legal, limits), stacking legality, each
-- landscape scoring and each animal habitat under all six rotations on hand-built boards,
-- legal-action counts, the end trigger and the final round, the tie-break, replay, no stuck
-- state, the perturbation and determinization tests of hidden information, the observation
-- size, the heuristic against Random, the drawing, and the rules audit (RULES-AUDIT.md).
-- slow: random playouts of the rules and a full arena run (left out by make check)
local t = require "tabula.testing"
local G = require "games.harmonies"
local D = require "games.harmonies.data"
local kit = require "games.kit"
local json = require "tabula.json"
local rt = require "games.rules_test"
local ismcts = require "games.ismcts"
local test, T = t.suite()

local H = G.HEXID
local function blank_board()
  local b = {}
  for i = 1, #D.HEXES do b[i] = "" end
  return b
end
local function board_of(map)
  local b = blank_board()
  for name, st in pairs(map) do b[H[name]] = st end
  return b
end

local LEGAL_STACKS = { [""] = true, M = true, MM = true, MMM = true, T = true, TT = true, G = true, TG = true,
  TTG = true, Y = true, W = true, R = true, MR = true, TR = true, RR = true }

-- every token, card and cube accounted for; every stack one the rules allow; limits held
local function invariant(s, where)
  where = where or ""
  local c = G.census(s)
  for k, col in ipairs(D.COLOURS) do
    if c[k] ~= col.count then error(string.format("%s: %d %s tokens instead of %d", where, c[k], col.id, col.count), 0) end
  end
  local seen, cards = {}, 0
  local function card(id)
    if seen[id] then error(where .. ": card " .. id .. " is in two places", 0) end
    seen[id] = true; cards = cards + 1
  end
  for _, id in ipairs(s.deck) do card(id) end
  for _, id in ipairs(s.river) do card(id) end
  if #s.river > D.RIVER then error(where .. ": more than five cards on offer", 0) end
  for i = 1, s.n do
    local p = s.players[i]
    if #p.cards > D.HAND then error(where .. ": more than four unfinished animal cards", 0) end
    local placed, cubes = 0, 0
    for _, c2 in ipairs(p.cards) do card(c2.id); placed = placed + c2.placed
      if c2.placed >= #G.CARD[c2.id].track then error(where .. ": a finished card kept in hand", 0) end end
    for _, c2 in ipairs(p.done) do card(c2.id); placed = placed + c2.placed
      if c2.placed ~= #G.CARD[c2.id].track then error(where .. ": an unfinished card among the finished", 0) end end
    for h = 1, #D.HEXES do
      if not LEGAL_STACKS[p.board[h]] then error(where .. ": illegal stack " .. p.board[h], 0) end
      if p.cubes[h] then
        cubes = cubes + 1
        if p.board[h] == "" then error(where .. ": a cube on an empty hex", 0) end
      end
    end
    if cubes ~= placed then error(string.format("%s: %d cubes on the board, %d taken from cards", where, cubes, placed), 0) end
  end
  if cards ~= #D.CARDS then error(where .. ": " .. cards .. " animal cards instead of 32", 0) end
  if #s.pending > 3 then error(where .. ": more than three tokens in hand", 0) end
end

-- monotone over a match: tokens on each board, cubes placed and animal points never go down
local last = setmetatable({}, { __mode = "k" })
local function monotone(s, where)
  invariant(s, where)
  local prev = last[s] or {}
  local now = {}
  for i = 1, s.n do
    local p = s.players[i]
    local tokens, cubes = 0, 0
    for h = 1, #D.HEXES do tokens = tokens + #p.board[h]; if p.cubes[h] then cubes = cubes + 1 end end
    local _, b = G.score_of(p)
    now[i] = { tokens, cubes, b.animals }
    if prev[i] then
      for k = 1, 3 do
        if now[i][k] < prev[i][k] then error(string.format("%s: seat %d: a monotone count went down (%d)", where, i, k), 0) end
      end
    end
  end
  last[s] = now
end

-- a state with seat 1 to move and the given central board
local function position(central)
  local s = G.setup(3, 1)
  for k = 1, D.SPACES do
    for _, x in ipairs(s.central[k]) do s.pouch[({ W = 1, M = 2, T = 3, G = 4, Y = 5, R = 6 })[x]] = s.pouch[({ W = 1, M = 2, T = 3, G = 4, Y = 5, R = 6 })[x]] + 1 end
    s.central[k] = {}
  end
  for k, sp in pairs(central or {}) do
    for _, x in ipairs(sp) do
      local i = ({ W = 1, M = 2, T = 3, G = 4, Y = 5, R = 6 })[x]
      s.pouch[i] = s.pouch[i] - 1
      table.insert(s.central[k], x)
    end
  end
  return s
end

-- put(s, seat, name, stack): a token stack on a hex of seat's board, its tokens taken from
-- the pouch (so the census still holds)
local IDX = { W = 1, M = 2, T = 3, G = 4, Y = 5, R = 6 }
local function put(s, seat, name, st)
  local p = s.players[seat]
  local old = p.board[H[name]]
  for j = 1, #old do s.pouch[IDX[old:sub(j, j)]] = s.pouch[IDX[old:sub(j, j)]] + 1 end
  for j = 1, #st do s.pouch[IDX[st:sub(j, j)]] = s.pouch[IDX[st:sub(j, j)]] - 1 end
  p.board[H[name]] = st
end
-- fill(s, seat, except): every hex of seat's board but those named gets one token (colours in turn)
local function fill(s, seat, except)
  local skip = {}
  for _, nme in ipairs(except) do skip[nme] = true end
  local k = 0
  for _, hex in ipairs(D.HEXES) do
    if not skip[hex.name] then k = k + 1; put(s, seat, hex.name, ({ "W", "M", "T", "G", "Y", "R" })[k % 6 + 1]) end
  end
end

local function ids(list)
  local r = {}
  for i, a in ipairs(list) do r[i] = a.id end
  return r
end

test("harmonies: data manifest: 120 tokens by colour, side A of 23 hexes, 32 animal cards", function()
  local by = {}
  local total = 0
  for _, c in ipairs(D.COLOURS) do by[c.id] = c.count; total = total + c.count end
  t.eq(by, { blue = 23, gray = 23, brown = 21, green = 19, yellow = 19, red = 15 })
  t.eq(total, 120); t.eq(D.TOKENS, 120)
  t.eq(D.SPACES * D.PER_SPACE, 15, "five spaces of three tokens")
  t.eq(#D.HEXES, 23); t.eq(D.COLUMNS, { 5, 4, 5, 4, 5 })
  -- the board graph: every adjacency symmetric, 50 edges, 7 hexes with all six neighbours
  local edges, inner = 0, 0
  for i = 1, #D.HEXES do
    local k = 0
    for d = 1, 6 do
      local q = G.NB[i][d]
      if q > 0 then
        k = k + 1
        t.eq(G.NB[q][(d + 2) % 6 + 1], i, "opposite direction leads back")
        if q > i then edges = edges + 1 end
      end
    end
    if k == 6 then inner = inner + 1 end
  end
  t.eq(edges, 50); t.eq(inner, 7)
  -- cards: 32 ids, shapes 10 pairs / 7 triangles / 2 spreads / 6 boomerangs / 7 lines,
  -- 96 cube spaces, tracks increasing, 467 points when every card is complete
  t.eq(#D.CARDS, 32)
  local ids_, shapes, cubes, full, lens = {}, {}, 0, 0, {}
  for _, c in ipairs(D.CARDS) do
    t.ok(not ids_[c.id], "card ids unique: " .. c.id); ids_[c.id] = true
    shapes[c.shape] = (shapes[c.shape] or 0) + 1
    t.eq(#c.others, #D.SHAPES[c.shape], c.id .. ": one stack per hex of its shape")
    t.ok(D.STACKS[c.target], c.id .. ": target stack known")
    for _, o in ipairs(c.others) do t.ok(D.STACKS[o], c.id .. ": stack " .. o .. " known") end
    for j = 2, #c.track do t.ok(c.track[j] > c.track[j - 1], c.id .. ": track increasing") end
    cubes = cubes + #c.track
    full = full + c.track[#c.track]
    lens[#c.track] = (lens[#c.track] or 0) + 1
  end
  t.eq(shapes, { pair = 10, triangle = 7, spread = 2, boomerang = 6, line = 7 })
  t.eq(cubes, 96); t.eq(full, 467)
  t.eq(lens, { [2] = 9, [3] = 16, [4] = 5, [5] = 2 })
  -- target stacks by kind: every landscape is some card's target
  local targets = {}
  for _, c in ipairs(D.CARDS) do targets[c.target] = (targets[c.target] or 0) + 1 end
  t.eq(targets, { M1 = 4, M2 = 1, M3 = 1, T1 = 2, T2 = 4, T3 = 2, B = 5, W = 7, F = 6 })
end)

test("harmonies: 150 fast random playouts (2-4 players) conserve tokens and cards, keep stacks legal and counts monotone", function()
  local r = rt.playouts(G, { games = 150, seed = 11, light = true, invariant = monotone })
  t.eq(r.matches, 150)
end)

test("harmonies: full checks (actions, illegal ids, serialization, hidden information, determinism) on 6 playouts", function()
  local r = rt.playouts(G, { games = 6, seed = 5, invariant = invariant, hidden_every = 7 })
  t.ok(r.steps > 6 * 60, "matches have many sub-decisions")
end)

test("harmonies: setup: 15 tokens on the central board, 5 cards on offer, 27 in the deck, empty boards", function()
  for n = 2, 4 do
    local s = G.setup(n, 3)
    local on = 0
    for k = 1, 5 do t.eq(#s.central[k], 3); on = on + 3 end
    t.eq(on, 15)
    local pouch = 0
    for k = 1, 6 do pouch = pouch + s.pouch[k] end
    t.eq(pouch, 105)
    t.eq(#s.river, 5); t.eq(#s.deck, 27)
    t.eq(G.empty_hexes(s.players[n]), 23)
    t.eq(G.current_seats(s), { 1 })
    invariant(s)
  end
  t.raises(function() G.setup(5, 1) end, "2 to 4 players")
  t.raises(function() G.setup(1, 1) end, "2 to 4 players")
end)

test("harmonies: stacking: what each colour may go on (mountains to 3, trees on 0-2 trunks, roofs on one token)", function()
  local allowed = {}
  for st in pairs(LEGAL_STACKS) do
    local ok = {}
    for _, c in ipairs(D.COLOURS) do if G.can_stack(st, c.letter) then ok[#ok + 1] = c.letter end end
    allowed[st] = table.concat(ok)
  end
  t.eq(allowed, { [""] = "WMTGYR", M = "MR", MM = "M", MMM = "", T = "TGR", TT = "G", G = "", TG = "", TTG = "",
    Y = "", W = "", R = "R", MR = "", TR = "", RR = "" })
end)

test("harmonies: trees score 1/3/7 by height; a trunk alone scores nothing", function()
  local b = board_of({ a1 = "G", a3 = "TG", a5 = "TTG", c1 = "T", c3 = "TT" })
  local r = G.landscape(b)
  t.eq(r, { trees = 11, mountains = 0, fields = 0, buildings = 0, river = 0 })
end)

test("harmonies: mountains score 1/3/7 by height only next to another mountain; a roof makes a building", function()
  -- e1 alone (3 high): 0; c3 (1) and c4 (2) touch: 1 + 3; a1 next to a building a2: 0
  local b = board_of({ e1 = "MMM", c3 = "M", c4 = "MM", a1 = "M", a2 = "MR" })
  t.eq(G.landscape(b).mountains, 4)
  b[H.d1] = "M"            -- d1 touches e1: the 3-high mountain now scores 7, d1 itself 1
  t.eq(G.landscape(b).mountains, 4 + 7 + 1)
end)

test("harmonies: fields score 5 per group of two or more; joining two groups leaves one", function()
  local b = board_of({ a1 = "Y", a2 = "Y", c1 = "Y", c2 = "Y", e4 = "Y" })
  t.eq(G.landscape(b).fields, 10, "two pairs; e4 alone scores nothing")
  b[H.b1] = "Y"            -- b1 touches a1, a2, c1 and c2: one group of five
  t.eq(G.landscape(b).fields, 5)
end)

test("harmonies: buildings score 5 when their neighbours show three colours", function()
  local b = board_of({ c3 = "TR", c2 = "W", c4 = "Y", b2 = "G" })
  t.eq(G.landscape(b).buildings, 5)
  b[H.b2] = "W"
  t.eq(G.landscape(b).buildings, 0, "two colours")
  b[H.b2] = "R"
  t.eq(G.landscape(b).buildings, 5, "a lone red token counts as a colour")
  b[H.c3] = "R"
  t.eq(G.landscape(b).buildings, 0, "one red token is no building")
  t.eq(G.landscape(board_of({ e2 = "MR" })).buildings, 0, "empty neighbours show no colour")
end)

test("harmonies: the longest river scores 0/2/5/8/11/15, +4 per token beyond six (shortest path between its ends)", function()
  t.eq({ G.river_points(0), G.river_points(1), G.river_points(2), G.river_points(3), G.river_points(4),
         G.river_points(5), G.river_points(6), G.river_points(7), G.river_points(9) }, { 0, 0, 2, 5, 8, 11, 15, 19, 27 })
  -- a1 a2 b2 b3 c4 d4 e5: each new token touches only the one before it
  local path = { "a1", "a2", "b2", "b3", "c4", "d4", "e5" }
  local b = blank_board()
  local want = { 0, 2, 5, 8, 11, 15, 19 }
  for k, name in ipairs(path) do
    b[H[name]] = "W"
    t.eq(G.landscape(b).river, want[k], "river of " .. k)
  end
  -- shortcuts: b4 touches a4 and a5, c4 touches b4 and c5: eight tokens a1..a5, b4, c5, c4
  -- measure 6 between their farthest ends (a1 .. a4, b4, c4 or c5)
  local c = board_of({ a1 = "W", a2 = "W", a3 = "W", a4 = "W", a5 = "W", b4 = "W", c5 = "W", c4 = "W" })
  t.eq(G.longest_river(c), 6); t.eq(G.landscape(c).river, 15)
  -- a branch does not count; only the longest of two rivers scores
  local y = board_of({ c1 = "W", c2 = "W", c3 = "W", c4 = "W", c5 = "W", b2 = "W", e1 = "W", e2 = "W" })
  t.eq(G.longest_river(y), 5); t.eq(G.landscape(y).river, 11)
end)

-- build the habitat of card on an empty board, target on hex t turned k sixths
local function habitat_board(card, t0, k)
  local hs = G.cells(card, t0, k)
  local b = blank_board()
  b[hs[1]] = D.STACKS[card.target][1]
  for j, need in ipairs(card.others) do b[hs[j + 1]] = D.STACKS[need][1] end
  return b, hs
end

test("harmonies: every animal habitat is found under each of the six rotations, cube on its target hex", function()
  local found = 0
  for _, card in ipairs(D.CARDS) do
    for k = 0, 5 do
      local b = habitat_board(card, H.c3, k)
      local p = { board = b, cubes = {} }
      for h = 1, #D.HEXES do p.cubes[h] = false end
      t.eq(G.cube_targets(p, card), { H.c3 }, card.id .. " turned " .. k)
      p.cubes[H.c3] = true
      t.eq(G.cube_targets(p, card), {}, card.id .. ": a hex holds one cube")
      p.cubes[H.c3] = false
      -- one hex of the habitat one token short: no longer found
      local hs = G.cells(card, H.c3, k)
      local last_ = hs[#hs]
      local need = card.others[#card.others]
      local wrong = ({ W = "Y", F = "W", M1 = "MM", M2 = "M", M3 = "MM", T1 = "TG", T2 = "G", T3 = "TG", B = "R" })[need]
      b[last_] = wrong
      t.eq(G.cube_targets(p, card), {}, card.id .. " turned " .. k .. " with " .. wrong .. " instead of " .. need)
      found = found + 1
    end
  end
  t.eq(found, 32 * 6)
end)

test("harmonies: habitats are turned, never reflected; for these 32 shapes a reflection is also a rotation", function()
  for _, card in ipairs(D.CARDS) do
    -- a placement as the set of (hex = stack asked for)
    local function key(hs)
      local parts = { hs[1] .. "=" .. card.target }
      for j, need in ipairs(card.others) do parts[#parts + 1] = hs[j + 1] .. "=" .. need end
      table.sort(parts)
      return table.concat(parts, ",")
    end
    local rot, mir = {}, {}
    for k = 0, 5 do
      rot[#rot + 1] = key(G.cells(card, H.c3, k)); mir[#mir + 1] = key(G.cells(card, H.c3, k, true))
    end
    table.sort(rot); table.sort(mir)
    t.eq(mir, rot, card.id)
  end
  -- the rotation really turns: a pair turned k points its neighbour in direction k + 1
  local pair = G.CARD.frog
  for k = 0, 5 do t.eq(G.cells(pair, H.c3, k)[2], G.NB[H.c3][k + 1]) end
  -- the boomerang is not the triangle: neighbours 120° apart
  t.eq(G.cells(G.CARD.penguin, H.c3, 0), { H.c3, G.NB[H.c3][1], G.NB[H.c3][3] })
end)

test("harmonies: legal actions: 5 takes + 5 cards to start; then 3 colours x free hexes; stacks, cubes, hand limit", function()
  local s = position({ { "M", "W", "G" }, { "Y", "Y", "R" }, { "T", "T", "T" }, { "W", "W", "W" }, { "M", "M", "G" } })
  t.eq(#G.legal_actions(s, 1), 10)
  t.eq(rt.count_actions(G, s, 1, "^take:"), 5); t.eq(rt.count_actions(G, s, 1, "^card:"), 5)
  t.eq(#G.legal_actions(s, 2), 0, "not seat 2's turn")
  for _, bad in ipairs({ "take:1:", "take:01", "take:6", "take:", "card:" .. s.river[1] .. ":", "end" }) do
    t.eq(G.apply(s, 1, bad), nil, bad .. " is no legal id")
  end
  t.eq(G.apply(s, 2, "take:1"), nil, "not seat 2's turn")
  assert(G.apply(s, 1, "take:1"))
  t.eq(#G.legal_actions(s, 1), 3 * 23 + 5)
  t.eq(rt.count_actions(G, s, 1, "^take:"), 0, "one group of tokens per turn")
  t.eq(G.apply(s, 1, "take:2"), nil, "a second group is refused when applied too")
  t.eq(rt.count_actions(G, s, 1, "^end$"), 0, "the tokens must be placed")
  local p = s.players[1]
  put(s, 1, "a1", "MMM"); put(s, 1, "a2", "TT"); put(s, 1, "a3", "W"); put(s, 1, "a4", "G"); put(s, 1, "a5", "M")
  p.cubes[H.a5] = true
  -- gray: 18 empty hexes (a1 is full, a5 has a cube); blue: 18; green: 18 + the trunks on a2
  t.eq(rt.count_actions(G, s, 1, "^place:gray:"), 18)
  t.eq(rt.count_actions(G, s, 1, "^place:blue:"), 18)
  t.eq(rt.count_actions(G, s, 1, "^place:green:"), 19)
  t.eq(#G.legal_actions(s, 1), 55 + 5)
  local ok, err = G.apply(s, 1, "place:gray:a5")
  t.eq(ok, nil); t.contains(err, "not a legal action")
  ok = G.apply(s, 1, "place:yellow:c3")
  t.eq(ok, nil, "yellow is not in hand")
  for _, bad in ipairs({ "place:gray:c3:", "place:gray", "place:gray:z9", "place:gray:C3", "end", "take:1", "cube:bear:c3", "card:nosuch" }) do
    local before = kit.serialize(s)
    t.eq(G.apply(s, 1, bad), nil, bad)
    t.eq(kit.serialize(s), before, bad .. " leaves the state as it was")
  end
  assert(G.apply(s, 1, "place:green:a2"))
  t.eq(p.board[H.a2], "TTG")
  t.eq(rt.count_actions(G, s, 1, "^place:green:"), 0, "the only green is placed")
  -- the card: once per turn
  local first = s.river[1]
  assert(G.apply(s, 1, "card:" .. first))
  t.eq(rt.count_actions(G, s, 1, "^card:"), 0)
  t.eq(G.apply(s, 1, "card:" .. s.river[1]), nil, "a second card in the turn is refused when applied too")
  t.eq(#s.river, 4, "the offer refills at the end of the turn")
  assert(G.apply(s, 1, "place:gray:c1")); assert(G.apply(s, 1, "place:blue:c2"))
  t.eq(ids(G.legal_actions(s, 1)), (function()
    local l = {}
    for _, h in ipairs(G.cube_targets(p, G.CARD[first])) do l[#l + 1] = "cube:" .. first .. ":" .. G.hex_name(h) end
    l[#l + 1] = "end"
    return l
  end)())
  assert(G.apply(s, 1, "end"))
  -- a token that still fits somewhere must be placed, even with one free hex left
  local e = position({ { "W", "W", "W" } })
  fill(e, 1, { "c3" })
  assert(G.apply(e, 1, "take:1"))
  t.eq(rt.count_actions(G, e, 1, "^place:"), 1); t.eq(rt.count_actions(G, e, 1, "^place:blue:c3$"), 1)
  t.eq(G.apply(e, 1, "end"), nil, "a blue still fits on c3: the turn cannot end")
  assert(G.apply(e, 1, "place:blue:c3"))
  t.eq(rt.count_actions(G, e, 1, "^end$"), 1, "the other two fit nowhere: the turn may end")
  t.eq(#s.river, 5); t.eq(#s.central[1], 3); t.eq(s.turn, 2)
  t.eq(s.took, false); t.eq(s.took_card, false)
  -- the hand limit: four unfinished cards, no card action
  local q = s.players[2]
  for j = 1, 4 do q.cards[j] = { id = table.remove(s.deck), placed = 0 } end
  t.eq(rt.count_actions(G, s, 2, "^card:"), 0)
  p.cubes[H.a5] = false   -- the hand-set cube came from no card: off before the census
  invariant(s)
end)

test("harmonies: cubes: every target where the habitat stands, not a hex that holds a cube; a full card is complete", function()
  local s = position({ { "G", "G", "G" } })
  local p = s.players[1]
  for j, id in ipairs(s.river) do if id == "bear" then table.remove(s.river, j) end end
  for j, id in ipairs(s.deck) do if id == "bear" then table.remove(s.deck, j) end end
  p.cards[1] = { id = "bear", placed = 0 }             -- tree of 1 with two mountains of 2
  p.board[H.c3], p.board[H.c2], p.board[H.b2], p.board[H.b1] = "G", "MM", "MM", "G"
  t.eq(rt.count_actions(G, s, 1, "^cube:"), 2, "b1 and c3 each touch both mountains")
  -- the habitat's other hexes may hold cubes: with cubes on both mountains, both targets stay
  p.cubes[H.c2], p.cubes[H.b2] = true, true
  t.eq(rt.count_actions(G, s, 1, "^cube:"), 2, "cubes on the mountains do not stop the bear")
  p.cubes[H.c2], p.cubes[H.b2] = false, false
  assert(G.apply(s, 1, "cube:bear:c3"))
  t.eq(p.cubes[H.c3], true, "the cube stands on the target hex")
  local on = 0
  for h = 1, #D.HEXES do if p.cubes[h] then on = on + 1 end end
  t.eq(on, 1, "and nowhere else")
  t.eq(rt.count_actions(G, s, 1, "^cube:"), 1)
  t.eq(G.score_of(p) - G.landscape(p.board).trees - G.landscape(p.board).mountains, 5)
  assert(G.apply(s, 1, "cube:bear:b1"))
  t.eq(#p.cards, 0); t.eq(p.done, { { id = "bear", placed = 2 } })
  local _, b = G.score_of(p)
  t.eq(b.animals, 11)
  t.eq(rt.count_actions(G, s, 1, "^place:green:c3"), 0, "no token on a cube")
  -- a stack that would take the token refuses it only because a cube stands on it: in the
  -- legal list and when applied
  local s2 = position({ { "M", "M", "M" } })
  put(s2, 1, "a1", "M"); put(s2, 1, "a2", "M")
  s2.players[1].cubes[H.a1] = true
  assert(G.apply(s2, 1, "take:1"))
  t.eq(rt.count_actions(G, s2, 1, "^place:gray:a2$"), 1, "gray on one gray: allowed")
  t.eq(rt.count_actions(G, s2, 1, "^place:gray:a1$"), 0, "the same stack with a cube on it: no token")
  t.eq(G.apply(s2, 1, "place:gray:a1"), nil, "applying it is refused too")
  t.eq(s2.players[1].board[H.a1], "M")
  -- a completed card leaves the hand: three unfinished and one complete still allow a card
  for j = 1, 3 do p.cards[j] = { id = table.remove(s.deck), placed = 0 } end
  t.eq(rt.count_actions(G, s, 1, "^card:"), #s.river)
  p.cards[4] = { id = table.remove(s.deck), placed = 0 }
  t.eq(rt.count_actions(G, s, 1, "^card:"), 0, "four unfinished cards: none more")
  -- the box holds 66 cubes: a card is taken only when the box can fill its whole track
  p.cards[4] = nil
  local full = G.cube_supply(s)
  t.eq(full, 66 - 2 - (#G.CARD[p.cards[1].id].track + #G.CARD[p.cards[2].id].track + #G.CARD[p.cards[3].id].track),
    "the box less the two cubes placed and the cubes on the three cards held")
  local short = s.river[1]
  -- the other two fill their boards with cubes, and player 2 holds cards, until one cube is missing
  local free = {}
  for x = 2, 3 do for h = 1, 23 do free[#free + 1] = { x, h } end end
  while G.cube_supply(s) > #G.CARD[short].track - 1 do
    local f = table.remove(free)
    if f then s.players[f[1]].cubes[f[2]] = true
    else s.players[2].cards[#s.players[2].cards + 1] = { id = table.remove(s.deck), placed = 0 } end
  end
  while G.cube_supply(s) < #G.CARD[short].track - 1 do
    local x = s.players[2].cards[1] and 2 or 3
    if x == 2 then s.players[2].cards[1].placed = s.players[2].cards[1].placed + 1 else s.players[3].cubes[next(s.players[3].cubes)] = nil end
  end
  local others = s.players[3]
  t.eq(G.cube_supply(s), #G.CARD[short].track - 1)
  t.eq(rt.count_actions(G, s, 1, "^card:" .. short .. "$"), 0, "one cube short of the card's track")
  t.ok(not G.apply(s, 1, "card:" .. short), "refused when applied")
  others.cubes[next(others.cubes)] = nil
  t.eq(rt.count_actions(G, s, 1, "^card:" .. short .. "$"), 1, "the box fills it exactly")
  for x = 2, 3 do s.players[x].cubes, s.players[x].cards = {}, {} end
  -- an empty deck leaves the offer short
  s.deck = {}
  assert(G.apply(s, 1, "take:1"))
  for _, h in ipairs({ "e1", "e2", "e3" }) do assert(G.apply(s, 1, "place:green:" .. h)) end
  assert(G.apply(s, 1, "card:" .. s.river[1]))
  assert(G.apply(s, 1, "end"))
  t.eq(#s.river, 4, "nothing to refill the offer from")
end)

test("harmonies: the end: two or fewer empty hexes trigger it; the round is finished so all have equal turns", function()
  local s = position({ { "Y", "Y", "Y" }, { "G", "G", "G" }, { "W", "W", "W" } })
  fill(s, 1, { "a1", "a2", "a3", "a4", "a5", "b1" })
  fill(s, 2, { "e3", "e4", "e5", "e1", "e2" })
  assert(G.apply(s, 1, "take:1"))
  for _, h in ipairs({ "a1", "a2", "a3" }) do assert(G.apply(s, 1, "place:yellow:" .. h)) end
  assert(G.apply(s, 1, "end"))
  t.eq(s.triggered, false, "three empty hexes left: no end yet")
  assert(G.apply(s, 2, "take:2"))
  for _, h in ipairs({ "e3", "e4", "e5" }) do assert(G.apply(s, 2, "place:green:" .. h)) end
  assert(G.apply(s, 2, "end"))
  t.ok(s.triggered and not G.is_terminal(s), "two empty hexes trigger the end; seat 3 still plays")
  t.eq(G.current_seats(s), { 3 })
  assert(G.apply(s, 3, "take:3"))
  for _, h in ipairs({ "a1", "a2", "a3" }) do assert(G.apply(s, 3, "place:blue:" .. h)) end
  assert(G.apply(s, 3, "end"))
  t.ok(G.is_terminal(s), "the round ends before seat 1 plays again")
  t.eq(G.current_seats(s), {}); t.eq(G.legal_actions(s, 1), {})
  invariant(s)
  -- triggered by the last seat of the round: the game ends at once
  local u = position({ { "Y", "Y", "Y" } })
  u.turn = 3
  fill(u, 3, { "a1" })
  u.took_card = true
  assert(G.apply(u, 3, "take:1")); assert(G.apply(u, 3, "place:yellow:a1"))
  t.eq(ids(G.legal_actions(u, 3)), { "end" }, "two yellow tokens fit nowhere")
  t.eq(G.counts_decision(u, 3), false, "a forced end is no decision")
  assert(G.apply(u, 3, "end"))
  t.ok(G.is_terminal(u))
  t.eq(u.box, { 0, 0, 0, 0, 2, 0 }, "the tokens that fit nowhere are discarded")
  invariant(u)
end)

test("harmonies: the end: the pouch cannot refill the central board", function()
  local s = position({ { "G", "G", "G" }, { "W", "W", "W" }, { "M", "M", "M" } })
  local keep = 2
  for k = 1, 6 do
    local take = math.min(s.pouch[k], s.pouch[k] - (keep > 0 and 1 or 0))
    if keep > 0 and s.pouch[k] > 0 then keep = keep - 1 end
    s.box[k] = s.box[k] + take; s.pouch[k] = s.pouch[k] - take
  end
  invariant(s)
  assert(G.apply(s, 1, "take:1"))
  for _, h in ipairs({ "a1", "a2", "a3" }) do assert(G.apply(s, 1, "place:green:" .. h)) end
  assert(G.apply(s, 1, "end"))
  t.ok(s.triggered, "two tokens cannot refill a space of three")
  t.eq(#s.central[1], 2)
  assert(G.apply(s, 2, "take:2"))
  for _, h in ipairs({ "a1", "a2", "a3" }) do assert(G.apply(s, 2, "place:blue:" .. h)) end
  assert(G.apply(s, 2, "end"))
  t.ok(not G.is_terminal(s))
  assert(G.apply(s, 3, "take:3"))
  for _, h in ipairs({ "a1", "a2", "a3" }) do assert(G.apply(s, 3, "place:gray:" .. h)) end
  assert(G.apply(s, 3, "end"))
  t.ok(G.is_terminal(s))
end)

test("harmonies: ranking: most points; tie: most animal cubes placed; still tied: shared", function()
  local s = position({})
  local p1, p2 = s.players[1], s.players[2]
  p1.board[H.a1], p1.board[H.a2], p1.board[H.a3] = "G", "G", "G"       -- 3 points
  p2.board[H.a1], p2.board[H.a2] = "W", "G"                              -- 1 point + frog 2
  p2.cards[1] = { id = "frog", placed = 1 }; p2.cubes[H.a1] = true
  for j, id in ipairs(s.river) do if id == "frog" then table.remove(s.river, j) end end
  for j, id in ipairs(s.deck) do if id == "frog" then table.remove(s.deck, j) end end
  local r = G.ranking(s)
  t.eq(r.scores, { 3, 3, 0 }); t.eq(r.ranks, { 2, 1, 3 })
  p2.cards = {}; p2.cubes[H.a1] = false; p2.board[H.a1] = "G"; p2.board[H.a3] = "G"
  t.eq(G.ranking(s).ranks, { 1, 1, 3 })
end)

test("harmonies: replay from the events gives the same state; the state survives serialization mid-turn", function()
  rt.replay_check(G, 3, 4242, 40)
end)

test("harmonies: hidden information: another deck order or random state leaves every observation and legal list byte-identical", function()
  local rand = kit.generator(17)
  local checked, differs = 0, 0
  for g = 1, 4 do
    local s = G.setup(3, 300 + g)
    local steps = 0
    while not G.is_terminal(s) do
      steps = steps + 1
      if steps % 9 == 0 then
        local other = kit.copy(s)
        other.rng = other.rng ~ 0x5DEECE66D
        for i = 1, #other.deck // 2 do other.deck[i], other.deck[#other.deck + 1 - i] = other.deck[#other.deck + 1 - i], other.deck[i] end
        for seat = 1, 3 do
          local a, b = G.observation(s, seat), G.observation(other, seat)
          t.eq(json.canonical(b), json.canonical(a), "JSON of seat " .. seat)
          t.eq(G.render(b), G.render(a), "text of seat " .. seat)
        end
        local seat = G.current_seats(s)[1]
        t.eq(ids(G.legal_actions(other, seat)), ids(G.legal_actions(s, seat)))
        -- the perturbation is real: ending the turn now would draw differently
        local x, y = kit.copy(s), kit.copy(other)
        x.took, y.took, x.pending, y.pending = true, true, {}, {}
        x.central[1], y.central[1] = {}, {}
        if G.apply(x, seat, "end") and G.apply(y, seat, "end") and kit.serialize(x.central) .. kit.serialize(x.river) ~= kit.serialize(y.central) .. kit.serialize(y.river) then
          differs = differs + 1
        end
        checked = checked + 1
      end
      local seat = G.current_seats(s)[1]
      local legal = G.legal_actions(s, seat)
      assert(G.apply(s, seat, legal[rand(#legal)].id))
    end
  end
  t.ok(checked >= 20, "checked " .. checked .. " states")
  t.ok(differs >= checked // 2, "the hidden parts decide the next draws")
end)

test("harmonies: determinization: every world keeps the public counts (pouch by colour, unseen cards) and varies the rest", function()
  local rand = kit.generator(23)
  local s = G.setup(3, 77)
  for _ = 1, 30 do
    local seat = G.current_seats(s)[1]
    assert(G.apply(s, seat, ismcts.heuristic_pick(G, s, seat, G.legal_actions(s, seat), rand, 0.1)))
  end
  local seen = {}
  for _, id in ipairs(s.river) do seen[id] = true end
  for i = 1, 3 do
    for _, c in ipairs(s.players[i].cards) do seen[c.id] = true end
    for _, c in ipairs(s.players[i].done) do seen[c.id] = true end
  end
  local unseen = {}
  for _, c in ipairs(D.CARDS) do if not seen[c.id] then unseen[#unseen + 1] = c.id end end
  table.sort(unseen)
  local orders, draws = {}, {}
  for k = 1, 30 do
    local seat = (k - 1) % 3 + 1
    local d = G.determinize(s, seat, rand)
    t.eq(d.pouch, s.pouch); t.eq(d.box, s.box); t.eq(d.central, s.central); t.eq(d.river, s.river)
    for i = 1, 3 do t.eq(d.players[i], s.players[i]) end
    local deck = kit.copy(d.deck)
    table.sort(deck)
    t.eq(deck, unseen, "the deck holds exactly the cards nobody has seen")
    invariant(d)
    orders[table.concat(d.deck, ",")] = true
    local x = kit.copy(d)
    x.central[1] = {}; x.took = true; x.pending = {}
    assert(G.apply(x, x.turn, "end"))
    draws[table.concat(x.central[1])] = true
  end
  local n_orders, n_draws = 0, 0
  for _ in pairs(orders) do n_orders = n_orders + 1 end
  for _ in pairs(draws) do n_draws = n_draws + 1 end
  t.ok(n_orders >= 25, "deck orders resampled: " .. n_orders)
  t.ok(n_draws >= 5, "pouch draws resampled: " .. n_draws)
end)

test("harmonies: the text observation stays model-sized (under 12,000 characters) and shows no hidden order", function()
  local rand = kit.generator(31)
  local max_text = 0
  for g = 1, 5 do
    rt.play(G, 4, 500 + g, function(st, seat, legal)
      local o = G.observation(st, seat)
      local txt = G.render(o)
      if #txt > max_text then max_text = #txt end
      t.ok(not txt:find("rng") and o.rng == nil and type(o.deck) == "number")
      return legal[rand(#legal)].id
    end)
  end
  t.ok(max_text < 12000, "longest text " .. max_text)
end)

test("harmonies: the heuristic beats Random clearly (9 three-player matches against two Random seats)", function()
  local wins = rt.heuristic_wins(G, 9)
  t.ok(wins >= 8, "heuristic first in " .. wins .. " of 9")
end)

test("harmonies: the heuristic prefers a cube to ending, a tree on trunks to a lone leaf", function()
  local s = position({ { "G", "G", "G" } })
  local p = s.players[1]
  assert(G.apply(s, 1, "take:1"))
  p.board[H.a1] = "TT"
  t.ok(G.heuristic(s, 1, "place:green:a1") > G.heuristic(s, 1, "place:green:c3"))
  t.ok(G.heuristic(s, 1, "place:green:c3") > G.heuristic(s, 1, "end"))
  local hs = G.heuristic_all(s, 1, G.legal_actions(s, 1))
  for i, a in ipairs(G.legal_actions(s, 1)) do t.eq(hs[i], G.heuristic(s, 1, a.id), a.id) end
end)

test("harmonies: the drawing: one hexagon per hex and board, a square per cube, the central board and offer", function()
  local o, svg = rt.drawn(G, 80)
  t.ok(svg:find("^<svg") and svg:find("</svg>$"))
  local hexes = 0
  for _ in svg:gmatch('<polygon points="[^"]*" fill="[^"]*" stroke="#5a4a2a"/>') do hexes = hexes + 1 end
  t.eq(hexes, 3 * 23)
  local cubes, want = 0, 0
  for _ in svg:gmatch('fill="#f39c12" stroke="#222"/>') do cubes = cubes + 1 end
  for i = 1, 3 do want = want + #o.players[i].cubes end
  t.eq(cubes, want)
  t.ok(want > 0, "the heuristic placed cubes")
  t.contains(svg, "Central board"); t.contains(svg, o.river[1].id)
end)

test("harmonies: an arena match with a model over the mock server: a legal sub-decision, then an invalid answer forfeits", function()
  local first = rt.mock_match(G, { { match = "Decision 1 ", reply = "I take the first group.\nACTION: take:1", times = 1 },
                                    { reply = "ACTION: place:purple:z9" } }, 3)
  t.contains(first, "take:1: take the tokens of space 1")
  t.contains(first, "Harmonies (board side A), round 1. You are player 1 of 3.")
end)

test("harmonies: RULES-AUDIT.md names existing tests; coverage by status", function()
  local counts = rt.audit(t.root() .. "/games/harmonies/RULES-AUDIT.md", T, "H")
  t.ok(counts.PASS >= 30, "rules audited: " .. counts.PASS)
end)


return T
