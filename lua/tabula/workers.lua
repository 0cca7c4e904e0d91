-- tabula.workers — trials played in worker processes, so that CPU-bound runs
-- (built-in searches, engines) use every core.
--
-- The parent starts N copies of this binary as `tabula worker`, each with a
-- pipe on stdin and stdout. It sends one job line (scenario file, options, run
-- directory) and then one line per trial id; a worker plans the same trials,
-- plays each id it is sent (with the runner's own retry rule) and answers with
-- one line holding the final record. Only the parent writes trials.jsonl, so
-- the records are the same as with one process: every trial draws its
-- randomness from its own id.
--
-- Protocol lines on a worker's stdout start with MARK; anything else a
-- scenario prints there is passed on to the parent's stderr.
local proc = require "tabula.c.proc"
local host = require "tabula.c.host"
local loop = require "tabula.loop"
local json = require "tabula.json"
local cli = require "tabula.cli"

local M = {}

M.MARK = "\1tabula-worker "

-- lines(read, fd) -> next(): the next line of a non-blocking stream (nil at its
-- end), waiting on fd with the event loop. read() -> data | "" at EOF | false.
-- Long lines are gathered in parts, so reading stays linear in their size.
function M.lines(read, fd)
  local chunk, pos, parts = "", 1, {}
  return function()
    while true do
      local nl = chunk:find("\n", pos, true)
      if nl then
        parts[#parts + 1] = chunk:sub(pos, nl - 1)
        pos = nl + 1
        local line = table.concat(parts)
        parts = {}
        return line
      end
      if pos <= #chunk then parts[#parts + 1] = chunk:sub(pos) end
      chunk, pos = "", 1
      local data, err = read()
      if data == nil then error("read failed: " .. tostring(err), 0) end
      if data == "" then return nil end
      if data then chunk = data else loop.await_fd(fd, "r") end
    end
  end
end

-- cores() -> the number of processors this process may run on
function M.cores()
  local p = io.popen("nproc 2>/dev/null")
  local n = p and tonumber(p:read("l") or "")
  if p then p:close() end
  return n or 1
end

local Pool = {}
Pool.__index = Pool

-- pool{ n, job, retries, send_trials } -> a pool of n workers for job = {
-- scenario, opts, out }; with send_trials, each trial is sent whole (a plan
-- that grows as it runs), else by id (the worker plans the same trials)
function M.pool(spec)
  local self = setmetatable({ n = spec.n, job = spec.job, retries = spec.retries or 2, workers = {},
    send_trials = spec.send_trials }, Pool)
  for i = 1, spec.n do self.workers[i] = self:start(i) end
  return self
end

-- start(i) -> a running worker: the process, its in-flight futures by trial id
function Pool:start(i)
  local p, err = proc.spawn({ host.exe, "worker" }, "inherit")
  if not p then cli.fail("cannot start worker %d: %s", i, err) end
  local w = { index = i, proc = p, waiting = {}, inflight = 0, alive = true }
  local ok, werr = p:write(json.canonical(self.job) .. "\n")
  if not ok then cli.fail("cannot start worker %d: %s", i, werr) end
  w.reader = loop.spawn(function()
    local next_line = M.lines(function() return p:read() end, p:fd())
    local ok2, rerr = pcall(function()
      for line in next_line do
        if line:sub(1, #M.MARK) == M.MARK then
          local msg = json.decode(line:sub(#M.MARK + 1))
          local f = msg and w.waiting[msg.id]
          if f then
            w.waiting[msg.id] = nil
            w.inflight = w.inflight - 1
            f:set(msg)
          end
        else
          io.stderr:write(line, "\n")
        end
      end
    end)
    -- the worker's output ended: it exited or died; its trials are re-queued
    w.alive = false
    local _, how, code = p:reap(true)
    local why = ok2 and string.format("worker %d ended (%s %s)", i, tostring(how), tostring(code))
      or string.format("worker %d: %s", i, tostring(rerr))
    for id, f in pairs(w.waiting) do
      w.waiting[id] = nil
      f:set({ id = id, infra = why })
    end
  end)
  return w
end

-- play(trial, stopped) -> the trial's final record | nil, config_error (as
-- runner.attempt), and what the worker's model calls spent meanwhile (for the
-- run-wide budgets), from whichever worker is least busy. A worker that dies
-- takes its trials with it: they are re-queued on a fresh worker.
function Pool:play(trial, stopped)
  local why
  for _ = 0, self.retries do
    if stopped and stopped() then return nil end
    local best
    for i, w in ipairs(self.workers) do
      if not w.alive then w = self:start(i); self.workers[i] = w end
      if not best or w.inflight < best.inflight then best = w end
    end
    local f = loop.future()
    best.waiting[trial.id] = f
    best.inflight = best.inflight + 1
    -- a planned-as-it-runs trial is sent whole (the worker cannot plan it)
    local ok = best.proc:write(json.canonical({ id = trial.id, trial = self.send_trials and trial or nil }) .. "\n")
    if not ok then
      best.waiting[trial.id] = nil
      best.inflight = best.inflight - 1
      best.alive = false
      why = string.format("worker %d closed its input", best.index)
    else
      local msg = f:await()
      if msg.record then return msg.record, nil, msg.spent end
      if msg.config then return nil, { config = true, infra = true, message = msg.config } end
      if msg.cut then return nil end
      if msg.fatal then error(cli.user_error(msg.fatal, msg.status or 1), 0) end
      why = msg.infra
      io.stderr:write(string.format("trial %s: %s; re-queued\n", trial.id, why))
    end
  end
  return { trial_id = trial.id, status = "error", reason = "error", error = why }
end

-- close(): end the workers' input and wait for them to finish
function Pool:close()
  for _, w in ipairs(self.workers) do
    if w.alive then w.proc:close_input() end
  end
  for _, w in ipairs(self.workers) do
    pcall(w.reader.await, w.reader)
    w.proc:close()
  end
end

-- serve(setup) — the worker's side: read the job, then trial ids, and answer
-- each. setup(job) -> play(trial_id, trial?) -> record | nil[, config_error], teardown().
-- A bug or a user error in the scenario ends the worker after telling the parent.
function M.serve(setup)
  local next_line = M.lines(function() return proc.read_fd(0) end, 0)
  local first = next_line()
  if not first then return 0 end
  local job = assert(json.decode(first), "worker: bad job line")
  local play, teardown = setup(job)
  local seen = {}
  local function answer(msg)
    msg.spent = require("tabula.budget").delta(seen)
    io.stdout:write(M.MARK, json.canonical(msg), "\n")
    io.stdout:flush()
  end
  local g = loop.group()
  for line in next_line do
    local msg = json.decode(line)
    g:spawn(function()
      local ok, rec, config = pcall(play, msg.id, msg.trial)
      if ok and rec then
        answer({ id = msg.id, record = rec })
      elseif ok and config then
        answer({ id = msg.id, config = tostring(config.message) })
      elseif ok then
        answer({ id = msg.id, cut = true })
      else
        local user = cli.is_user_error(rec)
        answer({ id = msg.id, fatal = user and rec.message or tostring(rec), status = user and rec.status or 1 })
        os.exit(1)
      end
    end)
  end
  g:wait()
  if teardown then teardown() end
  return 0
end

return M
