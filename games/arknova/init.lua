-- games.arknova — Ark Nova (Mathias Wigge, Feuerland Spiele 2021; English rulebook 2022) against the
-- game interface of games/README.md, 2-4 players, in the scope stated in RULES.md: one zoo map for
-- every seat, the five action cards with both sides, the 128 animal and 64 sponsor cards with
-- their printed numbers, prerequisites and their abilities and effects as families (6 cards'
-- effects out of scope: RULES-AUDIT.md), the base conservation projects and the 20 project cards of
-- the deck (games/arknova/projects.lua), final-scoring cards,
-- the association board, the break and the appeal / conservation tracks with their crossing. A turn is split into sub-decisions: pick an action card (and the
-- X-tokens to spend), then each building, animal, discard, snap or association task is its own
-- choice, ended by `stop` where stopping early is allowed.
-- Components: games/arknova/data.lua, games/arknova/cards.lua; choices where the rulebook leaves
-- room: games/arknova/RULES.md; the drawing: games/arknova/svg.lua.
local kit = require "games.kit"
local D = require "games.arknova.data"
local AB = require "games.arknova.abilities"
local PRE = require "games.arknova.prereqs"

local G = {
  name = "arknova", title = "Ark Nova", players = { min = 2, max = 4 },
  annotations = { engine = 2, spatial = 2, sequencing = 2, coupling = 1, hidden = 2, scoring = 2 },
  rules_file = "games/arknova/rules.md",
  data = D,
  -- no G.incomplete: every zoo card is in play or listed OUT-OF-SCOPE with its reason (hypnosis,
  -- 2 cards; 4 sponsors' effects), and matches end on the crossing; the scope that remains our
  -- own (the map layout, fixed track bonuses) is stated in games/arknova/RULES.md
}

G.MAX_BREAKS = 14   -- a match ends after its 14th break if the markers have not crossed (RULES.md)
G.MAX_TURNS = 80    -- ... or when every seat has played 80 turns (both are options of setup)

local CARD = {}
for _, c in ipairs(D.CARDS) do CARD[c.id] = c end
G.CARD = CARD
local BUILD = {}
for _, b in ipairs(D.BUILDINGS) do BUILD[b.id] = b end
G.BUILD = BUILD
local SLOT_OF = {}
local FINAL = {}
for _, f in ipairs(D.FINALS) do FINAL[f.id] = f end
local PJ = D.PROJECT_DATA
local PROJECT = PJ.BY_ID   -- base projects and project cards by id (games/arknova/projects.lua)
local UNI = {}
for _, u in ipairs(D.UNIVERSITIES) do UNI[u.id] = u end
-- ABILITY[card id] = the animal's ability families { family, value }; SPONSOR[card id] = the
-- sponsor's effect families (games/arknova/abilities.lua); IMPLEMENTED names the animal families
-- this module carries out (the others are out of scope: RULES-AUDIT.md)
local ABILITY, SPONSOR = {}, {}
for _, c in ipairs(D.CARDS) do
  if c.sponsor then SPONSOR[c.id] = AB.SPONSOR[c.num] or {} elseif not c.project then ABILITY[c.id] = AB.ANIMAL[c.num] or {} end
end
G.ABILITY, G.SPONSOR = ABILITY, SPONSOR
G.IMPLEMENTED = { sprint = true, pack = true, hunter = true, clever = true, boost = true, action = true,
  inventive = true, ["full-throated"] = true, jumping = true, ["iconic-animal"] = true, sunbathing = true,
  pouch = true, resistance = true, digging = true, ["sponsor-magnet"] = true, pilfering = true, snapping = true,
  scavenging = true, posturing = true, perception = true, determination = true, peacocking = true,
  venom = true, constriction = true, multiplier = true, flock = true, assertion = true, dominance = true }
-- whether seat's sponsors include an effect of this family; the first such effect
local function has_effect(p, fam)
  for _, id in ipairs(p.sponsors) do
    for _, e in ipairs(SPONSOR[id]) do if e[1] == fam then return e end end
  end
end
G.has_effect = has_effect

-- the map -------------------------------------------------------------------------------------
local NHEX = #D.HEXES
local HEXID, AT, NB, BORDER = {}, {}, {}, {}
for i, h in ipairs(D.HEXES) do HEXID[h.name] = i; AT[h.q .. ":" .. h.r] = i end
for i, h in ipairs(D.HEXES) do
  NB[i] = {}
  for _, d in ipairs(D.DIRS) do
    local j = AT[(h.q + d[1]) .. ":" .. (h.r + d[2])]
    if j then NB[i][#NB[i] + 1] = j end
  end
  BORDER[i] = #NB[i] < 6
end
G.HEXID, G.NB, G.BORDER = HEXID, NB, BORDER
local function hname(i) return D.HEXES[i].name end
G.hex_name = hname
local TERRAIN, B2, BONUS = {}, {}, {}
-- the map of the match (opts.map, D.MAPS): these three tables hold the active one; every entry
-- point sets them from the state's map first (use_map), so matches on different maps can interleave
local active_map
-- (a state or observation without a map comes from before opts.map existed: our layout, "ours")
local function use_map(name)
  name = name or "ours"
  if name == active_map then return end
  local m = D.MAPS[name]
  for _, t in ipairs({ TERRAIN, B2, BONUS }) do for k in pairs(t) do t[k] = nil end end
  for _, n in ipairs(m.rock) do TERRAIN[HEXID[n]] = "rock" end
  for _, n in ipairs(m.water) do TERRAIN[HEXID[n]] = "water" end
  for _, n in ipairs(m.build2) do B2[HEXID[n]] = true end
  for n, b in pairs(m.bonus) do BONUS[HEXID[n]] = b end
  active_map = name
end
use_map(D.DEFAULT_MAP)
G.use_map = use_map
G.TERRAIN, G.B2, G.BONUS = TERRAIN, B2, BONUS

local function distance(i, j)
  local a, b = D.HEXES[i], D.HEXES[j]
  local dq, dr = a.q - b.q, a.r - b.r
  return (math.abs(dq) + math.abs(dr) + math.abs(dq + dr)) // 2
end
G.distance = distance

-- FOOT[type] = every footprint of that building on the map: { anchor, rot, hexes (sorted) },
-- one per distinct set of hexes (turns only, never mirrored)
local FOOT, FOOTID = {}, {}
-- footprints(t, shape): FOOT[t] and FOOTID for a building type of that shape
local function footprints(t, shape)
  FOOT[t] = {}
  local seen = {}
  for i = 1, NHEX do
    local h = D.HEXES[i]
    for rot = 0, 5 do
      local hexes, ok = {}, true
      for _, off in ipairs(shape) do
        local dq, dr = off[1], off[2]
        for _ = 1, rot do dq, dr = -dr, dq + dr end
        local j = AT[(h.q + dq) .. ":" .. (h.r + dr)]
        if not j then ok = false; break end
        hexes[#hexes + 1] = j
      end
      if ok then
        table.sort(hexes)
        local key = table.concat(hexes, ",")
        if not seen[key] then
          seen[key] = true
          local f = { anchor = i, rot = rot, hexes = hexes, id = hname(i) .. ":" .. rot }
          FOOT[t][#FOOT[t] + 1] = f
          FOOTID[t .. ":" .. f.id] = f
        end
      end
      if #shape == 1 then break end
    end
  end
end
for _, b in ipairs(D.BUILDINGS) do footprints(b.id, b.shape) end
G.FOOT = FOOT

-- sponsor buildings (the unique buildings of sponsors 243-257, D.SPONSOR_BUILDINGS): building
-- type "sb<number>", kind "sponsor", no animals; their footprints as for the buildings above
local SB = {}
for num, b in pairs(D.SPONSOR_BUILDINGS) do
  local t = "sb" .. num
  SB["s" .. num] = t
  BUILD[t] = { id = t, name = b.name, shape = b.shape, kind = "sponsor", unique = true, rock = b.rock or 0,
    water = b.water or 0, border = b.border or 0, apart = b.apart, icons = not b.no_icon }
  footprints(t, b.shape)
end
G.SB = SB   -- sponsor card id -> its building type
-- the rock / water icons of a card: an animal's needs (upper left), a sponsor building's needs
local function terrain_icons(c, kind)
  if not c.sponsor then return c[kind] end
  local t = SB[c.id]
  if t and BUILD[t].icons then return BUILD[t][kind] end
  return 0
end
G.terrain_icons = terrain_icons

-- players' zoos ----------------------------------------------------------------------------------
local function new_player()
  local cover = {}
  for i = 1, NHEX do cover[i] = 0 end
  return { money = D.START_MONEY, appeal = 0, cp = 0, rep = 0, x = 0, workers = D.START_WORKERS, busy = 0,
    slots = {}, up = { animals = false, build = false, cards = false, association = false, sponsors = false },
    cover = cover, buildings = {}, zoo = {}, sponsors = {}, partners = {}, unis = {}, supported = {}, hand = {}, public = {},
    finals = {}, turns = 0, tucked = {}, held = {}, tokens = { venom = {}, constriction = {}, multiplier = {} },
    bhand = {}, set_aside = {} }   -- set_aside: the setup discards until every seat has chosen; bhand: base conservation projects taken into the hand (assertion, dominance; public)
end

local function count_icon(p, icon)
  local n = 0
  for _, id in ipairs(p.zoo) do
    local c = CARD[id]
    if c.cont == icon then n = n + (c.flags:find("c") and 2 or 1) end
    if c.class == icon then n = n + (c.flags:find("k") and 2 or 1) end
    if icon == "bear" and c.flags:find("B") then n = n + 1 end
  end
  for _, id in ipairs(p.sponsors) do
    local c = CARD[id]
    if c.cont == icon or c.class == icon then n = n + 1 end
    if icon == "bear" and c.flags:find("B") then n = n + 1 end
    if icon == "science" then n = n + c.science end
  end
  if icon == "science" then for _, u in ipairs(p.unis) do n = n + UNI[u].science end end
  for _, c in ipairs(p.partners) do if c == icon then n = n + 1 end end
  if icon == "rock" or icon == "water" then
    for _, list in ipairs({ p.zoo, p.sponsors }) do
      for _, id in ipairs(list) do n = n + terrain_icons(CARD[id], icon) end
    end
  end
  return n
end
G.count_icon = count_icon
-- what games/arknova/projects.lua needs from here
local PENV = { CARD = CARD, count_icon = count_icon, CLASSES = D.CLASSES, CONTINENTS = D.CONTINENTS }
G.PENV = PENV
-- Migration Recording (224): release projects may be supported again, each support 1 CP more
PENV.release_again = function(p) return has_effect(p, "release-again") ~= nil end
-- WAZA Large Animal Program (263): a large animal (size 4-5) may miss one condition
PENV.ignore_one = function(p, c) return not c.sponsor and c.size >= 4 and has_effect(p, "large-ignore") ~= nil end

-- the rock and water spaces next to the hexes of building b
local function touching(b, kind)
  local seen, n = {}, 0
  for _, h in ipairs(b.hexes) do
    for _, j in ipairs(NB[h]) do
      if TERRAIN[j] == kind and not seen[j] then seen[j] = true; n = n + 1 end
    end
  end
  return n
end
G.touching = touching

local function score_of(p) return p.appeal + D.cp_value(p.cp) - D.CROSSING end
G.score_of = score_of

local function income_of(p)
  local m = 0
  for _, row in ipairs(D.INCOME) do if p.appeal >= row[1] then m = row[2] end end
  for bi, b in ipairs(p.buildings) do
    if b.t == "kiosk" then
      local seen = {}
      for _, j in ipairs(NB[b.hexes[1]]) do
        local o = p.cover[j]
        -- other kiosks and empty standard enclosures give nothing (rulebook p. 18, break step 5b)
        if o ~= 0 and o ~= bi and not seen[o] then
          seen[o] = true
          local ob = p.buildings[o]
          if ob.t ~= "kiosk" and not (BUILD[ob.t].kind == "enclosure" and #ob.animals == 0) then m = m + 1 end
        end
      end
    end
  end
  return m
end
G.income_of = income_of

local function hand_limit(p)
  local lim = D.HAND_LIMIT[p.up.cards]
  for _, u in ipairs(p.unis) do if UNI[u].hand and UNI[u].hand > lim then lim = UNI[u].hand end end
  return lim
end
G.hand_limit = hand_limit

-- cards: deck, display, hands -------------------------------------------------------------------
local function draw(s)
  if #s.deck == 0 then
    if #s.discard == 0 then return nil end
    s.deck, s.discard = s.discard, {}
    kit.shuffle(s.deck, function(k) return kit.rand(s, k) end)
  end
  return table.remove(s.deck)
end

local function draw_to_hand(s, p, k)
  for _ = 1, k do
    local c = draw(s)
    if not c then return end
    p.hand[#p.hand + 1] = c
  end
end

local function take_from_hand(p, id)
  for i, c in ipairs(p.hand) do
    if c == id then table.remove(p.hand, i); p.public[id] = nil; return true end
  end
  return false
end

local function refill_display(s)
  while #s.display < D.DISPLAY do
    local c = draw(s)
    if not c then return end
    s.display[#s.display + 1] = c
  end
end

-- tracks and their bonuses ------------------------------------------------------------------------
local gain_rep, gain_cp
local function bonus(s, seat, what)
  local p = s.players[seat]
  if what == "worker" then if p.workers < D.MAX_WORKERS then p.workers = p.workers + 1 end
  elseif what == "x" then if p.x < D.MAX_X then p.x = p.x + 1 end
  elseif what == "money5" then p.money = p.money + 5
  elseif what == "card" then draw_to_hand(s, p, 1)
  elseif what == "cp" then gain_cp(s, seat, 1)
  elseif what == "take" then s.pend[#s.pend + 1] = { seat = seat, f = "take-card", left = 1 }
  else
    -- a choice: upgrade (if any card is left to upgrade) or worker
    local can_up = false
    for _, a in ipairs(D.ACTIONS) do if not p.up[a] then can_up = true end end
    if can_up or (what == "upgrade_or_worker" and p.workers < D.MAX_WORKERS) then
      s.bonuses[#s.bonuses + 1] = { seat = seat, what = what }
    end
  end
end

-- the reputation a seat's marker may reach: 9 until its Cards card is upgraded, then 15
function G.rep_cap(p) return p.up.cards and D.MAX_REP or D.REP_CAP_BASIC end
-- advance(s, seat, track, k): the marker moves up to k spaces, each bonus space reached gives its bonus
local TRACKS = { rep = { max = D.MAX_REP, bonus = D.REP_BONUS }, cp = { max = D.MAX_CP, bonus = D.CP_BONUS } }
local function advance(s, seat, track, k)
  local p, tr = s.players[seat], TRACKS[track]
  for _ = 1, k do
    if track == "rep" and p.rep >= G.rep_cap(p) then
      -- past the end of the track each step is 1 appeal; below the upgraded Cards card's 10, lost
      if p.rep < D.MAX_REP then return end
      p.appeal = math.min(D.MAX_APPEAL, p.appeal + 1)
    elseif p[track] >= tr.max then return
    else
      p[track] = p[track] + 1
      if tr.bonus[p[track]] then bonus(s, seat, tr.bonus[p[track]]) end
    end
  end
end
function gain_rep(s, seat, k) advance(s, seat, "rep", k) end
function gain_cp(s, seat, k) advance(s, seat, "cp", k) end
G.gain_rep, G.gain_cp = gain_rep, gain_cp

local function gain_appeal(p, k) p.appeal = math.min(D.MAX_APPEAL, p.appeal + k) end

-- setup ---------------------------------------------------------------------------------------
-- opts.deck: "full" (the default: the 212 zoo cards, 128 animals, 64 sponsors and 20 conservation
-- project cards) or "animals" (the 128 animal cards only); opts.prereqs = false: the cards'
-- prerequisites are not checked (games/arknova/prereqs.lua)
function G.setup(n, seed, opts)
  if n < G.players.min or n > G.players.max then error("Ark Nova is for 2 to 4 players, not " .. tostring(n), 2) end
  local s = { n = n, rng = kit.seed_state(seed), turn = 1, round = 1, over = false, deck = {}, discard = {},
    display = {}, brk = 0, breaks = 0, donations = 0, projects = {}, fin_deck = {}, players = {}, bonuses = {},
    discards = {}, pend = {}, after = {}, revealed = {}, step = nil, base_out = {}, final_from = 0, final_left = 0, deck_scope = (opts and opts.deck) or "full",
    max_breaks = (opts and opts.max_breaks) or G.MAX_BREAKS, max_turns = (opts and opts.max_turns) or G.MAX_TURNS }
  local function rand(k) return kit.rand(s, k) end
  if s.deck_scope ~= "full" and s.deck_scope ~= "animals" then error("deck must be full or animals, not " .. tostring(s.deck_scope), 2) end
  s.map = (opts and opts.map) or D.DEFAULT_MAP
  if not D.MAPS[s.map] then error("map must be one of " .. table.concat(D.MAP_NAMES, ", ") .. ", not " .. tostring(s.map), 2) end
  use_map(s.map)
  for _, c in ipairs(D.CARDS) do
    if s.deck_scope == "full" or not (c.sponsor or c.project) then s.deck[#s.deck + 1] = c.id end
  end
  kit.shuffle(s.deck, rand)
  local projs = {}
  for _, p in ipairs(D.PROJECTS) do projs[#projs + 1] = p.id end
  kit.shuffle(projs, rand)
  PJ.setup(s, projs, n == 4 and 4 or 3)
  for _, f in ipairs(D.FINALS) do s.fin_deck[#s.fin_deck + 1] = f.id end
  kit.shuffle(s.fin_deck, rand)
  for seat = 1, n do
    local p = new_player()
    p.appeal = D.start_appeal(seat)   -- the start player 0, the next 1, ... (SOURCES.md)
    local rest = { "build", "cards", "association", "sponsors" }
    kit.shuffle(rest, rand)
    p.slots = { "animals", rest[1], rest[2], rest[3], rest[4] }
    draw_to_hand(s, p, 8)
    if opts and opts.prereqs == false then p.no_prereqs = true end
    p.finals = { table.remove(s.fin_deck), table.remove(s.fin_deck) }
    s.players[seat] = p
  end
  refill_display(s)
  s.step = { k = "setup_discard", seat = 1, left = 4 }
  return s
end

function G.is_terminal(s) return s.over end
-- whether the match ended on the crossing (not on the bound of RULES.md)
function G.crossed(s) return s.final_from ~= 0 end

local function decider(s)
  if s.over then return nil end
  if #s.bonuses > 0 then return s.bonuses[1].seat, "bonus" end
  if #s.pend > 0 then return s.pend[1].seat, "ability" end
  if #s.discards > 0 then return s.discards[1], "break_discard" end
  if s.step.seat then return s.step.seat, s.step.k end
  return s.turn, s.step.k
end

function G.current_seats(s)
  local seat = decider(s)
  if not seat then return {} end
  return { seat }
end

-- what an action can do now ----------------------------------------------------------------------
local function slot_of(p, action)
  for i, a in ipairs(p.slots) do if a == action then return i end end
end
G.slot_of = slot_of

local function animal_cost(p, c)
  local cost = c.cost
  for _, k in ipairs(p.partners) do
    if k == c.cont then cost = cost - D.PARTNER_DISCOUNT * (c.flags:find("c") and 2 or 1); break end
  end
  local small, large = has_effect(p, "cost-small"), has_effect(p, "cost-large")
  if small and c.size >= 1 and c.size <= 2 then cost = cost - small[2] end
  if large and c.size >= 4 then cost = cost - large[2] end
  return math.max(0, cost)
end
G.animal_cost = animal_cost

-- fits(p, card, bi) -> whether the animal may go into building bi now
-- flock X: the animal may share an occupied standard enclosure of at least X spaces that holds a
-- herbivore (its rock / water needs still apply)
local function flock_fits(c, b, no_needs)
  local x
  for _, e in ipairs(ABILITY[c.id] or {}) do if e[1] == "flock" then x = e[2] end end
  if not x or #b.hexes < x then return false end
  local herb = false
  for _, a in ipairs(b.animals) do if CARD[a].class == "herbivore" then herb = true end end
  return herb and (no_needs or (touching(b, "rock") >= c.rock and touching(b, "water") >= c.water))
end
G.flock_fits = flock_fits

local function fits(p, c, bi)
  local b = p.buildings[bi]
  if BUILD[b.t].kind == "enclosure" and #b.animals > 0 then return flock_fits(c, b, has_effect(p, "diversity")) end
  if b.t == "petting" then return c.flags:find("P") ~= nil and #b.animals < BUILD.petting.capacity end
  if b.t == "reptile" then return c.flags:find("R") ~= nil and #b.animals < BUILD.reptile.capacity end
  if b.t == "aviary" then return c.flags:find("V") ~= nil and #b.animals < BUILD.aviary.capacity end
  if BUILD[b.t].kind ~= "enclosure" or #b.animals > 0 or c.size == 0 then return false end
  if has_effect(p, "diversity") then return #b.hexes >= c.size end   -- Diversity Researcher: no rock / water needs
  return #b.hexes >= c.size and touching(b, "rock") >= c.rock and touching(b, "water") >= c.water
end
G.fits = fits

local function animal_plays(p)
  local out = {}
  for _, id in ipairs(p.hand) do
    local c = CARD[id]
    if animal_cost(p, c) <= p.money and PRE.ok(PENV, p, c) then
      for bi = 1, #p.buildings do
        if fits(p, c, bi) then out[#out + 1] = { card = id, b = bi } end
      end
    end
  end
  return out
end
G.animal_plays = animal_plays

local function built_types(p)
  local t = {}
  for _, b in ipairs(p.buildings) do t[b.t] = true end
  return t
end

-- can_place(p, type, foot, upgraded) -> whether that footprint is a legal building now
local function can_place(p, t, f, upgraded)
  local touch = false
  local first = #p.buildings == 0
  for _, h in ipairs(f.hexes) do
    if p.cover[h] ~= 0 or (TERRAIN[h] and not has_effect(p, "diversity")) or (B2[h] and not upgraded) then return false end
    if first then
      if BORDER[h] then touch = true end
    elseif not touch then
      for _, j in ipairs(NB[h]) do if p.cover[j] ~= 0 then touch = true; break end end
    end
  end
  if not touch then return false end
  if t == "kiosk" then
    for _, b in ipairs(p.buildings) do
      if b.t == "kiosk" and distance(b.hexes[1], f.hexes[1]) < D.KIOSK_DISTANCE then return false end
    end
  end
  return true
end
G.can_place = can_place

-- sponsor_can_place(p, type, foot) -> whether a sponsor building may stand there now: free hexes,
-- no rock or water, Build-II hexes only with the upgraded Build card, touching the zoo's buildings
-- (the first one the border) unless it may stand apart, the rock / water it needs next to it and
-- the hexes it needs on the border
local function sponsor_can_place(p, t, f)
  local b = BUILD[t]
  local border, touch = 0, b.apart or false
  local first = #p.buildings == 0
  for _, h in ipairs(f.hexes) do
    if p.cover[h] ~= 0 or (TERRAIN[h] and not has_effect(p, "diversity")) or (B2[h] and not p.up.build) then return false end
    if BORDER[h] then border = border + 1 end
    if not touch then
      if first then touch = BORDER[h]
      else
        for _, j in ipairs(NB[h]) do if p.cover[j] ~= 0 then touch = true; break end end
      end
    end
  end
  if has_effect(p, "diversity") then return touch and border >= b.border end   -- Diversity Researcher: no rock / water needs
  return touch and border >= b.border and touching(f, "rock") >= b.rock and touching(f, "water") >= b.water
end
G.sponsor_can_place = sponsor_can_place

-- whether a sponsor that brings a building can have it placed now (else it cannot be played)
local function sponsor_placeable(p, id)
  local t = SB[id]
  if not t then return true end
  for _, f in ipairs(FOOT[t]) do if sponsor_can_place(p, t, f) then return true end end
  return false
end
G.sponsor_placeable = sponsor_placeable

-- the building types seat may still build in this Build action with `size` hexes left
local function build_types(p, size, used)
  local out = {}
  local have = built_types(p)
  for _, b in ipairs(D.BUILDINGS) do
    local n = #b.shape
    if n <= size and D.COST_PER_HEX * n <= p.money and not (used and used[b.id])
      and not (b.unique and have[b.id]) and not (b.upgraded and not p.up.build) then
      for _, f in ipairs(FOOT[b.id]) do
        if can_place(p, b.id, f, p.up.build) then out[#out + 1] = b.id; break end
      end
    end
  end
  return out
end
G.build_types = build_types

-- the reputation range: the display folders 1..k under the stretch of the reputation track the
-- marker stands on (D.REP_RANGE)
local function reach(p)
  local k = 1
  for _, top in ipairs(D.REP_RANGE) do if p.rep > top then k = k + 1 end end
  return math.min(D.DISPLAY, k)
end
G.reach = reach

-- the strength a task needs (the Veterinarian sponsor lets a project be supported at 4)
local function task_cost(p, task)
  if task == "project" and has_effect(p, "vet") then return 4 end
  return D.TASKS[task]
end
G.task_cost = task_cost

-- association tasks open to seat with `budget` strength left, tasks used this action excluded
local function assoc_tasks(s, seat, budget, used)
  local p = s.players[seat]
  local out = {}
  if p.busy >= p.workers then return out end
  if budget >= D.TASKS.rep and not used.rep and (p.rep < G.rep_cap(p) or p.rep >= D.MAX_REP) then out[#out + 1] = "rep" end
  if budget >= D.TASKS.partner and not used.partner and #p.partners < D.MAX_PARTNERS[p.up.association] then
    for _, c in ipairs(D.CONTINENTS) do
      local have = false
      for _, k in ipairs(p.partners) do if k == c then have = true end end
      if not have then out[#out + 1] = "partner:" .. c end
    end
  end
  if budget >= D.TASKS.uni and not used.uni then
    for _, u in ipairs(D.UNIVERSITIES) do
      local have = false
      for _, k in ipairs(p.unis) do if k == u.id then have = true end end
      if not have then out[#out + 1] = "uni:" .. u.id end
    end
  end
  if budget >= task_cost(p, "project") and not used.project then
    for _, t in ipairs(PJ.options(PENV, s, seat)) do out[#out + 1] = t end
  end
  return out
end
G.assoc_tasks = assoc_tasks

local function can_donate(s, p, used)
  return p.up.association and not used.donate and s.donations < #D.DONATIONS and p.money >= D.DONATIONS[s.donations + 1]
end

local function sponsor_plays(p, left)
  local out = {}
  for _, id in ipairs(p.hand) do
    local c = CARD[id]
    if c.sponsor and c.level <= left and PRE.ok(PENV, p, c) and sponsor_placeable(p, id) then out[#out + 1] = id end
  end
  return out
end
G.sponsor_plays = sponsor_plays

-- the strength of an action card: its slot, +1 per X-token spent, -2 per constriction token on it
-- (at least 1)
local function strength(p, action, xs)
  return math.max(1, slot_of(p, action) + (xs or 0) - 2 * (p.tokens.constriction[action] or 0))
end
G.strength = strength

-- min_strength(s, seat, action) -> the least strength at which using `action` can do anything
-- (nil: none); cards (draw) and sponsors (the break alternative) always can; the X-token use of
-- any card is always open
local function min_strength(s, seat, action)
  local p = s.players[seat]
  if action == "animals" then
    if #animal_plays(p) == 0 then return nil end
    for k = 1, 5 do if D.ANIMALS_PLAYS[p.up.animals][k] > 0 then return k end end
  elseif action == "build" then
    local least
    for _, t in ipairs(build_types(p, 5)) do
      local n = #BUILD[t].shape
      if not least or n < least then least = n end
    end
    return least
  elseif action == "association" then
    if can_donate(s, p, {}) then return 1 end
    local least
    for _, task in ipairs(assoc_tasks(s, seat, 5, {})) do
      local v = task_cost(p, task:match("^(%a+)"))
      if not least or v < least then least = v end
    end
    return least
  end
  return 1
end
local function usable(s, seat, action, k)
  local m = min_strength(s, seat, action)
  return m ~= nil and k >= m
end
G.usable = usable

-- legal actions -------------------------------------------------------------------------------
local function card_words(id)
  local c = CARD[id]
  if c.project then return PJ.card_words(c) end
  if c.sponsor then
    local icons = {}
    if c.science > 0 then icons[#icons + 1] = c.science .. " science" end
    if c.cont ~= "" then icons[#icons + 1] = D.CONTINENT_NAMES[c.cont] end
    if c.class ~= "" then icons[#icons + 1] = c.class end
    if c.flags:find("B") then icons[#icons + 1] = "bear" end
    local gain = {}
    if c.cp > 0 then gain[#gain + 1] = c.cp .. " CP" end
    if c.rep > 0 then gain[#gain + 1] = c.rep .. " rep" end
    local ef = {}
    for _, e in ipairs(SPONSOR[id]) do
      if e[1] ~= "none" then ef[#ef + 1] = table.concat(e, " ") end
    end
    if #SPONSOR[id] == 0 then ef[1] = "its effect is not in play" end
    local pre = PRE.words(c)
    return string.format("%s (sponsor, level %d; %s%s%s%s)", c.name, c.level, #icons > 0 and table.concat(icons, "/") or "no icon",
      #gain > 0 and ("; " .. table.concat(gain, ", ")) or "", #ef > 0 and ("; effect " .. table.concat(ef, ", ")) or "",
      pre ~= "" and ("; " .. pre) or "")
  end
  local req = {}
  if c.size > 0 then req[#req + 1] = "enclosure " .. c.size else req[#req + 1] = "petting zoo" end
  if c.rock > 0 then req[#req + 1] = c.rock .. " rock" end
  if c.water > 0 then req[#req + 1] = c.water .. " water" end
  local icons = {}
  if c.cont ~= "" then icons[#icons + 1] = (c.flags:find("c") and "2 " or "") .. D.CONTINENT_NAMES[c.cont] end
  if c.class ~= "" then icons[#icons + 1] = (c.flags:find("k") and "2 " or "") .. c.class end
  if c.flags:find("B") then icons[#icons + 1] = "bear" end
  local gain = { c.appeal .. " appeal" }
  if c.cp > 0 then gain[#gain + 1] = c.cp .. " CP" end
  if c.rep > 0 then gain[#gain + 1] = c.rep .. " rep" end
  local alt = {}
  if c.flags:find("R") then alt[#alt + 1] = " or reptile house" end
  if c.flags:find("V") then alt[#alt + 1] = " or aviary" end
  local ab = {}
  for _, e in ipairs(ABILITY[id]) do
    ab[#ab + 1] = e[1] .. (e[2] and (" " .. e[2]) or "") .. (G.IMPLEMENTED[e[1]] and "" or " (not in play)")
  end
  local pre = PRE.words(c)
  return string.format("%s (%s%s; %s; cost %d; %s%s%s)", c.name, table.concat(req, ", "), table.concat(alt),
    #icons > 0 and table.concat(icons, "/") or "no icon", c.cost, table.concat(gain, ", "),
    #ab > 0 and ("; ability " .. table.concat(ab, ", ")) or "", pre ~= "" and ("; " .. pre) or "")
end
G.card_words = card_words

local function building_words(p, bi)
  local b = p.buildings[bi]
  local hs = {}
  for _, h in ipairs(b.hexes) do hs[#hs + 1] = hname(h) end
  return string.format("%s at %s", BUILD[b.t].name, table.concat(hs, ","))
end

local function add(out, bare, id, label) out[#out + 1] = { id = id, label = bare and "" or label } end
local pend_options   -- pend_options(s, e, bare) -> the choices of a pending ability (defined below)
local close_pend, sponsor_income, sponsor_end_cp   -- (defined with the abilities below)
local sponsor_end_appeal   -- (defined with the sponsor buildings below)
local card_used   -- (defined with the tokens on action cards below)

function G.legal_actions(s, seat, bare)
  local who, kind = decider(s)
  if who ~= seat then return {} end
  local p = s.players[seat]
  local out = {}
  if kind == "bonus" then
    local b = s.bonuses[1]
    for _, a in ipairs(D.ACTIONS) do
      if not p.up[a] then add(out, bare, "upgrade:" .. a, "upgrade your " .. a .. " card to side II") end
    end
    if b.what == "upgrade_or_worker" and p.workers < D.MAX_WORKERS then add(out, bare, "worker", "gain an association worker") end
    return out
  elseif kind == "break_discard" or kind == "setup_discard" or kind == "cards_discard" then
    for _, id in ipairs(p.hand) do add(out, bare, "discard:" .. id, "discard " .. card_words(id)) end
    return out
  elseif kind == "setup_final" then
    for _, f in ipairs(p.finals) do add(out, bare, "final:" .. f, "keep the final-scoring card " .. FINAL[f].name) end
    return out
  end
  if kind == "ability" then return pend_options(s, s.pend[1], bare) end
  local st = s.step
  if kind == "turn" then
    for i, a in ipairs(p.slots) do
      local least = min_strength(s, seat, a)
      for xs = 0, p.x do
        if least and strength(p, a, xs) >= least then
          add(out, bare, xs == 0 and a or (a .. "+" .. xs), string.format("%s at strength %d%s%s", a, strength(p, a, xs),
            xs > 0 and (" (spend " .. xs .. " X)") or "", p.up[a] and " (side II)" or ""))
        end
      end
    end
    for _, a in ipairs(p.slots) do
      add(out, bare, "x:" .. a, "take an X-token with your " .. a .. " card (it moves to slot 1)")
    end
  elseif kind == "build" then
    for _, t in ipairs(build_types(p, st.left, st.used)) do
      add(out, bare, "build:" .. t, string.format("build a %s (%d hexes, %d money)", BUILD[t].name, #BUILD[t].shape, D.COST_PER_HEX * #BUILD[t].shape))
    end
    if st.built > 0 then add(out, bare, "stop", "end the Build action") end
  elseif kind == "place" then
    for _, f in ipairs(FOOT[st.t]) do
      if can_place(p, st.t, f, p.up.build) then
        local hs, extra = {}, {}
        for _, h in ipairs(f.hexes) do hs[#hs + 1] = hname(h); if BONUS[h] then extra[#extra + 1] = D.BONUS_WORDS[BONUS[h]] end end
        add(out, bare, "place:" .. f.id, "cover " .. table.concat(hs, ",") .. (#extra > 0 and (" (bonus: " .. table.concat(extra, ", ") .. ")") or ""))
      end
    end
  elseif kind == "animals" then
    for _, pl in ipairs(animal_plays(p)) do
      add(out, bare, "play:" .. pl.card .. ":" .. pl.b, string.format("play %s into your %s, paying %d", card_words(pl.card),
        building_words(p, pl.b), animal_cost(p, CARD[pl.card])))
    end
    if st.played > 0 then add(out, bare, "stop", "end the Animals action") end
  elseif kind == "sponsors" then
    for _, id in ipairs(sponsor_plays(p, st.left)) do add(out, bare, "sponsor:" .. id, "play " .. card_words(id)) end
    if st.played == 0 then
      add(out, bare, "break", string.format("instead move the break token %d and gain %d money", st.strength, p.up.sponsors and 2 * st.strength or st.strength))
    else
      add(out, bare, "stop", "end the Sponsors action")
    end
  elseif kind == "snap" then
    add(out, bare, "draw", "draw from the deck")
    for k = 1, #s.display do   -- a snap takes any display card, whatever the reputation (SOURCES.md)
      add(out, bare, "snap:" .. k, "take display card " .. k .. ": " .. card_words(s.display[k]))
    end
  elseif kind == "association" then
    for _, t in ipairs(assoc_tasks(s, seat, st.left, st.used)) do
      local label
      if t == "rep" then label = "gain 2 reputation (strength 2)"
      elseif t:find("^partner") then label = "take a partner zoo in " .. D.CONTINENT_NAMES[t:sub(9)] .. " (strength 3)"
      elseif t:find("^uni") then label = "take a " .. UNI[t:sub(5)].name .. " (strength 4)"
      else
        local pid, lv, aid = t:match("^project:([^:]+):(%d):?(.*)$")
        local onboard = false
        for _, bp in ipairs(s.projects) do if bp.id == pid then onboard = true end end
        label = string.format("%s the %s project at level %s: %s%s (strength %d)", onboard and "support" or "play from your hand and support",
          PROJECT[pid].name, lv, PJ.level_words(PROJECT[pid], tonumber(lv)), aid == "token" and ", one player token from a breeding sponsor as the missing icon"
          or aid ~= "" and (", releasing " .. CARD[aid].name) or "",
          task_cost(p, "project"))
      end
      add(out, bare, t, label)
    end
    if can_donate(s, p, st.used) then add(out, bare, "donate", "donate " .. D.DONATIONS[s.donations + 1] .. " money for 1 CP") end
    if st.tasks > 0 then add(out, bare, "stop", "end the Association action") end
  end
  return out
end

-- applying ------------------------------------------------------------------------------------
local function use_card(p, action)
  local i = slot_of(p, action)
  table.remove(p.slots, i)
  table.insert(p.slots, 1, action)
end
G.use_card = use_card

-- tokens on action cards (venom, constriction, multiplier; RULES-AUDIT AN-F-venom etc.) ------------
-- card_used(s, seat, action, x_action): the card's action is taken (or the card is used for an
-- X-token): its venom and constriction tokens go (a venom token taken off spares the seat its
-- venom payment this turn); for an X-token each multiplier token on it gives 1 X-token more
function card_used(s, seat, action, x_action)
  local p = s.players[seat]
  local tk = p.tokens
  if tk.venom[action] then tk.venom[action] = nil; p.venom_removed = true end
  tk.constriction[action] = nil
  if x_action and (tk.multiplier[action] or 0) > 0 then
    p.x = math.min(D.MAX_X, p.x + tk.multiplier[action])
    tk.multiplier[action] = nil
  end
end

-- at the end of its turn a seat with a venom token left that took none off pays 2 money
local function venom_due(p)
  if next(p.tokens.venom) and not p.venom_removed then p.money = math.max(0, p.money - 2) end
  p.venom_removed = nil
end

-- venom v / constriction by seat: every other seat ahead on appeal gets a venom token on its cards
-- in slots 1..v; a seat ahead on appeal and / or CP a constriction token on its card in slot 5
-- (and slot 4 when ahead on both); the Quarantine Lab protects
local function hostile_tokens(s, seat, f, v)
  local me = s.players[seat]
  for q = 1, s.n do
    local o = s.players[q]
    if q ~= seat and not has_effect(o, "immune") then
      if f == "venom" and o.appeal > me.appeal then
        for k = 1, v do o.tokens.venom[o.slots[k]] = true end
      elseif f == "constriction" then
        local ahead = (o.appeal > me.appeal and 1 or 0) + (o.cp > me.cp and 1 or 0)
        for k = 5, 6 - ahead, -1 do
          local a = o.slots[k]
          o.tokens.constriction[a] = (o.tokens.constriction[a] or 0) + 1
        end
      end
    end
  end
end
G.hostile_tokens = hostile_tokens

-- the break after its first step: the tokens on action cards go back, workers come home, the
-- display's folders 1 and 2 are discarded (the rest slide, the display refills), then income
local function break_rest(s)
  s.break_rest = nil
  for seat = 1, s.n do
    local p = s.players[seat]
    p.tokens = { venom = {}, constriction = {}, multiplier = {} }
    p.busy = 0
  end
  for _ = 1, math.min(2, #s.display) do s.discard[#s.discard + 1] = table.remove(s.display, 1) end
  refill_display(s)
  for seat = 1, s.n do
    local p = s.players[seat]
    p.money = p.money + income_of(p)
    sponsor_income(s, seat)
  end
end
G.break_rest = break_rest

-- the break: first every seat over its hand limit discards down to it (sub-decisions, in seat
-- order), then the rest (break_rest), once the discards are made (SOURCES.md: the hand limit is
-- the break's first step, before any income card is drawn)
local function do_break(s)
  s.brk = 0
  s.breaks = s.breaks + 1
  for seat = 1, s.n do
    local p = s.players[seat]
    for _ = 1, #p.hand - hand_limit(p) do s.discards[#s.discards + 1] = seat end
  end
  if #s.discards > 0 then s.break_rest = true else break_rest(s) end
end
G.do_break = do_break

local function advance_break(s, seat, k)
  s.brk = s.brk + k
  if s.brk >= D.BREAK_LENGTH[s.n] and not s.break_due then
    s.brk = D.BREAK_LENGTH[s.n]
    s.break_due = true
    local p = s.players[seat]
    if p.x < D.MAX_X then p.x = p.x + 1 end
  end
end
G.advance_break = advance_break

local function final_count(s, p, what)
  if what == "large" or what == "small" then
    local n = 0
    for _, id in ipairs(p.zoo) do
      local z = CARD[id].size
      if (what == "large" and z >= 4) or (what == "small" and z >= 1 and z <= 2) then n = n + 1 end
    end
    return n
  elseif what == "science" then return count_icon(p, "science")
  elseif what == "architecture" then
    -- 1 each: every water space connected, every rock space connected (covered by a building or
    -- next to one), every border space without rock or water covered, every space without rock or
    -- water covered
    local con = {}
    for h = 1, NHEX do
      if p.cover[h] ~= 0 then
        con[h] = true
        for _, j in ipairs(NB[h]) do con[j] = true end
      end
    end
    local ok = { water = true, rock = true, border = true, all = true }
    for h = 1, NHEX do
      local t = TERRAIN[h]
      if t == "water" or t == "rock" then
        if not con[h] then ok[t] = false end
      elseif p.cover[h] == 0 then
        ok.all = false
        if BORDER[h] then ok.border = false end
      end
    end
    local n = 0
    for _, v in pairs(ok) do if v then n = n + 1 end end
    return n
  elseif what == "projects" then return #p.supported
  elseif what == "empty" then
    local n = 0
    for h = 1, NHEX do if p.cover[h] == 0 and not TERRAIN[h] then n = n + 1 end end
    return n
  elseif what == "reputation" then return p.rep
  elseif what == "sponsors" then return #p.sponsors
  elseif what == "classes_vs_right" then
    -- the player to one's right plays just before one (turn order goes to the left)
    local seat = 1
    for i = 1, s.n do if s.players[i] == p then seat = i end end
    local right = s.players[(seat - 2) % s.n + 1]
    local n = 0
    for _, c in ipairs(D.CLASSES) do if count_icon(p, c) > count_icon(right, c) then n = n + 1 end end
    return math.min(4, n)
  elseif what == "rock_icons" then return count_icon(p, "rock")
  elseif what == "water_icons" then return count_icon(p, "water")
  end
  error("final-scoring card counts an unknown thing: " .. tostring(what), 2)
end
G.final_count = final_count

local function final_points(s, p, fid)
  local f = FINAL[fid]
  local have, pts = final_count(s, p, f.count), 0
  if not f.steps then return math.min(4, have) end
  for k, need in ipairs(f.steps) do if have >= need then pts = k end end
  return pts
end
G.final_points = final_points

local function finish(s)
  s.over = true
  s.step = nil
  s.bonuses, s.discards, s.after = {}, {}, {}
  while #s.pend > 0 do close_pend(s) end
  for seat = 1, s.n do
    local p = s.players[seat]
    p.final_cp = 0
    for _, f in ipairs(p.finals) do p.final_cp = p.final_cp + final_points(s, p, f) end
    p.final_cp = p.final_cp + sponsor_end_cp(p)
    gain_appeal(p, sponsor_end_appeal(p))
    p.cp = math.min(D.MAX_CP, p.cp + p.final_cp)
  end
end

local function start_turn(s) s.step = { k = "turn" } end

-- after the step of a turn is over (and its bonuses are chosen): break, end, next seat
local function end_turn(s)
  local seat = s.turn
  local p = s.players[seat]
  venom_due(p)
  p.turns = p.turns + 1
  if s.break_due then
    s.break_due = false
    do_break(s)
  end
  if s.final_from == 0 and score_of(p) >= 0 then
    s.final_from = seat
    s.final_left = s.n - 1
  elseif s.final_from ~= 0 then
    s.final_left = s.final_left - 1
  end
  local all_done = true
  for i = 1, s.n do if s.players[i].turns < s.max_turns then all_done = false end end
  if (s.final_from ~= 0 and s.final_left <= 0) or s.breaks >= s.max_breaks or all_done then
    -- hand-limit discards of a last break are moot; its income is still taken
    if s.break_rest then s.discards = {}; break_rest(s) end
    finish(s)
    return
  end
  s.turn = seat % s.n + 1
  if s.turn == 1 then s.round = s.round + 1 end
  start_turn(s)
end

-- settle(s): once nothing is pending, the abilities that act after the action are offered, then
-- the step of the turn is closed
local prune   -- prune(s): drop pending abilities with nothing left to choose (defined below)
local function settle(s)
  while true do
    prune(s)
    if #s.bonuses > 0 or #s.pend > 0 or #s.discards > 0 then return end
    if not (s.step and s.step.k == "done") then return end
    if s.mult then
      -- a multiplier token on the card just used: the action may be taken once more (AN-F-multiplier)
      s.pend[#s.pend + 1] = { seat = s.mult.seat, f = "multiplier", v = s.mult.a, k = s.mult.k }
      s.mult = nil
    elseif #s.after == 0 then
      end_turn(s)
      prune(s)
      return
    else
      s.pend[#s.pend + 1] = table.remove(s.after, 1)
    end
  end
end

local function cover_bonus(s, seat, h)
  local b = BONUS[h]
  if not b then return end
  local p = s.players[seat]
  if b == "rep" then gain_rep(s, seat, 1)
  elseif b == "rep2" then gain_rep(s, seat, 2)
  elseif b == "worker" then if p.workers < D.MAX_WORKERS then p.workers = p.workers + 1 end
  elseif b == "money10" then p.money = p.money + 10
  elseif b == "x" then if p.x < D.MAX_X then p.x = p.x + 1 end
  elseif b == "money5" then p.money = p.money + 5
  elseif b == "card" then draw_to_hand(s, p, 1)
  elseif b == "take" then s.pend[#s.pend + 1] = { seat = seat, f = "take-card", left = 1 }
  elseif b == "clever" then s.after[#s.after + 1] = { seat = seat, f = "clever" } end
end

-- place_building(s, seat, type, footprint, free): the building goes onto the map (paid unless
-- free), a pavilion gives its appeal, covered bonus hexes give theirs
-- map connectivity (sponsors 241, 242, 258-260, 264): a space is connected when a building of the
-- zoo covers it or stands next to it (as an open implementation reads these cards; the card texts
-- say "adjacent to your buildings")
local function connected_set(p)
  local c = {}
  for h = 1, NHEX do
    if p.cover[h] ~= 0 then
      c[h] = true
      for _, j in ipairs(NB[h]) do c[j] = true end
    end
  end
  return c
end
-- connected_spaces(p, kind) -> connected, unconnected: the water / rock / bonus spaces of the map
-- (kind "border": border spaces without a building and without rock or water)
local function connected_spaces(p, kind)
  local con = connected_set(p)
  local yes, no = 0, 0
  for h = 1, NHEX do
    local is
    if kind == "bonus" then is = BONUS[h] ~= nil
    elseif kind == "border" then is = BORDER[h] and p.cover[h] == 0 and not TERRAIN[h]
    else is = TERRAIN[h] == kind end
    if is then if con[h] then yes = yes + 1 else no = no + 1 end end
  end
  return yes, no
end
G.connected_spaces = connected_spaces
-- the groups of touching spaces without a building (rock and water left out): their sizes
local function free_groups(p)
  local seen, sizes = {}, {}
  for h = 1, NHEX do
    if p.cover[h] == 0 and not TERRAIN[h] and not seen[h] then
      local todo, n = { h }, 0
      seen[h] = true
      while #todo > 0 do
        local c = table.remove(todo)
        n = n + 1
        for _, j in ipairs(NB[c]) do
          if p.cover[j] == 0 and not TERRAIN[j] and not seen[j] then seen[j] = true; todo[#todo + 1] = j end
        end
      end
      sizes[#sizes + 1] = n
    end
  end
  return sizes
end
G.free_groups = free_groups
-- Hydrologist / Geologist: 1 money for each space of a new building that is next to water / rock
local function cover_money(p, hexes)
  for _, id in ipairs(p.sponsors) do
    for _, e in ipairs(SPONSOR[id]) do
      if e[1] == "cover-money" then
        for _, h in ipairs(hexes) do
          for _, j in ipairs(NB[h]) do if TERRAIN[j] == e[2] then p.money = p.money + 1; break end end
        end
      end
    end
  end
end

local function place_building(s, seat, t, f, free)
  local p = s.players[seat]
  if not free then p.money = p.money - D.COST_PER_HEX * #f.hexes end
  p.buildings[#p.buildings + 1] = { t = t, hexes = f.hexes, animals = {} }
  for _, h in ipairs(f.hexes) do p.cover[h] = #p.buildings end
  if BUILD[t].kind == "pavilion" then gain_appeal(p, D.PAVILION_APPEAL) end
  for _, h in ipairs(f.hexes) do cover_bonus(s, seat, h) end
  cover_money(p, f.hexes)
end

local function begin_action(s, seat, action, k)
  local p = s.players[seat]
  card_used(s, seat, action)
  if (p.tokens.multiplier[action] or 0) > 0 then s.mult = { seat = seat, a = action, k = k } end
  use_card(p, action)
  local up = p.up[action]
  if action == "build" then
    s.build_no = (s.build_no or 0) + 1   -- (the Engineer's one more building is once per Build action)
    s.step = { k = "build", left = up and k or k, single = not up, used = {}, built = 0 }
  elseif action == "animals" then
    local plays = D.ANIMALS_PLAYS[up][math.min(k, 5)]
    if up and k >= 5 then gain_rep(s, seat, 1) end
    s.step = { k = "animals", left = plays, played = 0 }
  elseif action == "cards" then
    advance_break(s, seat, D.CARDS_BREAK)
    local row = D.CARDS_TABLE[up][math.min(k, 5)]
    if row.snap and #s.display > 0 then
      s.step = { k = "snap", draw = row[1], disc = row[2] }
    else
      draw_to_hand(s, p, row[1])
      s.step = { k = "cards_discard", left = math.min(row[2], #p.hand) }
      if s.step.left == 0 then s.step = { k = "done" } end
    end
  elseif action == "sponsors" then
    -- play sponsors (side I: one of level <= k; side II: several, levels adding up to <= k + 1)
    -- or the break alternative: the break token moves k spaces, the seat gains k money (2k on II)
    s.step = { k = "sponsors", strength = k, left = up and k + 1 or k, single = not up, played = 0 }
  elseif action == "association" then
    s.step = { k = "association", left = k, single = not up, used = {}, tasks = 0 }
  end
end

-- The setup discards are simultaneous and hidden (RULES.md): the seats choose one after another,
-- but each seat's four discards are set aside face down (p.set_aside, seen by that seat only) and
-- go to the discard pile together once every seat has chosen, so no seat's choice depends on
-- another's.
local function apply_setup(s, seat, kind, id)
  local p = s.players[seat]
  if kind == "setup_discard" then
    local c = id:match("^discard:(.+)$")
    take_from_hand(p, c)
    p.set_aside[#p.set_aside + 1] = c
    s.step.left = s.step.left - 1
    if s.step.left == 0 then s.step = { k = "setup_final", seat = seat } end
  else
    local f = id:match("^final:(.+)$")
    local keep = {}
    for _, x in ipairs(p.finals) do
      if x == f and #keep == 0 then keep[1] = x else table.insert(s.fin_deck, 1, x) end
    end
    p.finals = keep
    if seat < s.n then s.step = { k = "setup_discard", seat = seat + 1, left = 4 } return end
    for i = 1, s.n do
      local q = s.players[i]
      for _, x in ipairs(q.set_aside) do s.discard[#s.discard + 1] = x end
      q.set_aside = {}
    end
    start_turn(s)
  end
end

-- card abilities and sponsor effects ------------------------------------------------------------
-- A played animal's immediate families act at once; those that need a choice become pending
-- entries (s.pend, chosen before anything else, by e.seat: the victim for pilfering); the "after
-- finishing this action" families (clever, boost, action, determination) wait in s.after until
-- the action is over. Out-of-scope families do nothing (RULES-AUDIT.md says which and why).
local function card_icons(c)
  local out = {}
  for _ = 1, c.flags:find("c") and 2 or 1 do if c.cont ~= "" then out[#out + 1] = c.cont end end
  for _ = 1, c.flags:find("k") and 2 or 1 do if c.class ~= "" then out[#out + 1] = c.class end end
  if c.flags:find("B") then out[#out + 1] = "bear" end
  for _ = 1, c.science or 0 do out[#out + 1] = "science" end
  for _, kind in ipairs({ "rock", "water" }) do
    for _ = 1, terrain_icons(c, kind) do out[#out + 1] = kind end
  end
  return out
end
G.card_icons = card_icons

-- each sponsor that pays for icons played: "any-icon" (any zoo) and "own-icon" (the owner's)
local function icon_triggers(s, seat, c)
  local icons = card_icons(c)
  for q = 1, s.n do
    local pq = s.players[q]
    for _, sid in ipairs(pq.sponsors) do
      do   -- the sponsor's own icons count too (rulebook p. 16)
        for _, e in ipairs(SPONSOR[sid]) do
          for _, ic in ipairs(icons) do
            if e[1] == "any-icon" and ic == e[2] then pq.money = pq.money + e[3]
            elseif e[1] == "own-icon" and q == seat and ic == e[2] then
              if e[3] == "rep" then gain_rep(s, q, e[4]) else gain_cp(s, q, e[4]) end
            elseif e[1] == "on-icon" and q == seat and ic == e[2] then
              s.pend[#s.pend + 1] = { seat = q, f = e[3], v = 1, left = 1 }
            end
          end
          if e[1] == "new-icon" and q == seat then
            -- a continent or class icon the zoo had none of before this card
            local seen = {}
            for _, ic in ipairs(icons) do
              if ic ~= "science" and ic ~= "bear" and ic ~= "rock" and ic ~= "water" and not seen[ic] then
                seen[ic] = true
                local on_card = 0
                for _, jc in ipairs(icons) do if jc == ic then on_card = on_card + 1 end end
                if count_icon(pq, ic) == on_card then gain_appeal(pq, 1); pq.money = pq.money + 2 end
              end
            end
          end
        end
      end
    end
  end
end

-- the seats a pilferer takes from: the other seat with the most appeal (and for strength 2 also
-- the one with the most CP); ties go to the first such seat after the pilferer; a seat that is
-- itself highest is not touched; immune seats (Quarantine Lab) are skipped
local function pilfer_targets(s, seat, v)
  local out = {}
  for _, track in ipairs(v >= 2 and { "appeal", "cp" } or { "appeal" }) do
    local best, who = s.players[seat][track], nil
    for k = 1, s.n - 1 do
      local q = (seat + k - 1) % s.n + 1
      if s.players[q][track] > best then best, who = s.players[q][track], q end
    end
    if who and not has_effect(s.players[who], "immune") then out[#out + 1] = who end
  end
  return out
end
G.pilfer_targets = pilfer_targets

local function to_hand_public(p, c) p.hand[#p.hand + 1] = c; p.public[c] = true end

local function play_ability(s, seat, cid)
  local p = s.players[seat]
  for _, e in ipairs(ABILITY[cid]) do
    local f, v = e[1], e[2]
    if f == "sprint" then draw_to_hand(s, p, v)
    elseif f == "pack" then gain_appeal(p, count_icon(p, "predator"))
    elseif f == "inventive" then
      local k = v
      if v == "primate" then
        local n = count_icon(p, "primate")
        k = n >= 5 and 3 or n >= 3 and 2 or n >= 1 and 1 or 0
      end
      p.x = math.min(D.MAX_X, p.x + k)
    elseif f == "full-throated" then p.workers = math.min(D.MAX_WORKERS, p.workers + 1)
    elseif f == "jumping" then advance_break(s, seat, v); p.money = p.money + v
    elseif f == "iconic-animal" then
      local n = 0
      for q = 1, s.n do n = n + count_icon(s.players[q], v) end
      gain_appeal(p, math.min(8, n))
    elseif f == "sponsor-magnet" then
      local rest = {}
      for _, c in ipairs(s.display) do
        if CARD[c].sponsor then to_hand_public(p, c) else rest[#rest + 1] = c end
      end
      s.display = rest
      refill_display(s)
    elseif f == "hunter" then
      for _ = 1, v do
        local c = draw(s)
        if c then s.revealed[#s.revealed + 1] = c end
      end
      s.pend[#s.pend + 1] = { seat = seat, f = f, v = v }
    elseif f == "perception" or f == "scavenging" then
      if f == "scavenging" then
        -- drawn from the public discard pile: everyone can tell which cards they are
        kit.shuffle(s.discard, function(k) return kit.rand(s, k) end)
        for _ = 1, v do if #s.discard > 0 then s.revealed[#s.revealed + 1] = table.remove(s.discard) end end
      else
        for _ = 1, v do local c = draw(s); if c then p.held[#p.held + 1] = c end end
      end
      s.pend[#s.pend + 1] = { seat = seat, f = f, v = v, left = f == "perception" and v // 2 or 1 }
    elseif f == "resistance" then
      local from = #p.finals
      for _ = 1, 2 do if #s.fin_deck > 0 then p.finals[#p.finals + 1] = table.remove(s.fin_deck) end end
      s.pend[#s.pend + 1] = { seat = seat, f = f, from = from, left = 1 }
    elseif f == "pilfering" then
      for _, q in ipairs(pilfer_targets(s, seat, v)) do s.pend[#s.pend + 1] = { seat = q, f = f, thief = seat } end
    elseif f == "sunbathing" or f == "pouch" or f == "digging" or f == "snapping" or f == "posturing" or f == "peacocking" then
      s.pend[#s.pend + 1] = { seat = seat, f = f, v = v, left = v or 1, card = cid }
    elseif f == "clever" or f == "boost" or f == "action" or f == "determination" then
      s.after[#s.after + 1] = { seat = seat, f = f, v = v }
    elseif f == "venom" or f == "constriction" then hostile_tokens(s, seat, f, v)
    elseif f == "multiplier" then p.tokens.multiplier[v] = (p.tokens.multiplier[v] or 0) + 1
    elseif f == "assertion" or f == "dominance" then s.pend[#s.pend + 1] = { seat = seat, f = f, left = 1 }
    end
  end
end
G.play_ability = play_ability

-- what a sponsor's immediate gain counts: once, icons of a kind, projects supported, small or
-- large animals in the zoo
local function now_count(p, what)
  if what == "one" then return 1
  elseif what == "projects" then return #p.supported
  elseif what == "kinds" then
    local n = 0
    for _, list in ipairs({ D.CONTINENTS, D.CLASSES }) do
      for _, k in ipairs(list) do if count_icon(p, k) > 0 then n = n + 1 end end
    end
    return n
  elseif what == "small" or what == "large" then
    local n = 0
    for _, id in ipairs(p.zoo) do
      local z = CARD[id].size
      if (what == "small" and z >= 1 and z <= 2) or (what == "large" and z >= 4) then n = n + 1 end
    end
    return n
  end
  return count_icon(p, what)
end

local function play_sponsor_effect(s, seat, cid)
  local p = s.players[seat]
  for _, e in ipairs(SPONSOR[cid]) do
    if e[1] == "now" then
      local k = e[3] * now_count(p, e[4])
      if e[2] == "appeal" then gain_appeal(p, k)
      elseif e[2] == "money" then p.money = p.money + k
      elseif e[2] == "x" then p.x = math.min(D.MAX_X, p.x + k)
      else gain_cp(s, seat, k) end
    elseif e[1] == "uni-money" then
      p.money = p.money + (({ 2, 5, 10 })[#p.unis] or 0)
    elseif e[1] == "worker" then p.workers = math.min(D.MAX_WORKERS, p.workers + 1)
    elseif e[1] == "icon-tokens" then p.icon_tokens = (p.icon_tokens or 0) + e[2]
    elseif e[1] == "free-e5" then s.pend[#s.pend + 1] = { seat = seat, f = "free-e5", left = 1 }
    elseif e[1] == "now-pairs" then gain_appeal(p, e[3] * (count_icon(p, e[2]) // 2))
    elseif e[1] == "now-connected" then gain_appeal(p, (connected_spaces(p, e[2])))
    elseif e[1] == "pairs-cp" then
      -- Basic Research: 1 CP per 2 different continent / class icons; the others 2 money per CP
      local before = p.cp
      gain_cp(s, seat, now_count(p, "kinds") // 2)
      for q = 1, s.n do if q ~= seat then s.players[q].money = s.players[q].money + 2 * (p.cp - before) end end
    elseif e[1] == "patents" then
      local n = count_icon(p, "science")
      local before = p.cp
      gain_cp(s, seat, n)
      for q = 1, s.n do if q ~= seat then s.players[q].money = s.players[q].money + 2 * (p.cp - before) end end
    elseif e[1] == "take-card" or e[1] == "take-now" then s.pend[#s.pend + 1] = { seat = seat, f = "take-card", left = 1 }
    elseif e[1] == "building" then s.pend[#s.pend + 1] = { seat = seat, f = "sponsor-building", t = SB[cid], left = 1 }
    end
  end
end

-- income of sponsors at a break (after the appeal income)
function sponsor_income(s, seat)
  local p = s.players[seat]
  for _, id in ipairs(p.sponsors) do
    for _, e in ipairs(SPONSOR[id]) do
      if e[1] == "income-money" then p.money = p.money + e[2]
      elseif e[1] == "income-cp" then gain_cp(s, seat, e[2])
      elseif e[1] == "income-x" then p.x = math.min(D.MAX_X, p.x + e[2])
      elseif e[1] == "income-class" then
        local n = count_icon(p, e[2])
        p.money = p.money + (n >= 5 and 9 or n >= 3 and 6 or n >= 1 and 3 or 0)
      elseif e[1] == "income-adjacent" then p.money = p.money + e[2] * G.adjacent_buildings(p, SB[id])
      elseif e[1] == "take-card" then s.pend[#s.pend + 1] = { seat = seat, f = "take-card", left = 1 }
      end
    end
  end
end
G.sponsor_income = sponsor_income

-- CP that a seat's sponsors give at the end
function sponsor_end_cp(p)
  local cp = 0
  local function kinds(list)
    local n = 0
    for _, k in ipairs(list) do if count_icon(p, k) > 0 then n = n + 1 end end
    return n
  end
  for _, id in ipairs(p.sponsors) do
    for _, e in ipairs(SPONSOR[id]) do
      if e[1] == "end-science" then
        local n = count_icon(p, "science")
        cp = cp + (n >= 6 and 2 or n >= 3 and 1 or 0)
      elseif e[1] == "end-classes" and kinds(D.CLASSES) >= e[2] then cp = cp + 1
      elseif e[1] == "end-continents" and kinds(D.CONTINENTS) >= e[2] then cp = cp + 1
      elseif e[1] == "end-unis" and #p.unis >= e[2] then cp = cp + 1
      elseif e[1] == "end-supports" and #p.supported >= e[2] then cp = cp + 1
      elseif e[1] == "end-rep" and p.rep >= e[2] then cp = cp + 1
      elseif e[1] == "end-e1" then
        local n = 0
        for _, b in ipairs(p.buildings) do if b.t == "e1" and #b.animals > 0 then n = n + 1 end end
        if n >= e[2] then cp = cp + 1 end
      elseif e[1] == "end-connected" then
        local _, no = connected_spaces(p, e[2])
        if no == 0 then cp = cp + 1 end
      elseif e[1] == "end-unconnected" then
        local _, no = connected_spaces(p, e[2])
        cp = cp + no // 2
      elseif e[1] == "end-free-groups" then
        for _, n in ipairs(free_groups(p)) do cp = cp + n // e[2] end
      elseif e[1] == "end-icons" then
        local n = count_icon(p, e[2])
        for k = 3, #e do if n >= e[k] then cp = cp + 1 end end
      end
    end
  end
  return cp
end
G.sponsor_end_cp = sponsor_end_cp

-- sponsor buildings and their effects -------------------------------------------------------------
-- the buildings next to seat's building of type t, empty standard enclosures left out (Side Entrance)
function G.adjacent_buildings(p, t)
  local mine
  for bi, b in ipairs(p.buildings) do if b.t == t then mine = bi end end
  if not mine then return 0 end
  local seen, n = {}, 0
  for _, h in ipairs(p.buildings[mine].hexes) do
    for _, j in ipairs(NB[h]) do
      local o = p.cover[j]
      if o ~= 0 and o ~= mine and not seen[o] then
        seen[o] = true
        local b = p.buildings[o]
        if not (BUILD[b.t].kind == "enclosure" and #b.animals == 0) then n = n + 1 end
      end
    end
  end
  return n
end

-- appeal a seat's sponsors give at the end: 5 when every space without rock or water is covered
function sponsor_end_appeal(p)
  local a = 0
  for _, id in ipairs(p.sponsors) do
    for _, e in ipairs(SPONSOR[id]) do
      if e[1] == "end-pair-appeal" then
        -- Diversity Researcher: 2 appeal per pair of a rock and a water icon, at most 3 pairs
        a = a + e[2] * math.min(e[3], count_icon(p, "rock"), count_icon(p, "water"))
      elseif e[1] == "end-covered" then
        local full = true
        for h = 1, NHEX do if p.cover[h] == 0 and not TERRAIN[h] then full = false; break end end
        if full then a = a + e[2] end
      end
    end
  end
  return a
end
G.sponsor_end_appeal = sponsor_end_appeal

-- building_triggers(s, seat, c): card c was just played into seat's zoo; each sponsor effect that
-- answers an icon of it acts once per icon: "icon-gain" (appeal or X-tokens; "any": an icon
-- played into any zoo) and "icon-ability" (perception, sunbathing or hunter as a pending choice).
-- As for every family, the sponsor's own icons count for its own effect (rulebook p. 16).
local function building_triggers(s, seat, c)
  local icons = card_icons(c)
  for q = 1, s.n do
    local pq = s.players[q]
    for _, sid in ipairs(pq.sponsors) do
      for _, e in ipairs(SPONSOR[sid]) do
        if (e[1] == "icon-gain" and (q == seat or e[5] == "any")) or (e[1] == "icon-ability" and q == seat) then
          for _, ic in ipairs(icons) do
            if ic == e[2] then
              if e[1] == "icon-ability" then
                local f, v = e[3], e[4]
                if f == "sunbathing" then s.pend[#s.pend + 1] = { seat = q, f = f, v = v, left = v }
                elseif f == "perception" then s.pend[#s.pend + 1] = { seat = q, f = f, v = v, left = v // 2, lazy = true }
                else s.pend[#s.pend + 1] = { seat = q, f = "hunter", v = "predators", lazy = true } end
              elseif e[3] == "appeal" then gain_appeal(pq, e[4])
              else pq.x = math.min(D.MAX_X, pq.x + e[4]) end
            end
          end
        end
      end
    end
  end
end
G.building_triggers = building_triggers

-- a pending perception or hunter from a sponsor building draws its cards only when it is first in
-- line, so its cards never mix with another ability's (hunter X = the seat's predator icons then)
local function lazy_draw(s, e)
  e.lazy = nil
  local p = s.players[e.seat]
  if e.f == "perception" then
    for _ = 1, e.v do local c = draw(s); if c then p.held[#p.held + 1] = c end end
  else
    e.v = count_icon(p, "predator")
    for _ = 1, e.v do
      local c = draw(s)
      if c then s.revealed[#s.revealed + 1] = c end
    end
  end
end

-- a base conservation project not in the game yet: not on the board and not taken into a hand
local function base_unused(s, pid)
  if s.base_out and s.base_out[pid] then return false end
  for _, bp in ipairs(s.projects) do if bp.id == pid then return false end end
  return true
end
G.base_unused = base_unused

local FREE = { posturing = { "kiosk", "pavilion" }, peacocking = { "aviary" }, ["free-kiosk"] = { "kiosk" },
  ["free-pavilion"] = { "pavilion" }, ["free-e1"] = { "e1" }, ["free-e5"] = { "e5" } }

function pend_options(s, e, bare)
  local p = s.players[e.seat]
  local out = {}
  local f = e.f
  if f == "hunter" or f == "scavenging" then
    for _, c in ipairs(s.revealed) do
      if f == "scavenging" or not (CARD[c].sponsor or CARD[c].project) then add(out, bare, "keep:" .. c, "keep the revealed " .. card_words(c)) end
    end
  elseif f == "perception" then
    for _, c in ipairs(p.held) do add(out, bare, "keep:" .. c, "keep " .. card_words(c)) end
  elseif f == "resistance" then
    for i = e.from + 1, #p.finals do add(out, bare, "keep:" .. p.finals[i], "keep the final-scoring card " .. FINAL[p.finals[i]].name) end
  elseif f == "sunbathing" then
    for _, c in ipairs(p.hand) do add(out, bare, "sell:" .. c, "sell for 4 money: " .. card_words(c)) end
  elseif f == "pouch" then
    for _, c in ipairs(p.hand) do add(out, bare, "pouch:" .. c, "place under the animal for 2 appeal: " .. card_words(c)) end
  elseif f == "digging" then
    for k, c in ipairs(s.display) do add(out, bare, "dig:" .. k, "discard display card " .. k .. " (" .. CARD[c].name .. ") and refill") end
    if #s.deck + #s.discard > 0 then
      for _, c in ipairs(p.hand) do add(out, bare, "dig:" .. c, "discard " .. CARD[c].name .. " from hand and draw 1") end
    end
  elseif f == "snapping" then
    for k, c in ipairs(s.display) do add(out, bare, "take:" .. k, "take display card " .. k .. ": " .. card_words(c)) end
  elseif f == "take-card" then
    if #s.deck + #s.discard > 0 then add(out, bare, "draw", "draw 1 card from the deck") end
    for k = 1, math.min(reach(p), #s.display) do
      add(out, bare, "take:" .. k, "take display card " .. k .. ": " .. card_words(s.display[k]))
    end
  elseif f == "sponsor-building" then
    for _, fo in ipairs(FOOT[e.t]) do
      if sponsor_can_place(p, e.t, fo) then
        local hs = {}
        for _, h in ipairs(fo.hexes) do hs[#hs + 1] = hname(h) end
        add(out, bare, "free:" .. e.t .. ":" .. fo.id, "place the " .. BUILD[e.t].name .. " on " .. table.concat(hs, ","))
      end
    end
  elseif FREE[f] then
    local have = built_types(p)
    for _, t in ipairs(FREE[f]) do
      if not (BUILD[t].unique and have[t]) then
        for _, fo in ipairs(FOOT[t]) do
          if can_place(p, t, fo, p.up.build) then
            local hs = {}
            for _, h in ipairs(fo.hexes) do hs[#hs + 1] = hname(h) end
            add(out, bare, "free:" .. t .. ":" .. fo.id, "place a free " .. BUILD[t].name .. " on " .. table.concat(hs, ","))
          end
        end
      end
    end
  elseif f == "clever" then
    for i = 2, #p.slots do add(out, bare, "slot1:" .. p.slots[i], "move your " .. p.slots[i] .. " card to slot 1") end
  elseif f == "boost" then
    local i = slot_of(p, e.v)
    if i ~= 1 then add(out, bare, "boost:1", "move your " .. e.v .. " card to slot 1") end
    if i ~= 5 then add(out, bare, "boost:5", "move your " .. e.v .. " card to slot 5") end
  elseif f == "action" or f == "determination" then
    for i, a in ipairs(p.slots) do
      if (f == "action" and a == e.v or f == "determination" and a ~= "animals") and usable(s, e.seat, a, strength(p, a)) then
        add(out, bare, "extra:" .. a, string.format("take the %s action at strength %d as well", a, strength(p, a)))
      end
    end
  elseif f == "engineer" then
    -- Engineer: one more building of the kind just built, at the normal cost, outside the strength
    if p.money >= D.COST_PER_HEX * #BUILD[e.t].shape then
      for _, fo in ipairs(FOOT[e.t]) do
        if can_place(p, e.t, fo, p.up.build) then
          local hs = {}
          for _, h in ipairs(fo.hexes) do hs[#hs + 1] = hname(h) end
          add(out, bare, "copy:" .. e.t .. ":" .. fo.id, string.format("Engineer: one more %s on %s for %d money", BUILD[e.t].name,
            table.concat(hs, ","), D.COST_PER_HEX * #fo.hexes))
        end
      end
    end
  elseif f == "multiplier" then
    if (p.tokens.multiplier[e.v] or 0) > 0 and usable(s, e.seat, e.v, e.k) then
      add(out, bare, "again:" .. e.v, string.format("use a multiplier token: the %s action once more at strength %d", e.v, e.k))
    end
  elseif f == "assertion" or f == "dominance" then
    -- an unused base project (neither on the board nor taken before) into the hand; dominance:
    -- only Primates (p108)
    for _, pr in ipairs(D.PROJECTS) do
      if (f == "assertion" or pr.id == "p108") and base_unused(s, pr.id) then
        add(out, bare, "assert:" .. pr.id, "take the base conservation project " .. PJ.card_words(pr) .. " into your hand")
      end
    end
  elseif f == "pilfering" then
    if p.money > 0 then add(out, bare, "give:money", "player " .. e.thief .. " takes " .. math.min(5, p.money) .. " of your money") end
    if #p.hand > 0 then add(out, bare, "give:card", "player " .. e.thief .. " draws a card from your hand") end
  end
  local optional = f ~= "hunter" and f ~= "perception" and f ~= "scavenging" and f ~= "resistance" and f ~= "pilfering"
    and f ~= "snapping" and f ~= "take-card" and f ~= "sponsor-building"
  if #out > 0 and optional then add(out, bare, "stop", "use no more of this ability") end
  return out
end

-- close the first pending ability: what was revealed or held and not kept is discarded
function close_pend(s)
  local e = table.remove(s.pend, 1)
  local p = s.players[e.seat]
  if e.f == "hunter" or e.f == "scavenging" then
    for _, c in ipairs(s.revealed) do s.discard[#s.discard + 1] = c end
    s.revealed = {}
  elseif e.f == "perception" then
    for _, c in ipairs(p.held) do s.discard[#s.discard + 1] = c end
    p.held = {}
  elseif e.f == "resistance" then
    for i = #p.finals, e.from + 1, -1 do table.insert(s.fin_deck, 1, table.remove(p.finals, i)) end
  end
end

-- drop pending abilities that have nothing left to choose
function prune(s)
  while true do
    if #s.pend > 0 and s.pend[1].lazy then lazy_draw(s, s.pend[1]) end
    if not (#s.pend > 0 and (s.pend[1].left == 0 or #pend_options(s, s.pend[1], true) == 0)) then return end
    close_pend(s)
  end
end

local function apply_pend(s, seat, id)
  local e = s.pend[1]
  local p = s.players[seat]
  if id == "stop" then close_pend(s); return end
  local verb, arg = id:match("^(%a+%d?):(.+)$")
  if e.f == "hunter" or e.f == "scavenging" then
    for i, c in ipairs(s.revealed) do if c == arg then table.remove(s.revealed, i); break end end
    to_hand_public(p, arg)
    close_pend(s)
  elseif e.f == "perception" then
    for i, c in ipairs(p.held) do if c == arg then table.remove(p.held, i); break end end
    p.hand[#p.hand + 1] = arg
    e.left = e.left - 1
    if e.left == 0 then close_pend(s) end
  elseif e.f == "resistance" then
    for i = e.from + 1, #p.finals do
      if p.finals[i] == arg then table.remove(p.finals, i); table.insert(p.finals, e.from + 1, arg); break end
    end
    e.from = e.from + 1
    close_pend(s)
  elseif verb == "sell" then
    take_from_hand(p, arg); s.discard[#s.discard + 1] = arg; p.money = p.money + 4
    e.left = e.left - 1
  elseif verb == "pouch" then
    take_from_hand(p, arg); p.tucked[#p.tucked + 1] = arg; gain_appeal(p, 2)
    e.left = e.left - 1
  elseif verb == "assert" then
    p.bhand[#p.bhand + 1] = arg; s.base_out = s.base_out or {}; s.base_out[arg] = true
    close_pend(s)
  elseif verb == "dig" then
    local k = tonumber(arg)
    if k then
      s.discard[#s.discard + 1] = table.remove(s.display, k)
      refill_display(s)
    else
      take_from_hand(p, arg); s.discard[#s.discard + 1] = arg
      draw_to_hand(s, p, 1)
    end
    e.left = e.left - 1
  elseif verb == "take" then
    to_hand_public(p, table.remove(s.display, tonumber(arg)))
    refill_display(s)
    e.left = e.left - 1
  elseif id == "draw" then
    draw_to_hand(s, p, 1)
    e.left = e.left - 1
  elseif verb == "free" then
    local t, fid = arg:match("^(%w+):(.+)$")
    place_building(s, seat, t, FOOTID[t .. ":" .. fid], true)
    e.left = e.left - 1
  elseif verb == "slot1" then use_card(p, arg); close_pend(s)
  elseif verb == "boost" then
    if arg == "1" then use_card(p, e.v) else
      table.remove(p.slots, slot_of(p, e.v))
      p.slots[5] = e.v
    end
    close_pend(s)
  elseif verb == "copy" then
    local t, fid = arg:match("^(%w+):(.+)$")
    p.engineer_at = s.build_no
    close_pend(s)
    place_building(s, seat, t, FOOTID[t .. ":" .. fid], false)
  elseif verb == "again" then
    p.tokens.multiplier[arg] = p.tokens.multiplier[arg] - 1
    if p.tokens.multiplier[arg] == 0 then p.tokens.multiplier[arg] = nil end
    close_pend(s)
    begin_action(s, seat, arg, e.k)
  elseif verb == "extra" then
    close_pend(s)
    begin_action(s, seat, arg, strength(p, arg))
  elseif verb == "give" then
    local thief = s.players[e.thief]
    if arg == "money" then
      local k = math.min(5, p.money)
      p.money, thief.money = p.money - k, thief.money + k
    else
      local c = table.remove(p.hand, kit.rand(s, #p.hand))
      p.public[c] = nil
      to_hand_public(thief, c)
    end
    close_pend(s)
  end
end

function G.apply(s, seat, id)
  local who, kind = decider(s)
  if who ~= seat then return nil, "not seat " .. tostring(seat) .. "'s turn" end
  local ok = false
  for _, a in ipairs(G.legal_actions(s, seat, true)) do if a.id == id then ok = true; break end end
  if not ok then return nil, "illegal action " .. tostring(id) end
  local p = s.players[seat]
  if kind == "bonus" then
    table.remove(s.bonuses, 1)
    if id == "worker" then p.workers = p.workers + 1 else p.up[id:sub(9)] = true end
    settle(s)
    return true
  elseif kind == "break_discard" then
    table.remove(s.discards, 1)
    local c = id:sub(9)
    take_from_hand(p, c)
    s.discard[#s.discard + 1] = c
    if #s.discards == 0 and s.break_rest then break_rest(s) end
    settle(s)
    return true
  elseif kind == "setup_discard" or kind == "setup_final" then
    apply_setup(s, seat, kind, id)
    return true
  elseif kind == "ability" then
    apply_pend(s, seat, id)
    settle(s)
    return true
  end
  local st = s.step
  if kind == "turn" then
    local action, xs = id:match("^(%a+)%+(%d)$")
    if id:find("^x:") then
      card_used(s, seat, id:sub(3), true)
      use_card(p, id:sub(3))
      if p.x < D.MAX_X then p.x = p.x + 1 end
      s.step = { k = "done" }
    else
      action = action or id
      xs = tonumber(xs) or 0
      local k = strength(p, action, xs)
      p.x = p.x - xs
      begin_action(s, seat, action, k)
    end
  elseif kind == "build" then
    if id == "stop" then s.step = { k = "done" } else s.step = { k = "place", t = id:sub(7), prev = st } end
  elseif kind == "place" then
    local f = FOOTID[st.t .. ":" .. id:sub(7)]
    place_building(s, seat, st.t, f, false)
    if has_effect(p, "engineer") and BUILD[st.t].kind ~= "special" and p.engineer_at ~= s.build_no then
      s.pend[#s.pend + 1] = { seat = seat, f = "engineer", t = st.t }
    end
    local prev = st.prev
    prev.left = prev.left - #f.hexes
    prev.used[st.t] = true
    prev.built = prev.built + 1
    if prev.single or #build_types(p, prev.left, prev.used) == 0 then s.step = { k = "done" } else s.step = prev end
  elseif kind == "animals" then
    if id == "stop" then s.step = { k = "done" } else
      local cid, bi = id:match("^play:([^:]+):(%d+)$")
      bi = tonumber(bi)
      local c = CARD[cid]
      p.money = p.money - animal_cost(p, c)
      take_from_hand(p, cid)
      p.zoo[#p.zoo + 1] = cid
      table.insert(p.buildings[bi].animals, cid)
      gain_appeal(p, c.appeal)
      gain_cp(s, seat, c.cp)
      gain_rep(s, seat, c.rep)
      icon_triggers(s, seat, c)
      play_ability(s, seat, cid)
      building_triggers(s, seat, c)
      st.left = st.left - 1
      st.played = st.played + 1
      if st.left == 0 or #animal_plays(p) == 0 then s.step = { k = "done" } end
    end
  elseif kind == "sponsors" then
    if id == "stop" then s.step = { k = "done" }
    elseif id == "break" then
      p.money = p.money + (p.up.sponsors and 2 * st.strength or st.strength)
      advance_break(s, seat, st.strength)
      s.step = { k = "done" }
    else
      local cid = id:sub(9)
      local c = CARD[cid]
      take_from_hand(p, cid)
      p.sponsors[#p.sponsors + 1] = cid
      gain_cp(s, seat, c.cp)
      gain_rep(s, seat, c.rep)
      icon_triggers(s, seat, c)
      play_sponsor_effect(s, seat, cid)
      building_triggers(s, seat, c)
      st.left = st.left - c.level
      st.played = st.played + 1
      if st.single or #sponsor_plays(p, st.left) == 0 then s.step = { k = "done" } end
    end
  elseif kind == "snap" then
    if id == "draw" then
      draw_to_hand(s, p, st.draw)
      s.step = { k = "cards_discard", left = math.min(st.disc, #p.hand) }
      if s.step.left == 0 then s.step = { k = "done" } end
    else
      local k = tonumber(id:sub(6))
      local c = table.remove(s.display, k)
      p.hand[#p.hand + 1] = c
      p.public[c] = true
      refill_display(s)
      s.step = { k = "done" }
    end
  elseif kind == "cards_discard" then
    local c = id:sub(9)
    take_from_hand(p, c)
    s.discard[#s.discard + 1] = c
    st.left = st.left - 1
    if st.left == 0 then s.step = { k = "done" } end
  elseif kind == "association" then
    if id == "stop" then s.step = { k = "done" } else
      if id == "donate" then
        s.donations = s.donations + 1
        p.money = p.money - D.DONATIONS[s.donations]
        st.used.donate = true
        gain_cp(s, seat, 1)
      else
        local task = id:match("^(%a+)")
        st.used[task] = true
        st.left = st.left - task_cost(p, task)
        p.busy = p.busy + 1
        if task == "rep" then gain_rep(s, seat, 2)
        elseif task == "partner" then p.partners[#p.partners + 1] = id:sub(9)
        elseif task == "uni" then
          local u = UNI[id:sub(5)]
          p.unis[#p.unis + 1] = u.id
          if u.rep then gain_rep(s, seat, u.rep) end
        else
          local cp, rep = PJ.support(PENV, s, seat, id)
          gain_cp(s, seat, cp)
          gain_rep(s, seat, rep)
        end
      end
      st.tasks = st.tasks + 1
      if st.single and id ~= "donate" then s.step = { k = "done" }
      elseif #assoc_tasks(s, seat, st.left, st.used) == 0 and not can_donate(s, p, st.used) then s.step = { k = "done" } end
    end
  end
  settle(s)
  return true
end

-- ranking: score = appeal + conservation converted - 114 (D.CROSSING); ties: more conservation projects
-- supported (the rulebook's tie-break), then shared
function G.ranking(s)
  local keys, scores = {}, {}
  for i = 1, s.n do
    local p = s.players[i]
    scores[i] = score_of(p)
    keys[i] = { scores[i], #p.supported }
  end
  return { ranks = kit.ranks(keys), scores = scores }
end

function G.estimate(s)
  local out = {}
  for i = 1, s.n do
    local p = s.players[i]
    local extra = 0
    for _, f in ipairs(p.finals) do extra = extra + final_points(s, p, f) end
    out[i] = score_of(p) + 2 * extra + #p.zoo + p.money / 6
  end
  return out
end

-- observation -------------------------------------------------------------------------------
function G.observation(s, seat)
  local who, kind = decider(s)
  local o = { seat = seat, n = s.n, round = s.round, turn = s.turn, to_move = who, step = kind, scores = {},
    deck = #s.deck, discard = kit.copy(s.discard), display = kit.copy(s.display), brk = s.brk,
    break_at = D.BREAK_LENGTH[s.n], breaks = s.breaks, donations = s.donations, over = s.over,
    final_from = s.final_from, projects = kit.copy(s.projects), players = {}, map = s.map or "ours" }
  if s.step and s.step.left and who == seat then o.left = s.step.left end
  if s.step and s.step.k == "place" and who == seat then o.placing = s.step.t end
  o.revealed = kit.copy(s.revealed)
  if #s.pend > 0 then
    local e = s.pend[1]
    o.pending = { seat = e.seat, ability = e.f, value = e.v, left = e.left, thief = e.thief }
  end
  for i = 1, s.n do
    local p = s.players[i]
    o.scores[i] = score_of(p)
    local v = { money = p.money, appeal = p.appeal, cp = p.cp, rep = p.rep, x = p.x, workers = p.workers, busy = p.busy,
      slots = kit.copy(p.slots), up = kit.copy(p.up), buildings = kit.copy(p.buildings), zoo = kit.copy(p.zoo),
      sponsors = kit.copy(p.sponsors),
      partners = kit.copy(p.partners), unis = kit.copy(p.unis), supported = kit.copy(p.supported),
      hand_count = #p.hand, finals_count = #p.finals, income = income_of(p), turns = p.turns,
      tucked_count = #p.tucked, held_count = #p.held, tokens = kit.copy(p.tokens), base_hand = kit.copy(p.bhand or {}),
      icon_tokens = p.icon_tokens or 0 }
    if i == seat or s.over then
      v.hand = kit.copy(p.hand)
      if #p.set_aside > 0 then v.set_aside = kit.copy(p.set_aside) end
      v.held = kit.copy(p.held)
      v.finals = kit.copy(p.finals)
      if p.final_cp then v.final_cp = p.final_cp end
    else
      local known = {}
      for _, c in ipairs(p.hand) do if p.public[c] then known[#known + 1] = c end end
      table.sort(known)
      v.known = known
    end
    o.players[i] = v
  end
  return o
end

local function short(id)
  local c = CARD[id]
  return string.format("%s %s", id, c.name)
end

function G.render(o)
  local L = {}
  L[#L + 1] = string.format("Ark Nova (one zoo map; animal and sponsor cards), round %d. You are player %d of %d.%s", o.round, o.seat, o.n,
    o.over and " The game is over." or (o.to_move and (" Player " .. o.to_move .. " to choose (" .. tostring(o.step) .. ").") or ""))
  L[#L + 1] = string.format("Break track %d/%d (breaks so far %d). Deck %d cards, discard pile %d. Donations made %d.%s",
    o.brk, o.break_at, o.breaks, o.deck, #o.discard, o.donations, o.final_from ~= 0 and (" Final round: player " .. o.final_from .. " crossed.") or "")
  local ds = {}
  for k, id in ipairs(o.display) do ds[#ds + 1] = k .. ": " .. card_words(id) end
  L[#L + 1] = "Display (folder 1 first):"
  for _, d in ipairs(ds) do L[#L + 1] = "  " .. d end
  local ps = {}
  for _, pr in ipairs(o.projects) do
    local lv = {}
    for k = 1, 3 do
      lv[#lv + 1] = PJ.level_words(PROJECT[pr.id], k) .. (pr.levels[k] > 0 and (" (player " .. pr.levels[k] .. ")")
        or pr.levels[k] < 0 and " (blocked)" or "")
    end
    ps[#ps + 1] = PROJECT[pr.id].name .. " [" .. table.concat(lv, "; ") .. "]"
  end
  L[#L + 1] = "Conservation projects: " .. table.concat(ps, " | ")
  local terr = {}
  local map = D.MAPS[o.map or "ours"]
  for _, n in ipairs(map.rock) do terr[#terr + 1] = n .. " rock" end
  for _, n in ipairs(map.water) do terr[#terr + 1] = n .. " water" end
  L[#L + 1] = "Map (every zoo, " .. map.name ..
    "): columns a-i, a/c/e/g/i of 6 hexes, b/d/f/h of 7; " .. table.concat(terr, ", ") ..
    "; Build II only: " .. table.concat(map.build2, ",") .. "; bonuses: "
  local bn, names = {}, {}
  for n in pairs(map.bonus) do names[#names + 1] = n end
  if map == D.MAP then names = { "b1", "f6", "d2", "h1", "a6" } else table.sort(names) end
  for _, n in ipairs(names) do bn[#bn + 1] = n .. " " .. D.BONUS_WORDS[map.bonus[n]] end
  L[#L] = L[#L] .. table.concat(bn, ", ")
  for i, v in ipairs(o.players) do
    local slots = {}
    for k, a in ipairs(v.slots) do slots[#slots + 1] = k .. ":" .. a .. (v.up[a] and "(II)" or "") end
    L[#L + 1] = string.format("Player %d%s: score %d (appeal %d, CP %d), money %d (income %d), reputation %d, X %d, workers %d/%d free, hand %d%s",
      i, i == o.seat and " (you)" or "", o.scores[i], v.appeal, v.cp, v.money, v.income, v.rep, v.x, v.workers - v.busy, v.workers, v.hand_count,
      v.final_cp and (", final-scoring CP " .. v.final_cp) or "")
    L[#L + 1] = "  action cards: " .. table.concat(slots, " ")
    local bs = {}
    for _, b in ipairs(v.buildings) do
      local hs = {}
      for _, h in ipairs(b.hexes) do hs[#hs + 1] = hname(h) end
      local an = {}
      for _, a in ipairs(b.animals) do an[#an + 1] = CARD[a].name end
      bs[#bs + 1] = BUILD[b.t].name .. " " .. table.concat(hs, ",") .. (#an > 0 and (" [" .. table.concat(an, ", ") .. "]") or (BUILD[b.t].kind ~= "kiosk" and BUILD[b.t].kind ~= "pavilion" and BUILD[b.t].kind ~= "sponsor" and " [empty]" or ""))
    end
    L[#L + 1] = "  zoo: " .. (#bs > 0 and table.concat(bs, "; ") or "nothing built")
    local extra = {}
    if #v.partners > 0 then
      local names = {}
      for _, c in ipairs(v.partners) do names[#names + 1] = D.CONTINENT_NAMES[c] end
      extra[#extra + 1] = "partner zoos " .. table.concat(names, ", ")
    end
    if #v.unis > 0 then extra[#extra + 1] = "universities " .. table.concat(v.unis, ", ") end
    if #v.supported > 0 then extra[#extra + 1] = "projects supported " .. #v.supported end
    if (v.icon_tokens or 0) > 0 then extra[#extra + 1] = "breeding tokens (any icon for a base project) " .. v.icon_tokens end
    if v.tucked_count > 0 then extra[#extra + 1] = "cards under pouch animals " .. v.tucked_count end
    if #v.sponsors > 0 then
      local names = {}
      for _, c in ipairs(v.sponsors) do names[#names + 1] = CARD[c].name end
      extra[#extra + 1] = "sponsors " .. table.concat(names, ", ")
    end
    if v.tokens then
      local tk = {}
      for _, kind in ipairs({ "venom", "constriction", "multiplier" }) do
        for _, a in ipairs(D.ACTIONS) do
          local n = v.tokens[kind][a]
          if n then tk[#tk + 1] = kind .. " on " .. a .. (n ~= true and n > 1 and (" x" .. n) or "") end
        end
      end
      if #tk > 0 then extra[#extra + 1] = "tokens: " .. table.concat(tk, ", ") end
    end
    if #extra > 0 then L[#L + 1] = "  " .. table.concat(extra, "; ") end
    if v.hand then
      L[#L + 1] = "  hand:"
      for _, c in ipairs(v.hand) do L[#L + 1] = "    " .. card_words(c) end
      local fs = {}
      for _, f in ipairs(v.finals) do
        local fc = FINAL[f]
        fs[#fs + 1] = fc.name .. " (" .. fc.words .. (fc.steps and (": " .. table.concat(fc.steps, "/") .. " -> 1/2/3/4 CP") or "") .. ")"
      end
      L[#L + 1] = "  final scoring: " .. table.concat(fs, "; ")
      if v.set_aside then
        local xs = {}
        for _, c in ipairs(v.set_aside) do xs[#xs + 1] = short(c) end
        L[#L + 1] = "  set aside (your setup discards, face down until every player has chosen): " .. table.concat(xs, ", ")
      end
    elseif v.known and #v.known > 0 then
      local ks = {}
      for _, c in ipairs(v.known) do ks[#ks + 1] = short(c) end
      L[#L + 1] = "  known in hand: " .. table.concat(ks, ", ")
    end
    if v.base_hand and #v.base_hand > 0 then
      local bs = {}
      for _, pid in ipairs(v.base_hand) do bs[#bs + 1] = PJ.card_words(PROJECT[pid]) end
      L[#L + 1] = "  base projects in hand (public): " .. table.concat(bs, "; ")
    end
  end
  if o.pending then
    local e = o.pending
    L[#L + 1] = string.format("Ability being resolved: %s%s of player %d%s%s", e.ability, e.value and (" " .. e.value) or "",
      e.thief or e.seat, e.thief and (" against player " .. e.seat) or "", e.left and (", " .. e.left .. " use(s) left") or "")
  end
  if #o.revealed > 0 then
    local rs = {}
    for _, c in ipairs(o.revealed) do rs[#rs + 1] = card_words(c) end
    L[#L + 1] = "Revealed cards: " .. table.concat(rs, "; ")
  end
  local me = o.players[o.seat]
  if me.held and #me.held > 0 then
    local hs = {}
    for _, c in ipairs(me.held) do hs[#hs + 1] = card_words(c) end
    L[#L + 1] = "Drawn, to keep or discard: " .. table.concat(hs, "; ")
  end
  if o.left then L[#L + 1] = "Left in this action: " .. o.left end
  return table.concat(L, "\n")
end

-- heuristic ---------------------------------------------------------------------------------
local function want_sizes(p)
  local best = 0
  for _, id in ipairs(p.hand) do
    local c = CARD[id]
    if c.size > best and c.cost <= p.money + 10 and PRE.ok(PENV, p, c) then best = c.size end
  end
  return best
end

-- project_value(s, seat, task) -> what a project task is worth to the heuristic: its CP and
-- reputation on the score's scale, less the appeal a release gives up
function G.project_value(s, seat, task)
  local pid, lv, aid = task:match("^project:([^:]+):(%d):?(.*)$")
  local pr = PROJECT[pid]
  local l = pr.levels[tonumber(lv)]
  local v = 3 * l.cp + l.rep + (pr.kind == "release" and pr.rep or 0)
  if aid ~= "" and CARD[aid] then v = v - CARD[aid].appeal end
  return v
end

-- keep_value(s, seat, card) -> how much the heuristic wants to keep a hand card: an animal by its
-- gains (less when it is far from affordable), a sponsor by its icons and gains (nothing when its
-- level is beyond the Sponsors card), a project card by the best level its zoo could support
function G.keep_value(s, seat, id)
  local p = s.players[seat]
  local c = CARD[id]
  if c.project then
    local best = 0
    for lv = 1, 3 do
      local l = c.levels[lv]
      local ok
      if c.kind == "count" then ok = PJ.count(PENV, p, c.count) + 1 >= l.need
      elseif c.kind == "release" then ok = #PJ.release_animals(PENV, p, c, lv) > 0
      else ok = true end
      if ok and l.cp > best then best = l.cp end
    end
    return 1 + 2 * best
  elseif c.sponsor then
    if c.level > (p.up.sponsors and 6 or 5) then return 0 end
    return (3 + c.science + 2 * c.cp + c.rep + (c.class ~= "" and 1 or 0) + (c.cont ~= "" and 1 or 0))
      * (PRE.ok(PENV, p, c) and 1 or 0.25)
  end
  return (3 + c.appeal + 2 * c.cp + c.rep - math.max(0, animal_cost(p, c) - p.money - 10) / 4)
    * (PRE.ok(PENV, p, c) and 1 or 0.25)
end

-- toward_projects(s, seat, card) -> 1 for each project on the board or in hand the seat has not
-- supported that the animal's icons (or size) bring closer
function G.toward_projects(s, seat, c)
  local p = s.players[seat]
  local done = {}
  for _, k in ipairs(p.supported) do done[k] = true end
  local v = 0
  local function look(pr)
    if done[pr.id] then return end
    local w = pr.count or pr.icon
    if w == c.cont or w == c.class or (w == "large" and c.size >= 4) or (w == "small" and c.size >= 1 and c.size <= 2)
      or (w == "water" and c.water > 0) or (w == "rock" and c.rock > 0) or w == "classes" or w == "continents" then
      v = v + 1
    end
  end
  for _, bp in ipairs(s.projects) do look(PROJECT[bp.id]) end
  for _, id in ipairs(p.hand) do if CARD[id].project then look(CARD[id]) end end
  return v
end

-- unlock_value(s, seat, task) -> what a partner zoo, university or reputation task is worth to
-- the hand: cards whose prerequisites it meets (or comes closer to) and animals it makes cheaper
function G.unlock_value(s, seat, task)
  local p = s.players[seat]
  local v = 1
  local cont = task:match("^partner:(%a+)$")
  local uni = task:match("^uni:(%w+)$")
  local science = uni and UNI[uni].science or 0
  for _, id in ipairs(p.hand) do
    local c = CARD[id]
    local need = PRE.BY_NUM[c.num]
    if cont and c.cont == cont and not c.sponsor then v = v + 2 end
    if need and not PRE.ok(PENV, p, c) then
      if cont and ((need.partner and (c.cont == cont or c.sponsor)) or need[cont]) then v = v + 5 end
      if science > 0 and need.science then v = v + 4 end
      if task == "rep" and need.rep then v = v + 3 end
    end
  end
  if uni == "u2" and #p.hand > hand_limit(p) then v = v + 2 end
  return v
end

-- turn_value(s, seat, id, memo) -> the heuristic score of a turn choice; memo shares the work
-- that does not depend on the action id (heuristic_all passes one memo for the whole list)
local function turn_value(s, seat, id, memo)
  local p = s.players[seat]
  if id:find("^x:") then return 1 + (p.x == 0 and 1 or 0) end
  local action, xs = id:match("^(%a+)%+(%d)$")
  action = action or id
  xs = tonumber(xs) or 0
  local pen = 2 * xs
  local k = strength(p, action, xs)
  if action == "animals" then
    if memo.best == nil then
      local best = 0
      for _, pl in ipairs(animal_plays(p)) do
        local c = CARD[pl.card]
        local v = c.appeal + 2 * c.cp + c.rep
        if v > best then best = v end
      end
      memo.best = best
    end
    -- side I plays two animals only at strength 5: with two playable, an earlier turn is worth less
    local two = not p.up.animals and k < 5 and #animal_plays(p) > 1
    return 10 + memo.best - pen - (two and 3 or 0)
  elseif action == "build" then
    -- worth it when an animal in hand needs an enclosure it has none for
    local key = "need" .. k
    if memo[key] == nil then
      local need = 0
      for _, cid in ipairs(p.hand) do
        local c = CARD[cid]
        if not c.sponsor and c.size > 0 and c.size <= k and c.cost + 2 * c.size <= p.money + 4 and PRE.ok(PENV, p, c) then
          local fit = false
          for bi = 1, #p.buildings do if fits(p, c, bi) then fit = true; break end end
          if not fit and c.size > need then need = c.size end
        end
      end
      memo[key] = need
    end
    return memo[key] > 0 and (9 - pen) or (1 - pen)
  elseif action == "association" then
    -- worth the most CP a project task gives now (project_value), else a small score
    local key = "proj" .. math.min(k, 5)
    if memo[key] == nil then
      memo[key] = false
      for _, task in ipairs(assoc_tasks(s, seat, k, {})) do
        if task:find("^project") then
          local v = G.project_value(s, seat, task)
          if not memo[key] or v > memo[key] then memo[key] = v end
        end
      end
    end
    if not memo[key] and memo["unl" .. k] == nil then
      local best = 0
      for _, task in ipairs(assoc_tasks(s, seat, k, {})) do
        if not task:find("^project") then best = math.max(best, G.unlock_value(s, seat, task)) end
      end
      memo["unl" .. k] = best
    end
    return (memo[key] and (4 + memo[key]) or (3 + k / 2 + (memo["unl" .. k] or 0))) - pen
  elseif action == "cards" then
    if memo.playable == nil then
      -- an animal in hand that its prerequisites and money allow is a reason to build, not to draw
      memo.playable = #animal_plays(p) > 0
      for _, cid in ipairs(p.hand) do
        local c = CARD[cid]
        if not c.sponsor and not c.project and PRE.ok(PENV, p, c) and animal_cost(p, c) <= p.money then memo.playable = true end
      end
    end
    return (memo.playable and 2 or 5) + k / 3 + (p.money >= 25 and 2 or 0) - pen
  elseif action == "sponsors" then
    local left = p.up.sponsors and k + 1 or k
    local key = "sp" .. left
    if memo[key] == nil then memo[key] = #sponsor_plays(p, left) > 0 end
    return (memo[key] and 6 or 0) + (p.money < 12 and 5 or p.money < 30 and 1 or -1) + k / 2 - pen
  end
  return 0
end

-- fixed scores of the choices of a pending ability: keep the most valuable card, sell or tuck
-- the least valuable, take placements with bonuses, move a weak card to slot 1, boost to slot 5
local function card_value(id)
  local c = CARD[id]
  if c.sponsor then return 2 + c.science + 2 * c.cp + c.rep end
  return c.appeal + 2 * c.cp + c.rep
end
local SLOT1 = { sponsors = 2, cards = 1.5, build = 1, association = 0.5, animals = 0 }
local function ability_value(s, seat, id)
  local p = s.players[seat]
  if id == "stop" then return 0 end
  if id == "draw" then return 2 end
  local verb, arg = id:match("^(%a+%d?):(.+)$")
  if verb == "keep" then
    if CARD[arg] then return 1 + card_value(arg) end
    return final_points(s, p, arg)
  elseif verb == "sell" then return 2 - card_value(arg) / 4
  elseif verb == "pouch" then return 3 - card_value(arg) / 3
  elseif verb == "dig" then
    if tonumber(arg) then return 0.5 end
    return 1 - card_value(arg) / 5
  elseif verb == "take" then return 1 + card_value(s.display[tonumber(arg)]) / 3
  elseif verb == "free" or verb == "copy" then
    local t, fid = arg:match("^(%w+):(.+)$")
    local v = 2
    for _, h in ipairs(FOOTID[t .. ":" .. fid].hexes) do if BONUS[h] then v = v + 3 end end
    return v
  elseif verb == "slot1" then return SLOT1[arg]
  elseif verb == "boost" then return arg == "5" and 3 or 0.5
  elseif verb == "extra" then return 1 + turn_value(s, seat, arg, {})
  elseif verb == "again" then return 3
  elseif verb == "assert" then return 2
  elseif verb == "give" then
    local rich = p.money >= 10
    if arg == "money" then return rich and 1 or 0 end
    return rich and 0 or 1
  end
  return 0
end

function G.heuristic(s, seat, id)
  local p = s.players[seat]
  local _, kind = decider(s)
  if kind == "ability" then return ability_value(s, seat, id) end
  if kind == "setup_discard" or kind == "break_discard" or kind == "cards_discard" then
    local c = CARD[id:sub(9)]
    -- at the setup, cheap animals (a first enclosure and animal within the 25 money) weigh more
    local cheap = kind == "setup_discard" and not c.sponsor and not c.project and c.cost <= 14 and 3 or 0
    return -G.keep_value(s, seat, id:sub(9)) - cheap
  elseif kind == "setup_final" then return 0
  elseif kind == "bonus" then
    if id == "worker" then return 3 end
    local a = id:sub(9)
    return ({ animals = 6, cards = 5, association = 4.5, build = 4, sponsors = 2 })[a] or 0
  end
  if id == "stop" then return 0 end
  if kind == "turn" then return turn_value(s, seat, id, {})
  elseif kind == "build" then
    local t = id:sub(7)
    local b = BUILD[t]
    if b.kind == "enclosure" then
      local need = want_sizes(p)
      return 6 - math.abs(#b.shape - math.max(need, 1))
    elseif b.kind == "special" then return 2
    elseif b.kind == "pavilion" then return 1
    end
    return 1
  elseif kind == "place" then
    local f = FOOTID[s.step.t .. ":" .. id:sub(7)]
    local v = 0
    for _, h in ipairs(f.hexes) do
      if BONUS[h] then v = v + 3 end
      for _, j in ipairs(NB[h]) do if TERRAIN[j] then v = v + 0.5 end end
    end
    -- an enclosure placed where an animal in hand will fit it (its rock and water needs met)
    if BUILD[s.step.t].kind == "enclosure" then
      local b = { hexes = f.hexes }
      local rock, water = touching(b, "rock"), touching(b, "water")
      local best = 0
      for _, cid in ipairs(p.hand) do
        local c = CARD[cid]
        if c.size > 0 and c.size <= #f.hexes and c.rock <= rock and c.water <= water and not c.sponsor and not c.project then
          best = math.max(best, 6 + c.appeal / 2 + c.size)
        end
      end
      v = v + best
    end
    return v - f.hexes[1] / 100
  elseif kind == "animals" then
    local cid, bi = id:match("^play:([^:]+):(%d+)$")
    local c = CARD[cid]
    local waste = BUILD[p.buildings[tonumber(bi)].t].kind == "enclosure" and (#p.buildings[tonumber(bi)].hexes - c.size) or 0
    return 5 + c.appeal + 2 * c.cp + c.rep - animal_cost(p, c) / 10 - waste + G.toward_projects(s, seat, c)
  elseif kind == "sponsors" then
    if id == "break" then return p.money < 15 and 4 or 1 end
    if id == "stop" then return 0 end
    local c = CARD[id:sub(9)]
    return 3 + c.science + 2 * c.cp + c.rep + (c.class ~= "" and 1 or 0)
  elseif kind == "snap" then
    if id == "draw" then return 2 end
    return G.keep_value(s, seat, s.display[tonumber(id:sub(6))]) / 3
  elseif kind == "association" then
    if id:find("^project") then return 4 + G.project_value(s, seat, id) end
    if id == "donate" then return p.money >= D.DONATIONS[s.donations + 1] + 10 and 6 or 3 end
    if id:find("^partner") or id:find("^uni") or id == "rep" then return 3 + G.unlock_value(s, seat, id) end
    return 3
  end
  return 0
end

-- heuristic_all: the same scores as heuristic, the turn choice's shared work done once
function G.heuristic_all(s, seat, legal)
  local out = {}
  local _, kind = decider(s)
  local memo = {}
  for i, a in ipairs(legal) do
    out[i] = kind == "turn" and turn_value(s, seat, a.id, memo) or G.heuristic(s, seat, a.id)
  end
  return out
end

function G.determinize(s, seat, rand)
  local d = kit.copy(s)
  -- unseen zoo cards: the deck and the other seats' hand cards not known publicly
  -- (and the cards they hold from perception or scavenging, or keep under a pouch animal)
  local pool, slots = {}, {}
  for _, c in ipairs(d.deck) do pool[#pool + 1] = c end
  for i = 1, d.n do
    if i ~= seat then
      local p = d.players[i]
      for k, c in ipairs(p.hand) do
        if not p.public[c] then pool[#pool + 1] = c; slots[#slots + 1] = { p.hand, k } end
      end
      for _, list in ipairs({ p.held, p.tucked, p.set_aside }) do
        for k, c in ipairs(list) do pool[#pool + 1] = c; slots[#slots + 1] = { list, k } end
      end
    end
  end
  kit.shuffle(pool, rand)
  local n = 0
  for _, sl in ipairs(slots) do n = n + 1; sl[1][sl[2]] = pool[n] end
  for k = 1, #d.deck do n = n + 1; d.deck[k] = pool[n] end
  -- unseen final-scoring cards
  local fpool, fslots = {}, {}
  for _, f in ipairs(d.fin_deck) do fpool[#fpool + 1] = f end
  for i = 1, d.n do
    if i ~= seat then
      for k, f in ipairs(d.players[i].finals) do fpool[#fpool + 1] = f; fslots[#fslots + 1] = { i, k } end
    end
  end
  kit.shuffle(fpool, rand)
  n = 0
  for _, sl in ipairs(fslots) do n = n + 1; d.players[sl[1]].finals[sl[2]] = fpool[n] end
  for k = 1, #d.fin_deck do n = n + 1; d.fin_deck[k] = fpool[n] end
  d.rng = kit.seed_state(rand(0x7FFFFFFF))
  return d
end

-- census: every zoo card in exactly one place (deck, display, discard, hands, zoos)
function G.census(s)
  local where = {}
  local function put(c, w) if where[c] then error("card " .. c .. " in " .. where[c] .. " and " .. w, 0) end where[c] = w end
  for _, c in ipairs(s.deck) do put(c, "deck") end
  for _, c in ipairs(s.display) do put(c, "display") end
  for _, c in ipairs(s.discard) do put(c, "discard") end
  for _, c in ipairs(s.revealed) do put(c, "revealed") end
  for i, p in ipairs(s.players) do
    for _, c in ipairs(p.hand) do put(c, "hand " .. i) end
    for _, c in ipairs(p.held) do put(c, "held " .. i) end
    for _, c in ipairs(p.tucked) do put(c, "tucked " .. i) end
    for _, c in ipairs(p.set_aside) do put(c, "set aside " .. i) end
    for _, c in ipairs(p.zoo) do put(c, "zoo " .. i) end
    for _, c in ipairs(p.sponsors) do put(c, "sponsors " .. i) end
  end
  for _, bp in ipairs(s.projects) do if bp.card then put(bp.id, "projects") end end
  return where
end

G.svg = function(obs) return require("games.arknova.svg").draw(obs) end

-- every entry point that reads the map first makes the state's map the active one (use_map)
for _, name in ipairs({ "legal_actions", "apply", "observation", "heuristic", "heuristic_all", "estimate", "determinize" }) do
  local f = G[name]
  G[name] = function(s, ...)
    use_map(s.map)
    return f(s, ...)
  end
end

return G
