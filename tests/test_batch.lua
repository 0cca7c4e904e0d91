-- --batch over the mock server's batch APIs (OpenAI Batch with Responses and
-- Chat Completions bodies, Anthropic Message Batches, Gemini batch mode):
-- records identical to a direct run at half the cost, the ids journalled
-- before waiting, a killed run resumed without resubmitting, failed, expired
-- and cancelled items re-queued then recorded as errors, budgets, limits,
-- per-round batches of a multi-turn scenario, and what the mock refuses.
-- slow: batch runs against the mock server's batch endpoints for each provider (left out by make check)
local t = require "tabula.testing"
local mock = require "tests.mock"
local child = require "tests.child"
local fam = require "tests.families"
local fs = require "tabula.fs"
local json = require "tabula.json"
local http = require "tabula.http"
local records = require "tabula.records"
local proc = require "tabula.c.proc"
local batch = require "tabula.batch"
local test, T = t.suite()

local ORDER = fam.ORDER   -- claude (Anthropic), gpt (Responses), gemini, open (Chat Completions)
local FAULTY = t.root() .. "/tests/faulty_scenario.lua"
local MULTI = t.root() .. "/tests/batch_scenario.lua"

-- a models file with prices for every family of tests/families.lua
local function models_file(dir, server)
  local lines = { "return {" }
  for _, f in ipairs(ORDER) do
    local m = fam.FAMILIES[f]
    lines[#lines + 1] = string.format("  %s = { provider = %q, model = %q, base_url = %q, key_env = 'TABULA_NO_KEY', optional_key = true, "
      .. "prices = { input = 2, output = 8 } },", f, m.provider, m.model, server.url .. m.base)
  end
  lines[#lines + 1] = "}"
  fs.write_atomic(dir .. "/models.lua", table.concat(lines, "\n") .. "\n")
  return dir .. "/models.lua"
end

-- records(dir) -> the run's records by trial id, and their total cost
local function by_id(dir)
  local out, cost = {}, 0
  for _, r in ipairs((records.read(dir .. "/trials.jsonl"))) do
    t.eq(out[r.trial_id], nil, "a duplicate record of " .. tostring(r.trial_id))
    out[r.trial_id] = r
    cost = cost + (r.cost or 0)
  end
  return out, cost
end

-- start(rules) -> the mock server, a temporary directory and its models file
local function start(rules)
  local s = mock.start(rules)
  local dir = t.tmpdir()
  return s, dir, models_file(dir, s)
end

-- lose(run): the run's response cache and records gone (a full disk, a slip of rm)
local function lose(run)
  t.sh("rm -rf " .. t.quote(run .. "/cache") .. " " .. t.quote(run .. "/trials.jsonl") .. " " .. t.quote(run .. "/trials.jsonl.idx"))
end

local function without_cost(r)
  local c = {}
  for k, v in pairs(r) do if k ~= "cost" then c[k] = v end end
  return c
end

-- same(direct, batched, what): the same trials and records but for the cost, which is half
local function same(direct_dir, batch_dir, what)
  local a, ca = by_id(direct_dir)
  local b, cb = by_id(batch_dir)
  local n = 0
  for id, r in pairs(a) do
    n = n + 1
    t.ok(b[id], what .. ": trial " .. id .. " is missing from the batch run")
    t.eq(without_cost(b[id]), without_cost(r), what .. ": trial " .. id)
    t.near(b[id].cost, r.cost / 2, 1e-12, what .. ": trial " .. id .. " at half price")
  end
  for id in pairs(b) do t.ok(a[id], what .. ": the batch run has an extra trial " .. id) end
  t.ok(ca > 0, what .. ": the direct run cost something")
  t.near(cb, ca / 2, 1e-9, what .. ": the run at half price")
  return n
end

-- journal(dir [, op]) -> the lines of batches.jsonl (of that op)
local function journal(dir, op)
  local out = {}
  for _, l in ipairs(records.read(dir .. "/batches.jsonl")) do if not op or l.op == op then out[#out + 1] = l end end
  return out
end

local function ops(dir, op)
  local n = 0
  for _, l in ipairs(journal(dir)) do if l.op == op then n = n + 1 end end
  return n
end

-- transcripts(dir) -> what the transcripts hold, by trial (without costs), and their texts
local function transcripts(dir)
  local calls, texts = {}, {}
  for _, r in ipairs((records.read(dir .. "/transcripts/trials.jsonl"))) do
    calls[r.trial_id] = (json.canonical(r):gsub('"cost":[^,}]*,?', ""):gsub('"seconds":[^,}]*,?', ""))   -- a direct reply's time
  end
  for _, r in ipairs((records.read(dir .. "/transcripts/texts.jsonl"))) do texts[r.sha] = r.text end
  return { calls = calls, texts = texts }
end

test("Jianghu108, 24 problems, through --batch for each provider: the direct run's records at half the cost, in one batch", function()
  local data = t.need_shared("jianghu108") .. "/江湖残局.json"
  for _, f in ipairs(ORDER) do
    local s, dir, mf = start({ { reply = "<box>C</box>", reasoning = "The cannon screens the general." } })
    local args = { "--model", f, "--models", mf, "--data", data, "--limit", "24", "--quiet" }   -- 24 of the 108: the batch path is the same
    local function run(out, ...)
      local a = { table.unpack(args) }
      for _, x in ipairs({ "--out", out, ... }) do a[#a + 1] = x end
      return t.run_scenario("scenarios/jianghu108.lua", a)
    end
    t.eq(run(dir .. "/direct"), 0, f)
    local direct_requests = s:requests()
    t.eq(direct_requests, 24, f .. ": 24 calls")
    t.eq(run(dir .. "/batch", "--batch", "--batch-poll", "0.001"), 0, f)
    local st = s:stats()
    t.eq(st.batch_creates, 1, f .. ": one batch")
    t.eq(st.requests - direct_requests, 24, f .. ": 24 items answered")
    t.eq(same(dir .. "/direct", dir .. "/batch", f), 24)
    t.eq(transcripts(dir .. "/batch"), transcripts(dir .. "/direct"), f .. ": the transcripts")
    local j = journal(dir .. "/batch")
    t.eq({ #j, j[1].op, j[2].op, #j[2].items, j[3].op, #j[3].failed }, { 3, "creating", "submitted", 24, "ended", 0 }, f)
    t.eq(j[1].tag, j[2].tag)
    t.eq(j[2].provider, fam.FAMILIES[f].provider)
    -- the spend at batch prices, as the budgets count it
    local spent = 0
    for _, l in ipairs(records.read(dir .. "/batch/spend.jsonl")) do spent = spent + l.cost end
    local _, cost = by_id(dir .. "/batch")
    t.near(spent, cost, 1e-9, f .. ": spend.jsonl")
    s:close()
  end
end)

test("TsuGO with --batch for each provider: the direct run's records at half the cost", function()
  for _, f in ipairs(ORDER) do
    local s, dir, mf = start({ { reply = "The vital point first.\nanswer is A", reasoning = "A kills: the eye space is too small." } })
    local args = { "--model", f, "--models", mf, "--candidates", "4", "--ids", "tabula-go-0001,tabula-go-0002,tabula-go-0003",
      "--gnugo", "none", "--engine-playouts", "150", "--mcts-playouts", "60", "--no-references", "--quiet" }
    local function run(out, ...)
      local a = { table.unpack(args) }
      for _, x in ipairs({ "--out", out, ... }) do a[#a + 1] = x end
      return t.run_scenario("scenarios/tsugo.lua", a)
    end
    t.eq(run(dir .. "/direct"), 0, f)
    t.eq(run(dir .. "/batch", "--batch", "--batch-poll", "0.001"), 0, f)
    t.eq(s:stats().batch_creates, 1, f)
    t.eq(same(dir .. "/direct", dir .. "/batch", f), 3)
    s:close()
  end
end)

-- a run of the one-call scenario through --batch, as a child process
local function faulty_args(f, mf, out, ...)
  local a = { "run", FAULTY, "--model", f, "--models", mf, "--trials", "12", "--out", out, "--batch", "--batch-poll", "0.005", "--quiet" }
  for _, x in ipairs({ ... }) do a[#a + 1] = x end
  return a
end

-- killed(f, rules, control, ready, what) -> server, models file, run: a --batch
-- run of the one-call scenario as f, with the mock's batch controls set,
-- killed (SIGKILL) once ready(the mock's stats) holds
local function killed(f, rules, control, ready, what)
  local s, dir, mf = start(rules)
  s:batch(control)
  local run = dir .. "/run"
  local c = child.start(faulty_args(f, mf, run))
  child.until_true(function() return ready(s:stats()) end, 30, what)
  proc.signal(c.pid, 9)
  c:finish(30)
  return s, mf, run
end

test("killed while it polls, the run resumes by polling the same batch: nothing is submitted twice", function()
  for _, f in ipairs(ORDER) do
    -- the batch's clock stands still: the run polls until it is killed
    local s, mf, run = killed(f, { { match = "t00", reply = "a win" }, { reply = "no" } }, { step = 0 },
      function(st) return st.batch_polls >= 3 end, "the run to poll its batch")
    -- the id was on disk before the first poll
    local j = journal(run)
    t.eq({ #j, j[1].op, j[2].op, #j[2].items }, { 2, "creating", "submitted", 12 }, f)
    j = { j[2] }
    t.eq(fs.kind(run .. "/trials.jsonl") and #records.read(run .. "/trials.jsonl") or 0, 0, f .. ": nothing recorded yet")
    -- tabula batch status polls it and says where it stands
    local rc, out = t.tabula("batch", "status", run)
    t.eq(rc, 0, out)
    t.contains(out, j[1].id)
    t.ok(out:find("in_progress", 1, true) or out:find("running", 1, true), out)
    t.contains(out, "1 batches, 1 not ended")
    s:batch_step(3600)
    rc, out = child.run(faulty_args(f, mf, run), 60)
    t.eq(rc, 0, out)
    t.eq(s:stats().batch_creates, 1, f .. ": resumed without a second batch")
    local recs = by_id(run)
    local n = 0
    for id, r in pairs(recs) do
      n = n + 1
      t.eq(r.text, id:match("^t00") and "a win" or "no", f .. " " .. id)
    end
    t.eq(n, 12, f)
    t.eq(ops(run, "ended"), 1, f)
    t.eq(ops(run, "submitted"), 1, f)
    s:close()
  end
end)

test("killed while a batch is created: the resumed run finds it by its label (OpenAI metadata, Gemini display name), not sending it twice", function()
  for _, f in ipairs({ "gpt", "gemini" }) do
    -- the batch exists, its id is not answered before the kill
    local s, mf, run = killed(f, { { reply = "a win" } }, { create_delay_ms = 60000 },
      function(st) return st.batch_creates >= 1 end, "the create to reach the server")
    t.eq({ ops(run, "creating"), ops(run, "submitted") }, { 1, 0 }, f .. ": journalled before the create, never answered")
    local _, said = t.tabula("batch", "status", run)
    t.contains(said, "its id never answered; the run, continued, looks it up at the service")
    s:batch({ create_delay_ms = 0 })
    local rc, out = child.run(faulty_args(f, mf, run), 60)
    t.eq(rc, 0, out)
    t.eq(s:stats().batch_creates, 1, f .. ": not created twice")
    local adopted
    for _, l in ipairs(journal(run)) do if l.op == "submitted" then adopted = l.adopted end end
    t.eq(adopted, true, f)
    t.eq(#records.read(run .. "/trials.jsonl"), 12, f)
    s:close()
  end
end)

test("a create journalled but unknown at the service is abandoned and its calls go into a new batch", function()
  local s, dir, mf = start({ { reply = "a win" } })
  local args = { "--model", "gpt", "--models", mf, "--trials", "3", "--out", dir .. "/run", "--batch", "--batch-poll", "0.001", "--quiet" }
  t.eq(t.run_scenario(FAULTY, args), 0)
  -- as if the run had been killed before its create reached the server
  local creating = journal(dir .. "/run")[1]
  t.eq(creating.op, "creating")
  creating.tag = "not-at-the-service"
  lose(dir .. "/run")
  records.write_file(dir .. "/run/batches.jsonl", { json.canonical(creating) })
  t.eq(t.run_scenario(FAULTY, args), 0)
  t.eq(s:stats().batch_creates, 2)
  t.eq(ops(dir .. "/run", "abandoned"), 1)
  t.eq(#records.read(dir .. "/run/trials.jsonl"), 3)
  s:close()
end)

test("a reply missing from the cache of an ended batch is read from the batch again, neither resubmitted nor paid twice", function()
  local s, dir, mf = start({ { reply = "a win" } })
  local args = { "--model", "gpt", "--models", mf, "--trials", "4", "--out", dir .. "/run", "--batch", "--batch-poll", "0.001", "--quiet" }
  t.eq(t.run_scenario(FAULTY, args), 0)
  -- the cache and the records lost (a full disk, say): the journal says the batch answered them
  lose(dir .. "/run")
  t.eq(t.run_scenario(FAULTY, args), 0)
  t.eq(s:stats().batch_creates, 1, "not resubmitted")
  t.eq(#records.read(dir .. "/run/trials.jsonl"), 4)
  t.eq(#records.read(dir .. "/run/spend.jsonl"), 4, "not paid twice")
  s:close()
end)

test("tabula batch cancel: the batch is cancelled; the run, continued, submits its calls again in a new batch", function()
  for _, f in ipairs({ "claude", "gpt", "gemini" }) do
    local s, mf, run = killed(f, { { reply = "a win" } }, { step = 0 }, function(st) return st.batch_polls >= 2 end, "the run to poll its batch")
    local rc, out = t.tabula("batch", "cancel", run)
    t.eq(rc, 0, out)
    t.contains(out, "cancel requested")
    t.eq(ops(run, "cancel"), 1, f)
    s:batch_step(3600)
    rc, out = child.run(faulty_args(f, mf, run), 60)
    t.eq(rc, 0, out)
    t.eq(s:stats().batch_creates, 2, f .. ": the cancelled calls in a second batch")
    local ended = {}
    for _, l in ipairs(journal(run)) do if l.op == "ended" then ended[#ended + 1] = { l.status, #l.failed } end end
    t.eq(ended[1][2], 12, f .. ": every call of the cancelled batch failed")
    -- a cancelled Message Batch ends like any other ("ended"); OpenAI's and Gemini's say cancelled
    t.eq(ended[1][1], ({ claude = "ended", gpt = "cancelled", gemini = "cancelled" })[f], f)
    t.eq(ended[2], { f == "claude" and "ended" or f == "gemini" and "succeeded" or "completed", 0 }, f)
    local n = 0
    for _, r in pairs(by_id(run)) do n = n + 1; t.eq(r.status, "success") end
    t.eq(n, 12, f)
    rc, out = t.tabula("batch", "status", run)
    t.contains(out, "2 batches, 0 not ended", out)
    s:close()
  end
end)

test("an item that errored or expired is re-queued into a new batch; one that keeps failing is recorded as error, never scored", function()
  for _, f in ipairs(ORDER) do
    local s = mock.start({
      { match = "trial t002", fault = "500", times = 1 },          -- errors once
      { match = "trial t003", batch_seconds = 200000, times = 1 }, -- expires once (past the window)
      { match = "trial t004", fault = "503" },                     -- errors every time
      { reply = "a win" } })
    s:batch_step(100000)
    local dir = t.tmpdir()
    local mf = models_file(dir, s)
    local run = dir .. "/run"
    local rc, out = child.run(faulty_args(f, mf, run, "--trials", "6", "--retries", "1"), 60)
    t.eq(rc, 3, out)   -- a run with infrastructure errors
    t.contains(out, "trial t002: infrastructure error, re-queued")
    t.contains(out, "trial t003: infrastructure error, re-queued")
    t.eq(s:stats().batch_creates, 2, f .. ": the re-queued calls in a second batch")
    local recs = by_id(run)
    for _, id in ipairs({ "t001", "t002", "t003", "t005", "t006" }) do t.eq(recs[id].status, "success", f .. " " .. id) end
    t.eq(recs.t004.status, "error", f .. ": t004 recorded as an error")
    t.contains(recs.t004.error, "batch")
    local ended = {}
    for _, l in ipairs(journal(run)) do if l.op == "ended" then ended[#ended + 1] = #l.failed end end
    if f == "gemini" then
      t.eq(ended, { 6, 1 }, f .. ": an expired Gemini batch returns no responses, so all six are re-queued")
    else
      t.eq(ended, { 3, 1 }, f .. ": t002, t003 and t004, then t004 again")
    end
    s:close()
  end
end)

test("budgets reserve batch items like calls: --max-calls 3 puts three calls in the batch and stops the run", function()
  local s, dir, mf = start({ { reply = "a win" } })
  local run = dir .. "/run"
  local rc, out = child.run(faulty_args("claude", mf, run, "--trials", "6", "--max-calls", "3", "--quiet"), 60)
  t.eq(rc, require("tabula.budget").EXIT, out)
  t.contains(out, "--max-calls budget of 3 calls was reached")
  local j = journal(run, "submitted")
  t.eq(#j[1].items, 3)
  local n = 0
  for _ in pairs(by_id(run)) do n = n + 1 end
  t.eq(n, 3)
  local spent = records.read(run .. "/spend.jsonl")
  t.eq(#spent, 3)
  -- continued with a larger budget: the other three in a second batch, none paid twice
  rc, out = child.run(faulty_args("claude", mf, run, "--trials", "6", "--max-calls", "6", "--quiet"), 60)
  t.eq(rc, 0, out)
  t.eq(s:stats().batch_creates, 2)
  t.eq(s:requests(), 6)
  t.eq(#records.read(run .. "/spend.jsonl"), 6)
  s:close()
end)

test("batches are cut at the service's limits; the journal is fsynced JSONL naming provider, model and items", function()
  local s, dir, mf = start({ { reply = "a win" } })
  local wire = require "tabula.providers.batches"
  local saved = wire.anthropic.limits.items
  wire.anthropic.limits.items = 4
  local ok, err = pcall(t.run_scenario, FAULTY, { "--model", "claude", "--models", mf, "--trials", "10", "--out", dir .. "/run",
    "--batch", "--batch-poll", "0.001", "--quiet" })
  wire.anthropic.limits.items = saved
  assert(ok, err)
  local sizes = {}
  for _, l in ipairs(journal(dir .. "/run")) do
    if l.op == "submitted" then
      sizes[#sizes + 1] = #l.items
      t.eq({ l.provider, l.model, l.key_env }, { "anthropic", "claude-opus-4-7", "TABULA_NO_KEY" })
      for _, cid in ipairs(l.items) do t.ok(cid:match("^%x+$") and #cid == 64, cid) end
    end
  end
  t.eq(sizes, { 4, 4, 2 })
  t.eq(s:stats().batch_creates, 3)
  s:close()
end)

test("a multi-turn scenario batches per round: each turn of every trial in one batch, the records as without --batch", function()
  for _, f in ipairs(ORDER) do
    local s, dir, mf = start({ { match = "turn 2", reply = "second", reasoning = "r2" }, { reply = "first", reasoning = "r1" } })
    local args = { "--model", f, "--models", mf, "--trials", "5", "--turns", "3", "--quiet" }
    local function run(out, ...)
      local a = { table.unpack(args) }
      for _, x in ipairs({ "--out", out, ... }) do a[#a + 1] = x end
      return t.run_scenario(MULTI, a)
    end
    t.eq(run(dir .. "/direct"), 0, f)
    t.eq(run(dir .. "/batch", "--batch", "--batch-poll", "0.001"), 0, f)
    t.eq(s:stats().batch_creates, 3, f .. ": one batch per round")
    t.eq(same(dir .. "/direct", dir .. "/batch", f), 5)
    for _, r in pairs(by_id(dir .. "/batch")) do t.eq(r.replies, { "first", "second", "first" }, f) end
    s:close()
  end
end)

test("--batch-min and --batch-wait submit without the trial that lags; by default its call joins the others' batch", function()
  local s, dir, mf = start({ { reply = "a win" } })
  local function creates(name, ...)
    local before = s:stats().batch_creates
    local a = { "--model", "gpt", "--models", mf, "--trials", "5", "--turns", "1", "--lag", "0.3", "--out", dir .. "/" .. name,
      "--batch", "--batch-poll", "0.001", "--quiet" }
    for _, x in ipairs({ ... }) do a[#a + 1] = x end
    t.eq(t.run_scenario(MULTI, a), 0, name)
    t.eq(#records.read(dir .. "/" .. name .. "/trials.jsonl"), 5, name)
    return s:stats().batch_creates - before
  end
  t.eq(creates("default"), 1, "every running trial's call in one batch")
  t.eq(creates("min", "--batch-min", "2"), 2, "four due calls pass --batch-min 2")
  t.eq(creates("wait", "--batch-wait", "0.05"), 2, "the first due call waited 0.05 s")
  s:close()
end)

test("batch = true for a model in the models file batches its calls without --batch", function()
  local s = mock.start({ { reply = "a win" } })
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return { b = { provider = "anthropic", model = "claude-opus-4-7",
    base_url = %q, key_env = "TABULA_NO_KEY", optional_key = true, batch = true } }]], s.url .. "/v1"))
  t.eq(t.run_scenario(FAULTY, { "--model", "b", "--models", dir .. "/models.lua", "--trials", "4", "--out", dir .. "/run",
    "--batch-poll", "0.001", "--quiet" }), 0)
  t.eq(s:stats().batch_creates, 1)
  t.eq(#journal(dir .. "/run", "submitted")[1].items, 4)
  t.eq(#records.read(dir .. "/run/trials.jsonl"), 4)
  -- the same run continued without batch = true is the same run (how the calls go is not its identity)
  fs.write_atomic(dir .. "/models.lua", string.format([[return { b = { provider = "anthropic", model = "claude-opus-4-7",
    base_url = %q, key_env = "TABULA_NO_KEY", optional_key = true } }]], s.url .. "/v1"))
  lose(dir .. "/run")
  t.eq(t.run_scenario(FAULTY, { "--model", "b", "--models", dir .. "/models.lua", "--trials", "4", "--out", dir .. "/run", "--quiet" }), 0)
  t.eq(#records.read(dir .. "/run/trials.jsonl"), 4)
  t.eq({ s:stats().batch_creates, s:requests() }, { 1, 8 }, "the four calls again, sent directly")
  s:close()
end)

test("the progress line shows batches submitted, in progress and done, and items done", function()
  local progress = require "tabula.progress"
  local q = batch.new({}, t.tmpdir())
  q.stats = { submitted = 2, running = 1, done = 1, items = 150, items_done = 100 }
  local st = { done = 3, total = 150, ok = 3, failed = 0, errors = 0, calls = 3, tokens = 10, cost = 0.5, started = 0,
    extra = function() return q:summary() end }
  t.contains(progress.line(st, 10), "$0.5000 | batches 2 submitted, 1 in progress, 1 done; 100/150 items done | 0:10 elapsed")
end)

test("batch prices: the capability table's factor 0.5, a model's own factor or batch prices", function()
  local models = require "tabula.models"
  t.eq(models.batch_prices({ provider = "anthropic", prices = { input = 3, output = 15, cached = 0.3 } }), { input = 1.5, output = 7.5, cached = 0.15 })
  t.eq(models.batch_prices({ provider = "openai", prices = { input = 2 }, batch_price_factor = 0.25 }), { input = 0.5 })
  t.eq(models.batch_prices({ provider = "gemini", prices = { input = 2 }, batch_prices = { input = 0.9 } }), { input = 0.9 })
  t.eq(models.batch_prices({ provider = "gemini" }), nil)
end)

test("--batch refuses --no-cache, --workers and a model without a batch API, in one line", function()
  local s, dir, mf = start()
  local rc, out = t.tabula("run", FAULTY, "--model", "claude", "--models", mf, "--out", dir .. "/r", "--batch", "--no-cache")
  t.eq(rc, 2, out)
  t.contains(out, "--batch needs the response cache")
  rc, out = t.tabula("run", FAULTY, "--model", "claude", "--models", mf, "--out", dir .. "/r", "--batch", "--workers", "2")
  t.contains(out, "--workers is not taken with it")
  rc, out = t.tabula("batch", "status", dir)
  t.eq(rc, 2, out)
  t.contains(out, "has no batches.jsonl")
  s:close()
end)

-- ---- the mock refuses what the services refuse ----

local function post(s, path, body, ctype)
  local res = assert(http.request({ method = "POST", url = s.url .. path, body = body, timeout = 10,
    headers = { "Content-Type: " .. (ctype or "application/json") } }))
  return res.status, json.decode(res.body)
end

local function get(s, path)
  local res = assert(http.request({ url = s.url .. path, timeout = 10 }))
  return res.status, json.decode(res.body)
end

test("the mock's Message Batches refuse a bad or duplicate custom_id, streaming, and no requests", function()
  local s = mock.start()
  local params = { model = "claude-opus-4-7", max_tokens = 10, messages = { { role = "user", content = "hi" } } }
  local function create(reqs) return post(s, "/v1/messages/batches", json.canonical({ requests = reqs })) end
  local st, d = create({ { custom_id = "has space", params = params } })
  t.eq(st, 400)
  t.contains(d.error.message, "custom_id: String should match pattern")
  st, d = create({ { custom_id = string.rep("a", 65), params = params } })
  t.eq(st, 400)
  st, d = create({ { custom_id = "a", params = params }, { custom_id = "a", params = params } })
  t.eq(st, 400)
  t.contains(d.error.message, "Duplicate custom_id a")
  local streaming = { model = "claude-opus-4-7", max_tokens = 10, stream = true, messages = params.messages }
  st = create({ { custom_id = "a", params = streaming } })
  t.eq(st, 400)
  st = create(json.array())
  t.eq(st, 400)
  st, d = create({ { custom_id = "ok-1", params = params } })
  t.eq({ st, d.processing_status, d.type }, { 200, "in_progress", "message_batch" })
  st = get(s, "/v1/messages/batches/" .. d.id .. "/results")
  t.eq(st, 400, "no results before the batch ended")
  t.eq(s:stats().batch_creates, 6)
  s:close()
end)

test("the mock's OpenAI Batch fails a batch with a duplicate custom_id, another url or two models; refuses a file not for batch", function()
  local s = mock.start()
  local function upload(lines, purpose)
    local b = "XyZ"
    local body = table.concat({ "--" .. b, 'Content-Disposition: form-data; name="purpose"', "", purpose or "batch",
      "--" .. b, 'Content-Disposition: form-data; name="file"; filename="b.jsonl"', "", table.concat(lines, "\n"), "--" .. b .. "--", "" }, "\r\n")
    return post(s, "/v1/files", body, "multipart/form-data; boundary=" .. b)
  end
  local function line(cid, url, model)
    return json.canonical({ custom_id = cid, method = "POST", url = url or "/v1/responses", body = { model = model or "gpt-5.5", input = "hi" } })
  end
  local st = upload({ line("a") }, "fine-tune")
  t.eq(st, 400)
  local function outcome(lines)
    local _, f = upload(lines)
    local cst, b = post(s, "/v1/batches", json.canonical({ input_file_id = f.id, endpoint = "/v1/responses", completion_window = "24h" }))
    t.eq(cst, 200)
    local _, polled = get(s, "/v1/batches/" .. b.id)
    return polled.status, polled.errors and polled.errors.data[1].message
  end
  local status, why = outcome({ line("a"), line("a") })
  t.eq(status, "failed")
  t.contains(why, "duplicate")
  status, why = outcome({ line("a"), line("b", "/v1/chat/completions") })
  t.eq(status, "failed")
  t.contains(why, "does not match the batch's endpoint")
  status, why = outcome({ line("a"), line("b", nil, "gpt-4.1") })
  t.eq(status, "failed")
  t.contains(why, "same model")
  t.eq((outcome({ line("a"), line("b") })), "completed")
  local _, f = upload({ line("a") })
  st = post(s, "/v1/batches", json.canonical({ input_file_id = f.id, endpoint = "/v1/responses", completion_window = "1h" }))
  t.eq(st, 400)
  s:close()
end)

test("the mock's Gemini batch mode refuses a batch without display_name or requests", function()
  local s = mock.start()
  local req = { request = { contents = { { role = "user", parts = { { text = "hi" } } } } }, metadata = { key = "k1" } }
  local st = post(s, "/v1beta/models/gemini-3-pro:batchGenerateContent", json.canonical({ batch = { input_config = { requests = { requests = { req } } } } }))
  t.eq(st, 400)
  st = post(s, "/v1beta/models/gemini-3-pro:batchGenerateContent", json.canonical({ batch = { display_name = "x", input_config = {} } }))
  t.eq(st, 400)
  local op
  st, op = post(s, "/v1beta/models/gemini-3-pro:batchGenerateContent", json.canonical({ batch = { display_name = "x", input_config = { requests = { requests = { req } } } } }))
  t.eq({ st, op.metadata.state }, { 200, "BATCH_STATE_PENDING" })
  local _, polled = get(s, "/v1beta/" .. op.name)
  t.eq({ polled.done, polled.metadata.state, polled.response.inlinedResponses.inlinedResponses[1].metadata.key },
    { true, "BATCH_STATE_SUCCEEDED", "k1" })
  s:close()
end)

return T
