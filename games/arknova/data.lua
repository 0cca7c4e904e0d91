-- games/arknova/data.lua — Ark Nova components other than the zoo cards, in our own format: the zoo
-- map, the buildings, the five action cards (both sides), the tracks, the association board, the
-- conservation projects (games/arknova/projects.lua) and the final-scoring cards. Which numbers are checked against the
-- published game and which are our reading is in RULES.md ("Components").
local D = {}

D.CARDS = require "games.arknova.cards"

-- The zoo map: 9 columns a-i of hexes, columns a, c, e, g, i of 6 hexes and b, d, f, h of 7 (the
-- odd ones stand half a hex higher and reach half a hex lower): 58 hexes. Coordinates are axial
-- (q = column 0..8, r); hex "c3" is the third hex from the top of column c.
D.COLUMNS = "abcdefghi"
D.HEXES = {}
for q = 0, 8 do
  local rmin = -((q + 1) // 2)
  local rows = (q % 2 == 1) and 7 or 6
  for k = 1, rows do
    D.HEXES[#D.HEXES + 1] = { name = D.COLUMNS:sub(q + 1, q + 1) .. k, q = q, r = rmin + k - 1 }
  end
end
-- axial neighbour steps; turning a step one sixth clockwise maps (dq, dr) to (-dr, dq + dr)
D.DIRS = { { 1, 0 }, { 0, 1 }, { -1, 1 }, { -1, 0 }, { 0, -1 }, { 1, -1 } }

-- Our own layout on the published grid (opts.map = "ours"; the default map until Plan A was entered):
-- rock and water spaces (never built on), spaces that need the upgraded Build card, and the
-- placement bonuses gained by covering a space.
D.MAP = {
  name = "plan A (our layout)",
  rock = { "b4", "c4", "e1", "h6" },
  water = { "g2", "g3", "h3", "d7" },
  build2 = { "i1", "i2", "i3", "i4", "i5", "i6", "h7" },
  bonus = { b1 = "rep", f6 = "x", d2 = "money5", h1 = "card", a6 = "rep" },
}
D.BONUS_WORDS = { rep = "+1 reputation", rep2 = "+2 reputation", x = "+1 X-token", money5 = "+5 money",
  money10 = "+10 money", worker = "+1 association worker", card = "draw 1 card",
  take = "a card from the deck or within reputation range", clever = "after the action any action card to slot 1" }
-- The printed Plan A, the map of the standard game (every seat the same map; the player aid:
-- "All players use Map A for standard game"): its 7 rock, 9 water and 2 Build-II spaces and 12
-- placement bonuses are the same, space for space, in two open sources (SOURCES.md, "The default
-- map"). Its printed starting enclosure and kiosk (the lower left corner) are not modelled
-- (RULES-AUDIT AN-B17): the sources give their anchor spaces but not the enclosure's footprint.
D.PLAN_A = {
  name = "Plan A (the printed map of the standard game)",
  rock = { "b1", "b2", "b7", "c2", "d1", "f3", "g5" },
  water = { "c1", "c6", "d7", "e1", "f5", "g4", "h1", "i1", "i2" },
  build2 = { "h7", "i6" },
  bonus = { a1 = "rep2", a2 = "x", c3 = "take", c5 = "money5", d2 = "money5", e4 = "x", f1 = "x", f4 = "take",
    f6 = "take", h2 = "worker", h6 = "rep2", i3 = "money10" },
}
-- The zoo maps that setup offers (opts.map): Plan A (the default), ours (above) and the printed map 7 "Ice
-- Cream Parlors" of the base game, whose rock, water and Build-II spaces two open implementations
-- give alike (one ported from a game framework, one fitted to logged online games); its placement
-- bonuses are the second one's (the first has only a3's, which agrees). Its kiosk spaces (b2, f3,
-- f6: an income rule), its d4 sponsor bonus and the bonus spaces beside the printed map are out of
-- scope (RULES-AUDIT AN-B17).
D.MAPS = {
  planA = D.PLAN_A,
  ours = D.MAP,
  plan7 = {
    name = "map 7 (Ice Cream Parlors; its special rule not modelled)",
    rock = { "a1", "a2", "b5", "c5", "d3", "e1", "e2", "e5", "f5" },
    water = { "h1", "h3", "h6", "i1", "i2", "i3", "i6" },
    build2 = { "d5", "d6", "d7" },
    bonus = { a3 = "rep", b6 = "rep", d2 = "take", e4 = "take", e6 = "take", h2 = "x", h4 = "clever", h7 = "money5",
      i5 = "x" },
  },
}
D.MAP_NAMES = { "planA", "ours", "plan7" }
D.DEFAULT_MAP = "planA"

-- Buildings: shape as axial offsets (turned in sixths, never mirrored), cost, capacity for animals,
-- whether it needs the upgraded Build card and whether a zoo may hold only one.
D.BUILDINGS = {
  { id = "e1", name = "standard enclosure 1", shape = { { 0, 0 } }, kind = "enclosure" },
  { id = "e2", name = "standard enclosure 2", shape = { { 0, 0 }, { 0, -1 } }, kind = "enclosure" },
  { id = "e3", name = "standard enclosure 3", shape = { { 0, 0 }, { 0, -1 }, { 1, -1 } }, kind = "enclosure" },
  { id = "e4", name = "standard enclosure 4", shape = { { 0, 0 }, { 0, -1 }, { 1, -2 }, { 1, -1 } }, kind = "enclosure" },
  { id = "e5", name = "standard enclosure 5", shape = { { 0, 0 }, { 0, -1 }, { 1, -2 }, { 1, -1 }, { 0, -2 } }, kind = "enclosure" },
  { id = "kiosk", name = "kiosk", shape = { { 0, 0 } }, kind = "kiosk" },
  { id = "pavilion", name = "pavilion", shape = { { 0, 0 } }, kind = "pavilion" },
  { id = "petting", name = "Petting Zoo", shape = { { 0, 0 }, { 0, -1 }, { 1, -2 } }, kind = "special", capacity = 3, unique = true },
  { id = "reptile", name = "Reptile House", shape = { { 0, 0 }, { 0, -1 }, { 1, -1 }, { 2, -2 }, { 2, -1 } }, kind = "special", capacity = 5, unique = true, upgraded = true },
  { id = "aviary", name = "Large Bird Aviary", shape = { { 0, 0 }, { 0, -1 }, { 1, -2 }, { 1, -1 }, { 2, -1 } }, kind = "special", capacity = 5, unique = true, upgraded = true },
}
D.COST_PER_HEX = 2
D.KIOSK_DISTANCE = 3        -- two kiosks at least this many steps apart
D.PAVILION_APPEAL = 1

-- The five action cards; the Animals card starts in slot 1, the others are shuffled into 2-5.
D.ACTIONS = { "animals", "build", "cards", "association", "sponsors" }
-- Animals: how many animals at each strength (1..5, 5 for anything higher), side I and side II;
-- side II at strength 5 also gives 1 reputation
D.ANIMALS_PLAYS = { [false] = { 0, 1, 1, 1, 2 }, [true] = { 1, 1, 2, 2, 2 } }
-- Cards: draw k from the deck, then discard d from hand; snap = may instead take one card of the
-- display (the printed action cards as two open implementations give them alike, one of them
-- checked against logged online games: games/arknova/SOURCES.md)
D.CARDS_TABLE = {
  [false] = { { 1, 1 }, { 1, 0 }, { 2, 1 }, { 2, 0 }, { 3, 1, snap = true } },
  [true] = { { 1, 0 }, { 2, 1 }, { 2, 0, snap = true }, { 3, 1, snap = true }, { 4, 1, snap = true } },
}
D.CARDS_BREAK = 2           -- every Cards action moves the break token 2 spaces
D.HAND_LIMIT = { [false] = 3, [true] = 5 }   -- at a break; the upgraded Cards card raises it
D.DISPLAY = 6
-- the reputation range: the reputation track under the display is split into stretches, one per
-- folder; a marker at reputation r reaches the folders up to the stretch it stands on. Each entry
-- is the highest reputation of a stretch (0-1, 2-3, 4-6, 7-9, 10-12, 13-15: SOURCES.md)
D.REP_RANGE = { 1, 3, 6, 9, 12 }
-- Association tasks and their strengths
D.TASKS = { rep = 2, partner = 3, uni = 4, project = 5 }
D.DONATIONS = { 2, 5, 7, 10, 12 }  -- the donation costs (upgraded Association, one per action)
D.CONTINENTS = { "AF", "EU", "AS", "AM", "AU" }
D.CONTINENT_NAMES = { AF = "Africa", EU = "Europe", AS = "Asia", AM = "Americas", AU = "Australia" }
D.CLASSES = { "bird", "herbivore", "predator", "reptile", "primate" }
D.PARTNER_DISCOUNT = 3      -- an animal costs 3 less per icon of a continent where the seat has a partner zoo
D.MAX_PARTNERS = { [false] = 2, [true] = 4 }
D.UNIVERSITIES = {
  { id = "u1", name = "university (1 science, +1 reputation)", science = 1, rep = 1 },
  { id = "u2", name = "university (1 science, hand limit 5)", science = 1, hand = 5 },
  { id = "u3", name = "university (2 science)", science = 2 },
}

-- Tracks
D.START_MONEY = 25
D.MAX_APPEAL = 113
D.MAX_CP = 41
D.MAX_REP = 15
D.REP_CAP_BASIC = 9        -- reputation stops at 9 until the Cards card is upgraded; past 15, 1 appeal a step
D.MAX_X = 5
D.START_WORKERS, D.MAX_WORKERS = 1, 4
D.BREAK_LENGTH = { [2] = 9, [3] = 12, [4] = 15 }
-- conservation points convert to the appeal track: 2 spaces each for the first 10, 3 after
function D.cp_value(cp)
  if cp <= 10 then return 2 * cp end
  return 20 + 3 * (cp - 10)
end
-- the markers meet when appeal + cp_value(cp) >= 114 (the conservation marker at cp stands on the
-- appeal space 114 - cp_value(cp): games/arknova/SOURCES.md); the score is appeal + cp_value(cp) - 114
D.CROSSING = 114
-- income at a break by appeal (the printed appeal track): {lowest appeal, money}. 5 money at appeal
-- 0, then 1 more per appeal step to 10 at 5, per 2 steps to 16 at 17, per 3 to 21 at 32, per 4 to
-- 27 at 56, per 5 to 35 at 96, per 6 to 37 at 108 (sources: games/arknova/SOURCES.md)
D.INCOME = { { 0, 5 }, { 1, 6 }, { 2, 7 }, { 3, 8 }, { 4, 9 }, { 5, 10 }, { 7, 11 }, { 9, 12 }, { 11, 13 },
  { 13, 14 }, { 15, 15 }, { 17, 16 }, { 20, 17 }, { 23, 18 }, { 26, 19 }, { 29, 20 }, { 32, 21 }, { 36, 22 },
  { 40, 23 }, { 44, 24 }, { 48, 25 }, { 52, 26 }, { 56, 27 }, { 61, 28 }, { 66, 29 }, { 71, 30 }, { 76, 31 },
  { 81, 32 }, { 86, 33 }, { 91, 34 }, { 96, 35 }, { 102, 36 }, { 108, 37 } }
-- the appeal each seat starts with: the start player 0, the next 1, and so on (SOURCES.md)
function D.start_appeal(seat) return seat - 1 end


-- track bonuses, gained once when the marker first reaches the space
D.CP_BONUS = { [2] = "upgrade_or_worker", [5] = "money5", [8] = "upgrade_or_worker", [10] = "x" }
-- the reputation track as printed (SOURCES.md): 5 an upgrade, 8 a worker, 10 and 13 a card from the
-- deck or within reputation range, 11 and 14 1 CP, 12 and 15 an X-token
D.REP_BONUS = { [5] = "upgrade", [8] = "worker", [10] = "take", [11] = "cp", [12] = "x", [13] = "take", [14] = "cp", [15] = "x" }

-- Conservation projects (games/arknova/projects.lua): the 12 base projects (three on the board,
-- four with four players) and the 20 project cards, which join the zoo deck
D.PROJECT_DATA = require "games.arknova.projects"
D.PROJECTS = D.PROJECT_DATA.BASE
for _, c in ipairs(D.PROJECT_DATA.DECK) do D.CARDS[#D.CARDS + 1] = c end

-- Final-scoring cards (11), the base game's current printing (SOURCES.md; the Marine Worlds box
-- replaces six of them with other thresholds, not used here): what is counted and the thresholds
-- for 1, 2, 3, 4 conservation points; a card without steps scores its count directly (at most 4)
D.FINALS = {
  { id = "f-large", name = "Large Animal Zoo", count = "large", words = "animals of size 4-5", steps = { 1, 2, 3, 4 } },
  { id = "f-small", name = "Small Animal Zoo", count = "small", words = "animals of size 1-2", steps = { 3, 6, 8, 10 } },
  { id = "f-research", name = "Research Zoo", count = "science", words = "science icons", steps = { 3, 4, 5, 7 } },
  -- 1 CP each: every water space connected, every rock space connected, every border space
  -- (without rock or water) covered, the whole map (without rock or water) covered
  { id = "f-architect", name = "Architectural Zoo", count = "architecture", words = "1 CP each: all water spaces connected, all rock spaces connected, all border spaces covered, the whole map covered" },
  { id = "f-conservation", name = "Conservation Zoo", count = "projects", words = "conservation projects supported", steps = { 2, 3, 4, 5 } },
  { id = "f-naturalist", name = "Naturalists' Zoo", count = "empty", words = "empty building spaces", steps = { 6, 12, 18, 24 } },
  { id = "f-favourite", name = "Favourite Zoo", count = "reputation", words = "reputation", steps = { 6, 9, 12, 15 } },
  { id = "f-sponsored", name = "Sponsored Zoo", count = "sponsors", words = "sponsor cards played", steps = { 3, 5, 7, 9 } },
  -- 1 CP for each animal class of which the zoo has more icons than the player to its right (the
  -- seat before it in turn order), at most 4
  { id = "f-diverse", name = "Diverse Species Zoo", count = "classes_vs_right", words = "1 CP for each animal class with more icons than the player to your right, at most 4" },
  { id = "f-climbing", name = "Climbing Park", count = "rock_icons", words = "rock icons", steps = { 1, 3, 5, 6 } },
  { id = "f-aquatic", name = "Aquatic Park", count = "water_icons", words = "water icons", steps = { 2, 4, 6, 7 } },
}
-- Sponsor buildings (the 15 unique buildings of sponsors 243-257), in our own format: shape as
-- axial offsets like D.BUILDINGS (turned in sixths, never mirrored), the rock / water spaces the
-- building must touch (these are also the card's rock / water icons, upper left, which count as
-- icons in the zoo: rulebook p. 16), how many of its hexes must lie on the map's border, and
-- whether it may stand apart from the other buildings. Shapes cross-checked between two open
-- implementations (RULES.md: they agree on all 15 up to a turn); the needs from three card lists.
-- Sponsor 251's water need is not an icon (both lists with icons give it none).
D.SPONSOR_BUILDINGS = {
  [243] = { name = "Meerkat Den", shape = { { 0, 0 }, { 0, 1 }, { 1, -1 } }, rock = 1 },
  [244] = { name = "Penguin Pool", shape = { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, 1 } }, water = 1 },
  [245] = { name = "Aquarium", shape = { { 0, 0 }, { 0, 1 }, { 1, -1 }, { 1, 1 } }, water = 2 },
  [246] = { name = "Cable Car", shape = { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 } }, rock = 2 },
  [247] = { name = "Baboon Rock", shape = { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, 0 } }, rock = 1 },
  [248] = { name = "Rhesus Monkey Park", shape = { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, 2 } } },
  [249] = { name = "Barred Owl Hut", shape = { { 0, 0 }, { 0, 1 }, { 0, 2 } } },
  [250] = { name = "Sea Turtle Tank", shape = { { 0, 0 }, { 1, -2 }, { 1, -1 }, { 2, -1 } }, water = 1 },
  [251] = { name = "Polar Bear Exhibit", shape = { { 0, 0 }, { 0, 1 }, { 1, -2 }, { 1, -1 } }, water = 1, no_icon = true },
  [252] = { name = "Spotted Hyena Compound", shape = { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, -1 } }, rock = 1 },
  [253] = { name = "Okapi Stable", shape = { { 0, 0 }, { 0, 1 }, { 1, 1 }, { 1, 2 } } },
  [254] = { name = "Zoo School", shape = { { 0, 0 }, { 0, 1 }, { 1, -1 } }, border = 2 },
  [255] = { name = "Adventure Playground", shape = { { 0, 0 }, { 0, 1 } }, rock = 1 },
  [256] = { name = "Water Playground", shape = { { 0, 0 }, { 0, 1 } }, water = 1 },
  [257] = { name = "Side Entrance", shape = { { 0, 0 }, { 0, 1 } }, border = 2, apart = true },
}
return D
