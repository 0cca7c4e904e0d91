-- games.chess — chess rules from C (tabula.c.chess) with SAN, PGN and a text
-- board added in Lua.
--
--   local chess = require "games.chess"
--   local g = assert(chess.new(fen))            -- nil, message on a bad FEN
--   g:san("g1f3") --> "Nf3"      g:parse_move("nf3") --> "g1f3"
--   g:play("e2e4"); g:pgn{ White = "a", Black = "b" }; g:render()
local C = require "tabula.c.chess"

local M = { START = C.START, new = C.new }

local Game = getmetatable(C.new()).__index

-- san(uci) -> SAN with +/# for a legal move, or nil, reason
function Game:san(uci)
  local all = self:moves(true)
  local mv
  for _, m in ipairs(all) do if m.uci == uci then mv = m end end
  if not mv then return nil, "illegal move " .. tostring(uci) end
  local s
  if mv.castle then
    s = mv.castle
  elseif mv.piece == "P" then
    s = (mv.capture and (mv.from:sub(1, 1) .. "x") or "") .. mv.to .. (mv.promotion and ("=" .. mv.promotion) or "")
  else
    -- disambiguation: file if it separates the movers, else rank, else both
    local same_file, same_rank, others = false, false, false
    for _, o in ipairs(all) do
      if o.uci ~= mv.uci and o.piece == mv.piece and o.to == mv.to then
        others = true
        if o.from:sub(1, 1) == mv.from:sub(1, 1) then same_file = true end
        if o.from:sub(2, 2) == mv.from:sub(2, 2) then same_rank = true end
      end
    end
    local d = ""
    if others then
      if not same_file then d = mv.from:sub(1, 1)
      elseif not same_rank then d = mv.from:sub(2, 2)
      else d = mv.from end
    end
    s = mv.piece .. d .. (mv.capture and "x" or "") .. mv.to
  end
  local check, mate = self:gives_check(uci)
  return s .. (mate and "#" or check and "+" or "")
end

local function strip(s)
  s = s:gsub("^%s+", ""):gsub("%s+$", "")
  s = s:gsub("[!?]+$", ""):gsub("[+#]+$", ""):gsub("[!?]+$", "")
  s = s:gsub("%s*e%.p%.?$", ""):gsub("%s*ep$", "")
  s = s:gsub("^0%-0%-0$", "O-O-O"):gsub("^0%-0$", "O-O"):gsub("^o%-o%-o$", "O-O-O"):gsub("^o%-o$", "O-O")
  s = s:gsub("=", ""):gsub("%((%a)%)$", "%1")
  return s
end

