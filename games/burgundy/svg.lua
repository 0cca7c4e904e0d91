-- games.burgundy.svg — draws a Castles of Burgundy observation (games/README.md's G.svg): the
-- six numbered depots and the black depot with their tiles and goods, the phase's goods still
-- to come, and every player's estate (37 spaces coloured by region, the die number, the tile
-- placed), storage, goods, silverlings, workers, dice and points. Built from the observation only.
local D = require "games.burgundy.data"
local K = require "games.svgkit"

local M = {}

local FILL = { C = "#2e6b35", W = "#4a8fd0", P = "#a6d86a", M = "#9a9a9a", B = "#d8c08a", K = "#f1d44a" }
local KIND_LETTER = {}
for _, k in ipairs(D.KINDS) do KIND_LETTER[k.id] = k.letter end
local SHORT = { warehouse = "Wh", watchtower = "Wt", carpenter = "Ca", church = "Ch", market = "Mk", boarding = "Bo",
                bank = "Ba", cityhall = "CH" }

local function hexagon(cx, cy, r, a)
  local pts = {}
  for k = 0, 5 do
    local ang = math.rad(60 * k + 30)
    pts[#pts + 1] = K.n(cx + r * math.cos(ang)) .. "," .. K.n(cy + r * math.sin(ang))
  end
  return '<polygon points="' .. table.concat(pts, " ") .. '" fill="' .. a.fill .. '" stroke="' .. a.stroke .. '"/>'
end

local function tile_mark(v)
  if v.kind == "building" then return SHORT[v.building] end
  if v.kind == "animal" then return v.count .. v.animal:sub(1, 2) end
  if v.kind == "knowledge" then return "K" .. v.knowledge end
  return ({ castle = "Cs", ship = "Sh", mine = "Mi" })[v.kind]
end

-- a tile drawn at the origin (shared across frames)
local function tile(v, r)
  return K.group("tile", { hexagon(0, 0, r, { fill = FILL[KIND_LETTER[v.kind]], stroke = "#222" }),
    K.text(0, 3, tile_mark(v), { font_size = r * 0.7, text_anchor = "middle" }) }, v.id)
end

-- the centre of an estate space, relative to the estate's top left corner
local R, S3 = 15, math.sqrt(3)
local function centre(sp)
  return 20 + 3.5 * S3 * R + S3 * R * (sp.q + sp.r / 2), 32 + 1.5 * R * (sp.r + 3)
end

-- the empty estate: 37 spaces coloured by region, each with its die number
local BLANK
do
  local parts = {}
  for _, sp in ipairs(D.SPACES) do
    local cx, cy = centre(sp)
    parts[#parts + 1] = hexagon(cx, cy, R * 0.97, { fill = FILL[sp.letter], stroke = "#5a4a2a" })
    parts[#parts + 1] = K.text(cx, cy + 4, tostring(sp.die), { font_size = 10, text_anchor = "middle" })
  end
  BLANK = K.group("estate", parts)
end

function M.draw(o)
  local out = {}
  -- the legend of the tiles' marks stands right of the depots, above the estates (beside
  -- the first estate it ran over the first player's line)
  local LX = 740
  local W = LX + 390
  local r = 15
  local estate_h = 7 * r * 1.5 + 20
  -- a depot's goods, five to a line (on one line, eight or nine goods ran into the next
  -- depot); the rows below move down by the extra lines
  local function goods_lines(d)
    local lines, vals = {}, d.goods
    if #vals == 0 then return { "goods -" } end
    for k = 1, #vals, 5 do lines[#lines + 1] = table.concat(vals, ",", k, math.min(#vals, k + 4)) end
    lines[1] = "goods " .. lines[1]
    return lines
  end
  local extra = 0
  for _, d in ipairs(o.depots) do extra = math.max(extra, (#goods_lines(d) - 1) * 12) end
  local H = 190 + extra + o.n * (estate_h + 40)
  out[#out + 1] = K.rect(0, 0, W, H, { fill = "#f6f1e3" })
  out[#out + 1] = K.text(10, 18, string.format("The Castles of Burgundy - phase %s, round %d%s", D.PHASE_NAMES[o.phase], o.round,
    o.over and " (game over)" or (" - player " .. o.turn .. " to move")), { font_size = 14 })
  -- depots
  for k, d in ipairs(o.depots) do
    local x = 20 + (k - 1) * 120
    out[#out + 1] = K.rect(x - 8, 30, 112, 78 + extra, { fill = "#e8dcc0", stroke = "#999", rx = 6 })
    out[#out + 1] = K.text(x, 44, "depot " .. k .. (o.white == k and " (white die)" or ""), { font_size = 10 })
    for j, v in ipairs(d.tiles) do
      if v then out[#out + 1] = K.place(x + 10 + (j - 1) * 26, 64, tile(v, 12)) end
    end
    for j, l in ipairs(goods_lines(d)) do out[#out + 1] = K.text(x, 100 + (j - 1) * 12, l, { font_size = 10 }) end
  end
  out[#out + 1] = K.rect(12, 114 + extra, 8 * 30 + 20, 50, { fill = "#333", rx = 6 })
  out[#out + 1] = K.text(20, 128 + extra, "black depot", { font_size = 10, fill = "#fff" })
  for j, v in ipairs(o.black) do
    if v then out[#out + 1] = K.place(30 + (j - 1) * 30, 146 + extra, tile(v, 12)) end
  end
  local rg = {}
  for rr, g in ipairs(o.round_goods) do if g > 0 then rg[#rg + 1] = "r" .. rr .. ":" .. g end end
  out[#out + 1] = K.text(290, 140 + extra, "goods to come: " .. (#rg > 0 and table.concat(rg, " ") or "none") ..
    "   turn order: " .. table.concat(o.order, ","), { font_size = 11 })
  -- players
  for i, p in ipairs(o.players) do
    local y0 = 180 + extra + (i - 1) * (estate_h + 40)
    out[#out + 1] = K.text(10, y0 + 10, string.format("%s: %d points, %d silverlings, %d workers, ship track %d, dice %s",
      K.who(o, i), p.score, p.silver, p.workers, p.track, #p.dice > 0 and table.concat(p.dice, ",") or "used"),
      { font_size = 12, font_weight = K.you(o, i) and "bold" or "normal" })
    -- the empty estate (the same in every frame, drawn once per page), the tiles on top
    out[#out + 1] = K.place(0, y0, BLANK)
    for _, sp in ipairs(D.SPACES) do
      local v = p.estate[sp.name]
      if v then
        local cx, cy = centre(sp)
        out[#out + 1] = K.place(cx, y0 + cy, tile(v, r * 0.93))
      end
    end
    local x = 260
    out[#out + 1] = K.text(x, y0 + 34, "storage:", { font_size = 11 })
    for j, v in ipairs(p.storage) do out[#out + 1] = K.place(x + 70 + (j - 1) * 32, y0 + 30, tile(v, 13)) end
    local gd = {}
    for j, g in ipairs(p.goods) do gd[j] = g.count .. "x" .. g.type end
    out[#out + 1] = K.text(x, y0 + 64, "goods: " .. (#gd > 0 and table.concat(gd, " ") or "none"), { font_size = 11 })
    local sold = {}
    for g = 1, 6 do if p.sold[g] > 0 then sold[#sold + 1] = p.sold[g] .. "x" .. g end end
    out[#out + 1] = K.text(x, y0 + 82, "sold: " .. (#sold > 0 and table.concat(sold, " ") or "none"), { font_size = 11 })
    out[#out + 1] = K.text(x, y0 + 100, "knowledge: " .. (#p.knowledge > 0 and table.concat(p.knowledge, ",") or "none") ..
      "   bonus: " .. (#p.bonus > 0 and table.concat(p.bonus, ",") or "none"), { font_size = 11 })
  end
  -- what the tiles' marks stand for
  local animals = {}
  for _, a in ipairs(D.ANIMALS) do animals[#animals + 1] = a:sub(1, 2) .. " " .. a end
  local legend = {
    "Tiles (hexes with a mark):",
    "Cs castle · Sh ship · Mi mine · K17 knowledge tile 17",
    "3sh: an animal tile of 3 animals (lower case):",
    table.concat(animals, " · "),
    "Buildings: Wh warehouse · Wt watchtower · Ca carpenter",
    "Ch church · Mk market · Bo boarding house · Ba bank · CH city hall",
    "Estate spaces: the die number that takes them; region colours:",
    "castle dark green · water blue · pasture light green",
    "mine grey · buildings beige · knowledge yellow",
    "goods 2x4: two goods of die number 4",
  }
  for k, l in ipairs(legend) do
    out[#out + 1] = K.text(LX, 40 + (k - 1) * 15, l, { font_size = 11, fill = k == 1 and "#222" or "#555", font_weight = k == 1 and "bold" or nil })
  end
  return K.doc("burgundy", W, H, out)
end

return M
