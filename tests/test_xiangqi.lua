-- Xiangqi rules: perft against published counts, FEN errors, check, mate,
-- stalemate-as-loss, flying general, repetition, the reference datasets, and a
-- differential test of legal moves against Fairy-Stockfish.
local t = require "tabula.testing"
local xq = require "games.xiangqi"
local records = require "tabula.records"
local json = require "tabula.json"
local test, T = t.suite()

test("perft matches the published counts (all 12 positions to depth 4)", function()
  local dir = t.need_shared("xiangqi-perft")
  local n = 0
  for line in io.lines(dir .. "/perft.tsv") do
    if not line:match("^#") then
      local id, fen, d1, d2, d3, d4 = line:match("^(%S+)\t([^\t]+)\t(%d+)\t(%d+)\t(%d+)\t(%d+)")
      local b = assert(xq.new(fen))
      t.eq({ b:perft(1), b:perft(2), b:perft(3), b:perft(4) },
        { tonumber(d1), tonumber(d2), tonumber(d3), tonumber(d4) }, id)
      n = n + 1
    end
  end
  t.eq(n, 12)
end)

test("perft of the start position without the shared data", function()
  local b = xq.new()
  t.eq({ b:perft(1), b:perft(2), b:perft(3) }, { 44, 1920, 79666 })
  t.eq(b:fen(), xq.START, "perft leaves the board as it was")
end)

