-- tabula.proxy against the mock model server, in the four wire formats
-- (OpenAI Responses and Chat Completions, Anthropic Messages, Gemini), streamed
-- and not, spoken to as the official SDKs speak (their paths, auth headers and
-- bodies): the seat key is swapped for the real key (from the environment of
-- the process running the proxy: a child tabula given a fake key), the
-- program sees the mock's reply, usage and cost are counted, another model is
-- refused or rewritten, a budget refuses in the provider's error form before
-- the mock sees the call, unknown and closed keys get 401, and the real key
-- appears in nothing the program receives nor in on_call's data.
local t = require "tabula.testing"
local mock = require "tests.mock"
local json = require "tabula.json"
local http = require "tabula.http"
local proc = require "tabula.c.proc"
local loop = require "tabula.loop"
local fs = require "tabula.fs"
local httpd = require "tabula.httpd"
local test, T = t.suite()

local SECRET = "sk-proxytest-" .. string.rep("Kq8", 12)
local PRICES = { input = 1000, cached = 100, output = 2000 }

-- the child: a proxy with one seat for the model named in its spec; it prints
-- the seat's { port, key, base_url, api_url }, writes each on_call (with the
-- seat's usage then) as a JSON line to spec.out, and on a line "close" from
-- its stdin closes the seat and prints "closed"
local HOST = [[
local json = require "tabula.json"
local loop = require "tabula.loop"
local proc = require "tabula.c.proc"
local models = require "tabula.models"
local agent = require "tabula.agent"
local budget = require "tabula.budget"
local proxy = require "tabula.proxy"
local records = require "tabula.records"
local spec = json.decode(arg[1])
loop.run(function()
  local cfg = models.resolve(spec.model, spec.models_file)
  if spec.budget then budget.new(spec.budget, cfg, spec.dir) end
  local a = agent.new(cfg, { quiet_settings = true })
  local px = proxy.start()
  local w = records.writer(spec.out)
  local seat
  seat = px:seat({ agent = a, label = "seat 1 of test", model_policy = spec.policy,
    on_call = function(call) w:write({ call = call, usage = seat.usage, spent = agent.spent }) end })
  io.stdout:write(json.canonical({ port = px.port, key = seat.key, base_url = seat.base_url, api_url = seat.api_url }), "\n")
  io.stdout:flush()
  local buf = ""
  while true do
    loop.await_fd(0, "r")
    local d = proc.read_fd(0)
    if d == "" or d == nil then break end
    if d then buf = buf .. d end
    if buf:find("close\n", 1, true) then
      seat:close()
      io.stdout:write("closed\n"); io.stdout:flush()
      buf = ""
    end
  end
  px:close()
end)
]]

local WIRES = {
  ["openai-chat"] = { model = "mock-chat" },
  openai = { model = "gpt-5.5" },
  anthropic = { model = "claude-opus-4-7" },
  gemini = { model = "gemini-3-pro-preview" },
}

