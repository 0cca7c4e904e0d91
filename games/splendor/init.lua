-- games.splendor — Splendor (Space Cowboys, 2014 rulebook, 2–4 players) against the game
-- interface of games/README.md. Choices where the rulebook leaves room: games/splendor/RULES.md.
local kit = require "games.kit"
local DATA = require "games.splendor.cards"

local G = {
  name = "splendor", title = "Splendor", players = { min = 2, max = 4 },
  annotations = { engine = 2, spatial = 0, sequencing = 1, coupling = 1, hidden = 1, scoring = 1 },
  svg_private = true,   -- G.svg draws a seat's private holdings (the viewer draws each seat's own view)
  rules_file = "games/splendor/rules.md",
}

local GEMS = { "white", "blue", "green", "red", "black" }
local GOLD = 6
local NAMES = { "white", "blue", "green", "red", "black", "gold" }
local CODE = { white = 1, blue = 2, green = 3, red = 4, black = 5, gold = 6 }
local CARDS, NOBLES = DATA.cards, DATA.nobles
local TOKENS = { [2] = 4, [3] = 5, [4] = 7 }
local TARGET = 15
G.CARDS, G.NOBLES, G.GEMS, G.TOKENS = CARDS, NOBLES, GEMS, TOKENS

local function card_of(id)
  local c = CARDS[id]
  return { level = c[1], bonus = CODE[c[2]], points = c[3], cost = c[4] }
end
G.card = card_of