test("every FEN error has its own message", function()
  local cases = {
    { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w", "the board has 9 ranks, expected 10" },
    { "rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "rank 9 (the 1st line from the top) describes more than 9 files" },
    { "rnbakabn/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "rank 9 (the 1st line from the top) describes 8 files, expected 9" },
    { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", "rank 0 (the 10th line from the top) describes 8 files, expected 9" },
    { "rnbakabnr/9/1c5c1/p1p1x1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "unknown piece letter 'x' in rank 6 (the 4th line from the top)" },
    { "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "Black has no general (k)" },
    { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", "Red has more than one general" },
    { "4k4/9/9/9/9/9/9/9/9/K8 w", "Red general (K) on a0 is outside the palace" },
    { "4k4/9/9/9/9/9/9/9/9/3KA4 w", "Red advisor (A) on e0 is not on one of the palace's five advisor points" },
    { "4k4/9/9/9/9/9/9/9/9/3KB4 w", "Red elephant (B) on e0 is not on one of its seven elephant points" },
    { "3k5/9/9/9/4b4/9/9/9/9/4K4 w", "Black elephant (b) on e5 is not on one of its seven elephant points" },
    { "4k4/9/9/9/9/9/9/9/RR7/R2K5 w", "Red has 3 chariots (at most 2)" },
    { "4k4/9/9/9/9/9/9/9/9/3K5", "the side to move is missing" },
    { "4k4/9/9/9/9/9/9/9/9/3K5 x", "the side to move must be w (or r) for Red or b for Black, got 'x'" },
    { "4k4/9/9/9/9/9/9/9/9/4K4 w", "the generals face each other on file e" },
    { "3k5/3R5/9/9/9/9/9/9/9/4K4 w", "Black is in check but it is Red's turn" },
  }
  for _, c in ipairs(cases) do
    local b, err = xq.new(c[1])
    t.eq(b, nil, c[1])
    t.contains(err, c[2])
  end
  -- accepted variants: 'r' for Red, H/E letters, no move counters
  t.ok(xq.new("4k4/9/9/9/9/9/9/9/9/3K5 r"))
  t.eq(assert(xq.new("4k4/9/9/9/9/9/9/9/9/2EKH4 w")):fen(), "4k4/9/9/9/9/9/9/9/9/2BKN4 w - - 0 1")
end)

test("checkmate and stalemate both leave the side to move without moves", function()
  local mate = assert(xq.new("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1"))
  t.eq({ mate:status() }, { "no_moves", true })
  t.eq(#mate:moves(), 0)
  local stale = assert(xq.new("3k5/2R6/9/9/9/9/9/9/9/4K4 b - - 0 1"))
  t.eq({ stale:status() }, { "no_moves", false })
  local start = xq.new()
  t.eq({ start:status() }, { "ongoing", false })
end)

test("the flying general: a lone screen between the generals is pinned", function()
  local b = assert(xq.new("4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1"))
  t.eq(b:moves(), { "e0d0", "e0e1", "e0f0" })
  local ok, why = b:play("e5d7")
  t.eq(ok, nil)
  t.contains(why, "would leave Red's general in check or facing the other general")
  -- and a general may not step onto the open file facing the other
  local b2 = assert(xq.new("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"))
  t.eq(b2:moves(), { "d0d1" })
end)

test("check from every attacker, and gives_check", function()
  local cases = {
    { "4k4/9/9/9/4R4/9/9/9/9/3K5 b", true, "chariot on the file" },
    { "4k4/9/9/9/4C4/9/9/9/9/3K5 b", false, "cannon with no screen" },
    { "4k4/9/4p4/9/4C4/9/9/9/9/3K5 b", true, "cannon over a screen" },
    { "4k4/9/3N5/9/9/9/9/9/9/3K5 b", true, "horse" },
    { "4k4/3R5/3N5/9/9/9/9/9/9/3K5 b", false, "horse with its leg blocked" },
    { "4k4/4P4/9/9/9/9/9/9/9/3K5 b", true, "soldier in front" },
    { "3Pk4/9/9/9/9/9/9/9/9/3K5 b", true, "soldier beside" },
    { "4k4/9/9/9/9/9/9/9/9/4K4 b", nil, "facing generals are refused at parse time" },
  }
  for _, c in ipairs(cases) do
    local b, err = xq.new(c[1])
    if c[2] == nil then t.eq(b, nil, c[3])
    else
      t.ok(b, (err or "") .. " " .. c[3])
      t.eq(b:in_check(), c[2], c[3])
    end
  end
  local b = xq.new()
  t.eq(b:gives_check("h2e2"), false)
  local b2 = assert(xq.new("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"))
  t.eq(b2:gives_check("a0d0"), true)
  t.eq(b2:gives_check("a0a9"), true)
  t.eq(b2:gives_check("a0a1"), false)
  t.eq(b2:describe("a0d0"), "Red chariot a0-d0, check")
end)

test("illegal moves are refused with a reason and leave the board alone", function()
  local b = xq.new()
  local fen = b:fen()
  local cases = {
    { "h2h8", "the cannon on h2 cannot move to h8" },
    { "e5e6", "there is no piece on e5" },
    { "h7h0", "the piece on h7 is not Red's" },
    { "b0d1", "the horse on b0 cannot move to d1" },
    { "z1a1", "is not a move in ICCS coordinates" },
    { "c0e2x", "is not a move in ICCS coordinates" },
  }
  for _, c in ipairs(cases) do
    local ok, why = b:play(c[1])
    t.eq(ok, nil, c[1])
    t.contains(why, c[2])
  end
  t.eq(b:fen(), fen)
  t.ok(b:play("h2e2"))
  t.eq(b:side(), "black")
  t.eq(b:undo(), "h2e2")
  t.eq(b:fen(), fen)
  t.eq(b:undo(), nil)
end)

test("repetition without perpetual check is a draw", function()
  local b = assert(xq.new("5k3/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"))
  local line = { "a0a1", "f9f8", "a1a0", "f8f9", "a0a1", "f9f8", "a1a0" }
  for _, m in ipairs(line) do assert(b:play(m)); t.eq(b:repetition(), nil) end
  assert(b:play("f8f9"))
  local r = b:repetition()
  t.eq(r.result, "draw")
  t.eq(r.occurrences, 3)
  t.eq({ r.red_moves, r.red_checks, r.black_moves, r.black_checks }, { 4, 0, 4, 0 })
  t.contains(r.reason, "a draw")
end)

test("repetition with perpetual check: the checking side loses", function()
  local b = assert(xq.new("5k3/9/9/9/9/9/9/9/R8/3K5 w - - 0 1"))
  local line = { "a1f1", "f9e9", "f1e1", "e9f9", "e1f1", "f9e9", "f1e1", "e9f9" }
  for _, m in ipairs(line) do assert(b:play(m)) end
  t.eq(b:repetition(), nil)
  assert(b:play("e1f1"))
  local r = b:repetition()
  t.eq(r.result, "red_loses")
  t.eq({ r.red_moves, r.red_checks, r.black_moves, r.black_checks }, { 4, 4, 4, 0 })
  t.contains(r.reason, "Red gave check with every one of its 4 moves")
  local h = b:history()
  t.eq({ h[1].move, h[1].check, h[2].check }, { "a1f1", true, false })
end)

test("all 119 XiangqiBench cases load and their first winning move is legal", function()
  local dir = t.need_shared("xiangqibench")
  local cases = records.read(dir .. "/cases.jsonl")
  t.eq(#cases, 119)
  local odd = 0
  for _, c in ipairs(cases) do
    local b, err = xq.new(c.fen)
    t.ok(b, c.id .. ": " .. tostring(err))
    t.eq(b:side(), "red", c.id)
    t.ok(b:is_legal(c.first_winning_move), c.id .. " " .. c.first_winning_move)
    odd = odd + #b:soldier_findings()
  end
  t.eq(odd, 2, "two compositions have a Black soldier on its own back rank")
end)

test("every Jianghu108 position loads from its piece lists; all options are legal moves", function()
  local dir = t.need_shared("jianghu108")
  local data = json.read_file(dir .. "/江湖残局.json")
  t.eq(#data.problems, 108)
  local mark_mismatch = {}
  for _, p in ipairs(data.problems) do
    local b, err = xq.jianghu_board(p.Red, p.Black)
    t.ok(b, p.id .. ": " .. tostring(err))
    for i = 1, 4 do
      local text = p.options[i]:gsub("^[A-E]：", "")
      local m, info = xq.from_jianghu(b, text)
      t.ok(m, tostring(info))
      t.ok(b:is_legal(m), p.id .. " option " .. i .. " " .. text)
      if xq.to_jianghu(b, m):gsub("%s", "") ~= text:gsub("%s", "") then
        mark_mismatch[#mark_mismatch + 1] = p.id .. ":" .. string.char(64 + i)
      end
    end
  end
  -- the one option whose marks disagree with the move (兵E9 D9 gives check)
  t.eq(mark_mismatch, { "106:D" })
end)

local function random_positions(start_fen, n, plies, rng)
  local out = {}
  local b = assert(xq.new(start_fen))
  for _ = 1, n do
    local c = b:copy()
    for _ = 1, rng(0, plies) do
      local moves = c:moves()
      if #moves == 0 then break end
      c:play(moves[rng(1, #moves)])
    end
    out[#out + 1] = c
  end
  return out
end

test("notations round-trip on every legal move of random positions", function()
  math.randomseed(7)
  local positions = random_positions(xq.START, 40, 30, math.random)
  local n = 0
  for _, b in ipairs(positions) do
    for _, m in ipairs(b:moves()) do
      t.eq(xq.from_chinese(b, xq.to_chinese(b, m)), m, b:fen() .. " " .. m .. " " .. xq.to_chinese(b, m))
      t.eq(xq.from_wxf(b, xq.to_wxf(b, m)), m, b:fen() .. " " .. m .. " " .. xq.to_wxf(b, m))
      t.eq(xq.from_jianghu(b, xq.to_jianghu(b, m)), m)
      t.eq(xq.engine_to_iccs(xq.iccs_to_engine(m)), m)
      n = n + 1
    end
  end
  t.ok(n > 1000)
end)

test("traditional notation: known moves, tandem pieces and variant characters", function()
  local b = xq.new()
  t.eq(b:to_chinese("h2e2"), "炮二平五")
  t.eq(b:to_wxf("h2e2"), "C2.5")
  t.eq(b:to_chinese("b0c2"), "马八进七")
  t.eq(b:from_chinese("炮２平５"), "h2e2")
  t.eq(b:from_chinese("砲二平五"), "h2e2")
  t.eq(b:from_wxf("c2.5"), "h2e2")
  b:play("h2e2")
  t.eq(b:to_chinese("h9g7"), "马8进7")
  t.eq(b:from_chinese("馬8進7"), "h9g7")
  t.eq(b:to_wxf("h9g7"), "H8+7")
  t.eq(b:to_chinese("b7b0"), "炮2进7")
  local none, why = b:from_chinese("车9进3")
  t.eq(none, nil)
  t.contains(why, "not a legal move")
  -- two cannons on one file: front and rear
  local tb = assert(xq.new("3k5/9/9/9/9/9/4C4/4C4/9/5K3 w - - 0 1"))
  t.eq(tb:to_chinese("e3d3"), "前炮平六")
  t.eq(tb:to_chinese("e2d2"), "后炮平六")
  t.eq(tb:to_wxf("e3d3"), "C+.6")
  t.eq(tb:from_chinese("后炮平六"), "e2d2")
  t.eq(xq.iccs_to_engine("a9a8"), "a10a9")
end)

test("legal moves agree with Fairy-Stockfish on hundreds of positions", function()
  local bin = t.need_program("/usr/games/fairy-stockfish")
  local cases_dir = t.shared_data("xiangqibench")
  local engine = require "tabula.engine"
  local e = engine.start({ name = "fairy-stockfish", argv = { bin }, timeout = 20 })
  e:uci({ UCI_Variant = "xiangqi", Threads = 1 })
  local starts = { xq.START }
  if cases_dir then
    for _, c in ipairs(records.read(cases_dir .. "/cases.jsonl")) do starts[#starts + 1] = c.fen end
  end
  math.randomseed(11)
  local positions = {}
  for _, fen in ipairs(starts) do
    for _, b in ipairs(random_positions(fen, fen == xq.START and 100 or 3, 40, math.random)) do
      positions[#positions + 1] = b
    end
  end
  local checked = 0
  for _, b in ipairs(positions) do
    local theirs = e:perft_divide("position fen " .. b:fen(), 1)
    local mine = {}
    for _, m in ipairs(b:moves()) do mine[xq.iccs_to_engine(m)] = 1 end
    t.eq(mine, theirs, b:fen())
    checked = checked + 1
  end
  e:close()
  t.ok(checked >= (cases_dir and 400 or 100), "positions compared: " .. checked)
end)

return T
