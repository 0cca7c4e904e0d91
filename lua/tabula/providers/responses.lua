-- tabula.providers.responses — the OpenAI Responses API (/responses), the
-- `openai` provider (Chat Completions, for compatible servers, is
-- providers/openai.lua, provider `openai-chat`). Stateless: store false; for a
-- reasoning model the reasoning items come back with their encrypted content
-- (include reasoning.encrypted_content), are kept in reply.turn, and are sent
-- back in order when the turn is part of a later request. The reasoning
-- summaries are the visible reasoning. status "incomplete" (max_output_tokens)
-- is finish "length". Usage: input includes cached reads.
-- Tools (tabula.tools): function tools (strict false: the schemas are not in
-- strict mode's subset); the reply's function_call items are the calls (id:
-- their call_id). The reply's items (reasoning, function_call, message) are
-- the turn, sent back in order, and each call is answered by a
-- function_call_output item with its call_id.
local json = require "tabula.json"
local b64 = require "tabula.base64"
local tools_lib = require "tabula.tools"

local M = { name = "openai", carries = true }

local function content_of(msg)
  if type(msg.content) == "string" then return msg.content end
  local parts = json.array()
  for _, p in ipairs(msg.content) do
    if p.type == "text" then
      parts[#parts + 1] = { type = "input_text", text = p.text }
    elseif p.type == "image" then
      parts[#parts + 1] = { type = "input_image", detail = p.detail or "auto",
        image_url = "data:" .. (p.mime or "image/png") .. ";base64," .. b64.encode(p.data) }
    end
  end
  return parts
end

function M.request(cfg, conversation, s, stream, tools)
  local input, system = json.array(), {}
  for _, m in ipairs(conversation) do
    if m.role == "system" then
      system[#system + 1] = type(m.content) == "string" and m.content or ""
    elseif m.role == "assistant" and type(m.turn) == "table" and m.turn.provider == M.name then
      for _, item in ipairs(m.turn.items) do input[#input + 1] = item end   -- in order, unchanged
    elseif m.role == "tool" then
      input[#input + 1] = { type = "function_call_output", call_id = m.call_id, output = m.content }
    elseif m.role == "assistant" and m.tool_calls and #m.tool_calls > 0 then   -- calls from elsewhere (no turn)
      if m.content ~= nil and m.content ~= "" then input[#input + 1] = { role = "assistant", content = content_of(m) } end
      for _, c in ipairs(m.tool_calls) do
        input[#input + 1] = { type = "function_call", call_id = c.id, name = c.name, arguments = c.raw }
      end
    else
      input[#input + 1] = { role = m.role, content = content_of(m) }
    end
  end
  local body = { model = cfg.model, input = input, store = false }
  if tools and #tools > 0 then
    body.tools = json.array()
    for i, t in ipairs(tools) do
      body.tools[i] = { type = "function", name = t.name, description = t.description, parameters = t.parameters, strict = false }
    end
  end
  if #system > 0 then body.instructions = table.concat(system, "\n\n") end
  body.temperature, body.top_p = s.temperature, s.top_p
  body.max_output_tokens = s.max_tokens
  local th = s.thinking
  if s.carry_reasoning or (th and th.effort) then
    body.reasoning = { effort = th and th.effort or nil, summary = "auto" }
  end
  if s.carry_reasoning then body.include = json.array({ "reasoning.encrypted_content" }) end
  if s.prompt_cache and s.prompt_cache_key then body.prompt_cache_key = s.prompt_cache_key end
  if stream then body.stream = true end
  return { path = "/responses", body = body, unhashed = { "prompt_cache_key" } }
end

function M.auth_headers(key)
  return key and { "Authorization: Bearer " .. key } or {}
end

local function int(v) return math.tointeger(v) or 0 end

local function usage_of(u)
  u = type(u) == "table" and u or {}
  local id = type(u.input_tokens_details) == "table" and u.input_tokens_details or {}
  local od = type(u.output_tokens_details) == "table" and u.output_tokens_details or {}
  return { input = int(u.input_tokens), cached = int(id.cached_tokens), output = int(u.output_tokens),
    reasoning = int(od.reasoning_tokens) }
end

local INCOMPLETE = { max_output_tokens = "length", content_filter = "content_filter" }

-- reply_of(response object) -> reply | nil, why
local function reply_of(d)
  if type(d.output) ~= "table" then return nil, "no output in the reply" end
  local text, summary, reasoned, calls = {}, {}, false, nil
  for i, item in ipairs(d.output) do
    if type(item) ~= "table" then return nil, string.format("output[%d] is not an object", i) end
    if item.type == "function_call" then
      if type(item.name) ~= "string" or type(item.call_id) ~= "string" then
        return nil, string.format("output[%d] is a function_call without name or call_id", i)
      end
      calls = calls or {}
      calls[#calls + 1] = tools_lib.call(item.call_id, item.name, type(item.arguments) == "string" and item.arguments or "")
    elseif item.type == "reasoning" then
      reasoned = true
      for _, p in ipairs(type(item.summary) == "table" and item.summary or {}) do
        if type(p) == "table" and type(p.text) == "string" then summary[#summary + 1] = p.text end
      end
    elseif item.type == "message" then
      for j, c in ipairs(type(item.content) == "table" and item.content or {}) do
        if type(c) == "table" and c.type == "output_text" then
          if type(c.text) ~= "string" then
            return nil, string.format("output[%d].content[%d].text is %s, not text", i, j, c.text == json.null and "null" or type(c.text))
          end
          text[#text + 1] = c.text
        end
      end
    end
  end
  local finish = "stop"
  if d.status == "incomplete" then
    local why = type(d.incomplete_details) == "table" and d.incomplete_details.reason
    finish = INCOMPLETE[why] or "length"
  elseif d.status ~= "completed" and d.status ~= nil then finish = tostring(d.status)
  elseif calls then finish = "tool_calls" end
  local turn
  if reasoned or calls then
    local items = json.array()
    for i, item in ipairs(d.output) do items[i] = item end
    turn = { provider = M.name, items = items }
  end
  return { text = table.concat(text), reasoning = #summary > 0 and table.concat(summary, "\n\n") or nil,
    finish = finish, usage = usage_of(d.usage), turn = turn, tool_calls = calls }
end

function M.parse(d) return reply_of(d) end

-- stream(): the events response.output_text.delta, response.reasoning_summary_text.delta,
-- and the whole response in response.completed / response.incomplete
function M.stream()
  local final, text, summary = nil, {}, {}
  local acc = {}
  function acc:event(_, data)
    local d = json.decode(data)
    if type(d) ~= "table" then return end
    if d.type == "response.output_text.delta" and type(d.delta) == "string" then text[#text + 1] = d.delta
    elseif d.type == "response.reasoning_summary_text.delta" and type(d.delta) == "string" then summary[#summary + 1] = d.delta
    elseif (d.type == "response.completed" or d.type == "response.incomplete") and type(d.response) == "table" then
      final = d.response
    elseif d.type == "response.failed" or d.type == "error" then
      local e = type(d.response) == "table" and d.response.error or d.error or d
      error({ stream_error = type(e) == "table" and tostring(e.message) or "error event in the stream" })
    end
  end
  function acc:finish()
    if not final then return nil, "the stream ended before response.completed" end
    local r, why = reply_of(final)
    if r and r.text == "" and #text > 0 then r.text = table.concat(text) end
    return r, why
  end
  return acc
end

function M.error_message(d)
  if type(d) == "table" and type(d.error) == "table" and type(d.error.message) == "string" then return d.error.message end
end

M.honours_seed = false   -- the Responses API takes no seed

return M
