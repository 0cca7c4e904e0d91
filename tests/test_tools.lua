-- Native tool calls over loopback, per provider: the tools declared on each
-- wire, the calls parsed (streamed and not), the results sent back with the
-- reasoning that came with the calls (signed thinking blocks, encrypted
-- reasoning items, thought signatures), the parallel rule, and what the mock
-- server refuses as the services do (an unanswered call, an unknown call id,
-- a call part without its signature).
local t = require "tabula.testing"
local mock = require "tests.mock"
local agent = require "tabula.agent"
local tools = require "tabula.tools"
local json = require "tabula.json"
local http = require "tabula.http"
local test, T = t.suite()

local F = require "tests.families"
local cfg, fast, bodies = F.cfg, F.fast, F.bodies

local DECL = tools.declare({
  { name = "move", description = "Play a move in ICCS coordinates.", parameters = tools.object({ move = tools.string("e.g. h2e2") }, { "move" }) },
  { name = "legal_moves", description = "List your legal moves." },
})

local conv0 = { { role = "system", content = "You play Xiangqi." }, { role = "user", content = "Your move?" } }

local RULES = {
  { match = "Your move?", tool_calls = { { name = "legal_moves", arguments = json.object() } }, reasoning = "First the legal moves." },
  { match = "b1b9 a1a2", tool_calls = { { name = "move", arguments = { move = "b1b9" } } }, reasoning = "The chariot mates." },
}

-- the tools as each request declares them
local function declared(fam, body)
  if fam == "claude" then return body.tools[1].name, body.tools[1].input_schema.required[1]
  elseif fam == "gpt" then return body.tools[1].name, body.tools[1].parameters.required[1], body.tools[1].strict
  elseif fam == "gemini" then return body.tools[1].functionDeclarations[1].name, body.tools[1].functionDeclarations[1].parameters.required[1]
  else return body.tools[1]["function"].name, body.tools[1]["function"].parameters.required[1] end
end

