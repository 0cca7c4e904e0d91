-- tabula run SCENARIO.lua [options] — run a benchmark scenario.
-- Common options are declared here; the scenario declares its own (see
-- `tabula run SCENARIO.lua --help`). Records go to --out (default
-- runs/<scenario>-<date>); an existing --out is continued.
local cli = require "tabula.cli"
local fs = require "tabula.fs"
local json = require "tabula.json"
local loop = require "tabula.loop"
local host = require "tabula.c.host"
local models = require "tabula.models"
local agent = require "tabula.agent"
local runner = require "tabula.runner"
local budget = require "tabula.budget"
local metrics = require "tabula.metrics"
local failures = require "tabula.failures"

local M = {}

M.COMMON = {
  { "model", "string", "engine", "model: provider:name, local:URL:name, a models.lua name, engine, random, replay:FILE, human" },
  { "models", "string", nil, "models file (default ./models.lua)" },
  { "out", "string", nil, "run directory (default runs/<scenario>-<time>); an existing one is continued" },
  { "trials", "int", 3, "trials per case and setting", min = 1 },
  { "concurrency", "int", 8, "trials at once", min = 1 },
  { "seed", "int", 1, "seed for the built-in players and sampling" },
  { "retries", "int", 2, "times an infrastructure error is re-queued before it is recorded as error", min = 0 },
  { "no-cache", "bool", false, "do not read or write the response cache" },
  { "stream", "bool", false, "stream replies (server-sent events)" },
  { "temperature", "number", nil, "sampling temperature" },
  { "top-p", "number", nil, "nucleus sampling" },
  { "max-tokens", "int", nil, "maximum output tokens" },
  { "reasoning-effort", "string", nil, "reasoning effort: none, minimal, low, medium, high, xhigh, max (mapped onto the model's own switch: README, Models)" },
  { "thinking-budget", "int", nil, "thinking budget in tokens (a budget for models that take one, else mapped to an effort or level)" },
  { "no-prompt-cache", "bool", false, "no prompt-cache breakpoints (Anthropic cache_control) nor OpenAI prompt_cache_key" },
  { "max-attempts", "int", 6, "HTTP attempts per call", min = 1 },
  { "quiet", "bool", false, "no progress lines" },
  { "verbose", "bool", false, "a progress line per finished trial (the default when stderr is not a terminal)" },
  { "dry-run", "bool", false, "print the first request of the first trials, and per model the planned calls, prompt tokens and worst-case cost; then stop (no model is called)" },
  { "no-transcripts", "bool", false, "do not record what the model was sent and answered (transcripts/)" },
  { "workers", "int", nil, "worker processes playing trials (default: the number of cores for the built-in engine player, else 1)", min = 1 },
  { "shard", "string", nil, "K/N: run only the K-th of N slices of the plan (join the shards with tabula merge)" },
  { "accept-changes", "bool", false, "continue a run although its prompts, scenario file or options changed (recorded in run.json)" },
  { "report-every", "number", 300, "seconds between rewrites of report.html during the run (a shorter run is not touched; 0: never)", min = 0 },
  { "no-html", "bool", false, "at the end write report.md and summary.json only, not report.html (`tabula report RUN` writes it later: minutes for a study of hundreds of DECE matches)" },
}
for _, o in ipairs(failures.OPTIONS) do M.COMMON[#M.COMMON + 1] = o end
for _, o in ipairs(require("tabula.variants").OPTIONS) do M.COMMON[#M.COMMON + 1] = o end
for _, o in ipairs(budget.OPTIONS) do M.COMMON[#M.COMMON + 1] = o end
for _, o in ipairs(require("tabula.batch").OPTIONS) do M.COMMON[#M.COMMON + 1] = o end

-- options that change how a run runs, not what it measures: they may differ
-- when a run is continued
M.HOW = { out = true, concurrency = true, quiet = true, retries = true, ["max-attempts"] = true,
  ["no-transcripts"] = true, workers = true, ["accept-changes"] = true, verbose = true, ["dry-run"] = true,
  ["max-cost"] = true, ["max-calls"] = true, ["max-run-tokens"] = true, ["report-every"] = true, ["no-html"] = true, ["no-prompt-cache"] = true,
  batch = true, ["batch-min"] = true, ["batch-wait"] = true, ["batch-poll"] = true }

-- parse_shard("K/N") -> k, n (or a one-line error)
function M.parse_shard(text)
  local k, n = tostring(text):match("^(%d+)/(%d+)$")
  k, n = tonumber(k), tonumber(n)
  if not k or n < 1 or k < 1 or k > n then
    cli.fail("--shard: '%s' is not K/N with 1 <= K <= N (e.g. --shard 2/4)", tostring(text))
  end
  return k, n
end

-- shard(trials, text) -> the K-th of N slices: the trials at plan positions
-- K, K+N, K+2N, ... (so every shard holds every kind of case)
function M.shard(trials, text)
  if not text then return trials end
  local k, n = M.parse_shard(text)
  local out = {}
  for i, t in ipairs(trials) do
    if (i - 1) % n == k - 1 then out[#out + 1] = t end
  end
  return out
end

-- find(name) -> the scenario file: a path (as given, or under tabula's root), or
-- a name: scenarios/NAME.lua or scenarios/NAME/init.lua here, then under the root
function M.find(name)
  local tries = { name, host.root .. "/" .. name }
  -- a benchmark is a folder: scenarios/NAME (or the older spelling scenarios/NAME.lua,
  -- kept so that commands and run.json files written before the folders still work)
  local folder = name:gsub("/+$", ""):gsub("%.lua$", "")
  for _, base in ipairs({ "", host.root .. "/" }) do tries[#tries + 1] = base .. folder .. "/init.lua" end
  if not name:find("/", 1, true) and not name:match("%.lua$") then
    for _, base in ipairs({ ".", host.root }) do
      tries[#tries + 1] = base .. "/scenarios/" .. name .. ".lua"
      tries[#tries + 1] = base .. "/scenarios/" .. name .. "/init.lua"
    end
  end
  for _, p in ipairs(tries) do if fs.kind(p) == "file" then return p end end
  cli.fail("no scenario %s%s (a file, or a name from scenarios/: see tabula list)", name,
    cli.did_you_mean(name:match("([^/]-)%.lua$") or name, require("tabula.cmd.list").lib.names()))
end

-- pick(trials, want) -> the trial whose id is want, else the first whose id starts with it
function M.pick(trials, want)
  for _, t in ipairs(trials) do if t.id == want then return { t } end end
  for _, t in ipairs(trials) do if t.id:sub(1, #want) == want then return { t } end end
  local some = {}
  for i = 1, math.min(5, #trials) do some[i] = trials[i].id end
  cli.fail("no trial %s (trial ids look like %s)", want, table.concat(some, ", "))
end

-- load(path) -> the scenario module; its folder is put on package.path
function M.load(path)
  if not path then cli.fail("give a scenario file, e.g. tabula run scenarios/xiangqibench") end
  path = M.find(path)
  local chunk, err = loadfile(path)
  if not chunk then cli.fail("%s", err) end
  local dir = fs.dirname(path)
  if not package.path:find(dir .. "/?.lua;", 1, true) then package.path = dir .. "/?.lua;" .. dir .. "/?/init.lua;" .. package.path end
  local s = chunk()
  if type(s) ~= "table" or not ((s.plan or s.planner) and s.play) then
    cli.fail("%s does not return a scenario (plan or planner, and play)", path)
  end
  s.path = path
  return s
end

-- spec(s) -> the option declarations of scenario s: the common ones (with
-- the scenario's defaults), then its own; an option in s.refuse (name ->
-- reason) is accepted as text only to be refused in one line (M.refusals)
function M.spec(s)
  local spec, own = {}, {}
  for _, o in ipairs(s.options or {}) do own[o[1] or o.name] = true end
  for name in pairs(s.refuse or {}) do own[name] = true end
  for _, o in ipairs(M.COMMON) do
    local d = s.defaults and s.defaults[o[1]]
    if d ~= nil then o = { o[1], o[2], d, o[4], min = o.min } end
    if not own[o[1]] then spec[#spec + 1] = o end   -- a scenario's own declaration wins
  end
  for _, o in ipairs(s.options or {}) do
    -- a --limit is a count of items: below one it would select nothing (or,
    -- negative, run a slice backwards); a scenario that forgot says so here
    if (o[1] or o.name) == "limit" and (o[2] or o.type) == "int" and o.min == nil then
      local c = {}
      for k, v in pairs(o) do c[k] = v end
      c.min = 1
      o = c
    end
    spec[#spec + 1] = o
  end
  local refused = {}
  for name in pairs(s.refuse or {}) do refused[#refused + 1] = name end
  table.sort(refused)
  -- parsed only to be refused in one line: not listed by --help
  for _, name in ipairs(refused) do spec[#spec + 1] = { name, "string", nil, "not taken here: " .. s.refuse[name], hidden = true } end
  return spec
end

-- check_files(dir, s): one line when a file a run reads or writes in its
-- directory (run.json, the records, their index) is there but is not a
-- regular file (a directory made by mistake): reading it raised an internal error
function M.check_files(dir, s)
  local kind = fs.kind(dir)
  if kind == nil then return end
  if kind ~= "dir" then cli.fail("%s is not a directory (a run directory holds run.json and the records)", dir) end
  local file = s and s.records and s.records.file or "trials.jsonl"
  for _, name in ipairs({ "run.json", file, file .. ".idx", "spend.jsonl" }) do
    local k = fs.kind(dir .. "/" .. name)
    if k ~= nil and k ~= "file" then
      cli.fail("%s/%s is a %s, not a file: move it out of the run directory%s", dir, name, k == "dir" and "directory" or k,
        name:match("%.idx$") and " (the index is rebuilt from the records)" or "")
    end
  end
end

-- abandon(dir, existed): after a start that failed, the run directory's lock
-- is released and, when this run made the directory and wrote nothing in it
-- (only its lock, empty folders), the directory goes too
function M.abandon(dir, existed)
  if runner.lock and runner.locked_dir == dir then
    runner.lock:unlock()
    runner.lock, runner.locked_dir = nil, nil
  end
  if existed or fs.kind(dir) ~= "dir" then return end
  local function empty_tree(d)
    for _, f in ipairs(fs.list(d) or {}) do
      local p = d .. "/" .. f
      if fs.kind(p) ~= "dir" or not empty_tree(p) then return false end
    end
    return true
  end
  for _, f in ipairs(fs.list(dir) or {}) do
    local p = dir .. "/" .. f
    if f ~= ".lock" and not (fs.kind(p) == "dir" and empty_tree(p)) then return end   -- something was written: kept
  end
  local function remove_tree(d)
    for _, f in ipairs(fs.list(d) or {}) do
      local p = d .. "/" .. f
      if fs.kind(p) == "dir" then remove_tree(p) else fs.remove(p) end
    end
    fs.remove(d)
  end
  remove_tree(dir)
end

-- refusals(s, opts): one line for an option the scenario would ignore
function M.refusals(s, opts)
  local names = {}
  for name in pairs(s.refuse or {}) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    if opts[name] ~= nil then cli.fail("--%s: %s", name, s.refuse[name]) end
  end
end

-- environment(s, opts, out) -> env, trials, data, setup, cfg: the model, the
-- per-trial random streams, the (sharded) plan and the scenario's setup; the
-- same in the parent and in every worker process
function M.environment(s, opts, out)
  local dry = opts["dry-run"]   -- no model: tabula.dryrun supplies the agent
  -- M.forced_model: the agent a command supplies itself (tabula mcp: the MCP client)
  -- a scenario of participants (each its own model) takes no --model
  local cfg = dry and { name = "dry-run", provider = "builtin" } or M.forced_model
    or (s.participants and opts.model == nil and { name = "participants", provider = "builtin" })
    or models.resolve(opts.model, opts.models)
  local settings = { temperature = opts.temperature, top_p = opts["top-p"], max_tokens = opts["max-tokens"],
    reasoning_effort = opts["reasoning-effort"], thinking_budget = opts["thinking-budget"], think = opts.think }
  local warned = {}
  M.warn_ids({ cfg }, warned)
  if cfg.provider ~= "builtin" and not models.key(cfg) and not cfg.optional_key then
    cli.fail("model %s needs the environment variable %s (see tabula models)", cfg.name, cfg.key_env)
  end
  local env = { opts = opts, dir = out }
  local agent_opts = failures.agent_options(opts)
  agent_opts.cache_dir, agent_opts.no_cache, agent_opts.stream = out .. "/cache", opts["no-cache"], opts.stream
  agent_opts.settings, agent_opts.max_attempts = settings, opts["max-attempts"]
  agent_opts.explicit, agent_opts.prompt_cache = cli.given(opts), not opts["no-prompt-cache"]
  -- --batch (or batch = true for a model in the models file): the calls go through the batch queue
  local function batched(c)
    if not (opts.batch or c.batch) or c.provider == "builtin" or dry then return nil end
    if not require("tabula.providers.batches").adapter(c.provider) then
      cli.fail("--batch: model %s (provider %s) has no batch API", c.name, tostring(c.provider))
    end
    if opts["no-cache"] then cli.fail("--batch needs the response cache (its replies are read back from it): drop --no-cache") end
    if opts.workers and opts.workers > 1 then cli.fail("--batch plays every trial in this process: --workers is not taken with it") end
    env.batch = env.batch or require("tabula.batch").new(opts, out, not opts.quiet and function(line) io.stderr:write(line, "\n") end)
    return env.batch
  end
  agent_opts.batch = batched(cfg)
  if s.participants then
    -- a match's participants: one agent each, with the run's timeouts, reply
    -- limits and cache, and the participant's own sampling settings
    env.agents, env.cfgs = {}, {}
    for _, p in ipairs(s.participants(opts)) do
      local pcfg = models.resolve(p.model, opts.models)
      M.warn_ids({ pcfg }, warned)
      if pcfg.provider ~= "builtin" and not models.key(pcfg) and not pcfg.optional_key then
        cli.fail("participant %s needs the environment variable %s (see tabula models)", p.name, pcfg.key_env)
      end
      local popts = {}
      for k, v in pairs(agent_opts) do popts[k] = v end
      popts.settings = p.settings or settings
      -- the participant's own settings: defaults, adjusted if refused (and
      -- recorded); those the command line gave it (p.explicit): an error if refused
      if p.settings then popts.explicit = p.explicit or {} end
      popts.batch = batched(pcfg)
      if p.program then   -- an agent program plays for the model (tabula.program)
        if popts.batch then cli.fail("participant %s: an agent program makes its own calls: --batch is not taken with it", p.name) end
        popts.program, popts.run_dir = p.program, out
      end
      env.agents[p.name], env.cfgs[p.name] = agent.new(pcfg, popts), pcfg
    end
  else
    if opts.program and not dry then   -- an agent program plays for the model (the agent-CLI arm: tabula.program)
      local spec = opts.program
      if spec:match("%.json$") then spec = json.read_file(fs.need(spec, "option --program")) end
      agent_opts.program = require("tabula.program").normalize({ program = spec, decision_timeout = opts["program-timeout"] },
        "option --program", cfg)
      agent_opts.run_dir = out
    end
    env.agent = (not dry) and agent.new(cfg, agent_opts)
  end
  if dry and not s.participants and opts.model then
    -- --dry-run: the model named is resolved (no key needed) and its agent only
    -- builds the requests it would be sent, for the estimate (tabula.dryrun)
    local mcfg = models.resolve(opts.model, opts.models)
    if mcfg.provider == "builtin" or mcfg.provider == "mcp" then
      env.dry_builtin = cli.given(opts).model and mcfg.name   -- said when named (the default is the engine)
    else
      M.warn_ids({ mcfg }, warned)
      env.dry_model, env.dry_batch = agent.new(mcfg, agent_opts), (opts.batch or mcfg.batch) and true or nil
    end
  end
  -- each trial's own random stream: from the run's seed and the trial's id
  env.rng_for = function(trial)
    local id = trial.variant and require("tabula.variants").base_id(trial.id) or trial.id   -- variants share seeds
    return metrics.rng(opts.seed * 1000003 + tonumber(fs.sha256(id):sub(1, 12), 16))
  end
  local trials, data, extra = {}, nil, nil
  if s.plan then
    trials, data, extra = s.plan(opts)
    if #trials == 0 then   -- before any run directory exists: nothing is left behind
      cli.fail("scenario %s planned no trials: its data selected nothing (check its data options, --ids, --limit)", s.name)
    end
    trials = M.shard(trials, opts.shard)
    if opts.trial then trials = M.pick(trials, opts.trial) end   -- tabula play: one trial
  end
  local setup
  trials, setup, env.for_trial = require("tabula.variants").setup(s, opts, env, trials)   -- prompt overrides, variants
  return env, trials, data, setup, cfg, extra
end

-- warn_ids(cfgs [, seen]): one warning line (on stderr, before any call) per model sent
-- to a provider's own service under an id the capability table does not list,
-- naming the closest listed id; said once, by the parent (a worker is quiet)
function M.warn_ids(cfgs, seen)
  local ms = require "tabula.model_settings"
  if ms.quiet then return end
  seen = seen or {}
  local names = {}
  for name in pairs(cfgs) do names[#names + 1] = name end
  table.sort(names, function(a, b) return tostring(a) < tostring(b) end)
  for _, name in ipairs(names) do
    local c = cfgs[name]
    local preset = models.PRESETS[c.provider]
    local key = tostring(c.provider) .. ":" .. tostring(c.model)
    if preset and c.base_url == preset.base_url and not seen[key] then
      seen[key] = true
      local line = ms.id_warning(c)
      if line then io.stderr:write(line, "\n") end
    end
  end
end

-- not_found(err, env, cfg) -> err, its message naming the closest known model
-- id when the server answered that a model it was sent does not exist
function M.not_found(err, env, cfg)
  if not cli.is_user_error(err) then return err end
  local ms = require "tabula.model_settings"
  for _, c in pairs(env.cfgs or { cfg }) do
    if c.provider ~= "builtin" and err.message:find("model " .. tostring(c.name) .. " at", 1, true) then
      err.message = err.message .. ms.not_found_hint(err.message, c)
      break
    end
  end
  return err
end

-- player(s, opts, out, env) -> play(trial), close(): the scenario's play, with
-- the trial's conversation recorded in transcripts/ unless --no-transcripts
function M.player(s, opts, out, env)
  local vplay = require("tabula.variants").play(s.play, env.for_trial)   -- each variant's own env
  if opts["no-transcripts"] then return function(trial) return vplay(trial, env) end end
  -- a scenario whose trials continue from their own event logs (S.records.logs: DECE's
  -- matches) journals each call, so a trial resumed mid-way keeps the calls made before
  local recorder = require("tabula.transcripts").recorder(out, { resumes = s.records and s.records.logs ~= nil })
  local play = recorder:recording(vplay)   -- env.agent, or each of env.agents labelled by participant
  return function(trial) return play(trial, env) end, function() recorder:close() end
end

-- workers(opts, cfg, s) -> how many worker processes: --workers, else every
-- core when the player is the CPU-bound built-in engine (or the scenario says
-- its run is CPU-bound: s.cpu_bound(opts)), else one
function M.cpu_bound(opts, cfg, s)
  return (s and s.cpu_bound and s.cpu_bound(opts)) or (not (s and s.participants) and cfg.provider == "builtin" and cfg.name == "engine")
end

function M.workers(opts, cfg, s)
  if opts.workers then return opts.workers end
  if M.cpu_bound(opts, cfg, s) then return require("tabula.workers").cores() end
  return 1
end

-- concurrency(opts, s, nworkers) -> trials in flight: --concurrency when given;
-- when the scenario says its trials compute in the process (s.cpu_bound(opts):
-- DECE's ISMCTS, which never yields), one trial per worker, since such trials
-- run one after another in a worker, and a trial queued behind another in a busy
-- worker would wait while an idle worker had nothing left to take; else the
-- default (model calls and engine processes overlap)
function M.concurrency(opts, s, nworkers)
  if cli.given(opts).concurrency or not (s.cpu_bound and s.cpu_bound(opts)) then return opts.concurrency end
  return math.min(opts.concurrency or nworkers, nworkers)
end

-- budget_model(env, cfg) -> the model a --max-cost budget is checked against:
-- with participants, the first model without prices (or any; built-in
-- players cost nothing)
local function budget_model(env, cfg)
  if not env.cfgs then return cfg end
  local names, any = {}, nil
  for name in pairs(env.cfgs) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    local c = env.cfgs[name]
    if c.provider ~= "builtin" then
      if not c.prices then return c end
      any = any or c
    end
  end
  return any or { name = "built-in players", prices = {} }
end

-- settings_adjusted(env) -> what the model (or each participant's) refused of
-- the run's settings, for run.json and the report header
function M.settings_adjusted(env)
  if env.agent then return env.agent.adjusted end
  local out, names = require("tabula.json").array(), {}
  for name in pairs(env.agents or {}) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    for _, a in ipairs(env.agents[name].adjusted or {}) do
      local c = { participant = name }
      for k, v in pairs(a) do c[k] = v end
      out[#out + 1] = c
    end
  end
  return out
end

function M.execute(s, opts, forced)
  for k, v in pairs(forced or {}) do opts[k] = v end
  if s.settle_options then s.settle_options(opts) end    -- defaults that depend on other options
  M.refusals(s, opts)
  if s.planner and opts.shard then
    cli.fail("--shard: scenario %s plans as it runs (%s), so its plan cannot be split", s.name, s.planner_reason or "each trial depends on the results before it")
  end
  if s.participants and opts["dry-run"] then cli.fail("--dry-run: scenario %s plays matches; it has no single first request to show", s.name) end
  if opts["dry-run"] and s.dry_run then   -- the scenario's own (needs no model), then the estimate for a model named
    local rc = s.dry_run(M.shard(s.plan(opts), opts.shard), opts)
    if rc ~= 0 or not cli.given(opts).model then return rc end
    local env, trials = M.environment(s, opts, opts.out or "runs/dry-run")
    if not (env.dry_model or env.dry_builtin) then return rc end
    return require("tabula.dryrun").estimate_only(s, trials, env, s.teardown)
  end
  local out = (s.run_dir and s.run_dir(opts)) or opts.out or string.format("runs/%s-%s", s.name, os.date("%Y%m%d-%H%M%S"))
  M.check_files(out, s)
  local existed = fs.kind(out) ~= nil
  if s.planner then runner.lock_run(out) end   -- the planner reads and writes the run directory
  local started, env, trials, data, setup, cfg, extra = pcall(M.environment, s, opts, out)
  if not started then M.abandon(out, existed); error(env, 0) end   -- a failed start leaves nothing behind
  for _, line in ipairs(cli.notes(opts)) do io.stderr:write(line, "\n") end   -- an old option spelling taken
  if opts["dry-run"] then return require("tabula.dryrun").run(s, trials, env, nil, s.teardown) end
  -- what identifies the run (must match to continue it): everything but the
  -- options that only change how it runs (or the scenario's own list)
  local identity = {}
  for k, v in pairs(opts) do
    local counts = s.identity_options and s.identity_options[k] or (not s.identity_options and not M.HOW[k] and not failures.how_only(k))
    if counts and not (s.how and s.how[k]) then identity[k] = v end
  end
  local agents
  if env.agents then
    agents = {}
    for name, a in pairs(env.agents) do agents[name] = a:describe() end
  end
  local meta = {
    tabula_version = host.version, scenario = s.name, scenario_file = fs.absolute(s.path),
    scenario_sha256 = fs.sha256_file(s.path), model = env.agent and env.agent:describe(), agents = agents, options = opts,
    options_identity = identity, data = data, setup = setup, seed = opts.seed,
    settings_adjusted = M.settings_adjusted(env),
    created = os.date("!%Y-%m-%dT%H:%M:%SZ"), trials_planned = s.plan and #trials or nil, records = s.records,
  }
  for k, v in pairs(extra or {}) do if meta[k] == nil then meta[k] = v end end   -- what the scenario's reports read
  meta = require("tabula.secrets").scrub(meta)   -- no URL credential reaches run.json
  local planner, total
  if s.planner then
    local ok, p, n = pcall(s.planner, opts, env, out)
    if not ok then M.abandon(out, existed); error(p, 0) end
    planner, total = p, n
  end
  local play, close_play = M.player(s, opts, out, env)
  local progress, finish_progress
  if not opts.quiet then
    local redraw
    progress, finish_progress, _, redraw = require("tabula.progress").reporter({ tty = host.isatty(2), verbose = opts.verbose,
      extra = env.batch and function() return env.batch:summary() end })
    if env.batch then
      env.batch.on_change = redraw
      if host.isatty(2) and not opts.verbose then env.batch.out = nil end   -- the live line shows the batches
    end
  end
  if env.batch then play = env.batch:wrap(play) end   -- the queue counts the running trials
  local nworkers, pool = env.batch and 1 or M.workers(opts, cfg, s), nil   -- a batch queue lives in this process
  if nworkers > 1 then
    pool = require("tabula.workers").pool({ n = nworkers, retries = opts.retries, send_trials = s.planner ~= nil,
      job = { scenario = s.path, opts = opts, out = out, retries = opts.retries } })
  end
  local live = require("tabula.view.live").start(s, out, opts["report-every"])   -- report.html during the run
  local ok, recorded, errors, over = pcall(runner.run, {
    dir = out, meta = meta, trials = (not s.planner) and trials or nil, planner = planner, total = total,
    store = s.records, begin = s.begin and function() s.begin(opts, out) end,
    -- with a batch queue every trial at once: the calls due together form one batch
    concurrency = env.batch and math.max(opts.concurrency, math.min(trials and #trials or 0, require("tabula.batch").MAX_TRIALS))
      or M.concurrency(opts, s, nworkers),
    retries = opts.retries,
    weight = s.weight and function(trial) return s.weight(trial, opts) end,
    on_interrupt = function()   -- report.html of what is recorded, as at every end
      local path, err = require("tabula.view.live").interrupted(s, out)
      io.stderr:write(path and string.format("wrote %s (the trials recorded so far)\n", path)
        or string.format("warning: report.html could not be written (%s)\n", err))
    end,
    accept_changes = opts["accept-changes"],
    play = play, pool = pool, budget = budget.new(opts, budget_model(env, cfg), out),
    progress = progress,
  })
  live.stop()
  if env.batch then env.batch:close() end
  if not ok then   -- refused before its trials began (another run's identity, ...): the workers go too
    if pool then pool:abort() end
    M.abandon(out, existed)
    error(M.not_found(recorded, env, cfg), 0)
  end
  if finish_progress then finish_progress() end
  if s.teardown then s.teardown(env) end
  if close_play then close_play() end
  io.write(string.format("run: %s (%d trials recorded%s)\n", out, recorded, errors > 0 and string.format(", %d infrastructure errors not scored", errors) or ""))
  if env.batch then io.write("batches: ", env.batch:summary(), "\n") end
  if over then
    io.stderr:write(string.format("tabula: the run stopped: %s; %d of %d trials recorded (continue with a larger budget and the same --out)\n",
      over, recorded, total or #trials))
    return budget.EXIT, out
  end
  if s.report then io.write(require("tabula.cmd.report").lib.write(out, s, opts["no-html"]))   -- report.md, summary.json, report.html
  elseif not opts["no-html"] then   -- the viewer's page of the records (replacing one written at an interrupt)
    local view = require "tabula.view"
    local path, size = view.try_write(out, s)
    if not path then view.page_failed(out, size) end
    io.write(string.format("wrote %s (%d KB)\n", path, math.ceil(size / 1024)))
  end
  return errors > 0 and 3 or 0, out
end

M.summary = "run a benchmark scenario: tabula run scenarios/NAME.lua [options]"
M.usage = "SCENARIO.lua [options]"

-- options depend on the scenario, so parse in two steps
function M.run_args(args, forced)
  local path = args[1]
  if path == nil or path == "--help" or path == "-h" then
    io.write(cli.help_text(M.COMMON, { program = "tabula run", usage = M.usage, summary = M.summary }))
    return 0
  end
  local s = M.load(path)
  local rest = { table.unpack(args, 2) }
  local opts, extra = cli.parse(M.spec(s), rest, { program = "tabula run " .. path, summary = s.summary })
  if not opts then return 0 end
  if #extra > 0 then cli.fail("unexpected argument '%s' (options start with --)", extra[1]) end
  local rc
  loop.run(function() rc = M.execute(s, opts, forced) end)
  return rc
end

return {
  summary = M.summary,
  raw_args = true,
  main = function(_, args) return M.run_args(args) end,
  lib = M,
}
