-- games.carcassonne.tiles — the 24 tile types of the Carcassonne base game (72 tiles with
-- the start tile) as data in our own format, and the tables the rules derive from it once:
-- each rotation's feature at every edge port, packed side kinds, distinct rotations,
-- feature names and descriptions, and which fields border which cities.
--
-- A tile edge has three ports, numbered clockwise around the tile from its north-west
-- corner: north 0 1 2 (west to east), east 3 4 5 (north to south), south 6 7 8 (east to
-- west), west 9 10 11 (south to north). The middle port of a side is the side itself (a
-- city side has all three ports in the city; a road side has the road in the middle and a
-- field on each flank). A feature lists the ports it touches; a monastery touches none.
-- Rotation r turns the tile r quarter turns clockwise: port p moves to (p + 3r) mod 12.
local M = {}

local ALL = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 }
local C3 = { 0, 1, 2, 3, 4, 5, 9, 10, 11 }           -- city on the north, east and west sides
local NW = { 0, 1, 2, 9, 10, 11 }                     -- city on the north and west sides, joined

-- letter, count (with the start tile), cities { ports, pennant }, roads, monastery, fields
M.TYPES = {
  { "A", 2, {}, { { 7 } }, true, { { 0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11 } } },
  { "B", 4, {}, {}, true, { ALL } },
  { "C", 1, { { ALL, true } }, {}, false, {} },
  { "D", 4, { { { 0, 1, 2 } } }, { { 4, 10 } }, false, { { 3, 11 }, { 5, 6, 7, 8, 9 } } },
  { "E", 5, { { { 0, 1, 2 } } }, {}, false, { { 3, 4, 5, 6, 7, 8, 9, 10, 11 } } },
  { "F", 2, { { { 3, 4, 5, 9, 10, 11 }, true } }, {}, false, { { 0, 1, 2 }, { 6, 7, 8 } } },
  { "G", 1, { { { 3, 4, 5, 9, 10, 11 } } }, {}, false, { { 0, 1, 2 }, { 6, 7, 8 } } },
  { "H", 3, { { { 0, 1, 2 } }, { { 6, 7, 8 } } }, {}, false, { { 3, 4, 5, 9, 10, 11 } } },
  { "I", 2, { { { 0, 1, 2 } }, { { 9, 10, 11 } } }, {}, false, { { 3, 4, 5, 6, 7, 8 } } },
  { "J", 3, { { { 0, 1, 2 } } }, { { 4, 7 } }, false, { { 3, 8, 9, 10, 11 }, { 5, 6 } } },
  { "K", 3, { { { 0, 1, 2 } } }, { { 7, 10 } }, false, { { 3, 4, 5, 6, 11 }, { 8, 9 } } },
  { "L", 3, { { { 0, 1, 2 } } }, { { 4 }, { 7 }, { 10 } }, false, { { 3, 11 }, { 5, 6 }, { 8, 9 } } },
  { "M", 2, { { NW, true } }, {}, false, { { 3, 4, 5, 6, 7, 8 } } },
  { "N", 3, { { NW } }, {}, false, { { 3, 4, 5, 6, 7, 8 } } },
  { "O", 2, { { NW, true } }, { { 4, 7 } }, false, { { 3, 8 }, { 5, 6 } } },
  { "P", 3, { { NW } }, { { 4, 7 } }, false, { { 3, 8 }, { 5, 6 } } },
  { "Q", 1, { { C3, true } }, {}, false, { { 6, 7, 8 } } },
  { "R", 3, { { C3 } }, {}, false, { { 6, 7, 8 } } },
  { "S", 2, { { C3, true } }, { { 7 } }, false, { { 6 }, { 8 } } },
  { "T", 1, { { C3 } }, { { 7 } }, false, { { 6 }, { 8 } } },
  { "U", 8, {}, { { 1, 7 } }, false, { { 2, 3, 4, 5, 6 }, { 8, 9, 10, 11, 0 } } },
  { "V", 9, {}, { { 7, 10 } }, false, { { 8, 9 }, { 11, 0, 1, 2, 3, 4, 5, 6 } } },
  { "W", 4, {}, { { 4 }, { 7 }, { 10 } }, false, { { 11, 0, 1, 2, 3 }, { 5, 6 }, { 8, 9 } } },
  { "X", 1, {}, { { 1 }, { 4 }, { 7 }, { 10 } }, false, { { 2, 3 }, { 5, 6 }, { 8, 9 }, { 11, 0 } } },
}
M.START = 4                  -- the start tile is a D (city north, road east–west), placed unrotated at 0,0
M.CITY, M.ROAD, M.FIELD, M.MONASTERY = 1, 2, 3, 4
M.KIND_NAME = { "city", "road", "field", "monastery" }
M.SIDE_NAME = { "N", "E", "S", "W" }
M.DEGREES = { [0] = 0, 90, 180, 270 }
M.DX = { 0, 1, 0, -1 }       -- by side N E S W (1..4): the neighbour's offset; y grows northwards
M.DY = { 1, 0, -1, 0 }
M.BY_LETTER = {}

-- the two ends of a side's flanks, by port number within the side (0 and 2)
local HALF = { [0] = { [0] = "west", [2] = "east" }, { [0] = "north", [2] = "south" },
               { [0] = "east", [2] = "west" }, { [0] = "south", [2] = "north" } }

