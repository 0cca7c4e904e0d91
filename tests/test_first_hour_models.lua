-- Model ids in the first hour (issue 46, item 8): the capability table lists
-- each family's current ids; an id it does not list gets one warning line with
-- the closest listed id before any call; a "model not found" answer stops the
-- run naming it; the README's commands use the providers' ids; Gemini 3 Flash
-- models take the thinking levels their docs list (minimal and medium too).
local t = require "tabula.testing"
local ms = require "tabula.model_settings"
local fs = require "tabula.fs"
local test, T = t.suite()

local function tabula(args, env)
  local q = {}
  for i, a in ipairs(args) do q[i] = t.quote(a) end
  local out = t.sh("cd " .. t.root() .. " && " .. (env or "") .. " " .. t.quote(t.tabula_bin()) .. " " .. table.concat(q, " "))
  return tonumber(out:match("rc=(%d+)\n$")), (out:gsub("rc=%d+\n$", ""))
end

test("the providers' ids are known; a mistyped one has its closest known id", function()
  for _, c in ipairs({ { "anthropic", "claude-opus-4-7" }, { "anthropic", "claude-haiku-4-5-20251001" },
    { "gemini", "gemini-3.1-pro-preview" }, { "gemini", "gemini-3-flash-preview" }, { "openai", "gpt-5.5" },
    { "openai", "gpt-5.4-2026-03-05" } }) do
    t.eq(ms.check_id({ provider = c[1], model = c[2] }), nil, c[2] .. " is known")
  end
  t.eq(ms.check_id({ provider = "anthropic", model = "claude-opus-4.7" }), "claude-opus-4-7")
  t.eq(ms.check_id({ provider = "gemini", model = "gemini-3.1-pro" }), "gemini-3.1-pro-preview")
  t.eq(ms.check_id({ provider = "openai", model = "gpt5.5" }), "gpt-5.5")
  t.eq(ms.check_id({ provider = "openai", model = "my-own-finetune-xyz" }), false, "nothing near: no suggestion")
  t.eq(ms.check_id({ provider = "openai-chat", model = "qwen3-8b" }), nil, "a compatible server's ids are its own")
end)

test("an id the table does not list: one warning line naming the closest, before any call", function()
  local rc, out = tabula({ "run", "scenarios/xiangqibench", "--model", "anthropic:claude-opus-4.7", "--limit", "1",
    "--out", t.tmpdir() .. "/run" }, "env -u ANTHROPIC_API_KEY")
  t.eq(rc, 2, out)
  local warning = out:match("(warning: [^\n]*)\n")
  t.ok(warning, "a warning line: " .. out)
  t.contains(warning, "'claude-opus-4.7'")
  t.contains(warning, "the closest known id is 'claude-opus-4-7'")
  t.eq(select(2, out:gsub("warning:", "")), 1, "said once")
  t.ok(out:find("warning:", 1, true) < out:find("ANTHROPIC_API_KEY", 1, true), "before the run stops for its key")
  rc, out = tabula({ "run", "scenarios/xiangqibench", "--model", "anthropic:claude-opus-4-7", "--limit", "1",
    "--out", t.tmpdir() .. "/run" }, "env -u ANTHROPIC_API_KEY")
  t.ok(not out:find("warning:", 1, true), "a known id gets no warning: " .. out)
end)

test("a model-not-found answer stops the run naming the closest known id", function()
  local mock = require "tests.mock"
  local s = mock.start({ { fault = "404" } })
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return { c = { provider = "anthropic", model = "claude-opus-4.7",
    base_url = %q, optional_key = true } }]], s.url .. "/v1"))
  local rc, out = tabula({ "run", "scenarios/xiangqibench", "--model", "c", "--models", dir .. "/models.lua", "--limit", "1",
    "--trials", "1", "--out", dir .. "/run", "--max-attempts", "1", "--quiet" })
  s:close()
  t.eq(rc, 2, out)
  t.contains(out, "configuration error, the run stopped")
  t.contains(out, "HTTP 404")
  t.contains(out, "the closest known id is 'claude-opus-4-7'")
end)

test("Gemini 3 Flash models take minimal and medium; Gemini 3 Pro low and high; 3.1 Pro low, medium, high", function()
  local function level(model, effort)
    local sent = ms.fit({ name = "g", provider = "gemini", model = model }, { reasoning_effort = effort }, {})
    return sent.thinking and sent.thinking.level
  end
  t.eq(ms.family({ provider = "gemini", model = "gemini-3-flash-preview" }).name, "gemini-3-flash")
  t.eq(level("gemini-3-flash-preview", "minimal"), "minimal")
  t.eq(level("gemini-3-flash-preview", "medium"), "medium")
  t.eq(level("gemini-3.5-flash", "minimal"), "minimal")
  t.eq(level("gemini-3.1-flash-lite", "medium"), "medium")
  t.eq(level("gemini-3-pro-preview", "medium"), "high", "Gemini 3 Pro: low and high only")
  t.eq(level("gemini-3.1-pro-preview", "medium"), "medium")
  t.eq(level("gemini-3.1-pro-preview", "minimal"), "low", "3.1 Pro has no minimal")
end)

test("the README's commands name models by the providers' ids", function()
  local readme = fs.read(t.root() .. "/README.md")
  local n = 0
  for provider, model in readme:gmatch("%-%-model (%a+):([%w%.%-]+)") do
    if provider == "openai" or provider == "anthropic" or provider == "gemini" then
      n = n + 1
      t.eq(ms.check_id({ provider = provider, model = model }), nil, "README: " .. provider .. ":" .. model)
    end
  end
  t.ok(n >= 3, "the README's examples were found")
  t.ok(not readme:find("anthropic:claude-opus-4.7", 1, true), "no anthropic:claude-opus-4.7")
  t.ok(not readme:find("gemini:gemini-3.1-pro[^-]"), "no gemini:gemini-3.1-pro without -preview")
end)

return T
