-- games.xiangqi.admit — the admission pipeline for XiangqiBench cases, and a
-- generator of fresh candidate endgames.
--
-- admit(fen, opts) proves (or fails to prove) a forced mate for Red with the
-- built-in exhaustive mate search (src/xqsearch.c: every Red move within the
-- horizon, every Black reply), so an admitted distance is a proof, not an
-- engine's estimate. The same search with Black to move gives the category:
-- "threatmate_race" when Black would also mate, else "forced_mate". With
-- opts.engine (a started UCI engine), the engine's own mate score is recorded
-- as engine_mate_plies beside it.
local xq = require "games.xiangqi"
local notation = require "games.xiangqi.notation"

local M = {}

local THEME = { R = "rook", N = "horse", C = "cannon", P = "pawn" }

-- mirror(fen) -> the left-right mirrored placement (same side to move)
function M.mirror(fen)
  local board, rest = fen:match("^(%S+)%s*(.*)$")
  local ranks = {}
  for rank in board:gmatch("[^/]+") do
    local cells = {}
    for ch in rank:gmatch(".") do
      if ch:match("%d") then for _ = 1, tonumber(ch) do cells[#cells + 1] = "1" end
      else cells[#cells + 1] = ch end
    end
    local out, run = {}, 0
    for i = #cells, 1, -1 do
      if cells[i] == "1" then run = run + 1
      else
        if run > 0 then out[#out + 1] = tostring(run); run = 0 end
        out[#out + 1] = cells[i]
      end
    end
    if run > 0 then out[#out + 1] = tostring(run) end
    ranks[#ranks + 1] = table.concat(out)
  end
  return table.concat(ranks, "/") .. (rest ~= "" and (" " .. rest) or "")
end

-- identity(fen): the same for a position and its mirror image (placement + side)
function M.identity(fen)
  local placement, side = fen:match("^(%S+)%s+(%S)")
  local m = M.mirror(placement)
  return (placement < m and placement or m) .. " " .. (side or "w")
end

local function side_swapped(fen)
  local placement = fen:match("^(%S+)")
  local side = fen:match("^%S+%s+(%S)")
  return placement .. " " .. ((side == "b") and "w" or "b") .. " - - 0 1"
end

-- tags(board) -> piece_theme (Red's attackers), tags
function M.tags(board)
  local c = board:census()
  local theme, tags = {}, {}
  for _, t in ipairs({ "R", "N", "C", "P" }) do if c.red[t] then theme[#theme + 1] = THEME[t] end end
  if not c.black.A and not c.black.B then tags[#tags + 1] = "bare_palace" end
  if c.black.count <= 3 then tags[#tags + 1] = "few_defenders" end
  return theme, tags
end

-- admit(fen, opts) -> case | nil, reason
-- opts: max_plies (11), min_plies (3), nodes (budget per search), checks_only,
--       engine (UCI engine running Fairy-Stockfish for xiangqi), engine_depth
function M.admit(fen, opts)
  opts = opts or {}
  local max_plies, min_plies = opts.max_plies or 11, opts.min_plies or 1
  local b, err = xq.new(fen)
  if not b then return nil, "bad FEN: " .. err end
  if b:side() ~= "red" then return nil, "Red must be to move" end
  if b:in_check() then return nil, "Red is in check at the start" end
  if b:status() ~= "ongoing" then return nil, "Red has no legal move" end
  -- the category first: it is the cheaper search, and a generator may only
  -- want one category (opts.want)
  local category, threat = "forced_mate", nil
  local bb = xq.new(side_swapped(b:fen()))
  if bb and bb:status() == "ongoing" then
    -- a cheap probe for a short threat first (most threats are mate in 1 or 3)
    local probe = xq.mate(bb, { plies = 3, nodes = 50000 })
    if probe.found then
      category, threat = "threatmate_race", probe.plies
    elseif opts.want and not opts.want("forced_mate") then
      return nil, "not wanted: no short threat by Black"
    else
      local t = xq.mate(bb, { plies = opts.threat_plies or max_plies, nodes = opts.nodes })
      if t.found then
        category, threat = "threatmate_race", t.plies
      elseif t.stopped then
        return nil, "Black's threat could not be decided within the node budget"
      end
    end
  end
  if opts.want and not opts.want(category) then return nil, "not wanted: " .. category end
  local r = xq.mate(b, { plies = max_plies, nodes = opts.nodes, checks_only = opts.checks_only })
  if r.stopped then return nil, string.format("no proof within the node budget (%d nodes)", r.nodes) end
  if not r.found then return nil, string.format("no forced mate for Red within %d plies", max_plies) end
  if r.plies < min_plies then return nil, string.format("mate in %d plies is shorter than %d", r.plies, min_plies) end
  local case = {
    fen = b:fen(), challenger = "red", category = category, win_in_plies = r.plies,
    defender_threat_in_plies = threat,
    first_winning_move = r.pv[1], solution_line = r.pv, legal_move_count = #b:moves(),
    verified_by = opts.checks_only and "solver_proof" or "builtin_proof",
    proof_nodes = r.nodes,
  }
  if opts.engine then
    local e = opts.engine
    e:send("ucinewgame")
    e:ready()
    e:send("position fen " .. b:fen())
    e:send("go depth " .. (opts.engine_depth or 20))
    local lines = e:read_until("^bestmove", opts.engine_timeout or 120)
    local mate
    for _, line in ipairs(lines) do
      local m = line:match(" score mate (%-?%d+)")
      if m then mate = tonumber(m) end
    end
    if mate and mate > 0 then case.engine_mate_plies = 2 * mate - 1 end
    case.engine = e.id.name
  end
  case.piece_theme, case.tags = M.tags(b)
  return case
end

-- ---- generator ----

local function squares_where(pred)
  local out = {}
  for r = 0, 9 do for f = 0, 8 do
    local sq = ("abcdefghi"):sub(f + 1, f + 1) .. r
    if pred(f, r) then out[#out + 1] = sq end
  end end
  return out
end

local PALACE = { red = squares_where(function(f, r) return f >= 3 and f <= 5 and r <= 2 end),
                 black = squares_where(function(f, r) return f >= 3 and f <= 5 and r >= 7 end) }
local ADVISOR = { red = { "d0", "f0", "e1", "d2", "f2" }, black = { "d9", "f9", "e8", "d7", "f7" } }
local ELEPHANT = { red = { "c0", "g0", "a2", "e2", "i2", "c4", "g4" }, black = { "c9", "g9", "a7", "e7", "i7", "c5", "g5" } }
local ANY = squares_where(function() return true end)
local RED_PAWN = squares_where(function(_, r) return r >= 5 end)          -- crossed: attacking
local BLACK_PAWN = squares_where(function(_, r) return r <= 4 end)
local BLACK_HALF = squares_where(function(_, r) return r >= 4 end)
local RED_HALF = squares_where(function(_, r) return r <= 5 end)
local NEAR_RED_PALACE = squares_where(function(f, r) return f >= 2 and f <= 6 and r <= 3 end)
local NEAR_BLACK_PALACE = squares_where(function(f, r) return f >= 2 and f <= 6 and r >= 6 end)

-- candidate(rng [, profile]) -> fen of a sparse position: Red to move, both
-- sides with attacking material, neither side in check, generals not facing
-- (or nil when the random placement broke a rule). profile "race" crowds both
-- palaces with attackers, which is where threat races come from.
-- placer(rng, pieces) -> place(letter, pool): puts a piece on a random free
-- square of pool, within the per-kind limits (false when it could not)
local function placer(rng, pieces)
  local used, count = {}, {}
  for _, p in ipairs(pieces) do used[p.square] = true; count[p.piece] = (count[p.piece] or 0) + 1 end
  return function(letter, pool)
    if (count[letter] or 0) >= (letter:upper() == "P" and 5 or letter:upper() == "K" and 1 or 2) then return false end
    for _ = 1, 20 do
      local sq = pool[rng(1, #pool)]
      if not used[sq] then
        used[sq] = true
        count[letter] = (count[letter] or 0) + 1
        pieces[#pieces + 1] = { square = sq, piece = letter }
        return true
      end
    end
    return false
  end
end

function M.candidate(rng, profile)
  local race = profile == "race"
  local pieces = {}
  local place = placer(rng, pieces)
  place("K", PALACE.red)
  place("k", PALACE.black)
  -- Red attackers (2-4), mostly in Black's half
  local red_pool = { "R", "R", "C", "C", "N", "N", "P", "P", "P" }
  for _ = 1, rng(race and 3 or 2, 4) do
    local t = red_pool[rng(1, #red_pool)]
    local near = race and rng(1, 3) > 1
    place(t, t == "P" and (near and NEAR_BLACK_PALACE or RED_PAWN)
      or (near and NEAR_BLACK_PALACE or (rng(1, 3) == 1 and ANY or BLACK_HALF)))
  end
  -- Black attackers (1-3), mostly close to Red's palace: a mating threat of
  -- its own is what makes a threat race
  local black_pool = { "r", "r", "c", "c", "n", "n", "p", "p", "p" }
  for _ = 1, rng(race and 2 or 1, 3) do
    local t = black_pool[rng(1, #black_pool)]
    local near = rng(1, 3) > 1 or race
    place(t, t == "p" and (near and NEAR_RED_PALACE or BLACK_PAWN) or (near and NEAR_RED_PALACE or RED_HALF))
  end
  for _ = 1, rng(0, 2) do place("a", ADVISOR.black) end
  for _ = 1, rng(0, 2) do place("b", ELEPHANT.black) end
  for _ = 1, rng(0, 1) do place("A", ADVISOR.red) end
  for _ = 1, rng(0, 1) do place("B", ELEPHANT.red) end
  local b = xq.from_pieces(pieces, "red")
  if not b or b:in_check() then return nil end
  return b:fen()
end

-- add_threat(fen, rng) -> the position with one or two more Black attackers
-- near Red's palace (or nil if that broke a rule). Turning an unopposed mate
-- into a threat race this way keeps Red's attack as it was.
function M.add_threat(fen, rng)
  local b = xq.new(fen)
  if not b then return nil end
  local pieces = b:pieces()
  local place = placer(rng, pieces)
  local pool = { "r", "c", "n", "p" }
  for _ = 1, rng(1, 2) do place(pool[rng(1, #pool)], NEAR_RED_PALACE) end
  local nb = xq.from_pieces(pieces, "red")
  if not nb or nb:in_check() then return nil end
  return nb:fen()
end

M.notation = notation
return M
