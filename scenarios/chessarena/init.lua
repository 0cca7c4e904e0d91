-- scenarios/chessarena — ChessArena: models play full chess games against
-- each other and reference players, rated with Glicko-1 (../shared/specs/chessarena.md).
--
--   tabula run scenarios/chessarena --arena arenas/main --players random,stockfish:skill=0 --game-count 10
--   tabula run scenarios/chessarena --arena arenas/main \
--       --players openai:gpt-5.5@blitz+legal,anthropic:claude-opus-4-7@bullet --game-count 30 --concurrency 4
--   tabula run scenarios/chessarena --arena arenas/main --game-count 0 --all    # the leaderboard only
--
-- Players (one leaderboard row each): "random"; "stockfish:skill=N" (Skill
-- Level N, depth 8), "stockfish:depth=N", "stockfish:nodes=N"; or a model with a
-- mode and the legal-moves flag: MODEL@MODE[+legal], MODE one of bullet, blitz,
-- standard, blindfold, MODEL anything --model takes (replay:FILE for scripted tests).
-- The arena directory keeps players.json and games.jsonl (every finished game,
-- fsynced); ratings are recomputed by replaying games.jsonl in order.
--
-- Choices where the spec is silent (options where it matters):
--  * The move limit counts plies, as ChessArena's total_moves does (its games end
--    by the limit well before 400 plies): --max-moves 200 = 200 plies, a draw
--    (termination move_limit); --max-moves 400 is the 200-full-move reading.
--  * Prompts (prompts/chessarena/): Blitz and Standard share one template that
--    lets the model think as long as it likes (the modes differ in budget, not
--    in that instruction); every mode's system prompt carries the strategy text
--    and the six-line rules reminder; +legal lists the legal moves in every
--    mode, Blindfold included.
--  * "Retry 5 times": ChessArena's own logs forfeit at total_attempts 5 with
--    max_retries 5, so a move gets 5 attempts in all before a forfeit: the first
--    and --move-retries 4 retries (default); --move-retries 5 is the 1 + 5 = 6
--    reading.
--  * Sampling: the paper's temperature 0.2, top_p 1 and 4096 new tokens (16384
--    when reasoning is turned on) unless --temperature/--top-p/--max-tokens say
--    otherwise.
--  * Rates: parse errors, illegal, forbidden and legal are shares of all
--    attempts (they add up to 100%, as in the paper).
--  * Bullet: any non-blank text outside the <answer> block is forbidden
--    reasoning, rejected like an illegal move. Standard asks for reasoning but
--    does not reject short replies (thinking models reason out of band).
--  * Colours alternate per pair of players: of the pair's games (the arena's
--    history and the games already started in this run, whatever the
--    concurrency), the player who had White less often takes White; on a tie
--    the initiating player does. Stockfish players get the game's moves.
--  * Top moves: Stockfish MultiPV 3 at --analysis-depth (default 10) on the
--    position before each model move; --analysis-depth 0 turns it off.
--  * A game interrupted mid-way is not recorded; re-running plays it again from
--    its start, with the response cache replaying the calls that had finished
--    (pairings and sample indices derive from the seed and the game number).
--
-- ChessArena runs on the runner (tabula.runner) with a plan that grows: a
-- planner called with the games finished so far pairs the next game from the
-- current ratings, so --shard is refused (each pairing depends on the games
-- before it). Each game is one trial and one record in games.jsonl (game_id;
-- the same records as before the runner); the arena directory is the run
-- directory (locked while a run plays; run.json describes the last run); each
-- model player's calls go through tabula.agent with the run's budgets,
-- timeouts and reply limits and are recorded in transcripts/, labelled by
-- player (tabula show ARENA game-00001). A run plays a plan of --games games,
-- numbered after the arena's games (ARENA/plan.json keeps where it starts):
-- re-running the same command after an interruption finishes that plan (the
-- games not yet recorded), and once it is recorded the same command plays
-- nothing; --add-games starts a new plan of --games games after it (an
-- unfinished plan is finished first). --trials and --variant are refused
-- (--games says how many games; the prompts are one folder, --prompts).
local chess = require "games.chess"
local rating = require "tabula.rating"
local records = require "tabula.records"
local metrics = require "tabula.metrics"
local prompt = require "tabula.prompt"
local arena_prompts = require "scenarios.chessarena.prompts"
local engine = require "tabula.engine"
local loop = require "tabula.loop"
local json = require "tabula.json"
local fs = require "tabula.fs"
local cli = require "tabula.cli"

