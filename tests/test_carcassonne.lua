-- Carcassonne rules: the 72-tile set, tile and follower conservation and scores that never
-- decrease over random playouts, legal-action counts in hand-built positions, scoring
-- examples computed by hand from the rulebook (a completed city with a pennant, a completed
-- monastery, a majority tie on a road, farms next to two completed cities, incomplete
-- features at the end), a tile with no legal place set aside, determinism, serialization,
-- the stack order never in an observation; the data manifest per tile type (the values the
-- sources give), turn order, the majority against a minority, a road loop, fields divided by
-- a road, a game to its last tile and the rules audit (games/carcassonne/RULES-AUDIT.md; its
-- mutations: bench/audit_mutations.lua carcassonne); a full arena match between built-in
-- players and one with a model over the mock server.
-- slow: random playouts of the rules over 2-5 players (left out by make check)
local t = require "tabula.testing"
local G = require "games.carcassonne"
local kit = require "games.kit"
local rt = require "games.rules_test"
local json = require "tabula.json"
local test, T = t.suite()

local TILES = G.TILES
local L = TILES.BY_LETTER

-- conserved(s): 72 tiles (stack, map, set aside, the tile in hand), 7 followers per seat,
-- follower counts at the feature roots, scores that never go down within a match
local last_where, last_scores
local function conserved(s, where)
  local function bad(msg, ...) error((where or "") .. ": " .. string.format(msg, ...), 0) end
  local count = {}
  local function add(ty) count[ty] = (count[ty] or 0) + 1 end
  for _, ty in ipairs(s.stack) do add(ty) end
  for _, ty in ipairs(s.tt) do add(ty) end
  for _, ty in ipairs(s.aside) do add(ty) end
  if s.tile ~= 0 then add(s.tile) end
  local total = 0
  for ty, e in ipairs(TILES.T) do
    if (count[ty] or 0) ~= e.count then bad("%d tiles of type %s instead of %d", count[ty] or 0, e.letter, e.count) end
    total = total + e.count
  end
  if total ~= 72 then bad("%d tiles", total) end
  local on, at_root = {}, {}
  for m = 1, #s.ms do
    on[s.ms[m]] = (on[s.ms[m]] or 0) + 1
    local r = G.board.find(s.sp, s.mg[m])
    at_root[r] = (at_root[r] or 0) + 1
  end
  for seat = 1, s.n do
    if s.supply[seat] + (on[seat] or 0) ~= 7 then bad("seat %d has %d + %d followers", seat, s.supply[seat], on[seat] or 0) end
  end
  for g = 1, #s.sp do
    if s.sp[g] == g then
      if s.sc[g] ~= (at_root[g] or 0) then bad("feature %d counts %d followers, the map has %d", g, s.sc[g], at_root[g] or 0) end
      if s.so[g] < 0 then bad("feature %d has %d open sides", g, s.so[g]) end
    end
  end
  local match = where and where:match("^seed (%d+)")
  if not match then return end
  if match ~= last_where then last_where, last_scores = match, nil end
  if last_scores then
    for seat = 1, s.n do if s.score[seat] < last_scores[seat] then bad("seat %d's score went down", seat) end end
  end
  last_scores = { table.unpack(s.score) }
end

