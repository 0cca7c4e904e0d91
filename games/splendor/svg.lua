-- games.splendor.svg — G.svg(obs): a Splendor observation drawn for the viewer:
-- the nobles, the market (three levels, each with its deck count), the bank's
-- tokens, then each player's tokens, bonuses (cards bought, by colour), reserved
-- cards (face down when that seat may not see them) and nobles. A market card is
-- a <g class="card market">, a reserved one <g class="card reserved">.
local K = require "games.svgkit"

local M = {}

M.FILL = { white = "#f5f5f5", blue = "#1e88e5", green = "#2e7d32", red = "#d32f2f", black = "#333333", gold = "#f9a825" }
local GEMS = { "white", "blue", "green", "red", "black" }
local ALL = { "white", "blue", "green", "red", "black", "gold" }
local DARK = { blue = true, green = true, red = true, black = true }
local LEVEL = { "#a5d6a7", "#ffe082", "#90caf9" }
-- a reserved card's height: tall enough that its fourth cost gem (11 px text) stays below
-- the points (at 74 px the gem's number was drawn over the points)
local SMALL_H = 88

local function gem(x, y, r, colour, count, cls)
  return K.token(x, y, r, M.FILL[colour], count and tostring(count) or nil, cls or "gem", DARK[colour])
end

-- card(x, y, c, cls [, small]) -> one development card: points, bonus, cost
-- a card's body at the origin (face up or hidden), kept per card, class and size
local card_body = K.memo(function(c, cls, small)
  local x, y = 0, 0
  local w, h = small and 58 or 78, small and SMALL_H or 100
  if c.hidden then
    return K.group("card " .. cls .. " hidden", { K.rect(x, y, w, h, { fill = LEVEL[c.level] or "#ccc", stroke = "#666", rx = 5 }),
      K.text(x + w / 2, y + h / 2 + 4, "level " .. tostring(c.level), { text_anchor = "middle", fill = "#333" }) }, "a reserved card, unseen")
  end
  local parts = { K.rect(x, y, w, h, { fill = "#fffdf7", stroke = "#666", rx = 5 }),
    K.rect(x, y, w, 24, { fill = LEVEL[c.level] or "#ddd", rx = 5 }) }
  if (c.points or 0) > 0 then parts[#parts + 1] = K.text(x + 6, y + 18, tostring(c.points), { font_weight = "bold", font_size = 16 }) end
  parts[#parts + 1] = gem(x + w - 13, y + 12, 9, c.bonus, nil, "bonus")
  local k = 0
  for _, g in ipairs(GEMS) do
    local v = (c.cost or {})[g]
    if v then
      parts[#parts + 1] = gem(x + 12, y + h - 12 - k * (small and 15 or 19), small and 7 or 9, g, v, "cost")
      k = k + 1
    end
  end
  local tip = string.format("level %s, %s bonus, %d points, cost:", tostring(c.level), tostring(c.bonus), c.points or 0)
  for _, g in ipairs(GEMS) do if (c.cost or {})[g] then tip = tip .. " " .. c.cost[g] .. " " .. g end end
  return K.group("card " .. cls, parts, tip)
end, function(c, cls, small)
  return table.concat({ cls, small and "s" or "l", c.hidden and "h" or "f", tostring(c.level), tostring(c.bonus), tostring(c.points),
    K.counts(c.cost, GEMS) }, "|")
end)

local function card(px, py, c, cls, small)
  if c.empty then
    local w, h = small and 58 or 78, small and SMALL_H or 100
    return K.rect(px, py, w, h, { fill = "none", stroke = "#ccc", stroke_dasharray = "4 3", rx = 5 })
  end
  return K.place(px, py, card_body(c, cls, small))
end

local function noble(px, py, nb)
  local x, y = 0, 0
  local parts = { K.rect(x, y, 64, 64, { fill = "#efe4d0", stroke = "#8d6e63", rx = 4 }),
    K.text(x + 6, y + 18, tostring(nb.points or 3), { font_weight = "bold", font_size = 15 }) }
  local k = 0
  for _, g in ipairs(GEMS) do
    local v = (nb.needs or {})[g]
    if v then
      parts[#parts + 1] = K.rect(x + 38, y + 5 + k * 19, 20, 17, { fill = M.FILL[g], stroke = "#333", rx = 2 })
      parts[#parts + 1] = K.text(x + 48, y + 18 + k * 19, tostring(v), { text_anchor = "middle", font_weight = "bold",
        fill = DARK[g] and "#fff" or "#111" })
      k = k + 1
    end
  end
  return K.place(px, py, K.group("noble", parts, "noble: 3 points"))
end

function M.svg(o)
  local out, W = {}, 780
  out[#out + 1] = K.text(10, 18, string.format("Splendor%s%s", o.over and " — game over" or string.format(" — player %d to move", o.turn or 0),
    o.final_round and " (final round)" or ""), { font_weight = "bold", font_size = 14 })
  out[#out + 1] = K.text(10, 40, "nobles", { fill = "#555" })
  for j, nb in ipairs(o.nobles or {}) do out[#out + 1] = noble(60 + (j - 1) * 72, 28, nb) end
  local y = 104
  for level = 3, 1, -1 do
    local ry = y + (3 - level) * 108
    out[#out + 1] = K.group("deck", { K.rect(10, ry, 60, 100, { fill = LEVEL[level], stroke = "#666", rx = 5 }),
      K.text(40, ry + 46, "level " .. level, { text_anchor = "middle" }),
      K.text(40, ry + 64, tostring((o.deck_sizes or {})[level] or 0) .. " left", { text_anchor = "middle", fill = "#333" }) })
    for slot, c in ipairs((o.market or {})[level] or {}) do out[#out + 1] = card(80 + (slot - 1) * 86, ry, c, "market") end
  end
  out[#out + 1] = K.text(450, y + 10, "bank", { fill = "#555" })
  for k, g in ipairs(ALL) do out[#out + 1] = gem(470 + ((k - 1) % 3) * 44, y + 36 + ((k - 1) // 3) * 44, 17, g, (o.bank or {})[g] or 0, "bank") end
  y = y + 3 * 108 + 10
  for i, p in ipairs(o.players or {}) do
    -- a player's panel is drawn at the origin and placed: unchanged, it is one shared part
    local all, at = out, y
    out, y = {}, 0
    local you = K.you(o, i)
    local h = SMALL_H + 30
    out[#out + 1] = K.rect(6, y, W - 12, h, { fill = "#faf7f0", stroke = you and "#1565c0" or "#ccc", stroke_width = you and 2.5 or 1, rx = 5 })
    out[#out + 1] = K.text(14, y + 18, string.format("%s: %d points, %d cards, %d nobles", K.who(o, i), p.points or 0,
      p.cards or 0, #(p.nobles or {})), { font_weight = "bold", font_size = 12.5 })
    out[#out + 1] = K.text(14, y + 44, "tokens", { fill = "#555" })
    for k, g in ipairs(ALL) do out[#out + 1] = gem(84 + (k - 1) * 30, y + 40, 12, g, (p.tokens or {})[g] or 0, "held") end
    out[#out + 1] = K.text(14, y + 80, "bonuses", { fill = "#555" })
    for k, g in ipairs(GEMS) do
      out[#out + 1] = K.rect(73 + (k - 1) * 30, y + 64, 22, 28, { fill = M.FILL[g], stroke = "#333", rx = 3 })
      out[#out + 1] = K.text(84 + (k - 1) * 30, y + 83, tostring((p.bonus or {})[g] or 0), { text_anchor = "middle", font_weight = "bold",
        fill = DARK[g] and "#fff" or "#111" })
    end
    out[#out + 1] = K.text(330, y + 44, "reserved", { fill = "#555" })
    for j, c in ipairs(p.reserved or {}) do out[#out + 1] = card(390 + (j - 1) * 64, y + 22, c, "reserved", true) end
    all[#all + 1] = K.place(0, at, table.concat(out))
    out, y = all, at + h + 8
  end
  return K.doc("splendor", W, y, out)
end

return M
