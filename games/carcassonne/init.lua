-- games.carcassonne — Carcassonne, base game (Hans im Glück, 2–5 players) against the game
-- interface of games/README.md. A turn is two steps: place the drawn tile (`place:x:y:deg`),
-- then, when a follower can go on the new tile, place one or none (`follower:<feature>`).
-- Choices where the rulebook leaves room: games/carcassonne/RULES.md.
local kit = require "games.kit"
local TILES = require "games.carcassonne.tiles"
local B = require "games.carcassonne.board"

local G = {
  name = "carcassonne", title = "Carcassonne", players = { min = 2, max = 5 },
  annotations = { engine = 0, spatial = 2, sequencing = 1, coupling = 2, hidden = 0, scoring = 2 },
  rules_file = "games/carcassonne/rules.md",
}

local T = TILES.T
local CITY, ROAD, FIELD, MONASTERY = TILES.CITY, TILES.ROAD, TILES.FIELD, TILES.MONASTERY
local FOLLOWERS = 7
local find, key = B.find, B.key
G.TILES, G.FOLLOWERS, G.board = TILES, FOLLOWERS, B

-- draw(s): the next seat's tile from the top of the stack; a tile with no legal placement
-- is set aside (out of the game) and the next one drawn; no tile left ends the game
local final_scoring
local function draw(s)
  while #s.stack > 0 do
    local t = table.remove(s.stack)
    if B.can_place(s, t) then s.tile, s.phase = t, "place"; return end
    s.aside[#s.aside + 1] = t
  end
  s.tile, s.phase, s.over = 0, "over", true
  final_scoring(s)
end

G.draw = draw

function G.setup(n, seed)
  if math.type(n) ~= "integer" or n < 2 or n > 5 then error("Carcassonne is for 2 to 5 players, not " .. tostring(n), 2) end
  local s = B.empty(n)
  s.n, s.rng, s.turn, s.turns, s.phase, s.over, s.tile, s.last = n, kit.seed_state(seed), 1, 0, "place", false, 0, 0
  s.stack, s.aside, s.score, s.supply, s.events = {}, {}, {}, {}, {}
  for i = 1, n do s.score[i], s.supply[i] = 0, FOLLOWERS end
  for t, e in ipairs(T) do
    for _ = 1, e.count - (t == TILES.START and 1 or 0) do s.stack[#s.stack + 1] = t end
  end
  kit.shuffle(s.stack, function(k) return kit.rand(s, k) end)
  B.place(s, TILES.START, 0, 0, 0)
  draw(s)
  return s
end

function G.is_terminal(s) return s.over end
function G.current_seats(s) if s.over then return {} end return { s.turn } end

-- free_features(s) -> the features of the tile just placed that a follower may take, in
-- the listed order (cities, roads, monastery, fields by name); empty without a follower
local function free_features(s)
  local out = {}
  if s.supply[s.turn] == 0 then return out end
  local i = s.last
  local rot = T[s.tt[i]].rot[s.tr[i]]
  for _, f in ipairs(rot.list) do
    if s.sc[find(s.sp, s.tb[i] + f - 1)] == 0 then out[#out + 1] = f end
  end
  return out
end
G.free_features = free_features

local function place_label(s, i, r)
  local x, y = s.fx[i], s.fy[i]
  local k = T[s.tile].rot[r].kinds
  return string.format("place tile %s at %d,%d turned %d° (edges N %s, E %s, S %s, W %s)",
    T[s.tile].letter, x, y, TILES.DEGREES[r], k[1], k[2], k[3], k[4])
end

-- feature_note(s, g) -> what joining segment g means now: size, open sides, followers
local function feature_note(s, g)
  local r = find(s.sp, g)
  local k = s.sk[r]
  if k == MONASTERY then
    local i = s.st[r]
    return string.format("%d of 9 tiles around it", B.around(s, s.tx[i], s.ty[i]))
  end
  if k == FIELD then return string.format("a field of %d segment%s", s.sz[r], s.sz[r] == 1 and "" or "s") end
  local tiles = B.tiles_of(s, { [r] = true })[r]
  local txt = string.format("%d tile%s", tiles, tiles == 1 and "" or "s")
  if k == CITY and s.sn[r] > 0 then txt = txt .. string.format(", %d pennant%s", s.sn[r], s.sn[r] == 1 and "" or "s") end
  return txt .. (s.so[r] == 0 and ", complete: scores now" or string.format(", %d open side%s", s.so[r], s.so[r] == 1 and "" or "s"))
end
G.feature_note = feature_note

local place_id, parse_place = B.place_id, B.parse_place

function G.legal_actions(s, seat, bare)
  if s.over or seat ~= s.turn then return {} end
  local out = {}
  if s.phase == "place" then
    local fx, fy = s.fx, s.fy
    B.each_placement(s, s.tile, function(i, r)
      out[#out + 1] = { id = place_id(fx[i], fy[i], r), label = bare and "" or place_label(s, i, r) }
    end)
    return out
  end
  local i = s.last
  local rot = T[s.tt[i]].rot[s.tr[i]]
  for _, f in ipairs(free_features(s)) do
    out[#out + 1] = { id = "follower:" .. rot.names[f], label = bare and "" or
      string.format("put a follower on %s of the new tile (%s; %s)", rot.names[f], rot.text[f], feature_note(s, s.tb[i] + f - 1)) }
  end
  out[#out + 1] = { id = "follower:none", label = bare and "" or "place no follower" }
  return out
end

local function event(s, text)
  s.events[#s.events + 1] = { turn = s.turns, text = text }
  while #s.events > 0 and s.events[1].turn < s.turns - 2 * s.n do table.remove(s.events, 1) end
end

local function seats_text(who)
  local p = {}
  for j, seat in ipairs(who) do p[j] = "player " .. seat end
  return table.concat(p, " and ")
end

-- score_complete(s, r): a completed city, road or monastery scores for its majority and
-- its followers go home
local function score_complete(s, r, tiles)
  local who = B.majority(s, r)
  local v = B.value(s, r, tiles, true)
  for _, seat in ipairs(who) do s.score[seat] = s.score[seat] + v end
  event(s, string.format("%s completed: %d points to %s", TILES.KIND_NAME[s.sk[r]], v, seats_text(who)))
  B.release(s, r, s.supply)
end

-- finish_turn(s): completions caused by the tile just placed, then the next seat draws
local function finish_turn(s)
  local i = s.last
  local e, b = T[s.tt[i]], s.tb[i] - 1
  local done, closed = {}, {}
  for f, ft in ipairs(e.feats) do
    if ft.kind == CITY or ft.kind == ROAD then
      local r = find(s.sp, b + f)
      if s.so[r] == 0 and s.sc[r] > 0 and not done[r] then done[r] = true; closed[#closed + 1] = r end
    end
  end
  if #closed > 0 then
    local tiles = B.tiles_of(s, done)
    for _, r in ipairs(closed) do score_complete(s, r, tiles[r]) end
  end
  local x, y = s.tx[i], s.ty[i]
  for dy = 1, -1, -1 do
    for dx = -1, 1 do
      local j = s.at[key(x + dx, y + dy)]
      local g = j and B.monastery_segment(s, j)
      if g and s.sc[g] > 0 and B.around(s, s.tx[j], s.ty[j]) == 9 then score_complete(s, g, 1) end
    end
  end
  s.turns, s.last = s.turns + 1, 0
  s.turn = s.turn % s.n + 1
  draw(s)
end

-- final_scoring(s): incomplete features and farms score; followers stay on the map
function final_scoring(s)
  local pts, scored = B.end_points(s)
  for seat = 1, s.n do s.score[seat] = s.score[seat] + pts[seat] end
  for _, e in ipairs(scored) do
    event(s, string.format("end: %s scores %d to %s", TILES.KIND_NAME[s.sk[e.root]], e.points, seats_text(e.seats)))
  end
end

function G.apply(s, seat, id)
  if s.over or seat ~= s.turn then return nil, "not this seat's turn" end
  if type(id) ~= "string" then return nil, "not a legal action: " .. tostring(id) end
  if s.phase == "place" then
    local x, y, r = parse_place(id)
    local e = T[s.tile]
    local ok = false
    if r then for _, q in ipairs(e.rotations) do if q == r then ok = true end end end
    local fi = ok and B.frontier_at(s, x, y)
    if not fi or not B.fits(e.rot[r].code, s.fq[fi]) then return nil, "not a legal action: " .. id end
    s.last = B.place(s, s.tile, r, x, y)
    s.tile = 0
    if #free_features(s) > 0 then s.phase = "follower" else finish_turn(s) end
    return true
  end
  local name = id:match("^follower:(%w+)$")
  if not name then return nil, "not a legal action: " .. id end
  if name ~= "none" then
    local i = s.last
    local f = T[s.tt[i]].rot[s.tr[i]].index[name]
    local g = f and s.tb[i] + f - 1
    if not g or s.supply[seat] == 0 or s.sc[find(s.sp, g)] > 0 then return nil, "not a legal action: " .. id end
    local r = find(s.sp, g)
    s.ms[#s.ms + 1], s.mg[#s.mg + 1] = seat, g
    s.sc[r], s.own[seat][r] = s.sc[r] + 1, s.own[seat][r] + 1
    s.supply[seat] = s.supply[seat] - 1
  end
  finish_turn(s)
  return true
end

-- ranking: points; tied players share the place (the rulebook has no tie-break)
function G.ranking(s)
  local scores = {}
  for i = 1, s.n do scores[i] = s.score[i] end
  return { ranks = kit.ranks(scores), scores = scores }
end

-- the only hidden thing is the order of the stack: reshuffle it
function G.determinize(s, _, rand)
  local d = B.copy(s, kit.copy)
  kit.shuffle(d.stack, rand)
  return d
end

local view = require "games.carcassonne.view"
G.observation, G.render = view.observation, view.render
-- G.svg(obs) -> the observation drawn for the viewer (games/carcassonne/svg.lua)
function G.svg(o) return require("games.carcassonne.svg").svg(o) end
local ai = require "games.carcassonne.ai"
G.heuristic, G.heuristic_all, G.estimate = ai.heuristic, ai.heuristic_all, ai.estimate

G.match_work = 105   -- seconds per baseline match with ISMCTS at 1024 simulations (games/README.md)

return G
