-- tabula.view.board — SVG boards for every output of the viewer, from one
-- code path: a board is a grid (Xiangqi points, chess squares) with pieces
-- placed from a FEN, arrows and marks; games without a board yet get a text
-- panel. The grids and pieces are symbols defined once per page (defs()) and
-- placed with <use>, which keeps a board at a few hundred bytes.
--
--   board.svg{ game = "xiangqi", fen = FEN, arrows = { { move = "b5c5", kind = "agent" } },
--              marks = { { sq = "a0", kind = "x" } }, coords = "A1" }   -- coords: files A-I, ranks 1-10 (Jianghu108)
--   board.svg{ game = "go", sgf = "(;SZ[9]AB[cc]AW[dd])", last =, labels =, accepted =, chosen = }   (games.go.svg)
--   board.svg{ game = "text", text = "..." }
--   board.svg{ svg = "<svg ...>" }                     -- a scenario's own drawing, used as it is
local html = require "tabula.view.html"

local M = {}

local CELL = 40

-- the games with a board: size, rank numbering, points (Xiangqi) or squares (chess)
M.GAMES = {
  xiangqi = { files = 9, ranks = 10, base = 0, points = true, margin = 36, prefix = "xq" },
  chess = { files = 8, ranks = 8, base = 1, points = false, margin = 20, prefix = "ch" },
}

-- arrow colours and styles by kind
M.ARROWS = {
  agent = { color = "#1565c0" },
  defender = { color = "#c62828" },
  previous = { color = "#1565c0", opacity = 0.35 },
  sim = { color = "#8e24aa", dash = "6 4" },
  illegal = { color = "#ef6c00", dash = "3 3" },
  hint = { color = "#2e7d32", dash = "9 6" },
}

local XQ_GLYPHS = { K = "帥", A = "仕", B = "相", N = "傌", R = "俥", C = "炮", P = "兵",
  k = "將", a = "士", b = "象", n = "馬", r = "車", c = "砲", p = "卒" }
local XQ_ALIAS = { E = "B", H = "N", e = "b", h = "n" }
local CHESS_GLYPHS = { K = "♚", Q = "♛", R = "♜", B = "♝", N = "♞", P = "♟" }

local function size(g)
  local span = g.points and 1 or 0
  return (g.files - span) * CELL + 2 * g.margin, (g.ranks - span) * CELL + 2 * g.margin,
    g.margin + (g.points and 0 or CELL / 2)
end

local function n(x) return string.format("%g", math.floor(x * 10 + 0.5) / 10) end

-- center(g, file0, row0) -> x, y of a point or square (row 0 at the top)
local function center(g, f, row)
  local _, _, off = size(g)
  return off + f * CELL, off + row * CELL
end

-- square(g, "e4") -> file0, row0 | nil
function M.square(g, sq)
  if type(sq) ~= "string" then return nil end
  local f, r = sq:match("^([a-z])(%d+)$")
  if not f then return nil end
  f, r = f:byte() - 97, tonumber(r) - g.base
  if f < 0 or f >= g.files or r < 0 or r >= g.ranks then return nil end
  return f, g.ranks - 1 - r
end

