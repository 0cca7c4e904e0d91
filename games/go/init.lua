-- games.go — Go over the C rules (tabula.c.go): coordinates and small helpers.
-- The API is written down in games/go/README.md.
local core = require "tabula.c.go"

local M = {}

M.max_size = core.max_size
local GTP_COLS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"   -- no I

-- new(size [, {superko = bool, suicide = bool}]) -> a game (see README)
function M.new(size, opts) return core.new(size or 19, opts) end

-- SGF point "dd" -> x, y (0-based, column from the left, row from the top); nil for a pass
function M.sgf_xy(pt)
  if pt == "pass" or pt == "" then return nil end
  return pt:byte(1) - 97, pt:byte(2) - 97
end

function M.xy_sgf(x, y) return string.char(97 + x, 97 + y) end

-- SGF point -> GTP ("D16"); "pass" stays "pass"
function M.to_gtp(pt, size)
  local x, y = M.sgf_xy(pt)
  if not x then return "pass" end
  return GTP_COLS:sub(x + 1, x + 1) .. tostring(size - y)
end

-- GTP -> SGF point (nil, message when not a point of the board)
function M.from_gtp(s, size)
  if s:lower() == "pass" then return "pass" end
  local col, row = s:upper():match("^(%a)(%d+)$")
  local x = col and GTP_COLS:find(col, 1, true)
  row = tonumber(row)
  if not x or x > size or not row or row < 1 or row > size then
    return nil, string.format("'%s' is not a point of a %dx%d board", s, size, size)
  end
  return M.xy_sgf(x - 1, size - row)
end

-- SGF point -> numeric {row, col}, 1-based, row 1 at the top (the order of game:grid())
function M.to_numeric(pt)
  local x, y = M.sgf_xy(pt)
  if not x then return nil end
  return { y + 1, x + 1 }
end

function M.from_numeric(rc) return M.xy_sgf(rc[2] - 1, rc[1] - 1) end

-- any of SGF / GTP / "pass" -> SGF point (nil, message)
function M.parse_point(s, size)
  if s == "pass" or s == "" or (s == "tt" and size <= 19) then return "pass" end
  if s:match("^%l%l$") then
    local x, y = M.sgf_xy(s)
    if x < size and y < size then return s end
    return nil, string.format("'%s' is not a point of a %dx%d board", s, size, size)
  end
  return M.from_gtp(s, size)
end

function M.other(color) return color == "black" and "white" or "black" end

-- setup(size, {black = {...}, white = {...}}, to_move [, opts]) -> game with the stones placed
function M.position(size, stones, to_move, opts)
  local g = core.new(size, opts)
  for _, c in ipairs { "black", "white" } do
    for _, pt in ipairs(stones[c] or {}) do g:setup(pt, c) end
  end
  if to_move then g:set_to_move(to_move) end
  return g
end

-- from_rows({"X.O", ...} [, to_move, opts]) -> game; X black, O white, . empty; rows from the top
function M.from_rows(rows, to_move, opts)
  local g = core.new(#rows, opts)
  for y, row in ipairs(rows) do
    for x = 1, #row do
      local ch = row:sub(x, x)
      if ch == "X" then g:setup(M.xy_sgf(x - 1, y - 1), "black")
      elseif ch == "O" then g:setup(M.xy_sgf(x - 1, y - 1), "white") end
    end
  end
  if to_move then g:set_to_move(to_move) end
  return g
end

return M
