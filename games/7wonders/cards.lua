-- games.7wonders.cards — the cards and wonder boards of 7 Wonders (Antoine Bauza, Repos
-- Production 2010, first edition, 3–7 players), written as data in our own format.
--
-- Resources are letters: W wood, S stone, C clay, O ore (raw materials), G glass,
-- L loom (textiles), P papyrus (manufactured goods). A cost is a string of letters (one per
-- unit) plus `coins`. A card is
--   { name, age, colour, cost = "letters", coins = k, players = { counts }, from = { names }, effect... }
-- `players` lists, for every copy of the card, the smallest player count that uses it
-- ({ 3, 5 }: one copy from 3 players, a second from 5); guilds have none (n + 2 of the ten
-- are drawn for age III). `from` names the buildings that chain into this one (it is then
-- built for free). Effects:
--   produce = "WW"       fixed production        choice = "WS"   one of these each turn
--   points = k           victory points          shields = k     military strength
--   science = "compass" | "gear" | "tablet"      gold = k        coins when built
--   trade = "raw_left" | "raw_right" | "manufactured"            (price 1 instead of 2)
--   count = { of = colours | "stages" | "defeats", where = "self" | "neighbours" | "all",
--             coins = k, points = k }   coins when built and/or points at the end, per thing
--                                       counted (all = the city and both neighbours)
--   wild = true          one science symbol of the owner's choice at the end
local M = {}

