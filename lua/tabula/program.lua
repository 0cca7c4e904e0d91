-- tabula.program — an agent program (Codex, OpenCode, Qwen Code, Claude Code, Gemini CLI, or
-- any command) as a participant's harness (issue 44; DECE's model–harness configurations).
--
-- The participant's agent (tabula.agent, its model and key) stays in tabula: the program
-- never gets the key. For each seat of each match (ctx.key, "MATCH:SEAT") the program has:
--   RUN/programs/MATCH/seatK/workspace   its working directory
--   RUN/programs/MATCH/seatK/home        its HOME (its configuration files, its sessions)
--   RUN/programs/MATCH/seatK/program.log what it printed
--   RUN/programs/MATCH/seatK/calls.jsonl every model request it made, as the proxy saw it
-- nothing shared between seats or matches. Its model endpoint is a seat of the metering
-- proxy (tabula.proxy: a loopback URL speaking the participant's wire format, with a token
-- of its own as its API key), so every call it makes is priced, bound by the budgets, held
-- to the participant's model and recorded. Its seat's tools come over MCP: the program
-- starts `tabula mcp_seat SOCKET` (written into its configuration), which relays to this
-- process, where a tabula.mcp session serves the seat exactly as `tabula mcp` does: the
-- tools of the tools harness (act and the harness's queries) plus observe.
--
-- A decision: the program is launched (a new process, in its own process group; with
-- session "native" a later decision resumes the program's own session, with "fresh" it
-- starts anew) with the decision's instruction; its tools/calls are the replies the tools
-- harness (scenarios/dece/tools.lua) referees. When the harness has its action (or gives
-- up), end_decision answers the call in flight, and the program has `grace` seconds to exit
-- before its group gets SIGTERM, then SIGKILL 2 s later. What happened is recorded with the
-- decision (reply.program / res.program): launches, tool calls, the end (acted, timed out,
-- exited without acting), calls after the end (refused: nothing is played twice), how the
-- process ended. A program that cannot be started at all is an infrastructure error (the
-- match is not scored); one that runs and ends without acting, or runs out its
-- decision_timeout (seconds a launch may take), fails the decision by the arena's rules
-- (the harness's retries and fallback). A model call the run-wide budget refuses ends the
-- decision as a budget stop: the match is not recorded (as for tabula's own calls).
local fs = require "tabula.fs"
local json = require "tabula.json"
local loop = require "tabula.loop"
local proc = require "tabula.c.proc"
local sock = require "tabula.c.sock"
local host = require "tabula.c.host"
local mcp = require "tabula.mcp"
local secrets = require "tabula.secrets"
local budget = require "tabula.budget"
local records = require "tabula.records"

local M = {}

M.DEFAULTS = { session = "fresh", decision_timeout = 1200, grace = 10, model_policy = "refuse" }
M.SESSIONS = { fresh = true, native = true }
M.POLICIES = { refuse = true, rewrite = true }
M.CONNECT_POLL = 0.1   -- seconds between looks at a launched program that has not called yet

local Program = {}
Program.__index = Program

-- close_session(s): the session's connection closed, its reader stopped first (the fd's
-- number is reused by the next connection, which another reader must not read)
local function close_session(s)
  if s.reader then loop.cancel(s.reader); s.reader = nil end
  if s.fd then sock.close(s.fd); s.fd = nil end
end


-- catalog(spec) -> the program's entry: a known program of tabula.agent_programs, or a
-- command of the participants file ({ command = {...}, wire = ... })
function M.entry(spec)
  if spec.command then return M.custom(spec) end
  local AP = require "tabula.agent_programs"
  return AP.get(spec.name)
end

-- custom(spec) -> the entry of a command given in the participants file: its argv with
-- {prompt}, {mcp_config}, {base_url}, {model}, {workspace}, {home} replaced; the same
-- values in its environment as TABULA_PROMPT, TABULA_MCP_CONFIG (a JSON file
-- {"mcpServers": {"tabula": {"command", "args"}}}), TABULA_BASE_URL, TABULA_API_KEY (the
-- seat's token, not a key), TABULA_MODEL, TABULA_WIRE, TABULA_RESUME (1 for a native
-- session's later decisions)
function M.custom(spec)
  return {
    name = "command", wires = { spec.wire },
    locate = function() return spec.command[1] end,
    prepare = function(c)
      local cfg_path = fs.join(c.home, "mcp.json")
      local files = { { path = cfg_path, text = json.encode({ mcpServers = { tabula = { command = c.mcp.command,
        args = json.array(c.mcp.args) } } }, { pretty = true }) .. "\n" } }
      local vals = { prompt = c.prompt, mcp_config = cfg_path, base_url = c.base_url, model = c.model,
        workspace = c.workspace, home = c.home }
      local argv = {}
      for i, a in ipairs(spec.command) do argv[i] = (a:gsub("{(%w+)}", function(k) return vals[k] end)) end
      local env = { TABULA_PROMPT = c.prompt, TABULA_MCP_CONFIG = cfg_path, TABULA_BASE_URL = c.base_url,
        TABULA_API_KEY = c.key, TABULA_MODEL = c.model, TABULA_WIRE = c.wire, TABULA_RESUME = c.resume and "1" or "0" }
      for k, v in pairs(spec.env or {}) do env[k] = v end
      return { argv = argv, env = env, files = files }
    end,
  }
end

-- normalize(h, where, cfg) -> the normalized program of a harness h ({ program = name |
-- { command, env, name }, session, decision_timeout, grace, model_policy }) for the model cfg:
-- { name | command, wire, env, session, decision_timeout, grace, model_policy,
-- config_sha256 }; a mistake is one line naming where (cli.fail)
function M.normalize(h, where, cfg)
  local program = M
  local cli = require "tabula.cli"
  local function shown(v) return type(v) == "string" and string.format("%q", v) or tostring(v) end
  local pr, out = h.program, {}
  if type(pr) == "string" then
    local AP = require "tabula.agent_programs"
    if not AP.get(pr) then cli.fail("%s: unknown agent program '%s' (known: %s, or {\"command\": [...]})", where, pr, table.concat(AP.names(), ", ")) end
    out.name = pr
  elseif type(pr) == "table" and getmetatable(pr) ~= json.array_mt then
    for k in pairs(pr) do
      if k ~= "command" and k ~= "env" and k ~= "name" then cli.fail("%s: unknown field '%s' of harness program (valid: command, env, name)", where, tostring(k)) end
    end
    if type(pr.command) ~= "table" or #pr.command == 0 then cli.fail("%s: harness program needs \"command\": [\"program\", \"arg\", ...]", where) end
    for _, a in ipairs(pr.command) do if type(a) ~= "string" then cli.fail("%s: harness program command: every argument a text", where) end end
    out.command, out.name = pr.command, type(pr.name) == "string" and pr.name or fs.basename(pr.command[1])
    if pr.env ~= nil then
      if type(pr.env) ~= "table" then cli.fail("%s: harness program env must be an object", where) end
      for k, v in pairs(pr.env) do
        if type(k) ~= "string" or type(v) ~= "string" then cli.fail("%s: harness program env: names and values are texts", where) end
        if k:match("KEY") or k:match("TOKEN") or k:match("SECRET") then
          cli.fail("%s: harness program env %s: a key is never given to a program (it talks to tabula's proxy)", where, k)
        end
      end
      out.env = pr.env
    end
  else
    cli.fail("%s: harness program must be a known program's name or {\"command\": [...]}", where)
  end
  out.wire = cfg.provider
  local e = program.entry(out)
  local ok_wire = false
  for _, w in ipairs(e.wires or {}) do if w == cfg.provider then ok_wire = true end end
  if not ok_wire then
    cli.fail("%s: agent program %s does not speak %s (the wire format of model %s); it speaks %s", where, out.name,
      tostring(cfg.provider), tostring(cfg.name), table.concat(e.wires or {}, ", "))
  end
  out.session = h.session == nil and program.DEFAULTS.session or h.session
  if not program.SESSIONS[out.session] then cli.fail("%s: harness session must be native or fresh, not %s", where, tostring(out.session)) end
  if out.session == "native" and e.resume == false then
    cli.fail("%s: agent program %s cannot resume its own session (%s): give \"session\": \"fresh\"", where, out.name,
      tostring(e.resume_why or "its entry says so"))
  end
  out.model_policy = h.model_policy == nil and program.DEFAULTS.model_policy or h.model_policy
  if not program.POLICIES[out.model_policy] then cli.fail("%s: harness model_policy must be refuse or rewrite, not %s", where, tostring(out.model_policy)) end
  for _, k in ipairs({ "decision_timeout", "grace" }) do
    local v = h[k] == nil and program.DEFAULTS[k] or h[k]
    if type(v) ~= "number" or not (v > 0 and v <= 86400) then cli.fail("%s: harness %s must be seconds > 0, not %s", where, k, shown(v)) end
    out[k] = v
  end
  -- the configuration the program is given, with stand-in paths and token: its hash is
  -- part of the participant's identity (a changed configuration is another participant)
  local prep = e.prepare({ workspace = "/WORKSPACE", home = "/HOME", wire = cfg.provider, base_url = "http://127.0.0.1:PORT/",
    key = "SEAT-TOKEN", model = cfg.model, mcp = { command = "tabula", args = { "mcp_seat", "SOCKET" } },
    prompt = "PROMPT", resume = false })
  out.config_sha256 = fs.sha256(json.canonical({ argv = prep.argv, env = prep.env or {}, files = prep.files or {},
    version = e.version })):sub(1, 16)
  return out
end

-- new(agent, spec, opts) -> the program face of a participant's agent (agent.lua: a.program)
-- spec: the participant's harness.program (normalized: name or command, wire, session,
-- decision_timeout, grace, model_policy); opts.run_dir: the run directory
function M.new(agent, spec, opts)
  local e, why = M.entry(spec)
  if not e then error(string.format("agent program %s: %s", tostring(spec.name), why or "unknown"), 0) end
  return setmetatable({ agent = agent, spec = spec, entry = e, run_dir = opts.run_dir or ".", seats = {}, n = 0 }, Program)
end

-- the proxy of this process (one per process, started on first use)
local proxy_server
local function proxy()
  if not proxy_server then proxy_server = require("tabula.proxy").start() end
  return proxy_server
end

local function seat_dir(self, key)
  local match, seat = key:match("^(.*):(%d+)$")
  match = (match or key):gsub("[^%w%-_.]", "_")
  return fs.join(self.run_dir, "programs", match, "seat" .. (seat or "0"))
end

local socket_count = 0
local function socket_path()
  socket_count = socket_count + 1
  local tmp = os.getenv("TMPDIR")
  if not tmp or tmp == "" or #tmp > 60 then tmp = "/tmp" end
  return string.format("%s/tabula-%d-%d.sock", tmp, proc.getpid(), socket_count)
end

-- open(key) -> the seat's state, made on its first decision
function Program:open(key)
  local st = self.seats[key]
  if st then return st end
  local dir = seat_dir(self, key)
  st = { key = key, dir = dir, ws = fs.join(dir, "workspace"), home = fs.join(dir, "home"), tmp = fs.join(dir, "tmp"),
    log = fs.join(dir, "program.log"), launches = 0, calls = 0 }
  for _, d in ipairs({ st.ws, st.home, st.tmp }) do
    local ok, err = fs.mkdir_p(d)
    if not ok then error({ infra = true, kind = "program", message = string.format("%s: %s", d, tostring(err)) }, 0) end
  end
  st.sock_path = socket_path()
  local fd, err = sock.listen_unix(st.sock_path)
  if not fd then error({ infra = true, kind = "program", message = string.format("the seat socket %s: %s", st.sock_path, err) }, 0) end
  st.listen = fd
  st.journal = records.writer(fs.join(dir, "calls.jsonl"))
  st.px = proxy():seat({ agent = self.agent, label = string.format("%s (%s)", key, self.entry.name),
    model_policy = self.spec.model_policy,
    on_call = function(call) self:on_call(st, call) end })
  self.seats[key] = st
  -- connections: each is the program's MCP server (tabula mcp_seat) of the launch running now
  st.acceptor = loop.spawn(function()
    while st.listen do
      loop.await_fd(st.listen, "r")
      if not st.listen then break end
      local c = sock.accept(st.listen)
      if c then self:connected(st, c) end
    end
  end)
  return st
end

-- on_call(st, call): a model request of the program, as the proxy handled it
function Program:on_call(st, call)
  st.calls = st.calls + 1
  local d = st.decision
  if d then
    d.model_calls = d.model_calls + 1
    if call.refused then d.refused = d.refused + 1 end
    if call.model_asked and call.model and call.model_asked ~= call.model then d.other_model = d.other_model + 1 end
    if call.refused == "budget" then d.budget = call.error or "the run's budget refused the program's model call" end
  end
  local line = { decision = d and d.step, launch = st.launches, wire = call.wire, method = call.method, path = call.path,
    model_asked = call.model_asked, model = call.model, stream = call.stream, status = call.status,
    seconds = call.seconds, refused = call.refused, error = call.error, request = call.request,
    reply = call.reply and { text = call.reply.text, tool_calls = call.reply.tool_calls, usage = call.reply.usage, cost = call.reply.cost } }
  st.journal:write(json.decode(secrets.redact(json.canonical(line))))
end

-- connected(st, fd): the program's MCP server reached the seat: it serves the launch
-- running now (a later connection of the same launch replaces an earlier one)
function Program:connected(st, fd)
  local s = st.session
  -- one connection at a time: a second one while the first is open is refused (closed)
  if not s or s.ended or (s.fd and not s.eof) then sock.close(fd); return end
  close_session(s)
  s.fd, s.input, s.output, s.eof, s.initialized = fd, fd, fd, false, false
  s:start()
end

local function base_env(st)
  local env = { "PATH=" .. (os.getenv("PATH") or "/usr/local/bin:/usr/bin:/bin"), "HOME=" .. st.home,
    "TMPDIR=" .. st.tmp, "LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1" }
  return env
end

-- launch(st, instruction): start the program for this decision
function Program:launch(st, instruction)
  local c = { workspace = st.ws, home = st.home, wire = self.agent.cfg.provider, base_url = st.px.base_url,
    key = st.px.key, model = self.agent.cfg.model, mcp = { command = host.exe or (host.root .. "/tabula"),
    args = { "mcp_seat", st.sock_path } }, prompt = instruction,
    resume = self.spec.session == "native" and st.launches > 0 }
  local prep = self.entry.prepare(c)
  for _, f in ipairs(prep.files or {}) do
    fs.mkdir_p(fs.dirname(f.path))
    local ok, err = fs.write_atomic(f.path, f.text)
    if not ok then error({ infra = true, kind = "program", message = string.format("%s: %s", f.path, tostring(err)) }, 0) end
  end
  local env = base_env(st)
  local names = {}
  for k in pairs(prep.env or {}) do names[#names + 1] = k end
  table.sort(names)
  for _, k in ipairs(names) do env[#env + 1] = k .. "=" .. prep.env[k] end
  -- a known program's argv holds its arguments (its executable is located); a command's is whole
  local argv = prep.argv
  if not self.spec.command then
    local bin, why = self.entry.locate()
    if not bin then
      error({ infra = true, kind = "program", message = string.format("agent program %s (seat %s): %s", self.entry.name, st.key, tostring(why)) }, 0)
    end
    argv = { bin, table.unpack(prep.argv) }
  end
  local p, err = proc.spawn(argv, "null", { owned = true, cwd = st.ws, env = env, log = st.log })
  if not p then
    error({ infra = true, kind = "program", message = string.format("agent program %s (seat %s): %s", self.entry.name, st.key, err) }, 0)
  end
  st.launches = st.launches + 1
  st.proc, st.started = p, loop.now()
  local s = mcp.session({ detached = true, input = -1, output = -1 })
  st.session = s
  local d = st.decision
  d.launches = d.launches + 1
  return p
end

-- exited(st) -> "exit"|"signal", code once the launch's process has ended, else nil
local function exited(st)
  if not st.proc then return "exit", 0 end
  if st.how then return st.how, st.code end
  local done, how, code = st.proc:reap(false)
  if done then st.how, st.code = how, code; return how, code end
  return nil
end

-- kill(st): the launch's process group: SIGTERM, then SIGKILL after 2 s (a program that
-- ignores SIGTERM); reaped
function Program:kill(st)
  local p = st.proc
  if not p or exited(st) then return end
  local pid = p:pid()
  proc.signal(-pid, 15)
  local t = loop.now()
  while not exited(st) and loop.now() - t < 2 do loop.sleep(0.05) end
  if not exited(st) then
    proc.signal(-pid, 9)
    st.killed = "SIGKILL"
    while not exited(st) do loop.sleep(0.02) end
  else
    st.killed = st.killed or "SIGTERM"
  end
  proc.signal(-pid, 9)   -- whatever it left behind in its group
end

local ZERO = { input = 0, cached = 0, cache_write = 0, output = 0, reasoning = 0 }

-- the usage the proxy counted for the seat since the last reply
local function usage_delta(st)
  local u, seen = st.px.usage, st.reported or { cost = 0 }
  local d = {}
  for k in pairs(ZERO) do d[k] = (u[k] or 0) - (seen[k] or 0) end
  local cost = (u.cost or 0) - (seen.cost or 0)
  local now = {}
  for k in pairs(ZERO) do now[k] = u[k] or 0 end
  now.cost = u.cost or 0
  st.reported = now
  return d, cost
end

-- the reply for a decision whose program ended without a call
local function no_call(st, why)
  local u, cost = usage_delta(st)
  st.decision.ended = why
  return { text = "", finish = "stop", usage = u, cost = cost, cached = false, attempts = 1,
    seconds = loop.now() - (st.asked or loop.now()), program_end = why, program = st.decision }
end

-- wait(st, timeout) -> request | nil, reply: the program's next tools/call, or why there is none
function Program:wait(st, s)
  local limit = self.spec.decision_timeout
  while #s.calls == 0 do
    local d = st.decision
    if d.budget then
      self:kill(st)
      return nil, nil, budget.refusal(d.budget)
    end
    local how, code = exited(st)
    if how then
      -- a call it sent just before it ended is still taken (the relay may still be delivering it)
      if #s.calls > 0 then break end
      if not st.ended_seen then st.ended_seen = loop.now() end
      if s.eof or loop.now() - st.ended_seen > 1 then
        return nil, no_call(st, string.format("the program exited without acting (%s %s)", how, tostring(code)))
      end
    end
    if loop.now() - st.started >= limit then
      self:kill(st)
      return nil, no_call(st, string.format("the program's decision limit of %g s passed", limit))
    end
    -- until a call arrives (the session settles s.wake) or CONNECT_POLL passes (to look
    -- at the process, the budget and the limit again)
    local w = loop.future()
    s.wake = w
    local timer = loop.spawn(function()
      loop.sleep(M.CONNECT_POLL)
      if w.state == "pending" then w:set() end
    end)
    w:await()
    loop.cancel(timer)
    if s.wake == w then s.wake = nil end
  end
  local req = table.remove(s.calls, 1)
  return req
end

-- reply(conv, ctx): the program's next tool call in this decision (agent.lua's interface)
function Program:reply(conv, ctx)
  local st = self:open(ctx.key)
  local fresh = true
  for _, m in ipairs(conv) do if m.role == "assistant" then fresh = false end end
  local relaunch = fresh or not st.proc or (exited(st) and #(st.session and st.session.calls or {}) == 0)
  if fresh then
    st.decision = { step = ctx.sample and (ctx.sample % 100000000) // 1000 or nil, launches = 0, tool_calls = 0, model_calls = 0,
      refused = 0, other_model = 0, late_calls = 0 }
    st.ended_seen = nil
  end
  st.asked = loop.now()
  if relaunch then
    if st.proc and not exited(st) then self:kill(st) end
    st.how, st.code, st.killed, st.ended_seen = nil, nil, nil, nil
    local text = ctx.instruction or "Play your seat: call observe, then act with one of your legal action ids."
    if not fresh then
      local last = conv[#conv]
      if last and last.role == "user" and type(last.content) == "string" then text = text .. "\n\n" .. last.content end
    end
    self:launch(st, text)
  end
  local s = st.session
  local failure
  local reply = mcp.reply_on(s, conv, ctx, function(ss)
    local req, instead, refusal = self:wait(st, ss)
    if refusal then failure = refusal; return nil, nil end
    return req, instead
  end)
  if failure then return nil, failure end
  if reply and reply.tool_calls then
    st.decision.tool_calls = st.decision.tool_calls + 1
    local u, cost = usage_delta(st)
    reply.usage, reply.cost, reply.program = u, cost, st.decision
  end
  return reply
end

-- end_decision(ctx, res): the harness has its answer (res.action) or gave up: the call in
-- flight is answered, later calls of this launch are refused (counted), and the program is
-- stopped after its grace period; res.program records the decision's program events, res.usage
-- gains what it spent after its last tool call
function Program:end_decision(ctx, res)
  local st = self.seats[ctx.key]
  if not st or not st.session then return end
  local s, d = st.session, st.decision
  s.closing_text = res.closing or res.action
    and string.format("Played %s. Your decision is over: stop now. You are started again at your next decision.", res.action)
    or string.format("Your decision is over (%s): nothing more is played now. Stop now.", tostring(res.why or res.failure or "no action"))
  s.done = true
  if s.pending then s:result(s.pending.id, mcp.text_result(s.closing_text, not res.action)); s.pending = nil end
  -- calls queued after the one that ended the decision: refused, counted
  for _, req in ipairs(s.calls) do
    d.late_calls = d.late_calls + 1
    s:result(req.id, mcp.text_result(s.closing_text, true))
  end
  s.calls = {}
  local orig_call = s.call
  s.call = function(ss, id, params)   -- a call after the end (e.g. a second act): refused, counted
    if type(params) == "table" and params.name ~= mcp.OBSERVE then d.late_calls = d.late_calls + 1 end
    return orig_call(ss, id, params)
  end
  -- the program has its grace to end by itself (a program makes a last model call to say it
  -- is done), then is stopped; the decision is over when it is gone, so what it spent after
  -- its act is this decision's, and no two launches of a seat overlap
  local grace, t = self.spec.grace, loop.now()
  while not exited(st) and loop.now() - t < grace do loop.sleep(0.02) end
  if not exited(st) then self:kill(st) end
  local how, code = exited(st)
  d.exit = { how = how, code = code, killed = st.killed }
  s.ended = true
  close_session(s)
  local u, cost = usage_delta(st)
  res.usage = res.usage or {}
  for k, v in pairs(u) do res.usage[k] = (res.usage[k] or 0) + v end
  d.trailing_cost = cost
  res.program = d
end

-- end_seat(key): the match is over: stop the seat's program, close its socket and proxy seat
function Program:end_seat(key)
  local st = self.seats[key]
  if not st then return end
  if st.proc and not exited(st) then self:kill(st) end
  if st.session then st.session.ended = true; close_session(st.session) end
  if st.listen then local fd = st.listen; st.listen = nil; sock.close(fd) end
  if st.acceptor then loop.cancel(st.acceptor) end
  os.remove(st.sock_path)
  st.px:close()
  st.journal:close()
  self.seats[key] = nil
end

return M
