-- Calls in flight when the run is killed (issue 46, item 3): every reservation
-- is journalled (RUN/reservations.jsonl, fsynced) before its call is sent, and
-- the next session counts a reservation that was never settled at its worst
-- case, or at its real cost when its reply reached the response cache. So
-- spend.jsonl counts at least every request the server saw, and a run killed
-- again and again cannot pass its budget.
-- slow: runs killed three times with calls in flight to a slow mock server (left out by make check)
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local budget = require "tabula.budget"
local proc = require "tabula.c.proc"
local child = require "tests.child"
local test, T = t.suite()

local SCEN = t.root() .. "/tests/faulty_scenario.lua"   -- one model call per trial

local function spent(dir)
  local s = { calls = 0, unsettled = 0, lines = 0 }
  for _, r in ipairs(fs.kind(dir .. "/spend.jsonl") and records.read(dir .. "/spend.jsonl") or {}) do
    s.calls, s.lines = s.calls + r.calls, s.lines + 1
    if r.unsettled then s.unsettled = s.unsettled + 1 end
  end
  return s
end

local function recorded(dir)
  return fs.kind(dir .. "/trials.jsonl") and #(records.read(dir .. "/trials.jsonl")) or 0
end

-- killed(args, s, dir, kills): runs `tabula args` `kills` times, each killed
-- (SIGKILL) once two more requests reached the server (the mock answers each
-- after a second: they are in flight), then once to its end -> exit code, output
local function killed(args, s, kills)
  for k = 1, kills do
    local before = s:requests()
    local c = child.start(args)
    child.until_true(function() return s:requests() >= before + 2 end, 60, "two calls in flight (kill " .. k .. ")")
    proc.signal(c.pid, 9)
    c:finish(30)
  end
  return child.run(args, 120)
end

for _, workers in ipairs({ "1", "2" }) do
  test("killed 3 times with calls in flight (--workers " .. workers .. "): spend.jsonl counts every request the server saw", function()
    local mock = require "tests.mock"
    local s = mock.start(nil, { "--delay-ms", "1000" })
    local dir = t.tmpdir() .. "/run"
    local args = { "run", SCEN, "--model", "local:" .. s.url .. "/v1:m", "--trials", "12", "--concurrency", "4",
      "--workers", workers, "--out", dir, "--quiet" }
    local rc, out = killed(args, s, 3)
    t.eq(rc, 0, out)
    t.eq(recorded(dir), 12)
    local sp, requests = spent(dir), s:requests()
    t.ok(sp.calls >= requests, string.format("spend.jsonl counts %d calls (%d lines), the server saw %d requests", sp.calls, sp.lines, requests))
    t.ok(sp.unsettled >= 3, string.format("%d calls counted at their reservation after 3 kills", sp.unsettled))
    -- each call in flight was counted once: at most what was reserved when killed (4 a kill) on top
    t.ok(sp.calls <= requests + 3 * 4, string.format("%d calls counted for %d requests", sp.calls, requests))
    t.eq(fs.read(dir .. "/reservations.jsonl"), "", "the journal starts afresh once every reservation is settled")
    s:close()
  end)
end

test("--max-calls 10 killed 3 times with calls in flight: the server sees at most 10 calls", function()
  local mock = require "tests.mock"
  local s = mock.start(nil, { "--delay-ms", "1000" })
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return {
  priced = { provider = "openai", model = "m", base_url = %q, optional_key = true, prices = { input = 1000, output = 2000 } } }]],
    s.url .. "/v1"))
  local args = { "run", SCEN, "--models", dir .. "/models.lua", "--model", "priced", "--trials", "30", "--concurrency", "4",
    "--max-calls", "10", "--out", dir .. "/run", "--quiet" }
  local rc, out = killed(args, s, 3)
  t.eq(rc, budget.EXIT, out)
  t.ok(s:requests() <= 10, string.format("the server saw %d calls for --max-calls 10", s:requests()))
  t.contains(out, "the --max-calls budget of 10 calls was reached (10 calls made)")
  t.eq(spent(dir .. "/run").calls, 10)
  s:close()
end)

test("an unsettled reservation whose reply reached the cache is counted at its real cost, once", function()
  local dir = t.tmpdir()
  local cfg = { name = "m", prices = { input = 1000, output = 2000 } }
  local body = { model = "m", messages = { { role = "user", content = "hi" } }, max_tokens = 100 }
  local cache_hit, cache_miss = dir .. "/cache/ab/hit.json", dir .. "/cache/cd/miss.json"
  -- a session reserves three calls and is "killed": one settled, two not
  local l = budget.new({ ["max-cost"] = 100 }, cfg, dir)
  l:reconcile()
  local a = assert(budget.reserve(cfg, body, { cache = dir .. "/cache/00/settled.json" }))
  local b = assert(budget.reserve(cfg, body, { cache = cache_hit }))
  local c = assert(budget.reserve(cfg, body, { cache = cache_miss }))
  local worst = c.need.cost
  a:settle({ usage = { input = 10, output = 5 }, cost = 0.02 })
  fs.mkdir_p(fs.dirname(cache_hit))
  fs.write_atomic(cache_hit, json.canonical({ text = "hello", usage = { input = 12, output = 7 }, cost = 0.03 }))
  t.eq(#records.read(dir .. "/reservations.jsonl"), 3, "journalled before the calls")
  l.writer:close(); l.journal:close()   -- as a kill leaves them: no close(), nothing settled
  budget.active = nil
  -- the next session counts them
  local l2 = budget.new({ ["max-cost"] = 100 }, cfg, dir)
  t.near(l2.spent.cost, 0.02, 1e-12, "before reconciling: the settled call only")
  l2:reconcile()
  t.eq(l2.spent.calls, 3)
  t.near(l2.spent.cost, 0.02 + 0.03 + worst, 1e-12)
  local lines = records.read(dir .. "/spend.jsonl")
  t.eq(#lines, 3)
  t.eq({ lines[2].from_cache, lines[2].input, lines[2].output }, { true, 12, 7 })
  t.eq(lines[3].unsettled, true)
  t.eq(lines[3].r, c.r)
  l2:close()
  -- and only once: a third session adds nothing
  local l3 = budget.new({ ["max-cost"] = 100 }, cfg, dir)
  l3:reconcile()
  t.eq(l3.spent.calls, 3)
  l3:close()
  -- a reservation released (the call failed) is not counted
  local l4 = budget.new({ ["max-calls"] = 100 }, cfg, dir)
  l4:reconcile()
  do local failed <close> = assert(budget.reserve(cfg, body)) end
  l4.journal:close(); l4.journal = nil
  budget.active = nil
  local l5 = budget.new({ ["max-calls"] = 100 }, cfg, dir)
  l5:reconcile()
  t.eq(l5.spent.calls, 3)
  l5:close()
end)

return T
