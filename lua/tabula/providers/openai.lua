-- tabula.providers.openai — OpenAI chat completions, and every server that
-- speaks it (vLLM, SGLang, llama.cpp, Ollama, OpenRouter, DeepSeek, DashScope
-- compatible mode, Together). Visible reasoning is read from
-- message.reasoning_content or message.reasoning, as these servers send it.
local json = require "tabula.json"
local b64 = require "tabula.base64"

local M = { name = "openai" }

local function content_of(msg)
  if type(msg.content) == "string" then return msg.content end
  local parts = json.array()
  for _, p in ipairs(msg.content) do
    if p.type == "text" then
      parts[#parts + 1] = { type = "text", text = p.text }
    elseif p.type == "image" then
      parts[#parts + 1] = { type = "image_url", image_url = {
        url = "data:" .. (p.mime or "image/png") .. ";base64," .. b64.encode(p.data), detail = p.detail } }
    end
  end
  return parts
end

-- request(cfg, conversation, settings, stream) -> { path, body (table), headers }
function M.request(cfg, conversation, s, stream)
  local messages = json.array()
  for _, m in ipairs(conversation) do
    messages[#messages + 1] = { role = m.role, content = content_of(m) }
  end
  local body = { model = cfg.model, messages = messages }
  body.temperature = s.temperature
  body.top_p = s.top_p
  if s.max_tokens then body[cfg.max_tokens_field or "max_tokens"] = s.max_tokens end
  body.reasoning_effort = s.reasoning_effort
  body.seed = s.seed
  if s.think ~= nil then
    -- OpenAI's own API switches reasoning by effort; open servers (vLLM, SGLang,
    -- llama.cpp with Qwen-style templates) by a chat-template flag
    if (cfg.base_url or ""):find("api.openai.com", 1, true) then
      body.reasoning_effort = s.reasoning_effort or (s.think and "medium" or "minimal")
    else
      body.chat_template_kwargs = { enable_thinking = s.think }
    end
  end
  if stream then
    body.stream = true
    body.stream_options = { include_usage = true }
  end
  return { path = "/chat/completions", body = body }
end

function M.auth_headers(key)
  return key and { "Authorization: Bearer " .. key } or {}
end

local function usage_of(u)
  u = type(u) == "table" and u or {}
  local pd = type(u.prompt_tokens_details) == "table" and u.prompt_tokens_details or {}
  local cd = type(u.completion_tokens_details) == "table" and u.completion_tokens_details or {}
  return {
    input = math.tointeger(u.prompt_tokens) or 0,
    cached = math.tointeger(pd.cached_tokens) or 0,
    output = math.tointeger(u.completion_tokens) or 0,
    reasoning = math.tointeger(cd.reasoning_tokens) or 0,
  }
end

local function str(v) return type(v) == "string" and v or nil end

-- parse(decoded body) -> reply | nil, why
function M.parse(d)
  local c = type(d.choices) == "table" and d.choices[1]
  if type(c) ~= "table" or type(c.message) ~= "table" then return nil, "no choices[1].message in the reply" end
  local m = c.message
  -- content is text; null only when the model ran out of tokens (all of them reasoning)
  if type(m.content) ~= "string" and not (m.content == json.null and c.finish_reason == "length") then
    return nil, "choices[1].message.content is " .. (m.content == json.null and "null" or type(m.content)) .. ", not text"
  end
  return {
    text = str(m.content) or "",
    reasoning = str(m.reasoning_content) or str(m.reasoning),
    finish = str(c.finish_reason) or "unknown",
    usage = usage_of(d.usage),
  }
end

-- stream(): an accumulator of server-sent events -> :event(name, data) ; :finish() -> reply | nil, why
function M.stream()
  local text, reasoning, finish, usage, done = {}, {}, nil, nil, false
  local acc = {}
  function acc:event(_, data)
    if data == "[DONE]" then done = true; return end
    local d = json.decode(data)
    if type(d) ~= "table" then return end
    if d.usage and d.usage ~= json.null then usage = usage_of(d.usage) end
    local c = type(d.choices) == "table" and d.choices[1]
    if type(c) == "table" then
      local delta = type(c.delta) == "table" and c.delta or {}
      if str(delta.content) then text[#text + 1] = delta.content end
      local r = str(delta.reasoning_content) or str(delta.reasoning)
      if r then reasoning[#reasoning + 1] = r end
      if str(c.finish_reason) then finish = c.finish_reason end
    end
  end
  function acc:finish()
    if not done and not finish then return nil, "the stream ended before the reply was complete" end
    return {
      text = table.concat(text), reasoning = #reasoning > 0 and table.concat(reasoning) or nil,
      finish = finish or "unknown", usage = usage or usage_of(nil),
    }
  end
  return acc
end

function M.error_message(d)
  if type(d) == "table" and type(d.error) == "table" then return str(d.error.message) end
  return nil
end

-- what a provider does with a seed: honoured by OpenAI and most compatible servers
M.honours_seed = true

return M
