-- Cached input is priced at its provider's published rate when a models file
-- gives no cached price (tabula.prices): Anthropic's cache hits at 0.1 x and
-- writes at 1.25 x the input price, OpenAI's GPT-5 cached input at 0.1 x,
-- Gemini's at 0.1 x; a server with no published rule keeps the full input
-- price. And the built-in price table: today's ids, their date snapshots.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local records = require "tabula.records"
local mock = require "tests.mock"
local fam = require "tests.families"
local prices = require "tabula.prices"
local models = require "tabula.models"
local test, T = t.suite()

local FAULTY = t.root() .. "/tests/faulty_scenario.lua"   -- one model call per trial

-- one call per family, each reporting 1000 input tokens of which 600 read
-- from the cache and 200 written to it, and 10 output tokens
local USAGE = { input = 1000, cached = 600, cache_write = 200, output = 10 }

test("a call whose usage reports cached tokens is priced at the provider's cached rate when the models file gives none", function()
  local s = mock.start({ { reply = "a win", usage = USAGE } })
  local dir = t.tmpdir()
  local lines = { "return {" }
  for _, f in ipairs(fam.ORDER) do
    local m = fam.FAMILIES[f]
    local model = f == "gpt" and "gpt-5.4-mini" or m.model   -- an id of the GPT-5 family
    lines[#lines + 1] = string.format("  %s = { provider = %q, model = %q, base_url = %q, key_env = false, prices = { input = 2, output = 8 } },",
      f, m.provider, model, s.url .. m.base)
  end
  lines[#lines + 1] = "}"
  fs.write_atomic(dir .. "/models.lua", table.concat(lines, "\n") .. "\n")
  -- per million tokens: input 2, output 8; Anthropic: reads 0.2, writes 2.5;
  -- GPT-5 and Gemini: reads 0.2 (these report no writes: the mock's 200 are
  -- plain input to them); an OpenAI-compatible server: reads at the input price
  local want = {
    claude = 1e-6 * (2 * 200 + 0.2 * 600 + 2.5 * 200 + 8 * 10),
    gpt = 1e-6 * (2 * 400 + 0.2 * 600 + 8 * 10),
    gemini = 1e-6 * (2 * 400 + 0.2 * 600 + 8 * 10),
    open = 1e-6 * (2 * 1000 + 8 * 10),
  }
  for _, f in ipairs(fam.ORDER) do
    local out = dir .. "/" .. f
    local rc = t.run_scenario(FAULTY, { "--model", f, "--models", dir .. "/models.lua", "--trials", "1", "--out", out, "--quiet" })
    t.eq(rc, 0, f)
    t.eq(#records.read(out .. "/trials.jsonl"), 1, f)
    local spent = records.read(out .. "/spend.jsonl")
    t.eq(#spent, 1, f)
    t.near(spent[1].cost, want[f], 1e-12, f .. ": the call's cost")
  end
  s:close()
end)

test("the rule fills what the models file leaves out and never overrides what it gives", function()
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", [[return {
  a = { provider = "anthropic", model = "claude-sonnet-4-6", prices = { input = 3, output = 15 } },
  b = { provider = "anthropic", model = "claude-sonnet-4-6", prices = { input = 3, cached = 0.5, cache_write = 4, output = 15 } },
  o = { provider = "openai", model = "gpt-4.1", prices = { input = 2, output = 8 } },
  o1 = { provider = "openai", model = "o1", prices = { input = 15, output = 60 } },
  o4 = { provider = "openai", model = "o4-mini", prices = { input = 1.1, output = 4.4 } },
  g = { provider = "gemini", model = "gemini-2.5-flash", prices = { input = 0.3, output = 2.5 } },
  p = { provider = "openai", model = "gpt-5.4-pro-2026-03-05", prices = { input = 30, output = 180 } },
  c = { provider = "openai-chat", base_url = "http://127.0.0.1:9/v1", model = "gpt-5.5", prices = { input = 1, output = 2 } },
  n = { provider = "openai", model = "my-own-model" },
}]])
  local function p(name) return models.resolve(name, dir .. "/models.lua").prices end
  t.eq(p("a"), { input = 3, cached = 0.3, cache_write = 3.75, cache_write_1h = 6, output = 15 })
  t.eq(p("b"), { input = 3, cached = 0.5, cache_write = 4, cache_write_1h = 6, output = 15 })
  t.eq(p("o"), { input = 2, cached = 0.5, output = 8 })
  t.eq(p("o1"), { input = 15, cached = 7.5, output = 60 })
  t.eq(p("o4"), { input = 1.1, cached = 0.275, output = 4.4 })
  t.eq(p("g"), { input = 0.3, cached = 0.03, output = 2.5 })
  t.eq(p("p"), { input = 30, cached = 30, output = 180 })   -- no cached rate published for the -pro models
  t.eq(p("c"), { input = 1, output = 2 })                   -- another server's discount is its own
  t.eq(p("n"), nil)                                         -- an id the table does not list: no prices
end)

test("the built-in table: today's ids and their date snapshots are priced; the models file wins", function()
  local c = models.resolve("openai:gpt-5.5")
  t.eq(c.prices, { input = 5, cached = 0.5, output = 30 })
  t.contains(c.prices_from, "built-in")
  t.eq(models.resolve("openai:gpt-5.4-2026-03-05").prices, { input = 2.5, cached = 0.25, output = 15 })
  t.eq(models.resolve("anthropic:claude-haiku-4-5-20251001").prices,
    { input = 1, cached = 0.1, cache_write = 1.25, cache_write_1h = 2, output = 5 })
  t.eq(models.resolve("gemini:gemini-3.1-pro-preview").prices, { input = 2, cached = 0.2, output = 12 })
  t.eq(models.resolve("deepseek:deepseek-chat").prices, nil)   -- no row: --max-cost asks for prices
  -- every row has an input and an output price, and its cached rate is below the input price
  for provider, rows in pairs(prices.TABLE) do
    for id, row in pairs(rows) do
      local full = prices.complete({ provider = provider, model = id }).prices
      t.ok(full.input > 0 and full.output > full.input, provider .. " " .. id)
      t.ok(full.cached <= full.input, provider .. " " .. id .. ": cached reads")
      t.eq(row.cache_write, nil, provider .. " " .. id .. ": writes follow the rule")
    end
  end
  -- a cost from the built-in prices: 1000 input of which 800 cached, 100 output on GPT-5.5
  t.near(models.cost(c.prices, { input = 1000, cached = 800, output = 100 }), 1e-6 * (5 * 200 + 0.5 * 800 + 30 * 100), 1e-15)
end)

test("a run continues after its model's prices changed (a price is not the model's identity)", function()
  local s = mock.start({ { reply = "a win" } })
  local dir = t.tmpdir()
  local function file(prices)
    fs.write_atomic(dir .. "/models.lua", string.format(
      "return { c = { provider = 'anthropic', model = 'claude-opus-4-7', base_url = %q, key_env = false%s } }", s.url .. "/v1", prices))
  end
  local function run(n)
    return t.run_scenario(FAULTY, { "--model", "c", "--models", dir .. "/models.lua", "--trials", tostring(n), "--out", dir .. "/run", "--quiet" })
  end
  file("")                                             -- the built-in table's prices
  t.eq(run(2), 0)
  file(", prices = { input = 4, output = 20 }")        -- the models file's own, later
  t.eq(run(3), 0)
  t.eq(#records.read(dir .. "/run/trials.jsonl"), 3)
  t.eq(s:requests(), 3)
  s:close()
end)

return T
