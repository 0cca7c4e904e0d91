-- tabula.workers — trials played in worker processes, so that CPU-bound runs
-- (built-in searches, engines) use every core.
--
-- The parent starts N copies of this binary as `tabula worker`. It sends one
-- job line (scenario file, options, run directory) and then one line per trial
-- id; a worker plans the same trials, plays each id it is sent (with the
-- runner's own retry rule) and answers with one line holding the final record.
-- Only the parent writes trials.jsonl, so the records are the same as with one
-- process: every trial draws its randomness from its own id.
--
-- The protocol (one JSON object a line) runs on its own pipes, the worker's
-- fd 3 (from the parent) and fd 4 (to the parent); the worker's stdin is
-- /dev/null and its stdout and stderr go to the parent's stderr, so nothing a
-- scenario prints can corrupt the protocol. Besides trial ids and answers:
--   worker -> parent  {op = "reserve", n, need}  a model call's worst case (tabula.budget)
--                     {op = "settle", n, spent}  what that call used
--                     {op = "alive"}             a heartbeat, while trials are in flight
--   parent -> worker  {op = "grant", n, grant, refused}
--
-- Workers die with their parent: each has a parent-death signal (SIGKILL) and
-- its own process group, which the parent kills on every way out (the end of
-- the run, an error, exit(), SIGINT/SIGTERM); a worker whose parent is gone
-- reserves nothing, so it makes no call. A watchdog kills a worker that is
-- stopped (SIGSTOP) or silent past --trial-timeout while it has trials in
-- flight; its trials are re-queued as infrastructure errors and the calls it
-- had open are counted at their reservation.
local proc = require "tabula.c.proc"
local host = require "tabula.c.host"
local loop = require "tabula.loop"
local json = require "tabula.json"
local cli = require "tabula.cli"
local budget = require "tabula.budget"

local M = {}

M.TRIAL_TIMEOUT = 3600   -- the default of --trial-timeout: well above --call-deadline (1800)

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
-- scenario, opts, out }, watched (job.opts["trial-timeout"] seconds of silence
-- at most); with send_trials, each trial is sent whole (a plan that grows as
-- it runs), else by id (the worker plans the same trials)
function M.pool(spec)
  local timeout = spec.job.opts and spec.job.opts["trial-timeout"] or M.TRIAL_TIMEOUT
  local job = {}
  for k, v in pairs(spec.job) do job[k] = v end
  job.parent = proc.getpid()
  job.heartbeat = math.min(5, timeout / 4)
  local self = setmetatable({ n = spec.n, job = job, retries = spec.retries or 2, workers = {},
    timeout = timeout, send_trials = spec.send_trials }, Pool)
  for i = 1, spec.n do self.workers[i] = self:start(i) end
  return self
end

-- the parent's answer to a worker's budget message
local function on_budget(w, msg)
  local ledger = budget.active
  local function send(m) if w.alive then w.proc:write(json.canonical(m) .. "\n") end end
  if not ledger then
    if msg.op == "reserve" then send({ op = "grant", n = msg.n, grant = true }) end
    return
  end
  local function gone() return not w.alive end
  if msg.op == "reserve" then
    loop.spawn(budget.serve, ledger, w.tickets, msg, send, gone)   -- it may wait for room
  else
    budget.serve(ledger, w.tickets, msg, send, gone)
  end
end

-- start(i) -> a running worker: the process, its in-flight futures by trial id,
-- its open reservations, when it was last heard from
function Pool:start(i)
  local p, err = proc.spawn({ host.exe, "worker" }, "inherit", { protocol = true, owned = true })
  if not p then cli.fail("cannot start worker %d: %s", i, err) end
  local w = { index = i, proc = p, pid = p:pid(), waiting = {}, inflight = 0, alive = true, tickets = {}, heard = loop.now() }
  local ok, werr = p:write(json.canonical(self.job) .. "\n")
  if not ok then cli.fail("cannot start worker %d: %s", i, werr) end
  w.reader = loop.spawn(function()
    local next_line = M.lines(function() return p:read() end, p:fd())
    local ok2, rerr = pcall(function()
      for line in next_line do
        w.heard = loop.now()
        local msg = json.decode(line)
        if type(msg) ~= "table" then error("bad protocol line: " .. line:sub(1, 200), 0) end
        if msg.op == "reserve" or msg.op == "settle" then
          on_budget(w, msg)
        elseif msg.id ~= nil and w.waiting[msg.id] then
          local f = w.waiting[msg.id]
          w.waiting[msg.id] = nil
          w.inflight = w.inflight - 1
          f:set(msg)
        end
      end
    end)
    -- the worker's output ended: it exited, died or was killed; its trials are
    -- re-queued and the calls it had open are counted at their reservation
    w.alive = false
    proc.signal(-w.pid, 9)        -- whatever is left of its process group
    local _, how, code = p:reap(true)
    local why = w.killed or (ok2 and string.format("worker %d ended (%s %s)", i, tostring(how), tostring(code))
      or string.format("worker %d: %s", i, tostring(rerr)))
    for n, ticket in pairs(w.tickets) do
      w.tickets[n] = nil
      if budget.active then budget.active:spend_worst(ticket) end
    end
    for id, f in pairs(w.waiting) do
      w.waiting[id] = nil
      f:set({ id = id, infra = why })
    end
  end)
  return w
