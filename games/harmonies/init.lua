-- games.harmonies — Harmonies (Johan Benvenuto, Libellud 2024; personal boards side A, the
-- river; 2-4 players; no Nature's Spirit cards) against the game interface of games/README.md.
-- A turn is split into sub-decisions: take a group of three tokens, place each token, and,
-- in any order around them, take one animal card and place animal cubes; then end the turn.
-- Components: games/harmonies/data.lua; choices where the rulebook leaves room:
-- games/harmonies/RULES.md; the drawing: games/harmonies/svg.lua.
local kit = require "games.kit"
local D = require "games.harmonies.data"

local G = {
  name = "harmonies", title = "Harmonies", players = { min = 2, max = 4 },
  annotations = { engine = 0, spatial = 2, sequencing = 1, coupling = 1, hidden = 0, scoring = 2 },
  rules_file = "games/harmonies/rules.md",
  data = D,
}

local NHEX = #D.HEXES
local LETTER, COLOUR_OF, INDEX = {}, {}, {}
for i, c in ipairs(D.COLOURS) do LETTER[c.id] = c.letter; COLOUR_OF[c.letter] = c.id; INDEX[c.letter] = i end
local CARD = {}
for _, c in ipairs(D.CARDS) do CARD[c.id] = c end
G.CARD = CARD

-- hex index by name; neighbours NB[i][d] (0 off the board)
local HEXID, NB = {}, {}
do
  local at = {}
  for i, h in ipairs(D.HEXES) do HEXID[h.name] = i; at[h.c .. ":" .. h.y] = i end
  for i, h in ipairs(D.HEXES) do
    NB[i] = {}
    for d, v in ipairs(D.DIRS) do NB[i][d] = at[(h.c + v[1]) .. ":" .. (h.y + v[2])] or 0 end
  end
end
G.HEXID, G.NB = HEXID, NB
function G.hex_name(i) return D.HEXES[i].name end

-- which stacks satisfy a habitat requirement
local NEED = {}
for k, list in pairs(D.STACKS) do
  NEED[k] = {}
  for _, st in ipairs(list) do NEED[k][st] = true end
end

local function top(st) return st:sub(-1) end

-- can_stack(stack, letter): a token of that colour may go on that stack (cubes checked apart)
local function can_stack(st, x)
  if st == "" then return true end
  if x == "M" then return st == "M" or st == "MM" end
  if x == "T" then return st == "T" end
  if x == "G" then return st == "T" or st == "TT" end
  if x == "R" then return st == "M" or st == "T" or st == "R" end
  return false
end
G.can_stack = can_stack

-- habitat matching -----------------------------------------------------------------------

-- cells(card, t, k) -> the hexes of the card's habitat with its target on hex t, turned k
-- sixths clockwise, target first; nil when a hex falls off the board
local function cells(card, t, k, mirror)
  local out = { t }
  for j, path in ipairs(D.SHAPES[card.shape]) do
    local p = t
    for _, d in ipairs(path) do
      local dd = mirror and (-(d - 1)) % 6 or (d - 1)
      p = NB[p][(dd + k) % 6 + 1]
      if p == 0 then return nil end
    end
    out[j + 1] = p
  end
  return out
end
G.cells = cells

-- fits(board, card, t, k) -> the habitat's hexes if the board shows the card's habitat with
-- its target on t turned k sixths (reflected when mirror: never in play; for tests)
local function fits(board, card, t, k, mirror)
  if not NEED[card.target][board[t]] then return nil end
  local hs = cells(card, t, k, mirror)
  if not hs then return nil end
  for j, need in ipairs(card.others) do
    if not NEED[need][board[hs[j + 1]]] then return nil end
  end
  return hs
end
G.fits = fits

-- cube_targets(p, card) -> sorted hex indices where a cube of this card may go now: the
-- habitat is on the board under some rotation, the target hex holds no cube
local function cube_targets(p, card)
  local out = {}
  for t = 1, NHEX do
    if not p.cubes[t] and NEED[card.target][p.board[t]] then
      for k = 0, 5 do
        if fits(p.board, card, t, k) then out[#out + 1] = t; break end
      end
    end
  end
  return out
end
G.cube_targets = cube_targets

-- scoring ---------------------------------------------------------------------------------

local function river_points(len)
  if len <= 0 then return 0 end
  if len <= 6 then return D.RIVER_POINTS[len] end
  return D.RIVER_POINTS[6] + 4 * (len - 6)
end
G.river_points = river_points

-- groups(board, letter) -> list of connected groups (lists of hexes) of stacks topped by letter
local function groups(board, x)
  local seen, out = {}, {}
  for i = 1, NHEX do
    if not seen[i] and board[i] ~= "" and top(board[i]) == x then
      local g, stack = {}, { i }
      seen[i] = true
      while #stack > 0 do
        local h = table.remove(stack)
        g[#g + 1] = h
        for d = 1, 6 do
          local q = NB[h][d]
          if q > 0 and not seen[q] and board[q] ~= "" and top(board[q]) == x then seen[q] = true; stack[#stack + 1] = q end
        end
      end
      out[#out + 1] = g
    end
  end
  return out
end

-- longest_river(board) -> the length (in water tokens) of the longest river: within a group of
-- water, the shortest path between its two farthest tokens
local function longest_river(board)
  local best = 0
  for _, g in ipairs(groups(board, "W")) do
    for _, start in ipairs(g) do
      local dist, queue, head = { [start] = 1 }, { start }, 1
      while queue[head] do
        local h = queue[head]; head = head + 1
        if dist[h] > best then best = dist[h] end
        for d = 1, 6 do
          local q = NB[h][d]
          if q > 0 and not dist[q] and board[q] == "W" then dist[q] = dist[h] + 1; queue[#queue + 1] = q end
        end
      end
    end
  end
  return best
end
G.longest_river = longest_river

-- landscape(board) -> { trees, mountains, fields, buildings, river } points
function G.landscape(board)
  local r = { trees = 0, mountains = 0, fields = 0, buildings = 0, river = 0 }
  for i = 1, NHEX do
    local st = board[i]
    if st ~= "" then
      local x = top(st)
      if x == "G" then r.trees = r.trees + D.TREE_POINTS[#st]
      elseif x == "M" then
        for d = 1, 6 do
          local q = NB[i][d]
          if q > 0 and board[q] ~= "" and top(board[q]) == "M" then r.mountains = r.mountains + D.MOUNTAIN_POINTS[#st]; break end
        end
      elseif x == "R" and #st == 2 then
        local seen, k = {}, 0
        for d = 1, 6 do
          local q = NB[i][d]
          if q > 0 and board[q] ~= "" then
            local y = top(board[q])
            if not seen[y] then seen[y] = true; k = k + 1 end
          end
        end
        if k >= 3 then r.buildings = r.buildings + D.BUILDING_POINTS end
      end
    end
  end
  for _, g in ipairs(groups(board, "Y")) do
    if #g >= 2 then r.fields = r.fields + D.FIELD_POINTS end
  end
  r.river = river_points(longest_river(board))
  return r
end

local function card_points(c)
  local card = CARD[c.id]
  return c.placed > 0 and card.track[c.placed] or 0
end

-- score_of(p) -> total, breakdown
local function score_of(p)
  local b = G.landscape(p.board)
  local animals = 0
  for _, c in ipairs(p.cards) do animals = animals + card_points(c) end
  for _, c in ipairs(p.done) do animals = animals + card_points(c) end
  b.animals = animals
  return b.trees + b.mountains + b.fields + b.buildings + b.river + animals, b
end
G.score_of = score_of

local function empty_hexes(p)
  local k = 0
  for i = 1, NHEX do if p.board[i] == "" then k = k + 1 end end
  return k
end
G.empty_hexes = empty_hexes

local function cubes_placed(p)
  local k = 0
  for i = 1, NHEX do if p.cubes[i] then k = k + 1 end end
  return k
end

-- cube_supply(s) -> the animal cubes left in the box: 66 less those on the boards and those
-- still on the cards held (a card taken is filled with one cube per space of its track)
local function cube_supply(s)
  local k = D.CUBES
  for _, p in ipairs(s.players) do
    k = k - cubes_placed(p)
    for _, c in ipairs(p.cards) do k = k - (#CARD[c.id].track - c.placed) end
  end
  return k
end
G.cube_supply = cube_supply

-- setup and the turn -------------------------------------------------------------------------

local function draw_token(s)
  local total = 0
  for k = 1, #D.COLOURS do total = total + s.pouch[k] end
  if total == 0 then return nil end
  local x = kit.rand(s, total)
  for k = 1, #D.COLOURS do
    if x <= s.pouch[k] then s.pouch[k] = s.pouch[k] - 1; return D.COLOURS[k].letter end
    x = x - s.pouch[k]
  end
end

-- refill(s): every empty space of the central board gets three tokens; false when the pouch
-- could not fill them all
local function refill(s)
  local ok = true
  for k = 1, D.SPACES do
    if #s.central[k] == 0 then
      for _ = 1, D.PER_SPACE do
        local x = draw_token(s)
        if not x then ok = false; break end
        table.insert(s.central[k], x)
      end
    end
  end
  while #s.river < D.RIVER and #s.deck > 0 do s.river[#s.river + 1] = table.remove(s.deck) end
  return ok
end

function G.setup(n, seed)
  if type(n) ~= "number" or n < G.players.min or n > G.players.max then
    error("Harmonies is for 2 to 4 players, not " .. tostring(n), 2)
  end
  local s = { n = n, rng = kit.seed_state(seed), pouch = {}, central = {}, deck = {}, river = {}, box = {},
              turn = 1, first = 1, round = 1, took = false, took_card = false, pending = {},
              triggered = false, over = false, players = {} }
  for k, c in ipairs(D.COLOURS) do s.pouch[k] = c.count; s.box[k] = 0 end
  for k = 1, D.SPACES do s.central[k] = {} end
  for i, c in ipairs(D.CARDS) do s.deck[i] = c.id end
  kit.shuffle(s.deck, function(k) return kit.rand(s, k) end)
  for i = 1, n do
    local board, cubes = {}, {}
    for h = 1, NHEX do board[h] = ""; cubes[h] = false end
    s.players[i] = { board = board, cubes = cubes, cards = {}, done = {} }
  end
  refill(s)
  return s
end

function G.is_terminal(s) return s.over end
function G.current_seats(s) if s.over then return {} end return { s.turn } end

local function stack_words(st)
  if st == "" then return "empty" end
  local parts = {}
  for i = 1, #st do parts[i] = COLOUR_OF[st:sub(i, i)] end
  return table.concat(parts, "+")
end

local function pending_colours(s)
  local seen, out = {}, {}
  for _, x in ipairs(s.pending) do
    if not seen[x] then seen[x] = true; out[#out + 1] = x end
  end
  table.sort(out, function(a, b) return INDEX[a] < INDEX[b] end)
  return out
end

-- placeable(p, x) -> hexes where a token of letter x may go
local function placeable(p, x)
  local out = {}
  for h = 1, NHEX do
    if not p.cubes[h] and can_stack(p.board[h], x) then out[#out + 1] = h end
  end
  return out
end

local function can_end(s, p)
  if not s.took then
    for k = 1, D.SPACES do if #s.central[k] > 0 then return false end end
  end
  for _, x in ipairs(s.pending) do
    if #placeable(p, x) > 0 then return false end
  end
  return true
end

local function card_words(card)
  local t, o = D.STACK_NAMES[card.target], {}
  for j, x in ipairs(card.others) do o[j] = D.STACK_NAMES[x] end
  local shape
  if card.shape == "pair" then shape = string.format("cube on a %s next to a %s", t, o[1])
  elseif card.shape == "triangle" then shape = string.format("cube on a %s touching a %s and a %s that touch each other", t, o[1], o[2])
  elseif card.shape == "boomerang" then shape = string.format("cube on a %s between a %s and a %s that do not touch", t, o[1], o[2])
  elseif card.shape == "spread" then shape = string.format("cube on a %s with a %s, a %s and a %s on three neighbours in a row around it", t, o[1], o[2], o[3])
  else shape = string.format("a straight line: %s (cube), %s, %s", t, o[1], o[2]) end
  return string.format("%s (%s: %s; points %s)", card.id, card.shape, shape, table.concat(card.track, "/"))
end
G.card_words = card_words

local function unfinished(p, id)
  for j, c in ipairs(p.cards) do if c.id == id then return c, j end end
end

function G.legal_actions(s, seat, bare)
  local r = {}
  if s.over or seat ~= s.turn then return r end
  local p = s.players[seat]
  local function add(id, label) r[#r + 1] = { id = id, label = bare and "" or label() } end
  if not s.took then
    for k = 1, D.SPACES do
      local sp = s.central[k]
      if #sp > 0 then
        add("take:" .. k, function()
          local w = {}
          for j, x in ipairs(sp) do w[j] = COLOUR_OF[x] end
          return "take the tokens of space " .. k .. ": " .. table.concat(w, ", ")
        end)
      end
    end
  end
  for _, x in ipairs(pending_colours(s)) do
    for _, h in ipairs(placeable(p, x)) do
      add("place:" .. COLOUR_OF[x] .. ":" .. D.HEXES[h].name, function()
        return string.format("place %s on %s (%s -> %s)", COLOUR_OF[x], D.HEXES[h].name, stack_words(p.board[h]), stack_words(p.board[h] .. x))
      end)
    end
  end
  if not s.took_card and #p.cards < D.HAND then
    local supply = cube_supply(s)
    for _, id in ipairs(s.river) do
      if #CARD[id].track <= supply then
        add("card:" .. id, function() return "take the animal card " .. card_words(CARD[id]) end)
      end
    end
  end
  for _, c in ipairs(p.cards) do
    local card = CARD[c.id]
    for _, h in ipairs(cube_targets(p, card)) do
      add("cube:" .. c.id .. ":" .. D.HEXES[h].name, function()
        return string.format("place a %s cube on %s (%d -> %d points)", c.id, D.HEXES[h].name, card_points(c), card.track[c.placed + 1])
      end)
    end
  end
  if can_end(s, p) then
    add("end", function()
      return #s.pending > 0 and ("end the turn (" .. #s.pending .. " token(s) that fit nowhere are discarded)") or "end the turn"
    end)
  end
  return r
end

-- legal_now(s, p, kind, a, b): the parsed action is legal for the player to move (the same
-- conditions as legal_actions, checked directly)
local function legal_now(s, p, kind, a, b)
  if kind == "take" then
    local k = math.tointeger(tonumber(a))
    return not s.took and k ~= nil and tostring(k) == a and s.central[k] ~= nil and #s.central[k] > 0
  elseif kind == "place" then
    local x, h = LETTER[a], HEXID[b]
    if not x or not h or p.cubes[h] or not can_stack(p.board[h], x) then return false end
    for _, y in ipairs(s.pending) do if y == x then return true end end
    return false
  elseif kind == "card" then
    if b ~= "" or s.took_card or #p.cards >= D.HAND then return false end
    for _, id in ipairs(s.river) do if id == a then return #CARD[id].track <= cube_supply(s) end end
    return false
  elseif kind == "cube" then
    local c, h = unfinished(p, a), HEXID[b]
    if not c or not h or p.cubes[h] then return false end
    local card = CARD[a]
    for k = 0, 5 do if fits(p.board, card, h, k) then return true end end
    return false
  elseif kind == "end" then
    return a == "" and b == "" and can_end(s, p)
  end
  return false
end

-- end_turn(s): discard what fits nowhere, refill, check the end, pass the turn
local function end_turn(s)
  local p = s.players[s.turn]
  for _, x in ipairs(s.pending) do s.box[INDEX[x]] = s.box[INDEX[x]] + 1 end
  s.pending = {}
  if not refill(s) then s.triggered = true end
  if empty_hexes(p) <= 2 then s.triggered = true end
  local nxt = s.turn % s.n + 1
  if s.triggered and nxt == s.first then s.over = true; return end
  if nxt == s.first then s.round = s.round + 1 end
  s.turn, s.took, s.took_card = nxt, false, false
end

function G.apply(s, seat, id)
  if s.over or seat ~= s.turn then return nil, "not this seat's turn" end
  if type(id) ~= "string" then return nil, "unknown action" end
  local p = s.players[seat]
  local kind, a, b = id:match("^(%a+):?([%w_]*):?([%w]*)$")
  local canonical = kind and (kind .. (a ~= "" and (":" .. a) or "") .. (b ~= "" and (":" .. b) or ""))
  if canonical ~= id or not legal_now(s, p, kind, a, b) then return nil, "not a legal action now: " .. id end
  if kind == "take" then
    local k = tonumber(a)
    s.pending, s.central[k] = s.central[k], {}
    s.took = true
  elseif kind == "place" then
    local x, h = LETTER[a], HEXID[b]
    for j, y in ipairs(s.pending) do if y == x then table.remove(s.pending, j); break end end
    p.board[h] = p.board[h] .. x
  elseif kind == "card" then
    for j, cid in ipairs(s.river) do if cid == a then table.remove(s.river, j); break end end
    p.cards[#p.cards + 1] = { id = a, placed = 0 }
    s.took_card = true
  elseif kind == "cube" then
    local c, j = unfinished(p, a)
    p.cubes[HEXID[b]] = true
    c.placed = c.placed + 1
    if c.placed == #CARD[a].track then table.remove(p.cards, j); p.done[#p.done + 1] = c end
  else
    end_turn(s)
  end
  return true
end

function G.ranking(s)
  local keys, scores = {}, {}
  for i = 1, s.n do
    local p = s.players[i]
    scores[i] = score_of(p)
    keys[i] = { scores[i], cubes_placed(p) }
  end
  return { ranks = kit.ranks(keys), scores = scores }
end

-- card_view(id [, held]) -> a card as the observation shows it: its habitat and track, and for
-- a held card the cubes placed and the points it gives now
local function card_view(id, held)
  local card = CARD[id]
  local v = { id = id, shape = card.shape, target = card.target, others = { table.unpack(card.others) },
              track = { table.unpack(card.track) } }
  if held then v.cubes_placed, v.cubes, v.points = held.placed, #card.track, card_points(held) end
  return v
end

-- observation: everything is public but the order of the animal deck and the pouch's
-- future draws (the pouch's contents by colour can be counted by anyone, so they are shown)
function G.observation(s, seat)
  local o = { game = "harmonies", seat = seat, n = s.n, turn = s.turn, round = s.round, over = s.over,
              final_round = s.triggered, scores = {}, central = {}, river = {}, deck = #s.deck, pouch = {},
              discarded = {}, players = {},
              this_turn = { tokens_taken = s.took, card_taken = s.took_card, to_place = {} } }
  for k, c in ipairs(D.COLOURS) do o.pouch[c.id] = s.pouch[k]; o.discarded[c.id] = s.box[k] end
  for k = 1, D.SPACES do
    local w = {}
    for j, x in ipairs(s.central[k]) do w[j] = COLOUR_OF[x] end
    o.central[k] = w
  end
  for j, id in ipairs(s.river) do o.river[j] = card_view(id) end
  for j, x in ipairs(s.pending) do o.this_turn.to_place[j] = COLOUR_OF[x] end
  for i = 1, s.n do
    local p = s.players[i]
    local total, b = score_of(p)
    o.scores[i] = total
    local board, cubes = {}, {}
    for h = 1, NHEX do
      board[h] = p.board[h]
      if p.cubes[h] then cubes[#cubes + 1] = D.HEXES[h].name end
    end
    local cards, done = {}, {}
    for j, c in ipairs(p.cards) do cards[j] = card_view(c.id, c) end
    for j, c in ipairs(p.done) do done[j] = { id = c.id, cubes_placed = c.placed, cubes = #CARD[c.id].track, points = card_points(c) } end
    o.players[i] = { score = total, breakdown = b, board = board, cubes = cubes, cards = cards, done = done,
                     empty = empty_hexes(p) }
  end
  return o
end

function G.render(o)
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  add("Harmonies (board side A), round %d. You are player %d of %d.%s%s", o.round, o.seat, o.n,
    o.over and " The game is over." or string.format(" Player %d to move.", o.turn),
    o.final_round and " The end is triggered: this is the last round." or "")
  if not o.over then
    local tt = o.this_turn
    add("This turn: tokens %s%s; animal card %s.", tt.tokens_taken and "taken" or "not taken yet",
      #tt.to_place > 0 and (", still to place: " .. table.concat(tt.to_place, ", ")) or "",
      tt.card_taken and "taken" or "not taken")
  end
  add("")
  add("Central board:")
  for k, sp in ipairs(o.central) do add("  space %d: %s", k, #sp > 0 and table.concat(sp, ", ") or "empty") end
  local pouch, gone = {}, 0
  for _, c in ipairs(D.COLOURS) do pouch[#pouch + 1] = o.pouch[c.id] .. " " .. c.id; gone = gone + o.discarded[c.id] end
  add("Pouch: %s. Animal deck: %d cards. Tokens discarded (fitted nowhere): %d.", table.concat(pouch, ", "), o.deck, gone)
  add("Animal cards on offer:")
  for _, c in ipairs(o.river) do add("  %s", card_words(CARD[c.id])) end
  for i, p in ipairs(o.players) do
    local b = p.breakdown
    add("")
    add("Player %d%s: %d points (trees %d, mountains %d, fields %d, buildings %d, river %d, animals %d); %d empty hexes",
      i, i == o.seat and " (you)" or "", p.score, b.trees, b.mountains, b.fields, b.buildings, b.river, b.animals, p.empty)
    local cube = {}
    for _, h in ipairs(p.cubes) do cube[h] = true end
    local h = 0
    for c, len in ipairs(D.COLUMNS) do
      local cells_ = {}
      for _ = 1, len do
        h = h + 1
        local nm = D.HEXES[h].name
        cells_[#cells_ + 1] = nm .. " " .. (p.board[h] ~= "" and p.board[h] or ".") .. (cube[nm] and "*" or "")
      end
      add("  %s: %s", string.char(96 + c), table.concat(cells_, " | "))
    end
    for _, c in ipairs(p.cards) do
      add("  holds %s; %d of %d cubes placed, %d points now", card_words(CARD[c.id]), c.cubes_placed, c.cubes, c.points)
    end
    if #p.done > 0 then
      local w = {}
      for j, c in ipairs(p.done) do w[j] = c.id .. " " .. c.points end
      add("  completed animal cards: %s", table.concat(w, ", "))
    end
  end
  add("")
  add("Stacks are listed bottom to top: W blue water, M gray mountain, T brown trunk, G green foliage, Y yellow field, R red roof; * = an animal cube; . = empty.")
  add("Hexes: columns a-e (a, c, e have rows 1-5; b, d rows 1-4, set between them). Neighbours of a hex: the one above and below in its column and the two touching it in each next column (for b2: b1, b3, a2, a3, c2, c3; for c2: c1, c3, b1, b2, d1, d2).")
  return table.concat(out, "\n")
end

-- heuristic (fixed action scores) -------------------------------------------------------------

local STEP_GAIN = { 1, 2, 4 }      -- tree/mountain points gained by the k-th token of the stack

-- USES[card id][stack] = true when some hex of the card's habitat asks for that stack
local USES = {}
for _, c in ipairs(D.CARDS) do
  local u = {}
  for _, need in ipairs({ c.target, table.unpack(c.others) }) do
    for st in pairs(NEED[need]) do u[st] = true end
  end
  USES[c.id] = u
end

-- place_value(p, x, h): what a token of letter x on hex h is worth, judged locally
local NBTOP = {}      -- scratch: the top letters of the neighbours of the hex being judged
local function place_value(p, x, h)
  local board = p.board
  local st = board[h]
  local new = st .. x
  local v = 0
  local nbh = NB[h]
  local same = 0
  for d = 1, 6 do
    local q = nbh[d]
    local y = (q > 0 and board[q] ~= "") and top(board[q]) or ""
    NBTOP[d] = y
    if y == x then same = same + 1 end
  end
  if x == "G" then v = D.TREE_POINTS[#new]
  elseif x == "T" then v = st == "" and 1.2 or 2.2
  elseif x == "M" then
    if same > 0 then
      v = st == "" and 1 or STEP_GAIN[#new]
      if st == "" then   -- lonely neighbouring mountains start to score
        for d = 1, 6 do
          local q = nbh[d]
          if NBTOP[d] == "M" then
            local alone = true
            for e = 1, 6 do
              local r = NB[q][e]
              if r > 0 and r ~= h and board[r] ~= "" and top(board[r]) == "M" then alone = false; break end
            end
            if alone then v = v + D.MOUNTAIN_POINTS[#board[q]] end
          end
        end
      end
    else
      v = 0.4 + 0.4 * #new
    end
  elseif x == "Y" then
    v = same == 0 and 1 or (same == 1 and 3 or 1.5)
  elseif x == "W" then
    v = same == 1 and 3 or (same == 0 and 1 or 0.5)
  elseif x == "R" then
    if #new == 2 then
      local k = 0
      for d = 1, 6 do
        local y = NBTOP[d]
        if y ~= "" then
          local first = true
          for e = 1, d - 1 do if NBTOP[e] == y then first = false; break end end
          if first then k = k + 1 end
        end
      end
      v = k >= 3 and 5 or 1 + k
    else
      v = 0.2
    end
  end
  -- animal habitats of held cards that this token completes
  if #p.cards > 0 then
    board[h] = new
    for _, c in ipairs(p.cards) do
      if USES[c.id][new] then
        local card = CARD[c.id]
        local gained = false
        for e = 0, 6 do
          local t = e == 0 and h or nbh[e]
          if t > 0 and not p.cubes[t] and NEED[card.target][board[t]] then
            for k = 0, 5 do
              local hs = fits(board, card, t, k)
              if hs then
                for _, q in ipairs(hs) do if q == h then gained = true; break end end
                if gained then break end
              end
            end
          end
          if gained then break end
        end
        if gained then v = v + 3 + 0.3 * (card.track[c.placed + 1] - card_points(c)) end
      end
    end
    board[h] = st
  end
  return v
end

local function best_place(p, x)
  local best = -1
  for h = 1, NHEX do
    if not p.cubes[h] and can_stack(p.board[h], x) then
      local v = place_value(p, x, h)
      if v > best then best = v end
    end
  end
  return best
end

function G.heuristic(s, seat, id)
  local p = s.players[seat]
  local kind, a, b = id:match("^(%a+):?([%w_]*):?([%w]*)$")
  if kind == "take" then
    local v = 0
    for _, x in ipairs(s.central[tonumber(a)]) do v = v + best_place(p, x) end
    return v
  elseif kind == "place" then
    return 1 + place_value(p, LETTER[a], HEXID[b])
  elseif kind == "card" then
    local card = CARD[a]
    return 1.5 + card.track[#card.track] / (4 * #card.track) + (#cube_targets(p, card) > 0 and 3 or 0) - 0.5 * #p.cards
  elseif kind == "cube" then
    local c = unfinished(p, a)
    return 20 + CARD[a].track[c.placed + 1] - card_points(c)
  end
  return 0
end

-- heuristic_all: the same scores for a whole legal list, sharing each colour's best placement
function G.heuristic_all(s, seat, legal)
  local p, best, out = s.players[seat], {}, {}
  for i, a in ipairs(legal) do
    local k = a.id:match("^take:(%d)$")
    if k then
      local v = 0
      for _, x in ipairs(s.central[tonumber(k)]) do
        if not best[x] then best[x] = best_place(p, x) end
        v = v + best[x]
      end
      out[i] = v
    else
      out[i] = G.heuristic(s, seat, a.id)
    end
  end
  return out
end

-- estimate(state) -> per seat: the points on the board now plus a share of what the animal
-- cards held could still give (ISMCTS scores simulations cut short with it)
function G.estimate(s)
  local est = {}
  for i = 1, s.n do
    local p = s.players[i]
    local v = score_of(p)
    for _, c in ipairs(p.cards) do
      local card = CARD[c.id]
      v = v + 0.3 * (card.track[math.min(#card.track, c.placed + 1)] - card_points(c))
    end
    est[i] = v
  end
  return est
end

-- determinize: nothing held is hidden; the unknowns are the order of the animal deck and the
-- pouch's future draws (from the generator): the deck is reshuffled and the generator reseeded
function G.determinize(s, _, rand)
  local d = kit.reseeded(s, rand)
  kit.shuffle(d.deck, rand)
  return d
end

-- counts_decision: an `end` that is the only choice is no decision
function G.counts_decision(s, seat)
  local acts = G.legal_actions(s, seat, true)
  return not (#acts == 1 and acts[1].id == "end")
end

-- census(s) -> tokens of each colour everywhere (pouch, central board, to place, boards, discarded)
function G.census(s)
  local c = {}
  for k = 1, #D.COLOURS do c[k] = s.pouch[k] + s.box[k] end
  local function count(x) c[INDEX[x]] = c[INDEX[x]] + 1 end
  for k = 1, D.SPACES do for _, x in ipairs(s.central[k]) do count(x) end end
  for _, x in ipairs(s.pending) do count(x) end
  for i = 1, s.n do
    for h = 1, NHEX do
      local st = s.players[i].board[h]
      for j = 1, #st do count(st:sub(j, j)) end
    end
  end
  return c
end

G.svg = function(obs) return require("games.harmonies.svg").draw(obs) end

return G
