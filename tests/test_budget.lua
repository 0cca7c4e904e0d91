-- Run-wide budgets bind per model call (tabula.budget): no call starts whose
-- worst case would pass the budget, in one process and across worker
-- processes, and a continued run counts what earlier sessions spent.
-- slow: budgets checked under concurrency, with workers and across a resume (left out by make check)
local t = require "tabula.testing"
local fs = require "tabula.fs"
local records = require "tabula.records"
local budget = require "tabula.budget"
local child = require "tests.child"
local test, T = t.suite()

local SCEN = t.root() .. "/tests/faulty_scenario.lua"   -- one model call per trial

-- a run directory and a models file for the mock: "priced" at 1000 USD per
-- million input tokens and 2000 per million output tokens
local function setup(url)
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return {
  priced = { provider = "openai", model = "m", base_url = %q, optional_key = true, prices = { input = 1000, output = 2000 } },
  free = { provider = "openai", model = "m", base_url = %q, optional_key = true } }]], url .. "/v1", url .. "/v1"))
  return dir
end

local function run(dir, out, extra)
  local args = { "run", SCEN, "--models", dir .. "/models.lua", "--out", dir .. "/" .. out, "--quiet" }
  for _, a in ipairs(extra) do args[#args + 1] = a end
  return child.run(args)
end

-- what RUN/spend.jsonl holds, summed; and how many trials are recorded
local function spent(dir)
  local s = { calls = 0, cost = 0, lines = 0 }
  if fs.kind(dir .. "/spend.jsonl") then
    for _, r in ipairs((records.read(dir .. "/spend.jsonl"))) do
      s.calls = s.calls + r.calls; s.cost = s.cost + r.cost; s.lines = s.lines + 1
    end
  end
  return s
end
local function recorded(dir)
  return fs.kind(dir .. "/trials.jsonl") and #(records.read(dir .. "/trials.jsonl")) or 0
end

test("estimate: the worst case of a call is its input (body bytes / 3) and its output limit, at the prices", function()
  local cfg = { prices = { input = 1000, output = 2000 } }
  local function input_of(b) return math.ceil(#require("tabula.json").canonical(b) / 3) end
  local body = { model = "m", messages = { { role = "user", content = string.rep("a", 300) } }, max_tokens = 100 }
  local need = budget.estimate(cfg, body, { cost = 1 })
  local input = input_of(body)
  t.ok(input > 100)
  t.eq(need.calls, 1)
  t.eq(need.tokens, input + 100)
  t.near(need.cost, (input * 1000 + 100 * 2000) / 1e6, 1e-12)
  -- the providers' other spellings of the output limit, then the model's, then the default
  local gemini = { generationConfig = { maxOutputTokens = 7 } }
  t.eq(budget.estimate(cfg, gemini, { tokens = 1 }).tokens, input_of(gemini) + 7)
  local plain = { model = "m" }
  t.eq(budget.estimate({ max_output_tokens = 9 }, plain, { tokens = 1 }).tokens, input_of(plain) + 9)
  t.eq(budget.estimate({}, plain, { tokens = 1 }).tokens, input_of(plain) + budget.DEFAULT_OUTPUT_TOKENS)
  -- only --max-calls: nothing to estimate
  t.eq(budget.estimate(cfg, body, { calls = 5 }).cost, 0)
end)

test("--max-calls 50 --concurrency 64: the server sees at most 50 calls, in one process and with --workers 2", function()
  local mock = require "tests.mock"
  local s = mock.start(nil, { "--delay-ms", "20" })
  local dir = setup(s.url)
  for _, workers in ipairs({ "1", "2" }) do
    local out = "calls" .. workers
    local before = s:requests()
    local rc, text = run(dir, out, { "--model", "priced", "--trials", "80", "--concurrency", "64",
      "--max-calls", "50", "--workers", workers })
    t.eq(rc, budget.EXIT, text)
    local made = s:requests() - before
    t.ok(made <= 50, string.format("--workers %s: the server saw %d calls for --max-calls 50", workers, made))
    t.eq(made, 50, text)
    t.contains(text, "the --max-calls budget of 50 calls was reached (50 calls made); 50 of 80 trials recorded")
    t.eq(recorded(dir .. "/" .. out), 50)
    t.eq(spent(dir .. "/" .. out).calls, 50)     -- one fsynced line per settled call
    t.eq(spent(dir .. "/" .. out).lines, 50)
  end
  s:close()
end)

-- each call costs (24 input * 1000 + 1 output * 2000) / 1e6 = 0.026 USD (the
-- mock's usage); with --max-tokens 100 its worst case is about 0.23 USD
test("--max-cost: spending never passes the budget, with and without workers, across a resume", function()
  local mock = require "tests.mock"
  local s = mock.start(nil, { "--delay-ms", "20" })
  local dir = setup(s.url)
  for _, workers in ipairs({ "1", "2" }) do
    local out = "cost" .. workers
    local before = s:requests()
    local base = { "--model", "priced", "--trials", "100", "--concurrency", "16", "--max-tokens", "100", "--workers", workers }
    local args = { table.unpack(base) }
    args[#args + 1] = "--max-cost"; args[#args + 1] = "1"
    local rc, text = run(dir, out, args)
    t.eq(rc, budget.EXIT, text)
    local sp = spent(dir .. "/" .. out)
    t.ok(sp.cost <= 1, string.format("--workers %s: spent %g USD of a 1 USD budget", workers, sp.cost))
    t.ok(sp.cost > 0.5, string.format("--workers %s: spent only %g USD of 1 USD", workers, sp.cost))
    t.eq(sp.calls, s:requests() - before)        -- every call the server answered is counted
    t.eq(recorded(dir .. "/" .. out), sp.calls)  -- the trials refused a call are not recorded
    t.contains(text, string.format("the --max-cost budget of 1 USD was reached (spent %.4g USD;", sp.cost))
    t.contains(text, "(continue with a larger budget and the same --out)")
    -- continuing with a larger budget counts what was spent and goes on
    args[#args] = "2"
    rc, text = run(dir, out, args)
    t.eq(rc, budget.EXIT, text)
    local sp2 = spent(dir .. "/" .. out)
    t.ok(sp2.cost <= 2, string.format("--workers %s: spent %g USD of a 2 USD budget after the resume", workers, sp2.cost))
    t.ok(sp2.calls > sp.calls)
    t.eq(sp2.calls, s:requests() - before)
    t.eq(recorded(dir .. "/" .. out), sp2.calls)
    t.contains(text, "resuming: " .. sp.calls .. " of 100 trials already recorded")
    -- without a budget the run finishes, paying only for the trials not yet recorded
    rc, text = run(dir, out, base)
    t.eq(rc, 0, text)
    t.eq(recorded(dir .. "/" .. out), 100)
    t.eq(spent(dir .. "/" .. out).calls, 100)
    t.eq(s:requests() - before, 100)
  end
  s:close()
end)

test("budgets: --max-run-tokens binds per call; a call that cannot fit at all is refused; no prices, no --max-cost", function()
  local mock = require "tests.mock"
  local s = mock.start()
  local dir = setup(s.url)
  -- tokens: a call's worst case is its input estimate + 100; 1000 tokens hold a few calls of 25 real tokens
  local rc, text = run(dir, "tok", { "--model", "priced", "--trials", "60", "--concurrency", "8", "--max-tokens", "100",
    "--max-run-tokens", "1000" })
  t.eq(rc, budget.EXIT, text)
  t.contains(text, "the --max-run-tokens budget of 1000 tokens was reached")
  local n = s:requests()
  t.ok(n * 25 <= 1000 and n > 10, "calls made: " .. n)
  -- a budget smaller than one call's worst case: nothing is spent, exit 4
  rc, text = run(dir, "tiny", { "--model", "priced", "--trials", "5", "--max-cost", "0.01" })
  t.eq(rc, budget.EXIT, text)
  t.contains(text, "the --max-cost budget of 0.01 USD was reached (spent 0 USD; the next call could cost up to")
  t.eq(s:requests(), n)
  t.eq(recorded(dir .. "/tiny"), 0)
  -- a cost budget on a model without prices is refused before anything runs
  rc, text = run(dir, "free", { "--model", "free", "--max-cost", "1" })
  t.eq(rc, 2); t.contains(text, "--max-cost: model free has no prices")
  t.eq(fs.kind(dir .. "/free/trials.jsonl"), nil)
  s:close()
end)

test("budgets: replies replayed from the cache reserve nothing", function()
  local mock = require "tests.mock"
  local s = mock.start()
  local dir = setup(s.url)
  local rc, text = run(dir, "cached", { "--model", "priced", "--trials", "6" })
  t.eq(rc, 0, text)
  t.eq(s:requests(), 6)
  -- the records are lost, the cache stays: re-running replays all six calls: none counts against --max-calls 7 (6 already spent)
  os.remove(dir .. "/cached/trials.jsonl"); os.remove(dir .. "/cached/trials.jsonl.idx")
  rc, text = run(dir, "cached", { "--model", "priced", "--trials", "6", "--max-calls", "7" })
  t.eq(rc, 0, text)
  t.eq(recorded(dir .. "/cached"), 6)
  t.eq(s:requests(), 6)
  s:close()
end)
return T
