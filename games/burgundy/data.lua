-- games.burgundy.data — the components of The Castles of Burgundy (Stefan Feld, alea /
-- Ravensburger 2011) in our own format: the estate board (37 spaces, regions by colour, a die
-- number per space), the 164 six-sided tiles of six kinds (castles, ships, animals, mines,
-- buildings, knowledge) with their backs, the eight building types and the 26 knowledge tiles
-- with their effects, the 42 goods, the depots of the game board and the scoring tables.
-- Pinned by the data-manifest test in tests/test_burgundy.lua; which counts are unverified
-- is said in games/burgundy/RULES.md.
local M = {}

-- the six kinds of six-sided tiles (= the six colours of estate spaces)
M.KINDS = {
  { id = "castle",    letter = "C", colour = "dark green" },
  { id = "ship",      letter = "W", colour = "blue" },
  { id = "animal",    letter = "P", colour = "light green" },
  { id = "mine",      letter = "M", colour = "grey" },
  { id = "building",  letter = "B", colour = "beige" },
  { id = "knowledge", letter = "K", colour = "yellow" },
}

-- the estate board: a hexagon of radius 3 in axial coordinates (q, r), rows a..g from the top
-- (r = -3 .. 3), spaces numbered left to right within a row. Each row is a string of
-- "<kind letter><die>" pairs; the middle space d4 holds the starting castle. This is the
-- printed estate no. 1 (the rulebook's board for a first game, every player the same): the
-- colour and die number of each space as two public implementations of the game record them
-- (RULES.md names them). It has the rulebook's composition: 4 castle spaces with the start,
-- 6 water, 6 pasture, 3 mine, 12 city spaces in cities of 5, 3, 3 and 1, 6 knowledge spaces.
-- The river runs across the middle row on both sides of the starting castle.
M.ROWS = {
  "P6 C5 C4 K3",
  "P2 P1 C6 K5 B4",
  "P5 P4 B3 K1 B2 B3",
  "W6 W1 W2 C6 W5 W4 W1",
  "B2 B5 M4 B3 B1 P2",
  "B6 M1 K2 B5 B6",
  "M3 K4 K1 B3",
}
M.START = "d4"
M.SPACES = {}
for i, row in ipairs(M.ROWS) do
  local r = i - 4
  local q = math.max(-3, -3 - r)
  local j = 0
  for letter, die in row:gmatch("(%u)(%d)") do
    j = j + 1
    M.SPACES[#M.SPACES + 1] = { name = string.char(96 + i) .. j, q = q, r = r, letter = letter, die = tonumber(die) }
    q = q + 1
  end
end
M.DIRS = { { 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, 0 }, { -1, 1 }, { 0, 1 } }

-- building types: the id, the name, the immediate effect (our words)
M.BUILDINGS = {
  { id = "warehouse",  name = "Warehouse",          effect = "sell all goods of one type of your choice (no die needed)" },
  { id = "watchtower", name = "Watchtower",         effect = "4 victory points" },
  { id = "carpenter",  name = "Carpenter's workshop", effect = "take one building tile from any numbered depot into storage" },
  { id = "church",     name = "Church",             effect = "take one mine, castle or knowledge tile from any numbered depot into storage" },
  { id = "market",     name = "Market",             effect = "take one ship or animal tile from any numbered depot into storage" },
  { id = "boarding",   name = "Boarding house",     effect = "4 workers" },
  { id = "bank",       name = "Bank",               effect = "2 silverlings" },
  { id = "cityhall",   name = "City hall",          effect = "add one tile from your storage to your estate (any die number, still adjacent and of the matching colour)" },
}

M.ANIMALS = { "cattle", "sheep", "pigs", "chickens" }

-- the 26 knowledge tiles: number, when it acts, the effect (our words); an end-scoring tile
-- also names what it counts (a building type, or "types_sold", "animal_types", "tiles_sold",
-- "bonus")
M.KNOWLEDGE = {
  { "rule",  "each building type may appear more than once in a city" },
  { "phase", "at the end of each phase, each of your mines also gives 1 worker" },
  { "rule",  "selling goods gives 1 more silverling" },
  { "rule",  "selling goods gives 1 worker" },
  { "rule",  "a ship takes the goods of two neighbouring depots" },
  { "rule",  "the once-a-turn purchase (2 silverlings, never workers) may come from any numbered depot too" },
  { "rule",  "each animal tile scored on placing an animal gives 1 more point" },
  { "rule",  "each worker changes a die by up to 2" },
  { "rule",  "placing a building: the die may be changed by 1 for free" },
  { "rule",  "placing a ship or an animal: the die may be changed by 1 for free" },
  { "rule",  "placing a castle, mine or knowledge tile: the die may be changed by 1 for free" },
  { "rule",  "taking a tile from a numbered depot: the die may be changed by 1 for free" },
  { "rule",  "taking workers gives 1 silverling as well" },
  { "rule",  "taking workers gives 4 workers instead of 2" },
  { "end",   "3 points for each goods type of which you sold at least one tile", "types_sold" },
  { "end",   "4 points for each warehouse on your estate",       "warehouse" },
  { "end",   "4 points for each watchtower on your estate",      "watchtower" },
  { "end",   "4 points for each carpenter's workshop on your estate", "carpenter" },
  { "end",   "4 points for each church on your estate",          "church" },
  { "end",   "4 points for each market on your estate",          "market" },
  { "end",   "4 points for each boarding house on your estate",  "boarding" },
  { "end",   "4 points for each bank on your estate",            "bank" },
  { "end",   "4 points for each city hall on your estate",       "cityhall" },
  { "end",   "4 points for each animal type on your estate",     "animal_types" },
  { "end",   "1 point for each goods tile you sold",             "tiles_sold" },
  { "end",   "2 points for each bonus tile you took",            "bonus" },
}

-- the 164 six-sided tiles: by kind and back. "coloured" backs are drawn for the numbered depots'
-- spaces of that colour; "black" backs for the black depot; 4 starting castles.
-- castles 20 (4 start + 10 coloured + 6 black), ships 26 (20 + 6), animals 28 (20 + 8),
-- mines 16 (10 + 6), buildings 48 (6 of each type: 5 coloured + 1 black), knowledge 26
-- (20 coloured: 1-20, 6 black: 21-26)
M.TILES = {}
local function add(t) t.n = #M.TILES + 1; M.TILES[t.n] = t end
for _ = 1, 4 do add({ kind = "castle", back = "start" }) end
for _ = 1, 10 do add({ kind = "castle", back = "coloured" }) end
for _ = 1, 6 do add({ kind = "castle", back = "black" }) end
for _ = 1, 20 do add({ kind = "ship", back = "coloured" }) end
for _ = 1, 6 do add({ kind = "ship", back = "black" }) end
-- animals: per type 5 coloured tiles of 2, 2, 3, 3, 4 animals and 2 black tiles of 3 and 4
for _, a in ipairs(M.ANIMALS) do
  for _, k in ipairs({ 2, 2, 3, 3, 4 }) do add({ kind = "animal", back = "coloured", animal = a, count = k }) end
  for _, k in ipairs({ 3, 4 }) do add({ kind = "animal", back = "black", animal = a, count = k }) end
end
for _ = 1, 10 do add({ kind = "mine", back = "coloured" }) end
for _ = 1, 6 do add({ kind = "mine", back = "black" }) end
for _, b in ipairs(M.BUILDINGS) do
  for _ = 1, 5 do add({ kind = "building", back = "coloured", building = b.id }) end
  add({ kind = "building", back = "black", building = b.id })
end
for k = 1, 26 do add({ kind = "knowledge", back = k <= 20 and "coloured" or "black", knowledge = k }) end

-- the game board: six numbered depots of four spaces each (2 players use the first two spaces,
-- 3 players the first three, 4 players all four), each space printed with the colour of the
-- tile drawn for it; the black depot of 8 spaces; a goods space per depot; five round spaces for
-- the phase's goods. The two-player spaces as two public implementations record them; the
-- third and fourth spaces as one of them does (RULES.md).
M.DEPOTS = {
  { "building", "ship", "knowledge", "animal" },
  { "knowledge", "castle", "building", "building" },
  { "animal", "building", "ship", "knowledge" },
  { "ship", "building", "animal", "mine" },
  { "mine", "knowledge", "building", "building" },
  { "building", "animal", "castle", "ship" },
}
M.BLACK = 8           -- spaces of the black depot
M.BLACK_PER_PLAYER = 2 -- filled each phase: 2 tiles per player (4, 6, 8; RULES.md)
M.STORAGE = 3         -- storage spaces for six-sided tiles
M.GOODS_SLOTS = 3     -- goods storage spaces (one goods type each)
M.GOODS = 42          -- 7 of each of the six types (a type = a die number)
M.GOODS_PER_TYPE = 7
M.START_GOODS = 3
M.PHASES, M.ROUNDS = 5, 5
M.PHASE_NAMES = { "A", "B", "C", "D", "E" }

-- scoring
M.REGION_POINTS = { 1, 3, 6, 10, 15, 21, 28, 36 }   -- a completed region by its size
M.PHASE_BONUS = { 10, 8, 6, 4, 2 }                   -- a completed region by the phase
M.SELL_POINTS = { [2] = 2, [3] = 3, [4] = 4 }       -- per goods tile sold, by player count
M.BONUS_FIRST = { [2] = 5, [3] = 6, [4] = 7 }        -- first to fill every space of a colour
M.BONUS_SECOND = { [2] = 2, [3] = 3, [4] = 4 }       -- second
M.WATCHTOWER = 4
M.BOARDING = 4
M.BANK = 2
M.BUY_COST = 2
M.WORKERS_TAKEN = 2
M.START_SILVER = 1
-- starting workers by seat order: 1, 2, 3, 4
return M