local function describe(kind, ports)
  if kind == M.MONASTERY then return "monastery" end
  local parts, on = {}, {}
  for _, p in ipairs(ports) do on[p] = true end
  for side = 0, 3 do
    local b = 3 * side
    if kind ~= M.FIELD then
      if on[b + 1] then parts[#parts + 1] = M.SIDE_NAME[side + 1] end
    elseif on[b] and on[b + 1] and on[b + 2] then parts[#parts + 1] = M.SIDE_NAME[side + 1]
    else
      for _, k in ipairs({ 0, 2 }) do
        if on[b + k] then parts[#parts + 1] = M.SIDE_NAME[side + 1] .. "-" .. HALF[side][k] end
      end
    end
  end
  return M.KIND_NAME[kind] .. " " .. table.concat(parts, ",")
end

-- build: T[t] = { letter, count, feats = { { kind, ports, pennant, sides } },
--   rot[r] = { port = {[0..11] = feature}, code = packed side kinds, names, index = {name = feature},
--   text = {feature = description}, sides = "NESW kinds" }, rotations = distinct rotations,
--   monastery = feature or nil, adj = { [field feature] = { city features } } }
local T = {}
M.T = T
for t, d in ipairs(M.TYPES) do
  local e = { letter = d[1], count = d[2], feats = {}, rotations = {}, rot = {}, adj = {} }
  local function add(kind, ports, pennant)
    local sides = 0
    for _, p in ipairs(ports) do if p % 3 == 1 then sides = sides + 1 end end
    e.feats[#e.feats + 1] = { kind = kind, ports = ports, pennant = pennant and 1 or 0, sides = sides }
  end
  for _, c in ipairs(d[3]) do add(M.CITY, c[1], c[2]) end
  for _, r in ipairs(d[4]) do add(M.ROAD, r) end
  if d[5] then add(M.MONASTERY, {}); e.monastery = #e.feats end
  for _, f in ipairs(d[6]) do add(M.FIELD, f) end
  local port = {}
  for f, ft in ipairs(e.feats) do for _, p in ipairs(ft.ports) do port[p] = f end end
  for p = 0, 11 do assert(port[p], "tile " .. d[1] .. ": port " .. p .. " has no feature") end
  -- a field borders a city when one of its ports lies next to one of the city's ports
  for f, ft in ipairs(e.feats) do
    if ft.kind == M.FIELD then
      local seen = {}
      e.adj[f] = {}
      for _, p in ipairs(ft.ports) do
        for _, q in ipairs({ (p + 1) % 12, (p + 11) % 12 }) do
          local g = port[q]
          if e.feats[g].kind == M.CITY and not seen[g] then seen[g] = true; table.insert(e.adj[f], g) end
        end
      end
    end
  end
  local signatures = {}
  for r = 0, 3 do
    local rp, code, kinds = {}, 0, {}
    for q = 0, 11 do rp[q] = port[(q - 3 * r) % 12] end
    for s = 0, 3 do
      local k = e.feats[rp[3 * s + 1]].kind
      code = code | (k << (2 * s))
      kinds[s + 1] = M.KIND_NAME[k]
    end
    -- names: per kind, numbered by the first rotated port (clockwise from the north-west corner)
    local first = {}
    for q = 11, 0, -1 do first[rp[q]] = q end
    local order = {}
    for f in ipairs(e.feats) do order[f] = f end
    table.sort(order, function(a, b) return (first[a] or -1) < (first[b] or -1) end)
    local names, index, text, count = {}, {}, {}, {}
    for _, f in ipairs(order) do
      local k = e.feats[f].kind
      count[k] = (count[k] or 0) + 1
      local nm = k == M.MONASTERY and "monastery" or (M.KIND_NAME[k] .. count[k])
      names[f], index[nm] = nm, f
      local ports = {}
      for _, p in ipairs(e.feats[f].ports) do ports[#ports + 1] = (p + 3 * r) % 12 end
      text[f] = describe(k, ports) .. (e.feats[f].pennant == 1 and " (pennant)" or "")
    end
    -- the order followers are offered in: cities, roads, the monastery, fields, each by number
    local RANK = { [M.CITY] = 1, [M.ROAD] = 2, [M.MONASTERY] = 3, [M.FIELD] = 4 }
    local list = {}
    for j, f in ipairs(order) do list[j] = f end
    table.sort(list, function(a, b)
      local ka, kb = RANK[e.feats[a].kind], RANK[e.feats[b].kind]
      if ka ~= kb then return ka < kb end
      return (first[a] or -1) < (first[b] or -1)
    end)
    e.rot[r] = { port = rp, code = code, names = names, index = index, text = text, kinds = kinds, list = list }
    -- a rotation that looks like an earlier one (same features at the same ports) is not listed again
    local sig, label = {}, {}
    for q = 0, 11 do
      local f = rp[q]
      if not label[f] then label[f] = string.format("%d%d", e.feats[f].kind, e.feats[f].pennant) .. "#" .. q end
      sig[#sig + 1] = label[f]
    end
    sig = table.concat(sig, " ")
    if not signatures[sig] then signatures[sig] = true; e.rotations[#e.rotations + 1] = r end
  end
  T[t] = e
  M.BY_LETTER[d[1]] = t
end

-- total tiles (72) and the number of pennants (10)
M.TOTAL, M.PENNANTS = 0, 0
for _, e in ipairs(T) do
  M.TOTAL = M.TOTAL + e.count
  for _, f in ipairs(e.feats) do M.PENNANTS = M.PENNANTS + f.pennant * e.count end
end

return M