-- the tool result as the second request carries it, and the call it answers
local function result_of(fam, body)
  if fam == "claude" then
    local m = body.messages[#body.messages]
    return m.content[1].content, m.content[1].tool_use_id, body.messages[#body.messages - 1].content
  elseif fam == "gpt" then
    local last = body.input[#body.input]
    return last.output, last.call_id, body.input
  elseif fam == "gemini" then
    local c = body.contents[#body.contents]
    return c.parts[1].functionResponse.response.result, c.parts[1].functionResponse.name, body.contents[#body.contents - 1].parts
  else
    local m = body.messages[#body.messages]
    return m.content, m.tool_call_id, body.messages[#body.messages - 1].tool_calls
  end
end

for _, fam in ipairs(F.ORDER) do
  for _, stream in ipairs({ false, true }) do
    test(fam .. ": a tool call, its result sent back with the turn's reasoning, and the next call" .. (stream and " (streamed)" or ""), function()
      local s = mock.start(RULES)
      local a = agent.new(cfg(fam, s), fast({ stream = stream }))
      local conv = { conv0[1], conv0[2] }
      local r1, err = a:reply(conv, { tools = DECL })
      t.ok(r1, err and err.message)
      t.eq(#r1.tool_calls, 1, "one call")
      t.eq({ r1.tool_calls[1].name, r1.finish }, { "legal_moves", "tool_calls" })
      t.eq(r1.tool_calls[1].arguments, {})
      local b1 = bodies(s)[1]
      local name, required, strict = declared(fam, b1)
      t.eq(name, "move")
      t.eq(required, "move")
      if fam == "gpt" then t.eq(strict, false) end
      conv[#conv + 1] = agent.assistant(r1)
      for _, m in ipairs(tools.answer(r1.tool_calls, function() return "b1b9 a1a2", false end)) do conv[#conv + 1] = m end
      local r2, err2 = a:reply(conv, { tools = DECL })
      t.ok(r2, err2 and err2.message)
      t.eq(r2.tool_calls[1].name, "move")
      t.eq(r2.tool_calls[1].arguments.move, "b1b9")
      local b2 = bodies(s)[2]
      local text, id, sent = result_of(fam, b2)
      t.eq(text, "b1b9 a1a2", "the result goes back")
      if fam == "gemini" then t.eq(id, "legal_moves") else t.eq(id, r1.tool_calls[1].id, "answering the call's id") end
      if fam ~= "open" then t.ok(F.carried(fam, b2), fam .. ": the turn's reasoning goes back with the call") end
      if fam == "claude" then t.eq(sent, r1.turn.content, "the blocks verbatim")
      elseif fam == "gemini" then t.eq(sent[#sent].thoughtSignature, r1.turn.parts[#r1.turn.parts].thoughtSignature) end
      s:close()
    end)
  end

  test(fam .. ": the mock refuses a call left unanswered and a result for an unknown call", function()
    local s = mock.start(RULES)
    local a = agent.new(cfg(fam, s), fast())
    local r1 = assert(a:reply({ conv0[1], conv0[2] }, { tools = DECL }))
    -- unanswered: the assistant turn followed by a plain user message
    local b = agent.new(cfg(fam, s, { name = "unanswered" }), fast())
    local _, err = b:reply({ conv0[1], conv0[2], agent.assistant(r1), { role = "user", content = "b1b9 a1a2" } }, { tools = DECL })
    t.ok(err, "refused")
    t.eq(err.status, 400)
    t.contains(err.message, ({ claude = "ids were found without `tool_result` blocks immediately after",
      gpt = "No tool output found for function call", gemini = "number of function response parts is equal",
      open = "must be followed by tool messages responding to each 'tool_call_id'" })[fam])
    -- a result answering a call that was never made
    local c = agent.new(cfg(fam, s, { name = "unknown" }), fast())
    local bad = tools.result({ id = "call_nobody", name = "move" }, "b1b9 a1a2")
    local conv = { conv0[1], conv0[2], agent.assistant(r1), bad }
    if fam == "gemini" then   -- Gemini has no call ids: one response too many
      conv = { conv0[1], conv0[2], agent.assistant(r1), tools.result(r1.tool_calls[1], "x"), bad }
    end
    _, err = c:reply(conv, { tools = DECL })
    t.ok(err, "refused")
    t.contains(err.message, ({ claude = "unexpected `tool_use_id` found in `tool_result` blocks: call_nobody",
      gpt = "No tool call found for function call output with call_id call_nobody",
      gemini = "number of function response parts is equal", open = "must be a response to a preceeding message with 'tool_calls'" })[fam])
    s:close()
  end)
end

test("the reasoning that came with a call is required back: Anthropic thinking, Responses reasoning item, Gemini thoughtSignature", function()
  local s = mock.start(RULES)
  for _, fam in ipairs({ "claude", "gpt", "gemini" }) do
    local a = agent.new(cfg(fam, s, { name = fam .. "-a" }), fast())
    local r1 = assert(a:reply({ conv0[1], conv0[2] }, { tools = DECL }))
    -- the call without the reasoning that came with it (a client that drops the turn)
    local stripped = { role = "assistant", content = r1.text, tool_calls = r1.tool_calls }
    local b = agent.new(cfg(fam, s, { name = fam .. "-b" }), fast())
    local _, err = b:reply({ conv0[1], conv0[2], stripped, tools.result(r1.tool_calls[1], "b1b9 a1a2") }, { tools = DECL })
    t.ok(err, fam .. ": refused")
    t.contains(err.message, ({ claude = "Expected `thinking` or `redacted_thinking`",
      gpt = "of type 'function_call' was provided without its required 'reasoning' item",
      gemini = "Function call is missing a thought_signature in functionCall parts" })[fam])
  end
  s:close()
end)

test("several calls in one reply: each answered in order; after the one that ends the turn, 'not executed'", function()
  local s = mock.start({ { tool_calls = { { name = "legal_moves" }, { name = "move", arguments = { move = "b1b9" } },
    { name = "move", arguments = { move = "a1a2" } } } } })
  for _, fam in ipairs(F.ORDER) do
    local a = agent.new(cfg(fam, s, { name = fam .. "-par" }), fast())
    local r = assert(a:reply({ conv0[1], conv0[2] }, { tools = DECL }))
    t.eq(#r.tool_calls, 3, fam)
    local ran = {}
    local results, n = tools.answer(r.tool_calls, function(c)
      ran[#ran + 1] = c.name .. (c.arguments.move and (" " .. c.arguments.move) or "")
      return "done " .. c.name, c.name == "move"
    end)
    t.eq(ran, { "legal_moves", "move b1b9" }, fam .. ": in order, stopping at the move")
    t.eq(n, 2)
    t.eq({ results[1].content, results[2].content, results[3].content }, { "done legal_moves", "done move", tools.NOT_RUN })
    -- and the service takes all three answers
    s:script({ { reply = "fine" } })
    local conv = { conv0[1], conv0[2], agent.assistant(r) }
    for _, m in ipairs(results) do conv[#conv + 1] = m end
    local r2, err = a:reply(conv, { tools = DECL })
    t.ok(r2, fam .. ": " .. tostring(err and err.message))
    s:script({ { tool_calls = { { name = "legal_moves" }, { name = "move", arguments = { move = "b1b9" } },
      { name = "move", arguments = { move = "a1a2" } } } } })
  end
  s:close()
end)

-- ---- golden request bodies: one tool turn per provider ----

-- a turn each provider gave before (a call of legal_moves after reasoning), to be answered
local CALL = tools.call("call_01", "legal_moves", "{}")
local TOOL_TURNS = {
  anthropic = { provider = "anthropic", content = json.array({ { type = "thinking", thinking = "First the legal moves.", signature = "sig-0001" },
    { type = "tool_use", id = "call_01", name = "legal_moves", input = json.object() } }) },
  openai = { provider = "openai", items = json.array({ { type = "reasoning", id = "rs_01", summary = json.array(), encrypted_content = "enc-0001" },
    { type = "function_call", id = "fc_01", call_id = "call_01", name = "legal_moves", arguments = "{}", status = "completed" } }) },
  gemini = { provider = "gemini", parts = json.array({ { functionCall = { name = "legal_moves", args = json.object() }, thoughtSignature = "sig-0002" } }) },
}

local GOLDEN_TOOLS = {
  { "claude-adaptive", { provider = "anthropic", model = "claude-opus-4-7" }, { reasoning_effort = "high", max_tokens = 32000 } },
  { "openai-reasoning", { provider = "openai", model = "gpt-5.5" }, { reasoning_effort = "high", max_tokens = 16384 } },
  { "gemini-3", { provider = "gemini", model = "gemini-3-pro" }, { reasoning_effort = "low" } },
  { "openai-compatible", { provider = "openai-chat", model = "qwen3-8b" }, { temperature = 0.7, max_tokens = 4096 } },
}

test("golden request bodies of a tool turn per provider: the tools declared, the call sent back with its reasoning, its result", function()
  for _, case in ipairs(GOLDEN_TOOLS) do
    local provider = case[2].provider
    -- Gemini gives no call ids: the call is known by its position, and none is sent back
    local call = provider == "gemini" and tools.call("gemini:1", "legal_moves", "{}") or CALL
    local conversation = { conv0[1], conv0[2], { role = "assistant", content = "", tool_calls = { call }, turn = TOOL_TURNS[provider] },
      tools.result(call, "Your legal moves (2): b1b9 a8a9") }
    local got, want = F.golden("tools-" .. case[1], case, conversation, DECL)
    t.eq(got, want, case[1])
  end
end)

test("arguments that are not a JSON object are a call with a reason, not a crash", function()
  local c = tools.call("c1", "move", "{\"move\": ")
  t.eq(c.arguments, nil)
  t.contains(c.why, "the arguments are not JSON")
  c = tools.call("c2", "move", "[1]")
  t.contains(c.why, "not a JSON object")
  c = tools.call("c3", "legal_moves", "")
  t.eq({ c.arguments, c.why }, { {}, nil })
  t.contains(t.raises(function() tools.declare({ { name = "bad name", description = "x" } }) end), "a name of letters")
end)

test("the mock's refusals come over HTTP as the service's 400 (a Chat tool message with no call before it)", function()
  local s = mock.start({ { reply = "x" } })
  local res = assert(http.request({ method = "POST", url = s.url .. "/v1/chat/completions", timeout = 5,
    headers = { "Content-Type: application/json" }, body = json.canonical({ model = "m", messages = json.array({
      { role = "user", content = "hi" }, { role = "tool", tool_call_id = "call_x", content = "r" } }) }) }))
  t.eq(res.status, 400)
  t.contains(res.body, "must be a response to a preceeding message with 'tool_calls'")
  s:close()
end)

return T
