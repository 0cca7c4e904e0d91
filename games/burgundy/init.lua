-- games.burgundy — The Castles of Burgundy (Stefan Feld, alea / Ravensburger 2011; base game,
-- 2-4 players, one estate board for everyone) against the game interface of games/README.md.
-- A turn is split into sub-decisions: each die action (take a tile, place a tile, sell goods,
-- take workers, the die changed by workers inside the action), the black-depot purchase, and
-- the choices a placed tile asks for (a castle's free action, a building's effect, a ship's
-- depot, the tile to discard from full storage); then the turn ends.
-- Components: games/burgundy/data.lua; choices where the rulebook leaves room:
-- games/burgundy/RULES.md; the drawing: games/burgundy/svg.lua.
local kit = require "games.kit"
local D = require "games.burgundy.data"

local G = {
  name = "burgundy", title = "The Castles of Burgundy", players = { min = 2, max = 4 },
  annotations = { engine = 1, spatial = 2, sequencing = 2, coupling = 1, hidden = 0, scoring = 2 },
  rules_file = "games/burgundy/rules.md",
  data = D,
}

local NSP = #D.SPACES
local KIND_OF_LETTER, LETTER_OF_KIND = {}, {}
for _, k in ipairs(D.KINDS) do KIND_OF_LETTER[k.letter] = k.id; LETTER_OF_KIND[k.id] = k.letter end
local BUILDING = {}
for _, b in ipairs(D.BUILDINGS) do BUILDING[b.id] = b end
local TILE = D.TILES

