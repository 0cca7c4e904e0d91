-- games.carcassonne.board — the map of a Carcassonne match and its features: placing a
-- tile joins its feature segments to the neighbours' with a union-find kept in flat arrays
-- of the state (so copying and serializing stay cheap), the open positions around the map
-- with the side kinds they require, legal placements, and the scoring of features.
--
-- Per placed tile i: tt (type), tx, ty, tr (rotation, quarter turns clockwise), tb (its
-- first segment). Per segment g (one feature of one placed tile): sk kind, sp parent,
-- st tile, sf feature; at a root: sz segments, so open city/road sides, sn pennants,
-- sc followers, own[seat] followers of each seat. Open positions: fx, fy, fq (the required
-- side kinds, 2 bits per side N E S W, 0 = no neighbour), sorted north to south, west to east.
-- Followers on the map: ms (seat), mg (segment).
local TILES = require "games.carcassonne.tiles"

local M = {}
local T, DX, DY = TILES.T, TILES.DX, TILES.DY
local CITY, ROAD, FIELD, MONASTERY = TILES.CITY, TILES.ROAD, TILES.FIELD, TILES.MONASTERY

local KEYS = {}
-- key(x, y) -> the string key of a position in s.at (cached: the hot paths look up often)
local function key(x, y)
  local row = KEYS[x]
  if not row then row = {}; KEYS[x] = row end
  local k = row[y]
  if not k then k = x .. "," .. y; row[y] = k end
  return k
end
M.key = key

local function find(sp, g)
  local p = sp[g]
  while p ~= g do g = p; p = sp[g] end
  return g
end
M.find = find

function M.empty(n)
  local s = { tt = {}, tx = {}, ty = {}, tr = {}, tb = {}, at = {},
              sk = {}, sp = {}, st = {}, sf = {}, sz = {}, so = {}, sn = {}, sc = {}, own = {},
              fx = {}, fy = {}, fq = {}, ms = {}, mg = {} }
  for i = 1, n do s.own[i] = {} end
  return s
end

-- copy(s, deep) -> a deep copy of a state, the same as kit.copy but faster (ISMCTS copies a
-- state for every simulation): flat arrays are copied whole, other tables by deep (kit.copy)
local FLAT = { "tt", "tx", "ty", "tr", "tb", "sk", "sp", "st", "sf", "sz", "so", "sn", "sc", "fx", "fy", "fq",
               "ms", "mg", "stack", "aside", "score", "supply" }
local IS_FLAT = {}
for _, k in ipairs(FLAT) do IS_FLAT[k] = true end
function M.copy(s, deep)
  local d = {}
  for k, v in pairs(s) do
    if type(v) ~= "table" then d[k] = v
    elseif IS_FLAT[k] then d[k] = { table.unpack(v) }
    elseif k == "own" then
      local o = {}
      for i, a in ipairs(v) do o[i] = { table.unpack(a) } end
      d[k] = o
    else d[k] = deep(v) end
  end
  return d
end

local function union(s, a, b)
  local sp = s.sp
  a, b = find(sp, a), find(sp, b)
  if a == b then return a end
  if s.sz[a] < s.sz[b] then a, b = b, a end
  sp[b] = a
  s.sz[a] = s.sz[a] + s.sz[b]
  s.so[a] = s.so[a] + s.so[b]
  s.sn[a] = s.sn[a] + s.sn[b]
  s.sc[a] = s.sc[a] + s.sc[b]
  for i = 1, #s.own do local o = s.own[i]; o[a] = o[a] + o[b] end
  return a
end

-- frontier index of (x, y), or nil
local function frontier_at(s, x, y)
  local fx, fy = s.fx, s.fy
  for i = 1, #fx do if fx[i] == x and fy[i] == y then return i end end
  return nil
end
M.frontier_at = frontier_at

