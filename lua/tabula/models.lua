-- tabula.models — what --model names. A short form:
--   openai:gpt-5.5   anthropic:claude-opus-4-7   gemini:gemini-3.1-pro-preview
--   local:http://127.0.0.1:8000/v1:qwen3-8b   (any OpenAI-compatible server: Chat Completions)
--   openrouter:vendor/model  deepseek:deepseek-chat  together:...  dashscope:...
-- or a name from a models file (models.lua in the working directory, or --models FILE;
-- provider "openai" is the OpenAI service over the Responses API whatever its
-- base_url, "openai-chat" any server over Chat Completions; family = "..." or
-- capabilities = { ... } override tabula.capabilities for that model):
--   return { ["my-model"] = { provider = "openai", base_url = "...", model = "...",
--     key_env = "MY_KEY", settings = { temperature = 0 }, prices = { input = 1.25, cached = 0.125, output = 10 },
--     max_in_flight = 16, rpm = 600 } }
-- A server that takes no key (a local one) needs no key_env: provider
-- "openai-chat" without key_env sends none, and key_env = false says so for any
-- provider. The format in full: docs/MODELS.md.
-- or a built-in player: engine, random, replay:FILE, human.
-- Keys are read from the environment at call time and kept nowhere else.
local cli = require "tabula.cli"
local fs = require "tabula.fs"
local host = require "tabula.c.host"
local secrets = require "tabula.secrets"

local M = {}

M.PRESETS = {
  openai = { provider = "openai", base_url = "https://api.openai.com/v1", key_env = "OPENAI_API_KEY" },
  anthropic = { provider = "anthropic", base_url = "https://api.anthropic.com/v1", key_env = "ANTHROPIC_API_KEY" },
  gemini = { provider = "gemini", base_url = "https://generativelanguage.googleapis.com/v1beta", key_env = "GEMINI_API_KEY" },
  openrouter = { provider = "openai-chat", base_url = "https://openrouter.ai/api/v1", key_env = "OPENROUTER_API_KEY" },
  deepseek = { provider = "openai-chat", base_url = "https://api.deepseek.com/v1", key_env = "DEEPSEEK_API_KEY" },
  together = { provider = "openai-chat", base_url = "https://api.together.xyz/v1", key_env = "TOGETHER_API_KEY" },
  dashscope = { provider = "openai-chat", base_url = "https://dashscope.aliyuncs.com/compatible-mode/v1", key_env = "DASHSCOPE_API_KEY" },
}

M.BUILTIN = { engine = true, random = true, human = true }

-- the providers a models-file entry may name: the services' own APIs, and
-- openai-chat for any server speaking Chat Completions (vLLM, llama.cpp, Ollama, ...)
M.PROVIDERS = { openai = true, ["openai-chat"] = true, anthropic = true, gemini = true }

local function copy(t)
  local c = {}
  for k, v in pairs(t or {}) do c[k] = type(v) == "table" and copy(v) or v end
  return c
end

