-- The model layer over loopback: each provider's wire format through the mock
-- server — replies, reasoning, usage, streaming, every injected fault, the
-- cache, images, model names, and keys kept out of everything a run writes.
local t = require "tabula.testing"
local mock = require "tests.mock"
local agent = require "tabula.agent"
local models = require "tabula.models"
local fs = require "tabula.fs"
local test, T = t.suite()

local PROVIDERS = {
  openai = { base = "/v1" },
  ["openai-chat"] = { base = "/v1" },
  anthropic = { base = "/v1" },
  gemini = { base = "/v1beta" },
}

local function cfg_for(provider, server, extra)
  local c = { name = "mock-" .. provider, provider = provider, base_url = server.url .. PROVIDERS[provider].base,
    model = "mock-model", prices = { input = 2, cached = 0.5, output = 8 } }
  for k, v in pairs(extra or {}) do c[k] = v end
  return c
end

local FAST = { backoff = 0.01, max_attempts = 3, timeout = 5 }

local function fast(extra)
  local o = {}
  for k, v in pairs(FAST) do o[k] = v end
  for k, v in pairs(extra or {}) do o[k] = v end
  return o
end

local conv = { { role = "system", content = "You play Xiangqi." }, { role = "user", content = "Your move?" } }

for provider in pairs(PROVIDERS) do
  test(provider .. ": a reply with reasoning and usage, plain and streamed", function()
    local s = mock.start({ { reply = "```bash\nmove h2e2\n```", reasoning = "The cannon goes to the centre.",
      usage = { input = 100, cached = 40, output = 30, reasoning = 12 } } })
    for _, stream in ipairs({ false, true }) do
      local a = agent.new(cfg_for(provider, s), fast({ stream = stream }))
      local r, err = a:reply(conv)
      t.ok(r, err and err.message)
      t.eq(r.text, "```bash\nmove h2e2\n```", "text (stream=" .. tostring(stream) .. ")")
      t.eq(r.reasoning, "The cannon goes to the centre.")
      t.eq(r.finish, "stop")
      -- Anthropic reports no separate count of thinking tokens (they are in output)
      t.eq(r.usage, { input = 100, cached = 40, output = 30, reasoning = provider ~= "anthropic" and 12 or nil })
      -- 1e-6 * (2 * (100 - 40) + 0.5 * 40 + 8 * 30)
      t.near(r.cost, 1e-6 * (120 + 20 + 240), 1e-12)
      t.eq(r.attempts, 1)
    end
    t.eq(s:requests(), 2)
    s:close()
  end)

  test(provider .. ": each injected fault is retried and then succeeds", function()
    for _, fault in ipairs({ "429", "500", "503", "drop", "malformed", "sse_cut" }) do
      local s = mock.start({ { fault = fault, times = 1, retry_after = 0 }, { reply = "recovered" } })
      local a = agent.new(cfg_for(provider, s), fast({ stream = fault == "sse_cut" }))
      local r, err = a:reply(conv)
      t.ok(r, fault .. ": " .. tostring(err and err.message))
      t.eq(r.text, "recovered", fault)
      t.eq(r.attempts, 2, fault .. " took one retry")
      s:close()
    end
  end)

  test(provider .. ": a slow reply times out and is retried", function()
    local s = mock.start({ { delay_ms = 1500, times = 1 }, { reply = "in time" } })
    local a = agent.new(cfg_for(provider, s), fast({ timeout = 0.3 }))
    local r, err = a:reply(conv)
    t.ok(r, err and err.message)
    t.eq({ r.text, r.attempts }, { "in time", 2 })
    s:close()
  end)
end

test("a persistent failure becomes an infrastructure error naming model and URL", function()
  local s = mock.start({ { fault = "503" } })
  local a = agent.new(cfg_for("openai-chat", s), fast())
  local r, err = a:reply(conv)
  t.eq(r, nil)
  t.eq(err.infra, true)
  t.eq(err.status, 503)
  t.eq(err.attempts, 3)
  t.contains(err.message, "model mock-openai-chat at " .. s.url .. "/v1/chat/completions: HTTP 503: mock fault 503")
  t.eq(s:requests(), 3)
  s:close()
end)

test("429 honours Retry-After", function()
  local s = mock.start({ { fault = "429", times = 1, retry_after = 1 }, { reply = "after the wait" } })
  local a = agent.new(cfg_for("anthropic", s), fast())
  local loop = require "tabula.loop"
  local t0 = loop.now()
  local r = assert(a:reply(conv))
  t.eq(r.text, "after the wait")
  t.ok(loop.now() - t0 >= 0.95, "waited for Retry-After")
  s:close()
end)

test("400, 401, 403 and 404 fail at once", function()
  for _, code in ipairs({ "400", "401", "404" }) do
    local s = mock.start({ { fault = code } })
    local a = agent.new(cfg_for("gemini", s), fast())
    local r, err = a:reply(conv)
    t.eq(r, nil)
    t.eq(err.status, tonumber(code))
    t.eq(s:requests(), 1, code .. " is not retried")
    s:close()
  end
end)

test("the cache replays a call without a request reaching the server", function()
  local s = mock.start({ { reply = "first" } })
  local dir = os.tmpname(); os.remove(dir)
  local a = agent.new(cfg_for("openai", s), fast({ cache_dir = dir }))
  local r1 = assert(a:reply(conv, { sample = 0 }))
  t.eq({ r1.text, r1.cached }, { "first", false })
  local r2 = assert(a:reply(conv, { sample = 0 }))
  t.eq({ r2.text, r2.cached, r2.cost }, { "first", true, 0 })
  t.eq(s:requests(), 1)
  assert(a:reply(conv, { sample = 1 }))          -- another sample is another call
  t.eq(s:requests(), 2)
  local nc = agent.new(cfg_for("openai", s), fast({ cache_dir = dir, no_cache = true }))
  assert(nc:reply(conv, { sample = 0 }))
  t.eq(s:requests(), 3)
  s:close()
end)