local function frontier_add(s, x, y, bits)
  local fx, fy = s.fx, s.fy
  local i = frontier_at(s, x, y)
  if i then s.fq[i] = s.fq[i] | bits; return end
  local pos = #fx + 1
  for j = 1, #fx do
    if fy[j] < y or (fy[j] == y and fx[j] > x) then pos = j; break end
  end
  table.insert(fx, pos, x); table.insert(fy, pos, y); table.insert(s.fq, pos, bits)
end

-- fits(code, req): a rotation's packed side kinds against a position's requirement
local function fits(code, req)
  return code & (((req | (req >> 1)) & 0x55) * 3) == req
end
M.fits = fits

-- each_placement(s, t, fn): fn(frontier index, rotation) for every legal placement of type t
-- in the list order; stops early when fn returns true (then returns true)
function M.each_placement(s, t, fn)
  local e = T[t]
  local fq, rots = s.fq, e.rotations
  for i = 1, #fq do
    local req = fq[i]
    for _, r in ipairs(rots) do
      if fits(e.rot[r].code, req) and fn(i, r) then return true end
    end
  end
  return false
end

function M.can_place(s, t)
  return M.each_placement(s, t, function() return true end)
end

-- place(s, t, r, x, y) -> the new tile's index: adds the tile, its segments, joins them to
-- the neighbours and updates the open positions
function M.place(s, t, r, x, y)
  local e = T[t]
  local i = #s.tt + 1
  s.tt[i], s.tx[i], s.ty[i], s.tr[i] = t, x, y, r
  local base = #s.sp + 1
  s.tb[i] = base
  for f, ft in ipairs(e.feats) do
    local g = base + f - 1
    s.sk[g], s.sp[g], s.st[g], s.sf[g] = ft.kind, g, i, f
    s.sz[g], s.so[g], s.sn[g], s.sc[g] = 1, (ft.kind == CITY or ft.kind == ROAD) and ft.sides or 0, ft.pennant, 0
    for seat = 1, #s.own do s.own[seat][g] = 0 end
  end
  s.at[key(x, y)] = i
  local fi = frontier_at(s, x, y)
  if fi then table.remove(s.fx, fi); table.remove(s.fy, fi); table.remove(s.fq, fi) end
  local rot = e.rot[r]
  local rp = rot.port
  for side = 0, 3 do
    local nx, ny = x + DX[side + 1], y + DY[side + 1]
    local j = s.at[key(nx, ny)]
    local opp = (side + 2) % 4
    if j then
      local np = T[s.tt[j]].rot[s.tr[j]].port
      local nb = s.tb[j] - 1
      for k = 0, 2 do
        local ra = union(s, base - 1 + rp[3 * side + k], nb + np[3 * opp + 2 - k])
        if k == 1 and s.sk[ra] ~= FIELD then s.so[ra] = s.so[ra] - 2 end
      end
    else
      frontier_add(s, nx, ny, ((rot.code >> (2 * side)) & 3) << (2 * opp))
    end
  end
  return i
end

-- tiles_of(s, roots) -> { [root] = number of distinct tiles } for the given roots (one pass)
function M.tiles_of(s, roots)
  local seen, count = {}, {}
  for r in pairs(roots) do seen[r], count[r] = {}, 0 end
  local sp, st = s.sp, s.st
  for g = 1, #sp do
    local r = find(sp, g)
    local set = seen[r]
    if set and not set[st[g]] then set[st[g]] = true; count[r] = count[r] + 1 end
  end
  return count
end

-- around(s, x, y) -> how many tiles lie in the 3x3 square centred on x, y (itself included)
function M.around(s, x, y)
  local c, at = 0, s.at
  for dx = -1, 1 do for dy = -1, 1 do if at[key(x + dx, y + dy)] then c = c + 1 end end end
  return c
end

-- monastery_segment(s, i) -> the monastery segment of tile i, or nil
function M.monastery_segment(s, i)
  local m = T[s.tt[i]].monastery
  return m and (s.tb[i] + m - 1) or nil
end

