-- tabula.runner — runs a scenario's trials: concurrency, crash-safe records,
-- resume, and re-queueing of infrastructure errors.
--
-- A run directory holds run.json (what is needed to reproduce the run),
-- trials.jsonl (one line per finished trial, fsynced) and cache/ (model replies).
-- Re-running with the same --out continues: finished trials are kept, the rest
-- (including interrupted ones and earlier infrastructure errors) run from their
-- start, with the cache replaying the model calls that had finished.
--
-- A trial is one agent against an environment or a match of several
-- participants (the scenario's play sees env.agents, one agent per
-- participant); either way a finished trial is one record. A plan is a list
-- fixed up front, or a planner: planner(finished) -> the next trials (a list,
-- possibly empty while trials are still running) or nil when the plan is
-- complete, called with the records finished so far in this session whenever
-- a slot is free (ChessArena pairs players from the current ratings).
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local loop = require "tabula.loop"
local cli = require "tabula.cli"
local secrets = require "tabula.secrets"
local failures = require "tabula.failures"
local run_identity = require "tabula.run_identity"
local budget = require "tabula.budget"
local proc = require "tabula.c.proc"

local M = {}

-- prepare(dir, meta [, accept_changes]) -> done (trial_id -> status), info:
-- creates run.json, or checks it (tabula.run_identity) to continue the run
-- lock_run(dir): the run directory's lock, held until the process ends (M.lock;
-- taken once for a directory: a scenario may need it before its plan is made).
-- A process runs one run at a time, so a run on another directory in the same
-- process (tests, tabula test) releases the previous directory's lock first: left
-- to the garbage collector, it made a later run on that directory in the same
-- process fail as "in use by another run" whenever the collector had not run yet.
function M.lock_run(dir)
  if M.lock and M.locked_dir == dir then return end
  if M.lock then M.lock:unlock(); M.lock, M.locked_dir = nil, nil end
  fs.mkdir_p(dir)
  M.lock, M.locked_dir = failures.lock_dir(dir), dir
end

