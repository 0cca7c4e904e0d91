-- games.brass.data — the components of Brass: Birmingham (Roxley 2018) in our own format:
-- the map (20 towns with their industry spaces, 2 farm breweries, 5 merchant locations and
-- every canal and rail link), the industry tiles each player holds (level, count, cost,
-- resources, beer to sell, points, income, link icons, what it produces, era limits), the
-- deck by player count, the merchant tiles by player count, the coal and iron markets
-- (prices, the price when empty, the cubes at the start) and the income track.
-- Pinned by the data-manifest test in tests/test_brass.lua; RULES.md says which counts were
-- cross-checked and which are unverified.
local M = {}

-- industries: id used in actions, name
M.INDUSTRIES = {
  { id = "cotton", name = "cotton mill" },
  { id = "goods", name = "manufacturer" },
  { id = "pottery", name = "pottery" },
  { id = "coal", name = "coal mine" },
  { id = "iron", name = "iron works" },
  { id = "brewery", name = "brewery" },
}
M.SELLABLE = { cotton = true, goods = true, pottery = true }

-- towns: id, name, industry spaces (each the industries it allows), colour band of its
-- location card; farm breweries: one brewery space, no location card
M.TOWNS = {
  { id = "leek", name = "Leek", slots = { { "cotton", "goods" }, { "cotton", "coal" } } },
  { id = "stoke", name = "Stoke-on-Trent", slots = { { "cotton", "goods" }, { "pottery", "iron" }, { "goods" } } },
  { id = "stone", name = "Stone", slots = { { "cotton", "brewery" }, { "goods", "coal" } } },
  { id = "uttoxeter", name = "Uttoxeter", slots = { { "goods", "brewery" }, { "cotton", "brewery" } } },
  { id = "belper", name = "Belper", slots = { { "cotton", "goods" }, { "coal" }, { "pottery" } } },
  { id = "derby", name = "Derby", slots = { { "cotton", "brewery" }, { "cotton", "goods" }, { "iron" } } },
  { id = "stafford", name = "Stafford", slots = { { "goods", "brewery" }, { "pottery" } } },
  { id = "burton", name = "Burton-on-Trent", slots = { { "goods", "coal" }, { "brewery" } } },
  { id = "cannock", name = "Cannock", slots = { { "goods", "coal" }, { "coal" } } },
  { id = "tamworth", name = "Tamworth", slots = { { "cotton", "coal" }, { "cotton", "coal" } } },
  { id = "walsall", name = "Walsall", slots = { { "iron", "goods" }, { "goods", "brewery" } } },
  { id = "wolverhampton", name = "Wolverhampton", slots = { { "goods" }, { "goods", "coal" } } },
  { id = "coalbrookdale", name = "Coalbrookdale", slots = { { "iron", "brewery" }, { "iron" }, { "coal" } } },
  { id = "dudley", name = "Dudley", slots = { { "coal" }, { "iron" } } },
  { id = "kidderminster", name = "Kidderminster", slots = { { "cotton", "coal" }, { "cotton" } } },
  { id = "worcester", name = "Worcester", slots = { { "cotton" }, { "cotton" } } },
  { id = "birmingham", name = "Birmingham", slots = { { "cotton", "goods" }, { "goods" }, { "iron" }, { "goods" } } },
  { id = "nuneaton", name = "Nuneaton", slots = { { "goods", "brewery" }, { "cotton", "coal" } } },
  { id = "coventry", name = "Coventry", slots = { { "pottery" }, { "goods", "coal" }, { "iron", "goods" } } },
  { id = "redditch", name = "Redditch", slots = { { "goods", "coal" }, { "iron" } } },
  { id = "farm_north", name = "farm brewery (by Cannock)", slots = { { "brewery" } }, farm = true },
  { id = "farm_south", name = "farm brewery (by Kidderminster)", slots = { { "brewery" } }, farm = true },
}

-- merchant locations: id, name, merchant tile spaces, fewest players that use it, the
-- bonus for selling there with its beer, link icons it shows (for link scoring)
M.MERCHANTS = {
  { id = "warrington", name = "Warrington", spaces = 2, min_players = 3, bonus = { kind = "money", value = 5 }, icons = 2 },
  { id = "nottingham", name = "Nottingham", spaces = 2, min_players = 4, bonus = { kind = "vp", value = 3 }, icons = 2 },
  { id = "shrewsbury", name = "Shrewsbury", spaces = 1, min_players = 2, bonus = { kind = "vp", value = 4 }, icons = 2 },
  { id = "oxford", name = "Oxford", spaces = 2, min_players = 2, bonus = { kind = "income", value = 2 }, icons = 2 },
  { id = "gloucester", name = "Gloucester", spaces = 2, min_players = 2, bonus = { kind = "develop", value = 1 }, icons = 2 },
}