-- spaces: index by name, neighbours, regions (connected spaces of one colour)
local SPID, NB = {}, {}
do
  local at = {}
  for i, sp in ipairs(D.SPACES) do SPID[sp.name] = i; at[sp.q .. ":" .. sp.r] = i end
  for i, sp in ipairs(D.SPACES) do
    NB[i] = {}
    for _, d in ipairs(D.DIRS) do
      local j = at[(sp.q + d[1]) .. ":" .. (sp.r + d[2])]
      if j then NB[i][#NB[i] + 1] = j end
    end
  end
end
local REGION, REGIONS = {}, {}      -- REGION[space] = region index; REGIONS[k] = { spaces, kind }
for i = 1, NSP do
  if not REGION[i] then
    local reg = { spaces = {}, kind = KIND_OF_LETTER[D.SPACES[i].letter] }
    REGIONS[#REGIONS + 1] = reg
    local stack = { i }
    REGION[i] = #REGIONS
    while #stack > 0 do
      local h = table.remove(stack)
      reg.spaces[#reg.spaces + 1] = h
      for _, q in ipairs(NB[h]) do
        if not REGION[q] and D.SPACES[q].letter == D.SPACES[i].letter then REGION[q] = #REGIONS; stack[#stack + 1] = q end
      end
    end
    table.sort(reg.spaces)
  end
end
local KIND_SPACES = {}
for i = 1, NSP do
  local k = KIND_OF_LETTER[D.SPACES[i].letter]
  KIND_SPACES[k] = (KIND_SPACES[k] or 0) + 1
end
G.SPID, G.NB, G.REGION, G.REGIONS, G.KIND_SPACES = SPID, NB, REGION, REGIONS, KIND_SPACES
local START = SPID[D.START]

-- tiles -----------------------------------------------------------------------------------

local function tid(n) return "t" .. n end
local function tnum(id)
  local n = id and id:match("^t(%d+)$")
  n = n and math.tointeger(tonumber(n))
  if n and n >= 1 and n <= #TILE and tid(n) == id then return n end
end

local function tile_words(n)
  local t = TILE[n]
  if t.kind == "building" then return BUILDING[t.building].name .. " (building)"
  elseif t.kind == "animal" then return t.count .. " " .. t.animal .. " (animal)"
  elseif t.kind == "knowledge" then return "knowledge " .. t.knowledge .. " (" .. D.KNOWLEDGE[t.knowledge][2] .. ")"
  end
  return t.kind
end
G.tile_words = tile_words

-- circular die distance (1 and 6 are neighbours)
local function dist(a, b)
  local d = math.abs(a - b)
  return math.min(d, 6 - d)
end
G.dist = dist

local function has_k(p, k) return p.know[k] == true end

-- cost(p, die, target, free) -> workers needed to turn die into target (free: knowledge gives
-- one free step); "x" is a castle's die (any number), "f" a building's effect (no die)
local function cost(p, die, target, free)
  if die == "x" or die == "f" then return 0 end
  local d = dist(die, target)
  if free then d = math.max(0, d - 1) end
  if has_k(p, 8) then return (d + 1) // 2 end
  return d
end
G.cost = cost

local function place_free(p, kind)
  if kind == "building" then return has_k(p, 9) end
  if kind == "ship" or kind == "animal" then return has_k(p, 10) end
  return has_k(p, 11)
end

-- state helpers ---------------------------------------------------------------------------

local function draw(s, pile)
  if #pile == 0 then return nil end
  return table.remove(pile)
end

local function rand_of(s) return function(k) return kit.rand(s, k) end end

-- turn order: furthest on the track first; on the same space, the one that arrived last
local function compute_order(s)
  local o = {}
  for i = 1, s.n do o[i] = i end
  table.sort(o, function(a, b)
    local pa, pb = s.players[a], s.players[b]
    if pa.track ~= pb.track then return pa.track > pb.track end
    return pa.stamp > pb.stamp
  end)
  s.order = o
end

local function start_phase(s)
  -- what is left on the numbered and black depots leaves the game
  for k = 1, 6 do
    for j = 1, 4 do
      local n = s.depots[k].tiles[j]
      if n then s.box[#s.box + 1] = n end
      s.depots[k].tiles[j] = false
    end
  end
  for j = 1, D.BLACK do
    if s.black[j] then s.box[#s.box + 1] = s.black[j] end
    s.black[j] = false
  end
  local per = math.min(4, s.n)
  for k = 1, 6 do
    for j = 1, per do
      local n = draw(s, s.piles[D.DEPOTS[k][j]])
      s.depots[k].tiles[j] = n or false
    end
  end
  for j = 1, math.min(D.BLACK, D.BLACK_PER_PLAYER * s.n) do s.black[j] = draw(s, s.black_pile) or false end
  s.round_goods = {}
  for r = 1, D.ROUNDS do s.round_goods[r] = draw(s, s.goods_stack) or 0 end
end

local function start_round(s)
  compute_order(s)
  for i = 1, s.n do
    local p = s.players[i]
    p.dice = { kit.rand(s, 6), kit.rand(s, 6) }
    table.sort(p.dice)
    p.bought = false
  end
  s.white = kit.rand(s, 6)
  local g = s.round_goods[s.round]
  if g and g > 0 then
    local dg = s.depots[s.white].goods
    dg[#dg + 1] = g
    table.sort(dg)
    s.round_goods[s.round] = 0
  end
  s.oi = 1
  s.turn = s.order[1]
end

function G.setup(n, seed)
  if type(n) ~= "number" or n < G.players.min or n > G.players.max then
    error("The Castles of Burgundy is for 2 to 4 players, not " .. tostring(n), 2)
  end
  local s = { n = n, rng = kit.seed_state(seed), phase = 1, round = 1, order = {}, oi = 1, turn = 1,
              white = 1, depots = {}, black = {}, round_goods = {}, goods_stack = {}, piles = {},
              black_pile = {}, box = {}, bonus = {}, pend = {}, over = false, players = {} }
  local rnd = rand_of(s)
  for _, k in ipairs(D.KINDS) do s.piles[k.id] = {} end
  local starts = {}
  for _, t in ipairs(TILE) do
    if t.back == "start" then starts[#starts + 1] = t.n
    elseif t.back == "black" then s.black_pile[#s.black_pile + 1] = t.n
    else table.insert(s.piles[t.kind], t.n) end
  end
  for _, k in ipairs(D.KINDS) do kit.shuffle(s.piles[k.id], rnd) end
  kit.shuffle(s.black_pile, rnd)
  for g = 1, 6 do for _ = 1, D.GOODS_PER_TYPE do s.goods_stack[#s.goods_stack + 1] = g end end
  kit.shuffle(s.goods_stack, rnd)
  for _, k in ipairs(D.KINDS) do s.bonus[k.id] = {} end
  for k = 1, 6 do s.depots[k] = { tiles = { false, false, false, false }, goods = {} } end
  for i = 1, n do
    local estate = {}
    for h = 1, NSP do estate[h] = false end
    local p = { estate = estate, storage = {}, goods = {}, sold = { 0, 0, 0, 0, 0, 0 }, silver = D.START_SILVER,
                workers = i, vp = 0, track = 0, stamp = n - i, dice = {}, bought = false, know = {},
                bonus = {} }
    for k = 1, 26 do p.know[k] = false end
    p.estate[START] = starts[i]
    for _ = 1, D.START_GOODS do
      local g = draw(s, s.goods_stack)
      local slot
      for _, sl in ipairs(p.goods) do if sl.type == g then slot = sl end end
      if slot then slot.count = slot.count + 1
      elseif #p.goods < D.GOODS_SLOTS then p.goods[#p.goods + 1] = { type = g, count = 1 }
      else s.goods_stack[#s.goods_stack + 1] = g end
    end
    table.sort(p.goods, function(a, b) return a.type < b.type end)
    s.players[i] = p
  end
  for j = n + 1, #starts do s.box[#s.box + 1] = starts[j] end
  start_phase(s)
  start_round(s)
  return s
end

function G.is_terminal(s) return s.over end
function G.current_seats(s) if s.over then return {} end return { s.turn } end

-- estate ----------------------------------------------------------------------------------

local function city_has(p, space, building)
  for _, h in ipairs(REGIONS[REGION[space]].spaces) do
    local n = p.estate[h]
    if n and TILE[n].building == building then return true end
  end
  return false
end

-- can_place(p, n, h) -> the tile may go on the empty space h (colour, adjacency, city rule)
local function can_place(p, n, h)
  if p.estate[h] then return false end
  local t = TILE[n]
  if KIND_OF_LETTER[D.SPACES[h].letter] ~= t.kind then return false end
  local adj = false
  for _, q in ipairs(NB[h]) do if p.estate[q] then adj = true; break end end
  if not adj then return false end
  if t.kind == "building" and not has_k(p, 1) and city_has(p, h, t.building) then return false end
  return true
end
G.can_place = can_place

local function region_full(p, r)
  for _, h in ipairs(REGIONS[r].spaces) do if not p.estate[h] then return false end end
  return true
end

local function kind_full(p, kind)
  for h = 1, NSP do
    if not p.estate[h] and KIND_OF_LETTER[D.SPACES[h].letter] == kind then return false end
  end
  return true
end

local function empty_spaces(p)
  local k = 0
  for h = 1, NSP do if not p.estate[h] then k = k + 1 end end
  return k
end
G.empty_spaces = empty_spaces

-- animal_points(p, h) -> points for the animal tile just placed on h: the animals of its type on
-- every tile of that type in the pasture (the new one included), + 1 per such tile (knowledge 7)
local function animal_points(p, h)
  local t = TILE[p.estate[h]]
  local pts, tiles = 0, 0
  for _, q in ipairs(REGIONS[REGION[h]].spaces) do
    local m = p.estate[q]
    if m and TILE[m].animal == t.animal then pts = pts + TILE[m].count; tiles = tiles + 1 end
  end
  if has_k(p, 7) then pts = pts + tiles end
  return pts
end
G.animal_points = animal_points

-- goods -------------------------------------------------------------------------------------

local function goods_slot(p, g)
  for j, sl in ipairs(p.goods) do if sl.type == g then return sl, j end end
end

-- receive(s, p, list): goods taken by a ship, types in order of most tiles (then lower number);
-- a type that finds no free storage space stays on the board (returned)
local function receive(p, list)
  local by, types = {}, {}
  for _, g in ipairs(list) do
    if not by[g] then by[g] = 0; types[#types + 1] = g end
    by[g] = by[g] + 1
  end
  table.sort(types, function(a, b) if by[a] ~= by[b] then return by[a] > by[b] end return a < b end)
  local left = {}
  for _, g in ipairs(types) do
    local sl = goods_slot(p, g)
    if sl then sl.count = sl.count + by[g]
    elseif #p.goods < D.GOODS_SLOTS then p.goods[#p.goods + 1] = { type = g, count = by[g] }
    else for _ = 1, by[g] do left[#left + 1] = g end end
  end
  table.sort(p.goods, function(a, b) return a.type < b.type end)
  table.sort(left)
  return left
end

local function sell(s, p, g)
  local sl, j = goods_slot(p, g)
  if not sl then return end
  table.remove(p.goods, j)
  p.sold[g] = p.sold[g] + sl.count
  p.silver = p.silver + 1 + (has_k(p, 3) and 1 or 0)
  if has_k(p, 4) then p.workers = p.workers + 1 end
  p.vp = p.vp + sl.count * D.SELL_POINTS[s.n]
end

local function take_workers(p)
  p.workers = p.workers + (has_k(p, 14) and 4 or D.WORKERS_TAKEN)
  if has_k(p, 13) then p.silver = p.silver + 1 end
end

-- storage: put a tile in; when full the player first discards one (a pending choice)
local function store(s, p, n)
  if #p.storage < D.STORAGE then
    p.storage[#p.storage + 1] = n
  else
    table.insert(s.pend, { kind = "discard", tile = n })
  end
end

-- take a tile off a numbered or the black depot
local function lift(s, n)
  for k = 1, 6 do
    for j = 1, 4 do if s.depots[k].tiles[j] == n then s.depots[k].tiles[j] = false; return k end end
  end
  for j = 1, D.BLACK do if s.black[j] == n then s.black[j] = false; return 0 end end
end

local function depot_of(s, n)
  for k = 1, 6 do for j = 1, 4 do if s.depots[k].tiles[j] == n then return k end end end
  for j = 1, D.BLACK do if s.black[j] == n then return 0 end end
end

local function in_storage(p, n)
  for j, m in ipairs(p.storage) do if m == n then return j end end
end

-- placing a tile and its immediate effects -----------------------------------------------

local function ship_pend(s, p)
  for k = 1, 6 do
    if #s.depots[k].goods > 0 then table.insert(s.pend, { kind = "ship" }); return end
  end
end

local function place(s, seat, n, h)
  local p = s.players[seat]
  table.remove(p.storage, in_storage(p, n))
  p.estate[h] = n
  local t = TILE[n]
  -- points first: a completed region, a completed colour, animals
  local r = REGION[h]
  if region_full(p, r) then
    p.vp = p.vp + D.REGION_POINTS[#REGIONS[r].spaces] + D.PHASE_BONUS[s.phase]
  end
  if kind_full(p, t.kind) then
    local b = s.bonus[t.kind]
    if #b < 2 then
      b[#b + 1] = seat
      p.bonus[#p.bonus + 1] = t.kind
      p.vp = p.vp + (#b == 1 and D.BONUS_FIRST[s.n] or D.BONUS_SECOND[s.n])
    end
  end
  if t.kind == "animal" then
    p.vp = p.vp + animal_points(p, h)
  elseif t.kind == "ship" then
    local top_stamp = 0
    for i = 1, s.n do top_stamp = math.max(top_stamp, s.players[i].stamp) end
    p.track = p.track + 1
    p.stamp = top_stamp + 1
    ship_pend(s, p)
  elseif t.kind == "castle" then
    table.insert(s.pend, { kind = "die" })
  elseif t.kind == "knowledge" then
    p.know[t.knowledge] = true
  elseif t.kind == "building" then
    local b = t.building
    if b == "watchtower" then p.vp = p.vp + D.WATCHTOWER
    elseif b == "boarding" then p.workers = p.workers + D.BOARDING
    elseif b == "bank" then p.silver = p.silver + D.BANK
    elseif b == "warehouse" then if #p.goods > 0 then table.insert(s.pend, { kind = "sell" }) end
    elseif b == "carpenter" then table.insert(s.pend, { kind = "take", what = "building" })
    elseif b == "church" then table.insert(s.pend, { kind = "take", what = "church" })
    elseif b == "market" then table.insert(s.pend, { kind = "take", what = "market" })
    elseif b == "cityhall" then table.insert(s.pend, { kind = "place" })
    end
  end
end

local TAKE_FILTER = {
  building = { building = true },
  church = { mine = true, castle = true, knowledge = true },
  market = { ship = true, animal = true },
}

-- the end of a turn, a round, a phase, the game --------------------------------------------

local function final_points(s, p)
  local pts = 0
  for _, sl in ipairs(p.goods) do pts = pts + sl.count end
  pts = pts + p.silver + p.workers // 2
  local sold_tiles, sold_types = 0, 0
  for g = 1, 6 do sold_tiles = sold_tiles + p.sold[g]; if p.sold[g] > 0 then sold_types = sold_types + 1 end end
  for k, e in ipairs(D.KNOWLEDGE) do
    if e[1] == "end" and has_k(p, k) then
      local what = e[3]
      if what == "types_sold" then pts = pts + 3 * sold_types
      elseif what == "tiles_sold" then pts = pts + sold_tiles
      elseif what == "bonus" then pts = pts + 2 * #p.bonus
      elseif what == "animal_types" then
        local seen = {}
        for h = 1, NSP do
          local n = p.estate[h]
          if n and TILE[n].animal and not seen[TILE[n].animal] then seen[TILE[n].animal] = true; pts = pts + 4 end
        end
      else
        for h = 1, NSP do
          local n = p.estate[h]
          if n and TILE[n].building == what then pts = pts + 4 end
        end
      end
    end
  end
  return pts
end
G.final_points = final_points

local function end_phase(s)
  for i = 1, s.n do
    local p = s.players[i]
    local mines = 0
    for h = 1, NSP do
      local n = p.estate[h]
      if n and TILE[n].kind == "mine" then mines = mines + 1 end
    end
    p.silver = p.silver + mines
    if has_k(p, 2) then p.workers = p.workers + mines end
  end
end

local function end_turn(s)
  local p = s.players[s.turn]
  p.dice, p.bought = {}, false
  s.oi = s.oi + 1
  if s.oi <= s.n then s.turn = s.order[s.oi]; return end
  if s.round < D.ROUNDS then
    s.round = s.round + 1
  else
    end_phase(s)
    if s.phase == D.PHASES then
      for i = 1, s.n do
        local q = s.players[i]
        q.final = final_points(s, q)
        q.vp = q.vp + q.final
      end
      s.over = true
      return
    end
    s.phase, s.round = s.phase + 1, 1
    start_phase(s)
  end
  start_round(s)
end

-- legal actions ----------------------------------------------------------------------------

local function dice_values(p)
  local out, seen = {}, {}
  for _, d in ipairs(p.dice) do if not seen[d] then seen[d] = true; out[#out + 1] = d end end
  return out
end

-- the purchase costs 2 silverlings, with or without knowledge 6 (which opens the numbered
-- depots to it); workers never pay for it
local function can_buy(_, p)
  return not p.bought and p.silver >= D.BUY_COST
end

-- the pending choice on top of the stack, dropped while it offers nothing
local function top(s) return s.pend[#s.pend] end

-- options(s, seat, die, add, bare): the die actions for one die ("x" castle, numbers)
local function die_actions(s, seat, die, add)
  local p = s.players[seat]
  local function workers_word(c) return c > 0 and string.format(" (%d worker%s)", c, c > 1 and "s" or "") or "" end
  for k = 1, 6 do
    local free = has_k(p, 12)
    local c = cost(p, die, k, free)
    if c <= p.workers then
      for j = 1, 4 do
        local n = s.depots[k].tiles[j]
        if n then
          add("take:" .. die .. ":" .. tid(n), function()
            return string.format("take %s from depot %d into storage%s", tile_words(n), k, workers_word(c))
          end)
        end
      end
    end
  end
  for _, n in ipairs(p.storage) do
    local free = place_free(p, TILE[n].kind)
    for h = 1, NSP do
      if can_place(p, n, h) then
        local c = cost(p, die, D.SPACES[h].die, free)
        if c <= p.workers then
          add("place:" .. die .. ":" .. tid(n) .. ":" .. D.SPACES[h].name, function()
            return string.format("place %s on %s (die %d)%s", tile_words(n), D.SPACES[h].name, D.SPACES[h].die, workers_word(c))
          end)
        end
      end
    end
  end
  for _, sl in ipairs(p.goods) do
    local c = cost(p, die, sl.type, false)
    if c <= p.workers then
      add("sell:" .. die .. ":" .. sl.type, function()
        return string.format("sell %d goods of type %d for %d points and a silverling%s", sl.count, sl.type,
          sl.count * D.SELL_POINTS[s.n], workers_word(c))
      end)
    end
  end
  add("workers:" .. die, function()
    return die == "x" and "take workers with the castle's free action" or ("take workers with die " .. die)
  end)
end

function G.legal_actions(s, seat, bare)
  local r = {}
  if s.over or seat ~= s.turn then return r end
  local p = s.players[seat]
  local function add(id, label) r[#r + 1] = { id = id, label = bare and "" or label() } end
  local pe = top(s)
  if pe then
    if pe.kind == "discard" then
      for _, n in ipairs(p.storage) do
        add("discard:" .. tid(n), function() return "storage is full: discard " .. tile_words(n) .. " to store " .. tile_words(pe.tile) end)
      end
    elseif pe.kind == "die" then
      die_actions(s, seat, "x", add)
    elseif pe.kind == "take" then
      local f = TAKE_FILTER[pe.what]
      for k = 1, 6 do
        for j = 1, 4 do
          local n = s.depots[k].tiles[j]
          if n and f[TILE[n].kind] then
            add("take:f:" .. tid(n), function() return string.format("take %s from depot %d (building effect)", tile_words(n), k) end)
          end
        end
      end
      add("skip", function() return "take nothing" end)
    elseif pe.kind == "place" then
      for _, n in ipairs(p.storage) do
        for h = 1, NSP do
          if can_place(p, n, h) then
            add("place:f:" .. tid(n) .. ":" .. D.SPACES[h].name, function()
              return string.format("place %s on %s (city hall: any number)", tile_words(n), D.SPACES[h].name)
            end)
          end
        end
      end
      add("skip", function() return "place nothing" end)
    elseif pe.kind == "sell" then
      for _, sl in ipairs(p.goods) do
        add("sell:f:" .. sl.type, function()
          return string.format("sell %d goods of type %d for %d points and a silverling (warehouse)", sl.count, sl.type, sl.count * D.SELL_POINTS[s.n])
        end)
      end
    elseif pe.kind == "ship" then
      for k = 1, 6 do
        local k2 = k % 6 + 1
        local a, b = #s.depots[k].goods, #s.depots[k2].goods
        if a > 0 then
          add("ship:" .. k, function() return string.format("ship: take the %d goods of depot %d (%s)", a, k, table.concat(s.depots[k].goods, ",")) end)
        end
        if has_k(p, 5) and a + b > 0 and a > 0 and b > 0 then
          add("ship:" .. k .. "+" .. k2, function() return string.format("ship: take the goods of depots %d and %d (%d goods)", k, k2, a + b) end)
        end
      end
    end
    return r
  end
  for _, d in ipairs(dice_values(p)) do die_actions(s, seat, d, add) end
  if can_buy(s, p) then
    for j = 1, D.BLACK do
      local n = s.black[j]
      if n then add("buy:" .. tid(n), function() return string.format("buy %s from the black depot for 2 silverlings", tile_words(n)) end) end
    end
    if has_k(p, 6) then
      for k = 1, 6 do
        for j = 1, 4 do
          local n = s.depots[k].tiles[j]
          if n then add("buy:" .. tid(n), function() return string.format("buy %s from depot %d for 2 silverlings (knowledge 6)", tile_words(n), k) end) end
        end
      end
    end
  end
  if #p.dice == 0 then add("end", function() return "end the turn" end) end
  return r
end

-- after an action: drop pending choices that offer nothing, end the turn when nothing is left
local function settle(s)
  while true do
    local pe = top(s)
    if not pe then break end
    local p = s.players[s.turn]
    local keep = true
    if pe.kind == "take" then
      keep = false
      local f = TAKE_FILTER[pe.what]
      for k = 1, 6 do for j = 1, 4 do local n = s.depots[k].tiles[j]; if n and f[TILE[n].kind] then keep = true end end end
    elseif pe.kind == "place" then
      keep = false
      for _, n in ipairs(p.storage) do for h = 1, NSP do if can_place(p, n, h) then keep = true end end end
    elseif pe.kind == "sell" then keep = #p.goods > 0
    elseif pe.kind == "ship" then
      keep = false
      for k = 1, 6 do if #s.depots[k].goods > 0 then keep = true end end
    end
    if keep then break end
    table.remove(s.pend)
  end
  local p = s.players[s.turn]
  if #s.pend == 0 and #p.dice == 0 then
    local buy = false
    if can_buy(s, p) then
      for j = 1, D.BLACK do if s.black[j] then buy = true end end
      if has_k(p, 6) then for k = 1, 6 do for j = 1, 4 do if s.depots[k].tiles[j] then buy = true end end end end
    end
    if not buy then end_turn(s) end
  end
end

local function use_die(p, die, target, free)
  if die == "x" or die == "f" then return true end
  for j, d in ipairs(p.dice) do
    if d == die then
      table.remove(p.dice, j)
      p.workers = p.workers - cost(p, die, target, free)
      return true
    end
  end
end

function G.apply(s, seat, id)
  if s.over or seat ~= s.turn then return nil, "not this seat's turn" end
  if type(id) ~= "string" then return nil, "unknown action" end
  local legal = false
  for _, a in ipairs(G.legal_actions(s, seat, true)) do if a.id == id then legal = true; break end end
  if not legal then return nil, "not a legal action now: " .. id end
  local p = s.players[seat]
  local kind, rest = id:match("^(%a+):?(.*)$")
  local pe = top(s)
  if kind == "discard" then
    local n = tnum(rest)
    table.remove(p.storage, in_storage(p, n))
    s.box[#s.box + 1] = n
    p.storage[#p.storage + 1] = pe.tile
    table.remove(s.pend)
  elseif kind == "skip" then
    table.remove(s.pend)
  elseif kind == "end" then
    end_turn(s)
    return true
  elseif kind == "buy" then
    local n = tnum(rest)
    lift(s, n)
    p.silver = p.silver - D.BUY_COST
    p.bought = true
    store(s, p, n)
  elseif kind == "ship" then
    table.remove(s.pend)
    local list = {}
    for k in rest:gmatch("%d") do
      local dg = s.depots[tonumber(k)].goods
      for _, g in ipairs(dg) do list[#list + 1] = g end
      s.depots[tonumber(k)].goods = {}
    end
    local left = receive(p, list)
    if #left > 0 then
      local k = tonumber(rest:match("^%d"))
      for _, g in ipairs(left) do table.insert(s.depots[k].goods, g) end
      table.sort(s.depots[k].goods)
    end
  else
    local die, a, b = rest:match("^(%w):?([%w]*):?(%w*)$")
    local dnum = tonumber(die) or die
    if pe and (dnum == "x" or dnum == "f") then table.remove(s.pend) end
    if kind == "take" then
      local n = tnum(a)
      local k = depot_of(s, n)
      use_die(p, dnum, k, has_k(p, 12))
      lift(s, n)
      store(s, p, n)
    elseif kind == "place" then
      local n, h = tnum(a), SPID[b]
      use_die(p, dnum, D.SPACES[h].die, place_free(p, TILE[n].kind))
      place(s, seat, n, h)
    elseif kind == "sell" then
      local g = tonumber(a)
      use_die(p, dnum, g, false)
      sell(s, p, g)
    elseif kind == "workers" then
      use_die(p, dnum, dnum, false)
      take_workers(p)
    end
  end
  settle(s)
  return true
end

-- the tie-break: the tied player with more empty spaces on the estate is ahead (the original
-- rule, which Board Game Arena's help says the English translation gets wrong); the English
-- text's reading, fewer empty spaces ahead, is G.TIE_MOST_EMPTY = false (RULES.md)
G.TIE_MOST_EMPTY = true

function G.ranking(s)
  local keys, scores = {}, {}
  for i = 1, s.n do
    local p = s.players[i]
    scores[i] = s.over and p.vp or (p.vp + final_points(s, p))
    keys[i] = { scores[i], G.TIE_MOST_EMPTY and empty_spaces(p) or -empty_spaces(p) }
  end
  return { ranks = kit.ranks(keys), scores = scores }
end

-- observation --------------------------------------------------------------------------------

local function tile_view(n)
  if not n then return false end
  local t = TILE[n]
  local v = { id = tid(n), kind = t.kind }
  if t.building then v.building = t.building end
  if t.animal then v.animal, v.count = t.animal, t.count end
  if t.knowledge then v.knowledge = t.knowledge end
  return v
end
G.tile_view = tile_view

local function pile_counts(list)
  local c = {}
  for _, n in ipairs(list) do
    local t = TILE[n]
    local key = t.kind
    c[key] = (c[key] or 0) + 1
  end
  return c
end

-- observation: everything on the table is public; hidden are only the order of the face-down
-- tile piles and of the goods stack and the future dice (the generator). The piles' contents by
-- kind are public (anyone can count what has come out), so they are shown.
function G.observation(s, seat)
  local o = { game = "burgundy", seat = seat, n = s.n, phase = s.phase, round = s.round, turn = s.turn,
              over = s.over, order = { table.unpack(s.order) }, white = s.white, scores = {}, depots = {},
              black = {}, round_goods = { table.unpack(s.round_goods) }, goods_stack = #s.goods_stack,
              piles = {}, black_pile = pile_counts(s.black_pile), removed = #s.box, bonus = {}, pending = {},
              players = {} }
  for _, k in ipairs(D.KINDS) do o.piles[k.id] = #s.piles[k.id]; o.bonus[k.id] = { table.unpack(s.bonus[k.id]) } end
  for k = 1, 6 do
    local d = { tiles = {}, goods = { table.unpack(s.depots[k].goods) } }
    for j = 1, 4 do d.tiles[j] = tile_view(s.depots[k].tiles[j]) end
    o.depots[k] = d
  end
  for j = 1, D.BLACK do o.black[j] = tile_view(s.black[j]) end
  for j, pe in ipairs(s.pend) do
    o.pending[j] = { kind = pe.kind, what = pe.what, tile = pe.tile and tile_view(pe.tile) or nil }
  end
  local rk = G.ranking(s)
  for i = 1, s.n do
    local p = s.players[i]
    o.scores[i] = rk.scores[i]
    local estate = {}
    for h = 1, NSP do
      if p.estate[h] then estate[D.SPACES[h].name] = tile_view(p.estate[h]) end
    end
    local storage = {}
    for j, n in ipairs(p.storage) do storage[j] = tile_view(n) end
    local goods = {}
    for j, sl in ipairs(p.goods) do goods[j] = { type = sl.type, count = sl.count } end
    local know = {}
    for k = 1, 26 do if p.know[k] then know[#know + 1] = k end end
    o.players[i] = { vp = p.vp, score = rk.scores[i], estate = estate, storage = storage, goods = goods,
                     sold = { table.unpack(p.sold) }, silver = p.silver, workers = p.workers, track = p.track,
                     dice = { table.unpack(p.dice) }, bought = p.bought, knowledge = know,
                     bonus = { table.unpack(p.bonus) }, empty = empty_spaces(p) }
  end
  return o
end

local function view_words(v)
  if not v then return "-" end
  if v.kind == "building" then return v.id .. " " .. BUILDING[v.building].name end
  if v.kind == "animal" then return v.id .. " " .. v.count .. " " .. v.animal end
  if v.kind == "knowledge" then return v.id .. " knowledge " .. v.knowledge end
  return v.id .. " " .. v.kind
end

function G.render(o)
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  add("The Castles of Burgundy, phase %s (%d of 5), round %d of 5. You are player %d of %d.%s",
    D.PHASE_NAMES[o.phase], o.phase, o.round, o.seat, o.n,
    o.over and " The game is over." or string.format(" Player %d to move.", o.turn))
  local ord = {}
  for j, i in ipairs(o.order) do ord[j] = tostring(i) end
  add("Turn order this round: %s. White die: %d.", table.concat(ord, ", "), o.white)
  if #o.pending > 0 then
    local w = {}
    for j, pe in ipairs(o.pending) do
      w[j] = pe.kind == "die" and "a castle's free action (any die number)"
        or pe.kind == "take" and ("a building's free take (" .. pe.what .. ")")
        or pe.kind == "place" and "the city hall's free placement"
        or pe.kind == "sell" and "the warehouse's free sale"
        or pe.kind == "ship" and "the ship's goods (choose a depot)"
        or pe.kind == "discard" and ("storage is full: discard one to store " .. view_words(pe.tile))
        or pe.kind
    end
    add("Pending (last first): %s.", table.concat(w, "; "))
  end
  add("")
  add("Depots (tiles; goods by type):")
  for k, d in ipairs(o.depots) do
    local w = {}
    for _, v in ipairs(d.tiles) do if v then w[#w + 1] = view_words(v) end end
    add("  %d: %s; goods %s", k, #w > 0 and table.concat(w, ", ") or "none", #d.goods > 0 and table.concat(d.goods, ",") or "none")
  end
  local w = {}
  for _, v in ipairs(o.black) do if v then w[#w + 1] = view_words(v) end end
  add("  black depot (2 silverlings, once a turn): %s", #w > 0 and table.concat(w, ", ") or "empty")
  local rg = {}
  for r, g in ipairs(o.round_goods) do if g > 0 then rg[#rg + 1] = string.format("round %d: %d", r, g) end end
  add("Goods still to come this phase: %s. Goods stack: %d. Tiles in piles: castle %d, ship %d, animal %d, mine %d, building %d, knowledge %d.",
    #rg > 0 and table.concat(rg, ", ") or "none", o.goods_stack, o.piles.castle, o.piles.ship, o.piles.animal, o.piles.mine,
    o.piles.building, o.piles.knowledge)
  local bw = {}
  for _, k in ipairs(D.KINDS) do
    local b = o.bonus[k.id]
    if #b > 0 then bw[#bw + 1] = k.id .. ": " .. table.concat(b, ",") end
  end
  add("Colour bonuses taken (first, second): %s.", #bw > 0 and table.concat(bw, "; ") or "none")
  for i, p in ipairs(o.players) do
    add("")
    local dice = {}
    for j, d in ipairs(p.dice) do dice[j] = tostring(d) end
    add("Player %d%s: %d points (%d on the track), %d silverlings, %d workers, ship track %d, %d empty spaces; dice %s%s",
      i, i == o.seat and " (you)" or "", p.score, p.vp, p.silver, p.workers, p.track, p.empty,
      #dice > 0 and table.concat(dice, ",") or "used", p.bought and "; bought this turn" or "")
    local st = {}
    for j, v in ipairs(p.storage) do st[j] = view_words(v) end
    local gd = {}
    for j, g in ipairs(p.goods) do gd[j] = g.count .. "x type " .. g.type end
    local sold = {}
    for g = 1, 6 do if p.sold[g] > 0 then sold[#sold + 1] = p.sold[g] .. "x" .. g end end
    add("  storage: %s; goods: %s; sold: %s; knowledge: %s; bonus tiles: %s",
      #st > 0 and table.concat(st, ", ") or "empty", #gd > 0 and table.concat(gd, ", ") or "none",
      #sold > 0 and table.concat(sold, ", ") or "none",
      #p.knowledge > 0 and table.concat(p.knowledge, ",") or "none", #p.bonus > 0 and table.concat(p.bonus, ",") or "none")
    local h = 0
    for r, row in ipairs(D.ROWS) do
      local cells = {}
      for _ in row:gmatch("%u%d") do
        h = h + 1
        local sp = D.SPACES[h]
        local v = p.estate[sp.name]
        cells[#cells + 1] = sp.name .. " " .. sp.letter .. sp.die .. (v and ("=" .. view_words(v):gsub("^t%d+ ", "")) or "")
      end
      add("  %s: %s", string.char(96 + r), table.concat(cells, " | "))
    end
  end
  add("")
  add("Spaces: <name> <colour letter><die number>[=tile placed]. C castle (dark green), W water (ships), P pasture (animals), M mine, B city (buildings), K knowledge (yellow).")
  add("Rows a-g have 4,5,6,7,6,5,4 spaces. Space j touches j-1 and j+1 of its row; in rows a-c also j and j+1 of the row below and j-1 and j of the row above; in row d j-1 and j of rows c and e; in rows e-g j-1 and j of the row below and j and j+1 of the row above (b2 touches a1 a2 b1 b3 c2 c3; d4 touches c3 c4 d3 d5 e3 e4; f2 touches e2 e3 f1 f3 g1 g2).")
  add("Knowledge tiles: " .. (function()
    local kw = {}
    for k, e in ipairs(D.KNOWLEDGE) do kw[k] = k .. " " .. e[2] end
    return table.concat(kw, "; ")
  end)() .. ".")
  return table.concat(out, "\n")
end

-- heuristic (fixed action scores) -------------------------------------------------------------

local KIND_VALUE = { castle = 7, ship = 4, animal = 3, mine = 5, building = 4, knowledge = 4 }
local BUILDING_VALUE = { warehouse = 3, watchtower = 4, carpenter = 3, church = 3, market = 3, boarding = 3, bank = 3, cityhall = 4 }

-- place_value(s, p, n, h): the points and effects of putting tile n on h, judged locally
local function place_value(s, p, n, h)
  local t = TILE[n]
  local v = KIND_VALUE[t.kind]
  if t.kind == "building" then v = BUILDING_VALUE[t.building] end
  if t.kind == "mine" then v = v + (5 - s.phase) end
  if t.kind == "knowledge" and D.KNOWLEDGE[t.knowledge][1] == "end" then v = v + 1 end
  local r = REGION[h]
  local missing = 0
  for _, q in ipairs(REGIONS[r].spaces) do if not p.estate[q] then missing = missing + 1 end end
  if missing == 1 then v = v + D.REGION_POINTS[#REGIONS[r].spaces] + D.PHASE_BONUS[s.phase] end
  if t.kind == "animal" then
    p.estate[h] = n
    v = v + animal_points(p, h)
    p.estate[h] = false
  end
  return v
end

local function storable_value(s, p, n)
  local t = TILE[n]
  local v = KIND_VALUE[t.kind] * 0.6
  -- worth more when some space of its colour is open next to the estate
  for h = 1, NSP do
    if not p.estate[h] and KIND_OF_LETTER[D.SPACES[h].letter] == t.kind then
      for _, q in ipairs(NB[h]) do
        if p.estate[q] then return v + 1.5 end
      end
    end
  end
  return v - 1
end

function G.heuristic(s, seat, id)
  local p = s.players[seat]
  local kind, rest = id:match("^(%a+):?(.*)$")
  local die, a, b = rest:match("^(%w):?([%w]*):?(%w*)$")
  local dnum = tonumber(die) or die
  local function workers_spent(target, free)
    if dnum == "x" or dnum == "f" or not dnum then return 0 end
    return cost(p, dnum, target, free)
  end
  if kind == "place" then
    local n, h = tnum(a), SPID[b]
    return 10 + place_value(s, p, n, h) - 1.5 * workers_spent(D.SPACES[h].die, place_free(p, TILE[n].kind))
  elseif kind == "take" then
    local n = tnum(a)
    local full = #p.storage >= D.STORAGE and 2 or 0
    return 4 + storable_value(s, p, n) - full - 1.5 * workers_spent(depot_of(s, n), has_k(p, 12))
  elseif kind == "sell" then
    local sl = goods_slot(p, tonumber(a))
    return 5 + sl.count * D.SELL_POINTS[s.n] * 0.7 - 1.5 * workers_spent(sl.type, false)
  elseif kind == "workers" then
    return 3 - 0.2 * p.workers
  elseif kind == "buy" then
    return (#p.storage < D.STORAGE and 3 or 0) + storable_value(s, p, tnum(rest)) - 2
  elseif kind == "discard" then
    return -storable_value(s, p, tnum(rest))
  elseif kind == "ship" then
    local k = 0
    for d in rest:gmatch("%d") do k = k + #s.depots[tonumber(d)].goods end
    return k
  elseif kind == "skip" then
    return -1
  end
  return 0
end

-- estimate(state) -> per seat: points now (with the end scoring as it stands) plus a share of what
-- storage, goods and silverlings could still bring
function G.estimate(s)
  local est = {}
  for i = 1, s.n do
    local p = s.players[i]
    local v = p.vp + final_points(s, p)
    v = v + 1.5 * #p.storage
    for _, sl in ipairs(p.goods) do v = v + sl.count * (D.SELL_POINTS[s.n] - 1) * 0.5 end
    est[i] = v
  end
  return est
end

-- determinize: nothing held is hidden; the unknowns are the orders of the tile piles and of the
-- goods stack and the future dice (from the generator): piles and stack are reshuffled and the
-- generator reseeded
function G.determinize(s, _, rand)
  local d = kit.reseeded(s, rand)
  for _, k in ipairs(D.KINDS) do kit.shuffle(d.piles[k.id], rand) end
  kit.shuffle(d.black_pile, rand)
  kit.shuffle(d.goods_stack, rand)
  return d
end

-- turns_played(state) -> player turns begun or finished so far (25 rounds x n at the end)
function G.turns_played(s)
  if s.over then return D.PHASES * D.ROUNDS * s.n end
  return ((s.phase - 1) * D.ROUNDS + s.round - 1) * s.n + s.oi - 1
end

-- counts_decision: a choice with a single legal action is no decision
function G.counts_decision(s, seat)
  return #G.legal_actions(s, seat, true) > 1
end

-- census(s) -> tiles everywhere (a list of where each tile is) and goods by type
function G.census(s)
  local where, goods = {}, { 0, 0, 0, 0, 0, 0 }
  local function at(n, w)
    if where[n] then error("tile " .. n .. " is in two places: " .. where[n] .. " and " .. w, 0) end
    where[n] = w
  end
  for _, k in ipairs(D.KINDS) do for _, n in ipairs(s.piles[k.id]) do at(n, "pile") end end
  for _, n in ipairs(s.black_pile) do at(n, "black pile") end
  for _, n in ipairs(s.box) do at(n, "box") end
  for k = 1, 6 do
    for j = 1, 4 do if s.depots[k].tiles[j] then at(s.depots[k].tiles[j], "depot") end end
    for _, g in ipairs(s.depots[k].goods) do goods[g] = goods[g] + 1 end
  end
  for j = 1, D.BLACK do if s.black[j] then at(s.black[j], "black depot") end end
  for _, pe in ipairs(s.pend) do if pe.tile then at(pe.tile, "pending") end end
  for _, g in ipairs(s.goods_stack) do goods[g] = goods[g] + 1 end
  for _, g in ipairs(s.round_goods) do if g > 0 then goods[g] = goods[g] + 1 end end
  for i = 1, s.n do
    local p = s.players[i]
    for h = 1, NSP do if p.estate[h] then at(p.estate[h], "estate") end end
    for _, n in ipairs(p.storage) do at(n, "storage") end
    for _, sl in ipairs(p.goods) do goods[sl.type] = goods[sl.type] + sl.count end
    for g = 1, 6 do goods[g] = goods[g] + p.sold[g] end
  end
  local tiles = 0
  for _ in pairs(where) do tiles = tiles + 1 end
  return tiles, goods, where
end

-- about 75 ISMCTS decisions at 2.0 s (1024 simulations, RULES.md) per baseline match; an
-- estimate from that measurement, not from bench/dece_workers.sh
G.match_work = 150   -- seconds per baseline match with ISMCTS at 1024 simulations (games/README.md)

G.svg = function(obs) return require("games.burgundy.svg").draw(obs) end

return G
