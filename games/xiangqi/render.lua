-- games.xiangqi.render — text boards.
--
-- "chinese" (the default): Red 帥仕相傌俥炮兵, Black 將士象馬車砲卒 — every Red
-- glyph differs from its Black counterpart, so the sides stay distinguishable
-- without colour. Empty points are a full-width dot "．" so that columns line up
-- in a monospace terminal (each glyph is two columns wide). "latin": K A B N R C P
-- for Red and k a b n r c p for Black, "." for empty. Rank numbers 9..0 run down
-- the left edge (Black at the top), file letters a..i along both edges.
local M = {}

M.RED = { K = "帥", A = "仕", B = "相", N = "傌", R = "俥", C = "炮", P = "兵" }
M.BLACK = { K = "將", A = "士", B = "象", N = "馬", R = "車", C = "砲", P = "卒" }

local function glyph(letter, style)
  if style == "latin" then return letter or "." end
  if not letter then return "．" end
  local t = letter:upper()
  return letter:match("%u") and M.RED[t] or M.BLACK[t]
end

function M.board(board, style)
  style = style or "chinese"
  if style ~= "chinese" and style ~= "latin" then error("render style must be 'chinese' or 'latin'", 2) end
  local files = "abcdefghi"
  local sep = style == "latin" and " " or ""
  local head = style == "latin" and "  a b c d e f g h i" or "  ａｂｃｄｅｆｇｈｉ"
  local lines = { head }
  for r = 9, 0, -1 do
    local row = {}
    for f = 1, 9 do row[f] = glyph(board:at(files:sub(f, f) .. r), style) end
    lines[#lines + 1] = r .. " " .. table.concat(row, sep)
    if r == 5 then
      lines[#lines + 1] = style == "latin" and "  ~~~ river ~~~~~" or "  ～～楚河～汉界～～"
    end
  end
  lines[#lines + 1] = head
  lines[#lines + 1] = (board:side() == "red" and "Red" or "Black") .. " to move"
  return table.concat(lines, "\n")
end

return M
