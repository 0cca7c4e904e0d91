-- games.svgkit — the few SVG pieces the games' drawings (games/<name>/svg.lua,
-- G.svg(obs)) share: numbers, escaping, shapes, a card, a token. A drawing is a
-- list of strings; doc() wraps it in one <svg class="board NAME">. Every text
-- passes through esc, so names from a game's data cannot become markup.
local M = {}

function M.n(x) return string.format("%g", math.floor(x * 10 + 0.5) / 10) end
local n = M.n

local ESC = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }
function M.esc(s) return (tostring(s):gsub("[&<>\"']", ESC)) end

local function attrs(a)
  if not a then return "" end
  local keys = {}
  for k in pairs(a) do keys[#keys + 1] = k end
  table.sort(keys)
  local out = {}
  for _, k in ipairs(keys) do out[#out + 1] = string.format(' %s="%s"', k:gsub("_", "-"), M.esc(a[k])) end
  return table.concat(out)
end

function M.rect(x, y, w, h, a) return string.format('<rect x="%s" y="%s" width="%s" height="%s"%s/>', n(x), n(y), n(w), n(h), attrs(a)) end
function M.circle(x, y, r, a) return string.format('<circle cx="%s" cy="%s" r="%s"%s/>', n(x), n(y), n(r), attrs(a)) end
function M.line(x1, y1, x2, y2, a) return string.format('<line x1="%s" y1="%s" x2="%s" y2="%s"%s/>', n(x1), n(y1), n(x2), n(y2), attrs(a)) end
function M.path(d, a) return string.format('<path d="%s"%s/>', d, attrs(a)) end
-- the smallest text a drawing holds, in its own units: the viewer draws a picture at
-- its own size, so no text reads smaller than this (the report's legibility test)
M.MIN_FONT = 11

function M.text(x, y, s, a)
  a = a or {}
  a.font_size = math.max(a.font_size or M.MIN_FONT, M.MIN_FONT)
  return string.format('<text x="%s" y="%s"%s>%s</text>', n(x), n(y), attrs(a), M.esc(s))
end

-- title(s) -> a <title> child: what a pointer over an element shows
function M.title(s) return "<title>" .. M.esc(s) .. "</title>" end

-- group(cls, parts [, tip]) -> <g class="cls">…</g>
function M.group(cls, parts, tip)
  return '<g class="' .. M.esc(cls) .. '">' .. (tip and M.title(tip) or "") .. table.concat(parts) .. "</g>"
end

-- share(s) -> s marked as a part that recurs across the frames of a match (a card,
-- a tile, a player's panel, parts within parts): the viewer keeps it once per page. Only while M.sharing is true (the
-- viewer sets it around its calls of G.svg); otherwise s unchanged.
M.sharing = false
function M.share(s)
  if not M.sharing then return s end
  return "\3" .. s .. "\4"
end

-- place(x, y, s) -> s (drawn at the origin) moved to x, y; s shared (the same card
-- anywhere on the table, in any frame, is one part)
-- memo(make, key) -> a function f(...) returning make(...), made once for each
-- key(...) (a string naming everything the drawing depends on; nil: not kept). For
-- the parts drawn at the origin and placed (a card, a tile), which recur across the
-- hundreds of frames of a match's view. M.memo_off (tests) draws afresh every time.
function M.memo(make, key)
  local cache = {}
  return function(...)
    local k = key(...)
    if k == nil or M.memo_off then return make(...) end
    local v = cache[k]
    if v == nil then v = make(...); cache[k] = v end
    return v
  end
end

-- counts(t, names) -> "a,b,c": the counts of t for names, as a memo key's part
function M.counts(t, names)
  local out = {}
  for i, k in ipairs(names) do out[i] = tostring((t or {})[k] or "") end
  return table.concat(out, ",")
end

function M.place(x, y, s)
  return string.format('<g transform="translate(%s %s)">', n(x), n(y)) .. M.share(s) .. "</g>"
end

-- doc(name, w, h, parts) -> the drawing as one <svg class="board NAME">
function M.doc(name, w, h, parts)
  return string.format('<svg class="board %s" viewBox="0 0 %s %s" width="%s" height="%s" font-family="DejaVu Sans,sans-serif">',
    M.esc(name), n(w), n(h), n(w), n(h)) .. table.concat(parts) .. "</svg>"
end

-- token(x, y, r, fill, label [, cls]) -> a round token with a number on it
function M.token(x, y, r, fill, label, cls, dark)
  return M.group(cls or "token", {
    M.circle(x, y, r, { fill = fill, stroke = "#333" }),
    label and M.text(x, y + r * 0.38, label, { font_size = r * 1.05, text_anchor = "middle", font_weight = "bold",
      fill = dark and "#fff" or "#111" }) or "" })
end

-- you(o, i) -> whether seat i is the one the drawing is for: its own observation,
-- not a spectator's view (o.spectator: the viewer's public drawing, where no seat's
-- private holdings are drawn)
function M.you(o, i) return i == o.seat and not o.spectator end

-- who(o, i) -> how a drawing names seat i: the participant (o.names, given by the viewer)
-- or "Player i", with " (you)" on the seat the observation is for
function M.who(o, i)
  local name = o.names and o.names[i]
  return (name and (tostring(name) .. " (seat " .. i .. ")") or ("Player " .. i)) .. (M.you(o, i) and " (you)" or "")
end

-- seat colours (the followers, the players' frames)
M.SEATS = { "#1565c0", "#c62828", "#2e7d32", "#f9a825", "#6a1b9a", "#00838f", "#5d4037" }

return M
