-- games.wingspan — Wingspan (Elizabeth Hargrave, Stonemaier Games 2019; base game: 170 birds,
-- 26 bonus cards, 8 goal tiles; 2-5 players, no Automa, no expansions) against the game
-- interface of games/README.md. A turn is split into sub-decisions (the action, then each
-- choice it asks for: food payment, eggs to pay, dice to take, eggs to lay, cards to draw,
-- each optional or choosing brown power, white powers, and pink powers of other seats, which
-- make those seats current out of turn). Choices with a single option are made at once.
-- Components: games/wingspan/data.lua and birds.lua; choices where the rulebook leaves room:
-- games/wingspan/RULES.md; the drawing: games/wingspan/svg.lua.
local kit = require "games.kit"
local D = require "games.wingspan.data"

local G = {
  name = "wingspan", title = "Wingspan", players = { min = 2, max = 5 },
  annotations = { engine = 2, spatial = 0, sequencing = 2, coupling = 1, hidden = 2, scoring = 2 },
  rules_file = "games/wingspan/rules.md",
  data = D,
}

local BIRD, BONUS = {}, {}
for _, b in ipairs(D.BIRDS) do BIRD[b.id] = b end
for _, c in ipairs(D.BONUS) do BONUS[c.id] = c end
G.BIRD, G.BONUS = BIRD, BONUS
local FOODS, HABS = D.FOODS, D.HABITATS
local L = D.LETTER_OF

local function rnd(s) return function(k) return kit.rand(s, k) end end

-- bird helpers ----------------------------------------------------------------------------

local function lives(b, hab)
  for _, h in ipairs(b.habitats) do if h == hab then return true end end
  return false
end
local function nest_is(b, nest) return b.nest == nest or b.nest == "star" end
local function eats(b, f)
  for _, c in ipairs(b.cost) do if c == f then return true end end
  return false
end
G.lives, G.nest_is = lives, nest_is

