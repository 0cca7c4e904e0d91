-- tests/families.lua — the model families the model tests run as (one per
-- kind of API), and helpers to read what the mock server received.
local json = require "tabula.json"
local fs = require "tabula.fs"

local M = {}

-- the four families of the issue, and the older ones beside them
M.FAMILIES = {
  claude = { provider = "anthropic", model = "claude-opus-4-7", base = "/v1" },
  gpt = { provider = "openai", model = "gpt-5.5", base = "/v1" },
  gemini = { provider = "gemini", model = "gemini-3-pro", base = "/v1beta" },
  open = { provider = "openai-chat", model = "qwen3-8b", base = "/v1" },
}
M.ORDER = { "claude", "gpt", "gemini", "open" }

function M.cfg(fam, server, extra)
  local f = M.FAMILIES[fam] or fam
  local base = f.base or (f.provider == "gemini" and "/v1beta" or "/v1")
  local c = { name = "mock-" .. f.model, provider = f.provider, model = f.model,
    base_url = (server and server.url or "http://127.0.0.1:9") .. base, prices = { input = 2, cached = 0.2, output = 8 } }
  for k, v in pairs(extra or {}) do c[k] = v end
  return c
end

local FAST = { backoff = 0.01, max_attempts = 2, timeout = 5, quiet_settings = true }
function M.fast(extra)
  local o = {}
  for k, v in pairs(FAST) do o[k] = v end
  for k, v in pairs(extra or {}) do o[k] = v end
  return o
end

function M.bodies(server)
  local out = {}
  for i, e in ipairs(server:log()) do out[i] = json.decode(e.body) end
  return out
end

-- carried(fam, body) -> the reasoning the request sends back for the first assistant turn
function M.carried(fam, body)
  local p = (M.FAMILIES[fam] or {}).provider
  if p == "anthropic" then
    for _, m in ipairs(body.messages) do
      if m.role == "assistant" and type(m.content) == "table" then
        for _, b in ipairs(m.content) do if b.type == "thinking" then return b end end
      end
    end
  elseif p == "openai" then
    for _, it in ipairs(body.input) do if it.type == "reasoning" then return it end end
  elseif p == "gemini" then
    for _, c in ipairs(body.contents) do
      if c.role == "model" then
        for _, part in ipairs(c.parts) do if part.thoughtSignature then return part end end
      end
    end
  end
  return nil
end

function M.models_file(dir, server)
  local lines = { "return {" }
  for _, fam in ipairs(M.ORDER) do
    local f = M.FAMILIES[fam]
    lines[#lines + 1] = string.format("  %s = { provider = %q, model = %q, base_url = %q, key_env = 'TABULA_NO_KEY', optional_key = true },",
      fam, f.provider, f.model, server.url .. f.base)
  end
  lines[#lines + 1] = "}"
  fs.write_atomic(dir .. "/models.lua", table.concat(lines, "\n") .. "\n")
  return dir .. "/models.lua"
end

-- golden(name, case, conversation [, tools]) -> got, want: the request an agent of the
-- case's family builds for the conversation, against tests/golden/requests/NAME.json
-- (TABULA_UPDATE_GOLDEN=1 rewrites it)
function M.golden(name, case, conversation, tools)
  local t = require "tabula.testing"
  local agent = require "tabula.agent"
  local c = M.cfg(case[2])
  local a = agent.new(c, M.fast({ settings = case[3], cache_dir = "/nonexistent/run/cache" }))
  local req = a.provider.request(c, conversation, a.settings, false, tools)
  local got = json.encode({ path = req.path, body = req.body }, { pretty = true }) .. "\n"
  local dir = t.root() .. "/tests/golden/requests"
  local path = dir .. "/" .. name .. ".json"
  if os.getenv("TABULA_UPDATE_GOLDEN") == "1" then fs.mkdir_p(dir); fs.write_atomic(path, got) end
  local want = fs.read(path)
  t.ok(want, "missing golden file " .. path .. " (TABULA_UPDATE_GOLDEN=1 writes it)")
  return got, want
end

return M
