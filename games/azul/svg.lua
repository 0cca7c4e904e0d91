-- games.azul.svg — G.svg(obs): an Azul observation drawn for the viewer: the
-- factories and the centre (with the first-player marker), then each player's
-- board: pattern lines, wall (placed tiles in colour, empty spaces faded) and
-- floor line with its penalties. Every tile is a <rect class="tile …">.
local K = require "games.svgkit"

local M = {}

M.FILL = { blue = "#1e6fd9", yellow = "#f2c230", red = "#d63a2f", black = "#2b2b2b", white = "#dff3f7" }
local COLOURS = { "blue", "yellow", "red", "black", "white" }
local FLOOR = { -1, -1, -2, -2, -2, -3, -3 }
local S = 20            -- a tile's side

local function wall_colour(r, c) return COLOURS[(c - r) % 5 + 1] end

local function tile(x, y, colour, size, faded)
  if faded then return K.rect(x, y, size, size, { fill = M.FILL[colour], opacity = 0.22, stroke = "#999", rx = 2 }) end
  return K.rect(x, y, size, size, { class = "tile azul-" .. colour, fill = M.FILL[colour], stroke = "#333", rx = 2 })
end

-- expand(counts) -> the colours one by one, in the game's colour order
local function expand(counts)
  local out = {}
  for _, c in ipairs(COLOURS) do for _ = 1, (counts or {})[c] or 0 do out[#out + 1] = c end end
  return out
end

local function marker(x, y)
  return K.group("marker", { K.rect(x, y, S, S, { fill = "#fff", stroke = "#333", rx = 3 }),
    K.text(x + S / 2, y + 15, "1", { text_anchor = "middle", font_weight = "bold", font_size = 13 }) }, "first-player marker")
end

local function board(all, p, i, x, y, o)
  local you = K.you(o, i)
  local out = {}
  local w, h = 372, 196
  out[#out + 1] = K.rect(x, y, w, h, { fill = "#f7efe0", stroke = you and "#1565c0" or "#bbb", stroke_width = you and 2.5 or 1, rx = 6 })
  out[#out + 1] = K.text(x + 10, y + 18, string.format("%s: %d points", K.who(o, i), p.score),
    { font_weight = "bold", font_size = 13 })
  for line = 1, 5 do
    local l = p.lines[line]
    local ly = y + 28 + (line - 1) * (S + 4)
    for k = 1, line do
      local tx = x + 160 - k * (S + 3)
      if k <= l.count and l.colour ~= "" then out[#out + 1] = tile(tx, ly, l.colour, S)
      else out[#out + 1] = K.rect(tx, ly, S, S, { fill = "#fff", stroke = "#bbb", rx = 2 }) end
    end
    for c = 1, 5 do
      local placed = p.wall[line][c]
      local tx = x + 180 + (c - 1) * (S + 3)
      if placed ~= "" then out[#out + 1] = tile(tx, ly, placed, S) else out[#out + 1] = tile(tx, ly, wall_colour(line, c), S, true) end
    end
  end
  local fy = y + 28 + 5 * (S + 4) + 20
  out[#out + 1] = K.text(x + 10, fy - 5, "floor", { fill = "#555" })
  local items = {}
  if p.first_player_marker then items[1] = "marker" end
  for _, c in ipairs(p.floor) do items[#items + 1] = c end
  for j = 1, math.max(7, #items) do   -- past the seventh space a tile goes back to the lid at scoring
    local tx = x + 50 + (j - 1) * (S + 5)
    if FLOOR[j] then
      out[#out + 1] = K.text(tx + S / 2, fy + S + 12, tostring(FLOOR[j]), { text_anchor = "middle", fill = "#c62828", font_size = 10 })
    end
    local it = items[j]
    if it == "marker" then out[#out + 1] = marker(tx, fy)
    elseif it then out[#out + 1] = tile(tx, fy, it, S)
    else out[#out + 1] = K.rect(tx, fy, S, S, { fill = "#fff", stroke = "#bbb", rx = 2 }) end
  end
  all[#all + 1] = K.share(table.concat(out))
end

function M.svg(o)
  local out = {}
  local nf = #o.factories
  local W = math.max(760, 40 + nf * 84)
  out[#out + 1] = K.text(10, 18, string.format("Azul, round %d%s", o.round or 0, o.over and " — game over" or
    string.format(" — player %d to move", o.turn or 0)), { font_weight = "bold", font_size = 14 })
  for f, fac in ipairs(o.factories) do
    local cx, cy = 46 + (f - 1) * 84, 80
    out[#out + 1] = K.circle(cx, cy, 36, { fill = "#e8e1d3", stroke = "#8d6e63", stroke_width = 2 })
    out[#out + 1] = K.text(cx, cy - 40, "factory " .. f, { text_anchor = "middle", fill = "#555", font_size = 10 })
    for k, c in ipairs(expand(fac)) do
      out[#out + 1] = tile(cx - S - 1 + ((k - 1) % 2) * (S + 2), cy - S - 1 + ((k - 1) // 2) * (S + 2), c, S)
    end
  end
  local cy = 130
  out[#out + 1] = K.text(10, cy + 15, "centre", { fill = "#555" })
  local centre = expand(o.centre)
  out[#out + 1] = K.rect(56, cy, math.max(60, (#centre + 1) * (S + 3) + 6), S + 8, { fill = "#efe9de", stroke = "#bbb", rx = 4 })
  local cx = 60
  if o.marker_in_centre then out[#out + 1] = marker(cx, cy + 4); cx = cx + S + 3 end
  for _, c in ipairs(centre) do out[#out + 1] = tile(cx, cy + 4, c, S); cx = cx + S + 3 end
  local bag, lid = 0, 0
  for _, v in pairs(o.bag or {}) do bag = bag + v end
  for _, v in pairs(o.lid or {}) do lid = lid + v end
  out[#out + 1] = K.text(W - 10, cy + 18, string.format("bag %d · lid %d", bag, lid), { text_anchor = "end", fill = "#555" })
  local rows = math.ceil(#o.players / 2)
  for i, p in ipairs(o.players) do
    board(out, p, i, 8 + ((i - 1) % 2) * 380, 170 + ((i - 1) // 2) * 206, o)
  end
  return K.doc("azul", W, 170 + rows * 206, out)
end

-- tiles(o) -> how many tiles the observation holds on the table (what svg draws as .tile)
function M.tiles(o)
  local n = 0
  local function add(t) for _, v in pairs(t or {}) do n = n + v end end
  for _, f in ipairs(o.factories) do add(f) end
  add(o.centre)
  for _, p in ipairs(o.players) do
    for line = 1, 5 do
      n = n + (p.lines[line].colour ~= "" and p.lines[line].count or 0)
      for c = 1, 5 do if p.wall[line][c] ~= "" then n = n + 1 end end
    end
    n = n + #p.floor
  end
  return n
end

return M
