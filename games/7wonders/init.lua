-- games.7wonders — 7 Wonders (Repos Production 2010, first edition, 3–7 players, wonder
-- boards side A) against the game interface of games/README.md: three ages of simultaneous
-- card choices against a frozen state, hands passed left (ages I, III) or right (age II).
-- Choices where the rulebook leaves room: games/7wonders/RULES.md. Card data: cards.lua.
local kit = require "games.kit"
local DATA = require "games.7wonders.cards"
local pay = require "games.7wonders.pay"

local G = {
  name = "7wonders", title = "7 Wonders", players = { min = 3, max = 7 },
  annotations = { engine = 2, spatial = 1, sequencing = 1, coupling = 2, hidden = 2, scoring = 2 },
  svg_private = true,   -- G.svg draws a seat's private holdings (the viewer draws each seat's own view)
  rules_file = "games/7wonders/rules.md",
}

local CARDS, WONDERS, WONDERS_B = DATA.cards, DATA.wonders, DATA.wonders_b
local RES = pay.RES                      -- letters W S C O G L P
local RES_NAME = { "wood", "stone", "clay", "ore", "glass", "loom", "papyrus" }
local SCIENCE = { compass = 1, gear = 2, tablet = 3 }
local WIN = { 1, 3, 5 }
local HAND, TURNS = 7, 6
G.CARDS, G.WONDERS, G.WONDERS_B, G.RES_NAME = CARDS, WONDERS, WONDERS_B, RES_NAME

-- derived card facts: slug, cost vector, chain predecessors, whether a later card chains from it
local BY_NAME, SLUG_IDS, LEADS = {}, {}, {}
for id, c in ipairs(CARDS) do
  c.id = id
  c.slug = c.name:lower():gsub("[^%w]+", "_")
  c.need = pay.vector(c.cost)
  c.coins = c.coins or 0
  BY_NAME[c.name] = BY_NAME[c.name] or id
  SLUG_IDS[c.slug] = SLUG_IDS[c.slug] or {}
  table.insert(SLUG_IDS[c.slug], id)
  for _, f in ipairs(c.from or {}) do LEADS[f] = true end
end
for _, side in ipairs({ WONDERS, WONDERS_B }) do
  for _, w in ipairs(side) do
    for _, st in ipairs(w.stages) do st.need = pay.vector(st.cost) end
  end
end
-- board(city) -> the city's wonder board (side A or B)
local function board(c) return (c.side == "B" and WONDERS_B or WONDERS)[c.wonder] end
G.board = board
G.BY_NAME = BY_NAME
G.BY_SLUG = {}
for slug, ids in pairs(SLUG_IDS) do G.BY_SLUG[slug] = ids[1] end
function G.pay_res(letter) return RES[letter] end
function G.card(id) return CARDS[id] end
function G.id(name) return BY_NAME[name] end

local function left(s, i) return i % s.n + 1 end
local function right(s, i) return (i - 2) % s.n + 1 end
G.left, G.right = left, right