-- prepare(dir, meta [, accept_changes [, store]]) -> done, info; store = {
-- file, id }: the records file (default trials.jsonl) and its id field
-- (default trial_id)
function M.prepare(dir, meta, accept_changes, store)
  M.lock_run(dir)
  local run_path = dir .. "/run.json"
  if fs.kind(run_path) == "file" then
    local old = json.read_file(run_path)
    local refused = run_identity.check(dir, old, meta, accept_changes)
    if refused then cli.fail("%s", refused) end
    meta.created = old.created or meta.created
    meta.resumed = (old.resumed or 0) + 1
  end
  local ok, err = fs.write_atomic(run_path, json.encode(meta, { pretty = true }) .. "\n")
  if not ok then cli.fail("%s", err) end
  -- only ids and states are read: memory does not grow with the records' size
  local done = {}
  local file, id, required = M.store(store)
  local check = M.checker(id, required)
  local refused = {}   -- records of the other stores that the check refused
  local function seen(r, lineno)
    if id ~= "trial_id" then
      local why = check(r)
      if why then refused[#refused + 1] = { line = lineno, invalid = true, error = why }; return end
    end
    if r[id] and r.status ~= "error" then done[r[id]] = r.status or "done" end
  end
  -- we hold the lock: a stale index is rewritten (records that fail the check
  -- marked in it); M.run reports what was skipped, naming the first damaged line
  local info
  if id == "trial_id" then
    info = records.each_id(dir .. "/" .. file, seen, { rebuild = true, quiet = true, check = check, keys = required })
  else
    local keys = { id, "status" }
    for _, k in ipairs(required) do keys[#keys + 1] = k end
    info = records.each(dir .. "/" .. file, seen, { skip_bad = true, quiet = true, keys = keys })
    for _, b in ipairs(refused) do info.bad[#info.bad + 1] = b end
    table.sort(info.bad, function(a, b) return a.line < b.line end)
  end
  return done, info
end

-- checker(id_field, required) -> check(record [, partial]) -> why | nil: what a
-- record must hold to count as recorded: its id, a status (the default
-- records file; a scenario's own file lists "status" among its required fields
-- if its records carry one) and the scenario's required fields (S.records.required;
-- partial: only what an index entry holds, id and status). A record refused is
-- a damaged line: named, and its trial runs again.
function M.checker(id_field, required)
  local need_status = id_field == "trial_id"
  for _, k in ipairs(required) do if k == "status" then need_status = true end end
  return function(r, partial)
    if type(r) ~= "table" then return "not a record (a JSON object)" end
    local id = r[id_field]
    if id == nil or id == json.null then return string.format("the record has no %s", id_field) end
    local what = string.format("the record of %s %s", id_field == "trial_id" and "trial" or id_field, tostring(id))
    if need_status and (type(r.status) ~= "string" or r.status == "") then return what .. " has no status" end
    if partial then return nil end
    for _, k in ipairs(required) do
      if r[k] == nil or r[k] == json.null then return string.format("%s has no %s", what, k) end
    end
    return nil
  end
end

-- attempt(play, trial, retries, scenario_file, stopped) -> record | nil[, config_error]:
-- plays a trial, re-queueing it after an infrastructure error up to `retries`
-- times; then it is recorded as an error. A configuration error (bad key,
-- unknown model) is returned as the second value; nil alone means the trial was
-- cut because the run is stopping or a run-wide budget refused one of its
-- calls (it runs again on resume). A bug raises.
function M.attempt(play, trial, retries, scenario_file, stopped)
  retries = retries or 2
  local err
  for attempt = 0, retries do
    local ok, r, e = failures.call(play, trial, scenario_file)
    if ok and r then return r end
    if ok then err = e else err = r end
    if stopped and stopped() then return nil end   -- cut: not recorded, it runs again on resume
    if budget.is_refusal(err) then return nil end  -- ended as `budget`: not recorded either
    if failures.is_config(err) then return nil, err end
    if attempt < retries then
      io.stderr:write(require("tabula.terminal").clean(secrets.redact(string.format("trial %s: infrastructure error, re-queued: %s", trial.id, tostring(err.message)))), "\n")
    end
  end
  return { trial_id = trial.id, status = "error", reason = "error", error = err and tostring(err.message) or "unknown" }
end

-- store(spec) -> records file, id field, required fields (a scenario's
-- S.records = { file, id, required = { field... } }, or the default)
function M.store(store)
  store = store or {}
  local required = {}
  for _, k in ipairs(type(store.required) == "table" and store.required or {}) do
    if k ~= "trial_id" and k ~= store.id then required[#required + 1] = k end
  end
  return store.file or "trials.jsonl", store.id or "trial_id", required
end

-- run{ dir, meta, trials | planner, total, store, begin, play, concurrency, retries, progress, pool, budget, weight, on_interrupt }
--   -> recorded, errors, over (the budget that stopped the run, if one did,
--   with the final spend once the calls in flight ended)
-- budget is the run's ledger (tabula.budget.new): it binds every model call.
-- weight(trial), if given, orders a fixed plan's trials heaviest first (longest_first).
-- on_interrupt(), if given, runs after Ctrl-C/SIGTERM killed the workers, before the exit.
-- play(trial) -> record | nil, infra_error. A record needs trial_id and status
-- ("success" / "failure"); an infra error is { infra = true, message = ... }.
-- With a worker pool (tabula.workers), trials are played in worker processes
-- and only this process writes the records. `recorded` counts the trials of
-- the plan that hold a final record. With a records file of its own (store),
-- a trial that ends as an infrastructure error is not written there (the
-- scenario's reports read only finished matches); it is counted in `errors`
-- and runs again on resume.
--
-- SIGINT (Ctrl-C) or SIGTERM during the run kills the workers at once (in the
-- signal handler), prints "interrupted: N of M trials recorded; run the same
-- command to continue" and exits with 128 + the signal (130 for Ctrl-C): the
-- records written so far are on disk, the trials in flight run again on resume.
-- then(), if given, runs last (report.html of what is recorded); a second signal
-- while it runs ends the process at once.
local function on_interrupt(count, total, after)
  local fd = proc.trap()
  return loop.spawn(function()
    while true do
      loop.await_fd(fd, "r")
      local got = proc.read_fd(fd)
      if got and #got > 0 then
        io.stderr:write(string.format("\ninterrupted: %d of %d trials recorded; run the same command to continue\n", count(), total()))
        io.stderr:flush()
        if after then
          proc.untrap()
          pcall(after)
          io.stderr:flush()
        end
        os.exit(128 + got:byte(1))
      end
    end
  end)
end

-- longest_first(trials, weight): with weight(trial) -> the trial's expected work
-- (any positive scale), order the trials heaviest first, ties in plan order: the
-- workers that free up take the shorter trials last, so no worker is left playing
-- a long trial alone at the end (longest-processing-time-first). Only the order in
-- which trials start changes; records are the same.
function M.longest_first(trials, weight)
  if not weight then return trials end
  local key = {}
  for i, t in ipairs(trials) do key[t] = { weight(t) or 0, i } end
  table.sort(trials, function(a, b)
    local ka, kb = key[a], key[b]
    if ka[1] ~= kb[1] then return ka[1] > kb[1] end
    return ka[2] < kb[2]
  end)
  return trials
end

function M.run(spec)
  local file, id_field = M.store(spec.store)
  local done, info = M.prepare(spec.dir, spec.meta, spec.accept_changes, spec.store)
  if spec.begin then spec.begin() end   -- the directory is locked and its identity checked
  -- calls an earlier session left unsettled (killed during them) are counted now that the lock is held
  if spec.budget and spec.budget.reconcile then spec.budget:reconcile() end
  records.report(spec.dir .. "/" .. file, info, "a trial with no other record runs again")
  local pending, planned = {}, {}
  for _, t in ipairs(spec.trials or {}) do
    if not done[t.id] then pending[#pending + 1] = t end
  end
  M.longest_first(pending, spec.weight)
  local total = spec.total or #pending
  local function recorded_now()
    local n = 0
    for _, t in ipairs(spec.trials or pending) do
      if done[t.id] then n = n + 1 end
    end
    return n
  end
  local writer = records.writer(spec.dir .. "/" .. file, { index = id_field == "trial_id" })
  local interrupt = on_interrupt(recorded_now, function() return spec.trials and #spec.trials or math.max(total, #pending) end,
    spec.on_interrupt and function() writer:close(); spec.on_interrupt() end)
  local finished, errors = 0, 0
  if spec.trials and #pending < #spec.trials then
    io.stderr:write(string.format("resuming: %d of %d trials already recorded\n", #spec.trials - #pending, #spec.trials))
  end
  local stop   -- a configuration error (bad key, unknown model): no more trials start
  local ledger = spec.budget   -- once it refused a call (ledger.over) no more trials start
  local function stopped() return stop ~= nil end
  local scenario_file = spec.meta and spec.meta.scenario_file
  local play_one = spec.pool and function(trial) return spec.pool:play(trial, stopped) end
    or function(trial) return M.attempt(spec.play, trial, spec.retries, scenario_file, stopped) end
  local results = {}   -- the records finished in this session, for the planner
  local next_i, complete, waiting, running = 1, spec.planner == nil, {}, 0
  -- take() -> the next trial to play, or nil when there is none left
  local function take()
    while true do
      if stop or (ledger and ledger.over) then return nil end
      if next_i <= #pending then
        next_i = next_i + 1
        return pending[next_i - 1]
      end
      if complete then return nil end
      local more = spec.planner(results)
      if more == nil then complete = true
      elseif #more > 0 then
        for _, t in ipairs(more) do
          if not done[t.id] and not planned[t.id] then planned[t.id] = true; pending[#pending + 1] = t end
        end
      elseif running == 0 then complete = true   -- nothing runs that could change its mind
      else   -- nothing to start until a running trial finishes
        local f = loop.future()
        waiting[#waiting + 1] = f
        f:await()
      end
    end
  end
  local function one(trial)
    if ledger and ledger.over then return end
    local rec, config = play_one(trial)
    if config then stop = stop or config end
    if not rec then return end
    if rec.status == "error" then errors = errors + 1 end
    if rec.status ~= "error" or id_field == "trial_id" then writer:write(rec) end
    if rec.status ~= "error" then done[trial.id] = rec.status or "done"; results[#results + 1] = rec end
    finished = finished + 1
    if spec.progress then spec.progress(rec, finished, math.max(total, finished), trial.id) end
  end
  local function wake_all()
    local w = waiting
    waiting = {}
    for _, f in ipairs(w) do f:set() end
  end
  local g = loop.group()
  for _ = 1, math.max(1, spec.concurrency or 1) do
    g:spawn(function()
      while true do
        local trial = take()
        if not trial then break end
        running = running + 1
        local ok, err = pcall(one, trial)
        running = running - 1
        wake_all()
        if not ok then error(err, 0) end
      end
      wake_all()
    end)
  end
  local ok, err = pcall(g.wait, g)
  if not ok then   -- a bug or a user error: the workers and the signal watch go first
    if spec.pool then spec.pool:abort() end
    proc.untrap()
    loop.cancel(interrupt)
    error(err, 0)
  end
  writer:close()
  if spec.pool then spec.pool:close() end
  local over = ledger and ledger:reached()
  if ledger then ledger:close() end
  proc.untrap()
  loop.cancel(interrupt)
  if stop then failures.stop_run(stop, math.max(total, #pending) - finished) end
  return recorded_now(), errors, over
end

return M
