-- games.carcassonne.svg — G.svg(obs): a Carcassonne observation drawn for the
-- viewer: the tile map (fields green, cities tan with their walls, roads white,
-- monasteries as a small chapel), the followers in their seat's colour on the
-- feature they hold, the open positions dashed, the scores and supplies, and the
-- tile to place. Every placed tile is a <g class="tile">, every follower a
-- <circle class="follower">. The map's y grows northwards (as the observation's).
local K = require "games.svgkit"

local M = {}

local T = 48                    -- a tile's side in px
M.BLOCK = 8                     -- tiles per shared block of the map
local FIELD, CITY, ROAD = "#a5c96b", "#d9b77a", "#fafafa"

-- side points on a unit tile: midpoints and the two corners of each side
local MID = { N = { 0.5, 0 }, E = { 1, 0.5 }, S = { 0.5, 1 }, W = { 0, 0.5 } }
local CORNERS = { N = { { 0, 0 }, { 1, 0 } }, E = { { 1, 0 }, { 1, 1 } }, S = { { 1, 1 }, { 0, 1 } }, W = { { 0, 1 }, { 0, 0 } } }
-- a field's anchor by its first side part ("E-north": the east side, north half)
local HALF = { ["N-west"] = { 0.25, 0.12 }, ["N-east"] = { 0.75, 0.12 }, ["E-north"] = { 0.88, 0.25 }, ["E-south"] = { 0.88, 0.75 },
  ["S-east"] = { 0.75, 0.88 }, ["S-west"] = { 0.25, 0.88 }, ["W-south"] = { 0.12, 0.75 }, ["W-north"] = { 0.12, 0.25 },
  N = { 0.5, 0.12 }, E = { 0.88, 0.5 }, S = { 0.5, 0.88 }, W = { 0.12, 0.5 } }