-- deck(n, age) -> card ids of that age for n players (guilds apart), ascending
local function deck(n, age)
  local d = {}
  for id, c in ipairs(CARDS) do
    if c.age == age and c.players then
      for _, k in ipairs(c.players) do if k <= n then d[#d + 1] = id end end
    end
  end
  return d
end
local GUILDS = {}
for id, c in ipairs(CARDS) do if c.colour == "purple" then GUILDS[#GUILDS + 1] = id end end
G.deck, G.GUILDS = deck, GUILDS

local function new_city(w, side)
  local wd = WONDERS[w]
  local c = { wonder = w, side = side or "A", stage = 0, seventh = false, copy_guild = false, built = {}, under = {}, coins = 3, tokens = {}, shields = 0,
              prod = { 0, 0, 0, 0, 0, 0, 0 }, choice = {}, sell = { 0, 0, 0, 0, 0, 0, 0 }, sell_choice = {},
              science = { 0, 0, 0 }, wild = 0, raw_left = false, raw_right = false, manu = false,
              free = false, free_age = 0, names = {}, colours = {} }
  local r = RES[wd.produce]
  c.prod[r], c.sell[r] = 1, 1
  return c
end

-- deal(s): the cards of s.age shuffled into n hands of 7 (age III: n + 2 random guilds)
local function deal(s)
  local d = deck(s.n, s.age)
  if s.age == 3 then
    local g = kit.copy(GUILDS)
    kit.shuffle(g, function(k) return kit.rand(s, k) end)
    for j = 1, #g do
      if j <= s.n + 2 then d[#d + 1] = g[j] else s.removed[#s.removed + 1] = g[j] end
    end
    table.sort(s.removed)
  end
  kit.shuffle(d, function(k) return kit.rand(s, k) end)
  for i = 1, s.n do
    local h = {}
    for j = 1, HAND do h[j] = d[(i - 1) * HAND + j] end
    table.sort(h)
    s.hands[i] = h
  end
end

-- setup(n, seed [, opts]): opts.sides = "A" (default, the arena's), "B", or "random" (each
-- seat's side drawn with the match generator)
function G.setup(n, seed, opts)
  if math.type(n) ~= "integer" or n < 3 or n > 7 then error("7 Wonders is for 3 to 7 players, not " .. tostring(n), 2) end
  local sides = opts and opts.sides or "A"
  if sides ~= "A" and sides ~= "B" and sides ~= "random" then error("7 Wonders: sides must be A, B or random, not " .. tostring(sides), 2) end
  local s = { n = n, rng = kit.seed_state(seed), age = 1, turn = 1, phase = "draft", over = false, halic = 0, seventh = 0,
              pending = {}, hands = {}, discard = {}, discard_by = {}, removed = {}, cities = {} }
  local ws = {}
  for w = 1, #WONDERS do ws[w] = w end
  kit.shuffle(ws, function(k) return kit.rand(s, k) end)
  for i = 1, n do
    local side = sides
    if sides == "random" then side = kit.rand(s, 2) == 1 and "A" or "B" end
    s.cities[i] = new_city(ws[i], side); s.pending[i] = ""
  end
  deal(s)
  return s
end

function G.is_terminal(s) return s.over end
function G.current_seats(s)
  if s.over then return {} end
  if s.phase == "halic" then return { s.halic } end
  if s.phase == "seventh" then return { s.seventh } end
  local r = {}
  for i = 1, s.n do if s.pending[i] == "" then r[#r + 1] = i end end
  return r
end

-- ---- building ----

local function add_choice(list, letters) list[#list + 1] = letters end

-- place(s, i, id): card id enters city i (its production, science, trade and colour counts)
local function place(s, i, id)
  local c, card = s.cities[i], CARDS[id]
  c.built[#c.built + 1] = id
  c.names[card.name] = true
  c.colours[card.colour] = (c.colours[card.colour] or 0) + 1
  local sellable = card.colour == "brown" or card.colour == "grey"
  if card.produce then
    for k = 1, #card.produce do
      local r = RES[card.produce:sub(k, k)]
      c.prod[r] = c.prod[r] + 1
      if sellable then c.sell[r] = c.sell[r] + 1 end
    end
  end
  if card.choice then
    add_choice(c.choice, card.choice)
    if sellable then add_choice(c.sell_choice, card.choice) end
  end
  if card.shields then c.shields = c.shields + card.shields end
  if card.science then c.science[SCIENCE[card.science]] = c.science[SCIENCE[card.science]] + 1 end
  if card.wild then c.wild = c.wild + 1 end
  if card.trade == "raw_left" then c.raw_left = true
  elseif card.trade == "raw_right" then c.raw_right = true
  elseif card.trade == "manufactured" then c.manu = true end
end

-- count(s, i, spec) -> how many things spec.of counts in spec.where around city i
local function count(s, i, spec)
  local seats
  if spec.where == "self" then seats = { i }
  elseif spec.where == "neighbours" then seats = { left(s, i), right(s, i) }
  else seats = { i, left(s, i), right(s, i) } end
  local x = 0
  for _, j in ipairs(seats) do
    local c = s.cities[j]
    if spec.of == "stages" then x = x + c.stage
    elseif spec.of == "defeats" then
      for _, v in ipairs(c.tokens) do if v < 0 then x = x + 1 end end
    else
      for _, col in ipairs(spec.of) do x = x + (c.colours[col] or 0) end
    end
  end
  return x
end
G.count = count
G.place, G.new_city = place, new_city

-- plan(s, i, need, coins) -> left, right (coins paid to each neighbour) or nil when city i
-- cannot get the resources in `need` (own production, then the cheapest purchase) and pay
-- `coins` to the bank besides
local function plan(s, i, need, coins)
  local c = s.cities[i]
  if c.coins < coins then return nil end
  local l, r = pay.plan(c, s.cities[left(s, i)], s.cities[right(s, i)], need)
  if not l or l + r + coins > c.coins then return nil end
  return l, r
end

local function card_in(list, slug)
  for k, id in ipairs(list) do if CARDS[id].slug == slug then return k, id end end
end

local function chained(c, card)
  for _, f in ipairs(card.from or {}) do if c.names[f] then return true end end
  return false
end

-- build_cost(s, i, id) -> bank, left, right or nil (duplicate or unaffordable); a chain is free
local function build_cost(s, i, id)
  local c, card = s.cities[i], CARDS[id]
  if c.names[card.name] then return nil end
  if chained(c, card) then return 0, 0, 0 end
  local l, r = plan(s, i, card.need, card.coins)
  if not l then return nil end
  return card.coins, l, r
end

local function stage_cost(s, i)
  local c = s.cities[i]
  local stages = board(c).stages
  if c.stage >= #stages then return nil end
  local l, r = plan(s, i, stages[c.stage + 1].need, 0)
  if not l then return nil end
  return 0, l, r
end

-- cost(s, seat, id) -> bank, left, right: what action id would pay now (nil: not payable)
function G.cost(s, seat, id)
  local verb, slug = id:match("^(%a+):(.+)$")
  local _, cid = card_in(s.hands[seat], slug or "")
  if not cid then return nil end
  if verb == "build" then return build_cost(s, seat, cid) end
  if verb == "wonder" then return stage_cost(s, seat) end
  return 0, 0, 0
end

local function free_usable(s, i)
  local c = s.cities[i]
  return c.free and c.free_age ~= s.age
end

-- ---- actions ----

local function card_text(id)
  local c = CARDS[id]
  local parts = {}
  if c.produce then
    local r = {}
    for k = 1, #c.produce do r[k] = RES_NAME[RES[c.produce:sub(k, k)]] end
    parts[#parts + 1] = "produces " .. table.concat(r, " + ")
  end
  if c.choice then
    local r = {}
    for k = 1, #c.choice do r[k] = RES_NAME[RES[c.choice:sub(k, k)]] end
    parts[#parts + 1] = "produces one of " .. table.concat(r, "/")
  end
  if c.points then parts[#parts + 1] = c.points .. " points" end
  if c.shields then parts[#parts + 1] = c.shields .. " shield" .. (c.shields > 1 and "s" or "") end
  if c.science then parts[#parts + 1] = "science " .. c.science end
  if c.gold then parts[#parts + 1] = c.gold .. " coins" end
  if c.trade == "raw_left" then parts[#parts + 1] = "raw materials from the left neighbour cost 1"
  elseif c.trade == "raw_right" then parts[#parts + 1] = "raw materials from the right neighbour cost 1"
  elseif c.trade == "manufactured" then parts[#parts + 1] = "manufactured goods from both neighbours cost 1" end
  if c.count then
    local what = type(c.count.of) == "table" and (table.concat(c.count.of, "/") .. " card")
      or (c.count.of == "stages" and "wonder stage" or "defeat token")
    local where = c.count.where == "self" and "in your city" or c.count.where == "neighbours" and "in both neighbours' cities"
      or "in your city and both neighbours'"
    local gain = {}
    if c.count.coins then gain[#gain + 1] = c.count.coins .. " coin" .. (c.count.coins > 1 and "s" or "") .. " now" end
    if c.count.points then gain[#gain + 1] = c.count.points .. " point" .. (c.count.points > 1 and "s" or "") .. " at the end" end
    parts[#parts + 1] = table.concat(gain, " and ") .. " per " .. what .. " " .. where
  end
  if c.wild then parts[#parts + 1] = "one science symbol of your choice" end
  return table.concat(parts, "; ")
end
G.card_text = card_text

local function cost_text(cost, coins)
  local parts = {}
  if (coins or 0) > 0 then parts[#parts + 1] = coins .. " coin" .. (coins > 1 and "s" or "") end
  local cnt = {}
  for k = 1, #cost do local r = RES[cost:sub(k, k)]; cnt[r] = (cnt[r] or 0) + 1 end
  for r = 1, 7 do if cnt[r] then parts[#parts + 1] = cnt[r] .. " " .. RES_NAME[r] end end
  return #parts > 0 and table.concat(parts, ", ") or "free"
end

local function stage_text(st)
  local p = {}
  if st.points then p[#p + 1] = st.points .. " points" end
  if st.shields then p[#p + 1] = st.shields .. " shields" end
  if st.gold then p[#p + 1] = st.gold .. " coins" end
  if st.choice then
    local r = {}
    for k = 1, #st.choice do r[k] = RES_NAME[RES[st.choice:sub(k, k)]] end
    p[#p + 1] = "produces one of " .. table.concat(r, "/") .. " (neighbours cannot buy it)"
  end
  if st.wild then p[#p + 1] = "one science symbol of your choice" end
  if st.free_build then p[#p + 1] = "once per age build a card for free" end
  if st.raw_both then p[#p + 1] = "raw materials from both neighbours cost 1" end
  if st.seventh then p[#p + 1] = "play the seventh card of each age instead of discarding it" end
  if st.copy_guild then p[#p + 1] = "at the end, copy the best guild of a neighbour" end
  if st.discard_build then p[#p + 1] = "build a card from the discard pile for free at the end of this turn" end
  return table.concat(p, "; ")
end

local function payment_text(bank, l, r)
  if bank + l + r == 0 then return "free" end
  local p = {}
  if bank > 0 then p[#p + 1] = bank .. " to the bank" end
  if l > 0 then p[#p + 1] = l .. " to the left neighbour" end
  if r > 0 then p[#p + 1] = r .. " to the right neighbour" end
  return "pay " .. table.concat(p, ", ")
end

-- hand_ids(hand) -> the distinct cards of a hand by slug, in hand order
local function distinct(hand)
  local seen, r = {}, {}
  for _, id in ipairs(hand) do
    local sl = CARDS[id].slug
    if not seen[sl] then seen[sl] = true; r[#r + 1] = id end
  end
  return r
end

local function draft_actions(s, i, bare)
  local c = s.cities[i]
  local cards = distinct(s.hands[i])
  local builds, frees, wonders, discards = {}, {}, {}, {}
  local sb, sl, sr = stage_cost(s, i)
  local free_ok = free_usable(s, i)
  for _, id in ipairs(cards) do
    local card = CARDS[id]
    local b, l, r = build_cost(s, i, id)
    if b then
      builds[#builds + 1] = { id = "build:" .. card.slug, label = bare and "" or string.format("build %s (%s): %s%s",
        card.name, card_text(id), chained(c, card) and "free by chain" or payment_text(b, l, r),
        card.cost == "" and card.coins == 0 and "" or (" [cost " .. cost_text(card.cost, card.coins) .. "]")),
        bank = b, trade = l + r }
    end
    if free_ok and not c.names[card.name] and not (b and b + l + r == 0) then
      frees[#frees + 1] = { id = "free:" .. card.slug, label = bare and "" or
        string.format("build %s (%s) for free with the wonder's power (once per age)", card.name, card_text(id)) }
    end
    if sb then
      wonders[#wonders + 1] = { id = "wonder:" .. card.slug, label = bare and "" or string.format("build wonder stage %d (%s) with %s: %s",
        c.stage + 1, stage_text(board(c).stages[c.stage + 1]), card.name, payment_text(sb, sl, sr)), bank = 0, trade = sl + sr }
    end
    discards[#discards + 1] = { id = "discard:" .. card.slug, label = bare and "" or string.format("discard %s for 3 coins", card.name) }
  end
  local r = builds
  for _, list in ipairs({ frees, wonders, discards }) do
    for _, a in ipairs(list) do r[#r + 1] = a end
  end
  return r
end

local function halic_actions(s, i, bare)
  local r = {}
  local c = s.cities[i]
  local seen = {}
  local ids = kit.copy(s.discard)
  table.sort(ids)
  for _, id in ipairs(ids) do
    local card = CARDS[id]
    if not c.names[card.name] and not seen[card.slug] then
      seen[card.slug] = true
      r[#r + 1] = { id = "pick:" .. card.slug, label = bare and "" or string.format("build %s (%s) from the discard pile for free", card.name, card_text(id)) }
    end
  end
  return r
end

function G.legal_actions(s, seat, bare)
  if s.over then return {} end
  if s.phase == "halic" then
    if seat ~= s.halic then return {} end
    return halic_actions(s, seat, bare)
  end
  if s.phase == "seventh" and seat ~= s.seventh then return {} end
  if s.pending[seat] ~= "" then return {} end
  return draft_actions(s, seat, bare)
end

-- legal_id(s, seat, id): whether id is among legal_actions(s, seat), checked directly
local function legal_id(s, seat, id)
  local verb, slug = id:match("^(%a+):([%w_]+)$")
  if not verb then return false end
  if s.phase == "halic" then
    if verb ~= "pick" or seat ~= s.halic then return false end
    local _, cid = card_in(s.discard, slug)
    return cid ~= nil and not s.cities[seat].names[CARDS[cid].name]
  end
  if s.pending[seat] ~= "" or (s.phase == "seventh" and seat ~= s.seventh) then return false end
  local _, cid = card_in(s.hands[seat], slug)
  if not cid then return false end
  if verb == "discard" then return true end
  if verb == "build" then return build_cost(s, seat, cid) ~= nil end
  if verb == "wonder" then return stage_cost(s, seat) ~= nil end
  if verb == "free" then
    if not free_usable(s, seat) or s.cities[seat].names[CARDS[cid].name] then return false end
    local b, l, r = build_cost(s, seat, cid)
    return not (b and b + l + r == 0)
  end
  return false
end

-- gain(s, i, id) -> coins the card gives when it is built (counted after the turn's cards are placed)
local function card_gain(s, i, id)
  local card = CARDS[id]
  local g = card.gold or 0
  if card.count and card.count.coins then g = g + card.count.coins * count(s, i, card.count) end
  return g
end

local function military(s)
  local gained = {}
  for i = 1, s.n do
    gained[i] = {}
    local me = s.cities[i].shields
    for _, j in ipairs({ left(s, i), right(s, i) }) do
      local them = s.cities[j].shields
      if me > them then gained[i][#gained[i] + 1] = WIN[s.age] elseif me < them then gained[i][#gained[i] + 1] = -1 end
    end
  end
  for i = 1, s.n do
    for _, v in ipairs(gained[i]) do table.insert(s.cities[i].tokens, v) end
  end
end

-- finish_turn(s): the next turn, or the end of the age (conflicts, next deal, end of game)
local function finish_turn(s)
  s.phase, s.halic, s.seventh = "draft", 0, 0
  if s.turn < TURNS then s.turn = s.turn + 1; return end
  military(s)
  if s.age == 3 then s.over = true; s.phase = "over"; return end
  s.age, s.turn = s.age + 1, 1
  deal(s)
end

-- resolve(s, seats): every seat of the list has chosen; reveal and apply together
local function resolve(s, seats)
  local n = s.n
  local acts = {}
  for _, i in ipairs(seats) do   -- every cost against the state before anything changes
    local verb, slug = s.pending[i]:match("^(%a+):(.+)$")
    local _, id = card_in(s.hands[i], slug)
    local a = { verb = verb, id = id, bank = 0, l = 0, r = 0 }
    if verb == "build" then a.bank, a.l, a.r = build_cost(s, i, id)
    elseif verb == "wonder" then a.bank, a.l, a.r = stage_cost(s, i) end
    acts[i] = a
  end
  local gains = {}
  for i = 1, n do gains[i] = 0 end
  for _, i in ipairs(seats) do
    local a, c = acts[i], s.cities[i]
    table.remove(s.hands[i], (card_in(s.hands[i], CARDS[a.id].slug)))
    c.coins = c.coins - a.bank - a.l - a.r
    gains[left(s, i)] = gains[left(s, i)] + a.l
    gains[right(s, i)] = gains[right(s, i)] + a.r
    if a.verb == "build" or a.verb == "free" then
      place(s, i, a.id)
      if a.verb == "free" then c.free_age = s.age end
    elseif a.verb == "wonder" then
      c.under[#c.under + 1] = a.id
      c.stage = c.stage + 1
      local st = board(c).stages[c.stage]
      if st.shields then c.shields = c.shields + st.shields end
      if st.gold then gains[i] = gains[i] + st.gold end
      if st.choice then add_choice(c.choice, st.choice) end
      if st.wild then c.wild = c.wild + 1 end
      if st.free_build then c.free = true end
      if st.discard_build then s.halic = i end
      if st.raw_both then c.raw_left, c.raw_right = true, true end
      if st.seventh then c.seventh = true end
      if st.copy_guild then c.copy_guild = true end
    else
      s.discard[#s.discard + 1] = a.id
      s.discard_by[#s.discard_by + 1] = i
      gains[i] = gains[i] + 3
    end
  end
  for _, i in ipairs(seats) do
    local a = acts[i]
    if a.verb == "build" or a.verb == "free" then gains[i] = gains[i] + card_gain(s, i, a.id) end
  end
  for i = 1, n do s.cities[i].coins = s.cities[i].coins + gains[i]; s.pending[i] = "" end
  if s.phase == "seventh" then
    s.seventh = 0
  elseif s.turn == TURNS then    -- the seventh card of every hand is discarded (Babylon B plays it)
    for i = 1, n do
      if s.cities[i].seventh and #s.hands[i] > 0 then s.seventh = i
      else
        for _, id in ipairs(s.hands[i]) do s.discard[#s.discard + 1] = id; s.discard_by[#s.discard_by + 1] = i end
        s.hands[i] = {}
      end
    end
    if s.seventh > 0 then s.phase = "seventh"; return end
  else                           -- hands pass left in ages I and III, right in age II
    local new = {}
    for i = 1, n do new[s.age == 2 and right(s, i) or left(s, i)] = s.hands[i] end
    s.hands = new
  end
  if s.halic > 0 and #halic_actions(s, s.halic, true) > 0 then s.phase = "halic"; return end
  finish_turn(s)
end

function G.apply(s, seat, id)
  if s.over then return nil, "the game is over" end
  if type(seat) ~= "number" or seat < 1 or seat > s.n then return nil, "no seat " .. tostring(seat) end
  if s.phase == "halic" then
    if seat ~= s.halic then return nil, "not this seat's turn" end
  elseif s.phase == "seventh" and seat ~= s.seventh then return nil, "not this seat's turn"
  elseif s.pending[seat] ~= "" then return nil, "this seat has already chosen" end
  if type(id) ~= "string" or not legal_id(s, seat, id) then return nil, "not a legal action: " .. tostring(id) end
  if s.phase == "halic" then
    local k, cid = card_in(s.discard, id:match("^pick:(.+)$"))
    table.remove(s.discard, k); table.remove(s.discard_by, k)
    place(s, seat, cid)
    s.cities[seat].coins = s.cities[seat].coins + card_gain(s, seat, cid)
    finish_turn(s)
    return true
  end
  s.pending[seat] = id
  if s.phase == "seventh" then resolve(s, { seat }); return true end
  for i = 1, s.n do if s.pending[i] == "" then return true end end
  local all = {}
  for i = 1, s.n do all[i] = i end
  resolve(s, all)
  return true
end

-- ---- scoring ----

-- science(counts, wild) -> best points: squares of each symbol + 7 per set, wildcards placed best
local function science(sc, wild)
  local best = 0
  local function go(a, b, c, w)
    if w == 0 then
      local v = a * a + b * b + c * c + 7 * math.min(a, b, c)
      if v > best then best = v end
      return
    end
    go(a + 1, b, c, w - 1); go(a, b + 1, c, w - 1); go(a, b, c + 1, w - 1)
  end
  go(sc[1], sc[2], sc[3], wild)
  return best
end
G.science = science

-- breakdown(s, i) -> { military, treasury, wonder, civilian, commercial, guilds, science, total }
local function breakdown(s, i)
  local c = s.cities[i]
  local b = { military = 0, treasury = c.coins // 3, wonder = 0, civilian = 0, commercial = 0, guilds = 0,
              science = science(c.science, c.wild) }
  for _, v in ipairs(c.tokens) do b.military = b.military + v end
  local stages = board(c).stages
  for k = 1, c.stage do b.wonder = b.wonder + (stages[k].points or 0) end
  for _, id in ipairs(c.built) do
    local card = CARDS[id]
    if card.colour == "blue" then b.civilian = b.civilian + card.points
    elseif card.count and card.count.points then
      local v = card.count.points * count(s, i, card.count)
      if card.colour == "yellow" then b.commercial = b.commercial + v else b.guilds = b.guilds + v end
    end
  end
  if c.copy_guild then          -- Olympia B: the best guild of a neighbour, counted for this city
    local best = 0
    for _, j in ipairs({ left(s, i), right(s, i) }) do
      for _, id in ipairs(s.cities[j].built) do
        local card = CARDS[id]
        if card.colour == "purple" then
          local v = card.wild and (science(c.science, c.wild + 1) - b.science) or card.count.points * count(s, i, card.count)
          if v > best then best = v end
        end
      end
    end
    b.guilds = b.guilds + best
  end
  b.total = b.military + b.treasury + b.wonder + b.civilian + b.commercial + b.guilds + b.science
  return b
end
G.breakdown = breakdown
function G.score(s, i) return breakdown(s, i).total end

-- ranking: points, then coins (the rulebook's tie-break); still equal: a shared rank
function G.ranking(s)
  local keys, scores = {}, {}
  for i = 1, s.n do
    scores[i] = breakdown(s, i).total
    keys[i] = { scores[i], s.cities[i].coins }
  end
  return { ranks = kit.ranks(keys), scores = scores }
end

-- ---- what a seat sees ----

local function card_view(id)
  local c = CARDS[id]
  return { name = c.name, id = c.slug, age = c.age, colour = c.colour, cost = cost_text(c.cost, c.coins),
           effect = card_text(id), chains_from = c.from and table.concat(c.from, " or ") or nil }
end

function G.observation(s, seat)
  local o = { game = "7wonders", seat = seat, n = s.n, age = s.age, turn = s.turn, over = s.over,
              pass = s.age == 2 and "right" or "left", phase = s.phase, discard_size = #s.discard,
              scores = {}, cities = {}, hand_sizes = {}, hand = {},
              left_of_you = left(s, seat), right_of_you = right(s, seat) }
  if s.phase == "halic" then o.choosing_from_discard = s.halic end
  if s.phase == "seventh" then o.playing_seventh = s.seventh end
  for i = 1, s.n do
    local c = s.cities[i]
    local b = breakdown(s, i)
    o.scores[i] = b.total
    o.hand_sizes[i] = #s.hands[i]
    local w = board(c)
    local stages = {}
    for k, st in ipairs(w.stages) do stages[k] = { cost = cost_text(st.cost), effect = stage_text(st), built = k <= c.stage } end
    local built = {}
    for k, id in ipairs(c.built) do built[k] = { name = CARDS[id].name, colour = CARDS[id].colour } end
    o.cities[i] = { wonder = w.name, side = c.side, produces = RES_NAME[RES[w.produce]], stages = stages, stages_built = c.stage,
                    coins = c.coins, shields = c.shields, military_tokens = kit.copy(c.tokens), cards = built,
                    score = b, free_build_used_this_age = c.free and c.free_age == s.age or nil }
  end
  for k, id in ipairs(s.hands[seat]) do o.hand[k] = card_view(id) end
  if s.phase == "halic" and seat == s.halic then
    o.discard = {}
    for k, id in ipairs(s.discard) do o.discard[k] = card_view(id) end
  end
  return o
end

local COLOURS = { "brown", "grey", "blue", "yellow", "red", "green", "purple" }
-- G.svg(obs) -> the observation drawn for the viewer (games/7wonders/svg.lua)
function G.svg(o) return require("games.7wonders.svg").svg(o) end

function G.render(o)
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  add("7 Wonders, age %d, turn %d of 6 (hands pass %s). You are player %d of %d; your left neighbour is player %d, your right neighbour player %d.",
      o.age, o.turn, o.pass, o.seat, o.n, o.left_of_you, o.right_of_you)
  if o.over then add("The game is over.") end
  if o.choosing_from_discard then add("Player %d builds a card from the discard pile (Mausoleum of Halicarnassus).", o.choosing_from_discard) end
  if o.playing_seventh then add("Player %d plays the seventh card of the age (Hanging Gardens of Babylon).", o.playing_seventh) end
  add("Discard pile: %d cards (face down).", o.discard_size)
  for i, c in ipairs(o.cities) do
    add("")
    local toks = {}
    for k, v in ipairs(c.military_tokens) do toks[k] = (v > 0 and "+" or "") .. v end
    add("Player %d%s: %s, side %s (produces %s), stages %d/%d, %d coins, %d shields, military tokens [%s], %d cards in hand, score %d",
        i, i == o.seat and " (you)" or "", c.wonder, c.side, c.produces, c.stages_built, #c.stages, c.coins, c.shields, table.concat(toks, " "),
        o.hand_sizes[i], c.score.total)
    local by = {}
    for _, card in ipairs(c.cards) do by[card.colour] = by[card.colour] or {}; table.insert(by[card.colour], card.name) end
    for _, col in ipairs(COLOURS) do
      if by[col] then add("  %s: %s", col, table.concat(by[col], ", ")) end
    end
    if i == o.seat then
      for k, st in ipairs(c.stages) do add("  wonder stage %d%s: cost %s; %s", k, st.built and " (built)" or "", st.cost, st.effect) end
    end
  end
  add("")
  add("Your hand:")
  for _, h in ipairs(o.hand) do
    add("  %s [%s, age %d]: cost %s; %s%s", h.name, h.colour, h.age, h.cost, h.effect,
        h.chains_from and (" (free if you have " .. h.chains_from .. ")") or "")
  end
  if o.discard then
    add("The discard pile (you may build one of these for free):")
    for _, h in ipairs(o.discard) do add("  %s [%s]: %s", h.name, h.colour, h.effect) end
  end
  return table.concat(out, "\n")
end

-- ---- hidden information ----

-- determinize(s, seat, rand): the other seats' hands, the discards seat did not make and the
-- unused guilds are hidden from seat: they are reshuffled among those places, each age's
-- cards among themselves, keeping what is public: the set-aside cards are guilds (drawn only
-- among the unseen guilds), so the hands and discards keep the number of guilds in play;
-- the others' pending choices are dropped; the generator is reseeded
function G.determinize(s, seat, rand)
  local d = kit.copy(s)
  for i = 1, d.n do if i ~= seat then d.pending[i] = "" end end
  local slots = {}                 -- slots[age] = { {list, k}, ... }
  local function slot(list, k)
    local a = CARDS[list[k]].age
    slots[a] = slots[a] or {}
    table.insert(slots[a], { list, k })
  end
  for i = 1, d.n do
    if i ~= seat then for k = 1, #d.hands[i] do slot(d.hands[i], k) end end
  end
  if not (d.phase == "halic" and d.halic == seat) then
    for k = 1, #d.discard do if d.discard_by[k] ~= seat then slot(d.discard, k) end end
  end
  local function deal_out(list, pool)
    table.sort(pool)
    kit.shuffle(pool, rand)
    for j, sl in ipairs(list) do sl[1][sl[2]] = pool[j] end
    return pool
  end
  -- the set-aside guilds first, from every unseen guild; the guilds not drawn go back to
  -- the pool of the hidden places
  local guilds, rest = {}, {}
  for _, sl in ipairs(slots[3] or {}) do
    local id = sl[1][sl[2]]
    table.insert(CARDS[id].colour == "purple" and guilds or rest, id)
  end
  for _, id in ipairs(d.removed) do guilds[#guilds + 1] = id end
  local aside = {}
  for k = 1, #d.removed do aside[k] = { d.removed, k } end
  deal_out(aside, guilds)
  for k = #d.removed + 1, #guilds do rest[#rest + 1] = guilds[k] end
  for a = 1, 3 do
    local list = slots[a]
    if list then
      local pool = {}
      if a == 3 then pool = rest else for j, sl in ipairs(list) do pool[j] = sl[1][sl[2]] end end
      deal_out(list, pool)
    end
  end
  for i = 1, d.n do if i ~= seat then table.sort(d.hands[i]) end end
  table.sort(d.removed)
  d.rng = kit.seed_state(rand(0x7FFFFFFF))
  return d
end

-- ---- heuristic and estimate ----

local RES_WORTH = { 2.0, 1.2, 0.2 }

local function military_delta(s, i, extra)
  local me, v = s.cities[i].shields, 0
  for _, j in ipairs({ left(s, i), right(s, i) }) do
    local them = s.cities[j].shields
    local function res(x) return x > them and WIN[s.age] or (x < them and -1 or 0) end
    v = v + res(me + extra) - res(me)
  end
  return v
end

local function science_delta(c, sym, wild)
  local sc = { c.science[1], c.science[2], c.science[3] }
  if sym then sc[SCIENCE[sym]] = sc[SCIENCE[sym]] + 1 end
  return science(sc, c.wild + (wild or 0)) - science(c.science, c.wild)
end

local function resource_worth(s, c, letters, choice)
  local v = 0
  for k = 1, #letters do
    local r = RES[letters:sub(k, k)]
    v = v + RES_WORTH[s.age] + (c.prod[r] == 0 and 0.5 or 0)
  end
  if choice then v = v / #letters * 1.3 end
  return v
end

-- worth(s, i, id) -> the rough value in points of card id for city i now
local function worth(s, i, id)
  local c, card = s.cities[i], CARDS[id]
  local v = 0
  if card.points then v = v + card.points end
  if card.shields then v = v + 0.9 * military_delta(s, i, card.shields) + 0.3 * card.shields end
  if card.science then v = v + science_delta(c, card.science) + (s.age < 3 and 1.5 or 0) end
  if card.wild then v = v + science_delta(c, nil, 1) end
  if card.produce then v = v + resource_worth(s, c, card.produce) end
  if card.choice then v = v + resource_worth(s, c, card.choice, true) end
  if card.gold then v = v + card.gold / 3 end
  if card.trade then v = v + (s.age == 1 and 1.2 or 0.4) end
  if card.count then
    local k = count(s, i, card.count)
    v = v + k * ((card.count.coins or 0) / 3 + (card.count.points or 0))
  end
  if LEADS[card.name] and s.age < 3 then v = v + 0.8 end
  return v
end

local function stage_worth(s, i)
  local c = s.cities[i]
  local st = board(c).stages[c.stage + 1]
  local v = 0.5 + (st.points or 0) + (st.gold or 0) / 3
  if st.shields then v = v + 0.9 * military_delta(s, i, st.shields) + 0.3 * st.shields end
  if st.choice then v = v + resource_worth(s, c, st.choice, true) end
  if st.wild then v = v + science_delta(c, nil, 1) + 1 end
  if st.free_build then v = v + 4 - s.age end
  if st.discard_build then v = v + 3 end
  if st.raw_both then v = v + (s.age < 3 and 2 or 0.5) end
  if st.seventh then v = v + 1.5 * (4 - s.age) end
  if st.copy_guild then v = v + 4 end
  return v
end

-- rate(s, seat, id, bank, trade): the card's (or stage's) rough worth in points minus a third
-- of a point per coin paid (a little more for coins that go to a neighbour); discarding is
-- worth one point. bank and trade: the payment when the caller knows it
local function rate(s, seat, id, bank, trade)
  local verb, slug = id:match("^(%a+):(.+)$")
  if verb == "pick" then
    local _, cid = card_in(s.discard, slug)
    return cid and worth(s, seat, cid) or -10
  end
  local _, cid = card_in(s.hands[seat], slug or "")
  if not cid then return -10 end
  if verb == "build" or verb == "wonder" then
    if not bank then
      local b, l, r
      if verb == "build" then b, l, r = build_cost(s, seat, cid) else b, l, r = stage_cost(s, seat) end
      if not b then return -10 end
      bank, trade = b, l + r
    end
    if verb == "build" then return worth(s, seat, cid) - bank / 3 - trade / 2.5 end
    return stage_worth(s, seat) - trade / 2.5
  elseif verb == "free" then
    return worth(s, seat, cid) - 0.5
  end
  return 1 - 0.1 * worth(s, seat, cid)
end

function G.heuristic(s, seat, id) return rate(s, seat, id) end

-- heuristic_all: the same scores, reusing the payments the legal list carries
function G.heuristic_all(s, seat, legal)
  local r = {}
  for k, a in ipairs(legal) do r[k] = rate(s, seat, a.id, a.bank, a.trade) end
  return r
end

-- estimate(state) -> per seat: the score now plus the worth of production still to be used
function G.estimate(s)
  local est = {}
  for i = 1, s.n do
    local c = s.cities[i]
    local res = #c.choice
    for r = 1, 7 do res = res + c.prod[r] end
    est[i] = breakdown(s, i).total + (s.over and 0 or (3 - s.age) * 0.4 * res + 0.1 * c.coins)
  end
  return est
end

G.match_work = 22   -- seconds per baseline match with ISMCTS at 1024 simulations (games/README.md)

return G
