-- ChessArena continuations (issue 46, item 1): re-running the same command
-- after an interruption finishes the planned --games games (it used to play
-- --games more on every continuation); once the plan is recorded the same
-- command plays nothing, and --add-games starts a new plan.
-- slow: ChessArena runs killed mid-game and continued (left out by make check)
local t = require "tabula.testing"
local fs = require "tabula.fs"
local records = require "tabula.records"
local proc = require "tabula.c.proc"
local child = require "tests.child"
local test, T = t.suite()

local function ans(m) return "<answer><move>" .. m .. "</move></answer>" end

local function games_in(dir)
  return fs.kind(dir .. "/games.jsonl") and #(records.read(dir .. "/games.jsonl", { skip_bad = true })) or 0
end

test("--games 6 killed twice mid-game: the same command ends with 6 games, numbered 1 to 6", function()
  local mock = require "tests.mock"
  -- one model call per game (2 plies), each answered after 300 ms: a game is in flight when we kill
  local s = mock.start({ { match = "You play White. Moves so far: 0.", reply = ans("g1f3") }, { reply = ans("g8f6") } },
    { "--delay-ms", "300" })
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return { m = { provider = "openai-chat", model = "m",
    base_url = %q, optional_key = true } }]], s.url .. "/v1"))
  local arena = dir .. "/arena"
  local args = { "run", t.root() .. "/scenarios/chessarena", "--arena", arena, "--players", "m@blitz,random",
    "--start", "m@blitz", "--games", "6", "--analysis-depth", "0", "--max-moves", "2", "--models", dir .. "/models.lua", "--quiet" }
  for _, at in ipairs({ 2, 4 }) do
    local c = child.start(args)
    -- killed once `at` games are recorded and the next game's call has reached the server
    child.until_true(function() return games_in(arena) >= at and s:requests() > at end, 60, at .. " games and a call in flight")
    proc.signal(c.pid, 9)
    c:finish(30)
    t.ok(games_in(arena) < 6, "the run was killed before its plan was played")
  end
  local rc, out = child.run(args, 120)
  t.eq(rc, 0, out)
  local games = records.read(arena .. "/games.jsonl")
  local ids = {}
  for i, g in ipairs(games) do ids[i] = g.game_id end
  table.sort(ids)
  t.eq(ids, { "game-00001", "game-00002", "game-00003", "game-00004", "game-00005", "game-00006" })
  -- the plan is recorded: the same command again plays nothing and says so
  rc, out = child.run(args, 60)
  t.eq(rc, 0, out)
  t.eq(games_in(arena), 6)
  t.contains(out, "nothing to play (--add-games plays 6 more)")
  s:close()
end)

test("--add-games starts a new plan once the last one is recorded; an unfinished plan is finished first", function()
  local dir = t.tmpdir()
  local base = { "run", t.root() .. "/scenarios/chessarena", "--arena", dir, "--players", "random,stockfish:nodes=1",
    "--start", "random", "--analysis-depth", "0", "--max-moves", "2", "--quiet" }
  local function go(...)
    local args = { table.unpack(base) }
    for _, a in ipairs({ ... }) do args[#args + 1] = a end
    local rc, out = child.run(args, 60)
    t.eq(rc, 0, out)
    return out
  end
  t.need_program("/usr/games/stockfish")
  go("--games", "3")
  t.eq(games_in(dir), 3)
  go("--games", "3")
  t.eq(games_in(dir), 3, "the same command after a finished plan plays nothing")
  go("--games", "2", "--add-games")
  t.eq(games_in(dir), 5)
  -- a plan cut short (here: its last game's record removed, as if killed in it) is
  -- finished by --add-games before anything is added
  local lines = {}
  for l in fs.read(dir .. "/games.jsonl"):gmatch("[^\n]+") do lines[#lines + 1] = l end
  fs.write_atomic(dir .. "/games.jsonl", table.concat(lines, "\n", 1, 4) .. "\n")
  local out = go("--games", "2", "--add-games")
  t.contains(out, "continuing the arena's plan (game-00004 to game-00005): 1 of 2 games recorded")
  t.eq(games_in(dir), 5)
  local ids = {}
  for i, g in ipairs(records.read(dir .. "/games.jsonl")) do ids[i] = g.game_id end
  t.eq(ids[5], "game-00005")
  -- a larger --games extends the current plan
  go("--games", "4")
  t.eq(games_in(dir), 7)
end)

return T
