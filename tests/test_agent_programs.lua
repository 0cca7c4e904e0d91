-- The agent programs' entries (tabula.agent_programs) without the programs:
-- what prepare() gives each program (its files only under the seat's home
-- and workspace, the key only in its environment, the base URL, the MCP
-- server "tabula", the model), and the mock model server's agent mode (the
-- model behind a program: observe, act with a legal id, "done"), in each
-- wire format, plain and streamed, framed as the services frame them.
local t = require "tabula.testing"
local json = require "tabula.json"
local http = require "tabula.http"
local AP = require "tabula.agent_programs"
local test, T = t.suite()

local KEY = "proxy-token-51c2e8"

local function ctx_for(wire, extra)
  local c = { workspace = "/tmp/seat-x/ws", home = "/tmp/seat-x/home", wire = wire,
    base_url = "http://127.0.0.1:4555/base-" .. wire, key = KEY, model = "model-" .. wire,
    prompt = "Decision 3: play your seat.", resume = false,
    mcp = { command = "/opt/tabula/tabula", args = { "mcp-seat", "--socket", "/tmp/s y/seat-1.sock", 'odd"arg\\x' } } }
  for k, v in pairs(extra or {}) do c[k] = v end
  return c
end

-- everything a plan hands the program, as one text per place
local function places(plan)
  local files = {}
  for _, f in ipairs(plan.files) do files[#files + 1] = f.text end
  local env = {}
  for k, v in pairs(plan.env) do env[#env + 1] = k .. "=" .. v end
  return table.concat(files, "\n"), table.concat(env, "\n"), table.concat(plan.argv, "\n")
end

test("names() lists the five programs, sorted; get() of an unknown name is nil", function()
  t.eq(AP.names(), { "claude-code", "codex", "gemini-cli", "opencode", "qwen-code" })
  t.eq(AP.get("cursor"), nil)
  for _, name in ipairs(AP.names()) do
    local e = AP.get(name)
    t.ok(#e.wires > 0, name .. " speaks some wire")
    for _, w in ipairs(e.wires) do t.ok(AP.WIRES[w], name .. ": unknown wire " .. w) end
    local p, why = e.locate()
    t.ok(p or why:find("make agent%-programs"), name .. ": located, or says how to install it")
  end
end)

test("prepare(): files under home or workspace only, the key only in the environment, base URL, MCP server, model", function()
  for _, name in ipairs(AP.names()) do
    local e = AP.get(name)
    for _, wire in ipairs(e.wires) do
      local c = ctx_for(wire)
      local plan = e.prepare(c)
      local where = name .. " (" .. wire .. ")"
      t.ok(#plan.files > 0, where .. " writes its configuration")
      for _, f in ipairs(plan.files) do
        t.ok(f.path:sub(1, #c.home + 1) == c.home .. "/" or f.path:sub(1, #c.workspace + 1) == c.workspace .. "/",
          where .. ": " .. f.path .. " is outside the seat's home and workspace")
        if f.path:match("%.json$") then t.ok(json.decode(f.text), where .. ": " .. f.path .. " is JSON") end
      end
      local files, env, argv = places(plan)
      t.ok(not files:find(KEY, 1, true), where .. ": the key is in a file")
      t.ok(not argv:find(KEY, 1, true), where .. ": the key is on the command line")
      local by_env = 0
      for _, v in pairs(plan.env) do if v == KEY then by_env = by_env + 1 end end
      t.eq(by_env, 1, where .. ": the key in exactly one environment variable")
      t.eq(plan.env.HOME, c.home, where .. ": HOME is the seat's")
      local all = files .. "\n" .. env .. "\n" .. argv
      t.ok(all:find(c.base_url, 1, true), where .. ": the base URL is set")
      t.ok(all:find(c.model, 1, true), where .. ": the model is fixed")
      t.ok(argv:find(c.prompt, 1, true), where .. ": the prompt is its argument")
      t.ok(files:find(c.mcp.command, 1, true), where .. ": the MCP server's command is configured")
      t.ok(files:find("tabula", 1, true), where .. ": the MCP server is named tabula")
      for _, a in ipairs({ "mcp-seat", "--socket" }) do t.ok(files:find(a, 1, true), where .. ": MCP argument " .. a) end
      -- a fresh session and a resumed one differ only by the program's resume switch
      if e.resume then
        local again = e.prepare(ctx_for(wire, { resume = true }))
        t.ok(table.concat(again.argv, "\n") ~= argv, where .. ": resume changes the command line")
        t.eq(select(1, places(again)), files, where .. ": resume writes the same files")
      else
        t.contains(t.raises(function() e.prepare(ctx_for(wire, { resume = true })) end), "cannot resume its own session")
        t.ok(e.resume_why, where .. ": says why it cannot resume")
      end
    end
  end
end)

test("prepare(): the odd MCP argument survives each file format (JSON decoded, TOML escaped)", function()
  local odd = 'odd"arg\\x'
  for _, name in ipairs(AP.names()) do
    local e = AP.get(name)
    local plan = e.prepare(ctx_for(e.wires[1]))
    local found = false
    for _, f in ipairs(plan.files) do
      if f.path:match("%.json$") then
        found = found or json.canonical(json.decode(f.text)):find(json.canonical(odd), 1, true) ~= nil
      elseif f.path:match("%.toml$") then
        found = found or f.text:find('"odd\\"arg\\\\x"', 1, true) ~= nil
      end
    end
    t.ok(found, name .. ": the MCP argument " .. odd .. " is written intact")
  end
end)

test("prepare() refuses a wire the program cannot speak, a relative home, a missing key", function()
  t.contains(t.raises(function() AP.get("claude-code").prepare(ctx_for("openai")) end), "cannot speak the openai wire")
  t.contains(t.raises(function() AP.get("codex").prepare(ctx_for("openai", { home = "rel/home" })) end), "absolute path")
  t.contains(t.raises(function() AP.get("codex").prepare(ctx_for("openai", { key = "" })) end), "ctx.key")
end)

test("prepare() reads nothing from tabula's own environment: the user's keys and HOME reach no plan", function()
  -- a child tabula with the user's keys and a real HOME set; every plan of every program printed
  local code = [[
    local AP = require "tabula.agent_programs"
    local json = require "tabula.json"
    local out = {}
    for _, name in ipairs(AP.names()) do
      for _, wire in ipairs(AP.get(name).wires) do
        out[#out + 1] = AP.get(name).prepare({ workspace = "/w", home = "/h", wire = wire, base_url = "http://127.0.0.1:1",
          key = "k", model = "m", prompt = "p", mcp = { command = "/t", args = {} } })
      end
    end
    io.write(json.canonical(out))]]
  local out = t.sh("env HOME=/home/real-user OPENAI_API_KEY=user-secret-1 ANTHROPIC_API_KEY=user-secret-2 "
    .. "GEMINI_API_KEY=user-secret-3 " .. t.quote(t.tabula_bin()) .. " -e " .. t.quote(code))
  t.ok(out:find("rc=0\n$"), out)
  t.ok(#out > 1000, "the plans were printed")
  t.ok(not out:find("user-secret", 1, true), "a user's key reached a plan")
  t.ok(not out:find("real-user", 1, true), "the real HOME reached a plan")
end)

-- ---- the mock's agent mode ----

local OBS = "Trial azul-a.\n\nYou are playing Azul.\n\nYour legal actions (id: description):\n"
  .. "f1:yellow:1: take 1 yellow from factory 1 to pattern line 1\nf2:blue:2: take 2 blue from factory 2 to line 2\n"
  .. "c:red:5: take 1 red from the centre to line 5\n\nAnswer by calling act with your action id."
local IDS = { "f1:yellow:1", "f2:blue:2", "c:red:5" }
local NEXT = "Played f1:yellow:1.\n\nDecision 2 (you are player 1).\n\nYour legal actions (id: description):\n"
  .. "f3:black:4: take 3 black from factory 3 to line 4\n\n"

-- a request of the wire with the conversation given as steps:
-- { "user", text } | { "call", tool, args } + { "result", text, is_error }
local NAMES = { ["openai-chat"] = "mcp__tabula__", anthropic = "mcp__tabula__", gemini = "mcp_tabula_", openai = "" }

local function request(wire, steps, stream, tools)
  tools = tools or { "observe", "act" }
  local pre = NAMES[wire]
  local n, body, path = 0, { model = "mock-model" }, nil
  local last_id, last_name
  if wire == "openai-chat" then
    path, body.messages, body.tools, body.stream = "/v1/chat/completions", {}, {}, stream or nil
    for _, name in ipairs(tools) do body.tools[#body.tools + 1] = { type = "function", ["function"] = { name = pre .. name,
      parameters = { type = "object" } } } end
    for _, s in ipairs(steps) do
      if s[1] == "user" then body.messages[#body.messages + 1] = { role = "user", content = s[2] }
      elseif s[1] == "call" then
        n = n + 1; last_id = "call_" .. n
        body.messages[#body.messages + 1] = { role = "assistant", content = json.null, tool_calls = { { id = last_id,
          type = "function", ["function"] = { name = pre .. s[2], arguments = json.canonical(s[3] or json.object()) } } } }
      else body.messages[#body.messages + 1] = { role = "tool", tool_call_id = last_id, content = s[2] } end
    end
  elseif wire == "anthropic" then
    path, body.messages, body.tools, body.stream, body.max_tokens = "/v1/messages", {}, {}, stream or nil, 1000
    for _, name in ipairs(tools) do body.tools[#body.tools + 1] = { name = pre .. name, input_schema = { type = "object" } } end
    for _, s in ipairs(steps) do
      if s[1] == "user" then body.messages[#body.messages + 1] = { role = "user", content = s[2] }
      elseif s[1] == "call" then
        n = n + 1; last_id = "toolu_" .. n
        body.messages[#body.messages + 1] = { role = "assistant", content = { { type = "tool_use", id = last_id,
          name = pre .. s[2], input = s[3] or json.object() } } }
      else body.messages[#body.messages + 1] = { role = "user", content = { { type = "tool_result", tool_use_id = last_id,
        content = { { type = "text", text = s[2] } }, is_error = s[3] or nil } } } end
    end
  elseif wire == "openai" then
    -- codex's shape: the MCP tools in a namespace, called with it
    path, body.input, body.stream = "/v1/responses", {}, stream or nil
    local inner = {}
    for _, name in ipairs(tools) do inner[#inner + 1] = { type = "function", name = name, parameters = { type = "object" } } end
    body.tools = { { type = "function", name = "view_image", parameters = { type = "object" } },
      { type = "namespace", name = "mcp__tabula", description = "tabula", tools = inner } }
    for _, s in ipairs(steps) do
      if s[1] == "user" then body.input[#body.input + 1] = { type = "message", role = "user",
        content = { { type = "input_text", text = s[2] } } }
      elseif s[1] == "call" then
        n = n + 1; last_id = "call_" .. n
        body.input[#body.input + 1] = { type = "function_call", call_id = last_id, name = s[2], namespace = "mcp__tabula",
          arguments = json.canonical(s[3] or json.object()) }
      else body.input[#body.input + 1] = { type = "function_call_output", call_id = last_id, output = s[2] } end
    end
  else
    path = stream and "/v1beta/models/mock-model:streamGenerateContent?alt=sse" or "/v1beta/models/mock-model:generateContent"
    body.model, body.contents = nil, {}
    local decls = {}
    for _, name in ipairs(tools) do decls[#decls + 1] = { name = pre .. name } end
    body.tools = { { functionDeclarations = decls } }
    for _, s in ipairs(steps) do
      if s[1] == "user" then body.contents[#body.contents + 1] = { role = "user", parts = { { text = s[2] } } }
      elseif s[1] == "call" then
        last_name = pre .. s[2]
        body.contents[#body.contents + 1] = { role = "model", parts = { { functionCall = { name = last_name,
          args = s[3] or json.object() } } } }
      else body.contents[#body.contents + 1] = { role = "user", parts = { { functionResponse = { name = last_name,
        response = s[3] and { error = s[2] } or { output = s[2] } } } } } end
    end
  end
  return path, json.canonical(body)
