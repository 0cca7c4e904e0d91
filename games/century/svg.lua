-- games.century.svg — G.svg(obs): a Century: Spice Road observation drawn for
-- the viewer: the merchant market (each card's price in spices to leave on the
-- cards before it, and the spices lying on it), the point-card row with its gold
-- and silver coins, then each player's caravan (spice cubes), hand, played cards,
-- point cards and coins. A card is a <g class="card …">, a spice cube a <rect class="spice …">.
local K = require "games.svgkit"

local M = {}

M.FILL = { yellow = "#f4c430", red = "#c62828", green = "#2e7d32", brown = "#6d4c41" }
local SPICES = { "yellow", "red", "green", "brown" }

local function cube(x, y, s, colour)
  return K.rect(x, y, s, s, { class = "spice " .. colour, fill = M.FILL[colour], stroke = "#222", rx = 1.5 })
end

-- cubes(out, x, y, t, s [, per_row]) -> x after the cubes of t (colour -> count)
local function cubes(out, x, y, t, s, per_row)
  local k = 0
  for _, c in ipairs(SPICES) do
    for _ = 1, (t or {})[c] or 0 do
      out[#out + 1] = cube(x + (k % (per_row or 99)) * (s + 2), y + (k // (per_row or 99)) * (s + 2), s, c)
      k = k + 1
    end
  end
  return x + math.min(k, per_row or 99) * (s + 2)
end

local function count(t)
  local n = 0
  for _, v in pairs(t or {}) do n = n + v end
  return n
end

-- merchant(x, y, c, cls) -> a merchant card 84 x 70: produce, upgrade or trade
-- a merchant card's body at the origin, kept per card and class
local merchant_body = K.memo(function(c, cls)
  local x, y = 0, 0
  local parts = { K.rect(x, y, 84, 70, { fill = "#fbf3e4", stroke = "#8d6e63", rx = 5 }) }
  local tip
  if c.kind == "produce" then
    parts[#parts + 1] = K.text(x + 6, y + 14, "produce", { fill = "#555", font_size = 10 })
    cubes(parts, x + 8, y + 24, c.gives, 11, 6)
    tip = "produce"
  elseif c.kind == "upgrade" then
    parts[#parts + 1] = K.text(x + 6, y + 14, "upgrade", { fill = "#555", font_size = 10 })
    parts[#parts + 1] = K.text(x + 42, y + 48, "↑ " .. tostring(c.upgrades), { text_anchor = "middle", font_weight = "bold", font_size = 20 })
    tip = "upgrade " .. tostring(c.upgrades)
  else
    parts[#parts + 1] = K.text(x + 6, y + 14, "trade", { fill = "#555", font_size = 10 })
    cubes(parts, x + 8, y + 22, c.pays, 10, 6)
    parts[#parts + 1] = K.text(x + 42, y + 45, "↓", { text_anchor = "middle", font_size = 12 })
    cubes(parts, x + 8, y + 50, c.gives, 10, 6)
    tip = "trade"
  end
  -- the kind at the top left, the card's number at the top right: clear of each other and
  -- of a trade's six output cubes
  parts[#parts + 1] = K.text(x + 80, y + 12, "#" .. tostring(c.id), { text_anchor = "end", fill = "#999", font_size = 9 })
  return K.group("card " .. cls, parts, tip .. " #" .. tostring(c.id))
end, function(c, cls)
  return table.concat({ tostring(c.id), cls, tostring(c.kind), tostring(c.upgrades), K.counts(c.gives, SPICES), K.counts(c.pays, SPICES) }, "|")
end)

local function merchant(px, py, c, cls) return K.place(px, py, merchant_body(c, cls)) end

-- a point card's body at the origin, kept per card
local point_body = K.memo(function(c)
  local x, y = 0, 0
  local parts = { K.rect(x, y, 84, 80, { fill = "#fff8e1", stroke = "#ef6c00", rx = 5 }),
    K.text(x + 8, y + 20, tostring(c.points), { font_weight = "bold", font_size = 17 }) }
  cubes(parts, x + 6, y + 34, c.needs, 10, 6)
  if c.coin and c.coin ~= "" and c.coin ~= false then
    local gold = c.coin == "gold"
    parts[#parts + 1] = K.token(x + 70, y + 16, 10, gold and "#ffd54f" or "#cfd8dc", gold and "3" or "1", "coin")
  end
  return K.group("card point", parts, string.format("%d points", c.points or 0))
end, function(c)
  return table.concat({ tostring(c.points), tostring(c.coin), K.counts(c.needs, SPICES) }, "|")
end)

local function point_card(px, py, c) return K.place(px, py, point_body(c)) end

function M.svg(o)
  local out, W = {}, 780
  out[#out + 1] = K.text(10, 18, string.format("Century: Spice Road%s — the game ends at %d point cards",
    o.over and ", game over" or string.format(", player %d to move", o.turn or 0), o.end_at or 0), { font_weight = "bold", font_size = 14 })
  out[#out + 1] = K.text(10, 42, string.format("merchant market (deck %d)", o.merchant_deck or 0), { fill = "#555" })
  for pos, c in ipairs(o.market or {}) do
    local x = 10 + (pos - 1) * 92
    out[#out + 1] = merchant(x, 50, c, "market")
    out[#out + 1] = K.text(x + 42, 134, pos == 1 and "free" or ("leave " .. (pos - 1)), { text_anchor = "middle", fill = "#777", font_size = 10 })
    cubes(out, x + 4, 140, c.spices_on, 9, 8)
  end
  out[#out + 1] = K.text(10, 174, string.format("point cards (deck %d; gold coins %d, silver %d)", o.point_deck or 0, o.gold_left or 0,
    o.silver_left or 0), { fill = "#555" })
  for pos, c in ipairs(o.point_row or {}) do out[#out + 1] = point_card(10 + (pos - 1) * 92, 182, c) end
  local y = 276
  for i, p in ipairs(o.players or {}) do
    -- a player's panel is drawn at the origin and placed: unchanged, it is one shared part
    local all, at = out, y
    out, y = {}, 0
    local you = K.you(o, i)
    local hand = p.hand or {}
    local rows = math.max(1, math.ceil((#hand + #(p.played or {})) / 8))
    local h = 60 + rows * 78
    out[#out + 1] = K.rect(4, y, W - 8, h, { fill = "#faf7f0", stroke = you and "#1565c0" or "#ccc", stroke_width = you and 2.5 or 1, rx = 5 })
    out[#out + 1] = K.text(12, y + 18, string.format("%s: %d points, %d point cards, %d gold, %d silver", K.who(o, i),
      p.score or 0, #(p.point_cards or {}), p.gold or 0, p.silver or 0), { font_weight = "bold", font_size = 12.5 })
    out[#out + 1] = K.text(12, y + 42, string.format("caravan %d/10", count(p.spices)), { fill = "#555" })
    cubes(out, 100, y + 30, p.spices, 14)
    local k = 0
    for _, c in ipairs(hand) do
      out[#out + 1] = merchant(12 + (k % 8) * 92, y + 54 + (k // 8) * 78, c, hand.hidden and "hidden" or "hand"); k = k + 1
    end
    for _, c in ipairs(p.played or {}) do
      out[#out + 1] = '<g opacity="0.5">' .. merchant(12 + (k % 8) * 92, y + 54 + (k // 8) * 78, c, "played") .. "</g>"; k = k + 1
    end
    all[#all + 1] = K.place(0, at, table.concat(out))
    out, y = all, at + h + 8
  end
  out[#out + 1] = K.text(10, y + 12, "Faded cards are played (they come back to the hand on a rest).", { fill = "#777", font_size = 10 })
  return K.doc("century", W, y + 20, out)
end

return M
