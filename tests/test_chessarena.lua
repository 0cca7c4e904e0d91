-- ChessArena: Glicko-1 against values computed from the formulas, the RD
-- floor, competition sampling, and scripted games for every ending, forfeits,
-- bullet's rule and blindfold's conversation.
-- slow: ChessArena games against Stockfish and the mock server at several concurrencies (left out by make check)
local t = require "tabula.testing"
local rating = require "tabula.rating"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local test, T = t.suite()

test("Glicko-1 updates match the formulas computed by hand", function()
  local a, b = rating.update({ r = 1500, rd = 200 }, { r = 1400, rd = 30 }, 1)
  t.near(a.r, 1563.4320485813, 1e-6)
  t.near(a.rd, 175.2202335695, 1e-6)
  t.near(b.r, 1398.3425124717, 1e-6)
  t.eq(b.rd, 50, "the RD floor holds")
  local c, d = rating.update({ r = 1500, rd = 350 }, { r = 1500, rd = 350 }, 0.5)
  t.near(c.r, 1500, 1e-9)
  t.near(c.rd, 290.2305060911, 1e-6)
  t.eq(c.rd, d.rd)
end)

test("the RD never drops below the floor over many games", function()
  local tab = rating.table({ floor = 50 })
  for i = 1, 200 do tab:add("x", "y", i % 3 == 0 and "1/2-1/2" or "1-0") end
  t.eq(tab:get("x").rd, 50)
  t.eq(tab:get("y").rd, 50)
  t.eq({ tab:get("x").w, tab:get("x").d, tab:get("y").l }, { 134, 66, 134 })
end)

