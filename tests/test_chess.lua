-- Chess rules: perft on the standard positions, a differential test against
-- Stockfish, SAN round trips on the 1000 ChessArena puzzles, tricky SAN inputs,
-- game endings, FEN errors, PGN.
-- slow: perft on the standard positions and move writing on 2,000 random positions (left out by make check)
local t = require "tabula.testing"
local chess = require "games.chess"
local records = require "tabula.records"
local test, T = t.suite()

local PERFT = {
  { chess.START, { 20, 400, 8902, 197281 } },
  { "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", { 48, 2039, 97862, 4085603 } },
  { "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", { 14, 191, 2812, 43238 } },
  { "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", { 6, 264, 9467, 422333 } },
  { "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", { 44, 1486, 62379, 2103487 } },
  { "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", { 46, 2079, 89890, 3894594 } },
}

test("perft on the standard positions to depth 4", function()
  for _, c in ipairs(PERFT) do
    local g = assert(chess.new(c[1]))
    t.eq({ g:perft(1), g:perft(2), g:perft(3), g:perft(4) }, c[2], c[1])
    t.eq(g:fen(), assert(chess.new(c[1])):fen(), "perft leaves the position alone")
  end
end)

test("FEN errors name the problem", function()
  local cases = {
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "the board has 7 ranks" },
    { "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7 has more than 8 squares" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "unknown piece letter 'X' in rank 1" },
    { "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "Black has 0 kings" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "the side to move must be w or b" },
    { "Pnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w KQkq - 0 1", "a pawn on a8" },
    { "4k3/8/8/8/8/8/8/4K2R w Z - 0 1", "bad castling field character 'Z'" },
    { "4k3/8/8/8/8/8/8/R3K3 b - - 0 1", nil },
    { "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "Black is in check but it is White's turn" },
  }
  for _, c in ipairs(cases) do
    local g, err = chess.new(c[1])
    if c[2] then t.eq(g, nil, c[1]); t.contains(err, c[2]) else t.ok(g, err) end
  end
end)

test("game endings: checkmate, stalemate, insufficient material, fivefold, 75 moves", function()
  local g = assert(chess.new())
  for _, m in ipairs({ "f2f3", "e7e5", "g2g4", "d8h4" }) do assert(g:play(m)) end
  t.eq(g:status(), "checkmate")
  t.eq(assert(chess.new("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")):status(), "stalemate")
  for _, fen in ipairs({ "8/8/4k3/8/8/4K3/8/8 w - - 0 1", "8/8/4k3/8/8/4KN2/8/8 w - - 0 1",
      "8/8/2b1k3/8/8/4KB2/8/8 w - - 0 1" }) do
    t.eq(assert(chess.new(fen)):status(), "insufficient_material", fen)
  end
  t.eq(assert(chess.new("8/8/3bk3/8/8/4KB2/8/8 w - - 0 1")):status(), "ongoing", "bishops on both colours")
  local r = assert(chess.new())
  for _ = 1, 4 do for _, m in ipairs({ "g1f3", "g8f6", "f3g1", "f6g8" }) do r:play(m) end end
  t.eq(r:status(), "fivefold_repetition")
  t.eq(select(3, r:counters()), 5)
  local h = assert(chess.new("8/8/4k3/8/8/4K3/4R3/8 w - - 149 90"))
  h:play("e2d2")
  t.eq(h:status(), "seventy_five_moves")
end)

test("SAN: every solution move of the 1000 puzzles round-trips UCI -> SAN -> UCI", function()
  local dir = t.need_shared("chessarena")
  local fs = require "tabula.fs"
  local n = 0
  for _, f in ipairs(fs.list(dir)) do
    if f:match("^puzzles_.*%.jsonl$") then
      for _, p in ipairs(records.read(dir .. "/" .. f, { lenient = true })) do
        local g = assert(chess.new(p.FEN))
        for _, u in ipairs(p.Moves) do
          local san = assert(g:san(u), p.PuzzleId .. " " .. u)
          t.eq(g:parse_move(san), u, p.PuzzleId .. " " .. san)
          assert(g:play(u))
          n = n + 1
        end
      end
    end
  end
  t.ok(n > 3000, n .. " moves")
end)

-- every legal move of a position: its UCI parses to itself, its SAN to it
local function check_all_moves(g, where)
  local n = 0
  for _, u in ipairs(g:moves()) do
    local got, why = g:parse_move(u)
    if got ~= u then error(string.format("%s: UCI %s parsed as %s (%s)", where, u, tostring(got), tostring(why))) end
    local san = assert(g:san(u))
    got, why = g:parse_move(san)
    if got ~= u then error(string.format("%s: SAN %s of %s parsed as %s (%s)", where, san, u, tostring(got), tostring(why))) end
    n = n + 1
  end
  return n
end

test("every legal move's UCI parses to itself and its SAN to it (random games, puzzles, promotions)", function()
  -- the reported cases: after 1.d4 d5 the knight's b1d2 (not "B1d2"), and b8d7 after 2.e3 Nf6
  local g = chess.new()
  for _, m in ipairs({ "d2d4", "d7d5" }) do g:play(m) end
  t.eq(g:parse_move("b1d2"), "b1d2")
  t.eq(g:parse_move("Bd2"), "c1d2")
  for _, m in ipairs({ "e2e3", "g8f6" }) do g:play(m) end
  g:play("g1f3")
  t.eq(g:parse_move("b8d7"), "b8d7")
  t.eq(g:parse_move("b7-b6"), "b7b6")
  local rng = require("tabula.metrics").rng(11)
  local positions, moves = 0, 0
  -- random games from the start and from promotion-rich positions
  local starts = { chess.START, "1n2k3/PPP5/8/8/8/8/6pp/K5N1 w - - 0 1", "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 1",
    "n1n4k/1P1P4/8/8/8/8/8/4K3 w - - 0 1" }
  for gi = 1, 24 do
    local game = assert(chess.new(starts[(gi - 1) % #starts + 1]))
    for ply = 1, 60 do
      if game:status() ~= "ongoing" then break end
      moves = moves + check_all_moves(game, "game " .. gi .. " ply " .. ply)
      positions = positions + 1
      local ms = game:moves()
      game:play(ms[rng(#ms)])
    end
  end
  local dir = t.shared_data("chessarena")
  if dir then
    for _, p in ipairs(records.read(dir .. "/puzzles_1400_1800.jsonl", { lenient = true })) do
      local pg = assert(chess.new(p.FEN))
      for i, u in ipairs(p.Moves) do
        if i > 3 then break end
        moves = moves + check_all_moves(pg, p.PuzzleId)
        positions = positions + 1
        assert(pg:play(u))
      end
    end
  end
  t.ok(positions > 1000, positions .. " positions")
  t.ok(moves > 20000, moves .. " moves")
end)

test("tricky SAN inputs are accepted when unambiguous and refused otherwise", function()
  local kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
  local cases = {
    { chess.START, "Nf3", "g1f3" }, { chess.START, "nf3", "g1f3" }, { chess.START, "Ng1f3", "g1f3" },
    { chess.START, "e4", "e2e4" }, { chess.START, "e2-e4", "e2e4" }, { chess.START, "e4!?", "e2e4" },
    { kiwi, "0-0", "e1g1" }, { kiwi, "O-O-O", "e1c1" }, { kiwi, "o-o", "e1g1" },
    { kiwi, "Qxh3", "f3h3" }, { kiwi, "gxh3", "g2h3" }, { kiwi, "Bxa6", "e2a6" },
    { "8/P7/8/8/8/8/8/k6K w - - 0 1", "a8Q", "a7a8q" }, { "8/P7/8/8/8/8/8/k6K w - - 0 1", "a8=N", "a7a8n" },
    { "8/P7/8/8/8/8/8/k6K w - - 0 1", "a8(R)", "a7a8r" },
    { "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6e.p.", "e5f6" },
    { "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6 e.p.", "e5f6" },
    { "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "ef6", "e5f6" },
  }
  for _, c in ipairs(cases) do
    local g = assert(chess.new(c[1]))
    t.eq(g:parse_move(c[2]), c[3], c[2])
  end
  local refused = {
    { "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2", "ambiguous" },        -- two knights reach d2
    { chess.START, "Nf4", "not a legal move" },
    { chess.START, "e5", "not a legal move" },
    { "8/P7/8/8/8/8/8/k6K w - - 0 1", "a8", "not a legal move" },     -- a promotion needs its piece
    { "4k3/8/8/8/8/8/1P6/B3K3 w - - 0 1", "b3", nil },                -- a pawn push, not the bishop
  }
  for _, c in ipairs(refused) do
    local g = assert(chess.new(c[1]))
    local u, why = g:parse_move(c[2])
    if c[3] then t.eq(u, nil, c[2]); t.contains(why, c[3]) else t.eq(u, "b2b3") end
  end
  -- "b" lowercase: the b-pawn and the bishop can both take on c3 -> SAN's reading, the pawn;
  -- lowercase for the bishop only where no pawn move reads so
  local amb = assert(chess.new("4k3/8/8/B7/8/2p5/1P6/4K3 w - - 0 1"))
  t.eq(amb:parse_move("bxc3"), "b2c3")
  t.eq(amb:parse_move("Bxc3"), "a5c3")
  t.eq(amb:parse_move("bb6"), "a5b6")
end)

test("SAN output: disambiguation, checks, mates, castling", function()
  local g = assert(chess.new("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"))
  t.eq(g:san("b1d2"), "Nbd2")
  t.eq(g:san("f1d2"), "Nfd2")
  local r = assert(chess.new("7k/8/8/8/R7/8/R7/4K3 w - - 0 1"))
  t.eq(r:san("a4a3"), "R4a3")
  t.eq(r:san("a2b2"), "Rb2")
  t.eq(r:san("a4h4"), "Rh4+")
  local m = assert(chess.new("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"))
  t.eq(m:san("a1a8"), "Ra8#")
  t.eq(assert(chess.new("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")):san("e1c1"), "O-O-O")
end)

test("PGN export with headers, a set-up position and Black to move first", function()
  local g = assert(chess.new("4k3/8/8/8/8/8/8/R3K3 b - - 0 30"))
  g:play("e8d7"); g:play("a1a7"); g:play("d7c6")
  local pgn = g:pgn({ White = "random", Black = "stockfish", Result = "1/2-1/2", Termination = "move limit" })
  t.contains(pgn, '[White "random"]')
  t.contains(pgn, '[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/R3K3 b - - 0 30"]')
  t.contains(pgn, '[Termination "move limit"]')
  t.contains(pgn, "30... Kd7 31. Ra7+ Kc6 1/2-1/2")
end)

test("legal moves agree with Stockfish on random positions", function()
  local bin = t.need_program("/usr/games/stockfish")
  local engine = require "tabula.engine"
  local e = engine.start({ name = "stockfish", argv = { bin }, timeout = 20 })
  e:uci({ Threads = 1 })
  math.randomseed(5)
  local checked = 0
  local starts = { chess.START }
  for _, c in ipairs(PERFT) do starts[#starts + 1] = c[1] end
  for _, fen in ipairs(starts) do
    for _ = 1, 50 do
      local g = assert(chess.new(fen))
      for _ = 1, math.random(0, 60) do
        local ms = g:moves()
        if #ms == 0 or g:status() ~= "ongoing" then break end
        g:play(ms[math.random(#ms)])
      end
      local theirs = e:perft_divide("position fen " .. g:fen(), 1)
      local mine = {}
      for _, u in ipairs(g:moves()) do mine[u] = 1 end
      t.eq(mine, theirs, g:fen())
      checked = checked + 1
    end
  end
  e:close()
  t.eq(checked, 350)
end)

-- Long algebraic ("Ng1-f3", "g1-f3", "Bc1xf4", "e7-e8=Q", "Ke1-g1") is that move, in free
-- text and inside the answer block; a reading naming no legal move is a parse error, never
-- another move (free text "Ng1-f3" was once read as the SAN "f3", the pawn's f2f3).
test("extract_move: every legal move of 2,000 random-play positions written in long algebraic", function()
  local rng = require("tabula.metrics").rng(29)
  local starts = { chess.START, "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 1", "1n2k3/PPP5/8/8/8/8/6pp/K5N1 w - - 0 1" }
  local positions, moves, wrong = 0, 0, 0
  local gi = 0
  while positions < 2000 do
    gi = gi + 1
    local g = assert(chess.new(starts[(gi - 1) % #starts + 1]))
    for _ = 1, 80 do
      if g:status() ~= "ongoing" or positions >= 2000 then break end
      positions = positions + 1
      local legal = g:moves(true)
      for k, mv in ipairs(legal) do
        local tail = (mv.capture and "x" or "-") .. mv.to .. (mv.promotion and ("=" .. mv.promotion) or "")
        local piece = mv.piece == "P" and "" or mv.piece
        local texts = { "After some thought I play " .. piece .. mv.from .. tail .. ", which keeps the balance.",
                        "<move>" .. piece .. mv.from .. tail .. "</move>" }
        if k % 5 == 0 then texts[#texts + 1] = "my move: " .. mv.from .. tail .. "+" end
        for _, text in ipairs(texts) do
          local got, kind, why = chess.extract_move(g, text)
          if got ~= mv.uci then
            error(string.format("%s in %s: %s (%s %s), not %s", text, g:fen(), tostring(got), tostring(kind), tostring(why), mv.uci), 0)
          end
          moves = moves + 1
        end
        -- the same squares with another piece's letter name no legal move: a parse error
        if k % 7 == 1 and not mv.castle then
          local other = mv.piece == "Q" and "R" or "Q"
          local got, kind = chess.extract_move(g, "I play " .. other .. mv.from .. tail .. " now")
          if got ~= nil or kind ~= "parse" then
            error(string.format("%s%s%s in %s read as %s (%s)", other, mv.from, tail, g:fen(), tostring(got), tostring(kind)), 0)
          end
          wrong = wrong + 1
        end
      end
      local ms = g:moves()
      g:play(ms[rng(#ms)])
    end
  end
  t.ok(moves > 100000, moves .. " moves")
  t.ok(wrong > 1000, wrong .. " wrong readings")
  -- the reported cases from the start position, and an empty origin square
  local g = chess.new()
  for text, want in pairs({ ["I like Ng1-f3"] = "g1f3", ["g1-f3 it is"] = "g1f3", ["so Nb1-c3."] = "b1c3",
                            ["<move>Ng1-f3</move>"] = "g1f3", ["ng1-f3"] = "g1f3", ["e2-e4, then Nf3 later"] = "g1f3",
                            ["the chain d4-e5 is far off; I play Nf3"] = "g1f3" }) do
    t.eq(chess.extract_move(g, text), want, text)
  end
  g:play("d2d4"); g:play("d7d5")
  t.eq(chess.extract_move(g, "I develop Bc1-f4"), "c1f4")
  t.eq(chess.extract_move(g, "first O-O is impossible, so Nf3"), "g1f3", "the last SAN-looking token, by position")
  local got, kind = chess.extract_move(g, "Nc3-d5 wins")
  t.eq({ got, kind }, { nil, "parse" }, "no knight on c3")
end)

-- a promotion in free-text UCI with an equals sign or a capital is that promotion (issue 43:
-- "e7e8=Q" once read as "e7e8", no legal move); the plain forms keep their reading
test("extract_move: free-text UCI promotions e7e8=Q, f2e1=B, e7e8Q read as the promotion", function()
  local w = assert(chess.new("3n3k/4P3/8/8/8/8/8/K7 w - - 0 1"))
  local b = assert(chess.new("7k/8/8/8/8/8/5p2/K3R3 b - - 0 1"))
  local cases = {
    { w, "I promote with e7e8=Q and win.", "e7e8q" },
    { w, "e7e8=N", "e7e8n" },
    { w, "The move is e7e8=q.", "e7e8q" },
    { w, "e7e8Q", "e7e8q" },
    { w, "e7e8q", "e7e8q" },
    { w, "e7d8=R!", "e7d8r" },
    { b, "f2e1=B", "f2e1b" },
    { b, "I take: f2e1=Q+", "f2e1q" },
    { b, "h8g7 first? no: f2e1=N", "f2e1n" },
  }
  for _, c in ipairs(cases) do t.eq(chess.extract_move(c[1], c[2]), c[3], c[2]) end
  local got, kind = chess.extract_move(w, "e7e8 then")
  t.eq({ got, kind }, { nil, "illegal" }, "a promotion with no piece named is still no move")
end)

return T
