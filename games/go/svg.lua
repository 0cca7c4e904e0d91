-- games.go.svg — a Go position as inline SVG for report.html and `tabula render go`:
-- any size up to 25×25, the GTP coordinates (A–T without I, 1–19 from the bottom)
-- on all four sides, star points, stones, the last move, option letters (K=4),
-- the accepted answers and the chosen move.
--
--   svg.board(pos, opts) -> "<svg class=\"board go\" ...>"
--   svg.sgf(pos) -> "(;SZ[9]PL[B]AB[cc]AW[dd])", svg.from_sgf(text) -> pos: a position as text
--   svg.ctx(g) -> a scenario's ctx.board whose fen() is that text (the viewer draws it)
--   pos  = { size = 19, stones = { black = { "dd", ... }, white = { ... } } }  (SGF points)
--          or a game (games.go): its grid is read
--   opts = { last = "dd", labels = { A = "cc", B = ... }, accepted = { "cc" }, chosen = "dc",
--            numbers = { "dd", "ee" } (moves numbered 1, 2, … on their stones), cell = 26,
--            crop = { x0, y0, x1, y1 } (0-based, from the top-left; default the whole board) }
-- Every stone is a <circle class="stone black|white">, so a test can count them.
local go = require "games.go"

local M = {}

local COLS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

local function n(x) return string.format("%g", math.floor(x * 10 + 0.5) / 10) end

