-- games.xiangqi.notation — move notations over the C board.
--
-- ICCS (h2e2: files a-i, ranks 0-9 from Red's side) is the native form. Also:
--   engine coordinates (Fairy-Stockfish's ranks 1-10): iccs_to_engine / engine_to_iccs
--   Jianghu108 notation (A-I, rows 1-10, "炮B7 B10+", "兵F9 x F10+"): to_jianghu / from_jianghu,
--     and piece lists like "車B1 炮B4 帥F2": parse_jianghu_pieces / jianghu_board
--   traditional Chinese notation (炮二平五, 马8进7, 前炮平五): to_chinese / from_chinese
--   WXF (C2.5, H8+7, C+.5 for the front of two cannons on a file): to_wxf / from_wxf
--
-- Parsing Chinese and WXF is exact by construction: the text is normalised (piece
-- character variants, numerals, 進/进) and compared with the rendering of every
-- legal move, so it accepts exactly one legal move or says why not.
--
-- Tandem pieces (two or more of one kind on one file): 前/后 (WXF +/-) for two,
-- 前/中/后 (WXF + . -) for three, 一二三四五 from the front (WXF a-e) for four or five;
-- soldiers stacked on more than one file also name the file (前兵五平四).
local M = {}

local FILES = "abcdefghi"
local RED_NUM = { "一", "二", "三", "四", "五", "六", "七", "八", "九" }

-- ---- engine coordinates ----

function M.iccs_to_engine(m)
  local f1, r1, f2, r2 = m:match("^([a-i])(%d)([a-i])(%d)$")
  if not f1 then return nil, "not an ICCS move: " .. tostring(m) end
  return f1 .. (tonumber(r1) + 1) .. f2 .. (tonumber(r2) + 1)
end

function M.engine_to_iccs(m)
  local f1, r1, f2, r2 = m:match("^([a-i])(%d%d?)([a-i])(%d%d?)$")
  r1, r2 = tonumber(r1), tonumber(r2)
  if not f1 or r1 < 1 or r1 > 10 or r2 < 1 or r2 > 10 then return nil, "not an engine move: " .. tostring(m) end
  return f1 .. (r1 - 1) .. f2 .. (r2 - 1)
end

-- ---- Jianghu108 ----

M.JIANGHU_RED = { K = "帥", A = "仕", B = "相", N = "馬", C = "炮", P = "兵", R = "車" }
M.JIANGHU_BLACK = { K = "将", A = "士", B = "象", N = "馬", C = "砲", P = "卒", R = "車" }
-- character -> { type, side } ("both" for 馬 and 車)
M.JIANGHU_CHARS = {}
for t, ch in pairs(M.JIANGHU_RED) do M.JIANGHU_CHARS[ch] = { t, "red" } end
for t, ch in pairs(M.JIANGHU_BLACK) do
  M.JIANGHU_CHARS[ch] = M.JIANGHU_CHARS[ch] and { t, "both" } or { t, "black" }
end

function M.jianghu_square_to_iccs(s)
  local col, row = s:match("^([A-I])(%d%d?)$")
  row = tonumber(row)
  if not col or row < 1 or row > 10 then return nil end
  return col:lower() .. (row - 1)
end

function M.iccs_square_to_jianghu(sq)
  return sq:sub(1, 1):upper() .. (tonumber(sq:sub(2)) + 1)
end

-- parse_jianghu_pieces(text, side) -> list of { square, piece, char, wrong_side },
-- or nil, message naming the bad token. wrong_side is set when a character of
-- the other side is used (e.g. 将 in Red's list); the piece keeps the list's side.
function M.parse_jianghu_pieces(text, side)
  local out = {}
  for token in text:gmatch("%S+") do
    local ch, sq = token:match("^([\xE4-\xE9][\x80-\xBF][\x80-\xBF])([A-I]%d%d?)$")
    local info = ch and M.JIANGHU_CHARS[ch]
    local iccs = sq and M.jianghu_square_to_iccs(sq)
    if not info or not iccs then return nil, string.format("bad piece '%s' in %s's list", token, side) end
    local letter = side == "red" and info[1] or info[1]:lower()
    out[#out + 1] = { square = iccs, piece = letter, char = ch,
      wrong_side = info[2] ~= "both" and info[2] ~= side or nil }
  end
  return out
end

-- jianghu_board(red_text, black_text [, side]) -> board | nil, message
function M.jianghu_board(red, black, side)
  local C = require "tabula.c.xiangqi"
  local r, err = M.parse_jianghu_pieces(red, "red")
  if not r then return nil, err end
  local b2
  b2, err = M.parse_jianghu_pieces(black, "black")
  if not b2 then return nil, err end
  for _, p in ipairs(b2) do r[#r + 1] = p end
  return C.from_pieces(r, side or "red")
end

local function jianghu_char(letter)
  local t = letter:upper()
  return letter:match("%u") and M.JIANGHU_RED[t] or M.JIANGHU_BLACK[t]
end

-- to_jianghu(board, m) -> "炮B7 B10+" with x/+ computed from the position
function M.to_jianghu(board, m)
  local from, to = m:sub(1, 2), m:sub(3, 4)
  local piece = board:at(from)
  if not piece then return nil, "no piece on " .. from end
  local legal, why = board:is_legal(m)
  if not legal then return nil, why end
  local s = jianghu_char(piece) .. M.iccs_square_to_jianghu(from) .. " "
  if board:at(to) then s = s .. "x " end
  s = s .. M.iccs_square_to_jianghu(to)
  if board:gives_check(m) then s = s .. "+" end
  return s
end

-- from_jianghu(board, text) -> iccs, { char, capture_mark, check_mark } | nil, message
-- Reads the move as written (piece, origin, target, marks) without judging the
-- marks; the caller compares them with what the move does.
function M.from_jianghu(board, text)
  local ch, f, cap, t, chk = text:match("^%s*([\xE4-\xE9][\x80-\xBF][\x80-\xBF])%s*([A-I]%d%d?)%s*(x?)%s*([A-I]%d%d?)%s*(%+?)%s*$")
  if not ch then return nil, "cannot read the move '" .. text .. "' (want e.g. 炮B7 B10+ or 兵F9 x F10+)" end
  local from, to = M.jianghu_square_to_iccs(f), M.jianghu_square_to_iccs(t)
  if not from or not to then return nil, "square off the board in '" .. text .. "'" end
  local info = M.JIANGHU_CHARS[ch]
  if not info then return nil, "unknown piece character " .. ch .. " in '" .. text .. "'" end
  return from .. to, { char = ch, type = info[1], capture_mark = cap == "x", check_mark = chk == "+" }
end

-- ---- Chinese and WXF ----

local function file_number(side, f)           -- f: 0..8 for files a..i
  return side == "red" and 9 - f or f + 1
end

-- Parts of a move in the traditional system, shared by Chinese and WXF.
local function move_parts(board, m)
  local from, to = m:sub(1, 2), m:sub(3, 4)
  local piece = board:at(from)
  local side = piece:match("%u") and "red" or "black"
  local t = piece:upper()
  local ff, fr = FILES:find(from:sub(1, 1), 1, true) - 1, tonumber(from:sub(2))
  local tf, tr = FILES:find(to:sub(1, 1), 1, true) - 1, tonumber(to:sub(2))
  local dir = side == "red" and 1 or -1
  local parts = { type = t, side = side }
  -- tandem: same pieces on this file, ordered from the front
  local same = {}
  for r = 0, 9 do
    if board:at(FILES:sub(ff + 1, ff + 1) .. r) == piece then same[#same + 1] = r end
  end
  table.sort(same, function(a, b) return a * dir > b * dir end)
  if #same >= 2 and t ~= "K" then
    for i, r in ipairs(same) do if r == fr then parts.position, parts.of = i, #same end end
    if t == "P" then   -- are soldiers stacked on another file too?
      for f = 0, 8 do
        if f ~= ff then
          local n = 0
          for r = 0, 9 do if board:at(FILES:sub(f + 1, f + 1) .. r) == piece then n = n + 1 end end
          if n >= 2 then parts.name_file = true end
        end
      end
    end
  end
  parts.file = file_number(side, ff)
  if tr == fr then
    parts.action, parts.target = ".", file_number(side, tf)
  else
    parts.action = (tr - fr) * dir > 0 and "+" or "-"
    if t == "N" or t == "B" or t == "A" then parts.target = file_number(side, tf)
    else parts.target = math.abs(tr - fr) end
  end
  return parts
end

local CN_PIECE = {
  red = { K = "帅", A = "仕", B = "相", N = "马", R = "车", C = "炮", P = "兵" },
  black = { K = "将", A = "士", B = "象", N = "马", R = "车", C = "炮", P = "卒" },
}
local CN_ACTION = { ["+"] = "进", ["-"] = "退", ["."] = "平" }
local CN_POS = { [2] = { "前", "后" }, [3] = { "前", "中", "后" } }

local function num(side, n) return side == "red" and RED_NUM[n] or tostring(n) end

function M.to_chinese(board, m)
  local ok, why = board:is_legal(m)
  if not ok then return nil, why end
  local p = move_parts(board, m)
  local head
  if p.position then
    local label = CN_POS[p.of] and CN_POS[p.of][p.position] or RED_NUM[p.position]
    head = label .. CN_PIECE[p.side][p.type] .. (p.name_file and num(p.side, p.file) or "")
  else
    head = CN_PIECE[p.side][p.type] .. num(p.side, p.file)
  end
  return head .. CN_ACTION[p.action] .. num(p.side, p.target)
end

local WXF_LETTER = { K = "K", A = "A", B = "E", N = "H", R = "R", C = "C", P = "P" }
local WXF_POS = { [2] = { "+", "-" }, [3] = { "+", ".", "-" } }

function M.to_wxf(board, m)
  local ok, why = board:is_legal(m)
  if not ok then return nil, why end
  local p = move_parts(board, m)
  local where = tostring(p.file)
  if p.position then
    where = WXF_POS[p.of] and WXF_POS[p.of][p.position] or ("abcde"):sub(p.position, p.position)
    if p.name_file then where = where .. p.file end
  end
  return WXF_LETTER[p.type] .. where .. p.action .. p.target
end

-- Normalisation used to compare Chinese texts: every variant character of a
-- piece, numeral or action maps to one ASCII token.
local CN_NORMAL = {
  ["帅"] = "K", ["帥"] = "K", ["将"] = "K", ["將"] = "K",
  ["仕"] = "A", ["士"] = "A", ["相"] = "B", ["象"] = "B",
  ["马"] = "N", ["馬"] = "N", ["傌"] = "N", ["车"] = "R", ["車"] = "R", ["俥"] = "R",
  ["炮"] = "C", ["砲"] = "C", ["包"] = "C", ["兵"] = "P", ["卒"] = "P",
  ["进"] = "+", ["進"] = "+", ["退"] = "-", ["平"] = ".",
  ["前"] = "f", ["中"] = "m", ["后"] = "r", ["後"] = "r",
  ["一"] = "1", ["二"] = "2", ["三"] = "3", ["四"] = "4", ["五"] = "5",
  ["六"] = "6", ["七"] = "7", ["八"] = "8", ["九"] = "9",
  ["１"] = "1", ["２"] = "2", ["３"] = "3", ["４"] = "4", ["５"] = "5",
  ["６"] = "6", ["７"] = "7", ["８"] = "8", ["９"] = "9",
}

local function normalize_cn(s)
  local out = {}
  for _, cp in utf8.codes(s) do
    local ch = utf8.char(cp)
    if not ch:match("^%s$") then out[#out + 1] = CN_NORMAL[ch] or ch end
  end
  return table.concat(out)
end

local function normalize_wxf(s)
  s = s:gsub("%s", ""):upper()
  return (s:gsub("^B", "E"):gsub("^N", "H"))
end

local function match_legal(board, text, render, normalize, what)
  local want = normalize(text)
  local found = {}
  for _, m in ipairs(board:moves()) do
    if normalize(render(board, m)) == want then found[#found + 1] = m end
  end
  if #found == 1 then return found[1] end
  if #found == 0 then return nil, string.format("'%s' is not a legal move here in %s notation", text, what) end
  return nil, string.format("'%s' is ambiguous here (%s)", text, table.concat(found, ", "))
end

function M.from_chinese(board, text)
  return match_legal(board, text, M.to_chinese, normalize_cn, "Chinese")
end

function M.from_wxf(board, text)
  return match_legal(board, text, M.to_wxf, normalize_wxf, "WXF")
end

return M