M.cards = {
  -- Age I
  { name = "Lumber Yard", age = 1, colour = "brown", cost = "", players = { 3, 4 }, produce = "W" },
  { name = "Stone Pit", age = 1, colour = "brown", cost = "", players = { 3, 5 }, produce = "S" },
  { name = "Clay Pool", age = 1, colour = "brown", cost = "", players = { 3, 5 }, produce = "C" },
  { name = "Ore Vein", age = 1, colour = "brown", cost = "", players = { 3, 4 }, produce = "O" },
  { name = "Tree Farm", age = 1, colour = "brown", cost = "", coins = 1, players = { 6 }, choice = "WC" },
  { name = "Excavation", age = 1, colour = "brown", cost = "", coins = 1, players = { 4 }, choice = "SC" },
  { name = "Clay Pit", age = 1, colour = "brown", cost = "", coins = 1, players = { 3 }, choice = "CO" },
  { name = "Timber Yard", age = 1, colour = "brown", cost = "", coins = 1, players = { 3 }, choice = "SW" },
  { name = "Forest Cave", age = 1, colour = "brown", cost = "", coins = 1, players = { 5 }, choice = "WO" },
  { name = "Mine", age = 1, colour = "brown", cost = "", coins = 1, players = { 6 }, choice = "SO" },
  { name = "Loom", age = 1, colour = "grey", cost = "", players = { 3, 6 }, produce = "L" },
  { name = "Glassworks", age = 1, colour = "grey", cost = "", players = { 3, 6 }, produce = "G" },
  { name = "Press", age = 1, colour = "grey", cost = "", players = { 3, 6 }, produce = "P" },
  { name = "Pawnshop", age = 1, colour = "blue", cost = "", players = { 4, 7 }, points = 3 },
  { name = "Baths", age = 1, colour = "blue", cost = "S", players = { 3, 7 }, points = 3 },
  { name = "Altar", age = 1, colour = "blue", cost = "", players = { 3, 5 }, points = 2 },
  { name = "Theater", age = 1, colour = "blue", cost = "", players = { 3, 6 }, points = 2 },
  { name = "Tavern", age = 1, colour = "yellow", cost = "", players = { 4, 5, 7 }, gold = 5 },
  { name = "East Trading Post", age = 1, colour = "yellow", cost = "", players = { 3, 7 }, trade = "raw_right" },
  { name = "West Trading Post", age = 1, colour = "yellow", cost = "", players = { 3, 7 }, trade = "raw_left" },
  { name = "Marketplace", age = 1, colour = "yellow", cost = "", players = { 3, 6 }, trade = "manufactured" },
  { name = "Stockade", age = 1, colour = "red", cost = "W", players = { 3, 7 }, shields = 1 },
  { name = "Barracks", age = 1, colour = "red", cost = "O", players = { 3, 5 }, shields = 1 },
  { name = "Guard Tower", age = 1, colour = "red", cost = "C", players = { 3, 4 }, shields = 1 },
  { name = "Apothecary", age = 1, colour = "green", cost = "L", players = { 3, 5 }, science = "compass" },
  { name = "Workshop", age = 1, colour = "green", cost = "G", players = { 3, 7 }, science = "gear" },
  { name = "Scriptorium", age = 1, colour = "green", cost = "P", players = { 3, 4 }, science = "tablet" },
  -- Age II
  { name = "Sawmill", age = 2, colour = "brown", cost = "", coins = 1, players = { 3, 4 }, produce = "WW" },
  { name = "Quarry", age = 2, colour = "brown", cost = "", coins = 1, players = { 3, 4 }, produce = "SS" },
  { name = "Brickyard", age = 2, colour = "brown", cost = "", coins = 1, players = { 3, 4 }, produce = "CC" },
  { name = "Foundry", age = 2, colour = "brown", cost = "", coins = 1, players = { 3, 4 }, produce = "OO" },
  { name = "Loom", age = 2, colour = "grey", cost = "", players = { 3, 5 }, produce = "L" },
  { name = "Glassworks", age = 2, colour = "grey", cost = "", players = { 3, 5 }, produce = "G" },
  { name = "Press", age = 2, colour = "grey", cost = "", players = { 3, 5 }, produce = "P" },
  { name = "Aqueduct", age = 2, colour = "blue", cost = "SSS", players = { 3, 7 }, points = 5, from = { "Baths" } },
  { name = "Temple", age = 2, colour = "blue", cost = "WCG", players = { 3, 6 }, points = 3, from = { "Altar" } },
  { name = "Statue", age = 2, colour = "blue", cost = "OOW", players = { 3, 7 }, points = 4, from = { "Theater" } },
  { name = "Courthouse", age = 2, colour = "blue", cost = "CCL", players = { 3, 5 }, points = 4, from = { "Scriptorium" } },
  { name = "Forum", age = 2, colour = "yellow", cost = "CC", players = { 3, 6, 7 }, choice = "GLP",
    from = { "East Trading Post", "West Trading Post" } },
  { name = "Caravansery", age = 2, colour = "yellow", cost = "WW", players = { 3, 5, 6 }, choice = "WSCO", from = { "Marketplace" } },
  { name = "Vineyard", age = 2, colour = "yellow", cost = "", players = { 3, 6 }, count = { of = { "brown" }, where = "all", coins = 1 } },
  { name = "Bazar", age = 2, colour = "yellow", cost = "", players = { 4, 7 }, count = { of = { "grey" }, where = "all", coins = 2 } },
  { name = "Walls", age = 2, colour = "red", cost = "SSS", players = { 3, 7 }, shields = 2 },
  { name = "Training Ground", age = 2, colour = "red", cost = "OOW", players = { 4, 6, 7 }, shields = 2 },
  { name = "Stables", age = 2, colour = "red", cost = "COW", players = { 3, 5 }, shields = 2, from = { "Apothecary" } },
  { name = "Archery Range", age = 2, colour = "red", cost = "WWO", players = { 3, 6 }, shields = 2, from = { "Workshop" } },
  { name = "Dispensary", age = 2, colour = "green", cost = "OOG", players = { 3, 4 }, science = "compass", from = { "Apothecary" } },
  { name = "Laboratory", age = 2, colour = "green", cost = "CCP", players = { 3, 5 }, science = "gear", from = { "Workshop" } },
  { name = "Library", age = 2, colour = "green", cost = "SSL", players = { 3, 6 }, science = "tablet", from = { "Scriptorium" } },
  { name = "School", age = 2, colour = "green", cost = "WP", players = { 3, 7 }, science = "tablet" },
  -- Age III
  { name = "Pantheon", age = 3, colour = "blue", cost = "CCOGPL", players = { 3, 6 }, points = 7, from = { "Temple" } },
  { name = "Gardens", age = 3, colour = "blue", cost = "CCW", players = { 3, 4 }, points = 5, from = { "Statue" } },
  { name = "Town Hall", age = 3, colour = "blue", cost = "SSOG", players = { 3, 5, 6 }, points = 6 },
  { name = "Palace", age = 3, colour = "blue", cost = "WSCOGLP", players = { 3, 7 }, points = 8 },
  { name = "Senate", age = 3, colour = "blue", cost = "WWSO", players = { 3, 5 }, points = 6, from = { "Library" } },
  { name = "Haven", age = 3, colour = "yellow", cost = "WOL", players = { 3, 4 }, from = { "Forum" },
    count = { of = { "brown" }, where = "self", coins = 1, points = 1 } },
  { name = "Lighthouse", age = 3, colour = "yellow", cost = "SG", players = { 3, 6 }, from = { "Caravansery" },
    count = { of = { "yellow" }, where = "self", coins = 1, points = 1 } },
  { name = "Chamber of Commerce", age = 3, colour = "yellow", cost = "CCP", players = { 4, 6 },
    count = { of = { "grey" }, where = "self", coins = 2, points = 2 } },
  { name = "Arena", age = 3, colour = "yellow", cost = "SSO", players = { 3, 5, 7 }, from = { "Dispensary" },
    count = { of = "stages", where = "self", coins = 3, points = 1 } },
  { name = "Fortifications", age = 3, colour = "red", cost = "OOOS", players = { 3, 7 }, shields = 3, from = { "Walls" } },
  { name = "Circus", age = 3, colour = "red", cost = "SSSO", players = { 4, 5, 6 }, shields = 3, from = { "Training Ground" } },
  { name = "Arsenal", age = 3, colour = "red", cost = "WWOL", players = { 3, 4, 7 }, shields = 3 },
  { name = "Siege Workshop", age = 3, colour = "red", cost = "CCCW", players = { 3, 5 }, shields = 3, from = { "Laboratory" } },
  { name = "Lodge", age = 3, colour = "green", cost = "CCLP", players = { 3, 6 }, science = "compass", from = { "Dispensary" } },
  { name = "Observatory", age = 3, colour = "green", cost = "OOGL", players = { 3, 7 }, science = "gear", from = { "Laboratory" } },
  { name = "University", age = 3, colour = "green", cost = "WWGP", players = { 3, 4 }, science = "tablet", from = { "Library" } },
  { name = "Academy", age = 3, colour = "green", cost = "SSSG", players = { 3, 7 }, science = "compass", from = { "School" } },
  { name = "Study", age = 3, colour = "green", cost = "WLP", players = { 3, 5 }, science = "gear", from = { "School" } },
  -- Guilds (age III; n + 2 of them drawn at random)
  { name = "Workers Guild", age = 3, colour = "purple", cost = "OOCSW", count = { of = { "brown" }, where = "neighbours", points = 1 } },
  { name = "Craftsmens Guild", age = 3, colour = "purple", cost = "OOSS", count = { of = { "grey" }, where = "neighbours", points = 2 } },
  { name = "Traders Guild", age = 3, colour = "purple", cost = "LPG", count = { of = { "yellow" }, where = "neighbours", points = 1 } },
  { name = "Philosophers Guild", age = 3, colour = "purple", cost = "CCCLP", count = { of = { "green" }, where = "neighbours", points = 1 } },
  { name = "Spies Guild", age = 3, colour = "purple", cost = "CCCG", count = { of = { "red" }, where = "neighbours", points = 1 } },
  { name = "Strategists Guild", age = 3, colour = "purple", cost = "OOSL", count = { of = "defeats", where = "neighbours", points = 1 } },
  { name = "Shipowners Guild", age = 3, colour = "purple", cost = "WWWGP", count = { of = { "brown", "grey", "purple" }, where = "self", points = 1 } },
  { name = "Scientists Guild", age = 3, colour = "purple", cost = "WWOOP", wild = true },
  { name = "Magistrates Guild", age = 3, colour = "purple", cost = "WWWSL", count = { of = { "blue" }, where = "neighbours", points = 1 } },
  { name = "Builders Guild", age = 3, colour = "purple", cost = "SSCCG", count = { of = "stages", where = "all", points = 1 } },
}