test("competition sampling picks the most informative opponent", function()
  local tab = rating.table()
  tab.players = {
    A = { id = "A", r = 1500, rd = 350, games = 0, w = 0, d = 0, l = 0 },
    B = { id = "B", r = 1500, rd = 60, games = 0, w = 0, d = 0, l = 0 },
    C = { id = "C", r = 1900, rd = 60, games = 0, w = 0, d = 0, l = 0 },
    D = { id = "D", r = 1450, rd = 300, games = 0, w = 0, d = 0, l = 0 },
  }
  t.near(tab:score("A", "B"), 0.3531655121294418, 1e-12)
  t.near(tab:score("A", "C"), 0.12067998569228425, 1e-12)
  t.near(tab:score("A", "D"), 0.24042153913463776, 1e-12)
  t.eq(tab:pick("A", { "A", "B", "C", "D" }), "B")
  local board = tab:leaderboard()
  t.eq({ board[1].id, board[2].id, #board }, { "C", "B", 2 }, "only RD <= 100 is shown")
  t.eq(#tab:leaderboard(true), 4)
end)

-- one scripted game: the model (over HTTP, through the mock server) answers with
-- `replies` in order; returns the game record
local function game(replies, opts)
  local mock = require "tests.mock"
  local rules = {}
  for i, r in ipairs(replies) do rules[i] = { reply = r, times = 1 } end
  local s = mock.start(rules)
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return { m = { provider = "openai-chat", model = "m",
    base_url = %q, optional_key = true } }]], s.url .. "/v1"))
  local player = "m@" .. (opts.mode or "blitz")
  local args = { "--arena", dir .. "/arena", "--players", player .. "," .. (opts.opponent or "random"),
    "--start", player, "--games", "1", "--analysis-depth", tostring(opts.analysis or 0), "--quiet",
    "--models", dir .. "/models.lua" }
  if opts.fen then args[#args + 1] = "--fen"; args[#args + 1] = opts.fen end
  for _, a in ipairs(opts.args or {}) do args[#args + 1] = a end
  local ok, err = pcall(t.run_scenario, "scenarios/chessarena.lua", args)
  local requests, log = s:requests(), s:log()
  s:close()
  if not ok then error(err, 0) end
  local games = records.read(dir .. "/arena/games.jsonl")
  t.eq(#games, 1)
  return games[1], requests, log, dir
end

local function ans(m) return "<answer><move>" .. m .. "</move></answer>" end

test("a checkmate, with SAN, PGN, per-move records and the top-move statistic", function()
  local g = game({ "Mate on the back rank. " .. ans("a1a8") }, { fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", analysis = 6 })
  if require("tabula.fs").kind("/usr/games/stockfish") then t.eq(g.per_move[1].top, true, "Ra8# is Stockfish's top move") end
  t.eq({ g.result, g.termination, g.plies }, { "1-0", "checkmate", 1 })
  t.eq(g.per_move[1].san, "Ra8#")
  t.eq({ g.per_move[1].attempts, g.per_move[1].legal }, { 1, true })
  t.contains(g.pgn, "1. Ra8# 1-0")
end)

test("'retry 5 times' is 5 attempts in all by default (ChessArena's logs); --move-retries 5 gives 1 + 5 = 6", function()
  local bad = { "I am not sure.", ans("e2e5"), "e9e4", ans("Nf4"), "pass", "resign" }
  local g, requests, log = game(bad, {})
  t.eq(requests, 5)
  t.eq({ g.result, g.termination }, { "0-1", "forfeit" })
  local m = g.per_move[1]
  t.eq({ m.attempts, m.parse_errors, m.illegal, m.forfeit }, { 5, 3, 2, true })
  t.contains(log[5].body, "Attempt 4 of 5.")
  g, requests = game(bad, { args = { "--move-retries", "5" } })
  t.eq(requests, 6)
  t.eq({ g.per_move[1].attempts, g.per_move[1].parse_errors, g.per_move[1].forfeit }, { 6, 4, true })
end)

-- ChessArena's total_moves counts plies: by default a game is drawn by the move limit
-- after 200 plies (not 400). Two scripted players replay a random 200-ply line that no
-- other rule ends.
test("the move limit is 200 plies by default, a draw named move_limit; --max-moves 6 stops at 6", function()
  local chess = require "games.chess"
  local rng = require("tabula.metrics").rng(5)
  local line
  for _ = 1, 200 do
    local g, ok = chess.new(), true
    line = {}
    for ply = 1, 201 do
      if g:status() ~= "ongoing" then ok = false; break end
      if ply == 201 then break end
      local ms = g:moves()
      line[ply] = ms[rng(#ms)]
      g:play(line[ply])
    end
    if ok then break end
    line = nil
  end
  assert(line, "no random 200-ply line")
  local replies = {}
  for i, u in ipairs(line) do replies[i] = ans(u) end
  local g, requests = game(replies, { opponent = "m@bullet" })
  t.eq({ g.result, g.termination, g.plies, requests }, { "1/2-1/2", "move_limit", 200, 200 })
  t.eq(g.moves, line)
  g = game({ ans("e2e4"), ans("e7e5"), ans("g1f3"), ans("b8c6"), ans("f1b5"), ans("a7a6") }, { opponent = "m@bullet", args = { "--max-moves", "6" } })
  t.eq({ g.termination, g.plies }, { "move_limit", 6 })
end)

test("every mode's system prompt: strategy, legal-move analysis, the six-line rules; Blitz and Standard share one", function()
  local arena_prompts = require "scenarios.chessarena.prompts"
  local P = require("tabula.prompt").set("chessarena")
  local texts = {}
  for _, mode in ipairs({ "bullet", "blitz", "standard", "blindfold" }) do
    local text = arena_prompts.system(P, mode, "white")
    texts[mode] = text
    t.contains(text, "playing a game of chess as White")
    t.contains(text, "When you are ahead, press your advantage")
    t.contains(text, "no counterplay and no chance of a draw")
    t.contains(text, "if a win is out of reach, use every resource to hold a draw")
    t.contains(text, "Go through the legal moves carefully")
    t.contains(text, "look at where your own pieces stand and move one of them")
    local rules = 0
    for line in text:gmatch("[^\n]+") do if line:match("^%- ") then rules = rules + 1 end end
    t.eq(rules, 6, mode .. ": the six-line rules reminder")
    t.eq(text:find("briefly", 1, true), nil)
  end
  t.eq(texts.blitz, texts.standard)
  t.contains(texts.blitz, "you may reason step by step for as long as you like")
  t.contains(texts.blindfold, "you may reason step by step for as long as you like")
  t.contains(texts.bullet, "no explanation, no analysis, no other words")
end)

test("the paper's sampling by default (0.2, top_p 1, 4096; 16384 with reasoning), each overridable", function()
  local function limit(b) return b.max_tokens or b.max_completion_tokens end
  local mate = { fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1" }
  local _, _, log = game({ ans("a1a8") }, mate)
  local body = json.decode(log[1].body)
  t.eq({ body.temperature, body.top_p, limit(body) }, { 0.2, 1, 4096 })
  _, _, log = game({ ans("a1a8") }, { fen = mate.fen, args = { "--reasoning-effort", "high" } })
  t.eq(limit(json.decode(log[1].body)), 16384)
  _, _, log = game({ ans("a1a8") }, { fen = mate.fen, args = { "--temperature", "0.7", "--top-p", "0.9", "--max-tokens", "100" } })
  body = json.decode(log[1].body)
  t.eq({ body.temperature, body.top_p, limit(body) }, { 0.7, 0.9, 100 })
end)

test("rates have all attempts as denominator: parse, illegal, forbidden and legal add up to 100%", function()
  local S = require("tabula.cmd.run").lib.load(t.root() .. "/scenarios/chessarena.lua")
  local g, _, _, dir = game({ "Clearly Ra8 mates. " .. ans("a1a8"), " ", ans("h1h8"), ans("a1a8") },
    { mode = "bullet", fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1" })
  t.eq(g.per_move[1].attempts, 4)
  local st = S.stats({ g })["m@bullet"]
  t.eq({ st.attempts, st.forbidden, st.parse_errors, st.illegal, st.legal }, { 4, 1, 1, 1, 1 })
  t.contains(S.report(dir .. "/arena", true, 50), "| m@bullet | checkmate 1 | 25.0% | 25.0% | 25.0% | 25.0% | 0.0% |")
end)

test("SAN is accepted when no UCI move is given", function()
  local g = game({ "I play <answer><move>Ra8#</move></answer>" }, { fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1" })
  t.eq(g.termination, "checkmate")
  local g2 = game({ "The rook goes to the eighth rank: Ra8" }, { fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1" })
  t.eq(g2.termination, "checkmate")
end)

test("bullet rejects any reasoning text, like an illegal move", function()
  local g = game({ "Clearly Ra8 mates. " .. ans("a1a8"), "  " .. ans("a1a8") .. "\n" },
    { mode = "bullet", fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1" })
  t.eq(g.termination, "checkmate")
  t.eq({ g.per_move[1].attempts, g.per_move[1].forbidden, g.per_move[1].legal }, { 2, 1, false })
end)

test("stalemate, insufficient material and the 75-move rule are draws", function()
  local s = game({ ans("f2f7") }, { fen = "7k/8/6K1/8/8/8/5Q2/8 w - - 0 1" })
  t.eq({ s.result, s.termination }, { "1/2-1/2", "stalemate" })
  local i = game({ ans("e3e2") }, { fen = "8/8/4k3/8/8/4K3/4p3/8 w - - 0 1" })
  t.eq({ i.result, i.termination }, { "1/2-1/2", "insufficient_material" })
  local f = game({ ans("e2d2") }, { fen = "8/8/4k3/8/8/4K3/4R3/8 w - - 149 90" })
  t.eq({ f.result, f.termination }, { "1/2-1/2", "seventy_five_moves" })
end)

test("fivefold repetition between two scripted players", function()
  local dir = t.tmpdir()
  local function script(name, cycle)
    local lines = {}
    for i = 1, 8 do lines[i] = json.canonical({ text = ans(cycle[(i - 1) % 2 + 1]) }) end
    fs.write_atomic(dir .. "/" .. name, table.concat(lines, "\n") .. "\n")
    return "replay:" .. dir .. "/" .. name .. "@blitz"
  end
  local w = script("w.jsonl", { "g1f3", "f3g1" })
  local b = script("b.jsonl", { "g8f6", "f6g8" })
  t.run_scenario("scenarios/chessarena.lua", { "--arena", dir .. "/arena", "--players", w .. "," .. b,
    "--start", w, "--games", "1", "--analysis-depth", "0", "--quiet" })
  local g = records.read(dir .. "/arena/games.jsonl")[1]
  t.eq({ g.result, g.termination, g.plies }, { "1/2-1/2", "fivefold_repetition", 16 })
end)

test("blindfold: one conversation with the model's own replies and the opponent's moves", function()
  local mock = require "tests.mock"
  local s = mock.start({ { match = "Your move?", reply = "I open. " .. ans("e2e4"), times = 1 },
    { reply = ans("d2d4") } })
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return { m = { provider = "openai-chat", model = "m",
    base_url = %q, optional_key = true } }]], s.url .. "/v1"))
  local ok, err = pcall(t.run_scenario, "scenarios/chessarena.lua", { "--arena", dir .. "/arena", "--players",
    "m@blindfold,random", "--start", "m@blindfold", "--games", "1", "--analysis-depth", "0", "--max-moves", "4",
    "--models", dir .. "/models.lua", "--quiet" })
  local log = s:log()
  s:close()
  assert(ok, err)
  local g = records.read(dir .. "/arena/games.jsonl")[1]
  t.eq({ g.termination, g.plies }, { "move_limit", 4 })
  t.eq(#log, 2)
  local second = json.decode(log[2].body).messages
  t.eq(#second, 4, "system, first user message, the model's reply, the opponent's move")
  t.eq(second[3].content, "I open. " .. ans("e2e4"))
  t.eq(second[4].content, "Your opponent's last move is " .. g.moves[2] .. ".\nYour move?")
  t.eq(second[1].content:find("FEN", 1, true), nil, "no FEN in blindfold")
end)

test("blindfold+legal lists the legal moves in every turn's message", function()
  local _, _, log = game({ "I open. " .. ans("e2e4"), ans("d2d4") }, { mode = "blindfold+legal", args = { "--max-moves", "4" } })
  t.eq(#log, 2)
  local first, second = json.decode(log[1].body).messages, json.decode(log[2].body).messages
  t.eq(first[2].content, "You play White.\nLegal moves: " .. table.concat(require("games.chess").new():moves(), " ") .. "\nYour move?")
  t.contains(second[4].content, "\nLegal moves: ")
  t.contains(second[4].content, " d2d4 ")
  t.eq(second[1].content:find("FEN", 1, true), nil, "no FEN in blindfold")
end)

local function colours_by_pair(games)
  local whites = {}
  for _, g in ipairs(games) do
    local a, b = g.white < g.black and g.white or g.black, g.white < g.black and g.black or g.white
    local k = a .. " vs " .. b
    whites[k] = whites[k] or { [a] = 0, [b] = 0 }
    whites[k][g.white] = whites[k][g.white] + 1
  end
  return whites
end

test("colours balance per pair of players at concurrency 1 and 8", function()
  t.need_program("/usr/games/stockfish")
  for _, conc in ipairs({ 1, 8 }) do
    local dir = t.tmpdir()
    t.run_scenario("scenarios/chessarena.lua", { "--arena", dir, "--players", "stockfish:nodes=1,stockfish:nodes=2,random",
      "--start", "stockfish:nodes=1", "--games", "8", "--max-moves", "4", "--analysis-depth", "0",
      "--concurrency", tostring(conc), "--quiet" })
    local games = records.read(dir .. "/games.jsonl")
    t.eq(#games, 8)
    local pairs_seen = 0
    for k, w in pairs(colours_by_pair(games)) do
      local n = {}
      for _, c in pairs(w) do n[#n + 1] = c end
      t.ok(math.abs(n[1] - n[2]) <= 1, string.format("concurrency %d, %s: White %d and %d times", conc, k, n[1], n[2]))
      pairs_seen = pairs_seen + 1
    end
    t.ok(pairs_seen >= 1)
  end
end)

test("a Stockfish player is sent the game from its start with every move", function()
  local S = require("tabula.cmd.run").lib.load(t.root() .. "/scenarios/chessarena.lua")
  local chess = require "games.chess"
  local sent
  local fake = { go = function(_, req) sent = req; return { bestmove = "g1f3" } end }
  local p = S.parse_player("stockfish:depth=3")
  local arena = setmetatable({ opts = { concurrency = 1 }, engines = { [p.id] = { with = function(_, fn) return fn(fake) end } } }, S.Arena)
  local g = chess.new()
  for _, m in ipairs({ "g1f3", "g8f6", "f3g1", "f6g8" }) do assert(g:play(m)) end
  local u = arena:engine_move({ game = g, start_fen = chess.START }, p)
  t.eq(u, "g1f3")
  t.eq(sent.fen, chess.START)
  t.eq(sent.moves, { "g1f3", "g8f6", "f3g1", "f6g8" })
  t.eq(sent.depth, 3)
end)

test("an arena run killed mid-game replays that game from its start with the cache", function()
  local mock = require "tests.mock"
  local proc = require "tabula.c.proc"
  local loop = require "tabula.loop"
  local s = mock.start({ { match = "Moves so far: 0.", reply = ans("e2e4") },
    { match = "Moves so far: 2.", reply = ans("d2d4"), delay_ms = 1500 } })
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return { m = { provider = "openai-chat", model = "m",
    base_url = %q, optional_key = true } }]], s.url .. "/v1"))
  local argv = { t.tabula_bin(), "run", t.root() .. "/scenarios/chessarena.lua", "--arena", dir .. "/arena",
    "--players", "m@blitz,random", "--start", "m@blitz", "--games", "1", "--analysis-depth", "0",
    "--max-moves", "4", "--models", dir .. "/models.lua", "--quiet" }
  local p = assert(proc.spawn(argv, "null"))
  local killed = false
  for _ = 1, 400 do
    loop.sleep(0.05)
    local second = 0
    for _, r in ipairs(s:log()) do if r.body:find("Moves so far: 2.", 1, true) then second = second + 1 end end
    if second > 0 then p:kill(9); killed = true; break end
  end
  p:reap(true)
  t.ok(killed, "killed while the model thought about its second move")
  t.eq(#records.read(dir .. "/arena/games.jsonl"), 0, "an unfinished game is not recorded")
  local h = io.popen(table.concat(argv, " ") .. " > /dev/null 2>&1; echo $?")
  t.eq(h:read("a"), "0\n")
  h:close()
  local games = records.read(dir .. "/arena/games.jsonl")
  t.eq(#games, 1)
  t.eq({ games[1].termination, games[1].moves[1], games[1].moves[3] }, { "move_limit", "e2e4", "d2d4" })
  local first, second = 0, 0
  for _, r in ipairs(s:log()) do
    if r.body:find("Moves so far: 0.", 1, true) then first = first + 1 end
    if r.body:find("Moves so far: 2.", 1, true) then second = second + 1 end
  end
  s:close()
  t.eq(first, 1, "the first call came from the cache the second time")
  t.eq(second, 2, "the call that was cut off was sent again")
end)

return T
