-- games.7wonders.svg — G.svg(obs): a 7 Wonders observation drawn for the viewer:
-- per city its wonder (side, stages built and to build), coins, shields and
-- military tokens, the score so far, and its tableau (built cards in columns by
-- colour, named); then the observing seat's hand. A built card is a
-- <g class="card built">, a card in hand <g class="card hand">.
local K = require "games.svgkit"

local M = {}

M.FILL = { brown = "#8d6e63", grey = "#9e9e9e", blue = "#1e88e5", yellow = "#fdd835", red = "#e53935", green = "#43a047", purple = "#8e24aa" }
local COLOURS = { "brown", "grey", "yellow", "red", "blue", "green", "purple" }
local DARK = { brown = true, blue = true, red = true, green = true, purple = true }
local CW, CH = 96, 17        -- a card in a tableau column

local function short(name, max)
  name = tostring(name)
  if utf8.len(name) and utf8.len(name) > max then return name:sub(1, utf8.offset(name, max) - 1) .. "…" end
  return name
end

local function card(px, py, c, cls)
  local x, y = 0, 0
  return K.place(px, py, K.group("card " .. cls, { K.rect(x, y, CW, CH - 2, { fill = M.FILL[c.colour] or "#ccc", stroke = "#333", rx = 2 }),
    K.text(x + 4, y + 11.5, short(c.name, 15), { font_size = 9.5, fill = DARK[c.colour] and "#fff" or "#111" }) },
    tostring(c.name) .. " (" .. tostring(c.colour) .. ")" .. (c.cost and (": cost " .. tostring(c.cost)) or "")
      .. (c.effect and ("; " .. tostring(c.effect)) or "")))
end

local function city(out, c, i, x, y, w, o, hand_size)
  local you = K.you(o, i)
  local by, rows = {}, 0
  for _, cd in ipairs(c.cards or {}) do
    by[cd.colour] = by[cd.colour] or {}
    table.insert(by[cd.colour], cd)
    rows = math.max(rows, #by[cd.colour])
  end
  local h = 128 + math.max(1, rows) * CH
  out[#out + 1] = K.rect(x, y, w, h, { fill = "#f6f1e7", stroke = you and "#1565c0" or "#bbb", stroke_width = you and 2.5 or 1, rx = 6 })
  out[#out + 1] = K.text(x + 10, y + 18, string.format("%s: %s (side %s), %d points", K.who(o, i),
    tostring(c.wonder), tostring(c.side), (c.score or {}).total or 0), { font_weight = "bold", font_size = 12.5 })
  out[#out + 1] = K.text(x + 10, y + 36, string.format("produces %s · %d cards in hand", tostring(c.produces), hand_size or 0), { fill = "#555" })
  for k, st in ipairs(c.stages or {}) do
    local sx = x + 10 + (k - 1) * 132
    out[#out + 1] = K.group("stage" .. (st.built and " built" or ""), {
      K.rect(sx, y + 44, 126, 24, { fill = st.built and "#c8a95b" or "#fff", stroke = "#8d6e63", rx = 3 }),
      K.text(sx + 5, y + 60, (st.built and "✓ " or "") .. "stage " .. k .. ": " .. short(st.cost, 9), { font_size = 10 }) },
      "stage " .. k .. (st.built and " (built)" or "") .. ": cost " .. tostring(st.cost) .. "; " .. tostring(st.effect))
  end
  local tx = x + 10 + math.max(3, #(c.stages or {})) * 132 + 6
  out[#out + 1] = K.token(tx + 12, y + 56, 12, "#ffd54f", tostring(c.coins or 0), "coins")
  out[#out + 1] = K.group("shields", { K.path(string.format("M%s %sh18v8q0 9 -9 13q-9 -4 -9 -13z", K.n(tx + 30), K.n(y + 45)),
    { fill = "#e53935", stroke = "#333" }), K.text(tx + 39, y + 61, tostring(c.shields or 0), { text_anchor = "middle", fill = "#fff",
    font_weight = "bold" }) }, "shields")
  local mil = {}
  for k, v in ipairs(c.military_tokens or {}) do mil[k] = (v > 0 and "+" or "") .. v end
  out[#out + 1] = K.text(x + 10, y + 86, "military " .. (#mil > 0 and table.concat(mil, " ") or "none"), { fill = "#555" })
  local s = c.score or {}
  -- the points by kind, spelled out on a line of their own (they were "civ · sci · com · mil · won
  -- · gld", with no legend, right of the military tokens)
  out[#out + 1] = K.text(x + 10, y + 102, string.format("points: civilian %d · science %d · commercial %d · military %d · wonder %d · guilds %d · coins %d",
    s.civilian or 0, s.science or 0, s.commercial or 0, s.military or 0, s.wonder or 0, s.guilds or 0, s.treasury or 0),
    { fill = "#555" })
  local col = 0
  for _, colour in ipairs(COLOURS) do
    if by[colour] then
      for r, cd in ipairs(by[colour]) do out[#out + 1] = card(x + 10 + col * (CW + 4), y + 110 + (r - 1) * CH, cd, "built") end
      col = col + 1
    end
  end
  return h
end

function M.svg(o)
  local out, W = {}, 780
  out[#out + 1] = K.text(10, 18, string.format("7 Wonders, age %d, turn %d%s (hands pass %s); discard pile %d", o.age or 0, o.turn or 0,
    o.over and ", game over" or "", tostring(o.pass), o.discard_size or 0), { font_weight = "bold", font_size = 14 })
  local y = 28
  for i, c in ipairs(o.cities or {}) do
    local parts = {}      -- a city is drawn at the origin and placed: unchanged, it is one shared part
    local h = city(parts, c, i, 0, 0, W - 12, o, (o.hand_sizes or {})[i])
    out[#out + 1] = K.place(6, y, table.concat(parts))
    y = y + h + 8
  end
  if #(o.hand or {}) > 0 and not o.spectator then   -- a seat's hand: only in its own view
    out[#out + 1] = K.text(10, y + 14, "your hand", { fill = "#555" })
    for k, h in ipairs(o.hand) do out[#out + 1] = card(80 + ((k - 1) % 6) * (CW + 4), y + 4 + ((k - 1) // 6) * CH, h, "hand") end
    y = y + 8 + math.ceil(#o.hand / 6) * CH
  end
  return K.doc("7wonders", W, y + 10, out)
end

return M
