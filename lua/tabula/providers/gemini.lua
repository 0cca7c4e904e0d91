-- tabula.providers.gemini — Google Gemini generateContent (and
-- streamGenerateContent with alt=sse). Thinking: thinkingConfig.thinkingLevel
-- (Gemini 3) or thinkingBudget (2.5), never both, with includeThoughts so that
-- the thought summaries (parts marked thought) are the visible reasoning;
-- thoughtsTokenCount counts as reasoning output. The reply's parts, with their
-- thoughtSignature, are kept in reply.turn and sent back unchanged when the
-- turn is part of a later request.
-- Tools (tabula.tools): functionDeclarations (a tool without parameters is
-- declared without them); the reply's functionCall parts are the calls (id:
-- the part's id, else "gemini:" and its position, which is never sent back);
-- the model turn goes back verbatim with its thoughtSignature (the first
-- functionCall part of a thinking model's turn carries one), and the results
-- of one turn's calls go back together as functionResponse parts of one user
-- content, in the calls' order.
local json = require "tabula.json"
local b64 = require "tabula.base64"
local tools_lib = require "tabula.tools"

local M = { name = "gemini", carries = true }

local function parts_of(msg)
  if type(msg.content) == "string" then return { { text = msg.content } } end
  local out = json.array()
  for _, p in ipairs(msg.content) do
    if p.type == "text" then out[#out + 1] = { text = p.text }
    elseif p.type == "image" then
      out[#out + 1] = { inline_data = { mime_type = p.mime or "image/png", data = b64.encode(p.data) } }
    end
  end
  return out
end

local function function_call(c)
  local fc = { name = c.name, args = tools_lib.arguments_object(c) }
  if not c.id:match("^gemini:") then fc.id = c.id end
  return { functionCall = fc }
end

function M.request(cfg, conversation, s, stream, tools)
  local contents, system = json.array(), nil
  local results   -- the user content gathering one turn's functionResponse parts
  for _, m in ipairs(conversation) do
    local joined = false
    if m.role == "system" then
      system = { parts = parts_of(m) }
    elseif m.role == "assistant" and type(m.turn) == "table" and m.turn.provider == M.name then
      contents[#contents + 1] = { role = "model", parts = m.turn.parts }   -- thought signatures unchanged
    elseif m.role == "assistant" and m.tool_calls and #m.tool_calls > 0 then
      local parts = json.array()
      if m.content ~= nil and m.content ~= "" then parts[1] = { text = m.content } end
      for _, c in ipairs(m.tool_calls) do parts[#parts + 1] = function_call(c) end
      contents[#contents + 1] = { role = "model", parts = parts }
    elseif m.role == "tool" then
      if not results then
        results = { role = "user", parts = json.array() }
        contents[#contents + 1] = results
      end
      local fr = { name = m.name, response = { result = m.content } }
      if m.call_id and not tostring(m.call_id):match("^gemini:") then fr.id = m.call_id end
      results.parts[#results.parts + 1] = { functionResponse = fr }
      joined = true
    elseif results and m.role == "user" then
      for _, p in ipairs(parts_of(m)) do results.parts[#results.parts + 1] = p end
    else
      contents[#contents + 1] = { role = m.role == "assistant" and "model" or "user", parts = parts_of(m) }
    end
    if not joined then results = nil end
  end
  local declared
  if tools and #tools > 0 then
    local fns = json.array()
    for i, t in ipairs(tools) do
      fns[i] = { name = t.name, description = t.description, parameters = tools_lib.has_properties(t.parameters) and t.parameters or nil }
    end
    declared = json.array({ { functionDeclarations = fns } })
  end
  local gc = { temperature = s.temperature, topP = s.top_p, maxOutputTokens = s.max_tokens, seed = s.seed }
  local th = s.thinking
  if th and th.off then
    gc.thinkingConfig = { thinkingBudget = 0 }
  elseif th then
    gc.thinkingConfig = { includeThoughts = true, thinkingLevel = th.level, thinkingBudget = th.budget }
  elseif s.thinking_budget or s.think then   -- no family row: as asked
    gc.thinkingConfig = { thinkingBudget = s.thinking_budget or -1, includeThoughts = true }
  elseif s.think == false then
    gc.thinkingConfig = { thinkingBudget = 0 }
  end
  if next(gc) == nil then gc = nil end
  local model = cfg.model:gsub("^models/", "")
  return {
    path = "/models/" .. model .. (stream and ":streamGenerateContent?alt=sse" or ":generateContent"),
    body = { contents = contents, systemInstruction = system, generationConfig = gc, tools = declared },
  }
end

function M.auth_headers(key)
  return key and { "x-goog-api-key: " .. key } or {}
end

local function usage_of(u)
  u = type(u) == "table" and u or {}
  local thoughts = math.tointeger(u.thoughtsTokenCount) or 0
  return {
    input = math.tointeger(u.promptTokenCount) or 0,
    cached = math.tointeger(u.cachedContentTokenCount) or 0,
    output = (math.tointeger(u.candidatesTokenCount) or 0) + thoughts,
    reasoning = thoughts,
  }
end

local FINISH = { STOP = "stop", MAX_TOKENS = "length", SAFETY = "content_filter", RECITATION = "content_filter" }

-- collect(d, text, thoughts, parts): one chunk's parts; returns its finishReason
local function collect(d, text, thoughts, parts)
  local c = type(d.candidates) == "table" and d.candidates[1]
  if type(c) ~= "table" then return nil end
  local content = type(c.content) == "table" and c.content or {}
  for _, p in ipairs(type(content.parts) == "table" and content.parts or {}) do
    if type(p) == "table" then parts[#parts + 1] = p end
    if type(p.text) == "string" then
      if p.thought == true then thoughts[#thoughts + 1] = p.text else text[#text + 1] = p.text end
    end
  end
  return c.finishReason
end

-- the turn to carry: the parts as received, when one holds a thought signature or a call
local function turn_of(parts)
  for _, p in ipairs(parts) do
    if p.thoughtSignature ~= nil or p.functionCall ~= nil then return { provider = M.name, parts = json.array(parts) } end
  end
  return nil
end

local function calls_of(parts)
  local calls
  for _, p in ipairs(parts) do
    local fc = p.functionCall
    if type(fc) == "table" then
      calls = calls or {}
      local id = type(fc.id) == "string" and fc.id or ("gemini:" .. (#calls + 1))
      calls[#calls + 1] = tools_lib.call(id, tostring(fc.name), type(fc.args) == "table" and fc.args or json.object())
    end
  end
  return calls
end

local function reply_of(text, thoughts, parts, finish, usage)
  local calls = calls_of(parts)
  local f = FINISH[finish] or tostring(finish)
  if calls and f == "stop" then f = "tool_calls" end
  return { text = table.concat(text), reasoning = #thoughts > 0 and table.concat(thoughts) or nil,
    finish = f, usage = usage or usage_of(nil), turn = turn_of(parts), tool_calls = calls }
end

function M.parse(d)
  local text, thoughts, all = {}, {}, {}
  if type(d.candidates) ~= "table" or not d.candidates[1] then return nil, "no candidates in the reply" end
  local c = d.candidates[1]
  local parts = type(c) == "table" and type(c.content) == "table" and c.content.parts
  for i, p in ipairs(type(parts) == "table" and parts or {}) do
    if type(p) ~= "table" or (p.text ~= nil and type(p.text) ~= "string") then
      return nil, string.format("candidates[1].content.parts[%d] holds no text", i)
    end
  end
  local finish = collect(d, text, thoughts, all)
  return reply_of(text, thoughts, all, finish, usage_of(d.usageMetadata))
end

function M.stream()
  local text, thoughts, parts, finish, usage = {}, {}, {}, nil, nil
  local acc = {}
  function acc:event(_, data)
    local d = json.decode(data)
    if type(d) ~= "table" then return end
    local f = collect(d, text, thoughts, parts)
    if f then finish = f end
    if d.usageMetadata then usage = usage_of(d.usageMetadata) end
  end
  function acc:finish()
    if not finish then return nil, "the stream ended before a finishReason" end
    -- streamed parts arrive in pieces: the turn joins consecutive pieces of one kind
    local joined = {}
    for _, p in ipairs(parts) do
      local last = joined[#joined]
      if last and type(p.text) == "string" and type(last.text) == "string" and (p.thought == true) == (last.thought == true)
        and last.thoughtSignature == nil then
        last.text = last.text .. p.text
        last.thoughtSignature = p.thoughtSignature
      else
        local c = {}
        for k, v in pairs(p) do c[k] = v end
        joined[#joined + 1] = c
      end
    end
    return reply_of(text, thoughts, joined, finish, usage)
  end
  return acc
end

function M.error_message(d)
  if type(d) == "table" and type(d.error) == "table" then return d.error.message end
end

M.honours_seed = true

return M
