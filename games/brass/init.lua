-- games.brass — Brass: Birmingham (Gavan Brown, Matt Tolman, Martin Wallace; Roxley 2018; 2-4
-- players) against the game interface of games/README.md. A turn (two actions; one each in the
-- first round) is split into sub-decisions: the action, the card it discards, its target (a
-- space and industry, a link, a tile to develop or sell, a merchant), then each resource choice
-- that is a real choice (which of several equally near coal mines, which iron works, which
-- beer); a player short of money for a negative income chooses the tiles it removes.
-- Components: games/brass/data.lua; choices where the rulebook leaves room and how D is
-- counted: games/brass/RULES.md; the drawing: games/brass/svg.lua.
local kit = require "games.kit"
local D = require "games.brass.data"

local G = {
  name = "brass", title = "Brass: Birmingham", players = { min = 2, max = 4 },
  annotations = { engine = 2, spatial = 2, sequencing = 2, coupling = 2, hidden = 2, scoring = 2 },
  rules_file = "games/brass/rules.md",
  data = D,
}

-- the map ------------------------------------------------------------------------------------

local TOWN, MERCH, LOCNAME = {}, {}, {}
for _, t in ipairs(D.TOWNS) do TOWN[t.id] = t; LOCNAME[t.id] = t.name end
for _, m in ipairs(D.MERCHANTS) do MERCH[m.id] = m; LOCNAME[m.id] = m.name end
G.TOWN, G.MERCH = TOWN, MERCH

