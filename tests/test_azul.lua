-- Azul rules: the data manifest (the values the sources give), invariants over random
-- playouts (100 tiles conserved), legal-action counts in hand-built positions, takes from
-- the factories and the centre, the floor line, rulebook scoring computed by hand (the
-- tiling order, the end bonuses of every player), round and game end, tie-breaks,
-- determinism, serialization, the hidden-information check and the rules audit
-- (games/azul/RULES-AUDIT.md; its mutations: bench/audit_mutations.lua azul).
local t = require "tabula.testing"
local G = require "games.azul"
local kit = require "games.kit"
local rt = require "games.rules_test"
local test, T = t.suite()

local B, Y, R, K, W = 1, 2, 3, 4, 5

local function census_ok(s, where)
  local c = G.tile_census(s)
  for k = 1, 5 do
    if c[k] ~= 20 then error(string.format("%s: %d %s tiles instead of 20", where or "", c[k], G.COLOURS[k]), 0) end
  end
  for i = 1, s.n do
    local p = s.players[i]
    if #p.floor > 7 then error("floor holds more than 7 tiles", 0) end
    for line = 1, 5 do
      local l = p.lines[line]
      if l[2] > line then error("pattern line overfull", 0) end
      if l[2] > 0 and p.wall[line][G.wall_column(line, l[1])] == 1 then error("line colour already on the wall", 0) end
    end
  end
end

-- a blank 3-player state with every tile in the bag and the given factories
local function position(factories)
  local s = G.setup(3, 1)
  s.bag = { 20, 20, 20, 20, 20 }
  for f = 1, #s.factories do
    s.factories[f] = factories[f] or { 0, 0, 0, 0, 0 }
    for k = 1, 5 do s.bag[k] = s.bag[k] - s.factories[f][k] end
  end
  return s
end

test("azul: 150 fast random playouts (2-4 players) conserve the 100 tiles", function()
  local r = rt.playouts(G, { games = 150, seed = 11, light = true, invariant = census_ok })
  t.eq(r.matches, 150)
end)

test("azul: full checks (actions, illegal ids, serialization, hidden information, determinism) on 6 playouts", function()
  local r = rt.playouts(G, { games = 6, seed = 5, invariant = census_ok, hidden_every = 5 })
  t.ok(r.steps > 6 * 30, "matches have many turns")
end)