-- links: the locations it joins (the Kidderminster-Worcester link also touches the southern
-- farm brewery), whether a canal and whether a rail may be built on it
local function L(a, b, canal, rail, c) return { a = a, b = b, c = c, canal = canal, rail = rail } end
M.LINKS = {
  L("warrington", "stoke", true, true),
  L("stoke", "leek", true, true),
  L("stoke", "stone", true, true),
  L("leek", "belper", false, true),
  L("belper", "derby", true, true),
  L("derby", "nottingham", true, true),
  L("derby", "uttoxeter", false, true),
  L("derby", "burton", true, true),
  L("stone", "uttoxeter", false, true),
  L("stone", "stafford", true, true),
  L("stone", "burton", true, true),
  L("stafford", "cannock", true, true),
  L("cannock", "farm_north", true, true),
  L("cannock", "burton", false, true),
  L("cannock", "walsall", true, true),
  L("cannock", "wolverhampton", true, true),
  L("burton", "tamworth", true, true),
  L("burton", "walsall", true, false),
  L("tamworth", "walsall", false, true),
  L("tamworth", "birmingham", true, true),
  L("tamworth", "nuneaton", true, true),
  L("nuneaton", "birmingham", false, true),
  L("nuneaton", "coventry", false, true),
  L("coventry", "birmingham", true, true),
  L("walsall", "wolverhampton", true, true),
  L("walsall", "birmingham", true, true),
  L("wolverhampton", "coalbrookdale", true, true),
  L("wolverhampton", "dudley", true, true),
  L("coalbrookdale", "shrewsbury", true, true),
  L("coalbrookdale", "kidderminster", true, true),
  L("dudley", "kidderminster", true, true),
  L("dudley", "birmingham", true, true),
  L("kidderminster", "worcester", true, true, "farm_south"),
  L("worcester", "gloucester", true, true),
  L("worcester", "birmingham", true, true),
  L("gloucester", "redditch", true, true),
  L("redditch", "oxford", true, true),
  L("redditch", "birmingham", false, true),
  L("birmingham", "oxford", true, true),
}