end

-- sse(text) -> the events { event =, data = decoded } of a stream, and whether it ended cleanly
local function sse(text)
  local evs, done = {}, false
  for block in (text .. "\n\n"):gmatch("(.-)\n\n") do
    local ev, data = block:match("^event: ([^\n]+)\n"), block:match("data: ([^\n]*)")
    if data == "[DONE]" then done = true
    elseif data then evs[#evs + 1] = { event = ev, data = assert(json.decode(data), "an event that is not JSON: " .. data) } end
  end
  return evs, done
end

-- reply(wire, body text, stream) -> { calls = { { name, args, ns } }, text, usage = { input, output } }, checking the framing
local function reply(wire, text, stream)
  local r = { calls = {}, text = "" }
  local function add_call(name, args, ns) r.calls[#r.calls + 1] = { name = name, args = json.decode(args ~= "" and args or "{}"), ns = ns } end
  if not stream then
    local o = assert(json.decode(text), text)
    if wire == "openai-chat" then
      local m = o.choices[1].message
      r.text = json.is_null(m.content) and "" or m.content
      for _, c in ipairs(m.tool_calls or {}) do add_call(c["function"].name, c["function"].arguments) end
      r.usage = { o.usage.prompt_tokens, o.usage.completion_tokens }
    elseif wire == "anthropic" then
      for _, b in ipairs(o.content) do
        if b.type == "text" then r.text = r.text .. b.text elseif b.type == "tool_use" then add_call(b.name, json.canonical(b.input)) end
      end
      r.usage = { o.usage.input_tokens, o.usage.output_tokens }
    elseif wire == "openai" then
      for _, it in ipairs(o.output) do
        if it.type == "function_call" then add_call(it.name, it.arguments, it.namespace)
        elseif it.type == "message" then r.text = r.text .. it.content[1].text end
      end
      r.usage = { o.usage.input_tokens, o.usage.output_tokens }
    else
      for _, p in ipairs(o.candidates[1].content.parts) do
        if p.functionCall then add_call(p.functionCall.name, json.canonical(p.functionCall.args)) elseif p.text then r.text = r.text .. p.text end
      end
      r.usage = { o.usageMetadata.promptTokenCount, o.usageMetadata.candidatesTokenCount + o.usageMetadata.thoughtsTokenCount }
    end
    return r
  end
  local evs, done = sse(text)
  t.ok(#evs > 0, "events in the stream: " .. text:sub(1, 300))
  if wire == "openai-chat" then
    t.ok(done, "a chat stream ends with data: [DONE]")
    local calls = {}
    for _, e in ipairs(evs) do
      t.eq(e.data.object, "chat.completion.chunk")
      local ch = e.data.choices[1]
      if ch and ch.delta.content then r.text = r.text .. ch.delta.content end
      for _, tc in ipairs(ch and ch.delta.tool_calls or {}) do
        local c = calls[tc.index + 1] or { args = "" }
        calls[tc.index + 1] = c
        c.name = tc["function"].name or c.name
        c.args = c.args .. (tc["function"].arguments or "")
      end
      if e.data.usage then r.usage = { e.data.usage.prompt_tokens, e.data.usage.completion_tokens } end
    end
    for _, c in ipairs(calls) do add_call(c.name, c.args) end
  elseif wire == "anthropic" then
    t.eq(evs[1].event, "message_start")
    t.eq({ evs[1].data.message.role, evs[1].data.message.type, #evs[1].data.message.content }, { "assistant", "message", 0 },
      "message_start holds the empty message")
    t.eq(evs[#evs].event, "message_stop")
    local blocks = {}
    for _, e in ipairs(evs) do
      t.eq(e.event, e.data.type, "each event named as its type")
      if e.event == "content_block_start" then
        t.eq(e.data.index, #blocks, "content blocks are numbered 0, 1, ... in order")
        blocks[#blocks + 1] = { b = e.data.content_block, json = "" }
      elseif e.event == "content_block_delta" then
        local b = assert(blocks[e.data.index + 1], "a delta for a block not started")
        if e.data.delta.type == "text_delta" then r.text = r.text .. e.data.delta.text end
        if e.data.delta.type == "input_json_delta" then b.json = b.json .. e.data.delta.partial_json end
      elseif e.event == "message_delta" then
        r.usage = { evs[1].data.message.usage.input_tokens, e.data.usage.output_tokens }
      end
    end
    for _, b in ipairs(blocks) do if b.b.type == "tool_use" then add_call(b.b.name, b.json) end end
  elseif wire == "openai" then
    t.eq(evs[1].data.type, "response.created")
    local last = evs[#evs].data
    t.eq(last.type, "response.completed")
    for _, e in ipairs(evs) do t.eq(e.event, e.data.type, "each event named as its type") end
    for _, it in ipairs(last.response.output) do
      if it.type == "function_call" then add_call(it.name, it.arguments, it.namespace)
      elseif it.type == "message" then r.text = r.text .. it.content[1].text end
    end
    r.usage = { last.response.usage.input_tokens, last.response.usage.output_tokens }
  else
    for _, e in ipairs(evs) do
      for _, p in ipairs(e.data.candidates[1].content.parts) do
        if p.functionCall then add_call(p.functionCall.name, json.canonical(p.functionCall.args)) elseif p.text then r.text = r.text .. p.text end
      end
    end
    local u = evs[#evs].data.usageMetadata
    t.ok(u and evs[#evs].data.candidates[1].finishReason, "the last chunk has the finish reason and the usage")
    r.usage = { u.promptTokenCount, u.candidatesTokenCount + u.thoughtsTokenCount }
  end
  return r
end

local WIRES = { "openai-chat", "anthropic", "openai", "gemini" }

-- ask(server, wire, steps, stream, tools) -> the reply of the mock
local function ask(s, wire, steps, stream, tools)
  local path, body = request(wire, steps, stream, tools)
  local res = assert(http.request({ method = "POST", url = s.url .. path, body = body, timeout = 10,
    headers = { "Content-Type: application/json" } }))
  t.eq(res.status, 200, res.body)
  local r = reply(wire, res.body, stream)
  t.ok(r.usage and r.usage[1] > 0 and r.usage[2] > 0, "usage in the reply: " .. wire)
  return r
end

local function one_call(r, want_name, want_id, where)
  t.eq(#r.calls, 1, where .. ": one call")
  t.ok(r.calls[1].name:sub(-#want_name) == want_name, where .. ": calls " .. want_name .. ", got " .. r.calls[1].name)
  t.eq(r.calls[1].args.id, want_id, where)
end

test("agent mode: observe, act with the first legal id, then done — each wire, plain and streamed", function()
  local mock = require "tests.mock"
  local s = mock.start({ { agent = true }, { reply = "not the agent rule" } })
  local ok, err = pcall(function()
    for _, wire in ipairs(WIRES) do
      for _, stream in ipairs({ false, true }) do
        local where = wire .. (stream and " streamed" or " plain")
        local r = ask(s, wire, { { "user", "Play your seat." } }, stream)
        one_call(r, "observe", nil, where .. ", first")
        if wire == "openai" then t.eq(r.calls[1].ns, "mcp__tabula", where .. ": called in the tool's namespace") end
        r = ask(s, wire, { { "user", "Play." }, { "call", "observe" }, { "result", OBS } }, stream)
        one_call(r, "act", IDS[1], where .. ", after observe")
        r = ask(s, wire, { { "user", "Play." }, { "call", "observe" }, { "result", OBS },
          { "call", "act", { id = IDS[1] } }, { "result", NEXT } }, stream)
        t.eq({ #r.calls, r.text }, { 0, "done" }, where .. ": after an accepted act (until act)")
        -- a refused act: the next id; three refusals: give up
        local steps = { { "user", "Play." }, { "call", "observe" }, { "result", OBS },
          { "call", "act", { id = IDS[1] } }, { "result", "That answer cannot be played: no.", true } }
        one_call(ask(s, wire, steps, stream), "act", IDS[2], where .. ", after a refusal")
        for k = 2, 3 do
          steps[#steps + 1] = { "call", "act", { id = IDS[k] } }
          steps[#steps + 1] = { "result", "That answer cannot be played: no.", true }
        end
        r = ask(s, wire, steps, stream)
        t.eq(#r.calls, 0, where .. ": gives up after three refusals")
        -- no act tool offered: not the agent rule's request
        r = ask(s, wire, { { "user", "Summarize." } }, stream, { "search" })
        t.eq({ #r.calls, r.text }, { 0, "not the agent rule" }, where .. ": a request without the act tool")
      end
    end
  end)
  s:close()
  if not ok then error(err, 0) end
end)

test("agent mode: until over keeps acting on each act's new legal ids; pick random is seeded and legal", function()
  local mock = require "tests.mock"
  local s = mock.start({ { agent = { ["until"] = "over" }, times = 2 }, { agent = { pick = "random", seed = 7 } } })
  local ok, err = pcall(function()
    local steps = { { "user", "Play." }, { "call", "observe" }, { "result", OBS }, { "call", "act", { id = IDS[1] } },
      { "result", NEXT } }
    one_call(ask(s, "openai-chat", steps), "act", "f3:black:4", "until over: the next decision's id")
    steps[#steps] = { "result", "Played f3:black:4.\n\nThe trial azul-a is over.\n\nNo trial is left." }
    t.eq(ask(s, "openai-chat", steps).text, "done", "until over: done when no legal id follows")
    local picks = {}
    for i = 1, 2 do
      local r = ask(s, "anthropic", { { "user", "Play." }, { "call", "observe" }, { "result", OBS } })
      picks[i] = r.calls[1].args.id
    end
    t.eq(picks[1], picks[2], "the same seed and list, the same pick")
    local legal = false
    for _, id in ipairs(IDS) do legal = legal or id == picks[1] end
    t.ok(legal, "a legal id: " .. tostring(picks[1]))
  end)
  s:close()
  if not ok then error(err, 0) end
end)

test("agent mode reads legal ids a program passed on JSON-escaped (qwen-code's error wrapping)", function()
  local mock = require "tests.mock"
  local s = mock.start({ { agent = true } })
  local ok, err = pcall(function()
    local wrapped = "MCP tool 'act' reported tool error: " .. json.canonical({ text = OBS })
    local r = ask(s, "openai-chat", { { "user", "Play." }, { "call", "observe" }, { "result", wrapped } })
    one_call(r, "act", IDS[1], "escaped block")
  end)
  s:close()
  if not ok then error(err, 0) end
end)

test("the mock takes Gemini's documented dummy thought signature (gemini-cli's), and still refuses a wrong one", function()
  local mock = require "tests.mock"
  local s = mock.start({ { reply = "fine" } })
  local ok, err = pcall(function()
    local function status(sig)
      local body = json.canonical({ contents = {
        { role = "user", parts = { { text = "Play." } } },
        { role = "model", parts = { { functionCall = { name = "mcp_tabula_observe", args = json.object() }, thoughtSignature = sig } } },
        { role = "user", parts = { { functionResponse = { name = "mcp_tabula_observe", response = { output = "x" } } } } } } })
      local res = assert(http.request({ method = "POST", url = s.url .. "/v1beta/models/gemini-2.5-pro:generateContent",
        body = body, timeout = 10, headers = { "Content-Type: application/json" } }))
      return res.status, res.body
    end
    t.eq(status("skip_thought_signature_validator"), 200)
    local st, body = status("sig-forged")
    t.eq(st, 400)
    t.contains(body, "Thought signature is not valid")
  end)
  s:close()
  if not ok then error(err, 0) end
end)

return T