-- draw a random card of a level from its deck (the deck is kept as a set; the draw order
-- is the generator's), or 0 when the deck is empty
local function draw(s, level)
  local deck = s.decks[level]
  if #deck == 0 then return 0 end
  return table.remove(deck, kit.rand(s, #deck))
end

function G.setup(n, seed)
  if not TOKENS[n] then error("Splendor is for 2 to 4 players, not " .. tostring(n), 2) end
  local t = TOKENS[n]
  local s = { n = n, rng = kit.seed_state(seed), bank = { t, t, t, t, t, 5 }, decks = { {}, {}, {} },
              market = { {}, {}, {} }, nobles = {}, players = {}, turn = 1, phase = "main",
              final_round = false, over = false, turns = 0, passes = 0 }
  for id, c in ipairs(CARDS) do table.insert(s.decks[c[1]], id) end
  for level = 1, 3 do for slot = 1, 4 do s.market[level][slot] = draw(s, level) end end
  local pool = {}
  for i = 1, #NOBLES do pool[i] = i end
  for _ = 1, n + 1 do s.nobles[#s.nobles + 1] = table.remove(pool, kit.rand(s, #pool)) end
  table.sort(s.nobles)
  for i = 1, n do
    s.players[i] = { tokens = { 0, 0, 0, 0, 0, 0 }, bonus = { 0, 0, 0, 0, 0 }, cards = {},
                     reserved = {}, nobles = {}, points = 0 }
  end
  return s
end

function G.is_terminal(s) return s.over end
function G.current_seats(s) if s.over then return {} end return { s.turn } end
function G.counts_decision(s) return s.phase == "main" end

local function token_count(p)
  local n = 0
  for k = 1, 6 do n = n + p.tokens[k] end
  return n
end

-- payment(p, card) -> tokens to pay per colour (1..6) or nil when unaffordable.
-- Coloured tokens are spent first, gold covers the rest.
local function payment(p, c)
  local pay, gold = { 0, 0, 0, 0, 0, 0 }, 0
  for k = 1, 5 do
    local need = math.max(0, c.cost[k] - p.bonus[k])
    local own = math.min(need, p.tokens[k])
    pay[k] = own
    gold = gold + need - own
  end
  if gold > p.tokens[GOLD] then return nil end
  pay[GOLD] = gold
  return pay
end
G.payment = payment

local function cost_text(cost)
  local parts = {}
  for k = 1, 5 do if cost[k] > 0 then parts[#parts + 1] = cost[k] .. " " .. GEMS[k] end end
  return #parts > 0 and table.concat(parts, ", ") or "free"
end

local function card_text(id)
  local c = card_of(id)
  return string.format("card %d (level %d, %s bonus, %d point%s, cost %s)", id, c.level, GEMS[c.bonus],
    c.points, c.points == 1 and "" or "s", cost_text(c.cost))
end

local function noble_text(i)
  return string.format("noble %d (3 points, needs bonuses %s)", i, cost_text(NOBLES[i]))
end

local function qualifying_nobles(s, p)
  local r = {}
  for _, i in ipairs(s.nobles) do
    local ok = true
    for k = 1, 5 do if p.bonus[k] < NOBLES[i][k] then ok = false end end
    if ok then r[#r + 1] = i end
  end
  return r
end

local function main_actions(s, p, bare)
  local r = {}
  local function text(f, ...) if bare then return "" end return f(...) end
  local avail = {}
  for k = 1, 5 do if s.bank[k] > 0 then avail[#avail + 1] = k end end
  if #avail >= 3 then
    for a = 1, #avail - 2 do for b = a + 1, #avail - 1 do for c = b + 1, #avail do
      local x, y, z = GEMS[avail[a]], GEMS[avail[b]], GEMS[avail[c]]
      r[#r + 1] = { id = "take:" .. x .. "," .. y .. "," .. z, label = text(string.format, "take 1 %s, 1 %s and 1 %s", x, y, z) }
    end end end
  elseif #avail > 0 then
    local names = {}
    for i, k in ipairs(avail) do names[i] = GEMS[k] end
    r[#r + 1] = { id = "take:" .. table.concat(names, ","), label = "take 1 each of " .. table.concat(names, ", ") .. " (fewer than three colours are left)" }
  end
  for k = 1, 5 do
    if s.bank[k] >= 4 then r[#r + 1] = { id = "take2:" .. GEMS[k], label = "take 2 " .. GEMS[k] } end
  end
  local gold = s.bank[GOLD] > 0 and " and take 1 gold" or ""
  if #p.reserved < 3 then
    for level = 1, 3 do
      for _, id in ipairs(s.market[level]) do
        if id > 0 then r[#r + 1] = { id = "reserve:" .. id, label = text(function() return "reserve " .. card_text(id) .. gold end) } end
      end
      if #s.decks[level] > 0 then
        r[#r + 1] = { id = "reserve:deck" .. level, label = "reserve the top card of the level " .. level .. " deck unseen" .. gold }
      end
    end
  end
  for level = 1, 3 do
    for _, id in ipairs(s.market[level]) do
      if id > 0 and payment(p, card_of(id)) then r[#r + 1] = { id = "buy:" .. id, label = text(function() return "buy " .. card_text(id) end) } end
    end
  end
  for _, res in ipairs(p.reserved) do
    if payment(p, card_of(res.id)) then r[#r + 1] = { id = "buy:" .. res.id, label = text(function() return "buy your reserved " .. card_text(res.id) end) } end
  end
  if #r == 0 then r[1] = { id = "pass", label = "pass (no other action is possible)" } end
  return r
end

function G.legal_actions(s, seat, bare)
  if s.over or seat ~= s.turn then return {} end
  local p = s.players[seat]
  if s.phase == "main" then return main_actions(s, p, bare) end
  local r = {}
  if s.phase == "return" then
    local over = token_count(p) - 10
    for k = 1, 6 do
      if p.tokens[k] > 0 then
        r[#r + 1] = { id = "return:" .. NAMES[k], label = string.format("return 1 %s (%d more to return after this)", NAMES[k], over - 1) }
      end
    end
  else   -- "noble": several nobles would visit; one is chosen
    for _, i in ipairs(qualifying_nobles(s, p)) do r[#r + 1] = { id = "noble:" .. i, label = "receive " .. noble_text(i) } end
  end
  return r
end

-- after a main action or a return: the token limit, then nobles, then the next seat
-- (at most one noble per turn: noble_done after a chosen visit)
local function finish_turn(s, seat, noble_done)
  local p = s.players[seat]
  if token_count(p) > 10 then s.phase = "return"; return end
  if not noble_done then
    local q = qualifying_nobles(s, p)
    if #q > 1 then s.phase = "noble"; return end
    if #q == 1 then G._visit(s, p, q[1]) end
  end
  s.phase = "main"
  if p.points >= TARGET then s.final_round = true end
  s.turns = s.turns + 1
  if s.final_round and seat == s.n then s.over = true; return end
  s.turn = seat % s.n + 1
end

function G._visit(s, p, i)
  for j, x in ipairs(s.nobles) do if x == i then table.remove(s.nobles, j); break end end
  p.nobles[#p.nobles + 1] = i
  p.points = p.points + 3
end

-- legal_id(s, seat, id): whether id is one of the seat's legal actions, checked directly
-- (the same conditions main_actions and legal_actions list by)
local function legal_id(s, seat, id)
  local p = s.players[seat]
  local verb, arg = id:match("^(%w+):?(.*)$")
  if s.phase ~= "main" or verb == "pass" or verb == "take" then
    if s.phase == "return" and verb == "return" then return CODE[arg] ~= nil and p.tokens[CODE[arg]] > 0 end
    if s.phase == "noble" and verb == "noble" then
      for _, i in ipairs(qualifying_nobles(s, p)) do if "noble:" .. i == id then return true end end
      return false
    end
    if s.phase ~= "main" then return false end
    for _, a in ipairs(main_actions(s, p, true)) do if a.id == id then return true end end
    return false
  end
  if verb == "take2" then return CODE[arg] ~= nil and CODE[arg] <= 5 and s.bank[CODE[arg]] >= 4 end
  if verb == "reserve" then
    if #p.reserved >= 3 then return false end
    local level = tonumber(arg:match("^deck(%d)$") or "")
    if level then return level >= 1 and level <= 3 and #s.decks[level] > 0 end
    local cid = math.tointeger(tonumber(arg))
    if not cid or not CARDS[cid] or tostring(cid) ~= arg then return false end
    for _, x in ipairs(s.market[CARDS[cid][1]]) do if x == cid then return true end end
    return false
  end
  if verb == "buy" then
    local cid = math.tointeger(tonumber(arg))
    if not cid or not CARDS[cid] or tostring(cid) ~= arg then return false end
    local held = false
    for _, x in ipairs(s.market[CARDS[cid][1]]) do if x == cid then held = true end end
    for _, res in ipairs(p.reserved) do if res.id == cid then held = true end end
    return held and payment(p, card_of(cid)) ~= nil
  end
  return false
end

function G.apply(s, seat, id)
  if s.over or seat ~= s.turn then return nil, "not this seat's turn" end
  if type(id) ~= "string" or not legal_id(s, seat, id) then return nil, "not a legal action: " .. tostring(id) end
  local p = s.players[seat]
  local verb, arg = id:match("^(%w+):?(.*)$")
  -- a whole round of passes (nobody can take, reserve or buy) ends the game where it stands
  if verb == "pass" then s.passes = (s.passes or 0) + 1 elseif s.phase == "main" then s.passes = 0 end
  if (s.passes or 0) >= s.n then s.turns = s.turns + 1; s.over = true; return true end
  if verb == "take" then
    for name in arg:gmatch("[^,]+") do local k = CODE[name]; s.bank[k] = s.bank[k] - 1; p.tokens[k] = p.tokens[k] + 1 end
  elseif verb == "take2" then
    local k = CODE[arg]
    s.bank[k] = s.bank[k] - 2; p.tokens[k] = p.tokens[k] + 2
  elseif verb == "reserve" then
    local level = tonumber(arg:match("^deck(%d)$") or "")
    if level then
      p.reserved[#p.reserved + 1] = { id = draw(s, level), blind = true }
    else
      local cid = tonumber(arg)
      local level_of = CARDS[cid][1]
      for slot, x in ipairs(s.market[level_of]) do
        if x == cid then s.market[level_of][slot] = draw(s, level_of) end
      end
      p.reserved[#p.reserved + 1] = { id = cid, blind = false }
    end
    if s.bank[GOLD] > 0 then s.bank[GOLD] = s.bank[GOLD] - 1; p.tokens[GOLD] = p.tokens[GOLD] + 1 end
  elseif verb == "buy" then
    local cid = tonumber(arg)
    local c = card_of(cid)
    local pay = payment(p, c)
    for k = 1, 6 do p.tokens[k] = p.tokens[k] - pay[k]; s.bank[k] = s.bank[k] + pay[k] end
    local from_reserve = false
    for j, res in ipairs(p.reserved) do
      if res.id == cid then table.remove(p.reserved, j); from_reserve = true; break end
    end
    if not from_reserve then
      for slot, x in ipairs(s.market[c.level]) do
        if x == cid then s.market[c.level][slot] = draw(s, c.level) end
      end
    end
    p.cards[#p.cards + 1] = cid
    p.bonus[c.bonus] = p.bonus[c.bonus] + 1
    p.points = p.points + c.points
  elseif verb == "return" then
    local k = CODE[arg]
    p.tokens[k] = p.tokens[k] - 1; s.bank[k] = s.bank[k] + 1
  elseif verb == "noble" then
    G._visit(s, p, tonumber(arg))
  end
  finish_turn(s, seat, verb == "noble")
  return true
end

function G.ranking(s)
  local keys, scores = {}, {}
  for i = 1, s.n do
    local p = s.players[i]
    scores[i] = p.points
    keys[i] = { p.points, -#p.cards }
  end
  return { ranks = kit.ranks(keys), scores = scores }
end

-- what a seat sees: everything public, its own reserved cards, and only the level of
-- another seat's card reserved unseen from a deck
function G.observation(s, seat)
  local o = { game = "splendor", seat = seat, n = s.n, turn = s.turn, phase = s.phase, over = s.over,
              final_round = s.final_round, scores = {}, bank = {}, market = {}, deck_sizes = {},
              nobles = {}, players = {} }
  for k = 1, 6 do o.bank[NAMES[k]] = s.bank[k] end
  local function card_view(id)
    local c = card_of(id)
    local cost = {}
    for k = 1, 5 do if c.cost[k] > 0 then cost[GEMS[k]] = c.cost[k] end end
    return { id = id, level = c.level, bonus = GEMS[c.bonus], points = c.points, cost = cost }
  end
  for level = 1, 3 do
    local row = {}
    for slot, id in ipairs(s.market[level]) do row[slot] = id > 0 and card_view(id) or { empty = true } end
    o.market[level] = row
    o.deck_sizes[level] = #s.decks[level]
  end
  for j, i in ipairs(s.nobles) do
    local need = {}
    for k = 1, 5 do if NOBLES[i][k] > 0 then need[GEMS[k]] = NOBLES[i][k] end end
    o.nobles[j] = { id = i, points = 3, needs = need }
  end
  for i = 1, s.n do
    local p = s.players[i]
    o.scores[i] = p.points
    local tokens, bonus, reserved = {}, {}, {}
    for k = 1, 6 do tokens[NAMES[k]] = p.tokens[k] end
    for k = 1, 5 do bonus[GEMS[k]] = p.bonus[k] end
    for j, res in ipairs(p.reserved) do
      if i == seat or not res.blind then reserved[j] = card_view(res.id)
      else reserved[j] = { hidden = true, level = CARDS[res.id][1] } end
    end
    o.players[i] = { points = p.points, tokens = tokens, bonus = bonus, cards = #p.cards,
                     reserved = reserved, nobles = kit.copy(p.nobles) }
  end
  return o
end

local function view_cost(cost)
  local parts = {}
  for _, g in ipairs(GEMS) do if cost[g] then parts[#parts + 1] = cost[g] .. " " .. g end end
  return #parts > 0 and table.concat(parts, ", ") or "free"
end
local function view_card(c)
  if c.empty then return "(empty)" end
  if c.hidden then return string.format("a level %d card reserved unseen", c.level) end
  return string.format("#%d L%d %s bonus, %d pt, cost %s", c.id, c.level, c.bonus, c.points, view_cost(c.cost))
end

-- G.svg(obs) -> the observation drawn for the viewer (games/splendor/svg.lua)
function G.svg(o) return require("games.splendor.svg").svg(o) end

function G.render(o)
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  add("Splendor. You are player %d of %d.%s%s", o.seat, o.n,
      o.over and " The game is over." or string.format(" Player %d to %s.", o.turn,
        o.phase == "return" and "return tokens down to 10" or o.phase == "noble" and "choose a noble" or "move"),
      o.final_round and " Final round (someone reached 15)." or "")
  local bank = {}
  for _, g in ipairs(NAMES) do bank[#bank + 1] = o.bank[g] .. " " .. g end
  add("Bank: %s", table.concat(bank, ", "))
  for level = 3, 1, -1 do
    add("Level %d (deck: %d left):", level, o.deck_sizes[level])
    for _, c in ipairs(o.market[level]) do add("  %s", view_card(c)) end
  end
  add("Nobles:")
  for _, nb in ipairs(o.nobles) do add("  noble %d: 3 pt, needs bonuses %s", nb.id, view_cost(nb.needs)) end
  for i, p in ipairs(o.players) do
    add("")
    local tk, bn = {}, {}
    for _, g in ipairs(NAMES) do if p.tokens[g] > 0 then tk[#tk + 1] = p.tokens[g] .. " " .. g end end
    for _, g in ipairs(GEMS) do if p.bonus[g] > 0 then bn[#bn + 1] = p.bonus[g] .. " " .. g end end
    add("Player %d%s: %d points, %d cards, nobles %d", i, i == o.seat and " (you)" or "", p.points, p.cards, #p.nobles)
    add("  tokens: %s", #tk > 0 and table.concat(tk, ", ") or "none")
    add("  bonuses: %s", #bn > 0 and table.concat(bn, ", ") or "none")
    for _, c in ipairs(p.reserved) do add("  reserved: %s", view_card(c)) end
  end
  return table.concat(out, "\n")
end

-- how many tokens of each colour the seat still lacks for the cards it could aim at
local function needs(s, p)
  local need = { 0, 0, 0, 0, 0 }
  local function add(id)
    if id > 0 then
      local c = card_of(id)
      for k = 1, 5 do need[k] = need[k] + math.max(0, c.cost[k] - p.bonus[k] - p.tokens[k]) end
    end
  end
  for level = 1, 3 do for _, id in ipairs(s.market[level]) do add(id) end end
  for _, res in ipairs(p.reserved) do add(res.id) end
  return need
end

-- heuristic: buy the most points (with nobles' colours a little more), take the tokens
-- the visible cards lack, reserve rarely, return what is needed least
local function score(s, p, id, need)
  local verb, arg = id:match("^(%w+):?(.*)$")
  if verb == "buy" then
    local c = card_of(tonumber(arg))
    local noble = 0
    for _, i in ipairs(s.nobles) do if NOBLES[i][c.bonus] > p.bonus[c.bonus] then noble = noble + 0.5 end end
    return 5 + 3 * c.points + noble - 0.1 * (payment(p, c)[GOLD] or 0)
  elseif verb == "take" or verb == "take2" then
    need = need or needs(s, p)
    local v, taken = verb == "take2" and 0.5 or 1, 0
    for name in arg:gmatch("[^,]+") do
      local k = CODE[name]
      local n = verb == "take2" and 2 or 1
      v = v + math.min(need[k], n) * 0.3
      taken = taken + n
    end
    if token_count(p) + taken > 10 then v = v - 1 end
    return v
  elseif verb == "reserve" then
    local cid = tonumber(arg)
    local v = s.bank[GOLD] > 0 and 0.8 or 0.2
    if cid then v = v + 0.3 * card_of(cid).points end
    return v
  elseif verb == "return" then
    local k = CODE[arg]
    if k == GOLD then return -5 end
    need = need or needs(s, p)
    return -need[k] + p.tokens[k] * 0.1
  elseif verb == "noble" then
    return 1
  end
  return -10
end

function G.heuristic(s, seat, id) return score(s, s.players[seat], id, nil) end

-- heuristic_all(s, seat, legal) -> the scores of a whole legal list (needs computed once)
function G.heuristic_all(s, seat, legal)
  local p = s.players[seat]
  local need = needs(s, p)
  local r = {}
  for i, a in ipairs(legal) do r[i] = score(s, p, a.id, need) end
  return r
end

-- estimate(state) -> per seat: points, plus a little for bonuses (future discounts) and
-- tokens (ISMCTS scores simulations cut short with it)
function G.estimate(s)
  local est = {}
  for i = 1, s.n do
    local p = s.players[i]
    local b = 0
    for k = 1, 5 do b = b + p.bonus[k] end
    est[i] = p.points + 0.4 * b + 0.1 * token_count(p)
  end
  return est
end

-- from `seat`'s view the unknown cards of a level are its deck and the other seats'
-- cards reserved unseen; they are dealt again at random, and the generator reseeded
function G.determinize(s, seat, rand)
  local d = kit.copy(s)
  for level = 1, 3 do
    local pool, slots = {}, {}
    for _, id in ipairs(d.decks[level]) do pool[#pool + 1] = id end
    for i = 1, d.n do
      if i ~= seat then
        for _, res in ipairs(d.players[i].reserved) do
          if res.blind and CARDS[res.id][1] == level then pool[#pool + 1] = res.id; slots[#slots + 1] = res end
        end
      end
    end
    table.sort(pool)       -- the unknown cards as a set: where they sat must not matter
    kit.shuffle(pool, rand)
    for j, res in ipairs(slots) do res.id = pool[j] end
    local deck = {}
    for j = #slots + 1, #pool do deck[#deck + 1] = pool[j] end
    d.decks[level] = deck
  end
  d.rng = kit.seed_state(rand(0x7FFFFFFF))
  return d
end

G.match_work = 59   -- seconds per baseline match with ISMCTS at 1024 simulations (games/README.md)

return G
