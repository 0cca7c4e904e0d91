-- tabula.failures — how a run meets failure (see README, "Failure handling"):
-- the run-directory lock, configuration errors that stop a run, and bugs in
-- scenario code shown at the scenario's own file and line.
local fs = require "tabula.fs"
local cli = require "tabula.cli"
local secrets = require "tabula.secrets"

local M = {}

-- the run options about waiting and limits (`tabula run --help` lists them);
-- they change how a run goes, not what it measures, so a run can be continued
-- with other values
M.OPTIONS = {
  { "request-timeout", "number", 600, "seconds one model request may take (not streamed)", min = 0.001 },
  { "idle-timeout", "number", 300, "seconds a streamed reply may stay silent", min = 0.001 },
  { "call-deadline", "number", 1800, "seconds one model call may take in all, retries and streaming included", min = 0.001 },
  { "max-in-flight", "int", nil, "model requests in flight at once per model (default: --concurrency)", min = 1 },
  { "max-reply-bytes", "int", 8388608, "largest model reply; a larger one is an infrastructure error", min = 1 },
  { "trial-timeout", "number", 3600, "seconds a worker process (--workers) may stay silent or stopped with trials in flight before it is killed and its trials re-queued", min = 0.001 },
}

-- agent_options(opts) -> the agent's options for these run options
function M.agent_options(opts)
  return { timeout = opts["request-timeout"], idle_timeout = opts["idle-timeout"], time_budget = opts["call-deadline"],
    max_in_flight = opts["max-in-flight"] or opts.concurrency, max_reply_bytes = opts["max-reply-bytes"] }
end

-- how_only(name): an option of this module (not part of the run's identity)
function M.how_only(name)
  for _, o in ipairs(M.OPTIONS) do if o[1] == name then return true end end
  return false
end

-- lock_dir(dir) -> lock: an advisory lock on dir/.lock for the process's
-- lifetime; a second run on the same directory stops at once naming the holder.
function M.lock_dir(dir)
  local lock, err, holder = fs.lock(dir .. "/.lock")
  if lock then return lock end
  if holder then
    cli.fail("%s is in use by another run (process %d holds %s/.lock); wait for it to finish or use another --out",
      dir, holder, dir)
  end
  cli.fail("%s", err)
end

-- is_config(err): an error no retry will cure (bad key, no permission, unknown
-- model, a request the server calls invalid)
function M.is_config(err)
  return type(err) == "table" and err.config == true
end

-- stop_run(err, not_run): one line naming the model, the URL and the server's message
function M.stop_run(err, not_run)
  error(cli.user_error(secrets.redact(string.format(
    "configuration error, the run stopped: %s (%d trials not run; fix it and run again with the same --out to continue)",
    tostring(err.message), not_run)), 2), 0)
end

-- the first "file:line" of the traceback that lies in the scenario's file
local function scenario_line(tb, file)
  if not file then return nil end
  local base = fs.basename(file)
  for line in tb:gmatch("[^\n]+") do
    local where = line:match("^%s*(%S-" .. base:gsub("%p", "%%%0") .. ":%d+):")
    if where then return where end
  end
  return nil
end

-- call(play, trial, scenario_file) -> true, record | true, nil, infra_error | false, infra_error.
-- A user error passes through; any other error is a bug in the scenario (or
-- below it) and stops the run with its place in the scenario first.
function M.call(play, trial, scenario_file)
  local tb
  local res = table.pack(xpcall(play, function(e)
    if type(e) ~= "table" then tb = debug.traceback(tostring(e), 2) end
    return e
  end, trial))
  if res[1] then return true, res[2], res[3] end
  local e = res[2]
  if type(e) == "table" and (e.infra or cli.is_user_error(e)) then
    if e.infra then return false, e end
    error(e, 0)
  end
  local where = tb and scenario_line(tb, scenario_file)
  -- first line: where in the scenario; then the traceback, for whoever fixes it
  error(cli.user_error(secrets.redact(string.format("bug in the scenario%s (trial %s): %s\n%s",
    where and (" at " .. where) or "", trial.id, tostring(e), tb or "")), 1), 0)
end

return M
