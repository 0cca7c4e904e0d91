-- tabula.providers.anthropic — the Anthropic Messages API. Thinking blocks are
-- the visible reasoning; cache reads count as cached input.
local json = require "tabula.json"
local b64 = require "tabula.base64"

local M = { name = "anthropic" }

local function blocks_of(msg)
  if type(msg.content) == "string" then return msg.content end
  local out = json.array()
  for _, p in ipairs(msg.content) do
    if p.type == "text" then
      out[#out + 1] = { type = "text", text = p.text }
    elseif p.type == "image" then
      out[#out + 1] = { type = "image", source = { type = "base64", media_type = p.mime or "image/png", data = b64.encode(p.data) } }
    end
  end
  return out
end

function M.request(cfg, conversation, s, stream)
  local messages, system = json.array(), nil
  for _, m in ipairs(conversation) do
    if m.role == "system" then
      system = (system and (system .. "\n\n") or "") .. (type(m.content) == "string" and m.content or "")
    else
      messages[#messages + 1] = { role = m.role, content = blocks_of(m) }
    end
  end
  local body = { model = cfg.model, messages = messages, system = system, max_tokens = s.max_tokens or 4096 }
  body.temperature = s.temperature
  body.top_p = s.top_p
  if s.thinking_budget or s.think then
    body.thinking = { type = "enabled", budget_tokens = s.thinking_budget or 4096 }
    if body.max_tokens <= body.thinking.budget_tokens then body.max_tokens = body.thinking.budget_tokens + 4096 end
  end
  if s.think == false then body.thinking = nil end
  if stream then body.stream = true end
  return { path = "/messages", body = body }
end

function M.auth_headers(key)
  local h = { "anthropic-version: 2023-06-01" }
  if key then h[#h + 1] = "x-api-key: " .. key end
  return h
end

local function usage_of(u, acc)
  u = type(u) == "table" and u or {}
  -- the Messages API counts thinking inside output_tokens and reports no
  -- separate figure, so reasoning stays unknown (nil), not zero
  acc = acc or { input = 0, cached = 0, output = 0 }
  local cached = math.tointeger(u.cache_read_input_tokens) or 0
  if u.input_tokens then acc.input = (math.tointeger(u.input_tokens) or 0) + cached + (math.tointeger(u.cache_creation_input_tokens) or 0) end
  if u.cache_read_input_tokens then acc.cached = cached end
  if u.output_tokens then acc.output = math.tointeger(u.output_tokens) or 0 end
  return acc
end

local FINISH = { end_turn = "stop", stop_sequence = "stop", max_tokens = "length", tool_use = "tool_calls" }

function M.parse(d)
  if type(d.content) ~= "table" then return nil, "no content in the reply" end
  local text, thinking = {}, {}
  for i, b in ipairs(d.content) do
    if type(b) ~= "table" then return nil, string.format("content[%d] is not an object", i) end
    if b.type == "text" and type(b.text) ~= "string" then
      return nil, string.format("content[%d].text is %s, not text", i, b.text == json.null and "null" or type(b.text))
    end
    if b.type == "text" then text[#text + 1] = b.text
    elseif b.type == "thinking" then thinking[#thinking + 1] = b.thinking end
  end
  return {
    text = table.concat(text), reasoning = #thinking > 0 and table.concat(thinking) or nil,
    finish = FINISH[d.stop_reason] or tostring(d.stop_reason), usage = usage_of(d.usage),
  }
end

function M.stream()
  local text, thinking, finish, usage, stopped = {}, {}, nil, nil, false
  local acc = {}
  function acc:event(_, data)
    local d = json.decode(data)
    if type(d) ~= "table" then return end
    if d.type == "message_start" and type(d.message) == "table" then
      usage = usage_of(d.message.usage, usage)
    elseif d.type == "content_block_delta" and type(d.delta) == "table" then
      if d.delta.type == "text_delta" then text[#text + 1] = d.delta.text
      elseif d.delta.type == "thinking_delta" then thinking[#thinking + 1] = d.delta.thinking end
    elseif d.type == "message_delta" then
      if type(d.delta) == "table" and d.delta.stop_reason then finish = FINISH[d.delta.stop_reason] or d.delta.stop_reason end
      usage = usage_of(d.usage, usage)
    elseif d.type == "message_stop" then
      stopped = true
    elseif d.type == "error" then
      error({ stream_error = type(d.error) == "table" and d.error.message or "error event in the stream" })
    end
  end
  function acc:finish()
    if not stopped then return nil, "the stream ended before message_stop" end
    return { text = table.concat(text), reasoning = #thinking > 0 and table.concat(thinking) or nil,
      finish = finish or "unknown", usage = usage or usage_of(nil) }
  end
  return acc
end

function M.error_message(d)
  if type(d) == "table" and type(d.error) == "table" then return d.error.message end
end

M.honours_seed = false   -- the Messages API has no seed parameter

return M
