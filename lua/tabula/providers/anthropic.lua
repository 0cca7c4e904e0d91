-- tabula.providers.anthropic — the Anthropic Messages API. Thinking is adaptive
-- (thinking.type "adaptive", output_config.effort, display "summarized") or
-- budgeted (thinking.type "enabled", budget_tokens), as the model's family
-- takes it (tabula.capabilities). The summarized thinking is the visible
-- reasoning; the reply's thinking and redacted_thinking blocks, with their
-- signatures, are kept in reply.turn and sent back unchanged when the turn is
-- part of a later request. Prompt caching: cache_control breakpoints on the
-- system prompt and, once the conversation has an assistant turn, on the first
-- and the last user message. Usage: input counts cache reads and writes,
-- cached the reads, cache_write the writes.
-- Tools (tabula.tools): `tools` with input_schema; the reply's tool_use
-- blocks are the calls (streamed: input_json_delta pieces). The reply's
-- blocks (thinking with signatures, text, tool_use) are the turn, sent back
-- verbatim; the results of one turn's calls go back together as tool_result
-- blocks, first in the next user message (a user message right after them
-- joins it). The last tool_result gets the moving cache breakpoint.
local json = require "tabula.json"
local b64 = require "tabula.base64"
local tools_lib = require "tabula.tools"

local M = { name = "anthropic", carries = true }

local function blocks_of(msg)
  if type(msg.content) == "string" then return json.array({ { type = "text", text = msg.content } }) end
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

-- a message as the API takes it: a string stays a string unless a breakpoint goes on it
local function content_of(msg, breakpoint)
  if type(msg.content) == "string" and not breakpoint then return msg.content end
  local blocks = blocks_of(msg)
  if breakpoint and #blocks > 0 then blocks[#blocks].cache_control = { type = "ephemeral" } end
  return blocks
end

