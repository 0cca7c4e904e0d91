-- A cost estimate before paying (tabula.dryrun): `--dry-run` with a model
-- prints, per model, the planned calls, the prompt tokens the built requests
-- would send (bytes / 3, the rule --max-cost reserves by) and the worst case of
-- their output limit, in dollars at the model's prices; and it makes no HTTP
-- call at all.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local mock = require "tests.mock"
local child = require "tests.child"
local test, T = t.suite()

local FAULTY = t.root() .. "/tests/faulty_scenario.lua"   -- one model call per trial

-- a models file: claude on the mock at 5 USD per million input tokens and 25 per million output tokens
local function setup(s)
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format(
    "return { claude = { provider = 'anthropic', model = 'claude-opus-4-7', base_url = %q, key_env = false, prices = { input = 5, output = 25 } } }",
    s.url .. "/v1"))
  return dir
end

-- estimate(out) -> the figures of the estimate lines
local function estimate(out)
  local e = {}
  e.calls, e.trials = out:match("planned calls: (%d+) %(the first call of each trial that calls the model: %d+ of (%d+) trials")
  e.input, e.bytes = out:match("prompt tokens: (%d+) %((%d+) bytes of request bodies / 3")
  e.input_usd = out:match("prompt tokens: %d+ %b(), ([%d%.e%-]+) USD")
  e.output, e.output_usd = out:match("worst case output: (%d+) tokens %b(), ([%d%.e%-]+) USD")
  e.total_usd = out:match("worst case of these calls: ([%d%.e%-]+) USD")
  for k, v in pairs(e) do e[k] = tonumber(v) end
  return e
end

test("a dry run of a small XiangqiBench plan prints the per-model estimate, makes no HTTP call, and its dollars follow from the prices", function()
  local s = mock.start()
  local dir = setup(s)
  local rc, out = child.run({ "run", "scenarios/xiangqibench", "--model", "claude", "--models", dir .. "/models.lua", "--limit", "3",
    "--trials", "1", "--max-tokens", "1000", "--out", dir .. "/run", "--dry-run" }, 60)
  t.eq(rc, 0, out)
  t.contains(out, "dry run: estimate for model claude (anthropic claude-opus-4-7)")
  t.contains(out, "prices: 5 USD per million input tokens, 25 per million output tokens")
  local e = estimate(out)
  t.ok(e.trials and e.trials > 0, out)
  t.eq(e.calls, e.trials, "one first call per trial")
  t.ok(e.input > 100 * e.calls, "a XiangqiBench prompt is hundreds of tokens: " .. tostring(e.input))
  t.ok(e.input >= e.bytes / 3 and e.input < e.bytes / 3 + e.calls, "bytes / 3, rounded up per call")
  t.eq(e.output, 1000 * e.calls, "the worst case: --max-tokens per call")
  t.near(e.input_usd, 5e-6 * e.input, 1e-6 * e.input_usd)
  t.near(e.output_usd, 25e-6 * e.output, 1e-6 * e.output_usd)
  t.near(e.total_usd, e.input_usd + e.output_usd, 1e-5 * e.total_usd)
  local st = s:stats()
  t.eq(st.http, 0, "the mock server saw no request")
  t.eq(st.requests, 0)
  t.eq(fs.kind(dir .. "/run"), nil, "a dry run writes no run directory")
  s:close()
end)

test("the prompt tokens are counted from the requests the run would send; a batch dry run prices at batch prices", function()
  local s = mock.start({ { reply = "a win" } })
  local dir = setup(s)
  local args = { "run", FAULTY, "--model", "claude", "--models", dir .. "/models.lua", "--trials", "5", "--max-tokens", "700" }
  local dry = { table.unpack(args) }
  dry[#dry + 1] = "--dry-run"
  local rc, out = child.run(dry, 60)
  t.eq(rc, 0, out)
  t.eq(s:stats().http, 0, "no HTTP call")
  local e = estimate(out)
  t.eq(e.calls, 5)
  t.eq(e.output, 3500)
  -- the run itself: what the mock received, counted by the same rule
  local run = { table.unpack(args) }
  for _, a in ipairs({ "--out", dir .. "/run", "--quiet" }) do run[#run + 1] = a end
  rc, out = child.run(run, 60)
  t.eq(rc, 0, out)
  local tokens, bytes = 0, 0
  local log = s:log()
  t.eq(#log, 5)
  for _, r in ipairs(log) do
    bytes = bytes + #r.body
    tokens = tokens + math.ceil(#r.body / 3)
  end
  t.eq(e.bytes, bytes, "the bytes of the bodies sent")
  t.eq(e.input, tokens)
  -- through the batch API: half the prices, the same tokens
  local batch = { table.unpack(dry) }
  batch[#batch + 1] = "--batch"
  rc, out = child.run(batch, 60)
  t.eq(rc, 0, out)
  t.contains(out, "through the batch API")
  t.contains(out, "prices: 2.5 USD per million input tokens, 12.5 per million output tokens")
  local b = estimate(out)
  t.eq(b.input, e.input)
  t.near(b.total_usd, e.total_usd / 2, 1e-5 * e.total_usd)
  t.eq(s:requests(), 5, "the dry runs sent nothing")
  s:close()
end)

test("a batch plan of a scenario with its own dry run (Jianghu108): its prompts, then the estimate at batch prices, no HTTP call", function()
  local data = t.need_shared("jianghu108/江湖残局.json")
  local s = mock.start()
  local dir = setup(s)
  local rc, out = child.run({ "run", "scenarios/jianghu108", "--data", data, "--model", "claude", "--models", dir .. "/models.lua", "--limit", "4",
    "--max-tokens", "600", "--batch", "--dry-run" }, 60)
  t.eq(rc, 0, out)
  t.contains(out, "---- ")   -- the scenario's own dry run: each problem's prompt
  t.contains(out, "dry run: estimate for model claude (anthropic claude-opus-4-7), through the batch API")
  t.contains(out, "prices: 2.5 USD per million input tokens, 12.5 per million output tokens")
  local e = estimate(out)
  t.ok(e.calls > 0 and e.calls == e.trials, out)
  t.near(e.input_usd, 2.5e-6 * e.input, 1e-6 * e.input_usd)
  t.near(e.output_usd, 12.5e-6 * e.output, 1e-6 * e.output_usd)
  t.near(e.total_usd, e.input_usd + e.output_usd, 1e-5 * e.total_usd)
  t.eq(s:stats().http, 0, "the mock server saw no request")
  s:close()
end)

test("a dry run with a built-in player or a model without prices says so", function()
  local rc, out = child.run({ "run", FAULTY, "--model", "random", "--trials", "2", "--dry-run" }, 60)
  t.eq(rc, 0, out)
  t.contains(out, "dry run: model random is a built-in player: its calls cost nothing")
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", "return { m = { provider = 'openai-chat', base_url = 'http://127.0.0.1:9/v1', model = 'x' } }")
  rc, out = child.run({ "run", FAULTY, "--model", "m", "--models", dir .. "/models.lua", "--trials", "2", "--dry-run" }, 60)
  t.eq(rc, 0, out)
  t.contains(out, "prices: none (give prices in the models file): tokens only")
  local e = estimate(out)
  t.eq(e.calls, 2)
  t.ok(e.input > 0)
  t.eq(e.input_usd, nil)
  t.contains(out, "worst case output: 65536 tokens (tabula's default of 32768)")
end)

return T