-- load_file(path) -> table of named models (a user error on a broken file)
function M.load_file(path)
  local chunk, err = loadfile(path, "t", {})
  if not chunk then cli.fail("models file %s: %s", path, err) end
  local ok, t = pcall(chunk)
  if not ok then cli.fail("models file %s: %s", path, tostring(t)) end
  if type(t) ~= "table" then cli.fail("models file %s must return a table of models", path) end
  for name, m in pairs(t) do
    if type(m) ~= "table" or not m.provider or not m.model then
      cli.fail("models file %s: model '%s' needs at least provider and model", path, tostring(name))
    end
    if not M.PROVIDERS[m.provider] then
      local list = {}
      for k in pairs(M.PROVIDERS) do list[#list + 1] = k end
      table.sort(list)
      cli.fail("models file %s: model '%s' has provider '%s'%s (providers: %s; any OpenAI-compatible server is openai-chat)",
        path, tostring(name), tostring(m.provider), cli.did_you_mean(tostring(m.provider), list), table.concat(list, ", "))
    end
    if m.key_env ~= nil and m.key_env ~= false and (type(m.key_env) ~= "string" or not m.key_env:match("^[%a_][%w_]*$")) then
      cli.fail("models file %s: model '%s': key_env names an environment variable (like \"MY_KEY\"), or is false for a server that takes no key",
        path, tostring(name))
    end
    local field = M.key_field(m)
    if field then
      cli.fail("models file %s: model '%s' holds a key in '%s'; keys come only from the environment: remove it and set key_env = \"VARIABLE\" (then export VARIABLE)",
        path, tostring(name), field)
    end
  end
  return t
end

-- key_field(m [, prefix]) -> the first key-like field (api_key, token, secret,
-- password, headers.Authorization, ...) anywhere in a model's table, or nil
function M.key_field(m, prefix)
  local names = {}
  for k in pairs(m) do names[#names + 1] = tostring(k) end
  table.sort(names)
  for _, k in ipairs(names) do
    local v = m[k]
    if secrets.key_like(k) and type(v) == "string" then return (prefix or "") .. k end
    if type(v) == "table" and k ~= "prices" then
      local inner = M.key_field(v, (prefix or "") .. k .. ".")
      if inner then return inner end
    end
  end
end

function M.default_file(explicit)
  if explicit then return explicit end
  if fs.kind("models.lua") == "file" then return "models.lua" end
  return nil
end

-- resolve(name [, models_file]) -> config { name, provider, base_url, model, key_env, settings, prices, ... }
function M.resolve(name, models_file)
  if not name or name == "" then cli.fail("no model given") end
  for _, p in pairs(M.PRESETS) do M.key(p) end   -- every configured key is redacted, used or not
  if M.BUILTIN[name] then return { name = name, provider = "builtin", player = name } end
  if name == "mcp" then   -- an agent program over MCP: only under tabula mcp (which sets M.mcp to its agent's name)
    if not M.mcp then cli.fail("model mcp: an agent program over MCP plays only under tabula mcp (tabula mcp SCENARIO ...)") end
    return { name = M.mcp, provider = "mcp", model = M.mcp, optional_key = true }
  end
  local replay = name:match("^replay:(.+)$")
  if replay then return { name = name, provider = "builtin", player = "replay", file = replay } end
  local file = M.default_file(models_file)
  if file then
    local named = M.load_file(file)[name]
    if named then
      local c = copy(named)
      c.name = name
      secrets.add_url(c.base_url)   -- user:pass@ or ?key= in the URL: redacted wherever it is written
      local preset = M.PRESETS[c.provider] or {}
      c.provider = preset.provider or c.provider
      c.base_url = c.base_url or preset.base_url
      if not c.base_url then cli.fail("model %s: give its base_url in the models file (provider %s has no default server)", name, c.provider) end
      -- key_env = false, or none for a provider without a service of its own (openai-chat):
      -- a server that takes no key (a local one); nothing is sent, nothing is asked for
      if c.key_env == false or (c.key_env == nil and not preset.key_env) then
        c.key_env, c.optional_key = nil, true
      else
        c.key_env = c.key_env or preset.key_env
      end
      c.max_tokens_field = c.max_tokens_field or preset.max_tokens_field
      return require("tabula.prices").complete(c)   -- cached and cache-write rates, built-in prices
    end
  end
  local url, model = name:match("^local:(https?://.+):([^:/]+)$")
  if url then
    secrets.add_url(url)     -- local:http://user:pass@host/v1:m — redacted wherever it is written
    return { name = name, provider = "openai-chat", base_url = url, model = model, key_env = "LOCAL_API_KEY", optional_key = true }
  end
  local prefix, rest = name:match("^(%w+):(.+)$")
  local preset = prefix and M.PRESETS[prefix]
  if not preset then
    local known = {}
    for k in pairs(M.PRESETS) do known[#known + 1] = k .. ":MODEL" end
    table.sort(known)
    cli.fail("unknown model '%s': use %s, local:URL:MODEL, engine, random, replay:FILE, human, or a name from models.lua",
      name, table.concat(known, ", "))
  end
  local c = copy(preset)
  c.name, c.model = name, rest
  return require("tabula.prices").complete(c)   -- the built-in price table (tabula.prices)
end

-- key(cfg) -> the key from the environment, or nil
function M.key(cfg)
  if not cfg.key_env then return nil end
  local v = host.getenv(cfg.key_env)
  if v == "" then v = nil end
  secrets.add(v)          -- whatever tabula writes or prints, this value is redacted from it
  return v
end

-- public(cfg) -> what may be written to a record: no key, only the variable's
-- name; the base URL (and a local:URL:MODEL name) without its credentials
function M.public(cfg)
  local p = secrets.scrub(copy(cfg))
  p.key = nil
  return p
end

-- cost(prices, usage) = 1e-6 * (p_in * (input - cached - cache_write) + p_cached * cached
--   + p_write * (cache_write - cache_write_1h) + p_write_1h * cache_write_1h + p_out * output)
-- (usage.input counts every input token; cached and cache_write are parts of it).
-- The write premium: prices.cache_write (5-minute TTL, default 1.25 x input) and
-- prices.cache_write_1h (one hour, default 2 x input), Anthropic's multipliers.
-- A resolved model's prices carry the cached rate of its provider's rule
-- (tabula.prices.complete); without one, cached reads count at the input price.
function M.cost(prices, usage)
  if not prices then return 0 end
  local p_in = prices.input or 0
  local cached, written = usage.cached or 0, usage.cache_write or 0
  local hour = usage.cache_write_1h or 0
  return 1e-6 * (p_in * ((usage.input or 0) - cached - written) + (prices.cached or p_in) * cached
    + (prices.cache_write or 1.25 * p_in) * (written - hour) + (prices.cache_write_1h or 2 * p_in) * hour
    + (prices.output or 0) * (usage.output or 0))
end

-- batch_prices(cfg) -> the prices of the model's calls through a batch API:
-- the models file's batch_prices, else its prices times the model's
-- batch_price_factor or the provider's factor in the capability table
-- (tabula.capabilities: batch); nil without prices
function M.batch_prices(cfg)
  if cfg.batch_prices then return cfg.batch_prices end
  if not cfg.prices then return nil end
  local f = cfg.batch_price_factor or require("tabula.capabilities").batch[cfg.provider] or 1
  local out = {}
  for k, v in pairs(cfg.prices) do out[k] = type(v) == "number" and v * f or v end
  return out
end

return M