-- assistant_blocks(m) -> an assistant message with tool calls, as blocks (when it has no turn)
local function assistant_blocks(m)
  local out = json.array()
  if m.content ~= nil and m.content ~= "" then for _, b in ipairs(blocks_of(m)) do out[#out + 1] = b end end
  for _, c in ipairs(m.tool_calls) do
    out[#out + 1] = { type = "tool_use", id = c.id, name = c.name, input = tools_lib.arguments_object(c) }
  end
  return out
end

function M.request(cfg, conversation, s, stream, tools)
  local messages, system = json.array(), {}
  local first_user, last_user, has_assistant
  for _, m in ipairs(conversation) do
    if m.role == "assistant" then has_assistant = true
    elseif m.role == "user" or m.role == "tool" then first_user = first_user or m; last_user = m end
  end
  local cache = s.prompt_cache
  local results   -- the user message holding the tool_result blocks being gathered
  for _, m in ipairs(conversation) do
    local joined = false
    if m.role == "system" then
      system[#system + 1] = type(m.content) == "string" and m.content or ""
    elseif m.role == "assistant" and type(m.turn) == "table" and m.turn.provider == M.name then
      messages[#messages + 1] = { role = "assistant", content = m.turn.content }   -- verbatim: signatures unchanged
    elseif m.role == "assistant" and m.tool_calls and #m.tool_calls > 0 then
      messages[#messages + 1] = { role = "assistant", content = assistant_blocks(m) }
    elseif m.role == "tool" then
      if not results then
        results = { role = "user", content = json.array() }
        messages[#messages + 1] = results
      end
      local b = { type = "tool_result", tool_use_id = m.call_id, content = m.content, is_error = m.is_error or nil }
      if cache and m == last_user then b.cache_control = { type = "ephemeral" } end
      results.content[#results.content + 1] = b
      joined = true
    elseif results and m.role == "user" then   -- text after the results: the same user message
      local bp = cache and has_assistant and (m == first_user or m == last_user)
      for _, b in ipairs(blocks_of(m)) do results.content[#results.content + 1] = b end
      if bp then results.content[#results.content].cache_control = { type = "ephemeral" } end
    else
      local bp = cache and has_assistant and m.role == "user" and (m == first_user or m == last_user)
      messages[#messages + 1] = { role = m.role, content = content_of(m, bp) }
    end
    if not joined then results = nil end
  end
  if tools and #tools > 0 then
    local list = json.array()
    for i, t in ipairs(tools) do list[i] = { name = t.name, description = t.description, input_schema = t.parameters } end
    tools = list
  else tools = nil end
  local th = s.thinking
  local thinking_on = th and not th.off
  local body = { model = cfg.model, messages = messages, max_tokens = s.max_tokens or (thinking_on and 16000 or 4096), tools = tools }
  if #system > 0 then
    local text = table.concat(system, "\n\n")
    body.system = cache and json.array({ { type = "text", text = text, cache_control = { type = "ephemeral" } } }) or text
  end
  body.temperature, body.top_p, body.top_k = s.temperature, s.top_p, s.top_k
  if thinking_on and th.budget then
    body.thinking = { type = "enabled", budget_tokens = th.budget }
  elseif thinking_on then
    body.thinking = { type = "adaptive", display = "summarized" }
    if th.effort then body.output_config = { effort = th.effort } end
  end
  if stream then body.stream = true end
  return { path = "/messages", body = body }
end

function M.auth_headers(key)
  local h = { "anthropic-version: 2023-06-01" }
  if key then h[#h + 1] = "x-api-key: " .. key end
  return h
end

local function int(v) return math.tointeger(v) or 0 end

-- usage: input = input_tokens + cache reads + cache writes (input_tokens counts neither)
local function usage_of(u, acc)
  u = type(u) == "table" and u or {}
  -- the Messages API counts thinking inside output_tokens and reports no
  -- separate figure, so reasoning stays unknown (nil), not zero
  acc = acc or { input = 0, cached = 0, output = 0 }
  if u.cache_read_input_tokens then acc.cached = int(u.cache_read_input_tokens) end
  if u.cache_creation_input_tokens then
    acc.cache_write = int(u.cache_creation_input_tokens)
    local cc = type(u.cache_creation) == "table" and u.cache_creation
    if cc and int(cc.ephemeral_1h_input_tokens) > 0 then acc.cache_write_1h = int(cc.ephemeral_1h_input_tokens) end
    if acc.cache_write == 0 then acc.cache_write = nil end
  end
  if u.input_tokens then acc.uncached = int(u.input_tokens) end
  acc.input = (acc.uncached or 0) + acc.cached + (acc.cache_write or 0)
  if u.output_tokens then acc.output = int(u.output_tokens) end
  return acc
end

local function finish_usage(u)
  u = u or usage_of(nil)
  u.uncached = nil
  return u
end

local FINISH = { end_turn = "stop", stop_sequence = "stop", max_tokens = "length", tool_use = "tool_calls", refusal = "content_filter" }

-- reply_of(blocks, stop_reason, usage): text, summarized thinking, and the turn to carry
local function reply_of(blocks, stop, usage)
  local text, thinking, signed, calls = {}, {}, false, nil
  for _, b in ipairs(blocks) do
    if b.type == "text" then text[#text + 1] = b.text
    elseif b.type == "thinking" then thinking[#thinking + 1] = b.thinking; signed = true
    elseif b.type == "redacted_thinking" then signed = true
    elseif b.type == "tool_use" then
      calls = calls or {}
      calls[#calls + 1] = tools_lib.call(b.id, b.name, type(b.input) == "table" and b.input or json.object())
    end
  end
  local turn
  if signed or calls then
    local content = json.array()
    for i, b in ipairs(blocks) do content[i] = b end
    turn = { provider = M.name, content = content }
  end
  return {
    text = table.concat(text), reasoning = #thinking > 0 and table.concat(thinking, "\n\n") or nil,
    finish = FINISH[stop] or tostring(stop), usage = finish_usage(usage), turn = turn, tool_calls = calls,
  }
end

function M.parse(d)
  if type(d.content) ~= "table" then return nil, "no content in the reply" end
  for i, b in ipairs(d.content) do
    if type(b) ~= "table" then return nil, string.format("content[%d] is not an object", i) end
    if b.type == "text" and type(b.text) ~= "string" then
      return nil, string.format("content[%d].text is %s, not text", i, b.text == json.null and "null" or type(b.text))
    end
    if b.type == "tool_use" and (type(b.id) ~= "string" or type(b.name) ~= "string") then
      return nil, string.format("content[%d] is a tool_use block without id or name", i)
    end
  end
  return reply_of(d.content, d.stop_reason, usage_of(d.usage))
end

function M.stream()
  local blocks, finish, usage, stopped, top = {}, nil, nil, false, 0
  local json_pieces = {}   -- a tool_use block -> its input's JSON so far
  local acc = {}
  -- block(index) -> the block at the event's index (0-based), made if absent
  local function block(index, kind)
    local i = (math.tointeger(index) or 0) + 1
    if i > top then top = i end
    blocks[i] = blocks[i] or { type = kind }
    return blocks[i]
  end
  function acc:event(_, data)
    local d = json.decode(data)
    if type(d) ~= "table" then return end
    if d.type == "message_start" and type(d.message) == "table" then
      usage = usage_of(d.message.usage, usage)
    elseif d.type == "content_block_start" and type(d.content_block) == "table" then
      local b = block(d.index, d.content_block.type)
      for k, v in pairs(d.content_block) do b[k] = v end
    elseif d.type == "content_block_delta" and type(d.delta) == "table" then
      local dt = d.delta
      local b = block(d.index, dt.type == "thinking_delta" and "thinking" or "text")
      if dt.type == "input_json_delta" then json_pieces[b] = (json_pieces[b] or "") .. tostring(dt.partial_json)
      elseif dt.type == "text_delta" then b.text = (b.text or "") .. tostring(dt.text)
      elseif dt.type == "thinking_delta" then b.thinking = (b.thinking or "") .. tostring(dt.thinking)
      elseif dt.type == "signature_delta" then b.signature = (b.signature or "") .. tostring(dt.signature) end
    elseif d.type == "message_delta" then
      if type(d.delta) == "table" and d.delta.stop_reason then finish = d.delta.stop_reason end
      usage = usage_of(d.usage, usage)
    elseif d.type == "message_stop" then
      stopped = true
    elseif d.type == "error" then
      error({ stream_error = type(d.error) == "table" and d.error.message or "error event in the stream" })
    end
  end
  function acc:finish()
    if not stopped then return nil, "the stream ended before message_stop" end
    local list = {}
    for i = 1, top do if blocks[i] then list[#list + 1] = blocks[i] end end
    for b, text in pairs(json_pieces) do
      local input = json.decode(text == "" and "{}" or text)
      if type(input) ~= "table" then return nil, "a streamed tool_use block's input is not a JSON object" end
      b.input = input
    end
    local r = reply_of(list, finish, usage)
    if r.finish == "nil" then r.finish = "unknown" end
    return r
  end
  return acc
end

function M.error_message(d)
  if type(d) == "table" and type(d.error) == "table" then return d.error.message end
end

M.honours_seed = false   -- the Messages API has no seed parameter

return M