test("carcassonne: the base set: 72 tiles of 24 types, 10 pennants, the start tile", function()
  t.eq(#TILES.T, 24); t.eq(TILES.TOTAL, 72); t.eq(TILES.PENNANTS, 10)
  local s = G.setup(3, 1)
  t.eq(#s.stack, 70, "72 less the start tile and the first tile drawn")
  t.eq({ s.tx[1], s.ty[1], s.tr[1], TILES.T[s.tt[1]].letter }, { 0, 0, 0, "D" })
  t.eq(s.supply, { 7, 7, 7 }); t.eq(s.score, { 0, 0, 0 })
  t.eq(G.current_seats(s), { 1 }); t.eq(s.phase, "place")
  conserved(s)
  t.raises(function() G.setup(6, 1) end, "2 to 5 players")
end)

test("carcassonne: 60 fast random playouts (2-5 players) conserve tiles and followers; scores never decrease", function()
  local r = rt.playouts(G, { games = 60, seed = 3, light = true, invariant = conserved })
  t.eq(r.matches, 60); t.ok(r.steps > 60 * 71, "every tile is placed")
end)

test("carcassonne: full checks (actions, illegal ids, serialization, hidden information, determinism) on 3 playouts", function()
  local r = rt.playouts(G, { players = 3, games = 3, seed = 8, invariant = conserved, hidden_every = 9 })
  t.ok(r.steps > 3 * 71)
end)

-- give(s, letter): the seat to move draws a tile of that type (the tile it held goes back)
-- (from the set-aside tiles when the stack is empty)
local function give(s, letter)
  local pile = #s.stack > 0 and s.stack or s.aside
  pile[#pile + 1] = s.tile
  for j = #pile, 1, -1 do
    if pile[j] == L[letter] then table.remove(pile, j); break end
  end
  s.tile = L[letter]
end

-- play(s, letter, x, y, deg, follower): the seat to move places that tile and a follower
-- (or none; nil when no follower step is offered)
local function play(s, letter, x, y, deg, follower)
  give(s, letter)
  local seat = s.turn
  assert(G.apply(s, seat, string.format("place:%d:%d:%d", x, y, deg)))
  if s.phase == "follower" and s.turn == seat then
    assert(G.apply(s, seat, "follower:" .. (follower or "none")))
  else
    t.eq(follower, nil, "no follower step")
  end
  conserved(s)
end

-- ends(s): the stack is emptied, so the game ends with the turn in progress
local function ends(s)
  for _, ty in ipairs(s.stack) do s.aside[#s.aside + 1] = ty end
  s.stack = {}
end

test("carcassonne: legal placements next to the start tile, by tile type; follower choices", function()
  local s = G.setup(2, 5)
  t.eq(#s.fx, 4)
  local function count(letter) give(s, letter); return #G.legal_actions(s, 1) end
  t.eq(count("C"), 1, "only north, against the start tile's city")
  t.eq(count("U"), 3, "straight road: east and west turned 90°, south turned 90°")
  t.eq(count("V"), 6, "curve: two turns on each road side and two on the field side")
  t.eq(count("E"), 4, "one city side: north turned 180°, south in three turns")
  t.eq(count("B"), 1, "monastery: south only")
  t.eq(G.legal_actions(s, 2), {}, "not seat 2's turn")
  give(s, "E")
  t.eq(G.legal_actions(s, 1)[1].id, "place:0:1:180", "north first")
  t.eq(G.apply(s, 1, "place:0:1:0"), nil, "the city would face a field")
  t.eq(G.apply(s, 1, "place:5:5:0"), nil, "not next to the map")
  t.eq(G.apply(s, 1, "place:0:-1:45"), nil)
  t.eq(G.apply(s, 1, "place:-0:1:180"), nil, "ids are exact")
  t.eq(G.apply(s, 1, "place:0:01:180"), nil)
  give(s, "U")
  t.eq(G.apply(s, 1, "place:1:0:270"), nil, "a turn that looks like 90° is listed once, as 90")
  give(s, "E")
  assert(G.apply(s, 1, "place:0:1:180"))
  t.eq(s.phase, "follower"); t.eq(G.current_seats(s), { 1 })
  local ids = {}
  for j, a in ipairs(G.legal_actions(s, 1)) do ids[j] = a.id end
  t.eq(ids, { "follower:city1", "follower:field1", "follower:none" })
  t.eq(G.apply(s, 1, "follower:road1"), nil)
  assert(G.apply(s, 1, "follower:city1"))
  t.eq(s.score[1], 4, "the two-tile city was complete: 2 × 2 points")
  t.eq(s.supply[1], 7, "and the follower came back")
  t.eq(G.current_seats(s), { 2 })
end)

test("carcassonne: a completed city with a pennant scores 2 per tile and per pennant; an occupied city takes no follower", function()
  local s = G.setup(2, 11)
  play(s, "M", 0, 1, 180, "city1")          -- city E,S with a pennant, joined to the start tile's city
  t.eq(s.supply[1], 6)
  give(s, "E")
  assert(G.apply(s, 2, "place:1:1:270"))     -- city W closes it: 3 tiles, 1 pennant
  local ids = {}
  for j, a in ipairs(G.legal_actions(s, 2)) do ids[j] = a.id end
  t.eq(ids, { "follower:field1", "follower:none" }, "the city holds seat 1's follower")
  assert(G.apply(s, 2, "follower:none"))
  t.eq(s.score, { 2 * 3 + 2 * 1, 0 })
  t.eq(s.supply, { 7, 7 })
  t.eq(#s.ms, 0)
  conserved(s)
end)

test("carcassonne: a monastery completed by its eighth neighbour scores 9 and its follower comes back", function()
  local s = G.setup(2, 12)
  play(s, "B", 0, -1, 0, "monastery")        -- seat 1
  play(s, "U", -1, 0, 90)                    -- road east-west on the start tile's road
  play(s, "U", 1, 0, 90)
  play(s, "B", -1, -1, 0)
  play(s, "B", 1, -1, 0)
  play(s, "E", -1, -2, 180)
  play(s, "E", 0, -2, 180)
  t.eq(s.score, { 0, 0 }); t.eq(s.supply[1], 6)
  play(s, "E", 1, -2, 180)                   -- the eighth tile around the monastery
  t.eq(s.score, { 9, 0 }); t.eq(s.supply[1], 7)
end)

test("carcassonne: two roads with one follower each joined and completed: both score every tile", function()
  local s = G.setup(2, 13)
  play(s, "U", 1, 0, 90, "road1")            -- seat 1 on the start tile's road
  play(s, "V", 1, -1, 270, "road1")          -- seat 2 on a separate road (east and south)
  play(s, "V", 2, 0, 0)                      -- seat 1 turns seat 1's road south
  play(s, "V", 2, -1, 90)                    -- seat 2 joins both roads
  t.eq(s.sc[G.board.find(s.sp, s.tb[1] + 1)], 2, "one road, two followers")
  play(s, "W", -1, 0, 0)                     -- the west end at a crossroads
  t.eq(s.score, { 0, 0 })
  play(s, "W", 1, -2, 180)                   -- the south end: 7 tiles
  t.eq(s.score, { 7, 7 }); t.eq(s.supply, { 7, 7 })
  t.eq(G.ranking(s).ranks, { 1, 1 })
end)

test("carcassonne: a farm next to two completed cities scores 6; a city counts for every farm it borders", function()
  local s = G.setup(2, 14)
  play(s, "E", 0, 1, 180, "field1")          -- seat 1: closes city A (start + this), farmer north of it
  play(s, "E", 0, 2, 0)                      -- seat 2: city B opens northwards; the farm grows
  play(s, "U", 1, 0, 90, "road1")            -- seat 1: a road of 2 tiles left open
  ends(s)
  play(s, "E", 0, 3, 180, "field1")          -- seat 2: closes city B, farmer beyond it; the last tile
  t.ok(G.is_terminal(s))
  -- seat 1: farm bordering A and B 2 × 3 = 6, road 2 tiles 2; seat 2: farm bordering B 3
  t.eq(s.score, { 8, 3 })
  t.eq(G.ranking(s), { ranks = { 1, 2 }, scores = { 8, 3 } })
  t.eq(#s.ms, 3, "followers stay on the map at the end")
  conserved(s)
end)

test("carcassonne: incomplete features at the end: a city 1 per tile and pennant, a monastery 1 + neighbours", function()
  local s = G.setup(2, 15)
  play(s, "M", 0, 1, 180, "city1")           -- seat 1: 2-tile city with a pennant, open
  ends(s)
  play(s, "B", 0, -1, 0, "monastery")        -- seat 2: monastery with the start tile next to it
  t.ok(G.is_terminal(s))
  t.eq(s.score, { 2 + 1, 1 + 1 })
  t.eq(G.estimate(s), { 3 + 3, 2 + 2 }, "the estimate counts the followers still on the map again")
end)

test("carcassonne: a tile with no legal place is set aside and the next one drawn", function()
  local s = G.setup(2, 16)
  give(s, "C")
  assert(G.apply(s, 1, "place:0:1:0"))       -- C closes nothing: the city stays open on three sides
  assert(G.apply(s, 1, "follower:none"))
  -- make every open position ask for roads on all sides: only the X crossroads fits
  for j = 1, #s.fq do s.fq[j] = 2 | 2 << 2 | 2 << 4 | 2 << 6 end
  s.stack[#s.stack + 1] = s.tile
  for j = #s.stack, 1, -1 do if s.stack[j] == L.X then table.remove(s.stack, j) end end
  s.stack[#s.stack + 1] = L.X
  for j = #s.stack, 1, -1 do if s.stack[j] == L.E then table.remove(s.stack, j); break end end
  s.stack[#s.stack + 1] = L.E
  s.tile = 0
  G.draw(s)
  t.eq(s.tile, L.X)
  t.eq(s.aside, { L.E })
  conserved(s)
  t.contains(G.render(G.observation(s, 2)), "set aside (no legal place): E")
end)

test("carcassonne: the stack order is never seen; the tile in hand and the map are", function()
  local a = G.setup(3, 21)
  local b = kit.copy(a)
  b.stack[1], b.stack[#b.stack] = b.stack[#b.stack], b.stack[1]
  for seat = 1, 3 do
    rt.same_observation(G, a, b, seat)
    t.eq(G.render(G.observation(a, seat)), G.render(G.observation(b, seat)))
  end
  local o = G.observation(a, 2)
  t.eq(o.stack, 70)
  t.eq(type(o.unseen), "table")
  local text = json.encode(o)
  t.ok(not text:find('"stack":%['), "no list of the stack")
  t.eq(o.tile.type, TILES.T[a.tile].letter)
  t.contains(G.render(o), "Tile to place: " .. o.tile.type)
  local d = G.determinize(a, 1, kit.generator(4))
  t.eq(kit.serialize(G.board.copy(a, kit.copy)), kit.serialize(a), "the fast copy is a copy")
  t.ok(kit.serialize(d.stack) ~= kit.serialize(a.stack), "determinize reshuffles the stack")
  t.eq(G.observation(d, 1), G.observation(a, 1))
end)

test("carcassonne: the heuristic takes immediate points; estimate and ranking on a running game", function()
  local s = G.setup(2, 17)
  play(s, "U", 1, 0, 90, "road1")            -- seat 1 owns the start road
  give(s, "V")
  local legal = G.legal_actions(s, 2)
  local all = G.heuristic_all(s, 2, legal)
  for j, a in ipairs(legal) do t.eq(all[j], G.heuristic(s, 2, a.id), a.id) end
  play(s, "E", 0, 1, 180)                    -- seat 2: no follower
  give(s, "W")                               -- seat 1: a crossroads at 2,0 closes the east end
  local best, pick = -math.huge, nil
  for _, a in ipairs(G.legal_actions(s, 1)) do
    local h = G.heuristic(s, 1, a.id)
    if h > best then best, pick = h, a.id end
  end
  t.ok(pick:find("^place:2:0:") or pick:find("^place:%-1:0:"), "extends or closes its own road: " .. pick)
  t.eq(G.ranking(s).scores, s.score)
end)

-- the values the sources give (games/carcassonne/RULES.md, "Sources of the number tables"):
-- per type its count, its sides clockwise from the north (c city, r road, f field; any
-- turn of it), its separate cities and roads, a monastery, its pennants, its separate fields
local MANIFEST = {
  A = { 2, "ffrf", 0, 1, true, 0, 1 }, B = { 4, "ffff", 0, 0, true, 0, 1 }, C = { 1, "cccc", 1, 0, false, 1, 0 },
  D = { 4, "crfr", 1, 1, false, 0, 2 }, E = { 5, "cfff", 1, 0, false, 0, 1 }, F = { 2, "fcfc", 1, 0, false, 1, 2 },
  G = { 1, "fcfc", 1, 0, false, 0, 2 }, H = { 3, "cfcf", 2, 0, false, 0, 1 }, I = { 2, "cffc", 2, 0, false, 0, 1 },
  J = { 3, "crrf", 1, 1, false, 0, 2 }, K = { 3, "cfrr", 1, 1, false, 0, 2 }, L = { 3, "crrr", 1, 3, false, 0, 3 },
  M = { 2, "ccff", 1, 0, false, 1, 1 }, N = { 3, "ccff", 1, 0, false, 0, 1 }, O = { 2, "crrc", 1, 1, false, 1, 2 },
  P = { 3, "crrc", 1, 1, false, 0, 2 }, Q = { 1, "ccfc", 1, 0, false, 1, 1 }, R = { 3, "ccfc", 1, 0, false, 0, 1 },
  S = { 2, "ccrc", 1, 1, false, 1, 2 }, T = { 1, "ccrc", 1, 1, false, 0, 2 }, U = { 8, "rfrf", 0, 1, false, 0, 2 },
  V = { 9, "ffrr", 0, 1, false, 0, 2 }, W = { 4, "frrr", 0, 3, false, 0, 3 }, X = { 1, "rrrr", 0, 4, false, 0, 4 },
}

test("carcassonne: data manifest: the 24 tile types, their counts, sides, cities, roads, monasteries, pennants and fields", function()
  local seen, total, pennants = 0, 0, 0
  for _, e in ipairs(TILES.T) do
    local m = MANIFEST[e.letter]
    t.ok(m, "type " .. e.letter .. " is in the sources"); seen = seen + 1
    t.eq(e.count, m[1], e.letter .. ": count")
    local k = e.rot[0].kinds
    local sides = (k[1]:sub(1, 1) .. k[2]:sub(1, 1) .. k[3]:sub(1, 1) .. k[4]:sub(1, 1))
    local turns = {}
    for q = 0, 3 do turns[sides:sub(q + 1) .. sides:sub(1, q)] = true end
    t.ok(turns[m[2]], e.letter .. ": sides " .. sides .. " are a turn of " .. m[2])
    local cities, roads, fields, pen = 0, 0, 0, 0
    for _, f in ipairs(e.feats) do
      if f.kind == TILES.CITY then cities = cities + 1 elseif f.kind == TILES.ROAD then roads = roads + 1
      elseif f.kind == TILES.FIELD then fields = fields + 1 end
      pen = pen + f.pennant
    end
    t.eq({ cities, roads, e.monastery ~= nil, pen, fields }, { m[3], m[4], m[5], m[6], m[7] },
      e.letter .. ": cities, roads, monastery, pennants, fields")
    total, pennants = total + e.count, pennants + pen * e.count
  end
  t.eq(seen, 24); t.eq(total, 72); t.eq(pennants, 10)
  t.eq(TILES.T[TILES.START].letter, "D", "the start tile: city north, road east-west")
  t.eq(G.FOLLOWERS, 7)
end)

test("carcassonne: turns pass from seat to seat (3 players); a seat without followers has no follower step", function()
  local s = G.setup(3, 9)
  t.eq(G.current_seats(s), { 1 })
  play(s, "E", 0, 1, 180)
  t.eq(G.current_seats(s), { 2 })
  play(s, "U", 1, 0, 90)
  t.eq(G.current_seats(s), { 3 })
  play(s, "U", -1, 0, 90)
  t.eq(G.current_seats(s), { 1 })
  s.supply[1] = 0
  give(s, "V")
  assert(G.apply(s, 1, "place:2:0:0"))
  t.eq(s.phase, "place", "no follower step"); t.eq(G.current_seats(s), { 2 })
end)

test("carcassonne: the most followers on a feature take its points, the fewer none", function()
  local s = G.setup(2, 18)
  play(s, "U", 1, 0, 90, "road1")            -- seat 1 on the start tile's road
  play(s, "V", 1, -1, 270, "road1")          -- seat 2 on a separate road (east and south)
  play(s, "V", 2, 0, 0)                      -- seat 1 turns its road south
  play(s, "V", 2, -1, 90)                    -- seat 2 joins the two roads: one follower each
  play(s, "E", 0, 1, 180)                    -- seat 1 elsewhere
  play(s, "V", 2, -2, 0, "road1")            -- seat 2: a third road, its second follower
  ends(s)
  play(s, "V", 1, -2, 180)                   -- seat 1 joins it: 7 tiles, seat 2 has two followers to one
  t.ok(G.is_terminal(s))
  t.eq(s.score, { 0, 7 }, "the open road scores 1 a tile for seat 2 alone")
  t.eq(G.ranking(s).ranks, { 2, 1 })
end)

test("carcassonne: a road loop through two roads of one crossroads counts that tile once", function()
  local s = G.setup(2, 19)
  play(s, "L", 1, 0, 0, "road1")             -- seat 1: crossroads; its east road
  play(s, "V", 2, 0, 0)
  play(s, "V", 2, -1, 90)
  t.eq(s.score, { 0, 0 })
  play(s, "V", 1, -1, 180)                   -- closes the loop back into the crossroads' south road
  t.eq(s.score, { 4, 0 }, "four tiles, though the crossroads gives the road two segments")
  t.eq(s.supply, { 7, 7 })
end)

test("carcassonne: fields join flank by flank: a road divides them; a farm scores only completed cities", function()
  local s = G.setup(2, 20)
  play(s, "U", 1, 0, 90, "field1")           -- seat 1: the field north of the start road, next to its city
  play(s, "U", -1, 0, 90, "field2")          -- seat 2: the field south of the road, next to no city
  play(s, "E", 1, 1, 0)                      -- seat 1: an open city above seat 1's field
  ends(s)
  play(s, "E", 0, 1, 180)                    -- seat 2 closes the start tile's city: the last tile
  t.ok(G.is_terminal(s))
  t.eq(s.score, { 3, 0 }, "seat 1: one completed city (the open one counts nothing); seat 2: none")
end)

test("carcassonne: a game played to the end places or sets aside every tile", function()
  local s = G.setup(2, 23)
  while not G.is_terminal(s) do
    local seat = G.current_seats(s)[1]
    assert(G.apply(s, seat, G.legal_actions(s, seat, true)[1].id))
  end
  t.eq(#s.stack, 0); t.eq(s.tile, 0)
  t.eq(#s.tt + #s.aside, 72)
end)

test("carcassonne: RULES-AUDIT.md names existing tests; coverage by status", function()
  local counts = rt.audit(t.root() .. "/games/carcassonne/RULES-AUDIT.md", T, "CA")
  t.ok(counts.PASS >= 30, "rules audited: " .. counts.PASS)
end)

-- the arena: one full match between built-in players, one with a model over the mock server
local match = require "scenarios.dece.match"
local participants = require "scenarios.dece.participants"
local fs = require "tabula.fs"

local function arena(list)
  local dir = t.tmpdir()
  local by, agents, prompts = {}, {}, {}
  for _, e in ipairs(list) do
    local p = participants.normalize(e, "test", e.models_file)
    by[p.name] = p
    if p.kind == "model" then
      agents[p.name] = require("tabula.agent").new(require("tabula.models").resolve(p.manifest.model, e.models_file), { cache_dir = dir .. "/cache" })
      prompts[p.name] = require("tabula.prompt").set("dece")
    end
  end
  return { dir = dir, participants = by, agents = agents, prompts = prompts, games = { carcassonne = G } }
end

local BUILTIN = { { name = "random", player = "random" }, { name = "heuristic", player = "heuristic" },
                  { name = "ismcts", player = "ismcts", simulations = 4, steps = 18 } }

test("carcassonne: a full arena match between built-in players", function()
  local rec = match.play(arena(BUILTIN), { id = "carcassonne-1", game = "carcassonne", seats = { "ismcts", "random", "heuristic" }, setup_seed = 77 })
  t.eq(rec.status, "finished"); t.eq(#rec.ranks, 3)
  t.ok(rec.D >= 71, "a placement decision per tile at least")
end)

test("carcassonne: a model over the mock server: a legal answer, then an invalid one forfeits", function()
  local mock = require "tests.mock"
  local first = G.legal_actions(G.setup(3, 3), 1)[1].id
  local s = mock.start({ { match = "Decision 1 ", reply = "ACTION: " .. first, times = 1 }, { reply = "ACTION: place:9:9:0" } })
  local a = arena({ BUILTIN[1], BUILTIN[2] })
  fs.write_atomic(a.dir .. "/models.lua", string.format([[return { m = { provider = "openai", model = "m",
    base_url = %q, optional_key = true, prices = { input = 2, cached = 1, output = 10 } } }]], s.url .. "/v1"))
  local llm = { name = "llm", model = "m", models_file = a.dir .. "/models.lua" }
  local full = arena({ llm, BUILTIN[1], BUILTIN[2] })
  local ok, rec = pcall(match.play, full, { id = "carcassonne-1", game = "carcassonne", seats = { "llm", "random", "heuristic" }, setup_seed = 3 })
  local log = s:log()
  s:close()
  if not ok then error(rec, 0) end
  t.eq(rec.status, "forfeit"); t.eq(rec.forfeits, { 1 }); t.eq(rec.ranks[1], 3)
  t.eq(rec.invalid[1], 1)
  local body = log[1].body and json.decode(log[1].body) or log[1]
  t.contains(json.encode(body), first .. ": place tile", "the legal actions are listed")
end)

return T