-- majority(s, r) -> list of seats with the most followers on root r (empty when none)
function M.majority(s, r)
  local best, who = 0, {}
  for seat = 1, #s.own do
    local c = s.own[seat][r]
    if c > best then best, who = c, { seat } elseif c == best and c > 0 then who[#who + 1] = seat end
  end
  return who
end

-- value(s, r, tiles, complete) -> the points of root r (not fields)
function M.value(s, r, tiles, complete)
  local k = s.sk[r]
  if k == CITY then return (complete and 2 or 1) * (tiles + s.sn[r]) end
  if k == ROAD then return tiles end
  if k == MONASTERY then local i = s.st[r]; return M.around(s, s.tx[i], s.ty[i]) end
  return 0
end

-- release(s, r): every follower on root r goes back to its owner's supply
function M.release(s, r, supply)
  local ms, mg, sp = s.ms, s.mg, s.sp
  for m = #ms, 1, -1 do
    if find(sp, mg[m]) == r then
      supply[ms[m]] = supply[ms[m]] + 1
      table.remove(ms, m); table.remove(mg, m)
    end
  end
  s.sc[r] = 0
  for seat = 1, #s.own do s.own[seat][r] = 0 end
end

-- farms(s, roots) -> { [field root] = number of distinct completed cities it borders }
function M.farms(s, roots)
  local cities = {}
  for r in pairs(roots) do cities[r] = {} end
  local count = {}
  local sp, so = s.sp, s.so
  for i = 1, #s.tt do
    local e, b = T[s.tt[i]], s.tb[i] - 1
    for f, list in pairs(e.adj) do
      local fr = find(sp, b + f)
      local set = cities[fr]
      if set then
        for _, c in ipairs(list) do
          local cr = find(sp, b + c)
          if so[cr] == 0 and not set[cr] then set[cr] = true; count[fr] = (count[fr] or 0) + 1 end
        end
      end
    end
  end
  for r in pairs(roots) do count[r] = count[r] or 0 end
  return count
end

-- end_points(s) -> per seat, what the followers still on the map score if the game ended
-- now (incomplete cities, roads, monasteries; farms: 3 per bordering completed city), and
-- the list of { root, points, seats } scored
function M.end_points(s)
  local n = #s.own
  local pts = {}
  for i = 1, n do pts[i] = 0 end
  local roots, order, fields = {}, {}, {}
  for m = 1, #s.mg do
    local r = find(s.sp, s.mg[m])
    if not roots[r] then
      roots[r] = true; order[#order + 1] = r
      if s.sk[r] == FIELD then fields[r] = true end
    end
  end
  local tiles = M.tiles_of(s, roots)
  local farm = M.farms(s, fields)
  local scored = {}
  for _, r in ipairs(order) do
    local v = s.sk[r] == FIELD and 3 * farm[r] or M.value(s, r, tiles[r], false)
    local who = M.majority(s, r)
    for _, seat in ipairs(who) do pts[seat] = pts[seat] + v end
    scored[#scored + 1] = { root = r, points = v, seats = who, tiles = tiles[r], cities = farm[r] }
  end
  return pts, scored
end

-- place ids are made once per position and turn and read back from the same cache
local PLACE_ID, PLACE_OF = {}, {}
local function place_id(x, y, r)
  local row = PLACE_ID[x]
  if not row then row = {}; PLACE_ID[x] = row end
  local col = row[y]
  if not col then col = {}; row[y] = col end
  local id = col[r]
  if not id then
    id = "place:" .. x .. ":" .. y .. ":" .. TILES.DEGREES[r]
    col[r], PLACE_OF[id] = id, { x, y, r }
  end
  return id
end

-- parse_place(id) -> x, y, r of a placement id spelled exactly as listed, or nil
local function parse_place(id)
  local p = PLACE_OF[id]
  if p then return p[1], p[2], p[3] end
  local x, y, deg = id:match("^place:(%-?%d+):(%-?%d+):(%d+)$")
  x, y, deg = tonumber(x), tonumber(y), tonumber(deg)
  if not deg or deg % 90 ~= 0 or deg > 270 or id ~= "place:" .. x .. ":" .. y .. ":" .. deg then return nil end
  return x, y, deg // 90
end
M.place_id, M.parse_place = place_id, parse_place

return M
