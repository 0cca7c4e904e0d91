-- The fine-grained ChessArena tasks: ground truth, answer parsing and the
-- scorers on small hand-checked sets; puzzle files in every layout; scripted runs.
-- slow: the fine-grained tasks run through each play mode against the mock server (left out by make check)
local t = require "tabula.testing"
local tasks = require "scenarios.chessarena.tasks"
local records = require "tabula.records"
local json = require "tabula.json"
local fs = require "tabula.fs"
local test, T = t.suite()

test("basic understanding: tabula's ground truth equals the dataset's on every item", function()
  local dir = t.need_shared("chessarena")
  local items = records.read(dir .. "/chess_modeling_evaluation.jsonl")
  t.ok(#items >= 199)
  for _, it in ipairs(items) do
    local sq = it.prompt:match("Position:%s*(%a%d)")
    local mine = tasks.truth(it.fen, sq)
    local moves = {}
    for i, m in ipairs(it.ground_truth.legal_moves) do moves[i] = m end
    table.sort(moves)
    local piece = it.ground_truth.piece
    if piece == json.null then piece = nil end
    t.eq({ mine.piece, mine.legal_moves }, { piece, moves }, it.fen .. " " .. sq)
  end
end)

test("understanding answers: JSON blocks, bare objects, None, and the scorer", function()
  t.eq(tasks.parse_understanding('x\n```json\n{"piece": "N", "legal_moves": ["G1F3", "g1h3"]}\n```'),
    { piece = "N", legal_moves = { "g1f3", "g1h3" } })
  t.eq(tasks.parse_understanding("The answer: {'piece': None, 'legal_moves': []}"), { piece = nil, legal_moves = {} })
  t.eq(tasks.parse_understanding('{"piece": "None", "legal_moves": []}'), { piece = nil, legal_moves = {} })
  t.eq(select(2, tasks.parse_understanding("no json here")), "no JSON object in the reply")
  local s = tasks.score_understanding({
    { truth = { piece = "N", legal_moves = { "g1f3", "g1h3" } }, answer = { piece = "N", legal_moves = { "g1f3", "g1e2" } } },
    { truth = { piece = nil, legal_moves = {} }, answer = { piece = nil, legal_moves = {} } },
    { truth = { piece = "p", legal_moves = {} }, answer = { piece = "P", legal_moves = { "e7e5" } } },
    { truth = { piece = "K", legal_moves = { "e1e2" } }, answer = nil },
  })
  -- PMA 2/4; predicted 3 moves, 1 right; 3 true moves, 1 found
  t.eq({ s.n, s.pma }, { 4, 0.5 })
  t.near(s.precision, 1 / 3, 1e-12)
  t.near(s.recall, 1 / 3, 1e-12)
end)

test("generated items cover the two perturbations", function()
  local metrics = require "tabula.metrics"
  local items = tasks.generate({ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" }, metrics.rng(3))
  local kinds = {}
  for _, it in ipairs(items) do kinds[it.kind] = it end
  t.eq(kinds.empty.ground_truth, { legal_moves = {} })
  t.ok(kinds.other_side.ground_truth.piece:match("%l"), "a black piece")
  t.eq(kinds.other_side.ground_truth.legal_moves, {})
  t.ok(kinds.normal.ground_truth.piece:match("%u"))
end)

test("move selection: LR, TR and MAR on a hand-checked set", function()
  local s = tasks.score_selection({
    { q = { a = 0.9, b = 0.5, c = 0.4, d = 0.2 }, choice = "a" },   -- top, (0.9 - 0.5) / 0.5 = 0.8
    { q = { a = 0.6, b = 0.6, c = 0.3, d = 0.3, e = 0.2 }, choice = "e" }, -- legal, not top 3; (0.2 - 0.4) / 0.4 = -0.5
    { q = { a = 0.5, b = 0.5 }, choice = nil },                     -- illegal: Q = 0, (0 - 0.5)/0.5 = -1
  })
  t.eq({ s.n, s.lr, s.tr }, { 3, 2 / 3, 1 / 3 })
  t.near(s.mar, (0.8 - 0.5 - 1) / 3, 1e-12)
  t.near(tasks.WP.lichess(0), 0.5, 1e-12)
  t.near(tasks.WP.lichess(100), 1 / (1 + math.exp(-0.368208)), 1e-12)
  t.eq({ tasks.WP.lichess(0, 3), tasks.WP.lichess(0, -2) }, { 1, 0 })
end)

test("puzzle files in JSONL and all three CSV layouts; rating bands", function()
  local dir = t.need_shared("chessarena")
  local counts = {
    ["lichess_db_puzzle_sample_from_chessarena.csv"] = 1000,
    ["lichess_db_puzzle_9col_variant_header.csv"] = 3,
    ["lichess_db_puzzle_dailydate_variant_header.csv"] = 5,
    ["puzzles_1000_1400.jsonl"] = nil,
  }
  for f, n in pairs(counts) do
    local ps = tasks.load_puzzles(dir .. "/" .. f)
    t.eq(#ps, n, f)
    for _, p in ipairs(ps) do t.ok(p.id and p.fen and #p.moves >= 2 and p.rating, f) end
  end
  t.eq(#tasks.load_puzzles(dir .. "/puzzles_1000_1400.jsonl") > 100, true)
  t.eq({ tasks.band(420), tasks.band(1000), tasks.band(1399), tasks.band(2999) }, { "200-600", "1000-1400", "1000-1400", "2600-3000" })
end)

test("a scripted puzzle run: right moves, an alternative mate (only with --any-mate), a wrong move", function()
  local dir = t.tmpdir()
  -- p1: setup e1g2, then the solver must play f6g4 (then h5g4 after e2g4)
  local lines = {
    json.canonical({ PuzzleId = "p1", FEN = "r3k2r/pppn1pp1/3bpn2/7p/3P1P2/2N4q/PPP1B3/R1BQNRK1 w kq - 0 13",
      Moves = { "e1g2", "f6g4", "e2g4", "h5g4" }, Rating = 1329 }),
    -- p2: a mate in one stored as Ra8#, where Rb8# mates too
    json.canonical({ PuzzleId = "p2", FEN = "6k1/5ppp/8/8/8/8/8/RR4K1 b - - 0 1", Moves = { "g8h8", "a1a8" }, Rating = 700 }),
    json.canonical({ PuzzleId = "p3", FEN = "r3k2r/pppn1pp1/3bpn2/7p/3P1P2/2N4q/PPP1B3/R1BQNRK1 w kq - 0 13",
      Moves = { "e1g2", "f6g4", "e2g4", "h5g4" }, Rating = 2100 }),
  }
  fs.write_atomic(dir .. "/p.jsonl", table.concat(lines, "\n") .. "\n")
  local ans = function(m) return "<answer><move>" .. m .. "</move></answer>" end
  local replies = {
    json.canonical({ key = "p1/1", text = ans("f6g4") }), json.canonical({ key = "p1/1", text = "then hxg4" }),
    json.canonical({ key = "p2/1", text = ans("b1b8") }),
    json.canonical({ key = "p3/1", text = ans("h3h1") }),
  }
  fs.write_atomic(dir .. "/r.jsonl", table.concat(replies, "\n") .. "\n")
  for _, any in ipairs({ false, true }) do
    local out = dir .. (any and "/any" or "/exact")
    local args = { "--puzzles", dir .. "/p.jsonl", "--model", "replay:" .. dir .. "/r.jsonl", "--out", out, "--quiet" }
    if any then args[#args + 1] = "--any-mate" end
    t.run_scenario("scenarios/chess_puzzles.lua", args)
    local by = {}
    for _, r in ipairs(records.read(out .. "/trials.jsonl")) do by[r.puzzle_id] = r end
    t.eq(by.p1.solved, true)
    t.eq(#by.p1.steps, 2)
    t.eq(by.p2.solved, any, "another mate counts only with --any-mate")
    t.eq(by.p3.solved, false)
    t.eq(by.p3.steps[1].choice, "h3h1")
    t.contains(fs.read(out .. "/report.md"), any and "| all | 3 | 66.7% |" or "| all | 3 | 33.3% |")
  end
end)

-- a mock model server answering `reply`; returns its models file and a closer
local function mock_model(reply)
  local mock = require "tests.mock"
  local s = mock.start({ { reply = reply } })
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return { m = { provider = "openai-chat", model = "m",
    base_url = %q, optional_key = true } }]], s.url .. "/v1"))
  return dir, s
end

test("puzzles ask through the Blitz/Standard template with no hint", function()
  local dir, s = mock_model("<answer><move>a1a8</move></answer>")
  fs.write_atomic(dir .. "/p.jsonl", json.canonical({ PuzzleId = "p2", FEN = "6k1/5ppp/8/8/8/8/8/RR4K1 b - - 0 1",
    Moves = { "g8h8", "a1a8" }, Rating = 700 }) .. "\n")
  local ok, err = pcall(t.run_scenario, "scenarios/chess_puzzles.lua", { "--puzzles", dir .. "/p.jsonl", "--model", "m",
    "--models", dir .. "/models.lua", "--out", dir .. "/run", "--quiet" })
  local log = s:log()
  s:close()
  assert(ok, err)
  local msgs = json.decode(log[1].body).messages
  local P = require("tabula.prompt").set("chessarena")
  t.eq(msgs[1].content, require("scenarios.chessarena.prompts").system(P, "blitz", "white"))
  t.contains(msgs[2].content, "Position (FEN): 7k/5ppp/8/8/8/8/8/RR4K1 w - - 1 2")
  t.eq(msgs[2].content:find("Legal moves", 1, true), nil)
  for _, m in ipairs(msgs) do t.eq(m.content:lower():find("puzzle", 1, true), nil, "no hint that it is a puzzle") end
  t.eq(records.read(dir .. "/run/trials.jsonl")[1].solved, true)
end)

test("move selection end to end with Stockfish scoring every move", function()
  t.need_program("/usr/games/stockfish")
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/fens.txt", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\n")
  fs.write_atomic(dir .. "/r.jsonl", json.canonical({ text = "<answer><move>a1a8</move></answer>" }) .. "\n")
  t.run_scenario("scenarios/chess_move_selection.lua", { "--fens", dir .. "/fens.txt", "--model", "replay:" .. dir .. "/r.jsonl",
    "--out", dir .. "/run", "--quiet", "--engine-depth", "6" })
  local r = records.read(dir .. "/run/trials.jsonl")[1]
  t.eq(r.choice, "a1a8")
  t.eq(r.q_choice, 1, "mate is a certain win")
  local n = 0
  for _ in pairs(r.q) do n = n + 1 end
  t.eq(n, 17, "every legal move scored")
  local sm = json.read_file(dir .. "/run/summary.json")
  t.eq({ sm.lr, sm.tr }, { 1, 1 })
end)

test("move selection asks through each play mode's template; Blindfold with the real game's moves", function()
  t.need_program("/usr/games/stockfish")
  local arena_prompts = require "scenarios.chessarena.prompts"
  local P = require("tabula.prompt").set("chessarena")
  local game = { start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    moves = { "e2e4", "e7e5", "g1f3", "b8c6" }, white = "a", black = "b", result = "1/2-1/2" }
  for _, mode in ipairs({ "bullet", "blitz", "standard", "blindfold" }) do
    for _, legal in ipairs({ false, true }) do
      local dir, s = mock_model("<answer><move>b8c6</move></answer>")
      fs.mkdir_p(dir .. "/arena")
      fs.write_atomic(dir .. "/arena/games.jsonl", json.canonical(game) .. "\n")
      local args = { "--arena", dir .. "/arena", "--sample", "4", "--mode", mode, "--model", "m", "--models",
        dir .. "/models.lua", "--out", dir .. "/run", "--quiet", "--engine-depth", "1" }
      if legal then args[#args + 1] = "--legal" end
      local ok, err = pcall(t.run_scenario, "scenarios/chess_move_selection.lua", args)
      local log = s:log()
      s:close()
      assert(ok, err)
      t.eq(#log, 4, "the four positions of the game")
      local after3
      for _, entry in ipairs(log) do
        local msgs = json.decode(entry.body).messages
        if msgs[1].content:find("as Black", 1, true) and (#msgs > 2 or msgs[2].content:find("g1f3", 1, true)) then
          after3 = msgs
        end
        t.eq(msgs[1].content, arena_prompts.system(P, mode, msgs[1].content:find("as Black", 1, true) and "black" or "white"))
      end
      t.ok(after3, mode .. ": the position after 1. e4 e5 2. Nf3 was asked")
      local last = after3[#after3].content
      t.eq(last:find("Legal moves: ", 1, true) ~= nil, legal, mode .. " legal moves shown iff --legal")
      if mode == "blindfold" then
        t.eq(#after3, 4, "system, the opponent's first move, Black's own move, the opponent's reply")
        t.eq(after3[2].content, "You play Black. Your opponent's last move is e2e4.\nYour move?")
        t.eq(after3[3], { role = "assistant", content = "<answer><move>e7e5</move></answer>" })
        t.contains(last, "Your opponent's last move is g1f3.")
        t.eq(last:find("FEN", 1, true), nil)
      else
        t.eq(#after3, 2)
        t.contains(last, "Position (FEN): rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
        t.contains(last, "e2e4 e7e5 g1f3")
      end
    end
  end
end)

return T