-- The seven wonder boards, side A (the arena's default): the resource the board produces and its three stages
-- (cost, effect). Stage effects use the card effects above plus
--   free_build = true       once per age, build a card from the hand for free
--   discard_build = true    at the end of that turn, build a card from the discard pile for free
-- A stage's choice resource (Alexandria) cannot be bought by the neighbours.
M.wonders = {
  { name = "The Colossus of Rhodes", produce = "O",
    stages = { { cost = "WW", points = 3 }, { cost = "CCC", shields = 2 }, { cost = "OOOO", points = 7 } } },
  { name = "The Lighthouse of Alexandria", produce = "G",
    stages = { { cost = "SS", points = 3 }, { cost = "OO", choice = "WSCO" }, { cost = "GG", points = 7 } } },
  { name = "The Temple of Artemis in Ephesus", produce = "P",
    stages = { { cost = "SS", points = 3 }, { cost = "WW", gold = 9 }, { cost = "PP", points = 7 } } },
  { name = "The Hanging Gardens of Babylon", produce = "C",
    stages = { { cost = "CC", points = 3 }, { cost = "WWW", wild = true }, { cost = "CCCC", points = 7 } } },
  { name = "The Statue of Zeus in Olympia", produce = "W",
    stages = { { cost = "WW", points = 3 }, { cost = "SS", free_build = true }, { cost = "OO", points = 7 } } },
  { name = "The Mausoleum of Halicarnassus", produce = "L",
    stages = { { cost = "CC", points = 3 }, { cost = "OOO", discard_build = true }, { cost = "LL", points = 7 } } },
  { name = "The Pyramids of Giza", produce = "S",
    stages = { { cost = "SS", points = 3 }, { cost = "WWW", points = 5 }, { cost = "SSSS", points = 7 } } },
}

-- Side B of the same seven boards (same order, same resource). More stage effects:
--   raw_both = true       raw materials from both neighbours cost 1
--   seventh = true        the seventh card of each age is played instead of discarded
--   copy_guild = true     at the end, copy the best guild of a neighbour
M.wonders_b = {
  { name = "The Colossus of Rhodes", produce = "O",
    stages = { { cost = "SSS", shields = 1, points = 3, gold = 3 }, { cost = "OOOO", shields = 1, points = 4, gold = 4 } } },
  { name = "The Lighthouse of Alexandria", produce = "G",
    stages = { { cost = "CC", choice = "WSCO" }, { cost = "WW", choice = "GLP" }, { cost = "SSS", points = 7 } } },
  { name = "The Temple of Artemis in Ephesus", produce = "P",
    stages = { { cost = "SS", points = 2, gold = 4 }, { cost = "WW", points = 3, gold = 4 }, { cost = "PLG", points = 5, gold = 4 } } },
  { name = "The Hanging Gardens of Babylon", produce = "C",
    stages = { { cost = "LC", points = 3 }, { cost = "WWG", seventh = true }, { cost = "CCCP", wild = true } } },
  { name = "The Statue of Zeus in Olympia", produce = "W",
    stages = { { cost = "WW", raw_both = true }, { cost = "SS", points = 5 }, { cost = "OOL", copy_guild = true } } },
  { name = "The Mausoleum of Halicarnassus", produce = "L",
    stages = { { cost = "OO", points = 2, discard_build = true }, { cost = "CCC", points = 1, discard_build = true },
               { cost = "GPL", discard_build = true } } },
  { name = "The Pyramids of Giza", produce = "S",
    stages = { { cost = "WW", points = 3 }, { cost = "SSS", points = 5 }, { cost = "CCC", points = 5 }, { cost = "SSSSP", points = 7 } } },
}

return M
