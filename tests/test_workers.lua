-- Worker processes die with their parent and cannot hang a run
-- (tabula.workers): the protocol has its own pipes, a killed parent leaves no
-- worker and no call behind, a stopped or silent worker is killed and its
-- trials re-queued.
-- slow: worker processes killed and replaced during runs (left out by make check)
local t = require "tabula.testing"
local fs = require "tabula.fs"
local records = require "tabula.records"
local proc = require "tabula.c.proc"
local loop = require "tabula.loop"
local child = require "tests.child"
local test, T = t.suite()

local function recorded(dir)
  local by = {}
  local n = 0
  if fs.kind(dir .. "/trials.jsonl") then
    for _, r in ipairs((records.read(dir .. "/trials.jsonl"))) do by[r.trial_id] = r; n = n + 1 end
  end
  return by, n
end

-- a scenario: `calls` model calls a trial (none: no model), plus whatever `extra` does
local function scenario(dir, calls, extra)
  local path = dir .. "/scen.lua"
  fs.write_atomic(path, string.format([[
local S = { name = "w", summary = "a worker test scenario" }
function S.plan(opts) local ts = {} for i = 1, opts.trials do ts[i] = { id = string.format("t%%02d", i) } end return ts end
function S.play(trial, env)
  %s
  for i = 1, %d do
    local reply, err = env.agent:reply({ { role = "user", content = trial.id .. " call " .. i } }, { sample = i })
    if not reply then return nil, err end
  end
  return { trial_id = trial.id, status = "success", reason = "ok" }
end
return S
]], extra or "", calls))
  return path
end

local function models(dir, url)
  fs.write_atomic(dir .. "/models.lua", string.format(
    [[return { m = { provider = "openai", model = "m", base_url = %q, optional_key = true } }]], url .. "/v1"))
  return dir .. "/models.lua"
end

test("workers: what a scenario prints (no newline) cannot corrupt the protocol", function()
  local dir = t.tmpdir()
  local scen = scenario(dir, 0, [[io.write("x"); io.stdout:write("{\"id\":\"t01\",\"cut\":true}"); io.stderr:write("y")]])
  local rc, out = child.run({ "run", scen, "--model", "random", "--trials", "12", "--workers", "2", "--out", dir .. "/run", "--quiet" }, 60)
  t.eq(rc, 0, out)
  local by, n = recorded(dir .. "/run")
  t.eq(n, 12, out)
  for i = 1, 12 do t.eq(by[string.format("t%02d", i)].status, "success") end
  t.contains(out, "x")      -- passed through to the parent's stderr
end)

test("workers: SIGKILL of the parent kills every worker, and no call is made after it", function()
  local mock = require "tests.mock"
  local s = mock.start(nil, { "--delay-ms", "100" })
  local dir = t.tmpdir()
  local scen = scenario(dir, 40)   -- 40 calls of 0.1 s a trial: trials are in flight when the parent dies
  local c = child.start({ "run", scen, "--model", "m", "--models", models(dir, s.url), "--trials", "8",
    "--concurrency", "4", "--workers", "2", "--out", dir .. "/run", "--quiet" })
  child.until_true(function() return s:requests() >= 8 end, 30, "the workers' first calls")
  local workers = child.children(c.pid)
  t.eq(#workers, 2)
  proc.signal(c.pid, 9)
  t.eq(c:wait(10), 137)
  local at_kill = s:requests()
  child.until_true(function()
    for _, pid in ipairs(workers) do if child.alive(pid) then return false end end
    return true
  end, 5, "the workers to die with their parent")
  -- what reached the server before the workers died is all it ever sees
  local seen = s:requests()
  loop.sleep(1)
  t.eq(s:requests(), seen, "requests after the workers died")
  -- at most the 4 calls in flight at the kill reach the server after it
  t.ok(seen - at_kill <= 4, string.format("the server saw %d requests after the parent was killed", seen - at_kill))
  -- and spend.jsonl holds every call that finished (the ones cut in flight are not answered)
  local spent = fs.kind(dir .. "/run/spend.jsonl") and #(records.read(dir .. "/run/spend.jsonl")) or 0
  t.ok(spent <= seen and spent >= seen - 4, string.format("spend.jsonl: %d calls, the server saw %d", spent, seen))
  s:close()
end)

test("workers: a stopped worker (SIGSTOP) is killed, its trials re-queued, and the run completes", function()
  local mock = require "tests.mock"
  local s = mock.start(nil, { "--delay-ms", "50" })
  local dir = t.tmpdir()
  local scen = scenario(dir, 2)
  local c = child.start({ "run", scen, "--model", "m", "--models", models(dir, s.url), "--trials", "40",
    "--concurrency", "4", "--workers", "2", "--out", dir .. "/run", "--verbose" })
  child.until_true(function() return s:requests() >= 2 end, 30, "the first calls")
  local workers = child.children(c.pid)
  t.eq(#workers, 2)
  proc.signal(workers[1], 19)    -- SIGSTOP
  local rc, out = c:finish(60)
  t.eq(rc, 0, out)
  t.contains(out, "was stopped")
  t.contains(out, "re-queued")
  local by, n = recorded(dir .. "/run")
  t.eq(n, 40, out)
  for _, r in pairs(by) do t.eq(r.status, "success") end
  t.ok(not child.alive(workers[1]))
  s:close()
end)

test("workers: a worker silent past --trial-timeout is killed and its trial re-queued", function()
  local dir = t.tmpdir()
  local marker = dir .. "/hung-once"
  -- trial t03 hangs its worker's event loop once (no heartbeat can go out)
  local scen = scenario(dir, 0, string.format(
    [[if trial.id == "t03" and not io.open(%q) then io.open(%q, "w"):close(); while true do end end]], marker, marker))
  local rc, out = child.run({ "run", scen, "--model", "random", "--trials", "6", "--workers", "2",
    "--trial-timeout", "1", "--out", dir .. "/run", "--quiet" }, 60)
  t.eq(rc, 0, out)
  t.contains(out, "was silent for 1s (--trial-timeout)")
  local by, n = recorded(dir .. "/run")
  t.eq(n, 6)
  t.eq(by.t03.status, "success")
end)

return T