local S = { name = "chessarena", summary = "ChessArena: LLM chess games rated with Glicko-1" }

S.options = {
  { "arena", "string", nil, "arena directory (created if missing; kept across runs)" },
  { "players", "list", nil, "players to add to the arena (see the header)" },
  { "anchor", "list", nil, "engine anchors: PLAYER=RATING pins a reference player (e.g. stockfish:depth=1=1200) at a fixed rating so that ratings of different runs share one scale" },
  { "null-arm", "list", nil, "enter these players a second time as PLAYER#null (the same configuration): the robustness appendix shows the two copies' difference as the noise floor" },
  { "game-count", "int", 10, "games of the run's plan: the same command continues an interrupted plan to this many games", min = 0 },
  { "games", "int", nil, "the old spelling of --game-count (in DECE --games names the games)", min = 0, hidden = true,
    renamed = "game-count", note = "note: ChessArena's --games N is now --game-count N (--games names the games in DECE); taken as --game-count" },
  { "add-games", "bool", false, "once the arena's last plan is recorded, start a new one of --game-count games (without it the same command plays nothing more)" },
  { "start", "string", nil, "the player who initiates every game (default: chosen at random)" },
  { "fen", "string", nil, "start games from this position instead of the initial one" },
  { "max-moves", "int", 200, "draw after this many plies (ChessArena's total_moves; 400: 200 full moves)" },
  { "move-retries", "int", 4, "retries after a rejected answer before a forfeit (4: ChessArena's 5 attempts in all; 5: the 1 + 5 reading)" },
  { "last-moves", "int", 10, "how many recent moves the prompt shows" },
  { "analysis-depth", "int", 10, "Stockfish depth for the top-move statistic (0: off)" },
  { "engine-timeout", "number", 120, "seconds Stockfish may take for one move or analysis", min = 0.001 },
  { "rd-floor", "number", 50, "Glicko RD floor" },
  { "all", "bool", false, "show every player in the leaderboard, not only RD <= 100" },
  { "prompts", "string", nil, "prompt folder (default prompts/chessarena)" },
}
S.defaults = { concurrency = 1 }
-- settle_options(opts): the count is --game-count (one name, one meaning:
-- --games names the games in DECE; ChessArena's --games N, the old spelling,
-- is taken for it with a note, tabula.cli's renamed); opts.games holds the
-- count the planner reads; then the paper's sampling unless given
function S.settle_options(opts)
  opts.games = opts["game-count"]
  arena_prompts.settle(opts)
end
S.records = { file = "games.jsonl", id = "game_id", required = { "number", "white", "black", "result" } }   -- a record without them is not a game: it is named and played again
S.refuse = {
  model = "ChessArena's players are --players (a model with its mode: --players openai:gpt-5.5@blitz,random)",
  out = "the arena directory is the run directory: give --arena DIR",
  trials = "ChessArena plays --game-count games per run (each pairing drawn from the current ratings)",
  variant = "ChessArena's prompts are one folder (--prompts); run another arena to compare prompt sets",
}
S.planner_reason = "each game's pairing is drawn from the ratings of the games finished before it"
-- what a continued arena must keep: how games are played (players and game counts may change)
S.identity_options = { ["max-moves"] = true, ["move-retries"] = true, ["last-moves"] = true, fen = true,
  ["analysis-depth"] = true, prompts = true, temperature = true, ["top-p"] = true, ["max-tokens"] = true,
  ["reasoning-effort"] = true, ["thinking-budget"] = true }

local STOCKFISH = "/usr/games/stockfish"
local MODES = { bullet = true, blitz = true, standard = true, blindfold = true }

-- parse_player(spec) -> { id, kind = "random"|"engine"|"llm", ... }
function S.parse_player(spec)
  -- SPEC#TAG: another player of the same configuration (a null arm's copy, --null-arm)
  local base, tag = spec:match("^(.-)#(%w+)$")
  if base then
    local p = S.parse_player(base)
    p.id, p.tag = spec, tag
    return p
  end
  if spec == "random" then return { id = spec, kind = "random" } end
  local how, n = spec:match("^stockfish:(%a+)=(%d+)$")
  if spec == "stockfish" then how, n = "depth", "8" end
  if how then
    if how ~= "skill" and how ~= "depth" and how ~= "nodes" then cli.fail("player %s: want stockfish:skill=N, depth=N or nodes=N", spec) end
    return { id = spec, kind = "engine", how = how, n = tonumber(n) }
  end
  local model, mode, legal = spec:match("^(.+)@(%a+)(%+?l?e?g?a?l?)$")
  if not model or not MODES[mode] or (legal ~= "" and legal ~= "+legal") then
    cli.fail("player '%s': want random, stockfish:skill=N|depth=N|nodes=N, or MODEL@MODE[+legal] (modes: bullet, blitz, standard, blindfold)", spec)
  end
  return { id = spec, kind = "llm", model = model, mode = mode, legal = legal == "+legal" }
end

-- ---- the arena on disk ----

function S.load_arena(dir)
  fs.mkdir_p(dir)
  local players = {}
  if fs.kind(dir .. "/players.json") == "file" then players = json.read_file(dir .. "/players.json") end
  local games = records.read(dir .. "/games.jsonl", { skip_bad = true })
  return players, games
end

-- anchors(list) -> { [id] = rating } from --anchor ID=RATING (a player of the arena pinned at
-- a fixed rating, e.g. stockfish:depth=1=1200: its rating and RD never move)
function S.anchors(list)
  local out = {}
  for _, a in ipairs(list or {}) do
    local id, r = a:match("^(.+)=(%-?%d+%.?%d*)$")
    if not id then cli.fail("--anchor %s: want PLAYER=RATING (e.g. stockfish:depth=1=1200)", a) end
    S.parse_player(id)
    out[id] = tonumber(r)
  end
  return out
end

-- arena_anchors(opts) -> the arena's anchors: kept in ARENA/anchors.json from the run that
-- first gave --anchor (part of the arena's identity: a later run giving others is refused in
-- one line; a run giving none keeps the arena's)
function S.arena_anchors(opts)
  local path = opts.arena .. "/anchors.json"
  local kept = fs.kind(path) == "file" and json.read_file(path) or nil
  if not opts.anchor then return kept or {} end
  local want = S.anchors(opts.anchor)
  if kept then
    if json.canonical(kept) ~= json.canonical(want) then
      cli.fail("--anchor: the arena %s is anchored at %s (%s); another scale is another arena", opts.arena,
        json.canonical(kept), path)
    end
    return kept
  end
  fs.mkdir_p(opts.arena)
  fs.write_or_fail(path, json.encode(want, { pretty = true }) .. "\n")
  return want
end

function S.ratings(games, floor, anchors)
  local t = rating.table({ floor = floor, anchors = anchors })
  for _, g in ipairs(games) do t:add(g.white, g.black, g.result) end
  return t
end

-- ---- move extraction ----

S.extract = chess.extract_move

-- ---- players at work ----

local Arena = {}
Arena.__index = Arena
S.Arena = Arena   -- for the tests

function Arena:engine_for(p)
  self.engines[p.id] = self.engines[p.id] or engine.pool(function()
    local options = { Threads = 1, Hash = 16 }
    if p.how == "skill" then options["Skill Level"] = p.n end
    return engine.uci({ name = p.id, argv = { STOCKFISH }, options = options, timeout = self.opts["engine-timeout"] or 120 })
  end, math.max(1, self.opts.concurrency))
  return self.engines[p.id]
end

-- llm_move(state, p, side) -> uci | nil (forfeit), info
function Arena:llm_move(st, p, side)
  local g, opts, P = st.game, self.opts, self.P
  local a = st.agents[p.id]
  local hist = g:history()
  local legal = p.legal and g:moves() or nil
  local conv
  if p.mode == "blindfold" then
    conv = st.blind[side]
    if not conv then
      conv = { { role = "system", content = arena_prompts.system(P, "blindfold", side, st.start_fen) },
        { role = "user", content = arena_prompts.blind_first(P, side, hist, legal) } }
      st.blind[side] = conv
    else
      conv[#conv + 1] = { role = "user", content = arena_prompts.blind_turn(P, hist[#hist], legal) }
    end
  else
    conv = { { role = "system", content = arena_prompts.system(P, p.mode, side) },
      { role = "user", content = arena_prompts.turn(P, g:fen(), side, hist, opts["last-moves"], legal) } }
  end
  local info = { player = p.id, attempts = 0, parse_errors = 0, illegal = 0, forbidden = 0, replies = {},
    usage = { input = 0, cached = 0, output = 0, reasoning = 0 }, cost = 0 }
  local max_attempts = 1 + opts["move-retries"]
  for attempt = 1, max_attempts do
    info.attempts = attempt
    local ctx = { key = st.id .. ":" .. p.id, sample = st.number * 100000 + #hist * 10 + attempt,
      legal_actions = g:moves(), rng = st.rng, format = function(u) return "<answer><move>" .. u .. "</move></answer>" end }
    local reply, err = a:reply(conv, ctx)
    if not reply then error(err, 0) end
    for k in pairs(info.usage) do info.usage[k] = info.usage[k] + ((reply.usage or {})[k] or 0) end
    info.cost = info.cost + (reply.cost or 0)
    info.replies[#info.replies + 1] = reply.text
    conv[#conv + 1] = require("tabula.agent").assistant(reply)
    local why
    if p.mode == "bullet" and arena_prompts.bullet_extra_text(reply.text) then
      info.forbidden = info.forbidden + 1
      why = "the reply has text besides the answer block (bullet allows the move only)"
    else
      local u, kind, reason = chess.extract_move(g, reply.text)
      if u then
        info.legal = attempt == 1
        return u, info
      end
      if kind == "parse" then info.parse_errors = info.parse_errors + 1 else info.illegal = info.illegal + 1 end
      why = reason
    end
    conv[#conv + 1] = { role = "user", content = P:fill("retry", { why = why, attempt = attempt, max_attempts = max_attempts }) }
  end
  if p.mode ~= "blindfold" then conv = nil end
  return nil, info
end

function Arena:engine_move(st, p)
  local r = self:engine_for(p):with(function(e)
    -- the game from its start, so that the engine sees repetitions
    return e:go({ fen = st.start_fen, moves = st.game:history(), depth = (p.how ~= "nodes") and (p.how == "depth" and p.n or 8) or nil,
      nodes = p.how == "nodes" and p.n or nil })
  end)
  return r.bestmove, { player = p.id, engine = true }
end

function Arena:top_moves(fen)
  local depth = self.opts["analysis-depth"]
  if depth <= 0 or not self.analysis then return nil end
  local r = self.analysis:with(function(e) return e:go({ fen = fen, depth = depth, multipv = 3 }) end)
  local top = {}
  for i = 1, 3 do if r.lines[i] and r.lines[i].pv then top[#top + 1] = r.lines[i].pv[1] end end
  return top
end

-- play(number, white, black, agents) -> the game record (agents: the model players', by id)
function Arena:play(number, white, black, agents)
  local start = self.opts.fen or chess.START
  local st = { game = assert(chess.new(start)), start_fen = start, blind = {}, number = number, agents = agents,
    id = string.format("game-%05d", number), rng = metrics.rng(self.opts.seed * 7919 + number) }
  local players = { white = S.parse_player(white), black = S.parse_player(black) }
  local moves, result, termination = {}, nil, nil
  local started = loop.now()
  while true do
    local status = st.game:status()
    local side = st.game:side()
    if status ~= "ongoing" then
      termination = status
      result = status == "checkmate" and (side == "white" and "0-1" or "1-0") or "1/2-1/2"
      break
    end
    if #st.game:history() >= self.opts["max-moves"] then termination, result = "move_limit", "1/2-1/2"; break end
    local p = players[side]
    local fen_before = st.game:fen()
    local t0 = loop.now()
    local u, info
    if p.kind == "random" then
      local ms = st.game:moves()
      u, info = ms[st.rng(#ms)], { player = p.id }
    elseif p.kind == "engine" then
      u, info = self:engine_move(st, p)
    else
      u, info = self:llm_move(st, p, side)
      if u then
        local top = self:top_moves(fen_before)
        if top then info.top = false; for _, m in ipairs(top) do if m == u then info.top = true end end end
      end
    end
    info.ply = #st.game:history() + 1
    info.side = side
    info.seconds = loop.now() - t0
    if not u then
      info.forfeit = true
      moves[#moves + 1] = info
      termination, result = "forfeit", side == "white" and "0-1" or "1-0"
      break
    end
    info.move = u
    info.san = st.game:san(u)
    moves[#moves + 1] = info
    assert(st.game:play(u))
  end
  local headers = { Event = "tabula ChessArena", Site = "tabula", Date = os.date("!%Y.%m.%d"), Round = tostring(number),
    White = white, Black = black, Result = result, Termination = termination }
  return { game_id = st.id, number = number, white = white, black = black, result = result, termination = termination,
    start_fen = start, moves = st.game:history(), plies = #st.game:history(), per_move = moves,
    pgn = st.game:pgn(headers, start), seconds = loop.now() - started }
end

-- ---- the run ----

-- colours(i, j, finished, started) -> white, black: the one of the pair who
-- had White less often against the other takes it; i on a tie
function S.colours(i, j, finished, started)
  local whites = { [i] = 0, [j] = 0 }
  local function count(g)
    if (g.white == i and g.black == j) or (g.white == j and g.black == i) then whites[g.white] = whites[g.white] + 1 end
  end
  for _, g in ipairs(finished) do count(g) end
  for _, g in pairs(started) do count(g) end
  if whites[i] <= whites[j] then return i, j end
  return j, i
end

-- player_ids(opts) -> the arena's players (players.json and --players), sorted
function S.player_ids(opts)
  local players = {}
  if fs.kind(opts.arena .. "/players.json") == "file" then players = json.read_file(opts.arena .. "/players.json") end
  local add = {}
  for _, spec in ipairs(opts.players or {}) do add[#add + 1] = spec end
  -- a null arm: the player entered again as PLAYER#null (the same configuration; its games,
  -- colours and samples its own), whose difference from the original is the noise floor
  for _, spec in ipairs(opts["null-arm"] or {}) do
    if not players[spec] then
      local listed = false
      for _, a in ipairs(add) do listed = listed or a == spec end
      if not listed then cli.fail("--null-arm %s: not a player of this arena (add it with --players)", spec) end
    end
    add[#add + 1] = spec .. "#null"
  end
  for _, spec in ipairs(add) do
    S.parse_player(spec)
    players[spec] = players[spec] or { added = os.date("!%Y-%m-%dT%H:%M:%SZ") }
  end
  local ids = {}
  for id in pairs(players) do ids[#ids + 1] = id end
  table.sort(ids)
  return ids, players
end

-- run_dir(opts) -> the arena directory (the run directory)
function S.run_dir(opts)
  if not opts.arena then cli.fail("give --arena DIR (the directory that keeps the arena's games)") end
  return opts.arena
end

-- participants(opts) -> the model players (each its own agent, with the run's sampling settings)
function S.participants(opts)
  S.run_dir(opts)
  local ids, players = S.player_ids(opts)
  local pins = S.arena_anchors(opts)   -- checked before any game: an anchor is one of the arena's players
  for id in pairs(pins) do
    if not players[id] then cli.fail("--anchor %s: not a player of this arena (add it with --players)", id) end
  end
  if opts.games > 0 and #ids < 2 then cli.fail("the arena needs at least two players (add some with --players)") end
  if opts.start and not players[opts.start] then cli.fail("--start %s is not a player of this arena", opts.start) end
  local out = {}
  for _, id in ipairs(ids) do
    local p = S.parse_player(id)
    if p.kind == "llm" then out[#out + 1] = { name = id, model = p.model } end
  end
  return out
end

-- setup(opts, env): this process's arena (engines, prompts), once
function S.setup(opts, env)
  local self = setmetatable({ opts = opts, dir = opts.arena, engines = {},
    P = prompt.set("chessarena", opts.prompts) }, Arena)
  if opts["analysis-depth"] > 0 and fs.kind(STOCKFISH) and next(env.agents or {}) then
    self.analysis = engine.pool(function()
      return engine.uci({ name = "stockfish-analysis", argv = { STOCKFISH }, options = { Threads = 1, Hash = 32 }, timeout = opts["engine-timeout"] or 120 })
    end, math.max(1, opts.concurrency))
  end
  env.chessarena = self
  return nil
end

function S.teardown(env)
  local self = env.chessarena
  for _, pool in pairs(self.engines) do pool:close() end
  if self.analysis then self.analysis:close() end
end

-- plan_of(opts, history) -> first, last, note: the game numbers of the run's
-- plan (first..last; nil when there is nothing to play) and a line to say.
-- ARENA/plan.json holds the first number of the arena's current plan: a plan
-- of --games games unfinished (a run interrupted) is continued by the same
-- command; a finished one is followed by a new plan only with --add-games.
-- An arena without plan.json (new, or from before plans) starts one after its
-- highest game number.
function S.plan_of(opts, history)
  local recorded, top = {}, 0
  for _, g in ipairs(history) do
    local n = math.tointeger(g.number) or tonumber(tostring(g.game_id):match("(%d+)$"))
    if n then recorded[n], top = true, math.max(top, n) end
  end
  local path = opts.arena .. "/plan.json"
  local ok, plan = false, nil
  if fs.kind(path) == "file" then ok, plan = pcall(json.read_file, path) end
  local first = ok and type(plan) == "table" and math.tointeger(plan.first) or nil
  if not first then return top + 1, top + opts.games, nil, recorded end
  local last, have = first + opts.games - 1, 0
  for n = first, last do if recorded[n] then have = have + 1 end end
  local range = string.format("game-%05d to game-%05d", first, last)
  if have < opts.games then
    return first, last, have > 0 and string.format("continuing the arena's plan (%s): %d of %d games recorded", range, have, opts.games)
      or nil, recorded
  end
  if opts["add-games"] then return top + 1, top + opts.games, nil, recorded end
  return nil, nil, string.format("the arena's plan of %d games (%s) is recorded; nothing to play (--add-games plays %d more)",
    opts.games, range, opts.games), recorded
end

-- planner(opts, env, dir) -> planner(finished), the number of games left to
-- play: each call pairs the next game of the plan (S.plan_of) that is not
-- recorded from the ratings of the arena's games and those finished in this
-- run; colours count the pair's finished games and those started (not yet
-- finished) in this run. Called once the arena is locked; players.json and
-- plan.json are written on the first call (after the run's identity is checked).
function S.planner(opts)
  local ids, players, history, started, number, first, last, recorded
  if opts.games > 0 then
    -- a record the runner refuses (no number, players or result: a damaged line) is played again
    local check = require("tabula.runner").checker("game_id", S.records.required)
    history = {}
    for _, g in ipairs(select(2, S.load_arena(opts.arena))) do
      if not check(g) then history[#history + 1] = g end
    end
    local note
    first, last, note, recorded = S.plan_of(opts, history)
    if note then io.stderr:write("chessarena: ", note, "\n") end
  end
  local left = 0
  for n = first or 1, last or 0 do if not recorded[n] then left = left + 1 end end
  return function(finished)
    if not ids then
      ids, players = S.player_ids(opts)
      fs.write_or_fail(opts.arena .. "/players.json", json.encode(players, { pretty = true }) .. "\n")
      if not first then return nil end
      fs.write_or_fail(opts.arena .. "/plan.json", json.encode({ first = first, games = opts.games }, { pretty = true }) .. "\n")
      number, started = first - 1, {}
    end
    if not first then return nil end
    while number < last and recorded[number + 1] do number = number + 1 end
    if number >= last then return nil end
    local games = {}
    for _, g in ipairs(history) do games[#games + 1] = g end
    for _, g in ipairs(finished) do games[#games + 1] = g; started[g.number] = nil end
    number = number + 1
    local n = number
    local t = S.ratings(games, opts["rd-floor"], S.arena_anchors(opts))
    local rng = metrics.rng(opts.seed * 104729 + n)
    local i = opts.start or ids[rng(#ids)]
    local j = t:pick(i, ids)
    local white, black = S.colours(i, j, games, started)
    started[n] = { white = white, black = black }
    return { { id = string.format("game-%05d", n), number = n, white = white, black = black } }
  end, left
end

-- play(trial, env) -> the game record
function S.play(trial, env)
  return env.chessarena:play(trial.number, trial.white, trial.black, env.agents or {})
end

-- ---- leaderboard and statistics ----

function S.stats(games)
  local st = {}
  local function get(id)
    st[id] = st[id] or { terminations = {}, attempts = 0, parse_errors = 0, illegal = 0, forbidden = 0, decisions = 0,
      legal = 0, legal_first = 0, analysed = 0, top = 0, won_plies = {}, lost_plies = {} }
    return st[id]
  end
  for _, g in ipairs(games) do
    for _, side in ipairs({ "white", "black" }) do
      local s = get(g[side])
      s.terminations[g.termination] = (s.terminations[g.termination] or 0) + 1
      local won = (side == "white" and g.result == "1-0") or (side == "black" and g.result == "0-1")
      local lost = (side == "white" and g.result == "0-1") or (side == "black" and g.result == "1-0")
      if won then table.insert(s.won_plies, g.plies) elseif lost then table.insert(s.lost_plies, g.plies) end
    end
    for _, m in ipairs(g.per_move or {}) do
      local s = get(m.player)
      if m.attempts then
        s.decisions = s.decisions + 1
        s.attempts = s.attempts + m.attempts
        s.parse_errors = s.parse_errors + (m.parse_errors or 0)
        s.illegal = s.illegal + (m.illegal or 0)
        s.forbidden = s.forbidden + (m.forbidden or 0)
        if not m.forfeit then s.legal = s.legal + 1 end     -- the attempt that gave the move
        if m.legal then s.legal_first = s.legal_first + 1 end
        if m.top ~= nil then s.analysed = s.analysed + 1; if m.top then s.top = s.top + 1 end end
      end
    end
  end
  return st
end

local function rate(a, b) return b > 0 and string.format("%.1f%%", 100 * a / b) or "-" end

-- pair_of(seen, g) -> the game's two players in order and n: it is the n-th game of the pair
-- with its White as White (the n-th games with each of them White form a colour-swapped pair)
local function pair_of(seen, g)
  local a, b = g.white, g.black
  if b < a then a, b = b, a end
  local key = a .. "\0" .. b .. "\0" .. g.white
  seen[key] = (seen[key] or 0) + 1
  return a, b, seen[key]
end

-- robustness(games, names) -> the robustness appendix (tabula.robustness) of the players'
-- score share (points per game): a game is a unit; the n-th game of two players with one of
-- them White and the n-th with the other White are a cluster (a colour-swapped pair); White's
-- points per game are the colour covariate. names: the players ranked (default: every player)
function S.robustness(games, names)
  local units, seen, all = {}, {}, {}
  for _, g in ipairs(games) do
    local w = ({ ["1-0"] = 1, ["0-1"] = 0, ["1/2-1/2"] = 0.5 })[g.result]
    if w then
      local a, b, nth = pair_of(seen, g)
      local contrib = { ["@white"] = { w, 1 } }
      all[g.white], all[g.black] = true, true
      for _, x in ipairs({ { g.white, w }, { g.black, 1 - w } }) do
        local e = contrib[x[1]] or { 0, 0 }
        e[1], e[2] = e[1] + x[2], e[2] + 1
        contrib[x[1]] = e
      end
      units[#units + 1] = { id = g.game_id or tostring(g.number), cluster = string.format("%s vs %s #%d", a, b, nth), contrib = contrib }
    end
  end
  if not names then
    names = {}
    for id in pairs(all) do names[#names + 1] = id end
    table.sort(names)
  end
  local isname, null_pairs = {}, {}
  for _, n in ipairs(names) do isname[n] = true end
  for _, n in ipairs(names) do
    local base = n:match("^(.*)#null$")
    if base and isname[base] then null_pairs[#null_pairs + 1] = { a = base, b = n } end
  end
  local r = require("tabula.robustness").analyse({ units = units, names = names, unit = "games", null_pairs = null_pairs,
    cluster = "colour-swapped pairs", covariates = { { key = "@white", label = "White's points per game (colour effect)", null = 0.5 } } })
  r.bt_effects = { S.colour_effect(games, names) }
  return r
end

S.COLOUR_DRAWS, S.COLOUR_SEED = 1000, 20260949

-- colour_bt(games, names) -> White's advantage in Elo points and the players' Elo (a
-- contextual Bradley–Terry: a term per player, centred, and one for White; draws count half)
local function colour_bt(games, names)
  local index, k = {}, #names
  for i, n in ipairs(names) do index[n] = i end
  local comps = {}
  for _, g in ipairs(games) do
    local w = ({ ["1-0"] = 1, ["0-1"] = 0, ["1/2-1/2"] = 0.5 })[g.result]
    local iw, ib = index[g.white], index[g.black]
    if w and iw and ib then comps[#comps + 1] = { x = { { iw, 1 }, { ib, -1 }, { k + 1, 1 } }, y = w, w = 1 } end
  end
  if #comps == 0 then return nil end
  local theta = require("tabula.bt").fit(k + 1, comps, { blocks = { { 1, k } } })
  local elo = {}
  for i, n in ipairs(names) do elo[n] = 400 * theta[i] / math.log(10) end
  return 400 * theta[k + 1] / math.log(10), elo
end
S.colour_bt = colour_bt

-- colour_effect(games, names) -> { label, value, lo, hi, draws, gap, larger_than_gap }: White's
-- advantage from the contextual Bradley–Terry fit, its 95% interval from a bootstrap of whole
-- colour-swapped pairs, and whether it exceeds the smallest gap between adjacent players
function S.colour_effect(games, names)
  local out = { label = "White's advantage (contextual Bradley–Terry colour term, Elo points)", draws = S.COLOUR_DRAWS }
  if #names < 2 then return out end
  local v, elo = colour_bt(games, names)
  if not v then return out end
  out.value = v
  local sorted = {}
  for _, n in ipairs(names) do sorted[#sorted + 1] = elo[n] end
  table.sort(sorted, function(a, b) return a > b end)
  for i = 1, #sorted - 1 do if not out.gap or sorted[i] - sorted[i + 1] < out.gap then out.gap = sorted[i] - sorted[i + 1] end end
  out.larger_than_gap = out.gap and math.abs(v) > out.gap or nil
  -- the clusters: the n-th game of two players with each of them White (as the appendix's)
  local clusters, order, seen = {}, {}, {}
  for _, g in ipairs(games) do
    local a, b, nth = pair_of(seen, g)
    local c = string.format("%s\0%s\0%d", a, b, nth)
    if not clusters[c] then clusters[c] = {}; order[#order + 1] = c end
    table.insert(clusters[c], g)
  end
  local rand = metrics.rng(S.COLOUR_SEED)
  local xs = {}
  for _ = 1, S.COLOUR_DRAWS do
    local sample = {}
    for _ = 1, #order do for _, g in ipairs(clusters[order[rand(#order)]]) do sample[#sample + 1] = g end end
    local x = colour_bt(sample, names)
    if x then xs[#xs + 1] = x end
  end
  table.sort(xs)
  if #xs > 0 then
    out.lo = xs[math.max(1, math.ceil(0.025 * #xs))]
    out.hi = xs[math.max(1, math.ceil(0.975 * #xs))]
  end
  return out
end

-- report(dir [, all, floor]) -> the leaderboard text; without all and floor,
-- those of the arena's last run (run.json), else RD <= 100 and floor 50
function S.report(dir, all, floor)
  if all == nil and floor == nil and fs.kind(dir .. "/run.json") == "file" then
    local o = (json.read_file(dir .. "/run.json") or {}).options or {}
    all, floor = o.all, o["rd-floor"]
  end
  local _, games = S.load_arena(dir)
  local anchors = S.arena_anchors({ arena = dir })
  local t = S.ratings(games, floor, anchors)
  local rows = t:leaderboard(all)
  local st = S.stats(games)
  local L = { string.format("ChessArena leaderboard (%d games; %s)", #games, all and "all players" or "players with RD <= 100"),
    "| player | rating | RD | 95% interval | games | W/D/L |", "|---|---|---|---|---|---|" }
  for _, r in ipairs(rows) do
    L[#L + 1] = string.format("| %s | %.0f%s | %.0f | [%.0f, %.0f] | %d | %d/%d/%d |", r.id, r.r, r.anchor and " (anchor)" or "",
      r.rd, r.lo, r.hi, r.games, r.w, r.d, r.l)
  end
  local pinned = {}
  for id, r in pairs(anchors) do pinned[#pinned + 1] = string.format("%s at %g", id, r) end
  table.sort(pinned)
  if #pinned > 0 then
    L[#L + 1] = ""
    L[#L + 1] = "Anchored scale: " .. table.concat(pinned, ", ") .. " (pinned: rating fixed, RD at the floor, never updated; the run's identity records it)."
  end
  L[#L + 1] = ""
  -- parse errors, illegal, forbidden and legal are shares of all attempts (they
  -- add up to 100%, as in the paper); legal first try is a share of decisions
  L[#L + 1] = "| player | terminations | parse errors | illegal | forbidden | legal | legal first try | top-3 | avg plies won / lost |"
  L[#L + 1] = "|---|---|---|---|---|---|---|---|---|"
  local ids = {}
  for id in pairs(st) do ids[#ids + 1] = id end
  table.sort(ids)
  for _, id in ipairs(ids) do
    local s = st[id]
    local terms = {}
    for k, v in pairs(s.terminations) do terms[#terms + 1] = k .. " " .. v end
    table.sort(terms)
    L[#L + 1] = string.format("| %s | %s | %s | %s | %s | %s | %s | %s | %s / %s |", id, table.concat(terms, ", "),
      rate(s.parse_errors, s.attempts), rate(s.illegal, s.attempts), rate(s.forbidden, s.attempts),
      rate(s.legal, s.attempts), rate(s.legal_first, s.decisions), rate(s.top, s.analysed),
      #s.won_plies > 0 and string.format("%.1f", metrics.mean(s.won_plies)) or "-",
      #s.lost_plies > 0 and string.format("%.1f", metrics.mean(s.lost_plies)) or "-")
  end
  local names = {}
  for i, r in ipairs(rows) do names[i] = r.id end
  local robust = S.robustness(games, names)
  L[#L + 1] = ""
  for _, line in ipairs(require("tabula.robustness").markdown(robust, "Robustness (score share: points per game)")) do L[#L + 1] = line end
  local text = table.concat(L, "\n") .. "\n"
  fs.write_or_fail(dir .. "/leaderboard.md", text)
  local summary = { leaderboard = t:leaderboard(true), stats = st, games = #games, robustness = robust,
    anchors = next(anchors) and anchors or nil }
  fs.write_or_fail(dir .. "/summary.json", json.encode(summary, { pretty = true }) .. "\n")
  return text
end

S.view = require "scenarios.chessarena.view"

return S