-- industry tiles per player: industry, level, how many, cost (money, coal, iron), beer
-- needed to sell it (sellable industries), points and income spaces when flipped, link icons
-- when flipped, resources it is built with (coal/iron cubes; a brewery's barrels per era),
-- era ("canal" only, "rail" only or nil for both), develop = false (the light bulb: cannot be
-- developed away)
local function T(ind, level, count, money, coal, iron, beer, vp, income, links, produce, era, develop)
  return { industry = ind, level = level, count = count, money = money, coal = coal, iron = iron, beer = beer,
           vp = vp, income = income, links = links, produce = produce, era = era, develop = develop }
end
M.TILES = {
  T("cotton", 1, 3, 12, 0, 0, 1, 5, 5, 1, 0, "canal"),
  T("cotton", 2, 2, 14, 1, 0, 1, 5, 4, 2, 0),
  T("cotton", 3, 3, 16, 1, 1, 1, 9, 3, 1, 0),
  T("cotton", 4, 3, 18, 1, 1, 1, 12, 2, 1, 0),
  T("goods", 1, 1, 8, 1, 0, 1, 3, 5, 2, 0, "canal"),
  T("goods", 2, 2, 10, 0, 1, 1, 5, 1, 1, 0),
  T("goods", 3, 1, 12, 2, 0, 0, 4, 4, 0, 0),
  T("goods", 4, 1, 8, 0, 1, 1, 3, 6, 1, 0),
  T("goods", 5, 2, 16, 1, 0, 2, 8, 2, 2, 0),
  T("goods", 6, 1, 20, 0, 0, 1, 7, 6, 1, 0),
  T("goods", 7, 1, 16, 1, 1, 0, 9, 4, 0, 0),
  T("goods", 8, 2, 20, 0, 2, 1, 11, 1, 1, 0),
  T("pottery", 1, 1, 17, 0, 1, 1, 10, 5, 1, 0, nil, false),
  T("pottery", 2, 1, 0, 1, 0, 1, 1, 1, 1, 0),
  T("pottery", 3, 1, 22, 2, 0, 2, 11, 5, 1, 0, nil, false),
  T("pottery", 4, 1, 0, 1, 0, 1, 1, 1, 1, 0),
  T("pottery", 5, 1, 24, 2, 0, 2, 20, 5, 1, 0, "rail"),
  T("coal", 1, 1, 5, 0, 0, 0, 1, 4, 2, 2, "canal"),
  T("coal", 2, 2, 7, 0, 0, 0, 2, 7, 1, 3),
  T("coal", 3, 2, 8, 0, 1, 0, 3, 6, 1, 4),
  T("coal", 4, 2, 10, 0, 1, 0, 4, 5, 1, 5),
  T("iron", 1, 1, 5, 1, 0, 0, 3, 3, 1, 4, "canal"),
  T("iron", 2, 1, 7, 1, 0, 0, 5, 3, 1, 4),
  T("iron", 3, 1, 9, 1, 0, 0, 7, 2, 1, 5),
  T("iron", 4, 1, 12, 1, 0, 0, 9, 1, 1, 6),
  T("brewery", 1, 2, 5, 0, 1, 0, 4, 4, 2, 1, "canal"),
  T("brewery", 2, 2, 7, 0, 1, 0, 5, 5, 2, 1),
  T("brewery", 3, 2, 9, 0, 1, 0, 7, 5, 2, 1),
  T("brewery", 4, 1, 9, 0, 1, 0, 10, 5, 2, 1, "rail"),
}
M.BREWERY_BARRELS = { canal = 1, rail = 2 }   -- barrels a brewery is built with, by era

-- the deck: location cards by town and industry cards, copies at 2, 3, 4 players
M.DECK = {
  { card = "belper", copies = { 0, 0, 2 } },
  { card = "derby", copies = { 0, 0, 3 } },
  { card = "leek", copies = { 0, 2, 2 } },
  { card = "stoke", copies = { 0, 3, 3 } },
  { card = "stone", copies = { 0, 2, 2 } },
  { card = "uttoxeter", copies = { 0, 1, 2 } },
  { card = "stafford", copies = { 2, 2, 2 } },
  { card = "burton", copies = { 2, 2, 2 } },
  { card = "cannock", copies = { 2, 2, 2 } },
  { card = "tamworth", copies = { 1, 1, 1 } },
  { card = "walsall", copies = { 1, 1, 1 } },
  { card = "coalbrookdale", copies = { 3, 3, 3 } },
  { card = "dudley", copies = { 2, 2, 2 } },
  { card = "kidderminster", copies = { 2, 2, 2 } },
  { card = "wolverhampton", copies = { 2, 2, 2 } },
  { card = "worcester", copies = { 2, 2, 2 } },
  { card = "birmingham", copies = { 3, 3, 3 } },
  { card = "coventry", copies = { 3, 3, 3 } },
  { card = "nuneaton", copies = { 1, 1, 1 } },
  { card = "redditch", copies = { 1, 1, 1 } },
  { card = "ind-iron", copies = { 4, 4, 4 } },
  { card = "ind-coal", copies = { 2, 2, 3 } },
  { card = "ind-cotton-goods", copies = { 0, 6, 8 } },
  { card = "ind-pottery", copies = { 2, 2, 3 } },
  { card = "ind-brewery", copies = { 5, 5, 5 } },
}
M.DECK_SIZE = { 40, 54, 64 }                   -- by 2, 3, 4 players
-- what an industry card builds
M.INDUSTRY_CARD = { ["ind-iron"] = { "iron" }, ["ind-coal"] = { "coal" }, ["ind-cotton-goods"] = { "cotton", "goods" },
                    ["ind-pottery"] = { "pottery" }, ["ind-brewery"] = { "brewery" } }
M.WILD = { "wild-loc", "wild-ind" }            -- four of each, kept apart from the deck
M.WILD_COPIES = 4
M.HAND = 8

-- merchant tiles: what they buy (all three for the wild one, nothing for a blank), the
-- fewest players that use them
M.MERCHANT_TILES = {
  { id = "blank", buys = {}, min_players = 2 },
  { id = "blank", buys = {}, min_players = 2 },
  { id = "cotton", buys = { "cotton" }, min_players = 2 },
  { id = "goods", buys = { "goods" }, min_players = 2 },
  { id = "any", buys = { "cotton", "goods", "pottery" }, min_players = 2 },
  { id = "blank", buys = {}, min_players = 3 },
  { id = "pottery", buys = { "pottery" }, min_players = 3 },
  { id = "cotton", buys = { "cotton" }, min_players = 4 },
  { id = "goods", buys = { "goods" }, min_players = 4 },
}

-- the markets: the price of each space, cheapest first (two spaces a price), the price when
-- empty, the cubes at the start (the cheapest spaces start empty)
M.COAL_MARKET = { prices = { 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7 }, empty = 8, start = 13 }
M.IRON_MARKET = { prices = { 1, 1, 2, 2, 3, 3, 4, 4, 5, 5 }, empty = 6, start = 8 }

M.START_MONEY = 17
M.START_PROGRESS = 10          -- progress space of income level 0
M.MAX_PROGRESS = 100
M.LOAN = 30                    -- money a loan gives
M.LOAN_LEVELS = 3              -- income levels it costs
M.MIN_LEVEL = -10
M.CANAL_COST = 3
M.RAIL_COST, M.DOUBLE_RAIL_COST = 5, 15

-- income track: progress spaces 0..10 are levels -10..0, then two spaces a level to 10,
-- three a level to 20, four a level to 30
function M.level(p)
  if p <= 10 then return p - 10 end
  if p <= 30 then return 1 + (p - 11) // 2 end
  if p <= 60 then return 11 + (p - 31) // 3 end
  return math.min(30, 21 + (p - 61) // 4)
end
-- top(level) -> the highest progress space of that income level
function M.top(l)
  if l <= 0 then return l + 10 end
  if l <= 10 then return 10 + 2 * l end
  if l <= 20 then return 30 + 3 * (l - 10) end
  return 60 + 4 * (l - 20)
end

return M
