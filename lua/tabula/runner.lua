-- tabula.runner — runs a scenario's trials: concurrency, crash-safe records,
-- resume, and re-queueing of infrastructure errors.
--
-- A run directory holds run.json (what is needed to reproduce the run),
-- trials.jsonl (one line per finished trial, fsynced) and cache/ (model replies).
-- Re-running with the same --out continues: finished trials are kept, the rest
-- (including interrupted ones and earlier infrastructure errors) run from their
-- start, with the cache replaying the model calls that had finished.
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local loop = require "tabula.loop"
local cli = require "tabula.cli"
local secrets = require "tabula.secrets"
local failures = require "tabula.failures"
local run_identity = require "tabula.run_identity"

local M = {}

-- prepare(dir, meta [, accept_changes]) -> done (trial_id -> status), info:
-- creates run.json, or checks it (tabula.run_identity) to continue the run
function M.prepare(dir, meta, accept_changes)
  fs.mkdir_p(dir)
  M.lock = failures.lock_dir(dir)   -- held until the process ends
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
  local info = records.each_id(dir .. "/trials.jsonl", function(r)
    if r.trial_id and r.status ~= "error" then done[r.trial_id] = r.status end
  end)
  return done, info
end

-- attempt(play, trial, retries, scenario_file, stopped) -> record | nil[, config_error]:
-- plays a trial, re-queueing it after an infrastructure error up to `retries`
-- times; then it is recorded as an error. A configuration error (bad key,
-- unknown model) is returned as the second value; nil alone means the trial was
-- cut because the run is stopping (it runs again on resume). A bug raises.
function M.attempt(play, trial, retries, scenario_file, stopped)
  retries = retries or 2
  local err
  for attempt = 0, retries do
    local ok, r, e = failures.call(play, trial, scenario_file)
    if ok and r then return r end
    if ok then err = e else err = r end
    if stopped and stopped() then return nil end   -- cut: not recorded, it runs again on resume
    if failures.is_config(err) then return nil, err end
    if attempt < retries then
      io.stderr:write(require("tabula.terminal").clean(secrets.redact(string.format("trial %s: infrastructure error, re-queued: %s", trial.id, tostring(err.message)))), "\n")
    end
  end
  return { trial_id = trial.id, status = "error", reason = "error", error = err and tostring(err.message) or "unknown" }
end

-- run{ dir, meta, trials, play, concurrency, retries, progress, pool, budget }
--   -> recorded, errors, over (the budget that stopped the run, if one did)
-- play(trial) -> record | nil, infra_error. A record needs trial_id and status
-- ("success" / "failure"); an infra error is { infra = true, message = ... }.
-- With a worker pool (tabula.workers), trials are played in worker processes
-- and only this process writes the records. `recorded` counts the trials of
-- the plan that hold a final record.
function M.run(spec)
  local done, info = M.prepare(spec.dir, spec.meta, spec.accept_changes)
  if info.torn then
    io.stderr:write(string.format("note: %s/trials.jsonl ended in a torn line (%d bytes, from an interrupted write); it is dropped and that trial runs again\n",
      spec.dir, info.torn_bytes))
  end
  for _, b in ipairs(info.bad) do
    io.stderr:write(string.format("warning: %s/trials.jsonl:%d is damaged (%s); that trial runs again\n", spec.dir, b.line, b.error))
  end
  local pending = {}
  for _, t in ipairs(spec.trials) do
    if not done[t.id] then pending[#pending + 1] = t end
  end
  local writer = records.writer(spec.dir .. "/trials.jsonl", { index = true })
  local finished, errors = 0, 0
  if #pending < #spec.trials then
    io.stderr:write(string.format("resuming: %d of %d trials already recorded\n", #spec.trials - #pending, #spec.trials))
  end
  local stop   -- a configuration error (bad key, unknown model): no more trials start
  local over   -- a run-wide budget was reached: no more trials start
  local function stopped() return stop ~= nil end
  local scenario_file = spec.meta and spec.meta.scenario_file
  local play_one = spec.pool and function(trial) return spec.pool:play(trial, stopped) end
    or function(trial) return M.attempt(spec.play, trial, spec.retries, scenario_file, stopped) end
  loop.map(pending, math.max(1, spec.concurrency or 1), function(trial)
    if stop or over then return end
    if spec.budget then
      over = spec.budget:reached()
      if over then return end
    end
    local rec, config, spent = play_one(trial)
    if spec.budget then spec.budget:collect(spent) end
    if config then stop = stop or config end
    if not rec then return end
    if rec.status == "error" then errors = errors + 1 end
    writer:write(rec)
    if rec.status ~= "error" then done[trial.id] = rec.status end
    finished = finished + 1
    if spec.progress then spec.progress(rec, finished, #pending) end
  end)
  writer:close()
  if spec.pool then spec.pool:close() end
  if spec.budget then spec.budget:close() end
  if stop then failures.stop_run(stop, #pending - finished) end
  local recorded = 0
  for _, t in ipairs(spec.trials) do
    if done[t.id] then recorded = recorded + 1 end
  end
  return recorded, errors, over
end

return M
