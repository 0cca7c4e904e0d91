-- The event loop: ordering of timers, thousands of tasks, errors reaching awaiters,
-- futures, groups, cancellation, fd readiness.
local t = require "tabula.testing"
local loop = require "tabula.loop"
local test, T = t.suite()

test("5000 sleeping tasks finish in deadline order", function()
  local order = {}
  local g = loop.group()
  local n = 5000
  local start = loop.now()
  -- deadlines spread over 0..50 ms, spawned in a scrambled order
  for i = 1, n do
    local k = (i * 7919) % n
    g:spawn(function()
      loop.sleep_until(start + k / 100000)
      order[#order + 1] = k
    end)
  end
  g:wait()
  t.eq(#order, n)
  for i = 2, n do
    if order[i] < order[i - 1] then error(string.format("task %d woke before %d", order[i], order[i - 1])) end
  end
end)

test("an error in a task reaches its awaiter with the task's traceback", function()
  local function deep() error("boom in the task") end
  local task = loop.spawn(function() loop.sleep(0.001); deep() end)
  local ok, err = pcall(task.await, task)
  t.eq(ok, false)
  t.contains(err, "boom in the task")
  t.contains(err, "deep")       -- the traceback names the function that failed
  t.eq(task.status, "failed")
end)

test("await returns every result; awaiting a finished task works", function()
  local task = loop.spawn(function(a, b) loop.sleep(0) return a + b, "x", nil, 4 end, 2, 3)
  local a, b, c, d = task:await()
  t.eq({ a, b, c, d }, { 5, "x", nil, 4 })
  t.eq(select("#", task:await()), 4)
end)

test("futures wake every waiter; a failed future raises in each", function()
  local f = loop.future()
  local got = {}
  local g = loop.group()
  for i = 1, 3 do g:spawn(function() got[i] = f:await() end) end
  loop.spawn(function() loop.sleep(0.001); f:set("value") end)
  g:wait()
  t.eq(got, { "value", "value", "value" })
  local f2 = loop.future()
  loop.spawn(function() f2:fail("nope") end)
  t.raises(function() f2:await() end, "nope")
end)

test("a group raises the first failure after all tasks finish", function()
  local g = loop.group()
  local finished = 0
  g:spawn(function() loop.sleep(0.002); finished = finished + 1 end)
  g:spawn(function() error("second task failed") end)
  g:spawn(function() loop.sleep(0.001); finished = finished + 1 end)
  t.raises(function() g:wait() end, "second task failed")
  t.eq(finished, 2)
end)

test("cancel stops a sleeping task and its awaiter sees Cancelled", function()
  local reached = false
  local task = loop.spawn(function() loop.sleep(10); reached = true end)
  loop.sleep(0)
  loop.cancel(task)
  local ok, err = pcall(task.await, task)
  t.eq(ok, false)
  t.eq(err, loop.Cancelled)
  t.eq(reached, false)
  t.eq(task.status, "cancelled")
  local timers = require("tabula.c.loop").pending()
  t.eq(timers, 0, "the cancelled timer is gone")
end)

test("map keeps result order and bounds concurrency", function()
  local running, peak = 0, 0
  local items = {}
  for i = 1, 40 do items[i] = i end
  local out = loop.map(items, 5, function(x)
    running = running + 1
    peak = math.max(peak, running)
    loop.sleep((40 - x) / 40000)
    running = running - 1
    return x * x
  end)
  t.eq(#out, 40)
  t.eq(out[7], 49)
  t.eq(peak, 5)
end)

test("await_fd wakes when a child process writes", function()
  local proc = require "tabula.c.proc"
  local p = assert(proc.spawn({ "sh", "-c", "sleep 0.05; echo hello" }))
  loop.await_fd(p:fd(), "r")
  t.eq(p:read(), "hello\n")
  local exited, how, code = p:reap(true)
  t.eq({ exited, how, code }, { true, "exit", 0 })
end)

test("a deadlock is reported instead of hanging", function()
  local ok, err = pcall(function()
    -- a nested run is refused, so test the message through a child process
    local bin = t.tabula_bin()
    local fs = require "tabula.fs"
    local dir = t.tmpdir()
    fs.write_atomic(dir .. "/dead.lua", 'local loop = require "tabula.loop"\nloop.run(function() loop.future():await() end)\n')
    local h = io.popen(bin .. " " .. dir .. "/dead.lua 2>&1; echo rc=$?")
    local out = h:read("a"); h:close()
    os.remove(dir .. "/dead.lua"); os.remove(dir)
    return out
  end)
  t.ok(ok, err)
  t.contains(err, "deadlock")
  t.contains(err, "rc=1")
end)

return T
