-- games.go.render — a problem shown to a model or a person:
--   render.symbolic(p)              "Black stones: ...\nWhite stones: ...\nBlack to play."
--   render.grid(p)                  the labelled numeric grid (0 empty, 1 black, 2 white)
--   render.svg(p, opts)             an SVG board (for the HTML viewer)
--   render.png(p, opts)             the same board as PNG bytes (cairo, src/draw.c; opts.path writes a file)
-- opts: crop = true (the problem's region with a margin; default) | false (whole
-- board), margin = 2, labels = { A = "dd", B = ... } (letters on candidate points),
-- cell = 36 (pixels per point). Coordinates are GTP (A-T without I, rows from the bottom).
local go = require "games.go"

local M = {}

local function gtp_list(list, size)
  local out = {}
  for i, pt in ipairs(list) do out[i] = go.to_gtp(pt, size) end
  return table.concat(out, ", ")
end

local function side_word(c) return c == "white" and "White" or "Black" end

function M.symbolic(p)
  return string.format("Black stones: %s\nWhite stones: %s\n%s to play.",
    gtp_list(p.stones.black, p.size), gtp_list(p.stones.white, p.size), side_word(p.to_play))
end

local COLS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

function M.grid(p)
  local size = p.size
  local grid = p.grid or go.position(size, p.stones, p.to_play):grid()
  local head = { "   " }
  for x = 1, size do head[#head + 1] = COLS:sub(x, x) end
  local lines = { table.concat(head, " ") }
  for y = 1, size do
    local row = { string.format("%3d", size - y + 1) }
    for x = 1, size do row[#row + 1] = tostring(grid[y][x]) end
    lines[#lines + 1] = table.concat(row, " ")
  end
  lines[#lines + 1] = "(0 empty, 1 black, 2 white; " .. side_word(p.to_play) .. " to play)"
  return table.concat(lines, "\n")
end

local function star_points(size)
  local s = {}
  if size < 7 then return s end
  local e = size >= 13 and 3 or 2
  local pts = { e, size - 1 - e }
  if size % 2 == 1 then pts[#pts + 1] = (size - 1) // 2 end
  for _, x in ipairs(pts) do for _, y in ipairs(pts) do s[#s + 1] = { x, y } end end
  return s
end

-- the view: which rows and columns are shown
local function view(p, opts)
  local n = p.size
  if opts.crop == false or not p.region then return 0, 0, n - 1, n - 1 end
  local m = opts.margin or 2
  local r = p.region
  local x0, y0, x1, y1 = math.max(0, r[1] - m), math.max(0, r[2] - m), math.min(n - 1, r[3] + m), math.min(n - 1, r[4] + m)
  for pt in pairs(opts.labels_at or {}) do
    local x, y = go.sgf_xy(pt)
    x0, y0, x1, y1 = math.min(x0, x), math.min(y0, y), math.max(x1, x), math.max(y1, y)
  end
  return x0, y0, x1, y1
end

-- primitives(p, opts) -> list, width, height
function M.primitives(p, opts)
  opts = opts or {}
  local labels_at = {}
  for letter, pt in pairs(opts.labels or {}) do labels_at[pt] = letter end
  opts.labels_at = labels_at
  local n = p.size
  local x0, y0, x1, y1 = view(p, opts)
  local cell = opts.cell or 36
  local pad = cell * 1.1
  local W = math.floor((x1 - x0) * cell + 2 * pad + 0.5)
  local H = math.floor((y1 - y0) * cell + 2 * pad + 0.5)
  local function px(x) return pad + (x - x0) * cell end
  local function py(y) return pad + (y - y0) * cell end
  local out = { { "rect", 0, 0, W, H, fill = "#dcb35c" } }
  local ext = cell * 0.45            -- lines run on past a cropped edge
  for x = x0, x1 do
    local a = y0 == 0 and py(0) or py(y0) - ext
    local b = y1 == n - 1 and py(n - 1) or py(y1) + ext
    out[#out + 1] = { "line", px(x), a, px(x), b, stroke = "#000000", width = (x == 0 or x == n - 1) and 2 or 1 }
  end
  for y = y0, y1 do
    local a = x0 == 0 and px(0) or px(x0) - ext
    local b = x1 == n - 1 and px(n - 1) or px(x1) + ext
    out[#out + 1] = { "line", a, py(y), b, py(y), stroke = "#000000", width = (y == 0 or y == n - 1) and 2 or 1 }
  end
  for _, s in ipairs(star_points(n)) do
    if s[1] >= x0 and s[1] <= x1 and s[2] >= y0 and s[2] <= y1 then
      out[#out + 1] = { "circle", px(s[1]), py(s[2]), cell * 0.1, fill = "#000000" }
    end
  end
  local fs = cell * 0.36
  for x = x0, x1 do
    local l = COLS:sub(x + 1, x + 1)
    out[#out + 1] = { "text", px(x), pad * 0.4, l, fs, fill = "#000000" }
    out[#out + 1] = { "text", px(x), H - pad * 0.4, l, fs, fill = "#000000" }
  end
  for y = y0, y1 do
    local l = tostring(n - y)
    out[#out + 1] = { "text", pad * 0.4, py(y), l, fs, fill = "#000000" }
    out[#out + 1] = { "text", W - pad * 0.4, py(y), l, fs, fill = "#000000" }
  end
  local r = cell * 0.47
  for _, c in ipairs { "black", "white" } do
    for _, pt in ipairs(p.stones[c]) do
      local x, y = go.sgf_xy(pt)
      if x >= x0 and x <= x1 and y >= y0 and y <= y1 then
        out[#out + 1] = { "circle", px(x), py(y), r, fill = c == "black" and "#111111" or "#f4f4f4", stroke = "#000000", width = 1 }
      end
    end
  end
  local letters = {}
  for pt, letter in pairs(labels_at) do letters[#letters + 1] = { pt, letter } end
  table.sort(letters, function(a, b) return a[2] < b[2] end)
  for _, e in ipairs(letters) do
    local x, y = go.sgf_xy(e[1])
    local on = nil
    for _, c in ipairs { "black", "white" } do for _, s in ipairs(p.stones[c]) do if s == e[1] then on = c end end end
    if not on then out[#out + 1] = { "circle", px(x), py(y), cell * 0.32, fill = "#dcb35c" } end
    out[#out + 1] = { "text", px(x), py(y), e[2], cell * 0.5, fill = on == "black" and "#ffffff" or (on and "#000000" or "#c00000") }
  end
  return out, W, H
end

local function esc(s) return (s:gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;")) end
local function f(v) return string.format("%.1f", v) end

function M.svg(p, opts)
  local prims, W, H = M.primitives(p, opts)
  local out = { string.format('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">', W, H, W, H) }
  for _, q in ipairs(prims) do
    local style = string.format(' fill="%s" stroke="%s" stroke-width="%s"', q.fill or "none", q.stroke or "none", q.width or 1)
    if q[1] == "rect" then
      out[#out + 1] = string.format('<rect x="%s" y="%s" width="%s" height="%s"%s/>', f(q[2]), f(q[3]), f(q[4]), f(q[5]), style)
    elseif q[1] == "line" then
      out[#out + 1] = string.format('<line x1="%s" y1="%s" x2="%s" y2="%s"%s/>', f(q[2]), f(q[3]), f(q[4]), f(q[5]), style)
    elseif q[1] == "circle" then
      out[#out + 1] = string.format('<circle cx="%s" cy="%s" r="%s"%s/>', f(q[2]), f(q[3]), f(q[4]), style)
    else
      out[#out + 1] = string.format('<text x="%s" y="%s" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="%s" text-anchor="middle" dominant-baseline="central" fill="%s">%s</text>',
        f(q[2]), f(q[3]), f(q[5]), q.fill or "#000000", esc(q[4]))
    end
  end
  out[#out + 1] = "</svg>"
  return table.concat(out, "\n")
end

-- png(p [, opts]) -> PNG bytes | nil, message; with opts.path the file is
-- written instead and true returned
function M.png(p, opts)
  opts = opts or {}
  local prims, W, H = M.primitives(p, opts)
  return require("tabula.c.draw").png(opts.path, W, H, prims)
end

return M