test("images reach the server in each provider's format", function()
  local png = "\137PNG\r\n\26\n" .. string.rep("\0\1\2", 50)
  local b64 = require("tabula.base64").encode(png)
  local withimg = { { role = "user", content = { { type = "text", text = "Which option?" },
    { type = "image", data = png, detail = "high" } } } }
  local expect = {
    openai = '"image_url":"data:image/png;base64,' .. b64 .. '"',
    ["openai-chat"] = '"url":"data:image/png;base64,' .. b64 .. '"',
    anthropic = '"source":{"data":"' .. b64 .. '","media_type":"image/png","type":"base64"}',
    gemini = '"inline_data":{"data":"' .. b64 .. '","mime_type":"image/png"}',
  }
  for provider, shape in pairs(expect) do
    local s = mock.start({ { match = "Which option?", reply = "<box>C</box>" } })
    local a = agent.new(cfg_for(provider, s), fast())
    local r = assert(a:reply(withimg))
    t.eq(r.text, "<box>C</box>", provider .. ": the rule matched the text part")
    t.contains(s:log()[1].body, shape)
    s:close()
  end
end)

test("model names: short forms, local servers, models files, built-ins, errors", function()
  local c = models.resolve("openai:gpt-5.5")
  t.eq({ c.provider, c.model, c.key_env }, { "openai", "gpt-5.5", "OPENAI_API_KEY" })
  c = models.resolve("local:http://127.0.0.1:8000/v1:qwen3-8b")
  t.eq({ c.provider, c.base_url, c.model }, { "openai-chat", "http://127.0.0.1:8000/v1", "qwen3-8b" })
  t.eq(models.resolve("replay:x.jsonl").file, "x.jsonl")
  t.eq(models.resolve("random").player, "random")
  t.contains(t.raises(function() models.resolve("foo:bar") end), "unknown model 'foo:bar'")
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", [[return { fast = { provider = "anthropic", model = "claude-x",
    prices = { input = 1, output = 5 } } }]])
  c = models.resolve("fast", dir .. "/models.lua")
  t.eq({ c.provider, c.base_url, c.key_env, c.prices.output }, { "anthropic", "https://api.anthropic.com/v1", "ANTHROPIC_API_KEY", 5 })
  fs.write_atomic(dir .. "/bad.lua", "return { x = { provider = 'openai' } }")
  t.contains(t.raises(function() models.resolve("x", dir .. "/bad.lua") end), "needs at least provider and model")
  t.near(models.cost({ input = 3, cached = 0.3, output = 15 }, { input = 1000, cached = 200, output = 100 }),
    1e-6 * (3 * 800 + 0.3 * 200 + 15 * 100), 1e-12)
end)

test("API keys never appear in anything a run writes, nor in errors", function()
  local s = mock.start({ { match = "fail", fault = "401" }, { reply = "fine" } })
  local dir = t.tmpdir()
  local secret = "sk-test-" .. string.rep("Zq7", 12)
  fs.write_atomic(dir .. "/models.lua", string.format([[return { m = { provider = "openai", model = "x",
    base_url = %q, key_env = "TABULA_TEST_KEY" } }]], s.url .. "/v1"))
  fs.write_atomic(dir .. "/run.lua", [[
local loop = require "tabula.loop"
local agent = require "tabula.agent"
local models = require "tabula.models"
local records = require "tabula.records"
local dir = arg[1]
loop.run(function()
  local a = agent.new(models.resolve("m", dir .. "/models.lua"), { cache_dir = dir .. "/cache", backoff = 0.01 })
  local w = records.writer(dir .. "/trials.jsonl")
  local ok = a:reply({ { role = "user", content = "hello" } })
  local bad, err = a:reply({ { role = "user", content = "please fail" } })
  w:write({ ok = ok, err = err, model = a:describe() })
  io.stderr:write(err.message, "\n")
  print(require("tabula.json").canonical(a:describe()))
end)
]])
  local h = io.popen(string.format("cd %s && TABULA_TEST_KEY=%s %s run.lua %s > out.txt 2> err.txt; echo $?",
    dir, secret, t.tabula_bin(), dir))
  local rc = h:read("a"); h:close()
  t.eq(rc, "0\n")
  -- the key did reach the server in the header...
  t.contains(s:log()[1].headers, "Authorization: Bearer " .. secret)
  -- ...and is in no file the run wrote (records, cache, stdout, stderr)
  local files = 0
  local function scan(path)
    for _, name in ipairs(fs.list(path) or {}) do
      local p = path .. "/" .. name
      if fs.kind(p) == "dir" then scan(p)
      elseif name ~= "models.lua" and name ~= "run.lua" then
        files = files + 1
        local text = fs.read(p)
        if text:find(secret, 1, true) then error("the key leaked into " .. p) end
        if text:find(secret:sub(1, 12), 1, true) then error("part of the key leaked into " .. p) end
      end
    end
  end
  scan(dir)
  t.ok(files >= 4, "scanned the records, the cache and both outputs (" .. files .. " files)")
  t.contains(fs.read(dir .. "/err.txt"), "HTTP 401")
  t.contains(fs.read(dir .. "/out.txt"), "TABULA_TEST_KEY")   -- the variable's name is fine
  s:close()
end)

return T
