-- A local server in the models file (issue 46, item 15): a key-less server is
-- declared without key_env (provider openai-chat) or with key_env = false, and
-- the run goes on without a key and without an Authorization header (it said
-- "needs the environment variable nil"); a mistaken entry is one line; the
-- format is in docs/MODELS.md and tabula.engine in docs/API.md.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local test, T = t.suite()

local function tabula(args)
  local q = {}
  for i, a in ipairs(args) do q[i] = t.quote(a) end
  local out = t.sh("cd " .. t.root() .. " && env -u OPENAI_API_KEY -u ANTHROPIC_API_KEY " .. t.quote(t.tabula_bin()) .. " "
    .. table.concat(q, " "))
  return tonumber(out:match("rc=(%d+)\n$")), (out:gsub("rc=%d+\n$", ""))
end

test("a key-less local server: openai-chat without key_env, and key_env = false, run with no key sent", function()
  local mock = require "tests.mock"
  local s = mock.start({ { reply = "A", usage = { input = 10, output = 1 } } })
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return {
    ["my-local"] = { provider = "openai-chat", base_url = %q, model = "qwen3-8b" },
    ["claude-local"] = { provider = "anthropic", base_url = %q, model = "claude-opus-4-7", key_env = false },
  }]], s.url .. "/v1", s.url .. "/v1"))
  for i, name in ipairs({ "my-local", "claude-local" }) do
    local rc, out = tabula({ "run", "examples/xiangqi_mate1_mc.lua", "--model", name, "--models", dir .. "/models.lua",
      "--limit", "1", "--trials", "1", "--workers", "1", "--out", dir .. "/run" .. i, "--quiet" })
    t.eq(rc, 0, name .. ": " .. out)
    t.ok(not out:find("environment variable", 1, true), out)
  end
  local log = s:log()
  s:close()
  t.eq(#log, 2, "one call each")
  for _, e in ipairs(log) do
    t.ok(not e.headers:lower():find("authorization:", 1, true), "no Authorization header: " .. e.headers)
    t.ok(not e.headers:lower():find("x%-api%-key:"), "no x-api-key header")
  end
  local rc, out = tabula({ "models", "--models", dir .. "/models.lua" })
  t.eq(rc, 0, out)
  t.contains(out:match("my%-local[^\n]*"), "none", "tabula models says it takes no key")
end)

test("a models file's mistakes are one line naming the model", function()
  local dir = t.tmpdir()
  for _, c in ipairs({
    { [[{ provider = "ollama", base_url = "http://127.0.0.1:1/v1", model = "q" }]], "provider 'ollama'" },
    { [[{ provider = "openai-chat", model = "q" }]], "give its base_url" },
    { [[{ provider = "openai", model = "gpt-5.5", key_env = "not a name" }]], "key_env names an environment variable" },
  }) do
    fs.write_atomic(dir .. "/models.lua", "return { m = " .. c[1] .. " }")
    local rc, out = tabula({ "run", "examples/xiangqi_mate1_mc.lua", "--model", "m", "--models", dir .. "/models.lua",
      "--limit", "1", "--out", dir .. "/run" })
    t.eq(rc, 2, out)
    t.eq(select(2, out:gsub("\n", "")), 1, "one line: " .. out)
    t.contains(out, c[2])
    t.ok(not out:find("variable nil", 1, true), out)
  end
end)

test("docs/MODELS.md documents the models file, key-less servers included", function()
  local doc = fs.read(t.root() .. "/docs/MODELS.md")
  t.ok(doc, "docs/MODELS.md exists")
  for _, field in ipairs({ "provider", "model", "base_url", "key_env", "optional_key", "settings", "prices", "max_in_flight",
    "rpm", "family", "capabilities", "max_tokens_field", "batch_prices" }) do
    t.contains(doc, "`" .. field .. "`", "the field " .. field)
  end
  t.contains(doc, "key_env = false")
  local api = fs.read(t.root() .. "/docs/API.md")
  t.contains(api, "## tabula.engine")
end)

return T
