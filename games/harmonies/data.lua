-- games.harmonies.data — the components of Harmonies (Libellud 2024) in our own format:
-- the 120 landscape tokens by colour, the central board's five spaces of three tokens,
-- personal board side A (23 hexes, five columns of 5, 4, 5, 4, 5), the six hex directions,
-- the five habitat shapes and the 32 animal cards (habitat, point track, cube count).
-- Pinned by the data-manifest test in tests/test_harmonies.lua.
local M = {}

-- token colours: the id used in actions, the letter used in stacks, what it builds
M.COLOURS = {
  { id = "blue",   letter = "W", count = 23, what = "water" },
  { id = "gray",   letter = "M", count = 23, what = "mountain" },
  { id = "brown",  letter = "T", count = 21, what = "tree trunk" },
  { id = "green",  letter = "G", count = 19, what = "tree foliage" },
  { id = "yellow", letter = "Y", count = 19, what = "field" },
  { id = "red",    letter = "R", count = 15, what = "building roof" },
}
M.TOKENS = 120
M.SPACES, M.PER_SPACE = 5, 3     -- the central board (2-4 players side)
M.RIVER = 5                      -- animal cards face up
M.HAND = 4                       -- animal cards a player may hold unfinished
M.CUBES = 66                     -- animal cubes in the box: a card taken is filled from them