end

-- why(w) -> why the watchdog kills this worker, or nil
function Pool:why(w)
  if not (w.alive and w.inflight > 0) then return nil end
  if proc.state(w.pid) == "T" then
    return string.format("worker %d was stopped (process %d, state T); killed", w.index, w.pid)
  end
  if loop.now() - w.heard > self.timeout then
    return string.format("worker %d was silent for %gs (--trial-timeout); killed", w.index, self.timeout)
  end
  return nil
end

-- watch(): the watchdog, while trials are in flight (Pool:play starts it)
function Pool:watch()
  local tick = math.min(1, self.timeout / 4)
  while not self.closed do
    loop.sleep(tick)
    local busy = false
    for _, w in ipairs(self.workers) do busy = busy or w.inflight > 0 end
    if not busy then self.watchdog = nil; return end
    for _, w in ipairs(self.workers) do
      local why = not self.closed and self:why(w)
      if why then
        w.killed = why
        proc.signal(-w.pid, 9)
        w.proc:kill(9)
      end
    end
  end
end

-- play(trial, stopped) -> the trial's final record | nil, config_error (as
-- runner.attempt), from whichever worker is least busy. A worker that dies
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
    if best.inflight == 0 then best.heard = loop.now() end   -- heartbeats come while trials are in flight
    best.inflight = best.inflight + 1
    if not self.watchdog then self.watchdog = loop.spawn(function() self:watch() end) end
    -- a planned-as-it-runs trial is sent whole (the worker cannot plan it)
    local ok = best.proc:write(json.canonical({ id = trial.id, trial = self.send_trials and trial or nil }) .. "\n")
    if not ok then
      best.waiting[trial.id] = nil
      best.inflight = best.inflight - 1
      best.alive = false
      why = string.format("worker %d closed its input", best.index)
    else
      local msg = f:await()
      if msg.record then return msg.record end
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
  self.closed = true
  if self.watchdog then loop.cancel(self.watchdog) end   -- its timer goes with it
end

-- abort(): the run failed: kill the workers now, stop the watchdog
function Pool:abort()
  self.closed = true
  if self.watchdog then loop.cancel(self.watchdog) end
  for _, w in ipairs(self.workers) do
    if w.alive then proc.signal(-w.pid, 9) end
  end
end

-- serve(setup) — the worker's side: read the job, then trial ids, and answer
-- each. setup(job) -> play(trial_id, trial?) -> record | nil[, config_error], teardown().
-- A bug or a user error in the scenario ends the worker after telling the parent.
function M.serve(setup)
  proc.cloexec(3); proc.cloexec(4)   -- engines the scenario starts do not inherit the protocol
  local next_line = M.lines(function() return proc.read_fd(3) end, 3)
  local first = next_line()
  if not first then return 0 end
  local job = assert(json.decode(first), "worker: bad job line")
  local function send(msg)
    local ok = proc.write_fd(4, json.canonical(msg) .. "\n")
    if not ok then os.exit(1) end    -- the parent is gone
  end
  local function alive() return proc.getppid() == job.parent end
  local asked, ended = {}, false
  budget.remote(function(msg)
    if ended then return nil end
    local f = loop.future()
    asked[msg.n] = f
    send(msg)
    return f:await()
  end, send, alive, budget.limits(job.opts or {}))
  local play, teardown = setup(job)
  local inflight = 0
  loop.spawn(function()          -- heartbeats while trials are in flight
    while not ended do
      loop.sleep(job.heartbeat or 5)
      if inflight > 0 and not ended then send({ op = "alive" }) end
    end
  end)
  local g = loop.group()
  for line in next_line do
    local msg = json.decode(line)
    if type(msg) == "table" and msg.op == "grant" then
      local f = asked[msg.n]
      asked[msg.n] = nil
      if f then f:set(msg) end
    elseif type(msg) == "table" then
      inflight = inflight + 1
      g:spawn(function()
        local ok, rec, config = pcall(play, msg.id, msg.trial)
        inflight = inflight - 1
        if ok and rec then
          send({ id = msg.id, record = rec })
        elseif ok and config then
          send({ id = msg.id, config = tostring(config.message) })
        elseif ok then
          send({ id = msg.id, cut = true })
        else
          local user = cli.is_user_error(rec)
          send({ id = msg.id, fatal = user and rec.message or tostring(rec), status = user and rec.status or 1 })
          os.exit(1)
        end
      end)
    end
  end
  ended = true
  for n, f in pairs(asked) do asked[n] = nil; f:set(nil) end   -- no parent to grant them
  g:wait()
  if teardown then teardown() end
  return 0
end

return M
