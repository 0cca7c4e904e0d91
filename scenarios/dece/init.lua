-- scenarios/dece — DECE: an arena of multi-player Eurogames for complete agent
-- configurations (../shared/specs/dece.md; seed paper ../shared/seeds/002_*.txt).
--
--   tabula run scenarios/dece                                   # Random, Heuristic, ISMCTS on the ten games
--     (one block: 30 matches; ISMCTS at 32 simulations, participants.lua's DEFAULT; measured
--     1 min 57 s on two free cores with `time ./tabula run scenarios/dece --out /tmp/x`)
--   tabula run scenarios/dece --participants parts.json --games azul,splendor --matches-per-game 48
--   tabula run scenarios/dece --participants parts.json --schedule schedule.json --out runs/x
--   tabula run scenarios/dece --participants parts.json --matched A,B --anchors X,Y --scenarios 12
--   tabula run scenarios/dece --games azul --seats 4 --workers 2 --shard 1/2 --out runs/x1
--   tabula report runs/x
--   tabula show runs/x azul-001                                    # each model participant's conversation
--
-- DECE runs on the runner (tabula.runner): each scheduled match is one trial of a fixed plan
-- (so --shard splits the schedule), its participants' model calls go through tabula.agent with
-- the run's budgets, timeouts and reply limits, and each match is one record in
-- RUN/matches.jsonl (match_id; the same records as before the runner). The run directory is
-- locked; a run of built-in players only is CPU-bound, so --workers defaults to the number of
-- cores (the matches draw their randomness from their own seeds, so the records do not depend
-- on the workers). An infrastructure error of a match is not written to matches.jsonl: the
-- match resumes from its event log (up to --retries times, then on the next run).
-- --seats is the number of seats per match (it was --players, which is refused naming it).
--
-- Games are Lua modules games/<name>/ against games/README.md's interface, found by name.
-- Participants: scenarios/dece/participants.lua (file format, harness options, manifest hash;
-- harness "protocol": "tools" plays through native tool calls, scenarios/dece/tools.lua, and a
-- participant with "model": "mcp" is an agent program's seat under `tabula mcp dece`);
-- an example with two harnesses of one model: scenarios/dece/participants.example.json.
-- Baseline cohorts as in the paper (6 matches per game, every LLM configuration an opponent
-- once per game, each baseline in every seat twice, the same seeds, seats and opponents for
-- each baseline): --baseline-cohort random,heuristic,ismcts [--anchors LLM1,...,LLM12]
-- (default opponents: every other participant; --matches-per-game, default 6).
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
local prompt = require "tabula.prompt"
local json = require "tabula.json"
local fs = require "tabula.fs"
local cli = require "tabula.cli"
local host = require "tabula.c.host"

local S = { name = "dece", summary = "DECE: multi-player Eurogames arena (PWS, Bradley-Terry Elo, cost frontiers)" }

S.options = {
  { "participants", "string", nil, "participants file (JSON; default: Random, Heuristic, ISMCTS)" },
  { "games", "list", { "azul", "splendor", "century", "7wonders", "carcassonne", "arknova", "brass", "burgundy", "harmonies", "wingspan" },
    "games (modules games/<name>/; default: the benchmark's ten)" },
  { "matches-per-game", "int", nil, "matches per game (a multiple of the number of participants; default: one block)" },
  { "seats", "int", 3, "seats per match (within the player range of every game chosen)" },
  { "schedule", "string", nil, "a schedule file (JSON, as written to RUN/schedule.json) instead of generating one" },
  { "matched", "list", nil, "matched study: the focal configurations compared" },
  { "anchors", "list", nil, "matched study: the fixed anchor opponents (seats - 1 of them)" },
  { "scenarios", "int", 4, "matched study: scenarios per game (setup seed and focal seat fixed)" },
  { "baseline-cohort", "list", nil, "baseline cohorts: these baselines in the same matches against the LLM configurations (--anchors, default the others)" },
  { "draws", "int", 5000, "bootstrap draws per game" },
  { "pin", "list", nil, "engine anchors: NAME=ELO pins a reference participant (e.g. ismcts=1500) in every game's Bradley–Terry Elo, so that runs share one scale (part of the run's identity)" },
  { "null-arm", "list", nil, "enter these participants a second time (NAME+null: the same configuration, other random streams); the robustness appendix shows the two copies' difference as the noise floor" },
  { "incomplete-games", "bool", false, "play games whose module says it is incomplete (G.incomplete), for development" },
  { "discard-damaged", "bool", false, "a match whose event log has a damaged line restarts from its seed (the log is kept beside it as .damaged)" },
}
S.defaults = { concurrency = 4 }
S.refuse = {
  model = "DECE's players are its participants: give each model in a --participants file (\"model\": \"openai:gpt-5.5\"; scenarios/dece/participants.example.json)",
  players = "DECE's seats per match are --seats (--players was renamed)",
  trials = "DECE plays each scheduled match once (--matches-per-game sets how many per game)",
  variant = "DECE's prompt sets belong to each participant's harness (give them in the participants file)",
}
S.records = { file = "matches.jsonl", id = "match_id", logs = "matches", files = { "schedule.json" },   -- (tabula merge joins shards)
  required = { "status", "game", "seats", "ranks" } }   -- a record without them is named and its match played again
-- the run's identity is the participants' manifests and the schedule (run.json's identity)
S.identity_options = { pin = true }   -- and the Elo anchors (--pin): another scale is another run

local function load_games(names, opts)
  local games, seen = {}, {}
  for _, g in ipairs(names) do
    if seen[g] then cli.fail("--games: %s is given twice (each game's matches are planned once)", g) end
    seen[g] = true
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
    if G.incomplete and not (opts and opts["incomplete-games"]) then
      cli.fail("--games: %s is incomplete (%s); give --incomplete-games to play it anyway", g, G.incomplete)
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
    if opts["baseline-cohort"] then
      local base, opponents = {}, {}
      for _, nme in ipairs(opts["baseline-cohort"]) do
        if not known[nme] then error("--baseline-cohort: unknown participant " .. nme, 0) end
        base[nme] = true
      end
      for _, nme in ipairs(opts.anchors or names) do
        if not known[nme] then error("--anchors: unknown participant " .. nme, 0) end
        if not base[nme] then opponents[#opponents + 1] = nme end
      end
      return schedule.baseline_cohort({ games = opts.games, baselines = opts["baseline-cohort"], opponents = opponents,
        matches_per_game = opts["matches-per-game"] or 6, players = opts.players, seed = opts.seed })
    end
    if opts.matched then
      for _, nme in ipairs(opts.matched) do if not known[nme] then error("--matched: unknown participant " .. nme, 0) end end
      for _, nme in ipairs(opts.anchors or {}) do if not known[nme] then error("--anchors: unknown participant " .. nme, 0) end end
      return schedule.matched({ games = opts.games, focal = opts.matched, anchors = opts.anchors or {}, scenarios = opts.scenarios,
        players = opts.seats, seed = opts.seed })
    end
    return schedule.balanced({ names = names, games = opts.games, matches_per_game = opts["matches-per-game"] or #names,
      players = opts.seats, seed = opts.seed })
  end)
  if not ok then cli.fail("%s", sch) end
  return sch
end

-- arena(opts) -> { parts, games, schedule }: what every process of the run plans from the
-- same options (kept per options table: plan, participants and setup share it)
local arenas = setmetatable({}, { __mode = "k" })

-- the run's sampling options, by setting name: what a model participant's file does not set
local SAMPLING_OPTIONS = { temperature = "temperature", ["top-p"] = "top_p", ["max-tokens"] = "max_tokens",
  ["reasoning-effort"] = "reasoning_effort", ["thinking-budget"] = "thinking_budget" }
local function sampling_defaults(opts)
  local out = {}
  for option, setting in pairs(SAMPLING_OPTIONS) do out[setting] = opts[option] end
  return out
end

local function arena(opts)
  if arenas[opts] then return arenas[opts] end
  local parts = participants.load(opts.participants, opts.models, sampling_defaults(opts), opts["null-arm"])
  for _, spec in ipairs(opts.pin or {}) do   -- --pin NAME=ELO: an anchor of the Elo scale (the report shifts to it)
    local nme = spec:match("^(.+)=%-?%d+%.?%d*$")
    if not nme then cli.fail("--pin %s: want NAME=ELO (e.g. ismcts=1500)", spec) end
    local found = false
    for _, p in ipairs(parts) do found = found or p.name == nme end
    if not found then cli.fail("--pin %s: %s is not a participant of this run", spec, nme) end
  end
  local run_sampling = false
  for option in pairs(SAMPLING_OPTIONS) do if opts[option] ~= nil then run_sampling = option end end
  if run_sampling then   -- taken by a model participant, or refused: never silently ignored
    local any = false
    for _, p in ipairs(parts) do if p.kind == "model" then any = true end end
    if not any then
      cli.fail("--%s: no participant of this run is a model (the built-in players take no sampling settings)", run_sampling)
    end
  end
  local games = load_games(opts.games, opts)
  if not opts.schedule then
    for _, g in ipairs(opts.games) do
      local r = games[g].players
      if opts.seats < r.min or opts.seats > r.max then
        cli.fail("--seats %d: %s is for %d to %d players", opts.seats, g, r.min, r.max)
      end
    end
  end
  local sch = make_schedule(opts, parts)
  for _, m in ipairs(sch.matches) do
    local G = games[m.game] or load_games({ m.game }, opts)[m.game]
    games[m.game] = G
    if #m.seats < G.players.min or #m.seats > G.players.max then
      cli.fail("match %s: %s is for %d to %d players", m.id, m.game, G.players.min, G.players.max)
    end
  end
  arenas[opts] = { parts = parts, games = games, schedule = sch }
  return arenas[opts]
end

-- participants(opts) -> the model participants, each with its own agent (the runner makes them)
function S.participants(opts)
  local out = {}
  for _, p in ipairs(arena(opts).parts) do
    if p.kind == "model" then
      local smp = p.manifest.sampling or {}
      -- the settings the run's options gave it (its file did not): refused by its model, an error
      local explicit = {}
      for option, setting in pairs(SAMPLING_OPTIONS) do
        if (p.sampling_from_run or {})[setting] then explicit[option] = true end
      end
      out[#out + 1] = { name = p.name, model = p.manifest.model, explicit = explicit, program = p.manifest.harness.program,
        settings = { temperature = smp.temperature, top_p = smp.top_p,
        max_tokens = smp.max_tokens, reasoning_effort = smp.reasoning_effort, thinking_budget = smp.thinking_budget } }
    end
  end
  return out
end

-- cpu_bound(opts): built-in players only (ISMCTS): a worker per core by default
function S.cpu_bound(opts)
  for _, p in ipairs(arena(opts).parts) do if p.kind == "model" then return false end end
  return true
end

-- weight(match, opts): the game's relative work per match (G.match_work), so the runner
-- starts the longest games first and no worker is left playing them alone at the end; a
-- game that has not measured its own starts first (its length is unknown)
function S.weight(m, opts)
  local G = arena(opts).games[m.game]
  return G and G.match_work or math.huge
end

-- plan(opts) -> the scheduled matches (trials), nil, what run.json keeps for the report
function S.plan(opts)
  local a = arena(opts)
  local manifests, order = {}, {}
  for i, p in ipairs(a.parts) do manifests[p.name] = { id = p.id, manifest = p.manifest }; order[i] = p.name end
  return a.schedule.matches, nil, {
    identity = { participants = manifests, schedule = fs.sha256(json.canonical(a.schedule)) },
    participants = manifests, order = order, games = opts.games, matches_planned = #a.schedule.matches,
    bootstrap = { draws = opts.draws, seed = 20260924 } }
end

-- begin(opts, dir): once the run directory is locked and its identity checked
function S.begin(opts, dir)
  fs.write_or_fail(dir .. "/schedule.json", json.encode(arena(opts).schedule, { pretty = true }) .. "\n")
end

-- setup(opts, env): the prompt sets of the model participants
function S.setup(opts, env)
  local a = arena(opts)
  local by_name, prompts = {}, {}
  for _, p in ipairs(a.parts) do
    by_name[p.name] = p
    if p.kind == "model" then
      local pdir = p.manifest.harness.prompts
      local dir = pdir:sub(1, 1) == "/" and pdir or (host.root .. "/" .. pdir)
      prompts[p.name] = prompt.set("dece", dir)
      if p.manifest.harness.protocol == "tools" then prompts[p.name].tools = prompt.set("dece", dir .. "/tools") end
      if p.manifest.harness.program then prompts[p.name].program = prompt.set("dece", dir .. "/program") end
    end
  end
  env.dece = { participants = by_name, prompts = prompts, games = a.games }
  return nil
end

-- play(m, env) -> the match record (scenarios/dece/match.lua)
function S.play(m, env)
  local d = env.dece
  return match.play({ dir = env.dir, participants = d.participants, agents = env.agents, prompts = d.prompts,
    games = d.games, discard_damaged = env.opts["discard-damaged"] }, m)
end

function S.report(dir) return report.write(dir) end

S.view = require "scenarios.dece.view"

-- tabula mcp dece: the participants whose model is "mcp" are the MCP client's seats
S.mcp = {}

return S
