-- tabula.image — board pictures of any position, for prompts (PNG) and pages (SVG).
--
--   local image = require "tabula.image"
--   image.xiangqi(board, { "h2e2", "b0c2" })   -> PNG bytes (792x870) | nil, message
--       arrows: ICCS moves (labelled A, B, ...) or { move =, label =, color = {r, g, b} }
--   image.chess_svg(fen [, arrows])            -> a standalone SVG document of a chess position
local M = {}

M.COLOURS = { { 220, 30, 30 }, { 30, 80, 220 }, { 20, 150, 60 }, { 140, 50, 180 } }

-- xiangqi(board, arrows [, opts]) -> PNG bytes | nil, message
function M.xiangqi(board, arrows, opts)
  opts = opts or {}
  local render = require "games.xiangqi.render"
  local pieces, list = {}, {}
  for _, p in ipairs(board:pieces()) do
    local t, red = p.piece:upper(), p.piece:match("%u") ~= nil
    pieces[#pieces + 1] = { square = p.square, side = red and "red" or "black", text = red and render.RED[t] or render.BLACK[t] }
  end
  for i, a in ipairs(arrows or {}) do
    if type(a) == "string" then a = { move = a } end
    local m = a.move
    if type(m) ~= "string" or not m:match("^[a-i]%d[a-i]%d$") then return nil, string.format("arrow '%s' is not an ICCS move", tostring(m)) end
    list[#list + 1] = { from = m:sub(1, 2), to = m:sub(3, 4), label = a.label or string.char(64 + i),
      color = a.color or M.COLOURS[(i - 1) % #M.COLOURS + 1], capture = board:at(m:sub(3, 4)) ~= nil }
  end
  return require("tabula.c.image").render_xiangqi({ pieces = pieces, arrows = list, river = { "楚河", "汉界" },
    files = "abcdefghi", rank_base = 0, width = opts.width, height = opts.height, font = opts.font })
end

-- chess_svg(fen [, arrows]) -> SVG text: the viewer's board drawing as one document
-- (arrows: UCI moves or { move =, kind = "agent"|"defender"|"hint"|... })
function M.chess_svg(fen, arrows)
  local board = require "tabula.view.board"
  local list = {}
  for i, a in ipairs(arrows or {}) do list[i] = type(a) == "string" and { move = a, kind = "hint" } or a end
  local svg = board.svg({ game = "chess", fen = fen, arrows = list })
  svg = type(svg) == "table" and tostring(svg.html or svg[1] or svg) or tostring(svg)
  return svg:gsub("^<svg", "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"", 1)
    :gsub("</svg>%s*$", board.defs():gsub("^<svg[^>]*>", ""):gsub("</svg>%s*$", "") .. "</svg>", 1)
end

return M
