-- games.wingspan.data — the components of Wingspan (base game, Stonemaier Games 2019) as our
-- own data: the 170 birds (games/wingspan/birds.lua, one row each), the 26 bonus cards, the
-- 8 double-sided end-of-round goal tiles and the goal board's two sides, the player mat's
-- three habitat rows, the five feeder dice, food types and starting holdings. The manifest
-- test in tests/test_wingspan.lua pins the published counts and sums.
local D = {}

-- food: key, letter used in birds.lua and in action ids
D.FOODS = { "invertebrate", "seed", "fish", "fruit", "rodent" }
D.FOOD_LETTER = { i = "invertebrate", s = "seed", f = "fish", b = "fruit", r = "rodent" }
D.LETTER_OF = { invertebrate = "i", seed = "s", fish = "f", fruit = "b", rodent = "r" }

-- the six faces of every feeder die; "invertebrate/seed" is taken as either one
D.DIE_FACES = { "invertebrate", "seed", "fish", "fruit", "rodent", "invertebrate/seed" }
D.DICE = 5

D.HABITATS = { "forest", "grassland", "wetland" }
D.HAB_LETTER = { F = "forest", G = "grassland", W = "wetland" }
D.HAB_ACTION = { forest = "food", grassland = "eggs", wetland = "cards" }
-- the mat: what the action gives with 0..5 birds in its row (the leftmost uncovered space)
-- and whether that space also offers the one-time trade (forest: a card for one more food;
-- grassland: a food for one more egg; wetland: an egg for one more card)
D.ROW_GAIN = { forest = { 1, 1, 2, 2, 3, 3 }, grassland = { 2, 2, 3, 3, 4, 4 }, wetland = { 1, 1, 2, 2, 3, 3 } }
D.ROW_TRADE = { false, true, false, true, false, true }
D.COLUMNS = 5
D.EGG_COST = { 0, 1, 1, 2, 2 }          -- eggs to play a bird into column 1..5
D.CUBES = { 8, 7, 6, 5 }                 -- action cubes per player in rounds 1..4
D.ROUNDS = 4
D.TRAY = 3
D.START_BIRDS, D.START_BONUS = 5, 2

D.NESTS = { B = "bowl", C = "cavity", G = "ground", P = "platform", S = "star", N = "none" }

-- birds ---------------------------------------------------------------------------------------
local function slug(name)
  return (name:lower():gsub("'", ""):gsub("[^a-z]+", "_"):gsub("^_", ""):gsub("_$", ""))
end
D.slug = slug

