-- tabula.providers.gemini — Google Gemini generateContent (and
-- streamGenerateContent with alt=sse). Parts marked thought are the visible
-- reasoning; thoughtsTokenCount counts as reasoning output.
local json = require "tabula.json"
local b64 = require "tabula.base64"

local M = { name = "gemini" }

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

function M.request(cfg, conversation, s, stream)
  local contents, system = json.array(), nil
  for _, m in ipairs(conversation) do
    if m.role == "system" then
      system = { parts = parts_of(m) }
    else
      contents[#contents + 1] = { role = m.role == "assistant" and "model" or "user", parts = parts_of(m) }
    end
  end
  local gc = { temperature = s.temperature, topP = s.top_p, maxOutputTokens = s.max_tokens, seed = s.seed }
  if s.thinking_budget or s.think then
    gc.thinkingConfig = { thinkingBudget = s.thinking_budget or -1, includeThoughts = true }
  elseif s.think == false then
    gc.thinkingConfig = { thinkingBudget = 0 }
  end
  if next(gc) == nil then gc = nil end
  local model = cfg.model:gsub("^models/", "")
  return {
    path = "/models/" .. model .. (stream and ":streamGenerateContent?alt=sse" or ":generateContent"),
    body = { contents = contents, systemInstruction = system, generationConfig = gc },
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

local function collect(d, text, thoughts)
  local c = type(d.candidates) == "table" and d.candidates[1]
  if type(c) ~= "table" then return nil end
  local content = type(c.content) == "table" and c.content or {}
  for _, p in ipairs(type(content.parts) == "table" and content.parts or {}) do
    if type(p.text) == "string" then
      if p.thought == true then thoughts[#thoughts + 1] = p.text else text[#text + 1] = p.text end
    end
  end
  return c.finishReason
end

function M.parse(d)
  local text, thoughts = {}, {}
  if type(d.candidates) ~= "table" or not d.candidates[1] then return nil, "no candidates in the reply" end
  local c = d.candidates[1]
  local parts = type(c) == "table" and type(c.content) == "table" and c.content.parts
  for i, p in ipairs(type(parts) == "table" and parts or {}) do
    if type(p) ~= "table" or (p.text ~= nil and type(p.text) ~= "string") then
      return nil, string.format("candidates[1].content.parts[%d] holds no text", i)
    end
  end
  local finish = collect(d, text, thoughts)
  return { text = table.concat(text), reasoning = #thoughts > 0 and table.concat(thoughts) or nil,
    finish = FINISH[finish] or tostring(finish), usage = usage_of(d.usageMetadata) }
end

function M.stream()
  local text, thoughts, finish, usage = {}, {}, nil, nil
  local acc = {}
  function acc:event(_, data)
    local d = json.decode(data)
    if type(d) ~= "table" then return end
    local f = collect(d, text, thoughts)
    if f then finish = f end
    if d.usageMetadata then usage = usage_of(d.usageMetadata) end
  end
  function acc:finish()
    if not finish then return nil, "the stream ended before a finishReason" end
    return { text = table.concat(text), reasoning = #thoughts > 0 and table.concat(thoughts) or nil,
      finish = FINISH[finish] or tostring(finish), usage = usage or usage_of(nil) }
  end
  return acc
end

function M.error_message(d)
  if type(d) == "table" and type(d.error) == "table" then return d.error.message end
end

M.honours_seed = true

return M
