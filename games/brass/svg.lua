-- games.brass.svg — draws a Brass: Birmingham observation (games/README.md's G.svg): the map
-- as a schematic (every town, farm brewery and merchant as a node, every link as a line, built
-- links in their owner's colour), each town's spaces with the tiles on them (owner's colour,
-- industry letter and level, flipped tiles ringed), the merchants' tiles and beer, the coal and
-- iron markets, and each player's money, income and points. Built from the observation only.
local sk = require "games.svgkit"
local D = require "games.brass.data"

local M = {}

-- schematic positions of the locations on a 12 x 10 grid (north at the top)
local POS = {
  warrington = { 3, 0 }, stoke = { 4, 1 }, leek = { 6, 1 }, belper = { 8, 1 }, derby = { 9, 2.5 }, nottingham = { 11, 2 },
  stone = { 4, 2.5 }, uttoxeter = { 6.5, 2.5 }, stafford = { 4, 4 }, burton = { 7.5, 4 }, cannock = { 4.5, 5.2 },
  farm_north = { 2.8, 5.2 }, tamworth = { 8, 5.5 }, walsall = { 5.5, 6.2 }, wolverhampton = { 3, 6.3 },
  coalbrookdale = { 1, 6 }, shrewsbury = { 0, 4.8 }, dudley = { 3.2, 7.4 }, kidderminster = { 1.5, 8 },
  farm_south = { 0.6, 8.8 }, worcester = { 2, 9.3 }, gloucester = { 1.5, 10.5 }, birmingham = { 5.5, 7.6 },
  nuneaton = { 9, 6.6 }, coventry = { 9.5, 8 }, redditch = { 5, 9.4 }, oxford = { 7.5, 10.5 },
}
local FILL = { cotton = "#e8e3d3", goods = "#7b5ea7", pottery = "#c0622f", coal = "#333", iron = "#d9822b", brewery = "#d4a017" }
local LETTER = { cotton = "C", goods = "M", pottery = "P", coal = "K", iron = "I", brewery = "B" }

function M.draw(o)
  local parts = {}
  -- the map takes x 0-840 and y 0-760 (a grid step of 64 px: at 52 px the town names, the
  -- spaces' letters and the merchants' two lines, all at 11 px, ran over each other); the
  -- panel of markets and players sits right of it and the legend below it, each inside the picture
  local U, SW = 64, 26              -- the grid step; a space's width
  local W, H = 1150, 816
  local function xy(loc) local p = POS[loc]; return 76 + p[1] * U, 66 + p[2] * U end
  parts[#parts + 1] = sk.rect(0, 0, W, H, { fill = "#f4ecd8" })
  parts[#parts + 1] = sk.text(10, 18, string.format("Brass: Birmingham, %s era, round %d", o.era, o.round), { font_size = 14 })
  local owner = {}
  for _, l in ipairs(o.links) do owner[l.link] = l.owner end
  for _, l in ipairs(D.LINKS) do
    local id = l.a .. "-" .. l.b
    local x1, y1 = xy(l.a)
    local x2, y2 = xy(l.b)
    local who = owner[id]
    parts[#parts + 1] = sk.line(x1, y1, x2, y2, { stroke = who and sk.SEATS[who] or (l.canal and "#8fb3d9" or "#bbb"),
      stroke_width = who and 5 or 2, stroke_dasharray = (not who and not l.canal) and "4 3" or nil, class = "link" })
  end
  local at = {}
  for _, t in ipairs(o.tiles) do at[t.space] = t end
  for _, m in ipairs(D.MERCHANTS) do
    local x, y = xy(m.id)
    parts[#parts + 1] = sk.rect(x - 60, y - 17, 120, 34, { fill = "#fff8e1", stroke = "#7a5c2e" })
    parts[#parts + 1] = sk.text(x, y - 3, m.name, { font_size = 11, text_anchor = "middle" })
    local w = {}
    for _, mt in ipairs(o.merchants) do if mt.merchant == m.id then w[#w + 1] = mt.tile .. (mt.beer > 0 and "*" or "") end end
    parts[#parts + 1] = sk.text(x, y + 12, #w > 0 and table.concat(w, " ") or "(not in play)", { font_size = 11, text_anchor = "middle" })
  end
  for _, t in ipairs(D.TOWNS) do
    local x, y = xy(t.id)
    local wdt = SW * #t.slots
    parts[#parts + 1] = sk.rect(x - wdt / 2 - 2, y - 12, wdt + 4, 24, { fill = "#fff", stroke = "#555", class = "town" })
    parts[#parts + 1] = sk.text(x, y - 15, t.farm and "farm" or t.name, { font_size = 11, text_anchor = "middle" })
    for k, allows in ipairs(t.slots) do
      local sx = x - wdt / 2 + (k - 1) * SW
      local tile = at[t.id .. ":" .. k]
      if tile then
        parts[#parts + 1] = sk.rect(sx + 1, y - 10, SW - 2, 20, { fill = sk.SEATS[tile.owner], stroke = tile.flipped and "#000" or "#fff",
          stroke_width = tile.flipped and 2 or 1, class = "tile" })
        parts[#parts + 1] = sk.text(sx + SW / 2, y + 4, LETTER[tile.industry] .. tile.level, { font_size = 11, text_anchor = "middle", fill = "#fff" })
      else
        local w = {}
        for j, x_ in ipairs(allows) do w[j] = LETTER[x_] end
        parts[#parts + 1] = sk.rect(sx + 1, y - 10, SW - 2, 20, { fill = FILL[allows[1]], opacity = 0.35, class = "space" })
        parts[#parts + 1] = sk.text(sx + SW / 2, y + 4, table.concat(w), { font_size = 11, text_anchor = "middle" })
      end
    end
  end
  local px = 870
  parts[#parts + 1] = sk.text(px, 40, string.format("Coal market %d/%d, next %d", o.coal_market, #D.COAL_MARKET.prices, o.coal_price), { font_size = 11 })
  parts[#parts + 1] = sk.text(px, 56, string.format("Iron market %d/%d, next %d", o.iron_market, #D.IRON_MARKET.prices, o.iron_price), { font_size = 11 })
  parts[#parts + 1] = sk.text(px, 72, string.format("Deck %d cards", o.deck), { font_size = 11 })
  -- each seat named (the participant, or Player k), its figures on a line of their own
  for i, p in ipairs(o.players) do
    local y = 84 + i * 40
    parts[#parts + 1] = sk.rect(px, y - 11, 14, 14, { fill = sk.SEATS[i] })
    parts[#parts + 1] = sk.text(px + 20, y, sk.who(o, i), { font_size = 11, font_weight = sk.you(o, i) and "bold" or nil })
    parts[#parts + 1] = sk.text(px + 20, y + 16, string.format("%d VP (%d now), money %d, income %d", p.vp, o.scores[i], p.money, p.income), { font_size = 11 })
  end
  parts[#parts + 1] = sk.text(10, H - 30, "Spaces and tiles: K coal, I iron, B brewery, C cotton, M manufacturer, P pottery; a tile: its level, in the colour of its owner, ringed = flipped", { font_size = 11 })
  parts[#parts + 1] = sk.text(10, H - 12, "Links: blue = canal, dashed grey = rail only, thick = built (in the colour of its owner). Merchants: their tiles, * = beer barrel still there", { font_size = 11 })
  return sk.doc("brass", W, H, parts)
end

return M