-- SLOTS: every industry space of the board; SLOT_AT["town:k"] -> index
local SLOTS, SLOT_AT, TOWN_SLOTS = {}, {}, {}
for _, t in ipairs(D.TOWNS) do
  TOWN_SLOTS[t.id] = {}
  for k, allows in ipairs(t.slots) do
    local ok = {}
    for _, x in ipairs(allows) do ok[x] = true end
    SLOTS[#SLOTS + 1] = { town = t.id, k = k, allows = allows, ok = ok, name = t.id .. ":" .. k }
    SLOT_AT[t.id .. ":" .. k] = #SLOTS
    table.insert(TOWN_SLOTS[t.id], #SLOTS)
  end
end
G.SLOTS, G.SLOT_AT = SLOTS, SLOT_AT

-- LINKS with ids "a-b"; ADJ[loc] = list of link indices touching loc
local LINKS, LINK_AT, ADJ = {}, {}, {}
for i, l in ipairs(D.LINKS) do
  local ends = { l.a, l.b, l.c }
  LINKS[i] = { id = l.a .. "-" .. l.b, ends = ends, canal = l.canal, rail = l.rail }
  LINK_AT[LINKS[i].id] = i
  for _, e in ipairs(ends) do ADJ[e] = ADJ[e] or {}; table.insert(ADJ[e], i) end
end
G.LINKS, G.LINK_AT = LINKS, LINK_AT

-- tiles by industry: TILES[ind][level]
local TILES, IND_NAME = {}, {}
for _, x in ipairs(D.INDUSTRIES) do TILES[x.id] = {}; IND_NAME[x.id] = x.name end
for _, t in ipairs(D.TILES) do TILES[t.industry][t.level] = t end
G.TILES = TILES

local IS_WILD = { ["wild-loc"] = true, ["wild-ind"] = true }
local INDUSTRY_ORDER = { "cotton", "goods", "pottery", "coal", "iron", "brewery" }

local function card_name(c)
  if c == "wild-loc" then return "wild location" end
  if c == "wild-ind" then return "wild industry" end
  local inds = D.INDUSTRY_CARD[c]
  if inds then
    local w = {}
    for j, x in ipairs(inds) do w[j] = IND_NAME[x] end
    return table.concat(w, "/") .. " (industry card)"
  end
  return LOCNAME[c] .. " (location card)"
end
G.card_name = card_name

-- setup --------------------------------------------------------------------------------------

local function deck_for(n)
  local deck = {}
  for _, e in ipairs(D.DECK) do
    for _ = 1, e.copies[n - 1] do deck[#deck + 1] = e.card end
  end
  return deck
end
G.deck_for = deck_for

local function rand_of(s) return function(k) return kit.rand(s, k) end end

local function merchant_spaces(n)
  local out = {}
  for _, m in ipairs(D.MERCHANTS) do
    if n >= m.min_players then
      for k = 1, m.spaces do out[#out + 1] = { merchant = m.id, k = k } end
    end
  end
  return out
end

local function deal(s)
  for _, seat in ipairs(s.order) do
    local p = s.players[seat]
    while #p.hand < D.HAND and #s.deck > 0 do p.hand[#p.hand + 1] = table.remove(s.deck) end
  end
end

local function begin_turn(s)
  local seat = s.order[s.pos]
  local p = s.players[seat]
  s.actions_left = math.min(s.era == "canal" and s.round == 1 and 1 or 2, #p.hand)
  s.pend = { stage = "action" }
end

function G.setup(n, seed)
  if type(n) ~= "number" or n < G.players.min or n > G.players.max then
    error("Brass: Birmingham is for 2 to 4 players, not " .. tostring(n), 2)
  end
  local s = { n = n, rng = kit.seed_state(seed), era = "canal", round = 1, order = {}, pos = 1, actions_left = 1,
              deck = deck_for(n), removed = {}, discard = {}, wild = { loc = D.WILD_COPIES, ind = D.WILD_COPIES },
              tiles = {}, links = {}, coal = D.COAL_MARKET.start, iron = D.IRON_MARKET.start,
              merchants = {}, players = {}, over = false, pend = { stage = "action" }, last = "" }
  for i = 1, #SLOTS do s.tiles[i] = false end
  for i = 1, #LINKS do s.links[i] = 0 end
  local tiles = {}
  for _, t in ipairs(D.MERCHANT_TILES) do if n >= t.min_players then tiles[#tiles + 1] = t.id end end
  local rand = rand_of(s)
  kit.shuffle(tiles, rand)
  for j, sp in ipairs(merchant_spaces(n)) do
    s.merchants[j] = { merchant = sp.merchant, k = sp.k, tile = tiles[j], beer = tiles[j] == "blank" and 0 or 1 }
  end
  kit.shuffle(s.deck, rand)
  for i = 1, n do
    local mat = {}
    for _, x in ipairs(INDUSTRY_ORDER) do
      mat[x] = {}
      for lv, t in ipairs(TILES[x]) do mat[x][lv] = t.count end
    end
    s.players[i] = { money = D.START_MONEY, progress = D.START_PROGRESS, vp = 0, hand = {}, mat = mat, spent = 0 }
    s.order[i] = i
    s.removed[#s.removed + 1] = table.remove(s.deck)      -- one card a player face down, out of the era
  end
  deal(s)
  begin_turn(s)
  return s
end

function G.is_terminal(s) return s.over end
-- actor(s) -> the seat to choose now: the one in turn, or one selling tiles for a shortfall
local function actor(s) return s.pend.stage == "shortfall" and s.pend.seat or s.order[s.pos] end
function G.current_seats(s) if s.over then return {} end return { actor(s) } end

-- board queries ------------------------------------------------------------------------------

local function level_of(p) return D.level(p.progress) end
G.level_of = level_of

-- lowest(p, ind) -> level of the lowest tile left on the player's mat, or nil
local function lowest(p, ind)
  for lv, c in ipairs(p.mat[ind]) do if c > 0 then return lv end end
end
G.lowest = lowest

local function has_any_piece(s, seat)
  for i = 1, #SLOTS do if s.tiles[i] and s.tiles[i].owner == seat then return true end end
  for i = 1, #LINKS do if s.links[i] == seat then return true end end
  return false
end

-- network(s, seat) -> set of locations in the seat's network, or nil when it has nothing on
-- the board (then every location counts)
local function network(s, seat)
  if not has_any_piece(s, seat) then return nil end
  local net = {}
  for i = 1, #SLOTS do if s.tiles[i] and s.tiles[i].owner == seat then net[SLOTS[i].town] = true end end
  for i = 1, #LINKS do
    if s.links[i] == seat then for _, e in ipairs(LINKS[i].ends) do net[e] = true end end
  end
  return net
end
G.network = network

-- distances(s, from, extra) -> { [loc] = links away } over built links (and the link indices
-- in extra, treated as built), from any of the locations in `from`
local function distances(s, from, extra)
  local dist, queue, head = {}, {}, 1
  for _, l in ipairs(from) do if dist[l] == nil then dist[l] = 0; queue[#queue + 1] = l end end
  local built = {}
  if extra then for _, i in ipairs(extra) do built[i] = true end end
  while queue[head] do
    local l = queue[head]; head = head + 1
    for _, i in ipairs(ADJ[l] or {}) do
      if s.links[i] ~= 0 or built[i] then
        for _, e in ipairs(LINKS[i].ends) do
          if dist[e] == nil then dist[e] = dist[l] + 1; queue[#queue + 1] = e end
        end
      end
    end
  end
  return dist
end
G.distances = distances

local function merchant_in_play(s, loc)
  for _, m in ipairs(s.merchants) do if m.merchant == loc then return true end end
  return false
end

-- reaches_merchant: the coal market (buying, and a new mine's selling) needs a connection to a
-- merchant location, with or without merchant tiles (the rulebook: "even those without")
local function reaches_merchant(_, dist)
  for loc in pairs(dist) do if MERCH[loc] then return true end end
  return false
end

local function cubes_of(s, res)   -- cubes of coal or iron on the board's tiles
  local k = 0
  for i = 1, #SLOTS do
    local t = s.tiles[i]
    if t and t.industry == res then k = k + t.cubes end
  end
  return k
end
G.cubes_of = cubes_of

local function connected_coal(s, dist)
  local k = 0
  for i = 1, #SLOTS do
    local t = s.tiles[i]
    if t and t.industry == "coal" and t.cubes > 0 and dist[SLOTS[i].town] then k = k + t.cubes end
  end
  return k
end

local MARKET = { coal = D.COAL_MARKET, iron = D.IRON_MARKET }

-- buy_cost(have, k, market) -> what k cubes cost from a market holding `have` cubes
local function buy_cost(have, k, m)
  local cost, size = 0, #m.prices
  for _ = 1, k do
    if have > 0 then cost = cost + m.prices[size - have + 1]; have = have - 1 else cost = cost + m.empty end
  end
  return cost
end
G.buy_cost = buy_cost

-- coal_cost(s, from, k, extra) -> money the market part costs, or nil when k coal cannot be had
local function coal_cost(s, from, k, extra)
  if k == 0 then return 0 end
  local dist = distances(s, from, extra)
  local rest = k - math.min(k, connected_coal(s, dist))
  if rest == 0 then return 0 end
  if not reaches_merchant(s, dist) then return nil end
  return buy_cost(s.coal, rest, D.COAL_MARKET)
end

local function iron_cost(s, k)
  local rest = k - math.min(k, cubes_of(s, "iron"))
  return buy_cost(s.iron, rest, D.IRON_MARKET)
end

-- beer_sources(s, seat, from, merchant) -> list of source ids: the seat's breweries with
-- barrels anywhere, others' breweries connected to `from`, and the merchant space's barrel
local function beer_sources(s, seat, dist, mi)
  local out = {}
  for i = 1, #SLOTS do
    local t = s.tiles[i]
    if t and t.industry == "brewery" and t.cubes > 0 and (t.owner == seat or dist[SLOTS[i].town]) then
      out[#out + 1] = { slot = i, n = t.cubes }
    end
  end
  if mi and s.merchants[mi].beer > 0 then out[#out + 1] = { merchant = mi, n = s.merchants[mi].beer } end
  return out
end

local function beer_total(list)
  local k = 0
  for _, b in ipairs(list) do k = k + b.n end
  return k
end

local function buys(tile, ind)
  if tile == "any" then return D.SELLABLE[ind] == true end
  return tile == ind
end

-- building -------------------------------------------------------------------------------------

local function era_ok(t, era) return t.era == nil or t.era == era end

-- can_place(s, seat, si, ind) -> tile spec and total cost when the seat may build industry ind
-- on space si now (money, resources, era and town limits, overbuilding), else nil
local function can_place(s, seat, si, ind)
  local sl = SLOTS[si]
  if not sl.ok[ind] then return nil end
  local p = s.players[seat]
  local lv = lowest(p, ind)
  if not lv then return nil end
  local t = TILES[ind][lv]
  if not era_ok(t, s.era) then return nil end
  local old = s.tiles[si]
  if not old and #sl.allows > 1 then
    -- an empty space showing only this industry comes first
    for _, j in ipairs(TOWN_SLOTS[sl.town]) do
      if not s.tiles[j] and #SLOTS[j].allows == 1 and SLOTS[j].allows[1] == ind then return nil end
    end
  end
  if old then
    if old.industry ~= ind or old.level >= lv then return nil end
    if old.owner ~= seat then
      if ind ~= "coal" and ind ~= "iron" then return nil end
      if cubes_of(s, ind) > 0 or s[ind] > 0 then return nil end
    end
  end
  if s.era == "canal" then
    for _, j in ipairs(TOWN_SLOTS[sl.town]) do
      if j ~= si and s.tiles[j] and s.tiles[j].owner == seat then return nil end
    end
  end
  if p.money < t.money then return nil end
  local cc = coal_cost(s, { sl.town }, t.coal)
  if not cc then return nil end
  local cost = t.money + cc + iron_cost(s, t.iron)
  if p.money < cost then return nil end
  return t, cost
end
G.can_place = can_place

-- build_targets(s, seat, card [, first]) -> list of { si, ind } the card allows now (with
-- first, stops at the first)
local function build_targets(s, seat, card, first)
  local out = {}
  local towns, inds
  if IS_WILD[card] or D.INDUSTRY_CARD[card] then
    inds = card == "wild-ind" and INDUSTRY_ORDER or (card == "wild-loc" and INDUSTRY_ORDER or D.INDUSTRY_CARD[card])
    local net = card ~= "wild-loc" and network(s, seat) or nil
    towns = {}
    for _, t in ipairs(D.TOWNS) do
      -- a wild location card is any town's card: never a farm brewery's
      if (not net or net[t.id]) and not (card == "wild-loc" and t.farm) then towns[#towns + 1] = t.id end
    end
  else
    towns, inds = { card }, INDUSTRY_ORDER
  end
  for _, town in ipairs(towns) do
    for _, si in ipairs(TOWN_SLOTS[town]) do
      for _, ind in ipairs(inds) do
        if can_place(s, seat, si, ind) then
          out[#out + 1] = { si = si, ind = ind }
          if first then return out end
        end
      end
    end
  end
  return out
end
G.build_targets = build_targets

-- links ------------------------------------------------------------------------------------------

local function link_touches(net, i)
  if not net then return true end
  for _, e in ipairs(LINKS[i].ends) do if net[e] then return true end end
  return false
end

-- link_targets(s, seat, first) -> link indices the seat may build now (first = the first rail
-- of a double rail already built this action, for the second)
local function link_targets(s, seat, first)
  local p = s.players[seat]
  local net = network(s, seat)
  local out = {}
  for i = 1, #LINKS do
    local l = LINKS[i]
    if s.links[i] == 0 and l[s.era] and link_touches(net, i) then
      if s.era == "canal" then
        if p.money >= D.CANAL_COST then out[#out + 1] = i end
      else
        local price = first and (D.DOUBLE_RAIL_COST - D.RAIL_COST) or D.RAIL_COST
        local cc = coal_cost(s, l.ends, 1, { i })
        local ok = cc and p.money >= price + cc
        if ok and first then
          ok = beer_total(beer_sources(s, seat, distances(s, l.ends, { i }))) > 0
        end
        if ok then out[#out + 1] = i end
      end
    end
  end
  return out
end
G.link_targets = link_targets

-- develop, sell, loan, scout -----------------------------------------------------------------------

local function develop_targets(s, seat, free)
  local p = s.players[seat]
  local out = {}
  local ok = free or p.money >= iron_cost(s, 1)
  if not ok then return out end
  for _, ind in ipairs(INDUSTRY_ORDER) do
    local lv = lowest(p, ind)
    if lv and TILES[ind][lv].develop ~= false then out[#out + 1] = ind end
  end
  return out
end

-- sale_merchants(s, seat, si) -> merchant space indices the tile on si may be sold to now
local function sale_merchants(s, seat, si)
  local t = s.tiles[si]
  local out = {}
  if not t or t.owner ~= seat or t.flipped or not D.SELLABLE[t.industry] then return out end
  local need = TILES[t.industry][t.level].beer
  local dist = distances(s, { SLOTS[si].town })
  local base
  for mi, m in ipairs(s.merchants) do
    if dist[m.merchant] and buys(m.tile, t.industry) then
      base = base or beer_total(beer_sources(s, seat, dist))
      if base + m.beer >= need then out[#out + 1] = mi end
    end
  end
  return out
end
G.sale_merchants = sale_merchants

local function sell_targets(s, seat)
  local out = {}
  for si = 1, #SLOTS do
    local t = s.tiles[si]
    if t and t.owner == seat and not t.flipped and D.SELLABLE[t.industry] and #sale_merchants(s, seat, si) > 0 then
      out[#out + 1] = si
    end
  end
  return out
end

local function can_loan(s, seat)
  return level_of(s.players[seat]) - D.LOAN_LEVELS >= D.MIN_LEVEL
end

local function holds_wild(p)
  for _, c in ipairs(p.hand) do if IS_WILD[c] then return true end end
  return false
end

local function can_scout(s, seat)
  local p = s.players[seat]
  return #p.hand >= 3 and not holds_wild(p) and s.wild.loc > 0 and s.wild.ind > 0
end

local function distinct_cards(hand)
  local seen, out = {}, {}
  for _, c in ipairs(hand) do
    if not seen[c] then seen[c] = true; out[#out + 1] = c end
  end
  table.sort(out)
  return out
end

local function any_build(s, seat)
  for _, c in ipairs(distinct_cards(s.players[seat].hand)) do
    if #build_targets(s, seat, c, true) > 0 then return true end
  end
  return false
end

-- card_allows(s, seat, card, town, ind): the card may be used to build ind in town (the
-- location rules of build_targets, checked directly)
local function card_allows(s, seat, card, town, ind)
  if TOWN[town] == nil then return false end
  if card == "wild-loc" then return not TOWN[town].farm end
  local inds = D.INDUSTRY_CARD[card]
  if inds or card == "wild-ind" then
    if inds then
      local ok = false
      for _, x in ipairs(inds) do if x == ind then ok = true end end
      if not ok then return false end
    end
    local net = network(s, seat)
    return not net or net[town] == true
  end
  return card == town
end

-- resource choices ---------------------------------------------------------------------------------

-- coal_choices(s, from, extra) -> the nearest connected coal mines with cubes (slot indices),
-- or {} when the market must supply
local function coal_choices(s, from, extra)
  local dist = distances(s, from, extra)
  local best, out = nil, {}
  for i = 1, #SLOTS do
    local t = s.tiles[i]
    local d = dist[SLOTS[i].town]
    if t and t.industry == "coal" and t.cubes > 0 and d then
      if not best or d < best then best, out = d, { i } elseif d == best then out[#out + 1] = i end
    end
  end
  return out
end

local function iron_choices(s)
  local out = {}
  for i = 1, #SLOTS do
    local t = s.tiles[i]
    if t and t.industry == "iron" and t.cubes > 0 then out[#out + 1] = i end
  end
  return out
end

local function flip(s, si)
  local t = s.tiles[si]
  if t.flipped then return end
  t.flipped = true
  local p = s.players[t.owner]
  p.progress = math.min(D.MAX_PROGRESS, p.progress + TILES[t.industry][t.level].income)
end

local function pay(s, seat, amount)
  local p = s.players[seat]
  p.money = p.money - amount
  p.spent = p.spent + amount
  assert(p.money >= 0, "money below zero")
end

local function take_cube(s, si)
  local t = s.tiles[si]
  t.cubes = t.cubes - 1
  if t.cubes == 0 then flip(s, si) end
end

local function buy(s, seat, res)
  local m = MARKET[res]
  local price = s[res] > 0 and m.prices[#m.prices - s[res] + 1] or m.empty
  if s[res] > 0 then s[res] = s[res] - 1 end
  pay(s, seat, price)
end

-- step_sources(s, seat, q) -> for the resource step q at the head of the queue: the sources
-- to choose from (slot indices, or { merchant = mi } for a merchant's barrel); {} when the
-- market must supply
local function step_sources(s, seat, q)
  if q.res == "coal" then return coal_choices(s, q.from, q.extra)
  elseif q.res == "iron" then return iron_choices(s)
  else
    local dist = distances(s, q.from, q.extra)
    local list = beer_sources(s, seat, dist, q.merchant)
    local out = {}
    for _, b in ipairs(list) do out[#out + 1] = b.slot or { merchant = b.merchant } end
    return out
  end
end

local function use_source(s, seat, q, src)
  if q.res == "beer" and type(src) == "table" then
    s.merchants[src.merchant].beer = s.merchants[src.merchant].beer - 1
    s.pend.merchant_beer = true
  elseif src == "market" then
    buy(s, seat, q.res)
  else
    take_cube(s, src)
  end
  q.n = q.n - 1
end

-- the flow of an action ------------------------------------------------------------------------------

local finish_action

-- place_tile(s, seat): the build's tile goes on its space with its cubes or barrels; coal goes to
-- the coal market if the mine is connected to a merchant, iron always to the iron market
local function place_tile(s, seat, si, ind, lv)
  local t = TILES[ind][lv]
  local tile = { owner = seat, industry = ind, level = lv, flipped = false, cubes = 0 }
  s.tiles[si] = tile
  local p = s.players[seat]
  if ind == "brewery" then tile.cubes = D.BREWERY_BARRELS[s.era]
  elseif ind == "coal" or ind == "iron" then
    tile.cubes = t.produce
    local sell = ind == "iron" or reaches_merchant(s, distances(s, { SLOTS[si].town }))
    local m = MARKET[ind]
    while sell and tile.cubes > 0 and s[ind] < #m.prices do
      local price = m.prices[#m.prices - s[ind]]
      s[ind] = s[ind] + 1
      tile.cubes = tile.cubes - 1
      p.money = p.money + price
    end
    if tile.cubes == 0 then flip(s, si) end
  end
end

-- run(s, seat): do every resource step that needs no choice, then continue the action
local function run(s, seat)
  local pd = s.pend
  while pd.queue and #pd.queue > 0 do
    local q = pd.queue[1]
    if q.n == 0 then table.remove(pd.queue, 1)
    else
      local src = step_sources(s, seat, q)
      if #src == 0 then
        assert(q.res ~= "beer", "no beer left for a step checked as possible")
        use_source(s, seat, q, "market")
      elseif #src == 1 then use_source(s, seat, q, src[1])
      else return end                       -- a real choice: wait for the seat
    end
  end
  pd.queue = nil
  local k = pd.then_
  pd.then_ = nil
  if k == "place" then
    place_tile(s, seat, pd.si, pd.ind, pd.lv)
    finish_action(s, seat)
  elseif k == "rail1" then
    if #link_targets(s, seat, pd.first) > 0 then pd.stage = "rail2" else finish_action(s, seat) end
  elseif k == "dev1" then
    if #develop_targets(s, seat) > 0 and not pd.second then pd.stage = "dev2" else finish_action(s, seat) end
  elseif k == "sold" then
    flip(s, pd.si)
    local m = s.merchants[pd.mi]
    if pd.merchant_beer then
      local b = MERCH[m.merchant].bonus
      local p = s.players[seat]
      if b.kind == "money" then p.money = p.money + b.value
      elseif b.kind == "vp" then p.vp = p.vp + b.value
      elseif b.kind == "income" then p.progress = math.min(D.MAX_PROGRESS, p.progress + b.value)
      elseif b.kind == "develop" and #develop_targets(s, seat, true) > 0 then
        pd.merchant_beer = false
        pd.stage = "free"
        return
      end
    end
    pd.merchant_beer = false
    if #sell_targets(s, seat) > 0 then pd.stage = "sell2" else finish_action(s, seat) end
  else
    finish_action(s, seat)
  end
end

local function discard(s, seat, card)
  local p = s.players[seat]
  for j, c in ipairs(p.hand) do
    if c == card then
      table.remove(p.hand, j)
      if IS_WILD[c] then
        if c == "wild-loc" then s.wild.loc = s.wild.loc + 1 else s.wild.ind = s.wild.ind + 1 end
      else s.discard[#s.discard + 1] = c end
      return
    end
  end
  error("card not in hand: " .. card)
end

-- era and round ends ----------------------------------------------------------------------------

-- link_icons(s, loc) -> the link icons a location shows: flipped tiles' icons, 2 for a merchant
local function link_icons(s, loc)
  if MERCH[loc] then return MERCH[loc].icons end
  local k = 0
  for _, si in ipairs(TOWN_SLOTS[loc] or {}) do
    local t = s.tiles[si]
    if t and t.flipped then k = k + TILES[t.industry][t.level].links end
  end
  return k
end
G.link_icons = link_icons

-- era_points(s) -> per seat { links = , tiles = } the era's scoring would give now
local function era_points(s)
  local pts = {}
  for i = 1, s.n do pts[i] = { links = 0, tiles = 0 } end
  for i = 1, #LINKS do
    local o = s.links[i]
    if o ~= 0 then
      for _, e in ipairs(LINKS[i].ends) do pts[o].links = pts[o].links + link_icons(s, e) end
    end
  end
  for i = 1, #SLOTS do
    local t = s.tiles[i]
    if t and t.flipped then pts[t.owner].tiles = pts[t.owner].tiles + TILES[t.industry][t.level].vp end
  end
  return pts
end
G.era_points = era_points

local function score_era(s)
  local pts = era_points(s)
  s.era_scores = s.era_scores or {}
  local rec = {}
  for i = 1, s.n do
    s.players[i].vp = s.players[i].vp + pts[i].links + pts[i].tiles
    rec[i] = pts[i].links + pts[i].tiles
  end
  s.era_scores[#s.era_scores + 1] = rec
end

local function start_rail(s)
  for i = 1, #LINKS do s.links[i] = 0 end
  for i = 1, #SLOTS do
    if s.tiles[i] and s.tiles[i].level == 1 then s.tiles[i] = false end
  end
  for _, m in ipairs(s.merchants) do m.beer = m.tile == "blank" and 0 or 1 end
  local deck = {}
  for _, c in ipairs(s.discard) do deck[#deck + 1] = c end
  for _, c in ipairs(s.removed) do deck[#deck + 1] = c end
  for _, c in ipairs(s.deck) do deck[#deck + 1] = c end
  table.sort(deck)
  kit.shuffle(deck, rand_of(s))
  s.deck, s.discard, s.removed = deck, {}, {}
  s.era = "rail"
  s.round = 1
  deal(s)
end

local function owns_tiles(s, seat)
  for i = 1, #SLOTS do if s.tiles[i] and s.tiles[i].owner == seat then return true end end
  return false
end

-- collect_income(s, from) -> true once every seat from place `from` of the turn order on has
-- its income; false when a seat short of money for a negative income owns industry tiles: it
-- must first remove some for half their cost (the pending "shortfall" choice). A seat with no
-- tile left loses 1 VP per money missing (not below 0).
local function collect_income(s, from)
  for j = from, s.n do
    local seat = s.order[j]
    local p = s.players[seat]
    local l = level_of(p)
    if p.money + l >= 0 then p.money = p.money + l
    elseif owns_tiles(s, seat) then
      s.pend = { stage = "shortfall", seat = seat, j = j }
      return false
    else
      p.vp = math.max(0, p.vp - (-l - p.money))
      p.money = 0
    end
  end
  return true
end

local function era_over(s)
  if #s.deck > 0 then return false end
  for i = 1, s.n do if #s.players[i].hand > 0 then return false end end
  return true
end

-- after_income(s): the era's end (scoring, the rail era or the game's end) or the next round
local function after_income(s)
  if era_over(s) then
    score_era(s)
    if s.era == "canal" then start_rail(s) else s.over = true; s.pend = nil; return end
  else
    s.round = s.round + 1
  end
  s.pos = 1
  begin_turn(s)
end

local function end_round(s)
  -- the new order: least money spent first, ties keep their order
  local idx = {}
  for j, seat in ipairs(s.order) do idx[seat] = j end
  local order = { table.unpack(s.order) }
  table.sort(order, function(a, b)
    local x, y = s.players[a].spent, s.players[b].spent
    if x ~= y then return x < y end
    return idx[a] < idx[b]
  end)
  s.order = order
  for i = 1, s.n do s.players[i].spent = 0 end
  -- no income after the last round of the game
  if not (era_over(s) and s.era == "rail") and not collect_income(s, 1) then return end
  after_income(s)
end

-- shortfall(s, seat, si): the seat removes its tile on si for half its cost; once the income
-- can be paid (or no tile is left) the income phase goes on
local function shortfall(s, seat, si)
  local t = s.tiles[si]
  local p = s.players[seat]
  p.money = p.money + TILES[t.industry][t.level].money // 2
  s.tiles[si] = false
  local j = s.pend.j
  if p.money + level_of(p) < 0 and owns_tiles(s, seat) then return end
  if collect_income(s, j) then after_income(s) end
end

local function end_turn(s)
  local seat = s.order[s.pos]
  local p = s.players[seat]
  while #p.hand < D.HAND and #s.deck > 0 do p.hand[#p.hand + 1] = table.remove(s.deck) end
  repeat
    if s.pos == s.n then end_round(s); return end
    s.pos = s.pos + 1
    begin_turn(s)
  until s.actions_left > 0
end

finish_action = function(s, seat)
  s.actions_left = s.actions_left - 1
  if s.actions_left <= 0 then end_turn(s) else s.pend = { stage = "action" } end
end

-- legal actions -------------------------------------------------------------------------------

local function slot_label(si)
  local sl = SLOTS[si]
  return string.format("%s space %d", LOCNAME[sl.town], sl.k)
end

local function tile_words(t)
  return string.format("%s %d", IND_NAME[t.industry], t.level)
end

local function action_list(s, seat)
  local out = {}
  if any_build(s, seat) then out[#out + 1] = "build" end
  if #link_targets(s, seat) > 0 then out[#out + 1] = "network" end
  if #develop_targets(s, seat) > 0 then out[#out + 1] = "develop" end
  if #sell_targets(s, seat) > 0 then out[#out + 1] = "sell" end
  if can_loan(s, seat) then out[#out + 1] = "loan" end
  if can_scout(s, seat) then out[#out + 1] = "scout" end
  out[#out + 1] = "pass"
  return out
end

local ACTION_WORDS = {
  build = "build an industry tile", network = "build a link", develop = "develop (remove 1 or 2 tiles from your mat, 1 iron each)",
  sell = "sell cotton, goods or pottery to merchants", loan = "take a loan (+30, income -3 levels)",
  scout = "scout (discard 3 cards, take a wild location and a wild industry card)", pass = "pass (discard a card)",
}

-- options(s, seat) -> list of { id, label function } for the pending sub-decision
local function options(s, seat)
  local pd, p = s.pend, s.players[seat]
  local r = {}
  local function add(id, label) r[#r + 1] = { id, label } end
  if pd.queue then
    local q = pd.queue[1]
    for _, src in ipairs(step_sources(s, seat, q)) do
      if type(src) == "table" then
        local m = s.merchants[src.merchant]
        add("beer:" .. m.merchant .. ":" .. m.k, function()
          return string.format("use the beer barrel of the %s merchant at %s (its bonus: %s)", m.tile, LOCNAME[m.merchant], MERCH[m.merchant].bonus.kind)
        end)
      else
        local t = s.tiles[src]
        add(q.res .. ":" .. SLOTS[src].name, function()
          return string.format("use %s from player %d's %s at %s (%d left)", q.res == "beer" and "beer" or q.res, t.owner, tile_words(t), slot_label(src), t.cubes)
        end)
      end
    end
    return r
  end
  local st = pd.stage
  if st == "action" then
    for _, a in ipairs(action_list(s, seat)) do add(a, function() return ACTION_WORDS[a] end) end
  elseif st == "card" or st == "scout2" or st == "scout3" then
    local cards
    cards = distinct_cards(p.hand)
    for _, c in ipairs(cards) do
      if pd.act ~= "build" or #build_targets(s, seat, c, true) > 0 then
        add("card:" .. c, function() return "discard " .. card_name(c) .. " for the " .. pd.act .. " action" end)
      end
    end
  elseif st == "target" then
    for _, x in ipairs(build_targets(s, seat, pd.card)) do
      local sl = SLOTS[x.si]
      add("at:" .. sl.name .. ":" .. x.ind, function()
        local t, cost = can_place(s, seat, x.si, x.ind)
        local old = s.tiles[x.si]
        return string.format("build %s %d on %s%s (%d money in all, coal %d, iron %d)", IND_NAME[x.ind], t.level, slot_label(x.si),
          old and string.format(" over player %d's %s", old.owner, tile_words(old)) or "", cost, t.coal, t.iron)
      end)
    end
  elseif st == "link" or st == "rail2" then
    for _, i in ipairs(link_targets(s, seat, st == "rail2" and pd.first or nil)) do
      add("link:" .. LINKS[i].id, function()
        local w = {}
        for j, e in ipairs(LINKS[i].ends) do w[j] = LOCNAME[e] end
        local kind = s.era == "canal" and "canal (3 money)" or (st == "rail2" and "second rail (10 money, 1 coal, 1 beer)" or "rail (5 money, 1 coal)")
        return "build a " .. kind .. " between " .. table.concat(w, " and ")
      end)
    end
    if st == "rail2" then add("stop", function() return "end the action after one rail" end) end
  elseif st == "dev" or st == "dev2" or st == "free" then
    for _, ind in ipairs(develop_targets(s, seat, st == "free")) do
      add("dev:" .. ind, function()
        return string.format("develop away your %s %d%s", IND_NAME[ind], lowest(p, ind), st == "free" and " (free: the Gloucester bonus)" or " (1 iron)")
      end)
    end
    if st == "dev2" then add("stop", function() return "end the action after one develop" end) end
  elseif st == "sell" or st == "sell2" then
    for _, si in ipairs(sell_targets(s, seat)) do
      add("sell:" .. SLOTS[si].name, function()
        local t = s.tiles[si]
        return string.format("sell your %s at %s (needs %d beer)", tile_words(t), slot_label(si), TILES[t.industry][t.level].beer)
      end)
    end
    if st == "sell2" then add("stop", function() return "end the sell action" end) end
  elseif st == "shortfall" then
    for si = 1, #SLOTS do
      local t = s.tiles[si]
      if t and t.owner == seat then
        add("remove:" .. SLOTS[si].name, function()
          return string.format("remove your %s at %s for %d money (income %d to pay, money %d)", tile_words(t), slot_label(si),
            TILES[t.industry][t.level].money // 2, level_of(p), p.money)
        end)
      end
    end
  elseif st == "merchant" then
    for _, mi in ipairs(sale_merchants(s, seat, pd.si)) do
      local m = s.merchants[mi]
      add("to:" .. m.merchant .. ":" .. m.k, function()
        return string.format("sell to the %s merchant at %s (%s beer barrel)", m.tile, LOCNAME[m.merchant], m.beer > 0 and "with a" or "no")
      end)
    end
  end
  return r
end

function G.legal_actions(s, seat, bare)
  local out = {}
  if s.over or seat ~= actor(s) then return out end
  for _, o in ipairs(options(s, seat)) do out[#out + 1] = { id = o[1], label = bare and "" or o[2]() } end
  return out
end

-- apply ------------------------------------------------------------------------------------------

local function act(s, seat, id)
  local pd, p = s.pend, s.players[seat]
  if pd.queue then
    local q = pd.queue[1]
    for _, src in ipairs(step_sources(s, seat, q)) do
      local sid
      if type(src) == "table" then
        local m = s.merchants[src.merchant]
        sid = "beer:" .. m.merchant .. ":" .. m.k
      else sid = q.res .. ":" .. SLOTS[src].name end
      if sid == id then use_source(s, seat, q, src); run(s, seat); return end
    end
    return
  end
  local st = pd.stage
  local rest = id:match("^%a+:(.*)$") or ""
  if st == "shortfall" then
    shortfall(s, seat, SLOT_AT[rest])
  elseif st == "action" then
    pd.act, pd.stage = id, "card"
    return
  elseif st == "card" then
    local c = rest
    discard(s, seat, c)
    pd.card = c
    local a = pd.act
    if a == "build" then pd.stage = "target"
    elseif a == "network" then pd.stage = "link"
    elseif a == "develop" then pd.stage = "dev"
    elseif a == "sell" then pd.stage = "sell"
    elseif a == "loan" then
      p.money = p.money + D.LOAN
      p.progress = D.top(level_of(p) - D.LOAN_LEVELS)
      finish_action(s, seat)
    elseif a == "scout" then pd.stage = "scout2"
    else finish_action(s, seat) end
  elseif st == "scout2" or st == "scout3" then
    discard(s, seat, rest)
    if st == "scout2" then pd.stage = "scout3"
    else
      s.wild.loc, s.wild.ind = s.wild.loc - 1, s.wild.ind - 1
      p.hand[#p.hand + 1] = "wild-loc"
      p.hand[#p.hand + 1] = "wild-ind"
      finish_action(s, seat)
    end
  elseif st == "target" then
    local town, k, ind = rest:match("^([%w_]+):(%d+):(%a+)$")
    local si = SLOT_AT[town .. ":" .. k]
    local t = can_place(s, seat, si, ind)
    pay(s, seat, t.money)
    p.mat[ind][t.level] = p.mat[ind][t.level] - 1
    s.tiles[si] = false                       -- an overbuilt tile leaves the game
    pd.si, pd.ind, pd.lv = si, ind, t.level
    pd.stage = nil
    pd.queue = { { res = "coal", n = t.coal, from = { SLOTS[si].town } }, { res = "iron", n = t.iron } }
    pd.then_ = "place"
    run(s, seat)
  elseif st == "link" or st == "rail2" then
    if id == "stop" then finish_action(s, seat); return end
    local i = LINK_AT[rest]
    s.links[i] = seat
    if s.era == "canal" then pay(s, seat, D.CANAL_COST); finish_action(s, seat); return end
    pd.stage = nil
    if st == "link" then
      pay(s, seat, D.RAIL_COST)
      pd.first = i
      pd.queue = { { res = "coal", n = 1, from = LINKS[i].ends } }
      pd.then_ = "rail1"
    else
      pay(s, seat, D.DOUBLE_RAIL_COST - D.RAIL_COST)
      pd.queue = { { res = "coal", n = 1, from = LINKS[i].ends }, { res = "beer", n = 1, from = LINKS[i].ends } }
      pd.then_ = "done"
    end
    run(s, seat)
  elseif st == "dev" or st == "dev2" or st == "free" then
    if id == "stop" then finish_action(s, seat); return end
    local lv = lowest(p, rest)
    p.mat[rest][lv] = p.mat[rest][lv] - 1
    if st == "free" then
      if #sell_targets(s, seat) > 0 then pd.stage = "sell2" else finish_action(s, seat) end
      return
    end
    pd.second = st == "dev2"
    pd.stage = nil
    pd.queue = { { res = "iron", n = 1 } }
    pd.then_ = "dev1"
    run(s, seat)
  elseif st == "sell" or st == "sell2" then
    if id == "stop" then finish_action(s, seat); return end
    pd.si = SLOT_AT[rest]
    pd.stage = "merchant"
    local ms = sale_merchants(s, seat, pd.si)
    if #ms == 1 then act(s, seat, "to:" .. s.merchants[ms[1]].merchant .. ":" .. s.merchants[ms[1]].k) end
  elseif st == "merchant" then
    local mname, k = rest:match("^(%a+):(%d+)$")
    for mi, m in ipairs(s.merchants) do
      if m.merchant == mname and m.k == tonumber(k) then pd.mi = mi end
    end
    local t = s.tiles[pd.si]
    pd.stage = nil
    pd.merchant_beer = false
    pd.queue = { { res = "beer", n = TILES[t.industry][t.level].beer, from = { SLOTS[pd.si].town }, merchant = pd.mi } }
    pd.then_ = "sold"
    run(s, seat)
  end
end

local ACTION_OK = {
  build = any_build,
  network = function(s, seat) return #link_targets(s, seat) > 0 end,
  develop = function(s, seat) return #develop_targets(s, seat) > 0 end,
  sell = function(s, seat) return #sell_targets(s, seat) > 0 end,
  loan = function(s, seat) return can_loan(s, seat) end,
  scout = function(s, seat) return can_scout(s, seat) end,
  pass = function() return true end,
}

-- legal_now(s, seat, id) -> whether id is among the legal actions, checked directly for the
-- frequent stages (the action, the card, the build target) and from the list for the others
local function legal_now(s, seat, id)
  local pd = s.pend
  if not pd.queue then
    local st = pd.stage
    if st == "action" then return ACTION_OK[id] ~= nil and ACTION_OK[id](s, seat) end
    if st == "card" or st == "scout2" or st == "scout3" then
      local c = id:match("^card:([%w%-_]+)$")
      if not c then return false end
      local held = false
      for _, x in ipairs(s.players[seat].hand) do if x == c then held = true; break end end
      if not held then return false end
      return pd.act ~= "build" or #build_targets(s, seat, c, true) > 0
    end
    if st == "target" then
      local town, k, ind = id:match("^at:([%w_]+):(%d+):(%a+)$")
      local si = town and SLOT_AT[town .. ":" .. k]
      if not si or id ~= "at:" .. town .. ":" .. k .. ":" .. ind then return false end
      return card_allows(s, seat, pd.card, town, ind) and can_place(s, seat, si, ind) ~= nil
    end
  end
  for _, o in ipairs(options(s, seat)) do if o[1] == id then return true end end
  return false
end

function G.apply(s, seat, id)
  if s.over or seat ~= actor(s) then return nil, "not this seat's turn" end
  if type(id) ~= "string" then return nil, "unknown action" end
  local ok = legal_now(s, seat, id)
  if not ok then return nil, "not a legal action now: " .. id end
  act(s, seat, id)
  return true
end

-- scores, ranking -----------------------------------------------------------------------------

-- ranking: banked points (plus, before the end, what the era's scoring would give now); ties
-- go to the income marker further along the track (its space, not its level: the designer's
-- ruling, RULES.md), then to more money
function G.ranking(s)
  local keys, scores = {}, {}
  local pts = not s.over and era_points(s) or nil
  for i = 1, s.n do
    local p = s.players[i]
    scores[i] = p.vp + (pts and (pts[i].links + pts[i].tiles) or 0)
    keys[i] = { scores[i], p.progress, p.money }
  end
  return { ranks = kit.ranks(keys), scores = scores }
end

-- estimate: banked points, the era's points now, a tenth of the money, and in the canal era
-- what income and flipped tiles are worth again in the rail era
function G.estimate(s)
  local pts = era_points(s)
  local est = {}
  for i = 1, s.n do
    local p = s.players[i]
    est[i] = p.vp + pts[i].links + pts[i].tiles + 0.1 * p.money
    if s.era == "canal" then est[i] = est[i] + 0.6 * level_of(p) + 0.5 * pts[i].tiles end
  end
  return est
end

-- observation and text ---------------------------------------------------------------------------

local STAGE_WORDS = {
  action = "choose an action", card = "choose the card to discard", target = "choose where to build",
  link = "choose a link", rail2 = "build a second rail or stop", dev = "choose a tile to develop",
  dev2 = "develop a second tile or stop", free = "choose a tile to develop for free", sell = "choose a tile to sell",
  sell2 = "sell another tile or stop", merchant = "choose the merchant",
  shortfall = "short of money for a negative income: remove one of your industry tiles for half its cost", scout2 = "choose the second card to discard",
  scout3 = "choose the third card to discard",
}

local function market_price(have, m)
  return have > 0 and m.prices[#m.prices - have + 1] or m.empty
end

-- observation: everything is public but the draw deck's order, the cards put aside face down
-- and the other players' hands (of which their size and wild cards are public)
function G.observation(s, seat)
  local o = { game = "brass", seat = seat, n = s.n, era = s.era, round = s.round, over = s.over, order = { table.unpack(s.order) },
              turn = not s.over and actor(s) or nil, actions_left = s.actions_left, deck = #s.deck,
              discard = {}, wild_supply = { loc = s.wild.loc, ind = s.wild.ind }, coal_market = s.coal, iron_market = s.iron,
              coal_price = market_price(s.coal, D.COAL_MARKET), iron_price = market_price(s.iron, D.IRON_MARKET),
              tiles = {}, links = {}, merchants = {}, players = {}, scores = {} }
  local dc = {}
  for _, c in ipairs(s.discard) do dc[c] = (dc[c] or 0) + 1 end
  o.discard = dc
  for i = 1, #SLOTS do
    local t = s.tiles[i]
    if t then o.tiles[#o.tiles + 1] = { space = SLOTS[i].name, owner = t.owner, industry = t.industry, level = t.level, flipped = t.flipped, cubes = t.cubes } end
  end
  for i = 1, #LINKS do if s.links[i] ~= 0 then o.links[#o.links + 1] = { link = LINKS[i].id, owner = s.links[i] } end end
  for j, m in ipairs(s.merchants) do o.merchants[j] = { merchant = m.merchant, k = m.k, tile = m.tile, beer = m.beer } end
  local pts = era_points(s)
  local r = G.ranking(s)
  for i = 1, s.n do
    local p = s.players[i]
    local mat = {}
    for _, x in ipairs(INDUSTRY_ORDER) do mat[x] = { table.unpack(p.mat[x]) } end
    local v = { money = p.money, income = level_of(p), progress = p.progress, vp = p.vp, spent = p.spent, hand_size = #p.hand,
                mat = mat, era_links = pts[i].links, era_tiles = pts[i].tiles, wild = {} }
    for _, c in ipairs(p.hand) do if IS_WILD[c] then v.wild[#v.wild + 1] = c end end
    table.sort(v.wild)
    if i == seat then v.hand = { table.unpack(p.hand) }; table.sort(v.hand) end
    o.players[i] = v
    o.scores[i] = r.scores[i]
  end
  if not s.over then
    local pd = s.pend
    o.pending = { stage = pd.queue and ("pay_" .. pd.queue[1].res) or pd.stage, action = pd.act, card = pd.card }
  end
  return o
end

local function tile_text(t)
  local res = ""
  if t.industry == "coal" or t.industry == "iron" then res = " " .. t.cubes .. " cubes"
  elseif t.industry == "brewery" then res = " " .. t.cubes .. " beer" end
  return string.format("P%d %s %d%s%s", t.owner, t.industry, t.level, t.flipped and " flipped" or "", res)
end

function G.render(o)
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  add("Brass: Birmingham, %s era, round %d. You are player %d of %d.%s", o.era, o.round, o.seat, o.n,
    o.over and " The game is over." or string.format(" Player %d to act (%d action(s) left this turn).", o.turn, o.actions_left))
  if o.pending then
    local st = o.pending.stage
    add("Now: %s%s%s.", STAGE_WORDS[st] or ("choose where the " .. st:sub(5) .. " comes from"),
      o.pending.action and (" (action: " .. o.pending.action .. ")") or "", o.pending.card and (", card " .. o.pending.card) or "")
  end
  add("Turn order: %s. Draw deck: %d cards. Wild cards left: %d location, %d industry.", table.concat(o.order, ", "), o.deck, o.wild_supply.loc, o.wild_supply.ind)
  add("Coal market: %d of %d cubes, next cube costs %d (%d when empty). Iron market: %d of %d, next costs %d (%d when empty).",
    o.coal_market, #D.COAL_MARKET.prices, o.coal_price, D.COAL_MARKET.empty, o.iron_market, #D.IRON_MARKET.prices, o.iron_price, D.IRON_MARKET.empty)
  local ms = {}
  for _, m in ipairs(o.merchants) do ms[#ms + 1] = string.format("%s:%d %s%s", m.merchant, m.k, m.tile, m.beer > 0 and "+beer" or "") end
  add("Merchants: %s. Bonuses for using a merchant's beer: warrington +5 money, nottingham +3 VP, shrewsbury +4 VP, oxford +2 income, gloucester a free develop.", table.concat(ms, ", "))
  add("")
  add("Towns (space allowed-industries = tile):")
  local at = {}
  for _, t in ipairs(o.tiles) do at[t.space] = t end
  for _, town in ipairs(D.TOWNS) do
    local parts = {}
    for k, allows in ipairs(town.slots) do
      local nm = town.id .. ":" .. k
      parts[#parts + 1] = string.format("%d %s = %s", k, table.concat(allows, "/"), at[nm] and tile_text(at[nm]) or "empty")
    end
    add("  %s: %s", town.id, table.concat(parts, "; "))
  end
  local built = {}
  for _, l in ipairs(o.links) do built[l.link] = l.owner end
  local bl, free = {}, {}
  for _, l in ipairs(LINKS) do
    if built[l.id] then bl[#bl + 1] = l.id .. " P" .. built[l.id]
    elseif l[o.era] then free[#free + 1] = l.id end
  end
  add("Built links: %s.", #bl > 0 and table.concat(bl, ", ") or "none")
  add("Open %s links: %s (kidderminster-worcester also touches farm_south).", o.era, table.concat(free, ", "))
  for i, p in ipairs(o.players) do
    add("")
    local vp = o.over and string.format("%d VP (final)", p.vp)
      or string.format("%d VP banked (%d with this era's scoring now: links %d, flipped tiles %d)", p.vp, o.scores[i], p.era_links, p.era_tiles)
    add("Player %d%s: %s, money %d, income %d (progress %d), spent this round %d, %d cards%s.",
      i, i == o.seat and " (you)" or "", vp, p.money, p.income, p.progress, p.spent, p.hand_size,
      #p.wild > 0 and (" including " .. table.concat(p.wild, ", ")) or "")
    local mat = {}
    for _, x in ipairs(INDUSTRY_ORDER) do
      local lv, left = nil, 0
      for l, c in ipairs(p.mat[x]) do if c > 0 then lv = lv or l end; left = left + c end
      mat[#mat + 1] = string.format("%s next level %s (%d left)", x, lv and tostring(lv) or "-", left)
    end
    add("  mat: %s", table.concat(mat, ", "))
    if p.hand then add("  your hand: %s", #p.hand > 0 and table.concat(p.hand, ", ") or "empty") end
  end
  local dw = {}
  for c, k in pairs(o.discard) do dw[#dw + 1] = c .. " x" .. k end
  table.sort(dw)
  add("")
  add("Discarded this era: %s.", #dw > 0 and table.concat(dw, ", ") or "none")
  add("P = owner. Flipped tiles score their points and link icons at each era's end; coal mines and iron works show cubes left, breweries beer left.")
  return table.concat(out, "\n")
end

-- heuristic (fixed action scores) ------------------------------------------------------------------

-- unsold(s, seat) -> whether the seat has a cotton mill, manufacturer or pottery not yet
-- connected to a merchant that buys it
local function unsold(s, seat)
  for si = 1, #SLOTS do
    local t = s.tiles[si]
    if t and t.owner == seat and not t.flipped and D.SELLABLE[t.industry] then
      local dist = distances(s, { SLOTS[si].town })
      local ok = false
      for _, m in ipairs(s.merchants) do if dist[m.merchant] and buys(m.tile, t.industry) then ok = true end end
      if not ok then return true end
    end
  end
  return false
end

-- NEAR[town] = merchant locations at most two links away on the map
local NEAR = {}
for _, t in ipairs(D.TOWNS) do
  NEAR[t.id] = {}
  local d1 = {}
  for _, i in ipairs(ADJ[t.id] or {}) do for _, e in ipairs(LINKS[i].ends) do d1[e] = true end end
  for e in pairs(d1) do
    if MERCH[e] then NEAR[t.id][e] = true end
    for _, i in ipairs(ADJ[e] or {}) do for _, f in ipairs(LINKS[i].ends) do if MERCH[f] then NEAR[t.id][f] = true end end end
  end
end

function G.heuristic(s, seat, id)
  local p = s.players[seat]
  local pd = s.pend
  local rest = id:match("^%a+:(.*)$") or ""
  if pd.queue then
    -- prefer one's own cubes (flipping one's own tile), then the emptiest source
    local si = SLOT_AT[rest]
    if si and s.tiles[si] then return (s.tiles[si].owner == seat and 5 or 0) - s.tiles[si].cubes * 0.1 end
    return 1
  end
  local st = pd.stage
  if st == "action" then
    local base = { build = 6, sell = 10, network = 3, develop = 1, loan = -5, scout = 0.5, pass = -1 }
    local v = base[id] or 0
    if id == "loan" and p.money < 10 and level_of(p) >= (s.round <= 3 and 0 or 2) and (s.era == "canal" or #s.deck > 20) then v = 8 end
    if id == "develop" and s.era == "rail" then
      for _, x in ipairs({ "cotton", "goods", "coal", "iron", "brewery" }) do
        if lowest(p, x) == 1 then v = 6.5; break end
      end
    end
    if id == "network" and unsold(s, seat) then v = 7 end
    return v
  elseif st == "card" or st == "scout2" or st == "scout3" then
    -- build with a location card first, keep the wild cards; for other actions give up a
    -- location card before an industry card, a wild card last
    if IS_WILD[rest] then return pd.act == "build" and -1 or -5 end
    if pd.act == "build" then return D.INDUSTRY_CARD[rest] and 0.5 or 1 end
    return (#build_targets(s, seat, rest, true) > 0 and -1 or 0) - (D.INDUSTRY_CARD[rest] and 0.5 or 0)
  elseif st == "target" then
    local town, k, ind = rest:match("^([%w_]+):(%d+):(%a+)$")
    local si = SLOT_AT[town .. ":" .. k]
    local t, cost = can_place(s, seat, si, ind)
    local later = s.era == "canal" and 1 or 0.3
    local v = 0.7 * t.vp + later * t.income - 0.2 * cost + 1
    if D.SELLABLE[ind] then
      local dist = distances(s, { town })
      for _, m in ipairs(s.merchants) do
        if dist[m.merchant] and buys(m.tile, ind) then v = v + 4; break end
        if NEAR[town][m.merchant] and buys(m.tile, ind) then v = v + 2; break end
      end
    elseif ind == "iron" then v = v + 0.5 * math.min(t.produce, #D.IRON_MARKET.prices - s.iron)
    elseif ind == "coal" then v = v + (reaches_merchant(s, distances(s, { town })) and 2 or 0)
    end
    if s.era == "rail" and t.level == 1 then v = v - 5 end
    return v
  elseif st == "link" or st == "rail2" then
    if id == "stop" then return 0 end
    local i = LINK_AT[rest]
    local v = 1
    for _, e in ipairs(LINKS[i].ends) do
      v = v + link_icons(s, e)
      if MERCH[e] and merchant_in_play(s, e) then v = v + 3 end
      for _, si in ipairs(TOWN_SLOTS[e] or {}) do
        local t = s.tiles[si]
        if t and t.owner == seat and not t.flipped and D.SELLABLE[t.industry] then v = v + 3 end
      end
      for m in pairs(NEAR[e] or {}) do if merchant_in_play(s, m) then v = v + 1 end end
    end
    return v
  elseif st == "dev" or st == "dev2" or st == "free" then
    if id == "stop" then return 0.5 end
    local lv = lowest(p, rest)
    return (TILES[rest][lv + 1] and TILES[rest][lv + 1].vp or 0) - TILES[rest][lv].vp + (lv == 1 and (s.era == "rail" and 8 or 2) or 0)
  elseif st == "sell" or st == "sell2" then
    if id == "stop" then return -1 end
    local t = s.tiles[SLOT_AT[rest]]
    return 5 + TILES[t.industry][t.level].vp
  elseif st == "shortfall" then
    -- give up the tile worth least: unflipped before flipped, low points first
    local t = s.tiles[SLOT_AT[rest]]
    local tl = TILES[t.industry][t.level]
    return -(t.flipped and 2 * tl.vp or tl.vp) + 0.1 * (tl.money // 2)
  elseif st == "merchant" then
    local mname, k = rest:match("^(%a+):(%d+)$")
    for _, m in ipairs(s.merchants) do
      if m.merchant == mname and m.k == tonumber(k) then return m.beer > 0 and 3 or 0 end
    end
  end
  return 0
end

-- determinize: the unknowns are the draw deck's order, the cards put aside face down and the
-- other players' hands (their wild cards are public): these are dealt again from one pool
function G.determinize(s, seat, rand)
  local d = kit.reseeded(s, rand)
  local pool = {}
  for _, c in ipairs(d.deck) do pool[#pool + 1] = c end
  for _, c in ipairs(d.removed) do pool[#pool + 1] = c end
  local sizes = {}
  for i = 1, d.n do
    if i ~= seat then
      local keep, k = {}, 0
      for _, c in ipairs(d.players[i].hand) do
        if IS_WILD[c] then keep[#keep + 1] = c else pool[#pool + 1] = c; k = k + 1 end
      end
      d.players[i].hand = keep
      sizes[i] = k
    end
  end
  table.sort(pool)
  kit.shuffle(pool, rand)
  for i = 1, d.n do
    if i ~= seat then
      local h = d.players[i].hand
      for _ = 1, sizes[i] do h[#h + 1] = table.remove(pool) end
    end
  end
  local nr = #d.removed
  d.removed = {}
  for _ = 1, nr do d.removed[#d.removed + 1] = table.remove(pool) end
  d.deck = pool
  return d
end

-- counts_decision: a sub-decision with one option is no decision (RULES.md, "Decisions")
function G.counts_decision(s, seat)
  return #G.legal_actions(s, seat, true) > 1
end

-- census(s) -> { [card] = copies } over the deck, the face-down cards, the discards and every
-- hand (wild cards in hands included; those in the supply are s.wild): the cards' invariant
function G.census(s)
  local cards = {}
  local function add(c) cards[c] = (cards[c] or 0) + 1 end
  for _, c in ipairs(s.deck) do add(c) end
  for _, c in ipairs(s.removed) do add(c) end
  for _, c in ipairs(s.discard) do add(c) end
  for i = 1, s.n do for _, c in ipairs(s.players[i].hand) do add(c) end end
  return cards
end

-- seconds per baseline match with ISMCTS at 1024 simulations (games/README.md): estimated, not
-- timed over whole matches (too long for the shared machine): 2.43 s CPU per ISMCTS decision
-- (bench/brass.lua) x about 88 counted decisions of its seat
G.match_work = 215

G.svg = function(obs) return require("games.brass.svg").draw(obs) end

return G
