-- scenarios.chessarena.tasks — the fine-grained ChessArena tasks' shared parts: ground
-- truth for the basic-understanding items, answer parsing, win probabilities
-- and the scorers (PMA / precision / recall, LR / TR / MAR, PSA by band).
local chess = require "games.chess"
local json = require "tabula.json"
local parse = require "tabula.parse"

local M = {}

-- truth(fen, square) -> { piece = "N" | nil, legal_moves = sorted list }
-- A piece of the side not to move has no moves (the task's definition).
function M.truth(fen, square)
  local g = assert(chess.new(fen))
  local piece = g:at(square)
  local moves = {}
  if piece and ((piece:match("%u") and g:side() == "white") or (piece:match("%l") and g:side() == "black")) then
    for _, u in ipairs(g:moves()) do if u:sub(1, 2) == square then moves[#moves + 1] = u end end
  end
  return { piece = piece, legal_moves = moves }
end

-- generate(fens, rng) -> items: per FEN, a piece of the side to move, an empty
-- square, and a piece of the other side (the two perturbations)
function M.generate(fens, rng)
  local items = {}
  for _, fen in ipairs(fens) do
    local g = assert(chess.new(fen))
    local mine, theirs, empty = {}, {}, {}
    for r = 1, 8 do for f = 1, 8 do
      local sq = ("abcdefgh"):sub(f, f) .. r
      local p = g:at(sq)
      if not p then empty[#empty + 1] = sq
      elseif (p:match("%u") ~= nil) == (g:side() == "white") then mine[#mine + 1] = sq
      else theirs[#theirs + 1] = sq end
    end end
    for kind, pool in pairs({ normal = mine, empty = empty, other_side = theirs }) do
      if #pool > 0 then
        local sq = pool[rng(#pool)]
        items[#items + 1] = { fen = fen, square = sq, kind = kind, ground_truth = M.truth(fen, sq) }
      end
    end
  end
  table.sort(items, function(a, b) return a.fen .. a.square < b.fen .. b.square end)
  return items
end

local NONE = { [""] = true, none = true, None = true, null = true, ["None."] = true }

-- parse_understanding(text) -> { piece, legal_moves } | nil, why
function M.parse_understanding(text)
  local body = parse.last_block(text or "", { json = true, [""] = true })
  local obj
  if body then obj = json.decode(body) end
  if type(obj) ~= "table" then
    local last
    for chunk in (text or ""):gmatch("%b{}") do last = chunk end
    if last then obj = json.decode(last) or json.decode((last:gsub("None", "null"):gsub("'", '"'))) end
  end
  if type(obj) ~= "table" then return nil, "no JSON object in the reply" end
  local piece = obj.piece
  if piece == json.null or (type(piece) == "string" and NONE[piece]) then piece = nil end
  if piece ~= nil and type(piece) ~= "string" then return nil, "piece is not a string" end
  local moves = {}
  if type(obj.legal_moves) == "table" then
    for _, m in ipairs(obj.legal_moves) do if type(m) == "string" then moves[#moves + 1] = m:lower() end end
  end
  return { piece = piece, legal_moves = moves }
end

-- score_understanding(pairs) -> { n, pma, precision, recall } over { truth, answer } pairs
-- (precision and recall pooled over all items: matched moves / predicted, / true)
function M.score_understanding(list)
  local n, match, inter, pred, truth = 0, 0, 0, 0, 0
  for _, p in ipairs(list) do
    n = n + 1
    local a = p.answer or { legal_moves = {} }
    if a.piece == p.truth.piece then match = match + 1 end
    local set = {}
    for _, m in ipairs(p.truth.legal_moves) do set[m] = true end
    local seen = {}
    for _, m in ipairs(a.legal_moves or {}) do
      if not seen[m] then
        seen[m] = true
        pred = pred + 1
        if set[m] then inter = inter + 1 end
      end
    end
    truth = truth + #p.truth.legal_moves
  end
  return { n = n, pma = n > 0 and match / n or nil, precision = pred > 0 and inter / pred or (truth == 0 and 1 or 0),
    recall = truth > 0 and inter / truth or 1 }
end

-- win probability of a score for the side to move
M.WP = {
  -- Lichess's logistic fit of centipawns to winning chances
  lichess = function(cp, mate)
    if mate then return mate > 0 and 1 or 0 end
    return 1 / (1 + math.exp(-0.00368208 * cp))
  end,
}

-- score_selection(items) -> { n, lr, tr, mar } where each item has q (move -> Q
-- for every legal move), choice (uci or nil)
function M.score_selection(items)
  local n, legal, top, mar = 0, 0, 0, 0
  for _, it in ipairs(items) do
    n = n + 1
    local qs, sum, count = {}, 0, 0
    for m, q in pairs(it.q) do qs[#qs + 1] = { m, q }; sum = sum + q; count = count + 1 end
    table.sort(qs, function(a, b) return a[2] > b[2] or (a[2] == b[2] and a[1] < b[1]) end)
    local awr = count > 0 and sum / count or 0
    local q = it.choice and it.q[it.choice]
    if q then
      legal = legal + 1
      for i = 1, math.min(3, #qs) do if qs[i][1] == it.choice then top = top + 1 end end
    end
    if awr > 0 then mar = mar + ((q or 0) - awr) / awr end
  end
  return { n = n, lr = n > 0 and legal / n or nil, tr = n > 0 and top / n or nil, mar = n > 0 and mar / n or nil }
end

-- ---- puzzles ----

local function csv_fields(line)
  local out, i, n = {}, 1, #line
  while i <= n + 1 do
    if line:sub(i, i) == '"' then
      local j, buf = i + 1, {}
      while j <= n do
        local c = line:sub(j, j)
        if c == '"' then
          if line:sub(j + 1, j + 1) == '"' then buf[#buf + 1] = '"'; j = j + 2 else j = j + 1; break end
        else buf[#buf + 1] = c; j = j + 1 end
      end
      out[#out + 1] = table.concat(buf)
      i = j + 1
    else
      local j = line:find(",", i, true) or (n + 1)
      out[#out + 1] = line:sub(i, j - 1)
      i = j + 1
    end
  end
  return out
end

-- load_puzzles(path) -> list of { id, fen, moves = {...}, rating } from JSONL or a
-- lichess_db_puzzle CSV (any column order, with or without OpeningTags/DailyDate)
function M.load_puzzles(path)
  local fs = require "tabula.fs"
  local cli = require "tabula.cli"
  local text = fs.read_or_fail(path, "puzzles")
  local out = {}
  if path:match("%.csv$") then
    local header
    local n = 0
    for line in text:gmatch("[^\r\n]+") do
      n = n + 1
      local f = csv_fields(line)
      if not header then
        header = {}
        for i, name in ipairs(f) do header[name] = i end
        for _, need in ipairs({ "PuzzleId", "FEN", "Moves", "Rating" }) do
          if not header[need] then cli.fail("%s: the header has no %s column", path, need) end
        end
      else
        local moves = {}
        for m in (f[header.Moves] or ""):gmatch("%S+") do moves[#moves + 1] = m end
        local r = tonumber(f[header.Rating])
        if not r or #moves < 2 then cli.fail("%s:%d: a puzzle needs a rating and at least two moves", path, n) end
        if not f[header.FEN] or not f[header.PuzzleId] then cli.fail("%s:%d: a puzzle needs an id and a FEN", path, n) end
        out[#out + 1] = { id = f[header.PuzzleId], fen = f[header.FEN], moves = moves, rating = r, line = n }
      end
    end
  else
    local n = 0
    for line in text:gmatch("[^\n]+") do
      n = n + 1
      local rec, err = json.decode(line, { lenient = true })
      if not rec then cli.fail("%s:%d: %s", path, n, err) end
      if type(rec) ~= "table" or getmetatable(rec) == json.array_mt then cli.fail("%s:%d: a puzzle must be a JSON object", path, n) end
      local moves = rec.Moves
      if type(moves) == "string" then
        local list = {}
        for m in moves:gmatch("%S+") do list[#list + 1] = m end
        moves = list
      end
      local ok_moves = type(moves) == "table" and #moves >= 2
      for _, m in ipairs(ok_moves and moves or {}) do if type(m) ~= "string" then ok_moves = false end end
      if not ok_moves then cli.fail("%s:%d: \"Moves\" must list at least two moves", path, n) end
      if type(rec.FEN) ~= "string" then cli.fail("%s:%d: \"FEN\" must be a string", path, n) end
      if type(rec.Rating) ~= "number" then cli.fail("%s:%d: \"Rating\" must be a number", path, n) end
      if type(rec.PuzzleId) ~= "string" and math.type(rec.PuzzleId) ~= "integer" then
        cli.fail("%s:%d: \"PuzzleId\" must be a string", path, n)
      end
      out[#out + 1] = { id = rec.PuzzleId, fen = rec.FEN, moves = moves, rating = rec.Rating, line = n }
    end
  end
  return out
end

function M.band(rating, width)
  width = width or 400
  local lo = math.floor((rating - 200) / width) * width + 200
  return string.format("%d-%d", lo, lo + width)
end

return M
