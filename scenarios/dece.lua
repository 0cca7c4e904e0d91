-- scenarios/dece.lua — DECE: an arena of multi-player Eurogames for complete agent
-- configurations (../shared/specs/dece.md; seed paper ../shared/seeds/002_*.txt).
--
--   tabula run scenarios/dece.lua                                   # Random, Heuristic, ISMCTS on the five games
--   tabula run scenarios/dece.lua --participants parts.json --games azul,splendor --matches-per-game 48
--   tabula run scenarios/dece.lua --participants parts.json --schedule schedule.json --out runs/x
--   tabula run scenarios/dece.lua --participants parts.json --matched A,B --anchors X,Y --scenarios 12
--   tabula report runs/x
--
-- Games are Lua modules games/<name>/ against games/README.md's interface, found by name.
-- Participants: scenarios/dece/participants.lua (file format, harness options, manifest hash);
-- an example with two harnesses of one model: scenarios/dece/participants.example.json.
-- Baseline cohorts as in the paper (same seeds, seats and opponents for Random, Heuristic and
-- ISMCTS): --matched random,heuristic,ismcts --anchors LLM1,LLM2 --scenarios 6.
-- Schedules: scenarios/dece/schedule.lua (seat-balanced from --seed; matched studies).
-- Matches: scenarios/dece/match.lua (event logs, resume, the invalid-answer policy).
-- Scores and report: scenarios/dece/scores.lua, scenarios/dece/report.lua.
--
-- Choices where the spec is silent:
--  * Default policy for invalid answers (the reference study's): no retries, no fallback; the
--    seat forfeits, the match ends there, forfeiting seats share the last places, the others
--    keep the order of the game's standing at that point. Harness options retries/fallback
--    change it per participant; every invalid answer is counted in the report.
--  * ISMCTS: "18 search steps" bounds the actions of one simulation (tree plus rollout); a
--    simulation cut short is scored on the provisional standing (placement, plus a tenth for
--    the score gap to the leader).
--  * --matches-per-game must be a multiple of the number of participants (seat balance); the
--    default is one block (each participant once in each seat per game).
--  * The bootstrap uses the paper's seed 20260924 and --draws (default 5000) draws per game.
local participants = require "scenarios.dece.participants"
local schedule = require "scenarios.dece.schedule"
local match = require "scenarios.dece.match"
local report = require "scenarios.dece.report"
local records = require "tabula.records"
local models = require "tabula.models"
local agent = require "tabula.agent"
local prompt = require "tabula.prompt"
local loop = require "tabula.loop"
local json = require "tabula.json"
local fs = require "tabula.fs"
local cli = require "tabula.cli"
local host = require "tabula.c.host"

local S = { name = "dece", summary = "DECE: multi-player Eurogames arena (PWS, Bradley-Terry Elo, cost frontiers)", custom = true }

S.options = {
  { "participants", "string", nil, "participants file (JSON; default: Random, Heuristic, ISMCTS)" },
  { "games", "list", { "azul", "splendor", "century", "7wonders", "carcassonne" }, "games (modules games/<name>/)" },
  { "matches-per-game", "int", nil, "matches per game (a multiple of the number of participants; default: one block)" },
  { "players", "int", 3, "seats per match (within the player range of every game chosen)" },
  { "schedule", "string", nil, "a schedule file (JSON, as written to RUN/schedule.json) instead of generating one" },
  { "matched", "list", nil, "matched study: the focal configurations compared" },
  { "anchors", "list", nil, "matched study: the fixed anchor opponents (players - 1 of them)" },
  { "scenarios", "int", 4, "matched study: scenarios per game (setup seed and focal seat fixed)" },
  { "draws", "int", 5000, "bootstrap draws per game" },
}
S.defaults = { concurrency = 4 }

local function load_games(names)
  local games = {}
  for _, g in ipairs(names) do
    if not g:match("^[%w_]+$") or fs.kind(host.root .. "/games/" .. g .. "/init.lua") ~= "file" then
      cli.fail("--games: no game '%s' (a game is a folder games/<name>/ with init.lua)", g)
    end
    local G = require("games." .. g)
    for _, f in ipairs({ "setup", "observation", "render", "legal_actions", "apply", "current_seats", "is_terminal",
                         "ranking", "heuristic", "determinize" }) do
      if type(G) ~= "table" or type(G[f]) ~= "function" or type(G.players) ~= "table" then
        cli.fail("--games: games/%s is not a multi-player game of games/README.md's interface (no %s)", g,
          type(G) == "table" and type(G.players) ~= "table" and "players" or f)
      end
    end
    games[g] = G
  end
  return games
end

local function make_schedule(opts, parts)
  local names = {}
  for i, p in ipairs(parts) do names[i] = p.name end
  local known = {}
  for _, nme in ipairs(names) do known[nme] = true end
  if opts.schedule then
    local sch = json.read_file(opts.schedule)
    local err = schedule.check(sch, known)
    if err then cli.fail("%s: %s", opts.schedule, err) end
    return sch
  end
  local ok, sch = pcall(function()
    if opts.matched then
      for _, nme in ipairs(opts.matched) do if not known[nme] then error("--matched: unknown participant " .. nme, 0) end end
      for _, nme in ipairs(opts.anchors or {}) do if not known[nme] then error("--anchors: unknown participant " .. nme, 0) end end
      return schedule.matched({ games = opts.games, focal = opts.matched, anchors = opts.anchors or {}, scenarios = opts.scenarios,
        players = opts.players, seed = opts.seed })
    end
    return schedule.balanced({ names = names, games = opts.games, matches_per_game = opts["matches-per-game"] or #names,
      players = opts.players, seed = opts.seed })
  end)
  if not ok then cli.fail("%s", sch) end
  return sch
end

function S.run_custom(opts)
  local parts = participants.load(opts.participants, opts.models)
  local games = load_games(opts.games)
  if not opts.schedule then
    for _, g in ipairs(opts.games) do
      local r = games[g].players
      if opts.players < r.min or opts.players > r.max then
        cli.fail("--players %d: %s is for %d to %d players", opts.players, g, r.min, r.max)
      end
    end
  end
  local sch = make_schedule(opts, parts)
  for _, m in ipairs(sch.matches) do
    local G = games[m.game] or load_games({ m.game })[m.game]
    games[m.game] = G
    if #m.seats < G.players.min or #m.seats > G.players.max then
      cli.fail("match %s: %s is for %d to %d players", m.id, m.game, G.players.min, G.players.max)
    end
  end
  local dir = opts.out or string.format("runs/dece-%s", os.date("%Y%m%d-%H%M%S"))
  fs.mkdir_p(dir)
  local by_name, manifests = {}, {}
  for _, p in ipairs(parts) do by_name[p.name] = p; manifests[p.name] = { id = p.id, manifest = p.manifest } end
  local identity = { participants = manifests, schedule = fs.sha256(json.canonical(sch)) }
  if fs.kind(dir .. "/run.json") == "file" then
    local old = json.read_file(dir .. "/run.json")
    if json.canonical(old.identity or {}) ~= json.canonical(identity) then
      cli.fail("%s holds a different run (participants or schedule differ); use another --out", dir)
    end
  end
  local meta = { tabula_version = host.version, scenario = S.name, scenario_file = S.path, identity = identity,
    participants = manifests, order = (function() local o = {} for i, p in ipairs(parts) do o[i] = p.name end return o end)(),
    games = opts.games, options = opts, created = os.date("!%Y-%m-%dT%H:%M:%SZ"), matches_planned = #sch.matches,
    bootstrap = { draws = opts.draws, seed = 20260924 } }
  fs.write_or_fail(dir .. "/run.json", json.encode(meta, { pretty = true }) .. "\n")
  fs.write_or_fail(dir .. "/schedule.json", json.encode(sch, { pretty = true }) .. "\n")
  -- agents and prompt sets of model participants
  local agents, prompts = {}, {}
  for _, p in ipairs(parts) do
    if p.kind == "model" then
      local cfg = models.resolve(p.manifest.model, opts.models)
      if cfg.provider ~= "builtin" and not models.key(cfg) and not cfg.optional_key then
        cli.fail("participant %s needs the environment variable %s (see tabula models)", p.name, cfg.key_env)
      end
      local smp = p.manifest.sampling or {}
      agents[p.name] = agent.new(cfg, { cache_dir = dir .. "/cache", no_cache = opts["no-cache"], stream = opts.stream,
        max_attempts = opts["max-attempts"], settings = { temperature = smp.temperature, top_p = smp.top_p,
          max_tokens = smp.max_tokens, reasoning_effort = smp.reasoning_effort, thinking_budget = smp.thinking_budget } })
      local pdir = p.manifest.harness.prompts
      prompts[p.name] = prompt.set("dece", pdir:sub(1, 1) == "/" and pdir or (host.root .. "/" .. pdir))
    end
  end
  local arena = { dir = dir, participants = by_name, agents = agents, prompts = prompts, games = games }
  local done = {}
  for _, r in ipairs((records.read(dir .. "/matches.jsonl", { skip_bad = true }))) do done[r.match_id] = r end
  local pending = {}
  for _, m in ipairs(sch.matches) do if not done[m.match_id or m.id] then pending[#pending + 1] = m end end
  if #pending < #sch.matches and not opts.quiet then
    io.stderr:write(string.format("resuming: %d of %d matches already recorded\n", #sch.matches - #pending, #sch.matches))
  end
  local writer = records.writer(dir .. "/matches.jsonl")
  local finished, errors = 0, 0
  loop.map(pending, math.max(1, opts.concurrency), function(m)
    local rec
    for attempt = 0, opts.retries do
      local ok, r = pcall(match.play, arena, m)
      if ok then rec = r; break end
      if not (type(r) == "table" and r.infra) then error(r, 0) end
      io.stderr:write(string.format("match %s: infrastructure error%s: %s\n", m.id,
        attempt < opts.retries and ", resumed from its events" or ", left unfinished", tostring(r.message)))
    end
    finished = finished + 1
    if rec then
      writer:write(rec)
      if not opts.quiet then
        io.stderr:write(string.format("[%d/%d] %s %s: ranks %s (%s, D=%d)\n", finished, #pending, m.id,
          table.concat(m.seats, ","), table.concat(rec.ranks, ","), rec.status, rec.D))
      end
    else
      errors = errors + 1
    end
  end)
  writer:close()
  io.write(S.report(dir))
  return errors > 0 and 3 or 0
end

function S.report(dir) return report.write(dir) end

S.view = require "scenarios.dece.view"

return S