-- side A ("the river"): columns a..e of 5, 4, 5, 4, 5 hexes. A hex is at (column c, y) in
-- doubled rows: even columns at y = 0, 2, .., 8, odd columns at y = 1, 3, 5, 7, so the
-- neighbours of (c, y) are (c, y ± 2) and (c ± 1, y ± 1).
M.COLUMNS = { 5, 4, 5, 4, 5 }
M.HEXES = {}
for c, len in ipairs(M.COLUMNS) do
  for j = 1, len do
    M.HEXES[#M.HEXES + 1] = { name = string.char(96 + c) .. j, c = c - 1, y = 2 * (j - 1) + (c - 1) % 2 }
  end
end

-- the six directions, clockwise from north (y grows downwards); turning a habitat by 60°
-- adds 1 to every direction (mod 6)
M.DIRS = { { 0, -2 }, { 1, -1 }, { 1, 1 }, { 0, 2 }, { -1, 1 }, { -1, -1 } }
M.DIR_NAMES = { "N", "NE", "SE", "S", "SW", "NW" }

-- the stacks a habitat asks for (exactly this stack on the hex, bottom to top)
M.STACKS = {
  W = { "W" }, F = { "Y" },
  M1 = { "M" }, M2 = { "MM" }, M3 = { "MMM" },
  T1 = { "G" }, T2 = { "TG" }, T3 = { "TTG" },
  B = { "MR", "TR", "RR" },     -- a building: a red roof on one gray, brown or red token
}
M.STACK_NAMES = { W = "water (blue)", F = "field (yellow)", M1 = "mountain of 1 (gray)", M2 = "mountain of 2 (2 gray)",
  M3 = "mountain of 3 (3 gray)", T1 = "tree of 1 (green alone)", T2 = "tree of 2 (green on brown)",
  T3 = "tree of 3 (green on 2 brown)", B = "building (red on one gray, brown or red)" }

-- habitat shapes: where the other hexes lie from the target hex (the one that takes the
-- cube), each as a list of steps in the directions above (unturned)
M.SHAPES = {
  pair      = { { 1 } },                  -- one neighbour
  triangle  = { { 1 }, { 2 } },           -- two neighbours that touch each other
  boomerang = { { 1 }, { 3 } },           -- two neighbours 120° apart (a bent line, target in the middle)
  spread    = { { 1 }, { 2 }, { 3 } },    -- three neighbours in a row around the target
  line      = { { 1 }, { 1, 1 } },        -- a straight line of three, target at one end
}

-- the 32 animal cards: habitat shape, the stack on the target hex, the stacks of the other
-- hexes (in the shape's order), the point track (points with 1, 2, .. cubes placed; the
-- number of cubes is its length)
M.CARDS = {
  { id = "meerkat",    shape = "pair",      target = "M1", others = { "F" },         track = { 2, 5, 9, 14 } },
  { id = "bat",        shape = "pair",      target = "M1", others = { "T3" },        track = { 3, 6, 10, 15 } },
  { id = "falcon",     shape = "pair",      target = "M3", others = { "F" },         track = { 5, 11 } },
  { id = "squirrel",   shape = "pair",      target = "B",  others = { "T3" },        track = { 4, 9, 15 } },
  { id = "boar",       shape = "pair",      target = "T2", others = { "B" },         track = { 4, 8, 13 } },
  { id = "koala",      shape = "pair",      target = "T2", others = { "T1" },        track = { 3, 6, 10, 15 } },
  { id = "duck",       shape = "pair",      target = "W",  others = { "B" },         track = { 2, 4, 8, 13 } },
  { id = "frog",       shape = "pair",      target = "W",  others = { "T1" },        track = { 2, 4, 6, 10, 15 } },
  { id = "fish",       shape = "pair",      target = "W",  others = { "M3" },        track = { 3, 6, 10, 16 } },
  { id = "ladybug",    shape = "pair",      target = "F",  others = { "T1" },        track = { 2, 5, 8, 12, 17 } },
  { id = "macaque",    shape = "triangle",  target = "M2", others = { "W", "W" },    track = { 5, 11 } },
  { id = "hedgehog",   shape = "triangle",  target = "B",  others = { "T2", "T2" },  track = { 5, 12 } },
  { id = "bear",       shape = "triangle",  target = "T1", others = { "M2", "M2" },  track = { 5, 11 } },
  { id = "macaw",      shape = "triangle",  target = "T2", others = { "W", "W" },    track = { 4, 9, 14 } },
  { id = "wolf",       shape = "triangle",  target = "T3", others = { "F", "F" },    track = { 4, 10, 16 } },
  { id = "ray",        shape = "triangle",  target = "W",  others = { "M1", "M1" },  track = { 4, 10, 16 } },
  { id = "flamingo",   shape = "triangle",  target = "W",  others = { "F", "F" },    track = { 4, 10, 16 } },
  { id = "bee",        shape = "spread",    target = "T2", others = { "F", "F", "F" }, track = { 8, 18 } },
  { id = "raccoon",    shape = "spread",    target = "F",  others = { "W", "W", "W" }, track = { 6, 12 } },
  { id = "penguin",    shape = "boomerang", target = "M1", others = { "W", "W" },    track = { 4, 10, 16 } },
  { id = "peacock",    shape = "boomerang", target = "B",  others = { "W", "W" },    track = { 5, 10, 17 } },
  { id = "shrew",      shape = "boomerang", target = "B",  others = { "F", "F" },    track = { 5, 10, 17 } },
  { id = "kingfisher", shape = "boomerang", target = "T3", others = { "W", "W" },    track = { 5, 11, 18 } },
  { id = "arctic_fox", shape = "boomerang", target = "F",  others = { "T2", "T2" },  track = { 5, 10, 17 } },
  { id = "crow",       shape = "boomerang", target = "F",  others = { "B", "B" },    track = { 4, 9 } },
  { id = "fennec_fox", shape = "line",      target = "M1", others = { "M1", "F" },   track = { 4, 9, 16 } },
  { id = "lizard",     shape = "line",      target = "B",  others = { "F", "F" },    track = { 5, 10, 16 } },
  { id = "rabbit",     shape = "line",      target = "T1", others = { "T1", "B" },   track = { 5, 10, 17 } },
  { id = "otter",      shape = "line",      target = "W",  others = { "T1", "T1" },  track = { 5, 10, 16 } },
  { id = "alligator",  shape = "line",      target = "W",  others = { "W", "T3" },   track = { 4, 9, 15 } },
  { id = "panther",    shape = "line",      target = "F",  others = { "T2", "T2" },  track = { 5, 11 } },
  { id = "alpaca",     shape = "line",      target = "F",  others = { "F", "M2" },   track = { 5, 12 } },
}

-- landscape points
M.TREE_POINTS = { 1, 3, 7 }          -- by tree height (green on 0, 1, 2 brown)
M.MOUNTAIN_POINTS = { 1, 3, 7 }      -- by mountain height, only next to another mountain
M.FIELD_POINTS = 5                   -- per connected group of at least two fields
M.BUILDING_POINTS = 5                -- per building whose neighbours show at least three colours
M.RIVER_POINTS = { 0, 2, 5, 8, 11, 15 }  -- by the longest river's length; +4 per token beyond 6

return M
