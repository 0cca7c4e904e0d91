-- tabula.providers.openai — OpenAI chat completions, and every server that
-- speaks it (vLLM, SGLang, llama.cpp, Ollama, OpenRouter, DeepSeek, DashScope
-- compatible mode, Together). Visible reasoning is read from
-- message.reasoning_content or message.reasoning, as these servers send it.
-- Tools (tabula.tools): `tools` of type function; the reply's
-- message.tool_calls (streamed: delta.tool_calls pieces by index) are the
-- calls; they go back as the assistant message's tool_calls, each answered by
-- a role "tool" message with its tool_call_id.
local json = require "tabula.json"
local b64 = require "tabula.base64"
local tools_lib = require "tabula.tools"

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

-- message_of(m) -> a conversation message as Chat Completions takes it
local function message_of(m)
  if m.role == "tool" then return { role = "tool", tool_call_id = m.call_id, content = m.content } end
  if m.role == "assistant" and m.tool_calls and #m.tool_calls > 0 then
    local calls = json.array()
    for i, c in ipairs(m.tool_calls) do
      calls[i] = { id = c.id, type = "function", ["function"] = { name = c.name, arguments = c.raw } }
    end
    return { role = "assistant", content = (m.content ~= nil and m.content ~= "") and content_of(m) or json.null, tool_calls = calls }
  end
  return { role = m.role, content = content_of(m) }
end

-- request(cfg, conversation, settings, stream [, tools]) -> { path, body (table), headers }
function M.request(cfg, conversation, s, stream, tools)
  local messages = json.array()
  for _, m in ipairs(conversation) do messages[#messages + 1] = message_of(m) end
  local body = { model = cfg.model, messages = messages }
  if tools and #tools > 0 then
    body.tools = json.array()
    for i, t in ipairs(tools) do
      body.tools[i] = { type = "function", ["function"] = { name = t.name, description = t.description, parameters = t.parameters } }
    end
  end
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
  local calls = type(m.tool_calls) == "table" and #m.tool_calls > 0 and m.tool_calls or nil
  -- content is text; null only when the model ran out of tokens (all of them
  -- reasoning) or called tools
  if type(m.content) ~= "string" and not (m.content == json.null and (c.finish_reason == "length" or calls))
    and not (m.content == nil and calls) then
    return nil, "choices[1].message.content is " .. (m.content == json.null and "null" or type(m.content)) .. ", not text"
  end
  local tool_calls
  for i, tc in ipairs(calls or {}) do
    if type(tc) ~= "table" or type(tc["function"]) ~= "table" or type(tc["function"].name) ~= "string" then
      return nil, string.format("choices[1].message.tool_calls[%d] has no function name", i)
    end
    tool_calls = tool_calls or {}
    tool_calls[i] = tools_lib.call(str(tc.id) or ("call_" .. i), tc["function"].name, str(tc["function"].arguments) or "")
  end
  return {
    text = str(m.content) or "",
    reasoning = str(m.reasoning_content) or str(m.reasoning),
    finish = str(c.finish_reason) or "unknown",
    usage = usage_of(d.usage),
    tool_calls = tool_calls,
  }
end

-- stream(): an accumulator of server-sent events -> :event(name, data) ; :finish() -> reply | nil, why
function M.stream()
  local text, reasoning, finish, usage, done = {}, {}, nil, nil, false
  local calls = {}   -- by index: { id, name, args = pieces }
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
      for _, tc in ipairs(type(delta.tool_calls) == "table" and delta.tool_calls or {}) do
        local k = (math.tointeger(tc.index) or 0) + 1
        local f = type(tc["function"]) == "table" and tc["function"] or {}
        local call = calls[k] or { args = {} }
        calls[k] = call
        call.id = str(tc.id) or call.id
        call.name = str(f.name) or call.name
        if str(f.arguments) then call.args[#call.args + 1] = f.arguments end
      end
      if str(c.finish_reason) then finish = c.finish_reason end
    end
  end
  function acc:finish()
    if not done and not finish then return nil, "the stream ended before the reply was complete" end
    local tool_calls
    for k, call in ipairs(calls) do
      tool_calls = tool_calls or {}
      tool_calls[k] = tools_lib.call(call.id or ("call_" .. k), call.name or "", table.concat(call.args))
    end
    return {
      text = table.concat(text), reasoning = #reasoning > 0 and table.concat(reasoning) or nil,
      finish = finish or "unknown", usage = usage or usage_of(nil), tool_calls = tool_calls,
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
