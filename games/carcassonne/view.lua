-- games.carcassonne.view — what a seat sees of a Carcassonne match (everything but the order
-- of the stack) as a JSON-encodable table, and its text form built from that table only.
local TILES = require "games.carcassonne.tiles"
local B = require "games.carcassonne.board"

local M = {}
local T, KIND, SIDE = TILES.T, TILES.KIND_NAME, TILES.SIDE_NAME
local FIELD, MONASTERY = TILES.FIELD, TILES.MONASTERY

local function edges(t, r)
  local k = T[t].rot[r].kinds
  return { N = k[1], E = k[2], S = k[3], W = k[4] }
end

local function feature_list(s, t, r, base)
  local rot = T[t].rot[r]
  local out = {}
  for _, f in ipairs(rot.list) do
    local v = { name = rot.names[f], kind = KIND[T[t].feats[f].kind], text = rot.text[f] }
    if base then v.group = B.find(s.sp, base + f - 1) end
    out[#out + 1] = v
  end
  return out
end

function M.observation(s, seat)
  local o = { game = "carcassonne", seat = seat, n = s.n, turn = s.turn, phase = s.phase, over = s.over,
              turns_played = s.turns, scores = {}, players = {}, tiles = {}, followers = {}, open_positions = {},
              groups = {}, stack = #s.stack, unseen = {}, set_aside = {}, events = {} }
  for i = 1, s.n do
    o.scores[i] = s.score[i]
    o.players[i] = { score = s.score[i], followers_in_supply = s.supply[i], followers_on_map = 0 }
  end
  if s.phase == "place" then
    local rots = {}
    for j, r in ipairs(T[s.tile].rotations) do rots[j] = TILES.DEGREES[r] end
    o.tile = { type = T[s.tile].letter, rotations = rots, edges = edges(s.tile, 0), features = feature_list(s, s.tile, 0) }
  elseif s.phase == "follower" then
    local i = s.last
    o.placed = { x = s.tx[i], y = s.ty[i], type = T[s.tt[i]].letter, rotation = TILES.DEGREES[s.tr[i]] }
  end
  local counts = {}
  for _, t in ipairs(s.stack) do counts[t] = (counts[t] or 0) + 1 end
  for t, e in ipairs(T) do if counts[t] then o.unseen[e.letter] = counts[t] end end
  for j, t in ipairs(s.aside) do o.set_aside[j] = T[t].letter end
  for j, e in ipairs(s.events) do o.events[j] = e.text end
  for i = 1, #s.tt do
    local t, r = s.tt[i], s.tr[i]
    o.tiles[i] = { x = s.tx[i], y = s.ty[i], type = T[t].letter, rotation = TILES.DEGREES[r], edges = edges(t, r),
                   features = feature_list(s, t, r, s.tb[i]) }
  end
  for m = 1, #s.ms do
    local g = s.mg[m]
    local i, f = s.st[g], s.sf[g]
    local p = o.players[s.ms[m]]
    p.followers_on_map = p.followers_on_map + 1
    o.followers[m] = { seat = s.ms[m], x = s.tx[i], y = s.ty[i], feature = T[s.tt[i]].rot[s.tr[i]].names[f],
                       kind = KIND[s.sk[g]], group = B.find(s.sp, g) }
  end
  for j = 1, #s.fx do
    local needs, q = {}, s.fq[j]
    for side = 0, 3 do
      local k = (q >> (2 * side)) & 3
      if k > 0 then needs[SIDE[side + 1]] = KIND[k] end
    end
    o.open_positions[j] = { x = s.fx[j], y = s.fy[j], needs = needs }
  end
  -- groups: every city and road, and monasteries and fields with followers
  local roots, fields = {}, {}
  for g = 1, #s.sp do
    if s.sp[g] == g and (s.sk[g] < FIELD or s.sc[g] > 0) then
      roots[g] = true
      if s.sk[g] == FIELD then fields[g] = true end
    end
  end
  local tiles = B.tiles_of(s, roots)
  local farms = B.farms(s, fields)
  for g = 1, #s.sp do
    if roots[g] then
      local k = s.sk[g]
      local v = { group = g, kind = KIND[k], followers = {} }
      for seat = 1, s.n do v.followers[seat] = s.own[seat][g] end
      if k == FIELD then v.completed_cities = farms[g]
      elseif k == MONASTERY then local i = s.st[g]; v.tiles_around = B.around(s, s.tx[i], s.ty[i])
      else
        v.tiles, v.open_sides, v.complete = tiles[g], s.so[g], s.so[g] == 0
        if k == TILES.CITY then v.pennants = s.sn[g] end
      end
      o.groups[#o.groups + 1] = v
    end
  end
  return o
end

local function followers_text(list)
  local parts = {}
  for seat, c in ipairs(list) do if c > 0 then parts[#parts + 1] = string.format("P%d×%d", seat, c) end end
  return #parts > 0 and table.concat(parts, " ") or "none"
end

local function edges_text(e)
  return string.format("N %s, E %s, S %s, W %s", e.N, e.E, e.S, e.W)
end

function M.render(o)
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  local doing
  if o.over then doing = " The game is over."
  elseif o.phase == "place" then doing = string.format(" Player %d places tile %s.", o.turn, o.tile.type)
  else doing = string.format(" Player %d may put a follower on the tile just placed at %d,%d.", o.turn, o.placed.x, o.placed.y) end
  add("Carcassonne. You are player %d of %d.%s Turns played: %d. Tiles left in the stack: %d.", o.seat, o.n, doing, o.turns_played, o.stack)
  for i, p in ipairs(o.players) do
    add("Player %d%s: %d points, %d followers in supply, %d on the map", i, i == o.seat and " (you)" or "", p.score,
        p.followers_in_supply, p.followers_on_map)
  end
  if o.tile then
    local rots = {}
    for j, d in ipairs(o.tile.rotations) do rots[j] = d .. "°" end
    add("Tile to place: %s, unturned edges %s; distinct turns %s. Its features unturned:", o.tile.type, edges_text(o.tile.edges), table.concat(rots, " "))
    for _, f in ipairs(o.tile.features) do add("  %s: %s", f.name, f.text) end
  end
  -- the map: rows from north to south; a cell is the tile letter and its quarter turns, '+' an open position
  local minx, maxx, miny, maxy = 0, 0, 0, 0
  local cell = {}
  local function mark(x, y, txt)
    cell[x .. "," .. y] = txt
    minx, maxx, miny, maxy = math.min(minx, x), math.max(maxx, x), math.min(miny, y), math.max(maxy, y)
  end
  for _, p in ipairs(o.open_positions) do mark(p.x, p.y, "  +") end
  for _, t in ipairs(o.tiles) do mark(t.x, t.y, " " .. t.type .. (t.rotation // 90)) end
  add("")
  add("Map (x grows eastwards, y northwards; a cell shows tile type and quarter turns clockwise, + is an open position):")
  local head = { "     " }
  for x = minx, maxx do head[#head + 1] = string.format("%3d", x) end
  add("%s", table.concat(head))
  for y = maxy, miny, -1 do
    local row = { string.format("%4d ", y) }
    for x = minx, maxx do row[#row + 1] = cell[x .. "," .. y] or "  ." end
    add("%s", table.concat(row))
  end
  add("")
  add("Tiles (x,y type turn: edges; features [group]):")
  for _, t in ipairs(o.tiles) do
    local fs = {}
    for _, f in ipairs(t.features) do fs[#fs + 1] = string.format("%s=%s [#%d]", f.name, f.text, f.group) end
    add("  %d,%d %s %d°: %s; %s", t.x, t.y, t.type, t.rotation, edges_text(t.edges), table.concat(fs, "; "))
  end
  add("Followers on the map:")
  if #o.followers == 0 then add("  none") end
  for _, f in ipairs(o.followers) do add("  player %d on %s (%s) of tile %d,%d [#%d]", f.seat, f.feature, f.kind, f.x, f.y, f.group) end
  add("Features (groups of connected segments):")
  for _, g in ipairs(o.groups) do
    if g.kind == "field" then
      add("  field #%d: borders %d completed cit%s; followers %s", g.group, g.completed_cities, g.completed_cities == 1 and "y" or "ies", followers_text(g.followers))
    elseif g.kind == "monastery" then
      add("  monastery #%d: %d of 9 tiles; followers %s", g.group, g.tiles_around, followers_text(g.followers))
    else
      add("  %s #%d: %d tile%s%s, %s; followers %s", g.kind, g.group, g.tiles, g.tiles == 1 and "" or "s",
          g.pennants and g.pennants > 0 and string.format(", %d pennant%s", g.pennants, g.pennants == 1 and "" or "s") or "",
          g.complete and "complete" or string.format("%d open side%s", g.open_sides, g.open_sides == 1 and "" or "s"),
          followers_text(g.followers))
    end
  end
  local opens = {}
  for _, p in ipairs(o.open_positions) do
    local need = {}
    for _, side in ipairs(SIDE) do if p.needs[side] then need[#need + 1] = side .. " " .. p.needs[side] end end
    opens[#opens + 1] = string.format("%d,%d (%s)", p.x, p.y, table.concat(need, ", "))
  end
  add("Open positions (the sides a tile there must match): %s", table.concat(opens, "; "))
  local un = {}
  for _, e in ipairs(TILES.T) do if o.unseen[e.letter] then un[#un + 1] = e.letter .. "×" .. o.unseen[e.letter] end end
  add("Tiles still in the stack by type: %s%s", #un > 0 and table.concat(un, " ") or "none",
      #o.set_aside > 0 and ("; set aside (no legal place): " .. table.concat(o.set_aside, " ")) or "")
  if #o.events > 0 then add("Recent scoring: %s", table.concat(o.events, "; ")) end
  return table.concat(out, "\n")
end

return M
