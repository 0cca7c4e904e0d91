-- --batch under a tight --max-cost (tabula.batch, tabula.budget): the calls
-- due together go in one batch as far as the budget allows them, with one line
-- saying so before it goes, and the rest are not sent one small batch after
-- another (each could take 24 h at a real service). Over the mock server's
-- batch endpoints (tests/mock_batch.c).
local t = require "tabula.testing"
local mock = require "tests.mock"
local child = require "tests.child"
local fs = require "tabula.fs"
local records = require "tabula.records"
local budget = require "tabula.budget"
local test, T = t.suite()

local FAULTY = t.root() .. "/tests/faulty_scenario.lua"   -- one model call per trial

-- a claude model on the mock at 2 USD per million input tokens and 8 per
-- million output tokens: at batch prices (half) with --max-tokens 1000 a
-- call's worst case is 0.004 USD for its output limit plus its input (about
-- 50 tokens: 0.00005 USD), so 0.0042 USD at most and 0.004 at least
local function start()
  local s = mock.start({ { reply = "a win" } })
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format(
    "return { claude = { provider = 'anthropic', model = 'claude-opus-4-7', base_url = %q, key_env = false, prices = { input = 2, output = 8 } } }",
    s.url .. "/v1"))
  return s, dir
end

local function run(dir, out, trials, cost, quiet)
  local args = { "run", FAULTY, "--model", "claude", "--models", dir .. "/models.lua", "--trials", tostring(trials),
    "--out", dir .. "/" .. out, "--batch", "--batch-poll", "0.005", "--max-tokens", "1000", "--max-cost", tostring(cost) }
  if quiet then args[#args + 1] = "--quiet" end
  return child.run(args, 60)
end

local function submitted(dir)
  local out = {}
  for _, l in ipairs(records.read(dir .. "/batches.jsonl")) do if l.op == "submitted" then out[#out + 1] = #l.items end end
  return out
end

test("a --max-cost that allows 3 calls: one batch of 3 is submitted, said in one line before it goes, and the run stops", function()
  local s, dir = start()
  -- 3 x 0.0042 = 0.0126 fits in 0.0135; 4 x 0.004 = 0.016 does not
  local rc, out = run(dir, "r", 12, 0.0135)
  t.eq(rc, budget.EXIT, out)
  t.eq(s:stats().batch_creates, 1, out)
  t.eq(submitted(dir .. "/r"), { 3 })
  t.eq(s:requests(), 3)
  t.contains(out, "batch: the --max-cost budget of 0.0135 USD allows 3 of the calls due (a call's worst case: up to 0.00")
  -- the line comes before the batch is submitted
  local said, sent = out:find("allows 3 of the calls due", 1, true), out:find("calls of claude submitted", 1, true)
  t.ok(said and sent and said < sent, out)
  t.contains(out, "the --max-cost budget of 0.0135 USD was reached")
  t.eq(#records.read(dir .. "/r/trials.jsonl"), 3)
  t.eq(#records.read(dir .. "/r/spend.jsonl"), 3)
  -- continued with a budget for all of them: the other 9 in one more batch, none paid twice
  rc, out = run(dir, "r", 12, 1)
  t.eq(rc, 0, out)
  t.eq(submitted(dir .. "/r"), { 3, 9 })
  t.eq(s:requests(), 12)
  t.eq(#records.read(dir .. "/r/spend.jsonl"), 12)
  t.eq(out:find("allows", 1, true), nil, "nothing held back: no budget line")
  s:close()
end)

test("a --max-cost that allows one call at a time: one batch of one, not one-call batches one after another", function()
  local s, dir = start()
  local rc, out = run(dir, "one", 6, 0.005, true)   -- --quiet: the budget line is said all the same
  t.eq(rc, budget.EXIT, out)
  t.eq(s:stats().batch_creates, 1, out)
  t.eq(submitted(dir .. "/one"), { 1 })
  t.contains(out, "allows 1 of the calls due")
  t.contains(out, "it goes in one batch")
  t.eq(#records.read(dir .. "/one/trials.jsonl"), 1)
  s:close()
end)

return T
