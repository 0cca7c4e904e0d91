-- tabula.loop — Lua coroutines as tasks over the C event loop (src/loop.c).
--
--   loop.run(fn, ...)         run fn as the main task until it finishes; returns its results
--   loop.spawn(fn, ...)       start a task; returns it
--   task:await()              its results, or raises its error (with the task's traceback)
--   loop.cancel(task)         stop a task: its pending wait raises loop.Cancelled
--   loop.sleep(seconds)       suspend the current task (sleep_until(t): until loop.now() >= t)
--   loop.await_fd(fd, "r"|"w" [, timeout]) suspend until fd is ready (false on timeout)
--   loop.await_token(token)   suspend until C code posts token (HTTP, engines)
--   loop.future()             f:set(...), f:fail(err), f:await()
--   loop.group()              g:spawn(fn, ...), g:wait(): wait for all, then raise the first error
--   loop.map(items, n, fn)    fn(item, i) for every item, at most n at once; results in order
--
-- A task that fails with nobody awaiting it stops the whole run with its error.
local C = require "tabula.c.loop"

local M = {}

M.Cancelled = setmetatable({}, { __tostring = function() return "task cancelled" end })

local Task = {}
Task.__index = Task
Task.__name = "task"

local ready = {}        -- queue of tasks to resume: ready[head..tail]
local ready_value = {}  -- the value each resumes with (M.Cancelled or nil), same index
local ready_head, ready_tail = 1, 0
local waiting = {}      -- token -> task
local current = nil
local main_task = nil
local orphan_error = nil
local next_id = 0

local function push_ready(task, value)
  ready_tail = ready_tail + 1
  ready[ready_tail] = task
  ready_value[ready_tail] = value
end

local function finish(task, ok, ...)
  if ok then
    task.status, task.results = "done", table.pack(...)
  else
    local err = ...
    task.status = err == M.Cancelled and "cancelled" or "failed"
    task.error = err
  end
  local waiters = task.waiters
  task.waiters = nil
  if (not waiters or #waiters == 0) and task.status == "failed" and task ~= main_task
     and not task.group and not orphan_error then
    orphan_error = task
  end
  for _, w in ipairs(waiters or {}) do w(task) end
end

local function with_traceback(e)
  if e == M.Cancelled then return e end
  if type(e) == "table" then
    if e.traceback == nil and not require("tabula.cli").is_user_error(e) then
      e.traceback = debug.traceback("", 2)
    end
    return e
  end
  return debug.traceback(tostring(e), 2)
end

function M.spawn(fn, ...)
  next_id = next_id + 1
  local task = setmetatable({ id = next_id, status = "ready" }, Task)
  local args = table.pack(...)
  task.co = coroutine.create(function()
    return finish(task, xpcall(fn, with_traceback, table.unpack(args, 1, args.n)))
  end)
  push_ready(task)
  return task
end

local function resume(task, value)
  if task.status ~= "ready" and task.status ~= "waiting" then return end
  task.status = "running"
  local prev = current
  current = task
  local ok, err = coroutine.resume(task.co, value)
  current = prev
  if not ok then   -- only a bug in the scheduler itself lands here
    error("task " .. task.id .. " crashed: " .. tostring(err))
  end
  if task.status == "running" then task.status = "ready" end
end

-- Suspends the current task until something calls wake(task).
local function suspend()
  local task = current
  if not task then error("this must be called inside a task (use loop.run)", 3) end
  task.status = "waiting"
  if coroutine.yield() == M.Cancelled then error(M.Cancelled, 0) end
end

local function wake(task)
  if task.status == "waiting" then
    task.status = "ready"
    task.token = nil
    push_ready(task)
  end
end

-- tokens posted while nobody waited on them (a stream chunk that came early)
local early = {}

-- forget(token): drop the memory of a token posted with no one waiting
function M.forget(token) early[token] = nil end

function M.await_token(token)
  local task = current
  if not task then error("await outside a task (use loop.run)", 2) end
  if early[token] then early[token] = nil; return end
  waiting[token] = task
  task.token = token
  return suspend()
end

function M.sleep(seconds)
  return M.await_token(C.timer((seconds or 0) * 1000))
end

-- sleep_until(t): until loop.now() >= t (seconds on the monotonic clock)
function M.sleep_until(t)
  return M.await_token(C.timer_at(t * 1000))
end

-- await_fd(fd, mode [, timeout]) -> true when fd is ready, false when timeout seconds passed first
function M.await_fd(fd, mode, timeout)
  local task = current
  if not task then error("await outside a task (use loop.run)", 2) end
  local token = C.watch(fd, mode or "r")
  local timer = timeout and C.timer(timeout * 1000)
  waiting[token] = task
  if timer then waiting[timer] = task end
  task.token, task.fd = token, fd
  local ok, err = pcall(suspend)
  local ready = waiting[token] == nil and (timer == nil or waiting[timer] ~= nil)
  if waiting[token] then waiting[token] = nil; C.unwatch(fd) end
  if timer and waiting[timer] then waiting[timer] = nil; C.cancel(timer) end
  task.fd = nil
  if not ok then error(err, 0) end
  return ready
end

function M.now() return C.now() / 1000 end
function M.current() return current end

function Task:await()
  if self.status == "ready" or self.status == "waiting" or self.status == "running" then
    local me = current
    if me == self then error("a task cannot await itself", 2) end
    self.waiters = self.waiters or {}
    self.waiters[#self.waiters + 1] = function() wake(me) end
    suspend()
  end
  if self.status == "done" then return table.unpack(self.results, 1, self.results.n) end
  if self.status == "cancelled" then error(M.Cancelled, 0) end
  self.awaited = true
  error(self.error, 0)
end

function Task:done() return self.status == "done" or self.status == "failed" or self.status == "cancelled" end

function M.cancel(task)
  if task:done() then return end
  if task.token then
    local tok = task.token
    waiting[tok] = nil
    C.cancel(tok)
    if task.fd then C.unwatch(task.fd) end
  end
  if task == current then error(M.Cancelled, 0) end
  if task.status == "waiting" then
    task.status = "ready"
    push_ready(task, M.Cancelled)
  elseif task.status == "ready" then
    -- never started or queued: finish it without running further
    task.status = "cancelled"
    task.error = M.Cancelled
    local waiters = task.waiters
    task.waiters = nil
    for _, w in ipairs(waiters or {}) do w(task) end
  end
end

-- ---- futures ----

local Future = {}
Future.__index = Future

function M.future()
  return setmetatable({ state = "pending", waiters = {} }, Future)
end

function Future:set(...)
  if self.state ~= "pending" then error("future already completed", 2) end
  self.state, self.values = "set", table.pack(...)
  for _, t in ipairs(self.waiters) do wake(t) end
  self.waiters = nil
end

function Future:fail(err)
  if self.state ~= "pending" then error("future already completed", 2) end
  self.state, self.error = "failed", err
  for _, t in ipairs(self.waiters) do wake(t) end
  self.waiters = nil
end

function Future:await()
  if self.state == "pending" then
    self.waiters[#self.waiters + 1] = current
    suspend()
  end
  if self.state == "failed" then error(self.error, 0) end
  return table.unpack(self.values, 1, self.values.n)
end

-- ---- groups ----

local Group = {}
Group.__index = Group

function M.group() return setmetatable({ tasks = {} }, Group) end

function Group:spawn(fn, ...)
  local t = M.spawn(fn, ...)
  t.group = self
  self.tasks[#self.tasks + 1] = t
  return t
end

-- wait(): waits for every task; raises the first failure (in spawn order).
function Group:wait()
  local first
  for _, t in ipairs(self.tasks) do
    local ok, err = pcall(t.await, t)
    if not ok and first == nil then first = err end
  end
  if first ~= nil then error(first, 0) end
end

function Group:cancel()
  for _, t in ipairs(self.tasks) do M.cancel(t) end
end

-- map(items, n, fn) -> results: fn(item, i) with at most n running at once.
function M.map(items, n, fn)
  local results, next_i = {}, 1
  local g = M.group()
  local function worker()
    while next_i <= #items do
      local i = next_i
      next_i = i + 1
      results[i] = fn(items[i], i)
    end
  end
  for _ = 1, math.max(1, math.min(n, #items)) do g:spawn(worker) end
  g:wait()
  return results
end

-- ---- the driver ----

function M.run(fn, ...)
  if current then error("loop.run cannot be nested inside a task", 2) end
  main_task = M.spawn(fn, ...)
  local main = main_task
  orphan_error = nil
  while true do
    while ready_head <= ready_tail do
      local task, value = ready[ready_head], ready_value[ready_head]
      ready[ready_head], ready_value[ready_head] = nil, nil
      ready_head = ready_head + 1
      resume(task, value)
      if orphan_error then break end
    end
    if ready_head > ready_tail then ready_head, ready_tail = 1, 0 end   -- keep the queue in the array part
    if orphan_error then
      local t = orphan_error
      orphan_error = nil
      main_task = nil
      error(t.error, 0)
    end
    if main:done() then break end
    local tokens = C.step(-1)
    local woke = false
    for _, tok in ipairs(tokens) do
      local task = waiting[tok]
      if task then
        waiting[tok] = nil
        wake(task)
        woke = true
      elseif tok >= (1 << 62) then   -- a C component's token (not a timer or fd watch)
        early[tok] = true
      end
    end
    if not woke and ready_head > ready_tail and next(waiting) == nil then
      local timers = C.pending()
      if timers == 0 then
        main_task = nil
        error("deadlock: every task is waiting on a future or task that nothing will complete", 0)
      end
    end
  end
  main_task = nil
  return main:await_result()
end

function Task:await_result()
  if self.status == "done" then return table.unpack(self.results, 1, self.results.n) end
  error(self.error, 0)
end

return M