-- the forms a legal move may be written in (after strip)
local function forms(mv)
  local out = {}
  local function add(f) out[#out + 1] = f end
  local promo = mv.promotion or ""
  add(mv.uci)
  add(mv.from .. "-" .. mv.to .. promo:lower())
  if mv.castle then add(mv.castle); return out end
  if mv.piece == "P" then
    if mv.capture then
      add(mv.from:sub(1, 1) .. "x" .. mv.to .. promo)
      add(mv.from:sub(1, 1) .. mv.to .. promo)
    else
      add(mv.to .. promo)
    end
  else
    local p = mv.piece
    for _, d in ipairs({ "", mv.from:sub(1, 1), mv.from:sub(2, 2), mv.from }) do
      add(p .. d .. "x" .. mv.to)
      add(p .. d .. mv.to)
    end
  end
  return out
end

-- parse_move(text) -> uci | nil, reason. Accepts UCI (always read as UCI when
-- it is a legal move) and forgiving SAN: missing
-- +/#, 0-0, e8Q / e8=Q / e8(Q), exd6e.p., lowercase piece letters where that is
-- unambiguous; never an ambiguous or illegal move.
function Game:parse_move(text)
  if type(text) ~= "string" or text == "" then return nil, "no move" end
  local s = strip(text)
  local all = self:moves(true)
  -- a legal move in coordinates is itself, before any SAN reading ("b1d2" is
  -- the knight's move even where "B1d2" could be read as a bishop's)
  local from, to, promo = s:match("^([a-h][1-8])%-?([a-h][1-8])([qrbnQRBN]?)$")
  if from then
    local uci = from .. to .. promo:lower()
    for _, mv in ipairs(all) do if mv.uci == uci then return uci end end
  end
  -- long algebraic, "Ng1-f3", "g1-f3", "Bc1xf4", "e7-e8=Q", "Ke1-g1": exactly the move
  -- from that square to that square, by the piece named (P or none for a pawn); a reading
  -- that names no legal move is a parse error (third value "parse"), never another move
  local piece, lfrom, sep, lto, lpromo = s:match("^([KQRBNPkqrbnp]?)([a-h][1-8])([%-x:]?)([a-h][1-8])([qrbnQRBN]?)$")
  if piece and (piece ~= "" or sep ~= "") then
    local hits = {}
    for _, mv in ipairs(all) do
      if mv.from == lfrom and mv.to == lto and (mv.promotion or ""):lower() == lpromo:lower()
        and (piece == "" or piece:upper() == mv.piece) then hits[#hits + 1] = mv.uci end
    end
    if #hits == 1 then return hits[1] end
    return nil, string.format("'%s' reads as %s%s to %s, which is not a legal move here", text,
      piece == "" and "" or (piece:upper() .. " "), lfrom, lto), "parse"
  end
  local function match(input)
    local found = {}
    for _, mv in ipairs(all) do
      -- every form but castling names the destination square
      if mv.castle or input:find(mv.to, 1, true) then
        for _, f in ipairs(forms(mv)) do
          if f == input then found[mv.uci] = true end
        end
      end
    end
    return found
  end
  -- the text as written (SAN: a lowercase b is the b-file); only when that reads
  -- as no move, a lowercase piece letter or a lowercase promotion piece
  local found = match(s)
  if not next(found) then
    local candidates = {}
    local head = s:sub(1, 1)
    if head:match("[nrqkb]") and #s >= 3 then candidates[#candidates + 1] = head:upper() .. s:sub(2) end
    if s:match("[18][qrbn]$") then candidates[#candidates + 1] = s:sub(1, -2) .. s:sub(-1):upper() end
    for _, c in ipairs(candidates) do
      for u in pairs(match(c)) do found[u] = true end
    end
  end
  local list = {}
  for u in pairs(found) do list[#list + 1] = u end
  table.sort(list)
  if #list == 1 then return list[1] end
  if #list == 0 then return nil, string.format("'%s' is not a legal move here", text) end
  local sans = {}
  for i, u in ipairs(list) do sans[i] = self:san(u) end
  return nil, string.format("'%s' is ambiguous here (%s)", text, table.concat(sans, ", "))
end

-- render() -> text board, White at the bottom
function Game:render()
  local lines = {}
  for r = 8, 1, -1 do
    local row = {}
    for f = 1, 8 do row[f] = self:at(("abcdefgh"):sub(f, f) .. r) or "." end
    lines[#lines + 1] = r .. " " .. table.concat(row, " ")
  end
  lines[#lines + 1] = "  a b c d e f g h"
  return table.concat(lines, "\n")
end

-- sans(start_fen, ucis) -> SAN list for a sequence of moves from a position
function M.sans(start_fen, ucis)
  local g = assert(M.new(start_fen))
  local out = {}
  for i, u in ipairs(ucis) do
    out[i] = assert(g:san(u))
    g:play(u)
  end
  return out
end

-- pgn(headers) -> the game so far as PGN (from the position it started at)
function Game:pgn(headers, start_fen)
  local moves = self:history()
  local g = self:copy()
  for _ = 1, #moves do g:undo() end
  local first = start_fen or g:fen()
  local h = {}
  for k, v in pairs(headers or {}) do h[k] = v end
  h.Result = h.Result or "*"
  local order = { "Event", "Site", "Date", "Round", "White", "Black", "Result" }
  local seen, lines = {}, {}
  for _, k in ipairs(order) do
    lines[#lines + 1] = string.format('[%s "%s"]', k, tostring(h[k] or "?"))
    seen[k] = true
  end
  if first ~= M.START then
    lines[#lines + 1] = '[SetUp "1"]'
    lines[#lines + 1] = string.format('[FEN "%s"]', first)
    seen.SetUp, seen.FEN = true, true
  end
  local extra = {}
  for k in pairs(h) do if not seen[k] then extra[#extra + 1] = k end end
  table.sort(extra)
  for _, k in ipairs(extra) do lines[#lines + 1] = string.format('[%s "%s"]', k, tostring(h[k])) end
  lines[#lines + 1] = ""
  local words = {}
  local number = tonumber(first:match("(%d+)$")) or 1
  local black = first:match("^%S+ b ") ~= nil
  for i, u in ipairs(moves) do
    if not black then words[#words + 1] = number .. "."
    elseif i == 1 then words[#words + 1] = number .. "..." end
    words[#words + 1] = g:san(u)
    g:play(u)
    if black then number = number + 1 end
    black = not black
  end
  words[#words + 1] = h.Result
  local text, line = {}, ""
  for _, w in ipairs(words) do
    if #line + #w + 1 > 79 then text[#text + 1] = line; line = w
    else line = line == "" and w or (line .. " " .. w) end
  end
  text[#text + 1] = line
  lines[#lines + 1] = table.concat(text, "\n")
  return table.concat(lines, "\n") .. "\n"
end

-- extract_move(game, text) -> uci | nil, kind ("parse" | "illegal"), why
-- The move inside the last <move>…</move>; else the last UCI-looking token ("e7e8q",
-- "e7e8=Q", "e7e8Q": the promotion); else the last
-- SAN-looking token, long algebraic included ("Ng1-f3", "e7-e8=Q", read whole: never its
-- "f3"), by position (ChessArena's order).
local LONG = "%f[%w]([KQRBNPkqrbnp]?[a-h][1-8][%-x][a-h][1-8]=?[qrbnQRBN]?)%f[%W]"
local function last_san(text)
  local spans, at, last = {}, 0, nil
  for pos, m, stop in text:gmatch("()" .. LONG .. "()") do spans[#spans + 1] = { pos, stop }; at, last = pos, m end
  local function inside(pos)
    for _, sp in ipairs(spans) do if pos >= sp[1] and pos < sp[2] then return true end end
    return false
  end
  for _, p in ipairs({ "%f[%w]([KQRBN]?[a-h]?[1-8]?x?[a-h][1-8]=?[QRBN]?)", "(O%-O%-?O?)", "%f[%w](0%-0%-?0?)" }) do
    for pos, m in text:gmatch("()" .. p) do
      if pos > at and not inside(pos) then at, last = pos, m end
    end
  end
  return last
end
local FINDERS = {
  function(text) local last; for m in text:gmatch("<move>%s*(.-)%s*</move>") do last = m end; return last end,
  -- UCI, its promotion also written with an equals sign or a capital ("e7e8=Q", "f2e1B")
  function(text) local last; for m in text:gmatch("%f[%w]([a-h][1-8][a-h][1-8]=?[qrbnQRBN]?)%f[%W]") do last = m end; return last end,
  last_san,
}

function M.extract_move(game, text)
  for _, find in ipairs(FINDERS) do
    local found = find(text or "")
    if found then
      local u, why, kind = game:parse_move(found)
      if u then return u end
      return nil, kind or "illegal", why
    end
  end
  return nil, "parse", "no move found in the reply"
end

return M