local function esc(s) return (tostring(s):gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;"):gsub('"', "&quot;")) end

-- stars(size) -> the star points as { x, y } (0-based)
function M.stars(size)
  local s = {}
  if size < 7 then return s end
  local e = size >= 13 and 3 or 2
  local at = { e, size - 1 - e }
  for _, x in ipairs(at) do for _, y in ipairs(at) do s[#s + 1] = { x, y } end end
  if size % 2 == 1 and size >= 9 then
    local c = (size - 1) // 2
    s[#s + 1] = { c, c }
    if size >= 15 then                 -- the side stars of the large boards
      for _, p in ipairs({ { c, e }, { c, size - 1 - e }, { e, c }, { size - 1 - e, c } }) do s[#s + 1] = p end
    end
  end
  return s
end

-- stones(pos) -> { [sgf] = "black" | "white" }
local function stones(pos)
  local at = {}
  if type(pos) == "userdata" or (type(pos) == "table" and pos.grid and not pos.stones) then
    local grid = pos:grid()
    for y, row in ipairs(grid) do
      for x, v in ipairs(row) do
        if v == 1 then at[go.xy_sgf(x - 1, y - 1)] = "black" elseif v == 2 then at[go.xy_sgf(x - 1, y - 1)] = "white" end
      end
    end
    return at, pos:size()
  end
  for _, c in ipairs({ "black", "white" }) do
    for _, pt in ipairs((pos.stones or {})[c] or {}) do at[pt] = c end
  end
  return at, pos.size
end

-- crop(size, region, points [, margin]) -> { x0, y0, x1, y1 }: the region (0-based
-- { x0, y0, x1, y1 }) grown by margin (2) and to take in every point of the list
function M.crop(size, region, points, margin)
  if not region then return nil end
  local m = margin or 2
  local x0, y0 = math.max(0, region[1] - m), math.max(0, region[2] - m)
  local x1, y1 = math.min(size - 1, region[3] + m), math.min(size - 1, region[4] + m)
  for _, pt in ipairs(points or {}) do
    local x, y = go.sgf_xy(pt)
    if x then x0, y0, x1, y1 = math.min(x0, x), math.min(y0, y), math.max(x1, x), math.max(y1, y) end
  end
  return { x0, y0, x1, y1 }
end

function M.board(pos, opts)
  opts = opts or {}
  local at, size = stones(pos)
  local c = opts.crop or { 0, 0, size - 1, size - 1 }
  local cell = opts.cell or math.max(24, math.min(40, math.floor(420 / math.max(c[3] - c[1], c[4] - c[2], 1))))
  local x0, y0, x1, y1 = c[1], c[2], c[3], c[4]
  local pad = cell * 1.45
  local W, H = (x1 - x0) * cell + 2 * pad, (y1 - y0) * cell + 2 * pad
  local function px(x) return pad + (x - x0) * cell end
  local function py(y) return pad + (y - y0) * cell end
  local function inside(x, y) return x >= x0 and x <= x1 and y >= y0 and y <= y1 end
  local out = { string.format('<svg class="board go" data-size="%d" viewBox="0 0 %s %s" width="%s" height="%s" font-family="DejaVu Sans,sans-serif">',
    size, n(W), n(H), n(W), n(H)), string.format('<rect width="%s" height="%s" fill="#dcb35c"/>', n(W), n(H)) }
  local ext = cell * 0.3
  local g = { '<g stroke="#222">' }
  for x = x0, x1 do
    local a = y0 == 0 and py(0) or py(y0) - ext
    local b = y1 == size - 1 and py(size - 1) or py(y1) + ext
    g[#g + 1] = string.format('<line x1="%s" y1="%s" x2="%s" y2="%s"%s/>', n(px(x)), n(a), n(px(x)), n(b),
      (x == 0 or x == size - 1) and ' stroke-width="2"' or "")
  end
  for y = y0, y1 do
    local a = x0 == 0 and px(0) or px(x0) - ext
    local b = x1 == size - 1 and px(size - 1) or px(x1) + ext
    g[#g + 1] = string.format('<line x1="%s" y1="%s" x2="%s" y2="%s"%s/>', n(a), n(py(y)), n(b), n(py(y)),
      (y == 0 or y == size - 1) and ' stroke-width="2"' or "")
  end
  g[#g + 1] = "</g>"
  out[#out + 1] = table.concat(g)
  for _, s in ipairs(M.stars(size)) do
    if inside(s[1], s[2]) then
      out[#out + 1] = string.format('<circle class="star" cx="%s" cy="%s" r="%s" fill="#222"/>', n(px(s[1])), n(py(s[2])), n(cell * 0.1))
    end
  end
  local fsz = n(cell * 0.42)
  local lab = { string.format('<g class="coords" font-size="%s" fill="#333" text-anchor="middle">', fsz) }
  for x = x0, x1 do
    local l = COLS:sub(x + 1, x + 1)
    lab[#lab + 1] = string.format('<text x="%s" y="%s">%s</text><text x="%s" y="%s">%s</text>',
      n(px(x)), n(pad * 0.35 + cell * 0.15), l, n(px(x)), n(H - pad * 0.35 + cell * 0.15), l)
  end
  for y = y0, y1 do
    local l = tostring(size - y)
    lab[#lab + 1] = string.format('<text x="%s" y="%s">%s</text><text x="%s" y="%s">%s</text>',
      n(pad * 0.38), n(py(y) + cell * 0.15), l, n(W - pad * 0.38), n(py(y) + cell * 0.15), l)
  end
  lab[#lab + 1] = "</g>"
  out[#out + 1] = table.concat(lab)
  -- accepted answers: green squares under whatever stands there
  for _, pt in ipairs(opts.accepted or {}) do
    local x, y = go.sgf_xy(pt)
    if x and inside(x, y) then
      out[#out + 1] = string.format('<rect class="accepted" x="%s" y="%s" width="%s" height="%s" fill="none" stroke="#2e7d32" stroke-width="3"/>',
        n(px(x) - cell * 0.5), n(py(y) - cell * 0.5), n(cell), n(cell))
    end
  end
  local r = cell * 0.47
  local keys = {}
  for pt in pairs(at) do keys[#keys + 1] = pt end
  table.sort(keys)
  for _, pt in ipairs(keys) do
    local x, y = go.sgf_xy(pt)
    if inside(x, y) then
      local black = at[pt] == "black"
      out[#out + 1] = string.format('<circle class="stone %s" cx="%s" cy="%s" r="%s" fill="%s" stroke="#000"/>',
        at[pt], n(px(x)), n(py(y)), n(r), black and "#111" or "#f6f6f6")
    end
  end
  local function on(pt) return at[pt] end
  local function text(pt, s, color, size_f, cls)
    local x, y = go.sgf_xy(pt)
    if not x or not inside(x, y) then return end
    local stone = on(pt)
    if not stone then
      out[#out + 1] = string.format('<circle cx="%s" cy="%s" r="%s" fill="#dcb35c"/>', n(px(x)), n(py(y)), n(cell * 0.34))
    end
    out[#out + 1] = string.format('<text class="%s" x="%s" y="%s" font-size="%s" font-weight="bold" text-anchor="middle" fill="%s">%s</text>',
      cls, n(px(x)), n(py(y) + cell * size_f * 0.36), n(cell * size_f), stone == "black" and "#fff" or (stone and "#000" or color), esc(s))
  end
  local numbered = {}
  for i, pt in ipairs(opts.numbers or {}) do if at[pt] then numbered[pt] = i end end   -- the latest move on a point still standing
  for pt, i in pairs(numbered) do text(pt, tostring(i), "#000", #tostring(i) > 1 and 0.42 or 0.5, "num") end
  local letters = {}
  for l, pt in pairs(opts.labels or {}) do letters[#letters + 1] = { l, pt } end
  table.sort(letters, function(a, b) return a[1] < b[1] end)
  for _, e in ipairs(letters) do text(e[2], e[1], "#b71c1c", 0.55, "option") end
  if opts.last and opts.last ~= "pass" then
    local x, y = go.sgf_xy(opts.last)
    if x and inside(x, y) then
      out[#out + 1] = string.format('<circle class="last" cx="%s" cy="%s" r="%s" fill="none" stroke="%s" stroke-width="2"/>',
        n(px(x)), n(py(y)), n(cell * 0.22), on(opts.last) == "black" and "#fff" or "#c62828")
    end
  end
  if opts.chosen and opts.chosen ~= "pass" then
    local x, y = go.sgf_xy(opts.chosen)
    if x and inside(x, y) then
      out[#out + 1] = string.format('<circle class="chosen" cx="%s" cy="%s" r="%s" fill="none" stroke="#1565c0" stroke-width="3" stroke-dasharray="4 2"/>',
        n(px(x)), n(py(y)), n(cell * 0.55))
    end
  end
  out[#out + 1] = "</svg>"
  return table.concat(out)
end

-- sgf(pos [, to_play]) -> the position as a one-node SGF, "(;SZ[9]PL[B]AB[cc][dd]AW[ee])":
-- what a Go scenario's ctx.board:fen() returns, so the transcript keeps the position
-- of every call and the viewer draws it (board.svg{ game = "go", sgf = ... })
function M.sgf(pos, to_play)
  local at, size = stones(pos)
  to_play = to_play or (type(pos) == "userdata" and pos:to_move()) or pos.to_play
  local lists = { black = {}, white = {} }
  for pt, c in pairs(at) do lists[c][#lists[c] + 1] = "[" .. pt .. "]" end
  table.sort(lists.black); table.sort(lists.white)
  return string.format("(;SZ[%d]%s%s%s)", size, to_play and ("PL[" .. (to_play == "white" and "W" or "B") .. "]") or "",
    #lists.black > 0 and ("AB" .. table.concat(lists.black)) or "", #lists.white > 0 and ("AW" .. table.concat(lists.white)) or "")
end

-- from_sgf(text) -> { size, stones = { black, white }, to_play } | nil, message: the first node's setup
function M.from_sgf(text)
  local sgf = require "games.go.sgf"
  local trees, errors = sgf.parse(text or "")
  local root = trees and trees[1]
  if not root then return nil, (errors and errors[1]) or "not an SGF position" end
  local size = tonumber(sgf.first(root, "SZ") or "19")
  if not size or size < 2 or size > go.max_size then return nil, "SZ is not a board size" end
  local pos = { size = size, stones = { black = sgf.points(root.props.AB or {}), white = sgf.points(root.props.AW or {}) },
    to_play = sgf.first(root, "PL") == "W" and "white" or "black" }
  return pos
end

-- ctx(g) -> a ctx.board for a Go scenario: fen() gives the position as SGF (M.sgf)
function M.ctx(g) return { fen = function() return M.sgf(g) end } end

-- render_cli(opts, fail) -> the SVG `tabula render go` writes (fail(fmt, ...) on bad input)
function M.render_cli(opts, fail)
  local function point(s, size)
    local pt, err = go.parse_point(s, size)
    if not pt or pt == "pass" then fail("render go: %s", err or ("'" .. s .. "' is a pass, not a point")) end
    return pt
  end
  local pos, region, o = nil, nil, { last = nil, labels = {}, accepted = {} }
  if opts.problems then
    if not opts.id then fail("render go: give --id with --problems") end
    local ok, list = pcall(require("scenarios.tsugo.problems").load, opts.problems)
    if not ok then fail("render go: %s", tostring(list)) end
    for _, p in ipairs(list) do if tostring(p.id) == opts.id then pos = p end end
    if not pos then fail("render go: no problem with id %s in %s", opts.id, opts.problems) end
    region = pos.region
    o.accepted = pos.correct or {}
  else
    local size = opts.size or 19
    if size < 2 or size > go.max_size then fail("render go: --size %d is not a board size (2..%d)", size, go.max_size) end
    pos = { size = size, stones = { black = {}, white = {} } }
    local seen = {}
    for _, c in ipairs({ "black", "white" }) do
      for _, s in ipairs(opts[c] or {}) do
        local pt = point(s, size)
        if seen[pt] then fail("render go: two stones on %s", s) end
        seen[pt] = true
        table.insert(pos.stones[c], pt)
      end
    end
  end
  local size = pos.size
  if opts.last then o.last = point(opts.last, size) end
  if opts.chosen then o.chosen = point(opts.chosen, size) end
  for _, a in ipairs(opts.accepted or {}) do o.accepted[#o.accepted + 1] = point(a, size) end
  for _, l in ipairs(opts.labels or {}) do
    local letter, at = l:match("^(%u)=(.+)$")
    if not letter then fail("render go: label '%s' is not LETTER=POINT (A=C4)", l) end
    o.labels[letter] = point(at, size)
  end
  if opts.crop then
    local pts = {}
    for _, c in ipairs({ "black", "white" }) do for _, pt in ipairs(pos.stones[c]) do pts[#pts + 1] = pt end end
    for _, pt in pairs(o.labels) do pts[#pts + 1] = pt end
    for _, pt in ipairs(o.accepted) do pts[#pts + 1] = pt end
    if not region and #pts > 0 then
      local x, y = go.sgf_xy(pts[1])
      region = { x, y, x, y }
    end
    if region then o.crop = M.crop(size, region, pts) end
  end
  return (M.board(pos, o):gsub('^<svg ', '<svg xmlns="http://www.w3.org/2000/svg" ', 1))
end

return M