test("azul: setup by player count: 5/7/9 factories of four tiles, marker in the centre", function()
  for n, f in pairs({ [2] = 5, [3] = 7, [4] = 9 }) do
    local s = G.setup(n, 3)
    t.eq(#s.factories, f)
    for _, fac in ipairs(s.factories) do t.eq(fac[1] + fac[2] + fac[3] + fac[4] + fac[5], 4) end
    t.ok(s.marker_in_centre)
    t.eq(G.current_seats(s), { 1 })
    census_ok(s)
  end
  t.raises(function() G.setup(5, 1) end, "2 to 4 players")
end)

test("azul: first turn of a 3-player game: 6 destinations per colour per factory (17 colours -> 102)", function()
  local s = position({ { 4, 0, 0, 0, 0 }, { 2, 0, 2, 0, 0 }, { 1, 1, 1, 1, 0 }, { 0, 0, 0, 1, 3 },
                       { 0, 1, 1, 1, 1 }, { 0, 2, 1, 0, 1 }, { 0, 0, 0, 4, 0 } })
  t.eq(#G.legal_actions(s, 1), 102)
  t.eq(rt.count_actions(G, s, 1, "^f3:"), 24)
  t.eq(rt.count_actions(G, s, 1, "^c:"), 0, "the centre holds only the marker")
  t.eq(#G.legal_actions(s, 2), 0, "not seat 2's turn")
end)

test("azul: hand-built mid-round position: blocked, full and coloured lines (20 actions)", function()
  local s = position({ { 2, 0, 2, 0, 0 } })
  s.centre = { 2, 3, 1, 0, 0 }
  local p = s.players[1]
  p.lines[2] = { R, 1 }
  p.lines[4] = { K, 4 }
  p.wall[3][G.wall_column(3, B)] = 1
  -- blue: lines 1, 5, floor; red: 1, 2, 3, 5, floor; yellow: 1, 3, 5, floor
  t.eq(rt.count_actions(G, s, 1, "^c:"), 3 + 5 + 4)
  t.eq(rt.count_actions(G, s, 1, "^f1:"), 3 + 5)
  t.eq(#G.legal_actions(s, 1), 20)
  local ok, err = G.apply(s, 1, "c:blue:3")
  t.eq(ok, nil); t.contains(err, "pattern line 3")
end)

test("azul: taking from a factory moves the rest to the centre; first from the centre takes the marker", function()
  local s = position({ { 2, 1, 1, 0, 0 }, { 0, 0, 0, 4, 0 } })
  assert(G.apply(s, 1, "f1:blue:2"))
  t.eq(s.players[1].lines[2], { B, 2 })
  t.eq(s.centre, { 0, 1, 1, 0, 0 })
  t.eq(s.factories[1], { 0, 0, 0, 0, 0 })
  t.eq(s.turn, 2)
  assert(G.apply(s, 2, "c:yellow:1"))
  t.ok(s.players[2].marker and not s.marker_in_centre, "the marker went to seat 2's floor")
  t.eq(s.centre, { 0, 0, 1, 0, 0 })
  assert(G.apply(s, 3, "f2:black:3"))      -- 4 black on a 3-line: one overflows to the floor
  t.eq(s.players[3].lines[3], { K, 3 })
  t.eq(s.players[3].floor, { K })
  t.eq(s.round, 1, "a red tile is left in the centre: the round goes on")
  t.eq(s.turn, 1, "clockwise: back to seat 1")
end)

test("azul: wall scoring by hand (isolated 1, row of 3, cross 2+3), floor penalties", function()
  local wall = {}
  for r = 1, 5 do wall[r] = { 0, 0, 0, 0, 0 } end
  wall[4][4] = 1
  t.eq(G.wall_points(wall, 4, 4), 1)
  wall[1][1], wall[1][2], wall[1][3] = 1, 1, 1
  t.eq(G.wall_points(wall, 1, 3), 3)
  wall[3][3], wall[2][2], wall[2][3] = 1, 1, 1
  t.eq(G.wall_points(wall, 2, 3), 2 + 3)
  t.eq(G.floor_penalty(0), 0)
  t.eq(G.floor_penalty(3), -4)
  t.eq(G.floor_penalty(7), -14)
  t.eq(G.floor_penalty(9), -14)
end)

test("azul: end bonuses by hand: a row 2, a column 7, a colour 10", function()
  local wall = {}
  for r = 1, 5 do wall[r] = { 0, 0, 0, 0, 0 } end
  for c = 1, 5 do wall[1][c] = 1 end
  for r = 1, 5 do wall[r][1] = 1 end
  for r = 1, 5 do wall[r][G.wall_column(r, B)] = 1 end
  local pts, rows = G.end_bonus(wall)
  t.eq(pts, 2 + 7 + 10); t.eq(rows, 1)
end)

test("azul: round end: tiling, surplus to the lid, floor penalty, score floor at 0, marker holder starts", function()
  local s = position({})
  s.centre = { 0, 0, 1, 0, 0 }
  s.bag[R] = s.bag[R] - 1
  s.marker_in_centre = false
  local p1, p2 = s.players[1], s.players[2]
  p2.marker = true
  p1.score = 10
  p1.wall[1][1], p1.wall[1][2] = 1, 1; s.bag[B] = s.bag[B] - 1; s.bag[Y] = s.bag[Y] - 1
  p1.floor = { K, K }; s.bag[K] = s.bag[K] - 2
  p1.lines[3] = { W, 3 }; s.bag[W] = s.bag[W] - 3
  census_ok(s)
  assert(G.apply(s, 1, "c:red:1"))
  -- red at row 1 column 3: a row of three (3); white at row 3 column 2 has no neighbour (1);
  -- a floor of two: -2
  t.eq(p1.score, 10 + 3 + 1 - 2)
  t.eq(p1.wall[1][3], 1, "red goes to its own space of row 1"); t.eq(p1.wall[3][2], 1, "white to its space of row 3")
  t.eq(p1.lines[3], { 0, 0 })
  t.eq(p2.score, 0, "the marker costs 1 but the score stays at 0")
  t.eq(s.lid, { 0, 0, 0, 2, 2 }, "two floor blacks and two surplus whites")
  t.eq(s.round, 2); t.eq(s.turn, 2); t.eq(s.first, 2)
  t.ok(s.marker_in_centre and not p2.marker)
  census_ok(s)
end)

test("azul: the game ends after the round in which a row is completed; bonuses; tie-break by rows", function()
  local s = position({})
  s.centre = { 0, 0, 0, 0, 1 }
  s.marker_in_centre = false
  local p1, p2 = s.players[1], s.players[2]
  for c = 1, 4 do p1.wall[1][c] = 1 end
  p1.score = 20
  p2.score = 26
  assert(G.apply(s, 1, "c:white:1"))
  t.ok(G.is_terminal(s)); t.eq(G.current_seats(s), {})
  t.eq(p1.score, 20 + 5 + 2, "a row of five scores 5, the row bonus 2")
  local r = G.ranking(s)
  t.eq(r.scores, { 27, 26, 0 })
  t.eq(r.ranks, { 1, 2, 3 })
  p2.score = 27
  t.eq(G.ranking(s).ranks, { 1, 2, 3 }, "equal scores: more complete rows wins")
  p2.wall[2] = { 1, 1, 1, 1, 1 }
  t.eq(G.ranking(s).ranks, { 1, 1, 3 }, "equal scores and rows: shared")
end)

test("azul: the bag refills from the lid; future draws are the only hidden part", function()
  local s = position({})
  s.bag = { 1, 0, 0, 0, 0 }
  s.lid = { 19, 20, 20, 20, 20 }
  s.centre = { 0, 0, 0, 0, 0 }
  s.factories[1] = { 0, 0, 0, 0, 0 }
  s.players[1].lines[1] = { 0, 0 }
  s.centre[B] = 0
  -- one tile left in the centre ends the round; the bag then needs the lid
  s.centre[Y] = 1; s.lid[Y] = 19
  assert(G.apply(s, 1, "c:yellow:floor"))
  t.eq(s.round, 2)
  local in_factories = 0
  for _, fac in ipairs(s.factories) do for k = 1, 5 do in_factories = in_factories + fac[k] end end
  t.eq(in_factories, 28)
  census_ok(s)
  local other = kit.copy(s)
  other.rng = other.rng + 12345
  for seat = 1, 3 do rt.same_observation(G, s, other, seat) end
  t.ok(not tostring(G.render(G.observation(s, 1))):find("rng"), "the generator is never shown")
end)

test("azul: the heuristic prefers completing a line to flooring tiles", function()
  local s = position({ { 0, 0, 3, 1, 0 } })
  local best, best_id = -math.huge, nil
  for _, a in ipairs(G.legal_actions(s, 1)) do
    local h = G.heuristic(s, 1, a.id)
    if h > best then best, best_id = h, a.id end
  end
  t.eq(best_id, "f1:red:3")
  t.ok(G.heuristic(s, 1, "f1:red:floor") < G.heuristic(s, 1, "f1:red:5"))
end)

-- the values the sources give (games/azul/RULES.md, "Sources of the number tables")
test("azul: data manifest: 100 tiles (20 a colour), 5/7/9 factories of 4, the coloured wall, floor and bonus values", function()
  for n, f in pairs({ [2] = 5, [3] = 7, [4] = 9 }) do
    local s = G.setup(n, 7)
    t.eq(G.tile_census(s), { 20, 20, 20, 20, 20 }, n .. " players: 20 tiles of each colour")
    local on = 0
    for _, fac in ipairs(s.factories) do for k = 1, 5 do on = on + fac[k] end end
    t.eq(#s.factories, f); t.eq(on, 4 * f)
  end
  t.eq(G.COLOURS, { "blue", "yellow", "red", "black", "white" })
  -- the coloured wall, row by row (each row the one above shifted one space right)
  local WALL = { { B, Y, R, K, W }, { W, B, Y, R, K }, { K, W, B, Y, R }, { R, K, W, B, Y }, { Y, R, K, W, B } }
  for r = 1, 5 do
    for c = 1, 5 do
      t.eq(G.wall_colour(r, c), WALL[r][c], "wall row " .. r .. " column " .. c)
      t.eq(G.wall_column(r, WALL[r][c]), c)
    end
  end
  t.eq(G.FLOOR, { -1, -1, -2, -2, -2, -3, -3 })
  local function blank() local w = {}; for r = 1, 5 do w[r] = { 0, 0, 0, 0, 0 } end; return w end
  local w = blank()
  for c = 1, 5 do w[2][c] = 1 end
  t.eq(G.end_bonus(w), 2, "a row alone: 2")
  w = blank()
  for r = 1, 5 do w[r][4] = 1 end
  t.eq(G.end_bonus(w), 7, "a column alone: 7")
  w = blank()
  for r = 1, 5 do w[r][G.wall_column(r, R)] = 1 end
  t.eq(G.end_bonus(w), 10, "five reds alone: 10")
end)

test("azul: from the centre: every tile of the colour, the marker only to the first, a full line refused, an absent colour refused", function()
  local s = position({ { 0, 0, 0, 4, 0 } })
  s.centre = { 3, 1, 0, 0, 0 }
  s.bag[B], s.bag[Y] = s.bag[B] - 3, s.bag[Y] - 1
  local p1, p2 = s.players[1], s.players[2]
  p1.lines[2] = { B, 2 }; s.bag[B] = s.bag[B] - 2
  census_ok(s)
  t.eq(rt.count_actions(G, s, 1, "^c:blue:"), 5, "blue: lines 1, 3, 4, 5 and the floor; line 2 is full")
  local ok, err = G.apply(s, 1, "c:red:1")
  t.eq(ok, nil, "no red in the centre"); t.contains(err, "no red")
  t.eq(G.apply(s, 1, "c:blue:2"), nil, "line 2 is full")
  assert(G.apply(s, 1, "c:blue:3"))
  t.eq(p1.lines[3], { B, 3 }, "all three blue tiles")
  t.eq(s.centre, { 0, 1, 0, 0, 0 })
  t.ok(p1.marker and not s.marker_in_centre, "the first from the centre takes the marker")
  t.eq(p1.floor, {}, "the marker is no tile")
  assert(G.apply(s, 2, "c:yellow:floor"))
  t.ok(not p2.marker, "the second from the centre gets no marker")
  t.eq(p2.floor, { Y })
  t.eq(s.turn, 3); t.eq(s.round, 1)
  census_ok(s)
end)

test("azul: the floor: seven spaces, the marker takes one and costs its penalty, further tiles go to the lid", function()
  local s = position({ { 0, 4, 0, 0, 0 } })
  local p1 = s.players[1]
  p1.floor = { W, W, W, W, W }; s.bag[W] = s.bag[W] - 5
  s.centre = { 0, 0, 3, 0, 0 }; s.bag[R] = s.bag[R] - 3
  p1.score = 20
  census_ok(s)
  -- the marker and one red fill the floor's last two spaces; two reds go to the lid
  assert(G.apply(s, 1, "c:red:floor"))
  t.eq(p1.floor, { W, W, W, W, W, R }); t.ok(p1.marker)
  t.eq(s.lid, { 0, 0, 2, 0, 0 }, "two reds beyond the seventh space")
  assert(G.apply(s, 2, "f1:yellow:floor"))   -- the last tiles: the round ends
  t.eq(p1.score, 20 - 14, "seven spaces: -1 -1 -2 -2 -2 -3 -3")
  t.eq(s.lid, { 0, 4, 3, 0, 5 }, "then the floors' tiles")
  t.eq(s.first, 1); t.eq(s.turn, 1); t.eq(s.round, 2)
  census_ok(s)
end)

test("azul: wall-tiling runs from the top line down (the order changes the points); incomplete lines stay", function()
  local s = position({})
  local p1 = s.players[1]
  p1.score = 10
  p1.wall[1][2] = 1; s.bag[Y] = s.bag[Y] - 1            -- yellow, row 1
  p1.lines[1] = { B, 1 }; s.bag[B] = s.bag[B] - 1       -- blue goes to row 1 column 1
  p1.lines[2] = { W, 2 }; s.bag[W] = s.bag[W] - 2       -- white goes to row 2 column 1
  p1.lines[4] = { R, 2 }; s.bag[R] = s.bag[R] - 2       -- incomplete
  s.centre = { 0, 0, 0, 1, 0 }; s.bag[K] = s.bag[K] - 1
  s.marker_in_centre = false
  census_ok(s)
  assert(G.apply(s, 1, "c:black:floor"))
  -- blue first: a row of 2 (2); then white under it: a column of 2 (2); the floor -1.
  -- (white first would score 1, then blue 2 + 2)
  t.eq(p1.score, 10 + 2 + 2 - 1)
  t.eq({ p1.wall[1][1], p1.wall[2][1] }, { 1, 1 })
  t.eq(p1.lines[4], { R, 2 }, "an incomplete line stays for the next round")
  t.eq({ p1.lines[1], p1.lines[2] }, { { 0, 0 }, { 0, 0 } })
  t.eq(s.lid, { 0, 0, 0, 1, 1 }, "the second white and the floor's black")
  census_ok(s)
end)

test("azul: a complete column does not end the game; at the end every player scores the bonuses", function()
  local s = position({})
  for r = 1, 5 do s.players[2].wall[r][1] = 1; local k = G.wall_colour(r, 1); s.bag[k] = s.bag[k] - 1 end
  s.centre = { 0, 0, 0, 1, 0 }; s.bag[K] = s.bag[K] - 1
  s.marker_in_centre = false
  assert(G.apply(s, 1, "c:black:floor"))
  t.ok(not G.is_terminal(s), "a column is no horizontal row"); t.eq(s.round, 2)
  census_ok(s)
  s = position({})
  local p1, p2 = s.players[1], s.players[2]
  for c = 1, 4 do p1.wall[1][c] = 1 end
  for r = 1, 5 do p2.wall[r][1] = 1 end
  s.centre = { 0, 0, 0, 0, 1 }
  s.marker_in_centre = false
  assert(G.apply(s, 1, "c:white:1"))
  t.ok(G.is_terminal(s))
  t.eq(G.ranking(s).scores, { 5 + 2, 7, 0 }, "seat 1: a row of five and its bonus; seat 2: the column bonus")
end)

test("azul: bag and lid both empty: the factories stay partly empty and the game goes on", function()
  local s = position({})
  s.bag = { 1, 1, 1, 1, 1 }
  s.centre = { 0, 0, 0, 1, 0 }
  s.marker_in_centre = false
  assert(G.apply(s, 1, "c:black:1"))
  t.eq(s.players[1].wall[1][G.wall_column(1, K)], 1)
  local in_factories = 0
  for _, fac in ipairs(s.factories) do for k = 1, 5 do in_factories = in_factories + fac[k] end end
  t.eq(in_factories, 5, "the five tiles of the bag, no more")
  t.eq(s.bag, { 0, 0, 0, 0, 0 }); t.eq(s.lid, { 0, 0, 0, 0, 0 })
  t.ok(not G.is_terminal(s)); t.eq(s.round, 2)
  t.ok(#G.legal_actions(s, s.turn) > 0)
end)

test("azul: RULES-AUDIT.md names existing tests; coverage by status", function()
  local counts = rt.audit(t.root() .. "/games/azul/RULES-AUDIT.md", T, "AZ")
  t.ok(counts.PASS >= 30, "rules audited: " .. counts.PASS)
end)

return T