-- pieces(fen) -> { {file0, row0, letter} }: the placement field, first row at the top
function M.pieces(fen)
  local out, row = {}, 0
  local placement = type(fen) == "string" and fen:match("^(%S+)") or ""
  for part in (placement .. "/"):gmatch("([^/]*)/") do
    local f = 0
    for ch in part:gmatch(".") do
      if ch:match("%d") then f = f + tonumber(ch) else out[#out + 1] = { f, row, ch }; f = f + 1 end
    end
    row = row + 1
  end
  return out
end

local function line(x1, y1, x2, y2, extra)
  return string.format('<line x1="%s" y1="%s" x2="%s" y2="%s"%s/>', n(x1), n(y1), n(x2), n(y2), extra or "")
end

local function label(x, y, text)
  return string.format('<text x="%s" y="%s" text-anchor="middle" font-size="12" fill="#555">%s</text>', n(x), n(y), text)
end

-- coordinate labels: the board's own (a-i, 0-9 for Xiangqi; a-h, 1-8 for chess) or
-- "A1" (files A-I, ranks 1-10: how Jianghu108's prompt and picture write them)
local function coord_labels(g, coords)
  if coords == "A1" then
    return function(f) return string.char(65 + f) end, function(r) return tostring(r + 1) end
  end
  return function(f) return string.char(97 + f) end, function(r) return tostring(r + g.base) end
end

-- the static part of a board (lines or squares, river, palaces, coordinates)
local function grid(g, coords)
  local w, h = size(g)
  local out = { string.format('<rect width="%d" height="%d" fill="%s"/>', w, h, g.points and "#f0d9a8" or "#f5f0e6") }
  if g.points then
    local gl = {}
    for row = 0, g.ranks - 1 do
      local x1, y = center(g, 0, row)
      local x2 = center(g, g.files - 1, row)
      gl[#gl + 1] = line(x1, y, x2, y)
    end
    for f = 0, g.files - 1 do
      local x, y1 = center(g, f, 0)
      local _, y9 = center(g, f, g.ranks - 1)
      if f == 0 or f == g.files - 1 then gl[#gl + 1] = line(x, y1, x, y9)
      else
        local _, y4 = center(g, f, 4)
        local _, y5 = center(g, f, 5)
        gl[#gl + 1] = line(x, y1, x, y4)
        gl[#gl + 1] = line(x, y5, x, y9)
      end
    end
    for _, p in ipairs({ { 3, 0, 5, 2 }, { 5, 0, 3, 2 }, { 3, 7, 5, 9 }, { 5, 7, 3, 9 } }) do
      local x1, y1 = center(g, p[1], p[2])
      local x2, y2 = center(g, p[3], p[4])
      gl[#gl + 1] = line(x1, y1, x2, y2)
    end
    out[#out + 1] = '<g stroke="#5b3a1a" stroke-width="1.2">' .. table.concat(gl) .. "</g>"
    local xl, yr = center(g, 2, 4.5)
    local xr = center(g, 6, 4.5)
    out[#out + 1] = string.format('<g font-size="20" fill="#7a5230" text-anchor="middle"><text x="%s" y="%s">楚 河</text><text x="%s" y="%s">漢 界</text></g>',
      n(xl), n(yr + 7), n(xr), n(yr + 7))
  else
    local sq = {}
    for row = 0, g.ranks - 1 do
      for f = 0, g.files - 1 do
        if (f + row) % 2 == 1 then
          local x, y = center(g, f, row)
          sq[#sq + 1] = string.format('<rect x="%s" y="%s" width="%d" height="%d"/>', n(x - CELL / 2), n(y - CELL / 2), CELL, CELL)
        end
      end
    end
    local x0, y0 = center(g, 0, 0)
    out[#out + 1] = string.format('<rect x="%s" y="%s" width="%d" height="%d" fill="#f0d9b5" stroke="#555"/>',
      n(x0 - CELL / 2), n(y0 - CELL / 2), g.files * CELL, g.ranks * CELL)
    out[#out + 1] = '<g fill="#b58863">' .. table.concat(sq) .. "</g>"
  end
  local _, h2 = size(g)
  local file_label, rank_label = coord_labels(g, coords)
  for f = 0, g.files - 1 do
    local x = center(g, f, 0)
    out[#out + 1] = label(x, h2 - (g.margin - 12) / 2 - 1, file_label(f))
  end
  for row = 0, g.ranks - 1 do
    local _, y = center(g, 0, row)
    out[#out + 1] = label(g.margin / 2 - (g.points and 4 or 0), y + 4, rank_label(g.ranks - 1 - row))
  end
  return table.concat(out)
end

local function piece_symbol(game, letter)
  if game == "xiangqi" then
    local red = letter:match("%u") ~= nil
    local col = red and "#b71c1c" or "#111"
    return string.format('<g id="xq-%s" transform="scale(.95)"><circle r="18.5" fill="#fbefd5" stroke="%s" stroke-width="1.6"/>'
      .. '<circle r="15.5" fill="none" stroke="%s" stroke-width=".7"/>'
      .. '<text class="zh" y="7" text-anchor="middle" font-size="20" fill="%s">%s</text>'
      .. '<text class="la" y="7" text-anchor="middle" font-size="19" font-weight="bold" font-family="sans-serif" fill="%s" display="none">%s</text></g>',
      letter, col, col, col, XQ_GLYPHS[letter], col, letter:upper())
  end
  local white = letter:match("%u") ~= nil
  return string.format('<g id="ch-%s" transform="scale(.95)"><text y="13" text-anchor="middle" font-size="36" font-family="DejaVu Sans,sans-serif" fill="%s" stroke="%s" stroke-width="%s">%s</text></g>',
    letter, white and "#fff" or "#111", white and "#111" or "#111", white and "1.3" or "0.5", CHESS_GLYPHS[letter:upper()])
end

-- defs() -> one hidden <svg> holding the grids, pieces and arrow heads every board uses
function M.defs()
  local out = { '<svg class="defs" width="0" height="0" aria-hidden="true" style="position:absolute"><defs>' }
  for _, game in ipairs({ "xiangqi", "chess" }) do
    local g = M.GAMES[game]
    local w, h = size(g)
    out[#out + 1] = string.format('<symbol id="%s-grid" viewBox="0 0 %d %d">%s</symbol>', g.prefix, w, h, grid(g))
  end
  do
    local g = M.GAMES.xiangqi
    local w, h = size(g)
    out[#out + 1] = string.format('<symbol id="xq-grid-A1" viewBox="0 0 %d %d">%s</symbol>', w, h, grid(g, "A1"))
  end
  for _, l in ipairs({ "K", "A", "B", "N", "R", "C", "P", "k", "a", "b", "n", "r", "c", "p" }) do
    out[#out + 1] = piece_symbol("xiangqi", l)
  end
  for _, l in ipairs({ "K", "Q", "R", "B", "N", "P", "k", "q", "r", "b", "n", "p" }) do
    out[#out + 1] = piece_symbol("chess", l)
  end
  local kinds = {}
  for k in pairs(M.ARROWS) do kinds[#kinds + 1] = k end
  table.sort(kinds)
  for _, k in ipairs(kinds) do
    out[#out + 1] = string.format('<marker id="ah-%s" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto"><path d="M0,0L10,5L0,10z" fill="%s"/></marker>',
      k, M.ARROWS[k].color)
  end
  out[#out + 1] = "</defs></svg>"
  return table.concat(out)
end

local function arrow(g, a)
  local from, to = a.from, a.to
  if a.move then from, to = a.move:sub(1, 2), a.move:sub(3, 4) end
  local f1, r1 = M.square(g, from)
  local f2, r2 = M.square(g, to)
  if not f1 or not f2 or (f1 == f2 and r1 == r2) then return "" end
  local x1, y1 = center(g, f1, r1)
  local x2, y2 = center(g, f2, r2)
  local dx, dy = x2 - x1, y2 - y1
  local len = math.sqrt(dx * dx + dy * dy)
  local ux, uy = dx / len, dy / len
  local st = M.ARROWS[a.kind] or M.ARROWS.agent
  local kind = M.ARROWS[a.kind] and a.kind or "agent"
  local out = line(x1 + ux * 6, y1 + uy * 6, x2 - ux * 11, y2 - uy * 11,
    string.format(' class="arrow %s" stroke="%s" stroke-width="5" stroke-linecap="round"%s%s marker-end="url(#ah-%s)"',
      kind, st.color, st.dash and (' stroke-dasharray="' .. st.dash .. '"') or "",
      st.opacity and (' opacity="' .. st.opacity .. '"') or "", kind))
  if a.label then
    local mx, my = x1 + dx * 0.5, y1 + dy * 0.5
    out = out .. string.format('<circle cx="%s" cy="%s" r="8" fill="%s"/><text x="%s" y="%s" font-size="11" text-anchor="middle" fill="#fff">%s</text>',
      n(mx), n(my), st.color, n(mx), n(my + 4), html.esc(a.label))
  end
  return out
end

local function mark(g, m)
  local f, r = M.square(g, m.sq)
  if not f then return "" end
  local x, y = center(g, f, r)
  if m.kind == "ring" then
    return string.format('<circle cx="%s" cy="%s" r="20" fill="none" stroke="#2e7d32" stroke-width="3"/>', n(x), n(y))
  end
  local d = 12
  return string.format('<g class="mark-x" stroke="#ef6c00" stroke-width="4" stroke-linecap="round">%s%s</g>',
    line(x - d, y - d, x + d, y + d), line(x - d, y + d, x + d, y - d))
end

-- text panel: a monospace box of lines (any game without a board)
local function text_panel(spec)
  local lines = {}
  for l in ((spec.text or "") .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = l end
  local width = 10
  for _, l in ipairs(lines) do width = math.max(width, utf8.len(l) or #l) end
  local w, h = math.min(900, width * 8 + 20), #lines * 16 + 16
  local out = { string.format('<svg class="board text" viewBox="0 0 %d %d" width="%d" height="%d"><rect width="%d" height="%d" fill="#fafafa" stroke="#ccc"/><text font-family="monospace" font-size="13" fill="#222">',
    w, h, w, h, w, h) }
  for i, l in ipairs(lines) do
    out[#out + 1] = string.format('<tspan x="10" y="%d" xml:space="preserve">%s</tspan>', 8 + i * 16, html.esc(l))
  end
  out[#out + 1] = "</text></svg>"
  return table.concat(out)
end

-- go_board(spec) -> a Go board (games.go.svg) from spec.sgf or spec.size/stones
local function go_board(spec)
  local gs = require "games.go.svg"
  local pos = spec
  if spec.sgf then
    local err
    pos, err = gs.from_sgf(spec.sgf)
    if not pos then return text_panel({ text = "(not a Go position: " .. tostring(err) .. ")\n" .. spec.sgf }) end
  end
  return gs.board(pos, spec)
end

-- svg(spec) -> the <svg class="board"> of one position
function M.svg(spec)
  if spec.svg then return spec.svg end          -- a drawing the scenario's view made itself (texts escaped there)
  if spec.game == "go" then return go_board(spec) end
  local g = M.GAMES[spec.game]
  if not g then return text_panel(spec) end
  local w, h = size(g)
  local grid_id = g.prefix .. "-grid" .. ((spec.coords == "A1" and spec.game == "xiangqi") and "-A1" or "")
  local out = { string.format('<svg class="board %s" viewBox="0 0 %d %d" width="%d" height="%d"%s><use href="#%s" width="%d" height="%d"/>',
    spec.game, w, h, w, h, spec.fen and (' data-fen="' .. html.esc(spec.fen) .. '"') or "", grid_id, w, h) }
  for _, p in ipairs(M.pieces(spec.fen)) do
    local letter = p[3]
    if spec.game == "xiangqi" then letter = XQ_ALIAS[letter] or letter end
    local known = spec.game == "xiangqi" and XQ_GLYPHS[letter] or (spec.game == "chess" and CHESS_GLYPHS[letter:upper()])
    if known and p[1] < g.files and p[2] < g.ranks then
      local x, y = center(g, p[1], p[2])
      out[#out + 1] = string.format('<use href="#%s-%s" x="%s" y="%s"/>', g.prefix, letter, n(x), n(y))
    end
  end
  for _, m in ipairs(spec.marks or {}) do out[#out + 1] = mark(g, m) end
  for _, a in ipairs(spec.arrows or {}) do out[#out + 1] = arrow(g, a) end
  out[#out + 1] = "</svg>"
  return table.concat(out)
end

return M