local POWER_WORDS = {
  gain = function(b) return "gain 1 " .. D.FOOD_LETTER[b.p1] .. " from the supply" end,
  cache = function(b) return "cache 1 " .. D.FOOD_LETTER[b.p1] .. " from the supply on this bird" end,
  feeder = function(b)
    local w = {}
    for c in b.p1:gmatch(".") do w[#w + 1] = D.FOOD_LETTER[c] end
    return "gain 1 " .. table.concat(w, " or ") .. " from the birdfeeder, if there is one"
  end,
  feeder_cache = function(b) return "gain 1 " .. D.FOOD_LETTER[b.p1] .. " from the birdfeeder, if there is one; you may cache it on this bird" end,
  each_feeder = function() return "each player gains 1 die from the birdfeeder, starting with the player you choose" end,
  fewest_feeder = function(b) return "the player(s) with the fewest birds in their " .. D.HAB_LETTER[b.p1] .. " gain 1 die from the birdfeeder" end,
  fewest_draw = function(b) return "the player(s) with the fewest birds in their " .. D.HAB_LETTER[b.p1] .. " draw 1 card" end,
  all_gain = function(b) return "every player gains 1 " .. D.FOOD_LETTER[b.p1] .. " from the supply" end,
  all_draw = function() return "every player draws 1 card from the deck" end,
  all_lay = function(b) return "every player lays 1 egg on a " .. D.NESTS[b.p1] .. "-nest bird, and may lay 1 more on another one" end,
  lay_any = function() return "lay 1 egg on any bird" end,
  lay_self = function() return "lay 1 egg on this bird" end,
  draw = function(b) return "draw " .. b.p1 .. " card(s) from the deck" end,
  draw_discard = function(b) return "you may draw " .. b.p1 .. " card(s) from the deck; if you do, discard 1 card from your hand at the end of your turn" end,
  egg_draw = function() return "you may discard 1 egg from any of your birds to draw 2 cards" end,
  egg_food = function(b) return "you may discard 1 egg from another of your birds to gain " .. b.p1 .. " food of your choice from the supply" end,
  food_tuck = function(b) return "you may discard 1 " .. D.FOOD_LETTER[b.p1] .. " to tuck 2 cards from the deck behind this bird" end,
  tuck_draw = function() return "you may tuck 1 card from your hand behind this bird; if you do, draw 1 card" end,
  tuck_gain = function(b)
    local w = {}
    for c in b.p1:gmatch(".") do w[#w + 1] = D.FOOD_LETTER[c] end
    return "you may tuck 1 card from your hand behind this bird; if you do, gain 1 " .. table.concat(w, " or ") .. " from the supply"
  end,
  tuck_lay = function() return "you may tuck 1 card from your hand behind this bird; if you do, lay 1 egg on this bird" end,
  hunt = function(b) return "predator: look at the top card of the deck; wingspan under " .. b.p1 .. " cm: tuck it behind this bird, else discard it" end,
  roll = function(b) return "predator: roll the dice not in the birdfeeder; if any shows " .. D.FOOD_LETTER[b.p1] .. ", cache 1 " .. D.FOOD_LETTER[b.p1] .. " on this bird" end,
  ["repeat"] = function() return "you may repeat the brown power of another bird in this habitat" end,
  repeat_pred = function() return "you may repeat the predator power of another bird in this habitat" end,
  trade = function() return "you may trade 1 food for 1 food of another type from the supply" end,
  move = function() return "if this bird is the rightmost in its habitat, you may move it to another habitat it can live in" end,
  -- white
  bonus = function() return "draw 2 bonus cards and keep 1" end,
  draft = function() return "draw (players + 1) cards face up; from you on, each player takes 1; you keep the extra" end,
  feeder_all = function(b) return "gain every " .. D.FOOD_LETTER[b.p1] .. " die in the birdfeeder" end,
  lay_nest = function(b) return "lay 1 egg on each of your birds with a " .. D.NESTS[b.p1] .. " nest" end,
  play = function(b)
    return "play another bird in " .. (b.p1 == "here" and "this bird's habitat" or ("your " .. D.HAB_LETTER[b.p1])) .. ", paying its cost"
  end,
  -- pink
  play_gain = function(b) return "when another player plays a bird in their " .. D.HAB_LETTER[b.p1] .. ", gain 1 " .. D.FOOD_LETTER[b.p2] .. " from the supply" end,
  play_tuck = function(b) return "when another player plays a bird in their " .. D.HAB_LETTER[b.p1] .. ", you may tuck 1 card from your hand behind this bird" end,
  food_cache = function(b) return "when another player's gain-food action gains a " .. D.FOOD_LETTER[b.p1] .. ", cache 1 " .. D.FOOD_LETTER[b.p1] .. " from the supply on this bird" end,
  lay = function(b) return "when another player takes the lay-eggs action, lay 1 egg on a bird with a " .. D.NESTS[b.p1] .. " nest" end,
  lay_other = function(b) return "when another player takes the lay-eggs action, lay 1 egg on another bird with a " .. D.NESTS[b.p1] .. " nest" end,
  predator = function() return "when another player's predator succeeds, gain 1 die from the birdfeeder" end,
}
G.POWER_WORDS = POWER_WORDS

local function power_words(b)
  if not b.family then return "no power" end
  local w = POWER_WORDS[b.family](b)
  local when = ({ brown = "brown", white = "white", pink = "pink" })[b.colour]
  return when .. ": " .. w
end
G.power_words = power_words

local function cost_words(b)
  if #b.cost == 0 then return "no food" end
  return table.concat(b.cost, b.any and " or " or " + ")
end

local HAB_SHORT = { forest = "F", grassland = "G", wetland = "W" }
local function bird_words(id)
  local b = BIRD[id]
  local h = {}
  for j, x in ipairs(b.habitats) do h[j] = HAB_SHORT[x] end
  return string.format("%s (%s; %s; %dpt; %s/%d; %dcm; %s)", id, table.concat(h), cost_words(b), b.points,
    b.nest, b.eggs, b.wingspan, power_words(b))
end
G.bird_words = bird_words

-- state helpers --------------------------------------------------------------------------

local function row(p, hab) return p.rows[hab] end
local function all_birds(p)
  local out = {}
  for _, h in ipairs(HABS) do for c, x in ipairs(p.rows[h]) do out[#out + 1] = { hab = h, col = c, bird = x } end end
  return out
end
local function find(p, id)
  for _, h in ipairs(HABS) do for c, x in ipairs(p.rows[h]) do if x.id == id then return x, h, c end end end
end
local function remove_value(list, v)
  for i, x in ipairs(list) do if x == v then table.remove(list, i); return true end end
  return false
end
local function food_total(p)
  local k = 0
  for _, f in ipairs(FOODS) do k = k + p.food[f] end
  return k
end

local function push(s, t) s.tasks[#s.tasks + 1] = t end
-- sched(s, list): the tasks of list run next, in list order
local function sched(s, list) for i = #list, 1, -1 do push(s, list[i]) end end

local function roll_feeder(s)
  s.feeder = {}
  for k = 1, D.DICE do s.feeder[k] = D.DIE_FACES[kit.rand(s, 6)] end
end

-- draw_deck(s) -> a bird id from the deck (the discard pile is reshuffled into an empty deck), or nil
local function draw_deck(s)
  if #s.deck == 0 and #s.discard > 0 then
    for _, e in ipairs(s.discard) do s.deck[#s.deck + 1] = e.id end
    s.discard = {}
    kit.shuffle(s.deck, rnd(s))
  end
  return table.remove(s.deck)
end
local function draw_to_hand(s, seat, k)
  local p = s.players[seat]
  for _ = 1, k do
    local id = draw_deck(s)
    if not id then return end
    p.hand[#p.hand + 1] = id
  end
end
local function draw_bonus(s)
  if #s.bonus_deck == 0 and #s.bonus_discard > 0 then
    for _, e in ipairs(s.bonus_discard) do s.bonus_deck[#s.bonus_deck + 1] = e.id end
    s.bonus_discard = {}
    kit.shuffle(s.bonus_deck, rnd(s))
  end
  return table.remove(s.bonus_deck)
end
local function refill_tray(s)
  while #s.tray < D.TRAY do
    local id = draw_deck(s)
    if not id then return end
    s.tray[#s.tray + 1] = id
  end
end

local function room(x) return x.eggs < BIRD[x.id].eggs end

-- scoring --------------------------------------------------------------------------------

-- bonus_count(p, card) -> how many of p's birds (or cards in hand) the bonus card counts
local function bonus_count(p, card)
  local kind, arg = card.test:match("^([%w_]+):?(.*)$")
  if kind == "hand" then return #p.hand end
  if kind == "ecologist" then
    local m = math.huge
    for _, h in ipairs(HABS) do m = math.min(m, #p.rows[h]) end
    return m
  end
  local k = 0
  for _, e in ipairs(all_birds(p)) do
    local b, x = BIRD[e.bird.id], e.bird
    local ok
    if kind == "word" then ok = b.words:find(arg, 1, true) ~= nil
    elseif kind == "points_lt" then ok = b.points < tonumber(arg)
    elseif kind == "flocking" then ok = D.FLOCKING[b.family] == true
    elseif kind == "predator" then ok = D.PREDATOR[b.family] == true
    elseif kind == "eats" then ok = eats(b, arg)
    elseif kind == "only" then
      ok = #b.cost > 0
      for _, c in ipairs(b.cost) do if c ~= arg then ok = false end end
    elseif kind == "eggs_ge" then ok = x.eggs >= tonumber(arg)
    elseif kind == "nest" then ok = nest_is(b, arg)
    elseif kind == "only_hab" then ok = #b.habitats == 1 and b.habitats[1] == arg
    elseif kind == "wing_gt" then ok = b.wingspan > tonumber(arg)
    elseif kind == "wing_le" then ok = b.wingspan <= tonumber(arg)
    end
    if ok then k = k + 1 end
  end
  return k
end
G.bonus_count = bonus_count

-- qualifies(bird id, card) -> whether a bird counts for a bird-list bonus card (for the manifest)
function G.qualifies(id, card)
  local p = { rows = { forest = { { id = id, eggs = 0, cache = 0, tucked = 0 } }, grassland = {}, wetland = {} }, hand = {} }
  return bonus_count(p, card) > 0
end

local function bonus_points(p, card)
  local k = bonus_count(p, card)
  if card.per then return k * card.per end
  local v = 0
  for _, tier in ipairs(card.tiers) do if k >= tier[1] then v = tier[2] end end
  return v
end
G.bonus_points = bonus_points

-- goal_count(p, goal) -> the count a round goal measures
local function goal_count(p, goal)
  local kind, arg = goal:match("^([%w_]+):?(.*)$")
  if kind == "birds" then return #p.rows[arg] end
  if kind == "total_birds" then return #all_birds(p) end
  if kind == "eggs_hab" or kind == "egg_sets" then
    local m = math.huge
    for _, h in ipairs(HABS) do
      local e = 0
      for _, x in ipairs(p.rows[h]) do e = e + x.eggs end
      if kind == "eggs_hab" and h == arg then return e end
      m = math.min(m, e)
    end
    return m
  end
  local k = 0
  for _, e in ipairs(all_birds(p)) do
    if nest_is(BIRD[e.bird.id], arg) then
      if kind == "eggs_nest" then k = k + e.bird.eggs elseif e.bird.eggs > 0 then k = k + 1 end
    end
  end
  return k
end
G.goal_count = goal_count

-- goal_points(counts, round, side) -> per seat: the points of one round goal
local function goal_points(counts, round, side)
  local out = {}
  if side == "blue" then
    for i, c in ipairs(counts) do out[i] = math.min(c, D.GOAL_BLUE_MAX) end
    return out
  end
  local places = D.GOAL_GREEN[round]
  for i, c in ipairs(counts) do
    if c <= 0 then out[i] = 0 else
      local ahead, tied = 0, 0
      for _, d in ipairs(counts) do
        if d > c then ahead = ahead + 1 elseif d == c then tied = tied + 1 end
      end
      local sum = 0
      for k = ahead + 1, ahead + tied do sum = sum + (places[k] or 0) end
      out[i] = sum // tied
    end
  end
  return out
end
G.goal_points = goal_points

-- score_of(p [, with_bonus]) -> total, breakdown (birds, eggs, cached, tucked, goals, bonus)
local function score_of(p, with_bonus)
  local b = { birds = 0, eggs = 0, cached = 0, tucked = 0, goals = 0, bonus = 0 }
  for _, e in ipairs(all_birds(p)) do
    b.birds = b.birds + BIRD[e.bird.id].points
    b.eggs = b.eggs + e.bird.eggs
    b.cached = b.cached + e.bird.cache
    b.tucked = b.tucked + e.bird.tucked
  end
  for _, v in ipairs(p.goal_points) do b.goals = b.goals + v end
  if with_bonus then for _, id in ipairs(p.bonus) do b.bonus = b.bonus + bonus_points(p, BONUS[id]) end end
  return b.birds + b.eggs + b.cached + b.tucked + b.goals + b.bonus, b
end
G.score_of = score_of

-- food payments ------------------------------------------------------------------------------

-- payments(food, b) -> sorted list of payment strings (food letters in the order i s f b r):
-- every distinct way to pay the cost from the food held; a food that cannot be paid may be
-- replaced by any 2 food (the rulebook's 2-for-1), offered only when no direct payment exists
local function payments(food, b)
  if #b.cost == 0 then return { "" } end
  local seen, out = {}, {}
  local have = {}
  for _, f in ipairs(FOODS) do have[f] = food[f] end
  local function add(spent)
    local w = {}
    for _, f in ipairs(FOODS) do for _ = 1, spent[f] or 0 do w[#w + 1] = L[f] end end
    local key = table.concat(w)
    if not seen[key] then seen[key] = true; out[#out + 1] = key end
  end
  local function rec(items, i, spent, subst)
    if i > #items then add(spent); return end
    local it = items[i]
    local opts = it == "wild" and FOODS or { it }
    for _, f in ipairs(opts) do
      if have[f] > 0 then
        have[f] = have[f] - 1; spent[f] = (spent[f] or 0) + 1
        rec(items, i + 1, spent, subst)
        have[f] = have[f] + 1; spent[f] = spent[f] - 1
      end
    end
    if subst then
      for a = 1, 5 do
        for c = a, 5 do
          local fa, fc = FOODS[a], FOODS[c]
          if fa ~= it and fc ~= it and have[fa] > 0 then
            have[fa] = have[fa] - 1
            if have[fc] > 0 then
              have[fc] = have[fc] - 1
              spent[fa] = (spent[fa] or 0) + 1; spent[fc] = (spent[fc] or 0) + 1
              rec(items, i + 1, spent, subst)
              spent[fa] = spent[fa] - 1; spent[fc] = spent[fc] - 1
              have[fc] = have[fc] + 1
            end
            have[fa] = have[fa] + 1
          end
        end
      end
    end
  end
  local function all(subst)
    if b.any then for _, it in ipairs(b.cost) do rec({ it }, 1, {}, subst) end
    else rec(b.cost, 1, {}, subst) end
  end
  all(false)
  if #out == 0 then all(true) end
  table.sort(out)
  return out
end
G.payments = payments

local function eggs_on_board(p, except)
  local k = 0
  for _, e in ipairs(all_birds(p)) do if e.bird.id ~= except then k = k + e.bird.eggs end end
  return k
end

-- can_play(p, id, hab) -> whether bird id (in hand) may be played into hab now
local function can_play(p, id, hab)
  local b = BIRD[id]
  local col = #p.rows[hab] + 1
  if col > D.COLUMNS or not lives(b, hab) then return false end
  if eggs_on_board(p) < D.EGG_COST[col] then return false end
  return #payments(p.food, b) > 0
end
G.can_play = can_play

local function play_options(p, only_hab)
  local out = {}
  for _, id in ipairs(p.hand) do
    for _, h in ipairs(HABS) do
      if (not only_hab or only_hab == h) and can_play(p, id, h) then out[#out + 1] = { id, h } end
    end
  end
  return out
end

-- setup ---------------------------------------------------------------------------------------

function G.setup(n, seed, opts)
  if type(n) ~= "number" or n < G.players.min or n > G.players.max then
    error("Wingspan is for 2 to 5 players here, not " .. tostring(n), 2)
  end
  opts = opts or {}
  local s = { n = n, rng = kit.seed_state(seed), round = 1, turn = 1, first = 1, over = false, phase = "setup",
              goal_side = opts.goal_side or "green", deck = {}, tray = {}, discard = {}, bonus_deck = {}, bonus_discard = {},
              feeder = {}, goals = {}, round_goals = {}, tasks = {}, players = {}, cubes = {}, draft = {} }
  for i, b in ipairs(D.BIRDS) do s.deck[i] = b.id end
  kit.shuffle(s.deck, rnd(s))
  for i, c in ipairs(D.BONUS) do s.bonus_deck[i] = c.id end
  kit.shuffle(s.bonus_deck, rnd(s))
  local tiles = {}
  for i = 1, #D.GOAL_TILES do tiles[i] = i end
  kit.shuffle(tiles, rnd(s))
  for r = 1, D.ROUNDS do s.goals[r] = D.GOAL_TILES[tiles[r]][kit.rand(s, 2)] end
  for i = 1, n do
    local p = { hand = {}, shown = {}, bonus = {}, food = {}, rows = { forest = {}, grassland = {}, wetland = {} },
                goal_points = {}, pink_used = {}, owed = 0, dealt = {}, dealt_bonus = {}, kept = {}, ready = false }
    for _, f in ipairs(FOODS) do p.food[f] = 1 end
    for k = 1, D.START_BIRDS do p.dealt[k] = table.remove(s.deck) end
    for k = 1, D.START_BONUS do p.dealt_bonus[k] = table.remove(s.bonus_deck) end
    s.players[i] = p
    s.cubes[i] = D.CUBES[1]
  end
  refill_tray(s)
  roll_feeder(s)
  local list = {}
  for i = 1, n do list[#list + 1] = { k = "setup_birds", seat = i } end
  list[#list + 1] = { k = "start" }
  sched(s, list)
  G.run(s)
  return s
end

function G.is_terminal(s) return s.over end
function G.current_seats(s)
  if s.over or not s.ask then return {} end
  return { s.ask.seat }
end

-- tasks and decisions ---------------------------------------------------------------------
-- s.tasks is a stack of plain tables {k = kind, ...}; a task either acts at once or opens the
-- decision s.ask = {kind = ..., seat = ...}; OPTIONS[kind] lists its choices and CHOOSE[kind]
-- applies one. G.run works the stack until a decision with two or more choices is open.

local TASK, OPTIONS, CHOOSE = {}, {}, {}

local function ask(s, a) s.ask = a end

local function lay_targets(p, t)
  local out = {}
  for _, e in ipairs(all_birds(p)) do
    local x = e.bird
    if room(x) and (not t.nest or nest_is(BIRD[x.id], t.nest)) and x.id ~= t.except and x.id ~= t.except2 then
      out[#out + 1] = e
    end
  end
  return out
end

local function feeder_all_same(s)
  if #s.feeder == 0 then return false end
  for _, f in ipairs(s.feeder) do if f ~= s.feeder[1] then return false end end
  return true
end

-- pink triggers: seats after the actor, in turn order, each bird's pink power at most once
-- between its owner's turns
local PINK_EVENT = { play_gain = "play", play_tuck = "play", food_cache = "food", lay = "eggs", lay_other = "eggs", predator = "predator" }
local function pink(s, event, actor, hab)
  local list = {}
  for k = 1, s.n - 1 do
    local seat = (actor + k - 1) % s.n + 1
    local p = s.players[seat]
    for _, e in ipairs(all_birds(p)) do
      local b = BIRD[e.bird.id]
      if b.colour == "pink" and PINK_EVENT[b.family] == event and (event ~= "play" or b.p1:upper() == HAB_SHORT[hab]) then
        local used = false
        for _, u in ipairs(p.pink_used) do if u == b.id then used = true end end
        if b.family == "food_cache" and not s.ev_rodent then used = true end
        if not used then
          p.pink_used[#p.pink_used + 1] = b.id
          list[#list + 1] = { k = "pink_power", seat = seat, bird = b.id }
        end
      end
    end
  end
  sched(s, list)
end

TASK.setup_birds = function(s, t) ask(s, { kind = "setup_birds", seat = t.seat }) end
OPTIONS.setup_birds = function(s, a)
  local p, out = s.players[a.seat], {}
  for _, id in ipairs(p.dealt) do
    out[#out + 1] = { "keep:" .. id, function() return "keep " .. bird_words(id) .. " (pay 1 food for it)" end }
  end
  out[#out + 1] = { "done", function()
    return #p.kept == 0 and "keep none of the dealt birds" or ("keep only " .. table.concat(p.kept, ", ") .. "; discard the rest")
  end }
  return out
end
CHOOSE.setup_birds = function(s, a, id)
  local p = s.players[a.seat]
  if id == "done" then
    for _, b in ipairs(p.dealt) do s.discard[#s.discard + 1] = { id = b, by = a.seat } end
    p.dealt = {}
    for _, b in ipairs(p.kept) do p.hand[#p.hand + 1] = b end
    local list = {}
    for _ = 1, #p.kept do list[#list + 1] = { k = "setup_food", seat = a.seat } end
    list[#list + 1] = { k = "setup_bonus", seat = a.seat }
    p.kept = {}
    sched(s, list)
  else
    local b = id:sub(6)
    remove_value(p.dealt, b)
    p.kept[#p.kept + 1] = b
    if #p.dealt > 0 then push(s, { k = "setup_birds", seat = a.seat }) else CHOOSE.setup_birds(s, a, "done") end
  end
end

TASK.setup_food = function(s, t) ask(s, { kind = "setup_food", seat = t.seat }) end
OPTIONS.setup_food = function(s, a)
  local p, out = s.players[a.seat], {}
  for _, f in ipairs(FOODS) do
    if p.food[f] > 0 then out[#out + 1] = { "drop:" .. f, function() return "give back 1 " .. f .. " (for a bird kept)" end } end
  end
  return out
end
CHOOSE.setup_food = function(s, a, id)
  local p = s.players[a.seat]
  local f = id:sub(6)
  p.food[f] = p.food[f] - 1
end

TASK.setup_bonus = function(s, t) ask(s, { kind = "setup_bonus", seat = t.seat }) end
local function bonus_words(id)
  local c = BONUS[id]
  local pts
  if c.per then pts = c.per .. " per bird" else
    local w = {}
    for _, tr in ipairs(c.tiers) do w[#w + 1] = tr[1] .. "+: " .. tr[2] end
    pts = table.concat(w, ", ")
  end
  return string.format("%s (%s: %s)", c.id, c.what, pts)
end
G.bonus_words = bonus_words
OPTIONS.setup_bonus = function(s, a)
  local p, out = s.players[a.seat], {}
  for _, id in ipairs(p.dealt_bonus) do out[#out + 1] = { "bonus:" .. id, function() return "keep the bonus card " .. bonus_words(id) end } end
  return out
end
CHOOSE.setup_bonus = function(s, a, id)
  local p = s.players[a.seat]
  local c = id:sub(7)
  for _, x in ipairs(p.dealt_bonus) do
    if x == c then p.bonus[#p.bonus + 1] = x else s.bonus_discard[#s.bonus_discard + 1] = { id = x, by = a.seat } end
  end
  p.dealt_bonus = {}
  p.ready = true
end

TASK.start = function(s)
  s.phase = "play"
  push(s, { k = "turn" })
end

TASK.turn = function(s)
  local p = s.players[s.turn]
  p.pink_used = {}
  ask(s, { kind = "action", seat = s.turn })
end

local ACTION_WORDS = { food = "gain food (forest)", eggs = "lay eggs (grassland)", cards = "draw cards (wetland)" }
local HAB_OF = { food = "forest", eggs = "grassland", cards = "wetland" }
OPTIONS.action = function(s, a)
  local p, out = s.players[a.seat], {}
  for _, o in ipairs(play_options(p)) do
    local id, h = o[1], o[2]
    out[#out + 1] = { "play:" .. id .. ":" .. h, function()
      return string.format("play %s into your %s, column %d (%d egg(s))", bird_words(id), h, #p.rows[h] + 1, D.EGG_COST[#p.rows[h] + 1])
    end }
  end
  for _, act in ipairs({ "food", "eggs", "cards" }) do
    out[#out + 1] = { act, function()
      local h = HAB_OF[act]
      local k = #p.rows[h] + 1
      return string.format("%s: %d%s, then activate the %s birds right to left", ACTION_WORDS[act], D.ROW_GAIN[h][k],
        D.ROW_TRADE[k] and " (+1 by a trade)" or "", h)
    end }
  end
  return out
end

-- start_play(s, seat, id, hab): the bird goes into the row; then its food and egg costs are
-- paid, its white power resolves, and other seats' pink powers answer
local function start_play(s, seat, id, hab)
  local p = s.players[seat]
  local col = #p.rows[hab] + 1
  remove_value(p.hand, id); remove_value(p.shown, id)
  p.rows[hab][col] = { id = id, eggs = 0, cache = 0, tucked = 0 }
  local list = { { k = "pay_food", seat = seat, bird = id } }
  for _ = 1, D.EGG_COST[col] do list[#list + 1] = { k = "pay_egg", seat = seat, bird = id } end
  if BIRD[id].colour == "white" then list[#list + 1] = { k = "white", seat = seat, bird = id } end
  list[#list + 1] = { k = "pink", event = "play", actor = seat, hab = hab }
  sched(s, list)
end

local function start_action(s, seat, act)
  local p = s.players[seat]
  local hab = HAB_OF[act]
  local k = #p.rows[hab] + 1
  local list = {}
  if D.ROW_TRADE[k] then list[#list + 1] = { k = "mat_trade", seat = seat, hab = hab } end
  if act == "food" then
    s.ev_rodent = false
    list[#list + 1] = { k = "gain", seat = seat, n = D.ROW_GAIN[hab][k], action = true }
    list[#list + 1] = { k = "pink", event = "food", actor = seat }
  elseif act == "eggs" then
    list[#list + 1] = { k = "lay", seat = seat, n = D.ROW_GAIN[hab][k] }
    list[#list + 1] = { k = "pink", event = "eggs", actor = seat }
  else
    list[#list + 1] = { k = "draw", seat = seat, n = D.ROW_GAIN[hab][k] }
  end
  list[#list + 1] = { k = "activate", seat = seat, hab = hab, col = k - 1 }
  sched(s, list)
end

CHOOSE.action = function(s, a, id)
  s.cubes[a.seat] = s.cubes[a.seat] - 1
  push(s, { k = "end_turn", seat = a.seat })
  local bird, hab = id:match("^play:([%w_]+):(%a+)$")
  if bird then start_play(s, a.seat, bird, hab) else start_action(s, a.seat, id) end
end

TASK.pink = function(s, t) pink(s, t.event, t.actor, t.hab) end

TASK.pay_food = function(s, t) ask(s, { kind = "pay_food", seat = t.seat, bird = t.bird }) end
OPTIONS.pay_food = function(s, a)
  local out = {}
  for _, w in ipairs(payments(s.players[a.seat].food, BIRD[a.bird])) do
    if w == "" then return {} end
    out[#out + 1] = { "pay:" .. w, function()
      local names = {}
      for c in w:gmatch(".") do names[#names + 1] = D.FOOD_LETTER[c] end
      return "pay " .. table.concat(names, ", ") .. " for " .. a.bird
    end }
  end
  return out
end
CHOOSE.pay_food = function(s, a, id)
  local p = s.players[a.seat]
  for c in id:sub(5):gmatch(".") do local f = D.FOOD_LETTER[c]; p.food[f] = p.food[f] - 1 end
end

local function egg_options(p, prefix, except, verb)
  local out = {}
  for _, e in ipairs(all_birds(p)) do
    if e.bird.eggs > 0 and e.bird.id ~= except then
      out[#out + 1] = { prefix .. e.hab .. ":" .. e.col, function()
        return string.format("%s 1 egg from %s (%s column %d, %d egg(s))", verb, e.bird.id, e.hab, e.col, e.bird.eggs)
      end }
    end
  end
  return out
end
local function bird_at(p, hab, col) return p.rows[hab] and p.rows[hab][tonumber(col)] end

TASK.pay_egg = function(s, t) ask(s, { kind = "pay_egg", seat = t.seat, bird = t.bird }) end
OPTIONS.pay_egg = function(s, a) return egg_options(s.players[a.seat], "egg:", a.bird, "pay") end
CHOOSE.pay_egg = function(s, a, id)
  local h, c = id:match("^egg:(%a+):(%d)$")
  local x = bird_at(s.players[a.seat], h, c)
  x.eggs = x.eggs - 1
end

-- the mat's trade on spaces 2, 4, 6 of a row: forest a card for a die, grassland a food for an
-- egg, wetland an egg for a card
TASK.mat_trade = function(s, t) ask(s, { kind = "mat_trade", seat = t.seat, hab = t.hab }) end
OPTIONS.mat_trade = function(s, a)
  local p, out = s.players[a.seat], {}
  if a.hab == "forest" then
    for _, id in ipairs(p.hand) do out[#out + 1] = { "trade:" .. id, function() return "discard " .. id .. " from your hand for 1 more die" end } end
  elseif a.hab == "grassland" then
    for _, f in ipairs(FOODS) do
      if p.food[f] > 0 then out[#out + 1] = { "trade:" .. f, function() return "pay 1 " .. f .. " for 1 more egg" end } end
    end
  else
    out = egg_options(p, "trade:", nil, "discard")
    for _, o in ipairs(out) do local f = o[2]; o[2] = function() return f() .. " for 1 more card" end end
  end
  if #out > 0 then out[#out + 1] = { "notrade", function() return "no trade" end } end
  return out
end
CHOOSE.mat_trade = function(s, a, id)
  if id == "notrade" then return end
  local p = s.players[a.seat]
  local arg = id:sub(7)
  if a.hab == "forest" then
    remove_value(p.hand, arg); remove_value(p.shown, arg)
    s.discard[#s.discard + 1] = { id = arg, by = a.seat }
    s.tasks[#s.tasks].n = s.tasks[#s.tasks].n + 1          -- the gain task that follows
  elseif a.hab == "grassland" then
    p.food[arg] = p.food[arg] - 1
    s.tasks[#s.tasks].n = s.tasks[#s.tasks].n + 1
  else
    local h, c = arg:match("^(%a+):(%d)$")
    local x = bird_at(p, h, c)
    x.eggs = x.eggs - 1
    s.tasks[#s.tasks].n = s.tasks[#s.tasks].n + 1
  end
end

-- gain dice from the feeder: t.n dice, t.only (food letters allowed, nil = any), t.cache (a
-- bird id that may cache it), t.action (the gain-food action: a rodent wakes the shrikes)
TASK.gain = function(s, t)
  if t.n <= 0 then return end
  if #s.feeder == 0 then roll_feeder(s) end
  ask(s, { kind = "die", seat = t.seat, n = t.n, only = t.only, cache = t.cache, action = t.action })
end
local function die_allowed(a, food) return not a.only or a.only:find(L[food], 1, true) ~= nil end
OPTIONS.die = function(s, a)
  local out, seen = {}, {}
  for _, face in ipairs(s.feeder) do
    if not seen[face] then
      seen[face] = true
      local choices = face == "invertebrate/seed" and { "invertebrate", "seed" } or { face }
      for _, f in ipairs(choices) do
        if die_allowed(a, f) then
          local id = face == "invertebrate/seed" and ("take:x:" .. L[f]) or ("take:" .. L[f])
          out[#out + 1] = { id, function()
            return "take a " .. face .. " die from the birdfeeder as 1 " .. f .. (a.n > 1 and (" (" .. a.n .. " to take)") or "")
          end }
        end
      end
    end
  end
  if feeder_all_same(s) then
    out[#out + 1] = { "reroll", function() return "reroll all five dice first (every die in the feeder shows the same face)" end }
    if #out == 1 then out[#out + 1] = { "skip", function() return "take nothing" end } end
  end
  return out
end
CHOOSE.die = function(s, a, id)
  if id == "skip" then return end
  if id == "reroll" then
    roll_feeder(s)
    push(s, { k = "gain", seat = a.seat, n = a.n, only = a.only, cache = a.cache, action = a.action })
    return
  end
  local p = s.players[a.seat]
  local dual, letter = id:match("^take:(x?):?(%a)$")
  local f = D.FOOD_LETTER[letter]
  local face = dual == "x" and "invertebrate/seed" or f
  remove_value(s.feeder, face)
  if a.n > 1 then push(s, { k = "gain", seat = a.seat, n = a.n - 1, only = a.only, cache = a.cache, action = a.action }) end
  if a.action and f == "rodent" then s.ev_rodent = true end
  p.food[f] = p.food[f] + 1
  if a.cache then push(s, { k = "cache_choice", seat = a.seat, bird = a.cache, food = f }) end
end

TASK.cache_choice = function(s, t) ask(s, { kind = "cache_choice", seat = t.seat, bird = t.bird, food = t.food }) end
OPTIONS.cache_choice = function(s, a)
  return { { "cache", function() return "cache the " .. a.food .. " on " .. a.bird .. " (1 point)" end },
           { "keep", function() return "keep the " .. a.food .. " in your supply" end } }
end
CHOOSE.cache_choice = function(s, a, id)
  if id == "cache" then
    local p = s.players[a.seat]
    p.food[a.food] = p.food[a.food] - 1
    find(p, a.bird).cache = find(p, a.bird).cache + 1
  end
end

-- lay eggs: t.n eggs, t.nest (nil = any), t.except (a bird id), t.optional (may stop)
TASK.lay = function(s, t)
  if t.mark then s.last_laid = nil end
  if t.n <= 0 then return end
  ask(s, { kind = "lay", seat = t.seat, n = t.n, nest = t.nest, except = t.except, except2 = t.except2, optional = t.optional, mark = t.mark })
end
OPTIONS.lay = function(s, a)
  local out = {}
  for _, e in ipairs(lay_targets(s.players[a.seat], a)) do
    out[#out + 1] = { "lay:" .. e.hab .. ":" .. e.col, function()
      return string.format("lay an egg on %s (%s column %d, %d/%d)%s", e.bird.id, e.hab, e.col, e.bird.eggs, BIRD[e.bird.id].eggs,
        a.n > 1 and (" (" .. a.n .. " to lay)") or "")
    end }
  end
  if a.optional and #out > 0 then out[#out + 1] = { "skip", function() return "lay no more" end } end
  return out
end
CHOOSE.lay = function(s, a, id)
  if id == "skip" then return end
  local h, c = id:match("^lay:(%a+):(%d)$")
  local x = bird_at(s.players[a.seat], h, c)
  x.eggs = x.eggs + 1
  if a.mark then s.last_laid = x.id end
  if a.n > 1 then push(s, { k = "lay", seat = a.seat, n = a.n - 1, nest = a.nest, except = a.except, optional = a.optional }) end
end
-- the second, optional egg of the all-players nest powers goes on another bird than the first
TASK.lay_second = function(s, t)
  push(s, { k = "lay", seat = t.seat, n = 1, nest = t.nest, except2 = s.last_laid, optional = true })
end

-- draw cards (the wetland action): from the tray or the deck, one at a time
TASK.draw = function(s, t)
  if t.n <= 0 then return end
  ask(s, { kind = "draw", seat = t.seat, n = t.n })
end
OPTIONS.draw = function(s, a)
  local out = {}
  for _, id in ipairs(s.tray) do out[#out + 1] = { "tray:" .. id, function() return "take " .. bird_words(id) .. " from the tray" end } end
  if #s.deck + #s.discard > 0 then out[#out + 1] = { "deck", function() return "draw the top card of the deck" end } end
  return out
end
CHOOSE.draw = function(s, a, id)
  local p = s.players[a.seat]
  if id == "deck" then draw_to_hand(s, a.seat, 1) else
    local b = id:sub(6)
    remove_value(s.tray, b)
    p.hand[#p.hand + 1] = b
    p.shown[#p.shown + 1] = b
  end
  if a.n > 1 then push(s, { k = "draw", seat = a.seat, n = a.n - 1 }) end
end

-- row activation, right to left (t.col down to 1)
TASK.activate = function(s, t)
  if t.col <= 0 then return end
  push(s, { k = "activate", seat = t.seat, hab = t.hab, col = t.col - 1 })
  local x = s.players[t.seat].rows[t.hab][t.col]
  if x and BIRD[x.id].colour == "brown" then push(s, { k = "power", seat = t.seat, bird = x.id }) end
end

-- powers ---------------------------------------------------------------------------------------
local POWER = {}

-- every power is optional (the rulebook). The families below offer `skip` in their own first
-- choice; every other power first asks `use` or `skip` (a power that cannot act now does not
-- ask); a power repeated by another bird's repeat power does not ask again
local ASKS_ITSELF = { draw_discard = true, egg_draw = true, egg_food = true, food_tuck = true,
  tuck_draw = true, tuck_gain = true, tuck_lay = true, play_tuck = true, ["repeat"] = true,
  repeat_pred = true, trade = true, move = true, play = true, none = true }
local CAN_ACT = {
  lay_self = function(_, _, x) return room(x) end,
  hunt = function(s) return #s.deck + #s.discard > 0 end,
  roll = function(s) return D.DICE - #s.feeder > 0 end,
  food_cache = function(s) return s.ev_rodent end,
  lay_nest = function(_, p, _, b)
    for _, e in ipairs(all_birds(p)) do if nest_is(BIRD[e.bird.id], D.NESTS[b.p1]) and room(e.bird) then return true end end
    return false
  end,
}
TASK.power = function(s, t)
  local p = s.players[t.seat]
  local x = find(p, t.bird)
  if not x then return end
  local b = BIRD[t.bird]
  if not t.agreed and not ASKS_ITSELF[b.family] then
    if CAN_ACT[b.family] and not CAN_ACT[b.family](s, p, x, b) then return end
    push(s, { k = "ask", a = { kind = "use_power", seat = t.seat, bird = x.id } })
    return
  end
  POWER[b.family](s, t.seat, p, x, b)
end
TASK.white = TASK.power
TASK.pink_power = TASK.power

local function predator_success(s, seat) push(s, { k = "pink", event = "predator", actor = seat }) end

local function optional(s, seat, x, kind, extra)
  local a = { kind = kind, seat = seat, bird = x.id }
  for k, v in pairs(extra or {}) do a[k] = v end
  push(s, { k = "ask", a = a })
end
TASK.ask = function(s, t) ask(s, t.a) end

POWER.gain = function(_, _, p, _, b) local f = D.FOOD_LETTER[b.p1]; p.food[f] = p.food[f] + (tonumber(b.p2) or 1) end
POWER.cache = function(_, _, _, x) x.cache = x.cache + 1 end
POWER.feeder = function(s, seat, _, _, b) push(s, { k = "gain", seat = seat, n = 1, only = b.p1 }) end
POWER.feeder_cache = function(s, seat, _, x, b) push(s, { k = "gain", seat = seat, n = 1, only = b.p1, cache = x.id }) end
POWER.each_feeder = function(s, seat, _, x) optional(s, seat, x, "start") end
POWER.fewest_feeder = function(s, seat, _, _, b)
  local hab, m, list = D.HAB_LETTER[b.p1], math.huge, {}
  for i = 1, s.n do m = math.min(m, #s.players[i].rows[hab]) end
  for k = 0, s.n - 1 do
    local j = (seat + k - 1) % s.n + 1
    if #s.players[j].rows[hab] == m then list[#list + 1] = { k = "gain", seat = j, n = 1 } end
  end
  sched(s, list)
end
POWER.fewest_draw = function(s, seat, _, _, b)
  local hab, m = D.HAB_LETTER[b.p1], math.huge
  for i = 1, s.n do m = math.min(m, #s.players[i].rows[hab]) end
  for k = 0, s.n - 1 do
    local j = (seat + k - 1) % s.n + 1
    if #s.players[j].rows[hab] == m then draw_to_hand(s, j, 1) end
  end
end
POWER.all_gain = function(s, _, _, _, b)
  local f = D.FOOD_LETTER[b.p1]
  for i = 1, s.n do s.players[i].food[f] = s.players[i].food[f] + 1 end
end
POWER.all_draw = function(s, seat)
  for k = 0, s.n - 1 do draw_to_hand(s, (seat + k - 1) % s.n + 1, 1) end
end
POWER.all_lay = function(s, seat, _, _, b)
  local list, nest = {}, D.NESTS[b.p1]
  for k = 0, s.n - 1 do
    local j = (seat + k - 1) % s.n + 1
    list[#list + 1] = { k = "lay", seat = j, n = 1, nest = nest, mark = true }
    list[#list + 1] = { k = "lay_second", seat = j, nest = nest }
  end
  s.last_laid = nil
  sched(s, list)
end
POWER.lay_any = function(s, seat) push(s, { k = "lay", seat = seat, n = 1 }) end
POWER.lay_self = function(_, _, _, x) if room(x) then x.eggs = x.eggs + 1 end end
POWER.draw = function(s, seat, _, _, b) draw_to_hand(s, seat, tonumber(b.p1)) end
POWER.draw_discard = function(s, seat, _, x, b) if #s.deck + #s.discard > 0 then optional(s, seat, x, "draw_discard", { n = tonumber(b.p1) }) end end
POWER.egg_draw = function(s, seat, _, x) optional(s, seat, x, "egg_spend", { give = "cards" }) end
POWER.egg_food = function(s, seat, _, x, b) optional(s, seat, x, "egg_spend", { give = "food", n = tonumber(b.p1), other = true }) end
POWER.food_tuck = function(s, seat, p, x, b)
  if p.food[D.FOOD_LETTER[b.p1]] > 0 and #s.deck + #s.discard > 0 then optional(s, seat, x, "food_tuck", { food = D.FOOD_LETTER[b.p1] }) end
end
local function tuck_power(s, seat, p, x, b, after)
  if #p.hand > 0 then optional(s, seat, x, "tuck", { after = after, p1 = b.p1 }) end
end
POWER.tuck_draw = function(s, seat, p, x, b) tuck_power(s, seat, p, x, b, "draw") end
POWER.tuck_gain = function(s, seat, p, x, b) tuck_power(s, seat, p, x, b, "gain") end
POWER.tuck_lay = function(s, seat, p, x, b) tuck_power(s, seat, p, x, b, "lay") end
POWER.play_tuck = function(s, seat, p, x, b) tuck_power(s, seat, p, x, b, nil) end
POWER.hunt = function(s, seat, _, x, b)
  local id = draw_deck(s)
  if not id then return end
  if BIRD[id].wingspan < tonumber(b.p1) then
    x.tucked = x.tucked + 1
    predator_success(s, seat)
  else
    s.discard[#s.discard + 1] = { id = id, by = 0 }
  end
end
POWER.roll = function(s, seat, _, x, b)
  local f, hit = D.FOOD_LETTER[b.p1], false
  local rolled = {}
  for k = 1, D.DICE - #s.feeder do
    rolled[k] = D.DIE_FACES[kit.rand(s, 6)]
    if rolled[k] == f then hit = true end
  end
  s.last_roll = rolled
  if hit then
    x.cache = x.cache + 1
    predator_success(s, seat)
  end
end
local function repeat_targets(p, x, pred)
  local _, hab = find(p, x.id)
  local out = {}
  for c, y in ipairs(p.rows[hab]) do
    local b = BIRD[y.id]
    if y.id ~= x.id and b.colour == "brown" and b.family ~= "repeat" and b.family ~= "repeat_pred"
       and (not pred or D.PREDATOR[b.family]) then out[#out + 1] = { hab = hab, col = c, id = y.id } end
  end
  return out
end
POWER["repeat"] = function(s, seat, p, x) if #repeat_targets(p, x) > 0 then optional(s, seat, x, "repeat") end end
POWER.repeat_pred = function(s, seat, p, x) if #repeat_targets(p, x, true) > 0 then optional(s, seat, x, "repeat", { pred = true }) end end
POWER.trade = function(s, seat, p, x) if food_total(p) > 0 then optional(s, seat, x, "trade_give") end end
local function move_targets(p, x)
  local _, hab, col = find(p, x.id)
  local out = {}
  if col ~= #p.rows[hab] then return out end
  for _, h in ipairs(HABS) do
    if h ~= hab and lives(BIRD[x.id], h) and #p.rows[h] < D.COLUMNS then out[#out + 1] = h end
  end
  return out
end
POWER.move = function(s, seat, p, x) if #move_targets(p, x) > 0 then optional(s, seat, x, "move") end end
-- white
POWER.bonus = function(s, seat, _, x)
  local cards = {}
  for k = 1, 2 do cards[k] = draw_bonus(s) end
  if #cards > 0 then push(s, { k = "ask", a = { kind = "bonus_keep", seat = seat, bird = x.id, cards = cards } }) end
end
POWER.draft = function(s, seat)
  s.draft = {}
  for _ = 1, s.n + 1 do
    local id = draw_deck(s)
    if id then s.draft[#s.draft + 1] = id end
  end
  local list = {}
  for k = 0, s.n - 1 do list[#list + 1] = { k = "ask", a = { kind = "draft", seat = (seat + k - 1) % s.n + 1 } } end
  list[#list + 1] = { k = "draft_rest", seat = seat }
  sched(s, list)
end
TASK.draft_rest = function(s, t)
  local p = s.players[t.seat]
  for _, id in ipairs(s.draft) do p.hand[#p.hand + 1] = id; p.shown[#p.shown + 1] = id end
  s.draft = {}
end
POWER.feeder_all = function(s, _, p, _, b)
  local f = D.FOOD_LETTER[b.p1]
  local keep = {}
  for _, face in ipairs(s.feeder) do
    if face == f or (face == "invertebrate/seed" and (f == "invertebrate" or f == "seed")) then p.food[f] = p.food[f] + 1
    else keep[#keep + 1] = face end
  end
  s.feeder = keep
end
POWER.lay_nest = function(_, _, p, _, b)
  for _, e in ipairs(all_birds(p)) do
    if nest_is(BIRD[e.bird.id], D.NESTS[b.p1]) and room(e.bird) then e.bird.eggs = e.bird.eggs + 1 end
  end
end
POWER.play = function(s, seat, p, x, b)
  local hab = b.p1 == "here" and select(2, find(p, x.id)) or D.HAB_LETTER[b.p1]
  if #play_options(p, hab) > 0 then optional(s, seat, x, "extra_play", { hab = hab }) end
end
-- pink
POWER.play_gain = function(_, _, p, _, b) local f = D.FOOD_LETTER[b.p2]; p.food[f] = p.food[f] + 1 end
POWER.food_cache = function(s, _, _, x) if s.ev_rodent then x.cache = x.cache + 1 end end
POWER.lay = function(s, seat, _, _, b) push(s, { k = "lay", seat = seat, n = 1, nest = D.NESTS[b.p1] }) end
POWER.lay_other = function(s, seat, _, x, b) push(s, { k = "lay", seat = seat, n = 1, nest = D.NESTS[b.p1], except = x.id }) end
POWER.predator = function(s, seat) push(s, { k = "gain", seat = seat, n = 1 }) end
G.POWER = POWER

local SKIP = { "skip", function() return "do not use the power" end }

OPTIONS.use_power = function(_, a)
  return { { "use", function() return a.bird .. ": use the power (" .. POWER_WORDS[BIRD[a.bird].family](BIRD[a.bird]) .. ")" end }, SKIP }
end
CHOOSE.use_power = function(s, a, id)
  if id == "skip" then return end
  push(s, { k = "power", seat = a.seat, bird = a.bird, agreed = true })
end

OPTIONS.start = function(s, a)
  local out = {}
  for i = 1, s.n do out[#out + 1] = { "start:" .. i, function() return "player " .. i .. " takes a die first (" .. a.bird .. ")" end } end
  return out
end
CHOOSE.start = function(s, a, id)
  local first = tonumber(id:sub(7))
  local list = {}
  for k = 0, s.n - 1 do list[#list + 1] = { k = "gain", seat = (first + k - 1) % s.n + 1, n = 1 } end
  sched(s, list)
end

OPTIONS.draw_discard = function(_, a)
  return { { "use", function() return a.bird .. ": draw " .. a.n .. " card(s) now, discard 1 card at the end of your turn" end }, SKIP }
end
CHOOSE.draw_discard = function(s, a, id)
  if id == "skip" then return end
  draw_to_hand(s, a.seat, a.n)
  s.players[a.seat].owed = s.players[a.seat].owed + 1
end

OPTIONS.egg_spend = function(s, a)
  local out = egg_options(s.players[a.seat], "egg:", a.other and a.bird or nil, "discard")
  for _, o in ipairs(out) do
    local f = o[2]
    o[2] = function() return f() .. (a.give == "cards" and " to draw 2 cards" or (" to gain " .. a.n .. " food of your choice")) end
  end
  if #out > 0 then out[#out + 1] = SKIP end
  return out
end
CHOOSE.egg_spend = function(s, a, id)
  if id == "skip" then return end
  local h, c = id:match("^egg:(%a+):(%d)$")
  local x = bird_at(s.players[a.seat], h, c)
  x.eggs = x.eggs - 1
  if a.give == "cards" then draw_to_hand(s, a.seat, 2) else
    for _ = 1, a.n do push(s, { k = "ask", a = { kind = "pick_food", seat = a.seat } }) end
  end
end

OPTIONS.pick_food = function(_, a)
  local out = {}
  for _, f in ipairs(FOODS) do out[#out + 1] = { "food:" .. f, function() return "gain 1 " .. f .. " from the supply" end } end
  if a.only then
    local keep = {}
    for _, o in ipairs(out) do if a.only:find(L[o[1]:sub(6)], 1, true) then keep[#keep + 1] = o end end
    out = keep
  end
  return out
end
CHOOSE.pick_food = function(s, a, id)
  local p = s.players[a.seat]
  local f = id:sub(6)
  p.food[f] = p.food[f] + 1
end

OPTIONS.food_tuck = function(_, a)
  return { { "use", function() return "discard 1 " .. a.food .. " to tuck 2 cards from the deck behind " .. a.bird end }, SKIP }
end
CHOOSE.food_tuck = function(s, a, id)
  if id == "skip" then return end
  local p = s.players[a.seat]
  p.food[a.food] = p.food[a.food] - 1
  local x = find(p, a.bird)
  for _ = 1, 2 do if draw_deck(s) then x.tucked = x.tucked + 1 end end
end

OPTIONS.tuck = function(s, a)
  local out = {}
  for _, id in ipairs(s.players[a.seat].hand) do
    out[#out + 1] = { "tuck:" .. id, function() return "tuck " .. id .. " from your hand behind " .. a.bird end }
  end
  out[#out + 1] = SKIP
  return out
end
CHOOSE.tuck = function(s, a, id)
  if id == "skip" then return end
  local p = s.players[a.seat]
  local c = id:sub(6)
  remove_value(p.hand, c); remove_value(p.shown, c)
  local x = find(p, a.bird)
  x.tucked = x.tucked + 1
  if a.after == "draw" then draw_to_hand(s, a.seat, 1)
  elseif a.after == "lay" then if room(x) then x.eggs = x.eggs + 1 end
  elseif a.after == "gain" then
    if #a.p1 == 1 then local f = D.FOOD_LETTER[a.p1]; p.food[f] = p.food[f] + 1
    else push(s, { k = "ask", a = { kind = "pick_food", seat = a.seat, only = a.p1 } }) end
  end
end

OPTIONS["repeat"] = function(s, a)
  local p = s.players[a.seat]
  local out = {}
  for _, tg in ipairs(repeat_targets(p, find(p, a.bird), a.pred)) do
    out[#out + 1] = { "repeat:" .. tg.hab .. ":" .. tg.col, function() return "repeat the power of " .. tg.id .. ": " .. power_words(BIRD[tg.id]) end }
  end
  out[#out + 1] = SKIP
  return out
end
CHOOSE["repeat"] = function(s, a, id)
  if id == "skip" then return end
  local h, c = id:match("^repeat:(%a+):(%d)$")
  push(s, { k = "power", seat = a.seat, bird = bird_at(s.players[a.seat], h, c).id, agreed = true })
end

OPTIONS.trade_give = function(s, a)
  local p, out = s.players[a.seat], {}
  for _, f in ipairs(FOODS) do
    if p.food[f] > 0 then out[#out + 1] = { "give:" .. f, function() return "give 1 " .. f .. " to the supply for another food" end } end
  end
  out[#out + 1] = SKIP
  return out
end
CHOOSE.trade_give = function(s, a, id)
  if id == "skip" then return end
  local p = s.players[a.seat]
  local f = id:sub(6)
  p.food[f] = p.food[f] - 1
  local only = {}
  for _, g in ipairs(FOODS) do if g ~= f then only[#only + 1] = L[g] end end
  push(s, { k = "ask", a = { kind = "pick_food", seat = a.seat, only = table.concat(only) } })
end

OPTIONS.move = function(s, a)
  local p = s.players[a.seat]
  local out = {}
  for _, h in ipairs(move_targets(p, find(p, a.bird))) do
    out[#out + 1] = { "move:" .. h, function() return "move " .. a.bird .. " to your " .. h .. ", column " .. (#p.rows[h] + 1) end }
  end
  out[#out + 1] = SKIP
  return out
end
CHOOSE.move = function(s, a, id)
  if id == "skip" then return end
  local p = s.players[a.seat]
  local x, hab = find(p, a.bird)
  table.remove(p.rows[hab])
  local h = id:sub(6)
  p.rows[h][#p.rows[h] + 1] = x
end

OPTIONS.bonus_keep = function(_, a)
  local out = {}
  for _, c in ipairs(a.cards) do out[#out + 1] = { "bonus:" .. c, function() return "keep the bonus card " .. bonus_words(c) end } end
  return out
end
CHOOSE.bonus_keep = function(s, a, id)
  local p = s.players[a.seat]
  for _, c in ipairs(a.cards) do
    if "bonus:" .. c == id then p.bonus[#p.bonus + 1] = c else s.bonus_discard[#s.bonus_discard + 1] = { id = c, by = a.seat } end
  end
end

OPTIONS.draft = function(s)
  local out = {}
  for _, id in ipairs(s.draft) do out[#out + 1] = { "pick:" .. id, function() return "take " .. bird_words(id) .. " (face up)" end } end
  return out
end
CHOOSE.draft = function(s, a, id)
  local c = id:sub(6)
  remove_value(s.draft, c)
  local p = s.players[a.seat]
  p.hand[#p.hand + 1] = c; p.shown[#p.shown + 1] = c
end

OPTIONS.extra_play = function(s, a)
  local p, out = s.players[a.seat], {}
  for _, o in ipairs(play_options(p, a.hab)) do
    out[#out + 1] = { "play:" .. o[1] .. ":" .. o[2], function()
      return string.format("also play %s into your %s, column %d (%d egg(s))", bird_words(o[1]), o[2], #p.rows[o[2]] + 1, D.EGG_COST[#p.rows[o[2]] + 1])
    end }
  end
  out[#out + 1] = SKIP
  return out
end
CHOOSE.extra_play = function(s, a, id)
  if id == "skip" then return end
  local bird, hab = id:match("^play:([%w_]+):(%a+)$")
  start_play(s, a.seat, bird, hab)
end

OPTIONS.discard = function(s, a)
  local out = {}
  for _, id in ipairs(s.players[a.seat].hand) do
    out[#out + 1] = { "discard:" .. id, function() return "discard " .. id .. " from your hand (owed by a draw power)" end }
  end
  return out
end
CHOOSE.discard = function(s, a, id)
  local p = s.players[a.seat]
  local c = id:sub(9)
  remove_value(p.hand, c); remove_value(p.shown, c)
  s.discard[#s.discard + 1] = { id = c, by = a.seat }
end

-- end of turn, round and game -------------------------------------------------------------------

local function end_round(s)
  local counts = {}
  for i = 1, s.n do counts[i] = goal_count(s.players[i], s.goals[s.round]) end
  local pts = goal_points(counts, s.round, s.goal_side)
  s.round_goals[s.round] = { counts = counts, points = pts }
  for i = 1, s.n do s.players[i].goal_points[s.round] = pts[i] end
  for _, id in ipairs(s.tray) do s.discard[#s.discard + 1] = { id = id, by = 0 } end
  s.tray = {}
  refill_tray(s)
  if s.round == D.ROUNDS then s.over = true; s.phase = "over"; return end
  s.round = s.round + 1
  for i = 1, s.n do s.cubes[i] = D.CUBES[s.round] end
  s.first = s.first % s.n + 1
  s.turn = s.first
  push(s, { k = "turn" })
end

TASK.end_turn = function(s, t)
  local p = s.players[t.seat]
  if p.owed > 0 then
    p.owed = p.owed - 1
    push(s, t)
    if #p.hand > 0 then ask(s, { kind = "discard", seat = t.seat }) end
    return
  end
  refill_tray(s)
  local nxt = s.turn % s.n + 1
  if s.cubes[nxt] == 0 then end_round(s) else s.turn = nxt; push(s, { k = "turn" }) end
end

-- options_of(s, a) -> the open decision's options { {id, label function}, ... }
local function options_of(s, a) return OPTIONS[a.kind](s, a) end

local function resolve(s, id)
  local a = s.ask
  s.ask = nil
  CHOOSE[a.kind](s, a, id)
end

-- run(s): work the task stack until a real decision (two or more choices) is open or the game ends
function G.run(s)
  local guard = 0
  while not s.over do
    guard = guard + 1
    if guard > 100000 then error("wingspan: the task stack does not settle") end
    if s.ask then
      local opts = options_of(s, s.ask)
      if #opts == 0 then s.ask = nil
      elseif #opts == 1 and s.ask.kind ~= "action" then resolve(s, opts[1][1])
      else return end
    else
      local t = table.remove(s.tasks)
      if not t then error("wingspan: no task and no decision before the end") end
      TASK[t.k](s, t)
    end
  end
end

function G.legal_actions(s, seat, bare)
  local r = {}
  if s.over or not s.ask or s.ask.seat ~= seat then return r end
  for i, o in ipairs(options_of(s, s.ask)) do r[i] = { id = o[1], label = bare and "" or o[2]() } end
  return r
end

function G.apply(s, seat, id)
  if s.over or not s.ask or s.ask.seat ~= seat then return nil, "not this seat's turn" end
  if type(id) ~= "string" then return nil, "unknown action" end
  local found = false
  for _, o in ipairs(options_of(s, s.ask)) do if o[1] == id then found = true; break end end
  if not found then return nil, "not a legal action now: " .. id end
  resolve(s, id)
  G.run(s)
  return true
end

function G.ranking(s)
  local keys, scores = {}, {}
  for i = 1, s.n do
    local p = s.players[i]
    scores[i] = score_of(p, true)
    keys[i] = { scores[i], food_total(p) }
  end
  return { ranks = kit.ranks(keys), scores = scores }
end

-- observation -------------------------------------------------------------------------------------

local ASK_WORDS = {
  setup_birds = "choose which dealt birds to keep", setup_food = "give back 1 food for each bird kept",
  setup_bonus = "choose 1 of the 2 bonus cards dealt", action = "choose an action or a bird to play",
  pay_food = "pay the bird's food cost", pay_egg = "pay an egg for the bird's column", mat_trade = "use the mat's trade or not",
  die = "take a die from the birdfeeder", cache_choice = "cache the food or keep it", lay = "lay an egg",
  draw = "draw a card from the tray or the deck", start = "choose who takes a die first",
  draw_discard = "use a draw power or not", egg_spend = "discard an egg for a power or not", pick_food = "choose a food from the supply",
  food_tuck = "discard food to tuck cards or not", tuck = "tuck a card from hand or not", ["repeat"] = "repeat a power or not",
  trade_give = "trade food or not", move = "move the bird or not", bonus_keep = "keep one of two bonus cards",
  draft = "take one of the face-up cards", extra_play = "play another bird or not", discard = "discard a card from hand",
}

local function board_view(p)
  local v = {}
  for _, h in ipairs(HABS) do
    local r = {}
    for c, x in ipairs(p.rows[h]) do r[c] = { id = x.id, eggs = x.eggs, cache = x.cache, tucked = x.tucked } end
    v[h] = r
  end
  return v
end

local function card_view(id)
  local b = BIRD[id]
  return { name = b.name, habitats = { table.unpack(b.habitats) }, cost = { table.unpack(b.cost) }, cost_any = b.any,
           points = b.points, nest = b.nest, egg_limit = b.eggs, wingspan = b.wingspan, colour = b.colour, power = power_words(b) }
end

-- observation: public: the board, feeder, tray, goals, food, hand and bonus counts, cards taken
-- face up; private to the seat: its hand, bonus cards and its own open decision's details.
-- During setup the other seats' choices (kept birds, food given back) stay hidden.
function G.observation(s, seat)
  local o = { game = "wingspan", seat = seat, n = s.n, round = s.round, turn = s.turn, first = s.first, over = s.over,
              phase = s.phase, goal_side = s.goal_side, scores = {}, feeder = { table.unpack(s.feeder) },
              dice_outside = D.DICE - #s.feeder, tray = { table.unpack(s.tray) }, deck = #s.deck, discard = #s.discard,
              bonus_deck = #s.bonus_deck, goals = {}, players = {}, cards = {}, draft = { table.unpack(s.draft) } }
  local function known(id) o.cards[id] = o.cards[id] or card_view(id) end
  for r = 1, D.ROUNDS do
    local g = { goal = s.goals[r] }
    if s.round_goals[r] then g.counts = { table.unpack(s.round_goals[r].counts) }; g.points = { table.unpack(s.round_goals[r].points) } end
    o.goals[r] = g
  end
  for _, id in ipairs(s.tray) do known(id) end
  for _, id in ipairs(s.draft) do known(id) end
  for i = 1, s.n do
    local p = s.players[i]
    local total, b = score_of(p, false)
    o.scores[i] = total
    local v = { score = total, breakdown = b, cubes = s.cubes[i], rows = board_view(p), goal_points = { table.unpack(p.goal_points) } }
    local hidden_setup = s.phase == "setup" and i ~= seat
    if not hidden_setup then
      v.food = {}
      for _, f in ipairs(FOODS) do v.food[f] = p.food[f] end
      v.hand_count, v.bonus_count = #p.hand, #p.bonus
      v.face_up_in_hand = { table.unpack(p.shown) }
      for _, id in ipairs(p.shown) do known(id) end
    end
    if i == seat then
      v.hand = { table.unpack(p.hand) }
      for _, id in ipairs(p.hand) do known(id) end
      v.dealt = { table.unpack(p.dealt) }
      for _, id in ipairs(p.dealt) do known(id) end
      v.kept = { table.unpack(p.kept) }
      for _, id in ipairs(p.kept) do known(id) end
      v.bonus = {}
      for j, id in ipairs(p.bonus) do v.bonus[j] = { id = id, text = bonus_words(id), count = bonus_count(p, BONUS[id]), points = bonus_points(p, BONUS[id]) } end
      v.dealt_bonus = {}
      for j, id in ipairs(p.dealt_bonus) do v.dealt_bonus[j] = bonus_words(id) end
      local full = score_of(p, true)
      v.score_with_bonus = full
      v.owed_discards = p.owed
    end
    for _, e in ipairs(all_birds(p)) do known(e.bird.id) end
    o.players[i] = v
  end
  if s.ask then
    o.waiting = { seat = s.ask.seat, decision = ASK_WORDS[s.ask.kind] }
    if s.ask.seat == seat then
      o.decision = { kind = s.ask.kind, bird = s.ask.bird, left = s.ask.n }
      if s.ask.cards then
        o.decision.cards = {}
        for j, c in ipairs(s.ask.cards) do o.decision.cards[j] = bonus_words(c) end
      end
    end
  end
  return o
end

local function food_words(f)
  local w = {}
  for _, x in ipairs(FOODS) do w[#w + 1] = f[x] .. " " .. x end
  return table.concat(w, ", ")
end

local function card_line(o, id)
  local c = o.cards[id]
  local h = {}
  for j, x in ipairs(c.habitats) do h[j] = HAB_SHORT[x] end
  local cost = #c.cost == 0 and "no food" or table.concat(c.cost, c.cost_any and " or " or " + ")
  return string.format("%s (%s; %s; %dpt; %s/%d; %dcm; %s)", id, table.concat(h), cost, c.points, c.nest,
    c.egg_limit, c.wingspan, c.power)
end

function G.render(o)
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  add("Wingspan (base game), round %d of 4. You are player %d of %d.%s", o.round, o.seat, o.n,
    o.over and " The game is over." or (o.waiting and string.format(" Player %d to decide: %s.", o.waiting.seat, o.waiting.decision) or ""))
  if o.decision then
    add("Your decision: %s%s%s.", ASK_WORDS[o.decision.kind], o.decision.bird and (" (" .. o.decision.bird .. ")") or "",
      o.decision.left and o.decision.left > 1 and (", " .. o.decision.left .. " left") or "")
    if o.decision.cards then add("  bonus cards drawn: %s", table.concat(o.decision.cards, "; ")) end
  end
  add("")
  local g = {}
  for r, x in ipairs(o.goals) do
    local w = D.goal_words(x.goal)
    if x.points then w = w .. " [scored: " .. table.concat(x.points, "/") .. "]" end
    g[r] = "R" .. r .. " " .. w
  end
  add("Round goals (%s side): %s", o.goal_side, table.concat(g, "; "))
  add("Birdfeeder: %s (%d dice outside).", #o.feeder > 0 and table.concat(o.feeder, ", ") or "empty", o.dice_outside)
  add("Bird tray:")
  for _, id in ipairs(o.tray) do add("  %s", card_line(o, id)) end
  if #o.draft > 0 then add("Face-up cards being shared: %s", table.concat(o.draft, ", ")) end
  add("Deck: %d cards; discard pile: %d; bonus deck: %d.", o.deck, o.discard, o.bonus_deck)
  for i, p in ipairs(o.players) do
    add("")
    local b = p.breakdown
    add("Player %d%s: %d points shown (birds %d, eggs %d, cached %d, tucked %d, goals %d); %d action cubes left this round",
      i, i == o.seat and " (you)" or "", p.score, b.birds, b.eggs, b.cached, b.tucked, b.goals, p.cubes)
    if p.food then add("  food: %s; %d cards in hand, %d bonus card(s)", food_words(p.food), p.hand_count, p.bonus_count)
    else add("  (still choosing their starting hand)") end
    if p.face_up_in_hand and #p.face_up_in_hand > 0 and i ~= o.seat then add("  known cards in hand: %s", table.concat(p.face_up_in_hand, ", ")) end
    for _, h in ipairs(HABS) do
      local cells = {}
      for c, x in ipairs(p.rows[h]) do
        cells[c] = string.format("%d %s [%d/%d eggs%s%s]", c, x.id, x.eggs, o.cards[x.id].egg_limit,
          x.cache > 0 and (", cached " .. x.cache) or "", x.tucked > 0 and (", tucked " .. x.tucked) or "")
      end
      add("  %s: %s", h, #cells > 0 and table.concat(cells, " | ") or "-")
    end
    if i == o.seat then
      add("  your score with bonus cards: %d", p.score_with_bonus)
      for _, c in ipairs(p.bonus) do add("  bonus card %s: counts %d now, %d points", c.text, c.count, c.points) end
      if #p.dealt_bonus > 0 then add("  bonus cards dealt: %s", table.concat(p.dealt_bonus, "; ")) end
      if #p.dealt > 0 then
        add("  birds dealt (undecided):")
        for _, id in ipairs(p.dealt) do add("    %s", card_line(o, id)) end
      end
      if #p.kept > 0 then add("  birds kept so far: %s", table.concat(p.kept, ", ")) end
      add("  your hand:")
      for _, id in ipairs(p.hand) do add("    %s", card_line(o, id)) end
      if p.owed_discards > 0 then add("  you owe %d discard(s) at the end of this turn", p.owed_discards) end
    end
  end
  add("")
  add("Birds in play (powers):")
  local seen = {}
  for _, p in ipairs(o.players) do
    for _, h in ipairs(HABS) do
      for _, x in ipairs(p.rows[h]) do
        if not seen[x.id] then seen[x.id] = true; add("  %s", card_line(o, x.id)) end
      end
    end
  end
  add("")
  add("Birds: habitats (F forest, G grassland, W wetland); food cost; points; nest/egg limit; wingspan; power (brown: when its row is activated, white: when played, pink: once between your turns, on another player's action).")
  add("Actions: a row's action gives the amount of its leftmost empty space (forest food 1,1,2,2,3,3; grassland eggs 2,2,3,3,4,4; wetland cards 1,1,2,2,3,3 for 0-5 birds), then its brown powers run right to left. Playing a bird costs its food and 0,1,1,2,2 eggs for columns 1-5.")
  return table.concat(out, "\n")
end

-- heuristic ---------------------------------------------------------------------------------------

local function bird_value(s, p, id)
  local b = BIRD[id]
  local v = b.points + (b.colour == "brown" and 2 or (b.family and 1 or 0)) + 0.3 * b.eggs
  for _, c in ipairs(p.bonus) do if G.qualifies(id, BONUS[c]) then v = v + 1.5 end end
  return v - 0.15 * (s.round - 1) * (b.colour == "brown" and 2 or 0)
end

function G.heuristic(s, seat, id)
  local a = s.ask
  if not a then return 0 end
  local p = s.players[seat]
  local kind = a.kind
  if kind == "action" or kind == "extra_play" then
    local bird = id:match("^play:([%w_]+):")
    if bird then
      local hab = id:match(":(%a+)$")
      return 5 + bird_value(s, p, bird) + (s.round <= 2 and #p.rows[hab] < 3 and 1.5 or 0)
    end
    if id == "skip" then return 0 end
    local hab = HAB_OF[id]
    local gain = D.ROW_GAIN[hab][#p.rows[hab] + 1]
    local playable = #play_options(p) > 0
    local need_food, need_eggs = false, false
    if not playable then
      local eggs = eggs_on_board(p)
      for _, b in ipairs(p.hand) do
        local fed = #payments(p.food, BIRD[b]) > 0
        if not fed then need_food = true end
        for _, h in ipairs(BIRD[b].habitats) do
          local col = #p.rows[h] + 1
          if fed and col <= D.COLUMNS and D.EGG_COST[col] > eggs then need_eggs = true end
        end
      end
    end
    if id == "food" then return (need_food and 6 or 1) + 0.6 * gain end
    if id == "eggs" then
      local roomy = 0
      for _, e in ipairs(all_birds(p)) do roomy = roomy + BIRD[e.bird.id].eggs - e.bird.eggs end
      if roomy == 0 then return -1 end
      return math.min(roomy, gain) * (0.8 + 0.3 * s.round) + (need_eggs and 5 or 0)
    end
    if id == "cards" then return (#p.hand == 0 and 6 or (#p.hand == 1 and 3 or 1.5)) + 0.5 * gain - 0.3 * #p.hand end
  elseif kind == "setup_birds" then
    if id == "done" then return #p.kept >= 3 and 9 or 0 end
    return 4 + bird_value(s, p, id:sub(6)) / 3
  elseif kind == "setup_food" or kind == "trade_give" then
    local f = id:match(":(%a+)$")
    if not f then return 0 end
    local need = 0
    for _, h in ipairs(p.hand) do if eats(BIRD[h], f) then need = need + 1 end end
    return 5 - need
  elseif kind == "setup_bonus" or kind == "bonus_keep" then
    local c = BONUS[id:sub(7)]
    return (c.per and 2 or 1) + 0.01 * (#c.id)
  elseif kind == "pay_food" then return -#id
  elseif kind == "die" or kind == "pick_food" then
    if id == "reroll" then return 0.5 end
    if id == "skip" then return 0 end
    local f = D.FOOD_LETTER[id:sub(-1)] or id:sub(6)
    local need = 0
    for _, h in ipairs(p.hand) do if eats(BIRD[h], f) then need = need + 1 end end
    return 1 + need
  elseif kind == "lay" or kind == "pay_egg" then
    if id == "skip" then return 0 end
    local h, c = id:match(":(%a+):(%d)$")
    local x = bird_at(p, h, c)
    local left = BIRD[x.id].eggs - x.eggs
    return kind == "lay" and (1 + left * 0.1) or left
  elseif kind == "draw" or kind == "draft" then
    if id == "deck" then return 3 end
    return 1 + bird_value(s, p, id:match(":([%w_]+)$")) / 2
  elseif kind == "mat_trade" then return id == "notrade" and 1 or 0.5
  elseif kind == "cache_choice" then return id == "cache" and (s.round >= 3 and 2 or 0.5) or 1
  elseif kind == "discard" or kind == "tuck" then
    if id == "skip" then return 0 end
    return 10 - bird_value(s, p, id:match(":([%w_]+)$"))
  elseif kind == "move" then return id == "skip" and 1 or 0.5
  end
  return id == "skip" and 0 or 1
end

-- estimate(state) -> per seat: the score with bonus cards plus what the actions left may bring
function G.estimate(s)
  local est = {}
  local left = 0
  for r = s.round + 1, D.ROUNDS do left = left + D.CUBES[r] end
  for i = 1, s.n do
    local p = s.players[i]
    est[i] = score_of(p, true) + 1.6 * (s.cubes[i] + left) + 0.3 * #p.hand + 0.2 * food_total(p)
  end
  return est
end

-- determinize: the unknowns for a seat are the deck order, the other seats' hands (but the
-- cards they took face up), the cards others discarded face down, the other seats' bonus
-- cards and undecided setup cards, the bonus deck, and the generator; they are pooled and dealt
-- back at random into the same places
function G.determinize(s, seat, rand)
  local d = kit.reseeded(s, rand)
  local slots, pool = {}, {}
  local function slot(t, k) slots[#slots + 1] = { t, k }; pool[#pool + 1] = t[k] end
  for k = 1, #d.deck do slot(d.deck, k) end
  for k, e in ipairs(d.discard) do if e.by ~= 0 and e.by ~= seat then slot(d.discard[k], "id") end end
  for i = 1, d.n do
    if i ~= seat then
      local p = d.players[i]
      local face = {}
      for _, id in ipairs(p.shown) do face[id] = true end
      for k, id in ipairs(p.hand) do if not face[id] then slot(p.hand, k) end end
      for k = 1, #p.dealt do slot(p.dealt, k) end
      for k = 1, #p.kept do slot(p.kept, k) end
    end
  end
  kit.shuffle(pool, rand)
  for j, sl in ipairs(slots) do sl[1][sl[2]] = pool[j] end
  slots, pool = {}, {}
  for k = 1, #d.bonus_deck do slot(d.bonus_deck, k) end
  for k, e in ipairs(d.bonus_discard) do if e.by ~= 0 and e.by ~= seat then slot(d.bonus_discard[k], "id") end end
  for i = 1, d.n do
    if i ~= seat then
      local p = d.players[i]
      for k = 1, #p.bonus do slot(p.bonus, k) end
      for k = 1, #p.dealt_bonus do slot(p.dealt_bonus, k) end
    end
  end
  if d.ask and d.ask.cards and d.ask.seat ~= seat then for k = 1, #d.ask.cards do slot(d.ask.cards, k) end end
  kit.shuffle(pool, rand)
  for j, sl in ipairs(slots) do sl[1][sl[2]] = pool[j] end
  return d
end

-- census(s) -> bird cards everywhere, bonus cards everywhere (for the conservation invariant)
function G.census(s)
  local birds, bonus = #s.deck + #s.tray + #s.discard + #s.draft, #s.bonus_deck + #s.bonus_discard
  for i = 1, s.n do
    local p = s.players[i]
    birds = birds + #p.hand + #p.dealt + #p.kept
    for _, e in ipairs(all_birds(p)) do birds = birds + 1 + e.bird.tucked end
    bonus = bonus + #p.bonus + #p.dealt_bonus
  end
  if s.ask and s.ask.cards then bonus = bonus + #s.ask.cards end
  return birds, bonus
end

G.svg = function(obs) return require("games.wingspan.svg").draw(obs) end

return G
