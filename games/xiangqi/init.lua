-- games.xiangqi — the Xiangqi rules from C (tabula.c.xiangqi) with the Lua-side
-- helpers added as Board methods: notations, rendering, census, descriptions.
--
--   local xq = require "games.xiangqi"
--   local b = assert(xq.new(fen))      -- nil, message on a bad FEN
--   b:play("h2e2"); b:render("chinese"); b:census(); b:describe("h0g2")
--   xq.to_chinese(b, "h2e2") --> "炮二平五"   xq.to_wxf(b, "h2e2") --> "C2.5"
local C = require "tabula.c.xiangqi"
local notation = require "games.xiangqi.notation"
local render = require "games.xiangqi.render"
local S = require "tabula.c.xqsearch"

local M = {
  START = C.START,
  new = C.new,
  from_pieces = C.from_pieces,
  -- the built-in search (src/xqsearch.c)
  search = S.search,       -- search(board, {depth=, nodes=, time_ms=})
  mate = S.mate,           -- mate(board, {plies=, checks_only=, nodes=})
  defend = S.defend,       -- defend(board, {horizon=5}): the protocol's fallback ranking
  evaluate = S.evaluate,
}

local Board = getmetatable(C.new()).__index

M.TYPE_NAME = { K = "general", A = "advisor", B = "elephant", N = "horse", R = "chariot", C = "cannon", P = "soldier" }
M.TYPE_ORDER = { "K", "A", "B", "N", "R", "C", "P" }
-- material points (a common convention; soldiers count double once across the river)
M.POINTS = { K = 0, A = 2, B = 2, N = 4, R = 9, C = 4.5, P = 1 }

function M.color_of(letter) return letter:match("%u") and "red" or "black" end

-- census() -> { red = { K = {"e0"}, R = {...}, ... , points = n, count = n }, black = {...} }
function Board:census()
  local out = { red = { count = 0, points = 0 }, black = { count = 0, points = 0 } }
  for _, p in ipairs(self:pieces()) do
    local side = out[M.color_of(p.piece)]
    local t = p.piece:upper()
    side[t] = side[t] or {}
    table.insert(side[t], p.square)
    side.count = side.count + 1
    local pts = M.POINTS[t]
    if t == "P" then
      local rank = tonumber(p.square:sub(2))
      local crossed = (p.piece == "P" and rank >= 5) or (p.piece == "p" and rank <= 4)
      if crossed then pts = 2 end
    end
    side.points = side.points + pts
  end
  for _, side in pairs(out) do
    for _, t in ipairs(M.TYPE_ORDER) do if side[t] then table.sort(side[t]) end end
  end
  return out
end

-- census_text() -> two lines, e.g. "Red: general e0; chariots a0, i0; ... (7 pieces, 22 points)"
function Board:census_text()
  local c = self:census()
  local lines = {}
  for _, side in ipairs({ "red", "black" }) do
    local s = c[side]
    local parts = {}
    for _, t in ipairs(M.TYPE_ORDER) do
      if s[t] then
        local name = M.TYPE_NAME[t] .. (#s[t] > 1 and "s" or "")
        parts[#parts + 1] = name .. " " .. table.concat(s[t], ", ")
      end
    end
    lines[#lines + 1] = string.format("%s: %s (%d piece%s, %g points)", side == "red" and "Red" or "Black",
      table.concat(parts, "; "), s.count, s.count == 1 and "" or "s", s.points)
  end
  return table.concat(lines, "\n")
end

-- move_info(m) -> { move, from, to, piece, side, captured, check } for a legal move, or nil, reason
function Board:move_info(m)
  local ok, why = self:is_legal(m)
  if not ok then return nil, why end
  local from, to = m:sub(1, 2), m:sub(3, 4)
  local piece = self:at(from)
  return {
    move = m, from = from, to = to, piece = piece, side = M.color_of(piece),
    captured = self:at(to), check = self:gives_check(m),
  }
end

-- describe(m) -> "Red chariot a0-a9 captures Black horse, check" (m must be legal here)
function Board:describe(m)
  local info, why = self:move_info(m)
  if not info then return nil, why end
  local side = info.side == "red" and "Red" or "Black"
  local s = string.format("%s %s %s-%s", side, M.TYPE_NAME[info.piece:upper()], info.from, info.to)
  if info.captured then
    s = s .. string.format(" captures %s %s", info.side == "red" and "Black" or "Red", M.TYPE_NAME[info.captured:upper()])
  end
  if info.check then s = s .. ", check" end
  return s
end

-- soldier_findings() -> list of "soldier on X could never get there" for soldiers
-- behind their starting line or on an odd file before crossing the river (legal
-- for the rules here, which old compositions need, but impossible in a game).
function Board:soldier_findings()
  local out = {}
  for _, p in ipairs(self:pieces()) do
    if p.piece:upper() == "P" then
      local f = ("abcdefghi"):find(p.square:sub(1, 1), 1, true) - 1
      local r = tonumber(p.square:sub(2))
      local advanced = p.piece == "P" and r or 9 - r
      if advanced < 3 or (advanced <= 4 and f % 2 == 1) then
        out[#out + 1] = string.format("%s soldier on %s could never get there",
          p.piece == "P" and "Red" or "Black", p.square)
      end
    end
  end
  return out
end

Board.render = render.board

-- notations, as functions and as methods
for name, fn in pairs(notation) do M[name] = fn end
Board.to_chinese = notation.to_chinese
Board.from_chinese = notation.from_chinese
Board.to_wxf = notation.to_wxf
Board.from_wxf = notation.from_wxf
Board.to_jianghu = notation.to_jianghu
Board.from_jianghu = notation.from_jianghu

return M