-- setup(url) -> dir with host.lua and models.lua (one model per wire, named after it)
local function setup(url)
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/host.lua", HOST)
  local lines = { "return {" }
  for wire, w in pairs(WIRES) do
    lines[#lines + 1] = string.format("  [%q] = { provider = %q, model = %q, base_url = %q, key_env = 'TABULA_PROXY_TEST_KEY', prices = { input = %g, cached = %g, output = %g } },",
      wire, wire, w.model, url .. (wire == "gemini" and "/v1beta" or "/v1"), PRICES.input, PRICES.cached, PRICES.output)
  end
  lines[#lines + 1] = "}"
  fs.write_atomic(dir .. "/models.lua", table.concat(lines, "\n"))
  return dir
end

local Host = {}
Host.__index = Host

-- one mock and one models file for the whole file; each test gives the mock
-- its rules (which also empties its log and counts)
local the_mock, the_dir
local function mock_with(rules)
  if not the_mock then
    the_mock = mock.start(rules)
    the_dir = setup(the_mock.url)
  end
  the_mock:script(rules)
  return the_mock, the_dir
end

-- start_host(dir, wire [, extra spec]) -> host: the child proxy with a seat of that wire's model
local started = 0
local function start_host(dir, wire, extra)
  started = started + 1
  local n = started
  local spec = { model = wire, models_file = dir .. "/models.lua", out = dir .. "/calls" .. n .. ".jsonl", dir = dir }
  for k, v in pairs(extra or {}) do spec[k] = v end
  local p = assert(proc.spawn({ "/usr/bin/env", "TABULA_PROXY_TEST_KEY=" .. SECRET, t.tabula_bin(), dir .. "/host.lua",
    json.canonical(spec) }, "inherit", { owned = true }))
  local buf = ""
  while not buf:find("\n") do
    assert(loop.await_fd(p:fd(), "r", 20), "the proxy host did not start")
    local d = p:read()
    if d == "" then error("the proxy host exited at start") end
    if d then buf = buf .. d end
  end
  local info = json.decode(buf:match("^[^\n]*"))
  return setmetatable({ p = p, info = info, out = spec.out, key = info.key, base_url = info.base_url, wire = wire }, Host)
end

-- all_calls() -> every on_call line so far ({ call, usage, spent })
function Host:all_calls()
  local out = {}
  for line in (fs.read(self.out) or ""):gmatch("[^\n]+") do out[#out + 1] = json.decode(line) end
  return out
end

-- mark(): later calls() count from here
function Host:mark() self.marked = #self:all_calls() end

-- calls([n]) -> the on_call lines since the mark, once there are n (a
-- streamed reply may reach the program just before its on_call is written)
function Host:calls(n)
  local stop = loop.now() + 10
  while true do
    local all = self:all_calls()
    local out = {}
    for i = (self.marked or 0) + 1, #all do out[#out + 1] = all[i] end
    if #out >= (n or 0) or loop.now() > stop then return out end
    loop.sleep(0.01)
  end
end

-- the hosts kept for the file, by wire and policy (a test that closes its
-- seat or sets a budget starts its own)
local hosts = {}
local function host_for(wire, policy)
  local k = wire .. " " .. (policy or "refuse")
  hosts[k] = hosts[k] or start_host(the_dir, wire, { policy = policy })
  hosts[k]:mark()
  return hosts[k]
end

-- usage(h, line) -> the seat's usage and the process's spend at that line,
-- less what they were at the mark
local function since_mark(h, line)
  local all = h:all_calls()
  local base = all[h.marked or 0] or { usage = {}, spent = {} }
  local u, sp = {}, {}
  for k, v in pairs(line.usage) do u[k] = v - (base.usage[k] or 0) end
  for k, v in pairs(line.spent) do sp[k] = v - (base.spent[k] or 0) end
  return u, sp
end

function Host:close_seat()
  assert(self.p:write("close\n"))
  local buf = ""
  while not buf:find("closed\n", 1, true) do
    assert(loop.await_fd(self.p:fd(), "r", 10), "no answer to close")
    local d = self.p:read()
    if d == "" then error("the proxy host exited") end
    if d then buf = buf .. d end
  end
end

function Host:stop()
  self.p:kill(9)
  self.p:reap(true)
  self.p:close()
end

-- the request a program speaking `wire` makes, as the official SDK sends it:
-- { method, path (under base), headers, body (table) }
local function sdk_request(wire, model, key, stream, text)
  local user = text or "what is two plus two"
  if wire == "openai-chat" then
    local body = { model = model, messages = { { role = "user", content = user } }, max_tokens = 50 }
    if stream then body.stream = true; body.stream_options = { include_usage = true } end
    return { path = "/chat/completions", headers = { "Authorization: Bearer " .. key }, body = body }
  elseif wire == "openai" then
    local body = { model = model, input = { { role = "user", content = user } }, max_output_tokens = 50 }
    if stream then body.stream = true end
    return { path = "/responses", headers = { "Authorization: Bearer " .. key }, body = body }
  elseif wire == "anthropic" then
    local body = { model = model, max_tokens = 50, messages = { { role = "user", content = user } } }
    if stream then body.stream = true end
    return { path = "/v1/messages", headers = { "x-api-key: " .. key, "anthropic-version: 2023-06-01" }, body = body }
  end
  return { path = "/v1beta/models/" .. model .. (stream and ":streamGenerateContent?alt=sse" or ":generateContent"),
    headers = { "x-goog-api-key: " .. key },
    body = { contents = { { role = "user", parts = { { text = user } } } }, generationConfig = { maxOutputTokens = 50 } } }
end

-- send(base, r) -> http result (status, body, headers)
local function send(base, r)
  local headers = { "Content-Type: application/json" }
  for _, h in ipairs(r.headers) do headers[#headers + 1] = h end
  return assert(http.request({ method = r.method or "POST", url = base .. r.path, headers = headers,
    body = r.body and json.canonical(r.body) or nil, timeout = 20 }))
end

-- the mock's base URL for a wire, as its models.lua entry has it
local function mock_base(s, wire) return s.url .. (wire == "gemini" and "/v1beta" or "/v1") end
local function upstream_path(r) return (r.path:gsub("^/v1beta", ""):gsub("^/v1", "")) end

-- the mock's answer for one rule, with usage the adapters read as input 100 (20 of it cached), output 7 (3 of it reasoning)
local RULES = { { reply = "four, as the mock says", usage = { input = 100, cached = 20, output = 7, reasoning = 3 } } }

local function check_no_secret(text, what)
  t.ok(not tostring(text):find(SECRET, 1, true), "the real key appears in " .. what)
  t.ok(not tostring(text):find(SECRET:sub(1, 20), 1, true), "part of the real key appears in " .. what)
end

for _, wire in ipairs({ "openai-chat", "anthropic", "openai", "gemini" }) do
  for _, stream in ipairs({ false, true }) do
    local label = wire .. (stream and ", streamed" or ", not streamed")
    test(label .. ": the seat key is swapped for the real key, the program sees the mock's reply, usage and cost are counted", function()
      local s = mock_with(RULES)
      local h = host_for(wire)
      local model = WIRES[wire].model
      local r = sdk_request(wire, model, h.key, stream)
      local got = send(h.base_url, r)
      t.eq(got.status, 200, got.body)
      local log = s:log()
      t.eq(#log, 1)
      -- the mock saw the real key and never the seat key, on the adapter's path
      t.contains(log[1].headers, SECRET)
      t.ok(not log[1].headers:find(h.key, 1, true), "the seat key reached the mock")
      t.ok(not log[1].path:find(h.key, 1, true), "the seat key reached the mock in the path")
      t.contains(log[1].path, upstream_path(r):match("^[^?]*"))
      t.eq(json.decode(log[1].body), r.body)
      -- the same request straight to the mock: the same reply
      local direct = send(mock_base(s, wire), { path = upstream_path(r), headers = sdk_request(wire, model, SECRET, stream).headers, body = r.body })
      t.eq(got.body, direct.body)
      if stream then t.contains(got.headers["content-type"], "text/event-stream") end
      check_no_secret(got.body, "the reply")
      -- counted
      local calls = h:calls(1)
      t.eq(#calls, 1)
      local c = calls[1].call
      local full_path = h.base_url:match("^http://[^/]+(.*)$") .. r.path:match("^[^?]*")
      t.eq({ c.wire, c.method, c.path, c.model_asked, c.model, c.stream, c.status, c.seat },
        { wire, "POST", full_path, model, model, stream, 200, "seat 1 of test" })
      t.eq(c.request, r.body)
      t.eq(c.error, nil); t.eq(c.refused, nil)
      t.eq(c.reply.text, "four, as the mock says")
      local u = c.reply.usage
      t.eq({ u.input, u.cached, u.output }, { 100, 20, 7 })
      if wire ~= "anthropic" then t.eq(u.reasoning, 3) end   -- the Messages API reports no reasoning figure
      local cost = 1e-6 * (PRICES.input * 80 + PRICES.cached * 20 + PRICES.output * 7)
      t.near(c.reply.cost, cost, 1e-12)
      local usage, spent = since_mark(h, calls[1])
      t.eq({ usage.calls, usage.input, usage.cached, usage.output }, { 1, 100, 20, 7 })
      t.near(usage.cost, cost, 1e-12)
      t.eq({ spent.calls, spent.input, spent.output }, { 1, 100, 7 })   -- agent.spend: the process's spend
      check_no_secret(fs.read(h.out), "on_call's data")
    end)
  end
end

for _, wire in ipairs({ "openai-chat", "anthropic", "openai", "gemini" }) do
  test(wire .. ": another model is refused (404, the provider's form, recorded) or rewritten (the mock sees the seat's model)", function()
    local s = mock_with(RULES)
    local model = WIRES[wire].model
    local h = host_for(wire, "refuse")
    for _, stream in ipairs({ false, true }) do
      local got = send(h.base_url, sdk_request(wire, "other-model-9", h.key, stream))
      t.eq(got.status, 404)
      local e = json.decode(got.body)
      if wire == "gemini" then t.eq(e.error.status, "NOT_FOUND")
      elseif wire == "anthropic" then t.eq({ e.type, e.error.type }, { "error", "not_found_error" })
      else t.eq(e.error.code, "model_not_found") end
    end
    t.eq(s:requests(), 0, "the mock saw a refused call")
    local calls = h:calls(2)
    t.eq(#calls, 2)
    t.eq({ calls[1].call.refused, calls[1].call.model_asked, calls[1].call.model, calls[1].call.status }, { "model", "other-model-9", model, 404 })
    t.eq(calls[2].call.stream, true)
    local h2 = host_for(wire, "rewrite")
    for _, stream in ipairs({ false, true }) do
      local got = send(h2.base_url, sdk_request(wire, "other-model-9", h2.key, stream))
      t.eq(got.status, 200, got.body)
    end
    local log = s:log()
    t.eq(#log, 2)
    for _, l in ipairs(log) do
      if wire == "gemini" then t.contains(l.path, "/models/" .. model .. ":") else t.eq(json.decode(l.body).model, model) end
      t.ok(not (l.path .. l.body):find("other-model-9", 1, true))
    end
    local c = h2:calls(2)
    t.eq(#c, 2)
    t.eq({ c[1].call.model_asked, c[1].call.model, c[1].call.rewritten, c[1].call.refused }, { "other-model-9", model, true, nil })
    t.eq(since_mark(h2, c[2]).calls, 2)
  end)
end

for _, wire in ipairs({ "openai-chat", "anthropic", "openai", "gemini" }) do
  test(wire .. ": past --max-calls 1 the call is refused in the provider's error form (400, not retried) and the mock never sees it", function()
    local s = mock_with(RULES)
    local dir = t.tmpdir()   -- the run directory of this seat's ledger
    local h = start_host(the_dir, wire, { budget = { ["max-calls"] = 1 }, dir = dir })
    local model = WIRES[wire].model
    t.eq(send(h.base_url, sdk_request(wire, model, h.key, false)).status, 200)
    for _, stream in ipairs({ false, true }) do
      local got = send(h.base_url, sdk_request(wire, model, h.key, stream))
      t.eq(got.status, 400)
      t.eq(got.headers["x-should-retry"], "false")
      local e = json.decode(got.body)
      if wire == "gemini" then t.eq(e.error.code, 400); t.contains(e.error.message, "--max-calls")
      elseif wire == "anthropic" then t.eq(e.type, "error"); t.eq(e.error.type, "invalid_request_error"); t.contains(e.error.message, "--max-calls")
      else t.eq(e.error.code, "budget_exceeded"); t.contains(e.error.message, "--max-calls") end
    end
    t.eq(s:requests(), 1, "only the first call reached the mock")
    local calls = h:calls(3)
    t.eq(#calls, 3)
    t.eq({ calls[2].call.refused, calls[2].call.status, calls[3].call.refused }, { "budget", 400, "budget" })
    t.eq(calls[3].usage.calls, 1)
    -- the ledger counted the answered call in spend.jsonl
    local spent = fs.read(dir .. "/spend.jsonl") or ""
    t.eq(select(2, spent:gsub("\n", "")), 1)
    h:stop()
  end)
end

test("an unknown key and a closed seat's key get 401 in the provider's form; neither reaches the mock", function()
  local s, dir = mock_with(RULES)
  for _, wire in ipairs({ "openai-chat", "anthropic", "gemini" }) do
    local h = start_host(dir, wire)
    local model = WIRES[wire].model
    local got = send(h.base_url, sdk_request(wire, model, "sk-not-a-seat-key-123456", false))
    t.eq(got.status, 401)
    local e = json.decode(got.body)
    if wire == "gemini" then t.eq(e.error.status, "UNAUTHENTICATED")
    elseif wire == "anthropic" then t.eq(e.error.type, "authentication_error")
    else t.eq(e.error.code, "invalid_api_key") end
    -- Gemini's ?key= works as the header does
    if wire == "gemini" then
      local r = sdk_request(wire, model, h.key, false)
      r.headers = {}
      r.path = r.path .. "?key=" .. h.key
      t.eq(send(h.base_url, r).status, 200)
      t.ok(not s:log()[#s:log()].path:find(h.key, 1, true), "the seat key in the upstream query")
    else
      t.eq(send(h.base_url, sdk_request(wire, model, h.key, false)).status, 200)
    end
    h:close_seat()
    t.eq(send(h.base_url, sdk_request(wire, model, h.key, false)).status, 401)
    h:stop()
  end
  t.eq(s:requests(), 3)
end)

test("a request on another wire format's path is refused with 404 and recorded; the mock never sees it", function()
  local s = mock_with(RULES)
  local h = host_for("anthropic")
  local r = sdk_request("openai-chat", WIRES.anthropic.model, h.key, false)
  r.headers = { "x-api-key: " .. h.key }
  local got = send(h.info.api_url, r)
  t.eq(got.status, 404)
  t.eq(json.decode(got.body).error.type, "not_found_error")
  local c = h:calls(1)[1].call
  t.eq({ c.refused, c.status, c.path }, { "wire", 404, "/v1/chat/completions" })
  t.eq(s:requests(), 0)
end)

test("the models list names the participant's model only; count_tokens is answered here; other paths 404", function()
  local s = mock_with(RULES)
  local h = host_for("openai-chat")
  local list = json.decode(send(h.base_url, { method = "GET", path = "/models", headers = { "Authorization: Bearer " .. h.key } }).body)
  t.eq(#list.data, 1); t.eq(list.data[1].id, "mock-chat")
  t.eq(send(h.base_url, { method = "GET", path = "/models/other", headers = { "Authorization: Bearer " .. h.key } }).status, 404)
  t.eq(send(h.base_url, { method = "POST", path = "/embeddings", headers = { "Authorization: Bearer " .. h.key }, body = { input = "x" } }).status, 404)
  local ha = host_for("anthropic")
  local la = json.decode(send(ha.base_url, { method = "GET", path = "/v1/models", headers = { "x-api-key: " .. ha.key } }).body)
  t.eq(la.data[1].id, "claude-opus-4-7"); t.eq(#la.data, 1)
  local ct = send(ha.base_url, { path = "/v1/messages/count_tokens", headers = { "x-api-key: " .. ha.key },
    body = { model = "claude-opus-4-7", messages = { { role = "user", content = "hi" } } } })
  t.eq(ct.status, 200)
  t.ok(json.decode(ct.body).input_tokens > 0)
  local hg = host_for("gemini")
  local lg = json.decode(send(hg.base_url, { method = "GET", path = "/v1beta/models", headers = { "x-goog-api-key: " .. hg.key } }).body)
  t.eq(lg.models[1].name, "models/gemini-3-pro-preview"); t.eq(#lg.models, 1)
  t.eq(s:requests(), 0)
  local calls = h:calls(3)
  t.eq(#calls, 3)
  t.eq({ calls[1].call.status, calls[2].call.refused, calls[3].call.refused }, { 200, "model", "endpoint" })
end)

-- an upstream (Chat Completions) that sends its first event, then waits until
-- told (or 5 s) before the rest: shows whether the proxy passes events on as
-- they arrive
local function paused_upstream()
  local up = { released = false }
  up.server = assert(httpd.serve({ port = 0 }, function(_, res)
    res:status(200, { ["Content-Type"] = "text/event-stream" })
    res:write('data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"first "}}]}\n\n')
    local stop = loop.now() + 5
    while not up.released and loop.now() < stop do loop.sleep(0.01) end
    up.released_in_time = up.released
    res:write('data: {"choices":[{"index":0,"delta":{"content":"second"},"finish_reason":"stop"}]}\n\n')
    res:write('data: {"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2}}\n\n')
    res:write("data: [DONE]\n\n")
    res:finish()
  end))
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/host.lua", HOST)
  fs.write_atomic(dir .. "/models.lua", string.format([[return { ["openai-chat"] = { provider = "openai-chat",
    model = "mock-chat", base_url = "http://127.0.0.1:%d/v1", key_env = 'TABULA_PROXY_TEST_KEY', prices = { input = 1, output = 2 } } }]],
    up.server.port))
  up.dir = dir
  return up
end

test("a stream is passed on as it arrives: the program reads the first event before the upstream sends the rest", function()
  local up = paused_upstream()
  local h = start_host(up.dir, "openai-chat")
  local r = sdk_request("openai-chat", "mock-chat", h.key, true)
  local pieces = {}
  local got = assert(http.request({ method = "POST", url = h.base_url .. r.path, timeout = 20,
    headers = { "Content-Type: application/json", r.headers[1] }, body = json.canonical(r.body),
    on_chunk = function(d)
      pieces[#pieces + 1] = d
      if d:find("first", 1, true) then up.released = true end
    end }))
  t.eq(got.status, 200)
  t.ok(up.released_in_time, "the first event reached the program only when the upstream had finished")
  local text = table.concat(pieces)
  t.contains(text, '"content":"second"')
  t.ok(text:find("first", 1, true) < text:find("second", 1, true))
  local c = h:calls(1)[1]
  t.eq(c.call.reply.text, "first second")
  t.eq({ c.usage.calls, c.usage.input, c.usage.output }, { 1, 5, 2 })
  h:stop()
  up.server:close()
end)

test("a program that disconnects mid-stream: the proxy reads the upstream to its end, counts the call, records the disconnection", function()
  local up = paused_upstream()
  local h = start_host(up.dir, "openai-chat")
  local r = sdk_request("openai-chat", "mock-chat", h.key, true)
  local ok, err = pcall(http.request, { method = "POST", url = h.base_url .. r.path, timeout = 20,
    headers = { "Content-Type: application/json", r.headers[1] }, body = json.canonical(r.body),
    on_chunk = function(d) if d:find("first", 1, true) then error("the program goes away", 0) end end })
  t.ok(not ok); t.eq(err, "the program goes away")
  loop.sleep(0.2)   -- the proxy notices the program gone only when it writes the next event
  up.released = true
  local c = h:calls(1)[1]
  t.ok(c, "no on_call")
  t.eq(c.call.status, 200)
  t.contains(c.call.error, "disconnected")
  t.eq(c.call.reply.text, "first second")
  t.eq({ c.usage.calls, c.usage.input, c.usage.output }, { 1, 5, 2 })
  -- the proxy still serves
  t.eq(send(h.base_url, { method = "GET", path = "/models", headers = { "Authorization: Bearer " .. h.key } }).status, 200)
  h:stop()
  up.server:close()
end)

test("a stream cut by the server reaches the program as it came, is recorded with error and is not counted", function()
  local s = mock_with({ { match = "cut", fault = "sse_cut", reply = "a long answer that the server will cut short" }, RULES[1] })
  local h = host_for("anthropic")
  local got = send(h.base_url, sdk_request("anthropic", "claude-opus-4-7", h.key, true, "cut it"))
  t.eq(got.status, 200)
  t.ok(not got.body:find("message_stop", 1, true), "the cut stream was completed")
  local c = h:calls(1)[1]
  t.contains(c.call.error, "message_stop")
  t.eq(c.call.reply, nil)
  t.eq(since_mark(h, c).calls, 0)
  t.eq(s:requests(), 1)
end)

test("upstream failures reach the program as the provider's errors, status kept, no retry; an echoed key is redacted", function()
  local s = mock_with({ { match = "echo", fault = "401", echo_auth = true }, { match = "busy", fault = "503" } })
  local h = host_for("openai-chat")
  local got = send(h.base_url, sdk_request("openai-chat", "mock-chat", h.key, false, "echo my key"))
  t.eq(got.status, 401)
  t.contains(got.body, "[redacted]")
  check_no_secret(got.body, "the program's error reply")
  local busy = send(h.base_url, sdk_request("openai-chat", "mock-chat", h.key, true, "busy now"))
  t.eq(busy.status, 503)
  t.eq(s:requests(), 2, "no retry inside the proxy")
  local calls = h:calls(2)
  t.eq({ calls[1].call.status, calls[2].call.status }, { 401, 503 })
  t.ok(calls[1].call.error and calls[2].call.error)
  t.eq(since_mark(h, calls[2]).calls, 0)
  check_no_secret(fs.read(h.out), "on_call's data")
  -- a server that cannot be reached: 502 in the provider's form (the last test: the mock is gone after it)
  s:close()
  local h2 = host_for("anthropic")
  local down = send(h2.base_url, sdk_request("anthropic", "claude-opus-4-7", h2.key, false))
  t.eq(down.status, 502)
  t.eq(json.decode(down.body).error.type, "api_error")
  check_no_secret(down.body, "the 502")
  t.ok(h2:calls(1)[1].call.error)
  for _, h3 in pairs(hosts) do h3:stop() end
end)

return T
