-- tabula.mcp — a scenario's trials served over the Model Context Protocol
-- (revision 2025-11-25; 2025-06-18, 2025-03-26 and 2024-11-05 accepted) on
-- stdio: JSON-RPC 2.0, one message a line, nothing else on stdout (the run's
-- own lines go to stderr). `tabula mcp SCENARIO [options]` (cmd/mcp.lua) runs
-- the scenario's tools arm through the runner, so the run has its run
-- directory, trials.jsonl, transcripts (the tool traffic, as any model's) and
-- report, scored like any other; the agent is the MCP client.
--
-- How a trial is played: the scenario asks its agent for a reply
-- (agent:reply, here Remote:reply); the reply is the client's next tools/call,
-- handed to the scenario as a native tool call; the scenario's referee judges
-- it, and the tool result the scenario appends is the tools/call's result
-- (isError when the referee rejected the action). A trial's tools are the
-- scenario's (tools/list) plus `observe` (no arguments, no action: the
-- system prompt and the latest message of the trial, which is where a client
-- starts). When a trial ends, the call that ended it is answered with the
-- outcome and, if the queue holds another trial, that trial's system prompt
-- and first message (the tool list changes: notifications/tools/list_changed);
-- after the last, with the run directory. Later calls are tool errors.
--
-- Errors, as the specification has them: a line that is not JSON -32700; not
-- a request -32600 (also a batch, any request but ping before initialize, and
-- a message longer than M.MAX_MESSAGE_BYTES, which is not read); an unknown
-- method -32601; an unknown tool -32602. Arguments that fail validation (not
-- an object, or not fitting the tool's input schema) are tool results with
-- isError true, as the 2025-11-25 revision has it, so a model can read them
-- and correct itself; the referee never sees them (they are not a move). The
-- referee's rejections are tool results with isError true. The
-- client closing stdin during a trial stops the run (the trial is not
-- recorded and runs again with the same command and --out).
local json = require "tabula.json"
local loop = require "tabula.loop"
local proc = require "tabula.c.proc"
local cli = require "tabula.cli"
local host = require "tabula.c.host"
local tools = require "tabula.tools"

local M = {}

M.VERSIONS = { "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05" }   -- newest first
M.OBSERVE = "observe"

local PARSE, INVALID, NO_METHOD, BAD_PARAMS = -32700, -32600, -32601, -32602

local Session = {}
Session.__index = Session

-- settle(f): complete a future once (later calls do nothing)
local function settle(f) if f and f.state == "pending" then f:set() end end

-- the text of the messages after the conversation's last assistant message
local function since_assistant(conv)
  local parts, is_error = {}, false
  for i = #conv, 1, -1 do
    local m = conv[i]
    if m.role == "assistant" then break end
    if type(m.content) == "string" and m.content ~= "" then table.insert(parts, 1, m.content) end
    is_error = is_error or m.is_error == true
  end
  return table.concat(parts, "\n\n"), is_error
end


-- session(opts) -> the one session of this process; opts.input, opts.output: fds (0, 1);
-- opts.detached: one of several (an agent program's seat over a socket, tabula.program),
-- not the process's current session
function M.session(opts)
  opts = opts or {}
  local s = setmetatable({ input = opts.input or 0, output = opts.output or 1, calls = {}, ncalls = 0,
    max_message_bytes = opts.max_message_bytes,
    ready = loop.future(), trial = nil, over = nil, done = false, eof = false, initialized = false }, Session)
  if not opts.detached then M.current = s end
  return s
end

function Session:send(msg)
  msg.jsonrpc = "2.0"
  local ok, err = proc.write_fd(self.output, json.canonical(msg) .. "\n")
  if not ok then self.eof = true; io.stderr:write("mcp: cannot write to the client: ", tostring(err), "\n") end
end

function Session:result(id, result) self:send({ id = id, result = result }) end

function Session:error(id, code, message)
  self:send({ id = id == nil and json.null or id, error = { code = code, message = message } })
end

local function text_result(text, is_error)
  return { content = json.array({ { type = "text", text = text } }), isError = is_error and true or false }
end
M.text_result = text_result

-- the tools of the current trial as tools/list gives them
function Session:tool_list()
  local list = json.array()
  for _, t in ipairs(self.trial and self.trial.tools or {}) do
    list[#list + 1] = { name = t.name, description = t.description, inputSchema = t.parameters }
  end
  list[#list + 1] = { name = M.OBSERVE, description = "Show the trial's instructions (the system prompt) and its latest message. "
    .. "Not an action: it counts toward no budget.", inputSchema = tools.object({}) }
  return list
end

function Session:observation()
  local tr = self.trial
  if not tr then return "No trial is running." end
  return string.format("Trial %s.\n\n%s\n\n%s", tr.id or tr.key, tr.system, tr.latest)
end

-- line_reader(on_line, on_too_long, max) -> feed(chunk): splits a byte stream
-- into lines in time linear in its length (each chunk is searched once; a
-- line's pieces are joined once, when its end arrives); a line longer than max
-- bytes is not kept: its bytes are dropped up to its end, then on_too_long(size)
function M.line_reader(on_line, on_too_long, max)
  local parts, size, skipping = {}, 0, false
  return function(chunk)
    local pos = 1
    while pos <= #chunk do
      local nl = chunk:find("\n", pos, true)
      local piece = chunk:sub(pos, (nl or (#chunk + 1)) - 1)
      size = size + #piece
      if not skipping then
        if size > max then skipping, parts = true, {} else parts[#parts + 1] = piece end
      end
      if not nl then break end
      if skipping then on_too_long(size)
      else
        local line = table.concat(parts):gsub("\r$", "")
        if line:match("%S") then on_line(line) end
      end
      parts, size, skipping = {}, 0, false
      pos = nl + 1
    end
  end
end

-- the largest client message (one line) read; a longer one is answered with a JSON-RPC error
M.MAX_MESSAGE_BYTES = 4 * 1024 * 1024

-- start(): read the client's messages (a task on the loop) until the client closes stdin
function Session:start()
  local max = self.max_message_bytes or M.MAX_MESSAGE_BYTES
  local feed = M.line_reader(function(line) self:handle(line) end, function(size)
    self:error(nil, INVALID, string.format("Invalid Request: the message is %d bytes, more than the %d this server reads "
      .. "(tabula mcp --max-message-bytes); it was not read", size, max))
  end, max)
  self.reader = loop.spawn(function()
    while true do
      loop.await_fd(self.input, "r")
      local d = proc.read_fd(self.input)
      if d == "" then break end
      if d then feed(d) end
    end
    self.eof = true
    settle(self.wake)
    settle(self.closed)
  end)
end

-- wait_closed(): until the client closes stdin
function Session:wait_closed()
  if self.eof then return end
  self.closed = loop.future()
  self.closed:await()
end

function Session:handle(line)
  local msg, err = json.decode(line)
  if msg == nil then return self:error(nil, PARSE, "Parse error: " .. tostring(err)) end
  if type(msg) ~= "table" or getmetatable(msg) == json.array_mt then
    return self:error(nil, INVALID, "Invalid Request: a JSON-RPC request object (batches are not supported)")
  end
  local id, method = msg.id, msg.method
  if msg.jsonrpc ~= "2.0" or type(method) ~= "string" then
    if method == nil and (msg.result ~= nil or msg.error ~= nil) then return end   -- a response: we send no requests
    return self:error(id, INVALID, "Invalid Request: jsonrpc must be \"2.0\" and method a string")
  end
  local notification = id == nil
  if notification then return end   -- notifications/initialized, notifications/cancelled: nothing to do
  if method == "ping" then return self:result(id, json.object()) end
  if method == "initialize" then return self:initialize(id, msg.params) end
  if not self.initialized then return self:error(id, INVALID, "Invalid Request: send initialize first") end
  if method == "tools/list" then
    return loop.spawn(function()
      if not self.trial and not self.done then self.ready:await() end
      self:result(id, { tools = self:tool_list() })
    end)
  elseif method == "tools/call" then
    return self:call(id, msg.params)
  end
  self:error(id, NO_METHOD, "Method not found: " .. method)
end

function Session:initialize(id, params)
  params = type(params) == "table" and params or {}
  local version = M.VERSIONS[1]
  for _, v in ipairs(M.VERSIONS) do if params.protocolVersion == v then version = v end end
  self.initialized = true
  self.client = type(params.clientInfo) == "table" and params.clientInfo or nil
  self:result(id, {
    protocolVersion = version,
    capabilities = { tools = { listChanged = true } },
    serverInfo = { name = "tabula", version = tostring(host.version) },
    instructions = "tabula serves the trials of a benchmark scenario. Call observe for the trial's instructions and its first message, "
      .. "then act with the other tools; each tool call is one action, judged by the scenario's referee under its budgets.",
  })
end

function Session:call(id, params)
  params = type(params) == "table" and params or {}
  local name, args = params.name, params.arguments
  if type(name) ~= "string" then return self:error(id, BAD_PARAMS, "Invalid params: tools/call needs a tool name") end
  -- arguments that fail validation: a tool error (isError, the 2025-11-25 rule), so a
  -- model can read it and call again; the referee never sees them (they are not a move)
  if args ~= nil and (type(args) ~= "table" or getmetatable(args) == json.array_mt) then
    return self:result(id, text_result(string.format("Invalid arguments for %s: the arguments must be a JSON object "
      .. "(got %s). Nothing was played; call %s again.", name, getmetatable(args) == json.array_mt and "an array" or type(args), name), true))
  end
  if name == M.OBSERVE then
    return loop.spawn(function()
      if not self.trial and not self.done then self.ready:await() end
      self:result(id, text_result(self.done and self:closing() or self:observation()))
    end)
  end
  if self.done then return self:result(id, text_result(self:closing(), true)) end
  local known = nil
  for _, t in ipairs(self.trial and self.trial.tools or {}) do if t.name == name then known = t end end
  if self.trial and not known then return self:error(id, BAD_PARAMS, "Unknown tool: " .. name) end
  local bad = known and M.invalid_arguments(known.parameters, args or json.object())
  if bad then
    return self:result(id, text_result(string.format("Invalid arguments for %s: %s. Nothing was played; call %s again.", name, bad, name), true))
  end
  self.calls[#self.calls + 1] = { id = id, name = name, arguments = args or json.object() }
  settle(self.wake)
end

-- invalid_arguments(schema, args) -> why args do not fit the tool's input
-- schema (a required property missing, a property of another type, one the
-- schema does not have when it allows no others), or nil
local JSON_TYPES = { string = "string", integer = "number", number = "number", boolean = "boolean", object = "table", array = "table" }
function M.invalid_arguments(schema, args)
  if type(schema) ~= "table" then return nil end
  local props = type(schema.properties) == "table" and schema.properties or {}
  for _, r in ipairs(type(schema.required) == "table" and schema.required or {}) do
    if args[r] == nil then return string.format("the property \"%s\" is required", tostring(r)) end
  end
  for k, v in pairs(args) do
    local p = props[k]
    if p == nil then
      if schema.additionalProperties == false then
        local names = {}
        for n in pairs(props) do names[#names + 1] = n end
        table.sort(names)
        return string.format("no property \"%s\" (properties: %s)", tostring(k), #names > 0 and table.concat(names, ", ") or "none")
      end
    elseif type(p) == "table" and JSON_TYPES[p.type] then
      local ok = type(v) == JSON_TYPES[p.type]
      if ok and p.type == "integer" then ok = math.tointeger(v) ~= nil end
      if ok and p.type == "array" then ok = getmetatable(v) == json.array_mt or next(v) == nil end
      if ok and p.type == "object" then ok = getmetatable(v) ~= json.array_mt end
      if not ok then return string.format("the property \"%s\" must be of type %s", tostring(k), p.type) end
      if p.enum and type(p.enum) == "table" then
        local found = false
        for _, e in ipairs(p.enum) do if e == v then found = true end end
        if not found then return string.format("the property \"%s\" must be one of %s", tostring(k), table.concat(p.enum, ", ")) end
      end
    end
  end
  return nil
end

function Session:closing()
  if self.closing_text then return self.closing_text end
  return (self.over and (self.over .. "\n\n") or "") .. "No trial is left: the run is complete" ..
    (self.dir and (" (records in " .. self.dir .. ")") or "") .. "."
end

-- trial_over(trial, rec, err): the trial ended (the runner records it); the
-- call that ended it is answered when the next trial starts or the run ends
function Session:trial_over(trial, rec, err)
  local last, is_error = "", false
  if self.trial and self.trial.conv then last, is_error = since_assistant(self.trial.conv) end
  self.over_error = is_error   -- the call that ended the trial was refused (a forfeit)
  if rec then
    self.over = string.format("%sThe trial %s is over: %s (%s).", last ~= "" and (last .. "\n\n") or "", trial.id,
      tostring(rec.status), tostring(rec.reason or rec.status))
  else
    self.over = string.format("The trial %s ended with an infrastructure error (not scored): %s", trial.id, tostring(err and err.message))
  end
end

-- finish(dir): the run is complete; answer the call that ended the last trial
function Session:finish(dir)
  self.done, self.dir = true, dir
  settle(self.ready)
  if self.pending then
    self:result(self.pending.id, text_result(self:closing(), self.over_error))
    self.pending = nil
  end
end

local function user_text(m)
  if type(m.content) == "string" then return m.content end
  local out = {}
  for _, p in ipairs(m.content or {}) do if p.type == "text" then out[#out + 1] = p.text end end
  return table.concat(out, "\n")
end

-- trial_begins(trial): the runner starts a trial (tabula mcp wraps the scenario's play)
function Session:trial_begins(trial) self.trial_id = trial.id end

-- begin(conv, ctx): a new conversation: a trial's first request, or (a match
-- whose seat starts a conversation at each decision) the next decision's
function Session:begin(conv, ctx)
  local system, first = {}, {}
  for _, m in ipairs(conv) do
    if m.role == "system" then system[#system + 1] = user_text(m)
    elseif m.role == "user" then first[#first + 1] = user_text(m) end
  end
  local before = self.trial and json.canonical(self.trial.tools) or nil
  local same = self.trial and self.trial.id == self.trial_id
  self.trial = { id = self.trial_id, key = ctx.key, tools = ctx.tools or {}, system = table.concat(system, "\n\n"),
    latest = table.concat(first, "\n\n"), conv = conv }
  if not ctx.tools or #ctx.tools == 0 then
    cli.fail("mcp: trial %s offers no tools (the scenario's tools arm must be on)", tostring(ctx.key))
  end
  settle(self.ready)
  if self.pending and same then   -- the call that ended the seat's decision: the next one's start
    self:result(self.pending.id, text_result(self:observation()))
    self.pending = nil
  elseif self.pending then   -- the call that ended the previous trial
    self:result(self.pending.id, text_result((self.over or "") .. "\n\nThe next trial begins.\n\n" .. self:observation(), self.over_error))
    self.pending = nil
  end
  if before and before ~= json.canonical(self.trial.tools) then self:send({ method = "notifications/tools/list_changed" }) end
end

-- next_call(ctx) -> the client's next tools/call of one of the trial's tools (waits for it;
-- a call queued before the trial's tools were known, of another tool, is answered -32602)
function Session:next_call(ctx)
  while true do
    while #self.calls == 0 do
      if self.eof then
        error(cli.user_error(string.format("mcp: the client closed the connection during trial %s; it is not recorded "
          .. "(run the same command with the same --out to continue)", tostring(ctx.key))), 0)
      end
      self.wake = loop.future()
      self.wake:await()
      self.wake = nil
    end
    local req = table.remove(self.calls, 1)
    for _, t in ipairs(ctx.tools or {}) do if t.name == req.name then return req end end
    self:error(req.id, BAD_PARAMS, "Unknown tool: " .. req.name)
  end
end

local Remote = {}
Remote.__index = Remote

-- remote(cfg) -> the agent face of the session (agent.lua: a.remote)
function M.remote(cfg)
  return setmetatable({ cfg = cfg }, Remote)
end

local ZERO = { input = 0, cached = 0, output = 0, reasoning = 0 }

function Remote:reply(conv, ctx)
  local s = M.current
  if not s then error("tabula.mcp: no session (tabula mcp starts one)", 2) end
  return M.reply_on(s, conv, ctx)
end

-- reply_on(s, conv, ctx [, wait]) -> the reply of session s's client: its next tools/call;
-- wait(s, ctx) -> request | nil, reply (another way to wait for the call: an agent
-- program's seat ends its wait when the program dies or its time is up, and answers with reply)
function M.reply_on(s, conv, ctx, wait)
  ctx = ctx or {}
  local fresh = true   -- a conversation with no reply yet: a trial (or a trial's new attempt) begins
  for _, m in ipairs(conv) do if m.role == "assistant" then fresh = false end end
  if fresh or not s.trial or s.trial.key ~= ctx.key or s.trial.id ~= s.trial_id or not s.pending then
    s:begin(conv, ctx)
  else   -- the result of the call the client is waiting for
    local text, is_error = since_assistant(conv)
    s.trial.latest, s.trial.conv = text, conv
    s:result(s.pending.id, text_result(text, is_error))
    s.pending = nil
  end
  local req, instead
  if wait then req, instead = wait(s, ctx) else req = s:next_call(ctx) end
  if not req then return instead end
  s.pending = req
  s.ncalls = s.ncalls + 1
  local started = loop.now()
  local call = tools.call(string.format("mcp_%d", s.ncalls), req.name, req.arguments)
  return { text = "", tool_calls = { call }, finish = "tool_calls", usage = ZERO, cost = 0, cached = false,
    attempts = 1, seconds = loop.now() - started }
end

return M