-- sides(text) -> the side names a feature's text lists ("city E,S" -> { "E", "S" })
local function sides(text)
  local out = {}
  local rest = tostring(text or ""):match("^%S+%s+(.*)$") or ""
  for part in rest:gmatch("[^,%s]+") do out[#out + 1] = part end
  return out
end

local function pt(x, y, u, v) return K.n(x + u * T) .. " " .. K.n(y + v * T) end

-- city(x, y, list) -> the city's shape: one side a cap, several sides joined through the middle
local function city(x, y, list)
  if #list == 1 then
    local c = CORNERS[list[1]]
    if not c then return "" end
    local m = MID[list[1]]
    local inner = { 0.5 + (m[1] - 0.5) * 0.1, 0.5 + (m[2] - 0.5) * 0.1 }
    return K.path("M" .. pt(x, y, c[1][1], c[1][2]) .. "Q" .. pt(x, y, inner[1], inner[2]) .. " " .. pt(x, y, c[2][1], c[2][2]) .. "Z",
      { fill = CITY, stroke = "#8d6e63", stroke_width = 1.5 })
  end
  -- several sides: a trapezoid from each side inwards, joined by the middle square
  local parts = { K.rect(x + 0.2 * T, y + 0.2 * T, 0.6 * T, 0.6 * T, { fill = CITY }) }
  for _, s in ipairs(list) do
    local c = CORNERS[s]
    if c then
      local function inward(p) return { 0.2 + 0.6 * p[1], 0.2 + 0.6 * p[2] } end
      local a, b = inward(c[1]), inward(c[2])
      parts[#parts + 1] = K.path("M" .. pt(x, y, c[1][1], c[1][2]) .. "L" .. pt(x, y, c[2][1], c[2][2]) .. "L" .. pt(x, y, b[1], b[2])
        .. "L" .. pt(x, y, a[1], a[2]) .. "Z", { fill = CITY, stroke = CITY })
    end
  end
  return table.concat(parts)
end

local function road(x, y, list)
  local out = {}
  if #list == 2 and MID[list[1]] and MID[list[2]] then
    local a, b = MID[list[1]], MID[list[2]]
    out[#out + 1] = K.path("M" .. pt(x, y, a[1], a[2]) .. "Q" .. pt(x, y, 0.5, 0.5) .. " " .. pt(x, y, b[1], b[2]),
      { fill = "none", stroke = "#555", stroke_width = 5 })
    out[#out + 1] = K.path("M" .. pt(x, y, a[1], a[2]) .. "Q" .. pt(x, y, 0.5, 0.5) .. " " .. pt(x, y, b[1], b[2]),
      { fill = "none", stroke = ROAD, stroke_width = 3 })
  else
    for _, s in ipairs(list) do
      local a = MID[s]
      if a then
        out[#out + 1] = K.line(x + a[1] * T, y + a[2] * T, x + T / 2, y + T / 2, { stroke = "#555", stroke_width = 5 })
        out[#out + 1] = K.line(x + a[1] * T, y + a[2] * T, x + T / 2, y + T / 2, { stroke = ROAD, stroke_width = 3 })
      end
    end
    out[#out + 1] = K.rect(x + T * 0.42, y + T * 0.42, T * 0.16, T * 0.16, { fill = "#795548" })
  end
  return table.concat(out)
end

local function monastery(x, y)
  return K.rect(x + T * 0.34, y + T * 0.38, T * 0.32, T * 0.3, { fill = "#ef9a9a", stroke = "#6d4c41" })
    .. K.path("M" .. pt(x, y, 0.3, 0.4) .. "L" .. pt(x, y, 0.5, 0.22) .. "L" .. pt(x, y, 0.7, 0.4) .. "Z", { fill = "#8d6e63" })
end

-- anchor(feature) -> where a follower stands on it (unit coordinates)
local function anchor(f)
  local list = sides(f.text)
  if f.kind == "monastery" then return 0.5, 0.58 end
  if f.kind == "field" then
    local a = HALF[list[1] or ""] or { 0.15, 0.15 }
    return a[1], a[2]
  end
  if #list == 0 then return 0.5, 0.5 end
  local u, v = 0, 0
  for _, s in ipairs(list) do local m = MID[s] or { 0.5, 0.5 }; u, v = u + m[1], v + m[2] end
  u, v = u / #list, v / #list
  if f.kind == "city" and #list == 1 then return 0.5 + (u - 0.5) * 0.75, 0.5 + (v - 0.5) * 0.75 end
  if f.kind == "road" then return 0.5 + (u - 0.5) * 0.55, 0.5 + (v - 0.5) * 0.55 end
  return u, v
end

-- tile(x, y, t, cls) -> one tile: field, then cities, roads, monastery, as its features say
-- (drawn at the origin and moved, so that the same tile turned the same way is one shared part)
-- (the drawing of a tile's features is kept per feature list)
local body = K.memo(function(t)
  local x, y = 0, 0
  local parts = { K.rect(x, y, T, T, { fill = FIELD, stroke = "#6b8e3a", stroke_width = 0.6 }) }
  for _, f in ipairs(t.features or {}) do
    if f.kind == "city" then parts[#parts + 1] = city(x, y, sides(f.text)) end
  end
  for _, f in ipairs(t.features or {}) do      -- a pennant: a small blue shield in its city
    if f.kind == "city" and tostring(f.text):find("pennant", 1, true) then
      local u, v = anchor(f)
      u, v = u + 0.16, v - 0.12
      parts[#parts + 1] = K.path(string.format("M%s %sh7v4q0 4 -3.5 6q-3.5 -2 -3.5 -6z", K.n(x + u * T - 3.5), K.n(y + v * T - 5)),
        { class = "pennant", fill = "#1e40af", stroke = "#fff", stroke_width = 0.8 })
    end
  end
  for _, f in ipairs(t.features or {}) do
    if f.kind == "road" then parts[#parts + 1] = road(x, y, sides(f.text))
    elseif f.kind == "monastery" then parts[#parts + 1] = monastery(x, y) end
  end
  return table.concat(parts)
end, function(t)
  local k = {}
  for i, f in ipairs(t.features or {}) do k[i] = tostring(f.kind) .. ":" .. tostring(f.text) end
  return table.concat(k, "|")
end)

local function tile(ox, oy, t, cls)
  local tip = string.format("tile %s at %s,%s turned %s°", tostring(t.type), tostring(t.x or "-"), tostring(t.y or "-"), tostring(t.rotation or 0))
  return string.format('<g class="%s" transform="translate(%s %s)">', cls, K.n(ox), K.n(oy)) .. K.title(tip)
    .. K.share(body(t)) .. "</g>"
end

function M.svg(o)
  local out = {}
  local xs, ys = { 0 }, { 0 }
  for _, t in ipairs(o.tiles or {}) do xs[#xs + 1] = t.x; ys[#ys + 1] = t.y end
  for _, p in ipairs(o.open_positions or {}) do xs[#xs + 1] = p.x; ys[#ys + 1] = p.y end
  local x0, x1, y0, y1 = math.min(table.unpack(xs)), math.max(table.unpack(xs)), math.min(table.unpack(ys)), math.max(table.unpack(ys))
  -- a line per seat above the map (side by side, a long participant's name ran into the
  -- next seat's disc)
  local top, left = 34 + 17 * #(o.players or {}) + 10, 10
  local mw, mh = (x1 - x0 + 1) * T, (y1 - y0 + 1) * T
  local W = math.max(900, mw + 2 * left + 150)
  local function at(x, y) return left + (x - x0) * T, top + (y1 - y) * T end
  local doing = o.over and "game over" or (o.phase == "place" and string.format("player %d places tile %s", o.turn or 0, (o.tile or {}).type or "?")
    or string.format("player %d may put a follower on the tile just placed", o.turn or 0))
  out[#out + 1] = K.text(10, 18, string.format("Carcassonne — %s; %d turns played, %d tiles in the stack", doing, o.turns_played or 0,
    o.stack or 0), { font_weight = "bold", font_size = 13 })
  for i, p in ipairs(o.players or {}) do
    local y = 38 + (i - 1) * 17
    out[#out + 1] = K.circle(16, y, 6, { fill = K.SEATS[i] })
    out[#out + 1] = K.text(26, y + 4, string.format("%s: %d points, %d followers in supply", K.who(o, i), p.score or 0,
      p.followers_in_supply or 0), { font_weight = K.you(o, i) and "bold" or "normal" })
  end
  out[#out + 1] = K.rect(left - 2, top - 2, mw + 4, mh + 4, { fill = "#eceff1", stroke = "#cfd8dc" })
  for _, p in ipairs(o.open_positions or {}) do
    local x, y = at(p.x, p.y)
    out[#out + 1] = K.rect(x + 2, y + 2, T - 4, T - 4, { class = "open", fill = "none", stroke = "#90a4ae", stroke_dasharray = "4 3" })
  end
  -- the tiles in map coordinates, in blocks of BLOCK in the order they were placed: a
  -- tile never moves, so every full block is one part shared by all later frames
  local by_xy, block, blocks = {}, {}, {}
  for k, t in ipairs(o.tiles or {}) do
    block[#block + 1] = tile(t.x * T, -t.y * T, t, "tile")
    by_xy[t.x .. "," .. t.y] = t
    if #block == M.BLOCK or k == #o.tiles then blocks[#blocks + 1] = K.share(table.concat(block)); block = {} end
  end
  local mx, my = at(0, 0)
  out[#out + 1] = string.format('<g transform="translate(%s %s)">', K.n(mx), K.n(my)) .. table.concat(blocks) .. "</g>"
  if o.placed then
    local x, y = at(o.placed.x, o.placed.y)
    out[#out + 1] = K.rect(x + 1, y + 1, T - 2, T - 2, { class = "placed", fill = "none", stroke = "#1565c0", stroke_width = 3 })
  end
  for _, f in ipairs(o.followers or {}) do
    local t = by_xy[f.x .. "," .. f.y]
    local feat
    for _, ft in ipairs(t and t.features or {}) do if ft.name == f.feature then feat = ft end end
    local u, v = 0.5, 0.5
    if feat then u, v = anchor(feat) end
    local x, y = at(f.x, f.y)
    out[#out + 1] = '<circle class="follower" cx="' .. K.n(x + u * T) .. '" cy="' .. K.n(y + v * T) .. '" r="6" fill="' .. K.SEATS[f.seat] ..
      '" stroke="#fff" stroke-width="1.5">' .. K.title(string.format("P%d on %s (%s)", f.seat, tostring(f.feature), tostring(f.kind))) .. "</circle>"
  end
  if o.tile then
    local x = left + mw + 30
    out[#out + 1] = K.text(x, top + 10, "tile to place", { fill = "#555" })
    out[#out + 1] = tile(x, top + 18, { type = o.tile.type, features = o.tile.features, rotation = 0 }, "next")
    out[#out + 1] = K.text(x, top + 18 + T + 14, "tile " .. tostring(o.tile.type) .. ", unturned", { fill = "#555", font_size = 10 })
  end
  return K.doc("carcassonne", W, top + mh + 14, out)
end

return M
