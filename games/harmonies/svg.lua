-- games.harmonies.svg — draws a Harmonies observation (games/README.md's G.svg): the central
-- board's five groups of tokens, the animal cards on offer with their habitats, and every
-- player's side-A board (hexes coloured by their top token, the stack's height, animal cubes),
-- their animal cards and points. Built from the observation only.
local D = require "games.harmonies.data"
local K = require "games.svgkit"

local M = {}

local FILL = { W = "#3a8fc8", M = "#8c8c8c", T = "#8b5a2b", G = "#4f9a3a", Y = "#e2c23a", R = "#c0392b" }
local BY_ID = {}
for _, c in ipairs(D.COLOURS) do BY_ID[c.id] = c.letter end
local NEED_FILL = { W = "W", F = "Y", M1 = "M", M2 = "M", M3 = "M", T1 = "G", T2 = "G", T3 = "G", B = "R" }
local NEED_H = { W = 1, F = 1, M1 = 1, M2 = 2, M3 = 3, T1 = 1, T2 = 2, T3 = 3, B = 2 }

local function esc(s) return (tostring(s):gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;")) end

local function hexagon(cx, cy, r)
  local pts = {}
  for k = 0, 5 do
    local a = math.rad(60 * k)
    pts[#pts + 1] = string.format("%.1f,%.1f", cx + r * math.cos(a), cy + r * math.sin(a))
  end
  return table.concat(pts, " ")
end

-- the centre of hex (c, y) of a board drawn at (x0, y0) with hex radius r (flat-topped hexes)
local function centre(x0, y0, r, c, y)
  return x0 + r + c * 1.5 * r, y0 + r + y * (math.sqrt(3) / 2) * r
end

local CARDS = {}
for _, c in ipairs(D.CARDS) do CARDS[c.id] = c end

-- a small drawing of a card's habitat inside the card drawn at (x0, y0) (84 x 90): the target
-- hex (ringed) in the middle, the others around it; each hex shows its colour and height
local function habitat(out, card, x0, y0)
  local r = 8
  local pos = { { 0, 0 } }
  for j, path in ipairs(D.SHAPES[card.shape]) do
    local c, y = 0, 0
    for _, d in ipairs(path) do c, y = c + D.DIRS[d][1], y + D.DIRS[d][2] end
    pos[j + 1] = { c, y }
  end
  local needs = { card.target, table.unpack(card.others) }
  for j, p in ipairs(pos) do
    local cx, cy = x0 + 42 + p[1] * 1.5 * r, y0 + 50 + p[2] * (math.sqrt(3) / 2) * r
    out[#out + 1] = string.format('<polygon points="%s" fill="%s" stroke="%s" stroke-width="%s"/>', hexagon(cx, cy, r * 0.95),
      FILL[NEED_FILL[needs[j]]], j == 1 and "#f39c12" or "#333", j == 1 and 2 or 0.5)
    out[#out + 1] = string.format('<text x="%.1f" y="%.1f" font-size="11" text-anchor="middle" fill="#fff">%d</text>', cx, cy + 2.5, NEED_H[needs[j]])
  end
end

function M.draw(o)
  local out = {}
  -- wide enough for a player's line with a long participant's name (at 760 it ended at the edge)
  local W, r = 900, 18
  local board_h = 2 * r + 8 * (math.sqrt(3) / 2) * r + 10
  local H = 150 + o.n * (board_h + 30) + 44   -- the legend below the boards
  out[1] = string.format('<svg xmlns="http://www.w3.org/2000/svg" class="board harmonies" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif">', W, math.floor(H), W, math.floor(H))
  out[#out + 1] = string.format('<rect width="%d" height="%d" fill="#f6f1e3"/>', W, math.floor(H))
  out[#out + 1] = string.format('<text x="10" y="18" font-size="14">Harmonies, round %d%s%s</text>', o.round,
    o.over and " (game over)" or (" - player " .. o.turn .. " to move"), o.final_round and " - last round" or "")
  -- central board
  out[#out + 1] = '<text x="10" y="40" font-size="12">Central board</text>'
  for k, sp in ipairs(o.central) do
    local x = 20 + (k - 1) * 56
    out[#out + 1] = string.format('<circle cx="%d" cy="70" r="24" fill="#e8dcc0" stroke="#999"/>', x + 14)
    for j, colour in ipairs(sp) do
      out[#out + 1] = string.format('<circle cx="%d" cy="%d" r="8" fill="%s" stroke="#222"/>', x + 14 + (j - 2) * 12, 70 + (j == 2 and -7 or 5), FILL[BY_ID[colour]])
    end
    out[#out + 1] = string.format('<text x="%d" y="106" font-size="11" text-anchor="middle">%d</text>', x + 14, k)
  end
  -- animal cards on offer
  out[#out + 1] = '<text x="300" y="40" font-size="12">Animal cards on offer</text>'
  for j, c in ipairs(o.river) do
    local id = c.id
    local card, x = CARDS[id], 300 + (j - 1) * 90
    out[#out + 1] = string.format('<rect x="%d" y="46" width="84" height="90" rx="6" fill="#fff" stroke="#777"/>', x)
    out[#out + 1] = string.format('<text x="%d" y="58" font-size="11">%s</text>', x + 4, esc(id))
    habitat(out, card, x, 46)
    out[#out + 1] = string.format('<text x="%d" y="132" font-size="11">%s</text>', x + 4, table.concat(card.track, "/"))
  end
  -- the players
  for i, p in ipairs(o.players) do
    local y0 = math.floor(150 + (i - 1) * (board_h + 30))
    out[#out + 1] = string.format('<text x="10" y="%d" font-size="12"%s>%s: %d points (trees %d, mountains %d, fields %d, buildings %d, river %d, animals %d)</text>',
      y0 + 12, K.you(o, i) and ' font-weight="bold"' or "", K.esc(K.who(o, i)), p.score,
      p.breakdown.trees, p.breakdown.mountains, p.breakdown.fields, p.breakdown.buildings, p.breakdown.river, p.breakdown.animals)
    local cube = {}
    for _, h in ipairs(p.cubes) do cube[h] = true end
    for h, hex in ipairs(D.HEXES) do
      local cx, cy = centre(10, y0 + 18, r, hex.c, hex.y)
      local st = p.board[h]
      out[#out + 1] = string.format('<polygon points="%s" fill="%s" stroke="#5a4a2a"/>', hexagon(cx, cy, r * 0.96), st == "" and "#d9c9a0" or FILL[st:sub(-1)])
      if #st > 1 then
        -- the tokens below the top, as a strip of small bars
        for j = 1, #st - 1 do
          out[#out + 1] = string.format('<rect x="%.1f" y="%.1f" width="14" height="4" fill="%s" stroke="#222" stroke-width="0.4"/>', cx - 7, cy + 4 + (j - 1) * 5, FILL[st:sub(j, j)])
        end
      end
      out[#out + 1] = string.format('<text x="%.1f" y="%.1f" font-size="11" text-anchor="middle" fill="#222">%s</text>', cx, cy - 6, hex.name)   -- the stack: its coloured bars
      if cube[hex.name] then
        out[#out + 1] = string.format('<rect x="%.1f" y="%.1f" width="8" height="8" fill="#f39c12" stroke="#222"/>', cx - 4, cy - 3)
      end
    end
    local x = 170
    for _, c in ipairs(p.cards) do
      out[#out + 1] = string.format('<rect x="%d" y="%d" width="108" height="90" rx="6" fill="#fff" stroke="#777"/>', x, y0 + 20)
      out[#out + 1] = string.format('<text x="%d" y="%d" font-size="11">%s</text>', x + 4, y0 + 32, esc(c.id))
      habitat(out, CARDS[c.id], x, y0 + 20)
      out[#out + 1] = string.format('<text x="%d" y="%d" font-size="11">%d/%d cubes, %d pts</text>', x + 4, y0 + 106, c.cubes_placed, c.cubes, c.points)
      x = x + 114
    end
    if #p.done > 0 then
      local w = {}
      for j, c in ipairs(p.done) do w[j] = c.id .. " " .. c.points end
      out[#out + 1] = string.format('<text x="170" y="%d" font-size="11">completed: %s</text>', y0 + 126, esc(table.concat(w, ", ")))
    end
  end
  -- what the cards' and boards' numbers and names stand for
  local legend = {
    "Animal cards: the habitat to build, each hex in the colour of its top token with the stack's height; the ringed hex takes the cube;",
    "below, the points for 1, 2, 3, ... cubes placed (3/6/10/15). Boards: spaces a1-e5 (column, row); bars: the tokens under the top one.",
  }
  for k, l in ipairs(legend) do
    out[#out + 1] = string.format('<text x="10" y="%d" font-size="11" fill="#555">%s</text>', math.floor(H) - 30 + (k - 1) * 16, esc(l))
  end
  out[#out + 1] = "</svg>"
  return table.concat(out, "\n")
end

return M
