-- games.arknova.svg — draws an Ark Nova observation (games/README.md's G.svg): every player's zoo
-- map (58 hexes; rock, water, Build-II spaces and placement bonuses; each building coloured by
-- kind with its animals), their action cards in slot order, their tracks, the display and the
-- conservation projects. Built from the observation only.
local D = require "games.arknova.data"
local C = require "games.arknova.cards"
local K = require "games.svgkit"

local M = {}
local CARD = {}
for _, c in ipairs(C) do CARD[c.id] = c end
-- the colours of each map's rock, water and Build-II spaces
local TERRAIN, B2 = {}, {}
for name, m in pairs(D.MAPS) do
  TERRAIN[name], B2[name] = {}, {}
  for _, n in ipairs(m.rock) do TERRAIN[name][n] = "#9a8f80" end
  for _, n in ipairs(m.water) do TERRAIN[name][n] = "#5aa0d8" end
  for _, n in ipairs(m.build2) do B2[name][n] = true end
end
local KIND_FILL = { enclosure = "#e9c46a", kiosk = "#e76f51", pavilion = "#f4a261", special = "#8ab17d", sponsor = "#9d8df1" }
local KIND = {}
for _, b in ipairs(D.BUILDINGS) do KIND[b.id] = b end
for num in pairs(D.SPONSOR_BUILDINGS) do KIND["sb" .. num] = { kind = "sponsor" } end   -- sponsor buildings

local R = 15
local function centre(x0, y0, h) return x0 + R + h.q * 1.5 * R, y0 + R * 1.8 + (h.r + h.q / 2) * math.sqrt(3) * R end
local function hexagon(cx, cy, r)
  local pts = {}
  for k = 0, 5 do
    local a = math.rad(60 * k)
    pts[#pts + 1] = K.n(cx + r * math.cos(a)) .. "," .. K.n(cy + r * math.sin(a))
  end
  return table.concat(pts, " ")
end

local drawn_map = D.DEFAULT_MAP   -- the map of the observation being drawn (set by draw)
local function map_of() return drawn_map end

local function zoo(out, v, x0, y0, who)
  local owner = {}
  for bi, b in ipairs(v.buildings) do for _, h in ipairs(b.hexes) do owner[h] = bi end end
  for i, h in ipairs(D.HEXES) do
    local cx, cy = centre(x0, y0, h)
    local map = map_of()
    local fill = TERRAIN[map][h.name] or (B2[map][h.name] and "#d9d2c5" or "#f3efe4")
    local bi = owner[i]
    if bi then fill = KIND_FILL[KIND[v.buildings[bi].t].kind] end
    out[#out + 1] = string.format('<polygon points="%s" fill="%s" stroke="#6b5b3e"/>', hexagon(cx, cy, R * 0.97), fill)
    if D.MAPS[map_of()].bonus[h.name] and not bi then out[#out + 1] = K.circle(cx, cy, 3, { fill = "#7b2cbf" }) end
  end
  for _, b in ipairs(v.buildings) do
    local h = D.HEXES[b.hexes[1]]
    local cx, cy = centre(x0, y0, h)
    for k, a in ipairs(b.animals) do
      out[#out + 1] = K.group("animal", { K.circle(cx + (k - 1) * 4, cy, 3.5, { fill = "#264653", stroke = "#fff" }) }, CARD[a].name)
    end
  end
  out[#out + 1] = K.text(x0, y0 + 4, who, { font_size = 12, font_weight = "bold" })
end

function M.draw(o)
  local out = {}
  local CW = 158                -- a display card: six side by side, their texts at the smallest size
  local W = 6 * (CW + 4) + 12
  local H = 12 * R + 30
  -- the conservation projects, six to a row (a row of 190 px columns ran past the
  -- picture's right edge from the sixth project on)
  local PW, per_row = 162, 6
  local top = 100 + (math.max(1, math.ceil(#o.projects / per_row)) - 1) * 18
  -- display and projects
  out[#out + 1] = K.text(6, 16, string.format("Ark Nova — round %d, break %d/%d, deck %d", o.round, o.brk, o.break_at, o.deck), { font_size = 14, font_weight = "bold" })
  for k, id in ipairs(o.display) do
    local c = CARD[id]
    local x = 6 + (k - 1) * (CW + 4)
    out[#out + 1] = K.place(x, 24, K.group("card display", { K.rect(0, 0, CW, 36, { fill = c.sponsor and "#fde2e4" or "#e0f2e9", stroke = "#555", rx = 3 }),
      K.text(4, 14, utf8.len(c.name) > 21 and (c.name:sub(1, utf8.offset(c.name, 21) - 1) .. "…") or c.name,   -- the whole name on hover
        { font_size = 11, font_weight = "bold" }),
      K.text(4, 29, c.sponsor and ("sponsor, level " .. c.level) or ("size " .. c.size .. ", cost " .. c.cost .. ", appeal " .. c.appeal)) },
      c.name))
  end
  for k, pr in ipairs(o.projects) do
    local taken = {}
    for _, s in ipairs(pr.levels) do taken[#taken + 1] = s == 0 and "-" or tostring(s) end
    out[#out + 1] = K.text(6 + ((k - 1) % per_row) * PW, 80 + ((k - 1) // per_row) * 18, "project " .. pr.id:sub(2) .. " [" .. table.concat(taken, " ") .. "]")
  end
  drawn_map = o.map or "ours"   -- (an observation from before opts.map: our layout)
  for i, v in ipairs(o.players) do
    local y0 = top + (i - 1) * H
    zoo(out, v, 6, y0 + 6, K.who(o, i))
    local x = 20 * R + 30
    local lines = {
      string.format("score %d: appeal %d, conservation %d", o.scores[i], v.appeal, v.cp),
      string.format("money %d (+%d income), reputation %d, X tokens %d", v.money, v.income, v.rep, v.x),
      string.format("workers %d of %d free, %d cards in hand", v.workers - v.busy, v.workers, v.hand_count),
    }
    for k, l in ipairs(lines) do out[#out + 1] = K.text(x, y0 + 30 + 17 * k, l, { font_size = 12 }) end
    out[#out + 1] = K.text(x, y0 + 112, "action cards (slot 1 weakest, 5 strongest; pink: upgraded)")
    for k, a in ipairs(v.slots) do
      out[#out + 1] = K.rect(x + (k - 1) * 96, y0 + 120, 92, 22, { fill = v.up[a] and "#f7b2d9" or "#eee", stroke = "#444", rx = 2 })
      out[#out + 1] = K.text(x + (k - 1) * 96 + 4, y0 + 135, k .. " " .. a)
    end
  end
  return K.doc("arknova", W, top + #o.players * H, out)
end

return M