D.BIRDS = {}
for i, row in ipairs(require "games.wingspan.birds") do
  local name, hab, cost, pts, nest, eggs, wing, power, words = row:match("^([^|]+)|(%u+)|([%l%*/]*)|(%d+)|(%u)|(%d+)|(%d+)|([^|]+)|(%u*)$")
  if not name then error("games/wingspan/birds.lua: row " .. i .. " is malformed: " .. row) end
  local b = { id = slug(name), name = name, habitats = {}, cost = {}, any = cost:sub(-1) == "/", points = tonumber(pts),
              nest = D.NESTS[nest], eggs = tonumber(eggs), wingspan = tonumber(wing), words = words }
  for h in hab:gmatch("%u") do b.habitats[#b.habitats + 1] = D.HAB_LETTER[h] end
  for c in cost:gmatch("[%l%*]") do b.cost[#b.cost + 1] = c == "*" and "wild" or D.FOOD_LETTER[c] end
  local colour, family, p1, p2 = power:match("^([bwp%-]):?([%w_]*):?([%w]*):?([%w]*)$")
  b.colour = ({ b = "brown", w = "white", p = "pink", ["-"] = "none" })[colour]
  b.family = family ~= "" and family or nil
  b.p1 = p1 ~= "" and p1 or nil
  b.p2 = p2 ~= "" and p2 or nil
  D.BIRDS[i] = b
end

-- families that count as "predator" (Falconer, the vultures' trigger) and "flocking" (Bird
-- Counter: every power that tucks cards)
D.PREDATOR = { hunt = true, roll = true }
D.FLOCKING = { tuck_draw = true, tuck_gain = true, tuck_lay = true, food_tuck = true, play_tuck = true }

-- bonus cards: kind and scoring. `tiers` = { {from, points}, ... } (the highest tier reached
-- scores), `per` = points per qualifying bird
D.BONUS = {
  { id = "anatomist", name = "Anatomist", what = "birds with a body part in their name", test = "word:A", tiers = { { 2, 3 }, { 4, 7 } } },
  { id = "backyard_birder", name = "Backyard Birder", what = "birds worth less than 4 points", test = "points_lt:4", tiers = { { 5, 3 }, { 7, 6 } } },
  { id = "bird_counter", name = "Bird Counter", what = "birds with a flocking (tucking) power", test = "flocking", per = 2 },
  { id = "bird_feeder", name = "Bird Feeder", what = "birds that eat seed", test = "eats:seed", tiers = { { 5, 3 }, { 8, 7 } } },
  { id = "breeding_manager", name = "Breeding Manager", what = "birds with at least 4 eggs on them", test = "eggs_ge:4", per = 1 },
  { id = "cartographer", name = "Cartographer", what = "birds with a geographic term in their name", test = "word:C", tiers = { { 2, 3 }, { 4, 7 } } },
  { id = "ecologist", name = "Ecologist", what = "birds in your habitat with the fewest birds", test = "ecologist", per = 2 },
  { id = "enclosure_builder", name = "Enclosure Builder", what = "birds with a ground (or star) nest", test = "nest:ground", tiers = { { 4, 4 }, { 6, 7 } } },
  { id = "falconer", name = "Falconer", what = "birds with a predator power", test = "predator", per = 2 },
  { id = "fishery_manager", name = "Fishery Manager", what = "birds that eat fish", test = "eats:fish", tiers = { { 2, 3 }, { 4, 8 } } },
  { id = "food_web_expert", name = "Food Web Expert", what = "birds that eat only invertebrates", test = "only:invertebrate", per = 2 },
  { id = "forester", name = "Forester", what = "birds that can live only in the forest", test = "only_hab:forest", tiers = { { 3, 4 }, { 5, 8 } } },
  { id = "historian", name = "Historian", what = "birds named after a person", test = "word:H", per = 2 },
  { id = "large_bird_specialist", name = "Large Bird Specialist", what = "birds with a wingspan over 65 cm", test = "wing_gt:65", tiers = { { 4, 3 }, { 6, 6 } } },
  { id = "nest_box_builder", name = "Nest Box Builder", what = "birds with a cavity (or star) nest", test = "nest:cavity", tiers = { { 4, 4 }, { 6, 7 } } },
  { id = "omnivore_specialist", name = "Omnivore Specialist", what = "birds with a wild food in their cost", test = "eats:wild", per = 2 },
  { id = "oologist", name = "Oologist", what = "birds with at least 1 egg on them", test = "eggs_ge:1", tiers = { { 7, 3 }, { 9, 6 } } },
  { id = "passerine_specialist", name = "Passerine Specialist", what = "birds with a wingspan of 30 cm or less", test = "wing_le:30", tiers = { { 4, 3 }, { 6, 6 } } },
  { id = "photographer", name = "Photographer", what = "birds with a colour in their name", test = "word:P", tiers = { { 4, 3 }, { 6, 6 } } },
  { id = "platform_builder", name = "Platform Builder", what = "birds with a platform (or star) nest", test = "nest:platform", tiers = { { 4, 4 }, { 6, 7 } } },
  { id = "prairie_manager", name = "Prairie Manager", what = "birds that can live only in the grassland", test = "only_hab:grassland", tiers = { { 2, 3 }, { 4, 8 } } },
  { id = "rodentologist", name = "Rodentologist", what = "birds that eat rodents", test = "eats:rodent", per = 2 },
  { id = "visionary_leader", name = "Visionary Leader", what = "bird cards in hand at the end of the game", test = "hand", tiers = { { 5, 4 }, { 8, 7 } } },
  { id = "viticulturalist", name = "Viticulturalist", what = "birds that eat fruit", test = "eats:fruit", tiers = { { 2, 3 }, { 4, 7 } } },
  { id = "wetland_scientist", name = "Wetland Scientist", what = "birds that can live only in the wetland", test = "only_hab:wetland", tiers = { { 3, 3 }, { 5, 7 } } },
  { id = "wildlife_gardener", name = "Wildlife Gardener", what = "birds with a bowl (or star) nest", test = "nest:bowl", tiers = { { 4, 4 }, { 6, 7 } } },
}

-- end-of-round goals: 8 tiles, each with two sides; setup draws 4 tiles and a random side of each
D.GOAL_TILES = {
  { "birds:forest", "eggs_hab:forest" },
  { "birds:grassland", "eggs_hab:grassland" },
  { "birds:wetland", "eggs_hab:wetland" },
  { "nest_birds:bowl", "eggs_nest:bowl" },
  { "nest_birds:cavity", "eggs_nest:cavity" },
  { "nest_birds:ground", "eggs_nest:ground" },
  { "nest_birds:platform", "eggs_nest:platform" },
  { "egg_sets", "total_birds" },
}
D.GOAL_WORDS = {
  birds = "birds in the %s", eggs_hab = "eggs in the %s", nest_birds = "birds with a %s nest and at least 1 egg",
  eggs_nest = "eggs on birds with a %s nest", egg_sets = "sets of eggs (one in each habitat)", total_birds = "birds in play",
}
-- D.goal_words(goal) -> a round goal's id ("nest_birds:bowl") in words, for the prompt and the picture
function D.goal_words(goal)
  local kind, arg = goal:match("^([%w_]+):?(.*)$")
  return string.format(D.GOAL_WORDS[kind], arg)
end
-- the goal board: green side (places: 1st/2nd/3rd points by round; ties share the sum of the
-- places they take, rounded down; nothing for 0) and blue side (1 point per item, at most 5)
D.GOAL_GREEN = { { 4, 1, 0 }, { 5, 2, 1 }, { 6, 3, 2 }, { 7, 4, 3 } }
D.GOAL_BLUE_MAX = 5

return D
