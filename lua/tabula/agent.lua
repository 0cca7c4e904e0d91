-- tabula.agent — one interface from scenarios to whatever plays: a model over
-- HTTP (providers/), or a built-in player (players.lua).
--
--   local a = agent.new(cfg, { cache_dir = run .. "/cache", no_cache = false })
--   local reply, err = a:reply(conversation, ctx)
--   reply = { text, reasoning, finish, usage = {input, cached, cache_write, output, reasoning}, cost,
--             cached (replayed from the cache), attempts, seconds, turn }
--   conversation[#conversation + 1] = agent.assistant(reply)   -- the text and the provider's turn
--
-- turn: the provider-native assistant turn (OpenAI reasoning items with their
-- encrypted content, Anthropic thinking blocks with their signatures, Gemini
-- parts with thought signatures), opaque to scenarios, sent back unchanged in
-- the later requests of the conversation (and replayed from the cache alike).
-- Settings are fitted to the model's family (tabula.model_settings): opts.explicit
-- names the options the user set (a refused one is an error); opts.prompt_cache
-- false turns off prompt-cache breakpoints. usage.input counts every input
-- token, cached reads and cache writes included; cached and cache_write are
-- the parts read from and written to the provider's prompt cache.
--   err   = { infra = true, kind = "http"|"transport"|"malformed"|"budget", status, message }
--
-- conversation: list of { role = "system"|"user"|"assistant", content = text | parts },
-- a part { type = "text", text } or { type = "image", data = PNG bytes, mime, detail }.
-- ctx (for built-in players): legal_actions, policy, format, sample (the sample index).
-- ctx.tools: the tools the model may call (tabula.tools: name, description, JSON
-- schema), sent natively by each provider; reply.tool_calls then lists the
-- calls ({ id, name, arguments, raw }), and the conversation holds them as an
-- assistant message with tool_calls followed by { role = "tool", call_id,
-- name, content } results (tabula.tools, which states the rule for several calls).
-- Provider "mcp" (only under tabula mcp): an agent program over the Model Context
-- Protocol; its next tools/call is the reply (tabula.mcp). opts.program (a
-- participant's harness "program"): an agent program launched by tabula plays for
-- this model, its next tools/call the reply, its model calls through the metering
-- proxy (tabula.program).
--
-- Retries: 429, 5xx, transport failures, malformed bodies and cut streams are
-- retried with exponential backoff and jitter (Retry-After honoured) within
-- max_attempts and a total time budget (time_budget, also enforced while a
-- reply streams in); a reply larger than max_reply_bytes fails at once. A
-- failure is an infrastructure error: the runner re-queues it, it is never a
-- loss. 400/401/403/404 are configuration errors (err.config: bad key, no
-- permission, unknown model, invalid request): they fail at once, every later
-- call of that model fails the same way without a request, and the runner
-- stops the run; so do a refused connection, DNS and TLS failures (UNREACHABLE)
-- before any request of that model reached its server (later they are transient). Keys echoed by a server are redacted from every message.
local http = require "tabula.http"
local json = require "tabula.json"
local fs = require "tabula.fs"
local loop = require "tabula.loop"
local models = require "tabula.models"
local secrets = require "tabula.secrets"
local budget = require "tabula.budget"
local model_settings = require "tabula.model_settings"

local M = {}

-- what this process's model calls have cost so far (calls answered by a server,
-- not replays from the cache): the run-wide budgets read it
M.spent = { calls = 0, input = 0, output = 0, cost = 0 }

-- spend(reply): add a server's answer to M.spent
local function spend(reply)
  local u = reply.usage or {}
  local s = M.spent
  s.calls = s.calls + 1
  s.input = s.input + (u.input or 0)
  s.output = s.output + (u.output or 0)
  s.cost = s.cost + (reply.cost or 0)
end
M.spend = spend   -- tabula.batch spends the replies of a batch

local PROVIDERS = {
  openai = "tabula.providers.responses",          -- the OpenAI service: the Responses API
  ["openai-chat"] = "tabula.providers.openai",    -- Chat Completions: compatible servers
  anthropic = "tabula.providers.anthropic",
  gemini = "tabula.providers.gemini",
}

local Agent = {}
Agent.__index = Agent

-- announce(cfg, adjusted, notes, opts): the one line at the start of a run
-- (once per process and model)
local announced = {}
local function announce(cfg, adjusted, notes, opts)
  if opts.quiet_settings or model_settings.quiet then return end
  for _, line in ipairs(notes or {}) do
    if not announced[line] then announced[line] = true; io.stderr:write("note: ", line, "\n") end
  end
  if #adjusted == 0 then return end
  local line = model_settings.line(cfg, adjusted)
  if announced[line] then return end
  announced[line] = true
  io.stderr:write(line, "\n")
end

-- the turns an agent was answered, remembered by the conversation they answered
-- (a digest of its messages) and their text, so that a scenario appending the
-- text alone still sends the provider's reasoning back
local MAX_TURNS = 4096

local function message_digest(m)
  local c = m.content
  local calls = ""
  for _, tc in ipairs(m.tool_calls or {}) do calls = calls .. "\0" .. tostring(tc.id) .. "\0" .. tostring(tc.raw) end
  if m.call_id then calls = calls .. "\0" .. tostring(m.call_id) end
  if type(c) ~= "table" then return m.role .. "\0" .. tostring(c) .. calls end
  local out = { m.role }
  for _, p in ipairs(c) do out[#out + 1] = p.type == "image" and fs.sha256(p.data or "") or tostring(p.text) end
  return table.concat(out, "\0") .. calls
end

-- digests(conversation) -> d with d[i] the digest of messages 1..i (d[0] = "")
local function digests(conversation)
  local d, h = { [0] = "" }, ""
  for i, m in ipairs(conversation) do
    h = fs.sha256(h .. "\1" .. message_digest(m))
    d[i] = h
  end
  return d
end

function Agent:remember(conversation, reply)
  if not reply.turn then return end
  local key = digests(conversation)[#conversation] .. "\0" .. tostring(reply.text)
  if not self.turns[key] then
    self.turn_order[#self.turn_order + 1] = key
    if #self.turn_order > MAX_TURNS then self.turns[table.remove(self.turn_order, 1)] = nil end
  end
  self.turns[key] = reply.turn
end

-- with_turns(conversation) -> the conversation with each assistant message of
-- this agent's replies carrying its turn
function Agent:with_turns(conversation)
  if not self.provider.carries or #self.turn_order == 0 then return conversation end
  local d, out, changed = nil, {}, false
  for i, m in ipairs(conversation) do
    out[i] = m
    if m.role == "assistant" and m.turn == nil and type(m.content) == "string" then
      d = d or digests(conversation)
      local turn = self.turns[d[i - 1] .. "\0" .. m.content]
      if turn then out[i] = { role = m.role, content = m.content, turn = turn }; changed = true end
    end
  end
  return changed and out or conversation
end

-- per-model limits shared by every agent of the same model (name and server)
local limits = {}

local function limiter(cfg, opts)
  local id = cfg.name .. " " .. tostring(cfg.base_url)
  local l = limits[id]
  if not l then
    l = { in_flight = 0, max = cfg.max_in_flight or opts.max_in_flight or 64, rpm = cfg.rpm, sent = {}, waiting = {} }
    limits[id] = l
  end
  return l
end

local function acquire(l)
  while l.in_flight >= l.max do
    local f = loop.future()
    l.waiting[#l.waiting + 1] = f
    f:await()
  end
  l.in_flight = l.in_flight + 1
  if l.rpm then
    -- at most rpm requests in any 60 s window
    while #l.sent >= l.rpm do
      local oldest = l.sent[1]
      local wait = oldest + 60 - loop.now()
      if wait <= 0 then table.remove(l.sent, 1) else loop.sleep(wait) end
    end
    l.sent[#l.sent + 1] = loop.now()
  end
end

local function release(l)
  l.in_flight = l.in_flight - 1
  local f = table.remove(l.waiting, 1)
  if f then f:set() end
end

function M.new(cfg, opts)
  opts = opts or {}
  local a = setmetatable({ cfg = cfg, opts = opts }, Agent)
  if cfg.provider == "builtin" then
    a.player = require("tabula.players").new(cfg, opts)
  elseif cfg.provider == "mcp" then   -- an agent program over MCP (tabula mcp): its tool calls are the replies
    a.remote = require("tabula.mcp").remote(cfg)
  else
    local mod = PROVIDERS[cfg.provider]
    if not mod then error("unknown provider " .. tostring(cfg.provider)) end
    a.provider = require(mod)
    local asked = {}
    for k, v in pairs(cfg.settings or {}) do asked[k] = v end
    for k, v in pairs(opts.settings or {}) do asked[k] = v end
    -- what the model accepts (tabula.capabilities): refused defaults adjusted
    -- and recorded, a refused explicit option an error before any call
    a.asked = asked
    a:fit(opts.explicit)
    a.turns, a.turn_order = {}, {}
    -- an agent program plays for this model (a harness "program"): its calls come to us
    -- through the metering proxy (tabula.program, tabula.proxy)
    if opts.program then a.program = require("tabula.program").new(a, opts.program, opts) end
  end
  return a
end

-- end_decision(ctx, res), end_seat(key): an agent program's decision, or its seat in a
-- match, is over (tabula.program); nothing for other agents
function Agent:end_decision(ctx, res) if self.program then self.program:end_decision(ctx, res) end end
function Agent:end_seat(key) if self.program then self.program:end_seat(key) end end

-- fit(explicit): the settings sent, fitted to the model's family (tabula.model_settings)
function Agent:fit(explicit)
  local cfg, opts, notes = self.cfg, self.opts, nil
  self.settings, self.adjusted, notes, self.family = model_settings.fit(cfg, self.asked, explicit)
  self.settings.prompt_cache = opts.prompt_cache ~= false or nil
  if self.settings.prompt_cache and opts.cache_dir then
    self.settings.prompt_cache_key = "tabula-" .. fs.sha256(cfg.name .. "\0" .. opts.cache_dir):sub(1, 16)
  end
  announce(cfg, self.adjusted, notes, opts)
end

-- adjust(settings): a scenario's own settings over the run's (TsuGO's robustness
-- protocol: temperature 0), fitted to the model like the others; a setting the
-- model refuses is adjusted and recorded, never an error (the scenario chose it)
function Agent:adjust(over)
  if not self.provider then return end
  local explicit = {}
  for k in pairs(self.opts.explicit or {}) do explicit[k] = true end
  for k, v in pairs(over) do
    self.asked[k] = v
    explicit[model_settings.OPTION[k] or k] = nil
  end
  self:fit(explicit)
end

-- assistant(reply) -> the assistant message to append to a conversation: the
-- reply's text and its provider-native turn (reasoning items, signed thinking
-- blocks, thought signatures), sent back unchanged in the next request. (A
-- plain { role = "assistant", content = reply.text } of this agent's reply gets
-- its turn back too: the agent remembers the turns it was answered.)
function M.assistant(reply)
  return { role = "assistant", content = reply.text, turn = reply.turn, tool_calls = reply.tool_calls }
end

function Agent:is_builtin() return self.player ~= nil end

-- describe() -> for run.json: provider, model, base URL, settings, prices, key variable name
function Agent:describe()
  local d = models.public(self.cfg)
  d.batch = nil   -- how its calls are sent (tabula.batch), not which model: a run may be continued with or without
  -- the prompt cache key is a routing hint named after the run directory: not part of
  -- the run's identity (shards of one run, each in its own directory, must agree)
  d.settings = {}
  for k, v in pairs(self.settings or {}) do if k ~= "prompt_cache_key" then d.settings[k] = v end end
  if self.provider then
    d.family = self.family and self.family.name
    d.settings_adjusted = self.adjusted
  end
  if self.provider then d.seed_honoured = self.settings and self.settings.seed ~= nil and self.provider.honours_seed or nil end
  return d
end

local function infra(kind, message, status)
  return { infra = true, kind = kind, message = secrets.redact(message), status = status }
end

-- the server's own words from an error body (JSON or not), shortened
local function server_said(provider, body)
  local d = json.decode(body)
  local said = type(d) == "table" and provider.error_message(d)
  if not said and type(d) == "table" and d.error ~= nil then said = json.canonical(d.error) end
  said = said or body
  if #said > 500 then said = said:sub(1, 500) .. "..." end
  return said
end

M.MAX_REPLY_BYTES = 8 * 1024 * 1024

-- parse "data:" events out of an SSE byte stream
local function sse_reader(on_event)
  local buf, event = "", nil
  return function(chunk)
    buf = buf .. chunk
    while true do
      local nl = buf:find("\n", 1, true)
      if not nl then break end
      local line = buf:sub(1, nl - 1):gsub("\r$", "")
      buf = buf:sub(nl + 1)
      if line == "" then event = nil
      elseif line:sub(1, 6) == "event:" then event = line:sub(7):gsub("^%s+", "")
      elseif line:sub(1, 5) == "data:" then on_event(event, (line:sub(6):gsub("^ ", ""))) end
    end
  end
end
M.sse_reader = sse_reader   -- the metering proxy reads the streams it passes on so (tabula.proxy)

-- the request headers and the base URL, the same for every call of this agent
-- (the key is read from the environment once)
function Agent:endpoint()
  if not self.headers then
    local headers = { "Content-Type: application/json" }
    for _, h in ipairs(self.provider.auth_headers(models.key(self.cfg))) do headers[#headers + 1] = h end
    self.headers, self.base = headers, (self.cfg.base_url:gsub("/+$", ""))
  end
  return self.headers, self.base
end

-- libcurl's codes for a server that cannot be reached at all: proxy or host
-- not resolved, connection refused, TLS handshake or certificate failures
M.UNREACHABLE = { [5] = true, [6] = true, [7] = true, [35] = true, [51] = true, [58] = true, [59] = true,
  [60] = true, [77] = true, [83] = true, [90] = true, [91] = true }

-- what a failure message starts with
local function where(cfg, url) return string.format("model %s at %s", cfg.name, url) end

-- one HTTP attempt -> reply | nil, err (err.retry = true when worth retrying)
function Agent:attempt(req, stream, deadline)
  deadline = deadline or math.huge
  local cfg = self.cfg
  local headers, base = self:endpoint()
  local url = base .. req.path
  local acc = stream and self.provider.stream()
  local stream_error
  local raw, raw_len = stream and {}, 0   -- the first bytes of a stream: the body of an HTTP error
  local sse = stream and sse_reader(function(ev, data)
    local ok, e = pcall(acc.event, acc, ev, data)
    if not ok and not stream_error then stream_error = type(e) == "table" and e.stream_error or tostring(e) end
  end)
  local max_bytes = self.opts.max_reply_bytes or M.MAX_REPLY_BYTES
  local res, code, msg = http.request({
    method = "POST", url = url, headers = headers, body = json.canonical(req.body),
    connect_timeout = self.opts.connect_timeout or 20,
    -- the whole request: the request timeout, and never past the call's deadline
    timeout = math.max(0.001, math.min((not stream) and (self.opts.timeout or 600) or 1e9, deadline - loop.now())),
    idle_timeout = stream and (self.opts.idle_timeout or 300) or nil,
    max_bytes = max_bytes,
    on_chunk = stream and function(data)
      if raw_len < 65536 then raw[#raw + 1] = data; raw_len = raw_len + #data end
      sse(data)
    end or nil,
  })
  if not res then
    if code == "too_large" then
      return nil, infra("too_large", string.format("%s: the reply is larger than %d bytes (--max-reply-bytes)", where(cfg, url), max_bytes))
    end
    local e = infra("transport", string.format("%s: transport error %s: %s", where(cfg, url), tostring(code), tostring(msg)))
    e.retry = true
    e.timed_out = code == 28
    -- no server reached yet at this URL (refused, DNS, TLS): a configuration error, like a 401
    if M.UNREACHABLE[code] and not (self.limit or {}).reached then e.config, e.retry = true, false end
    return nil, e
  end
  if self.limit then self.limit.reached = true end
  if res.status ~= 200 then
    local said = server_said(self.provider, stream and table.concat(raw) or res.body)
    local e = infra("http", string.format("%s: HTTP %d: %s%s", where(cfg, url), res.status, said,
      res.status == 400 and model_settings.hint(said) or ""), res.status)
    e.retry = res.status == 429 or res.status == 408 or res.status >= 500
    e.config = res.status == 400 or res.status == 401 or res.status == 403 or res.status == 404
    e.retry_after = tonumber(res.headers["retry-after"])
    return nil, e
  end
  local reply, why
  if stream then
    if stream_error then why = stream_error else reply, why = acc:finish() end
  else
    local d, err = json.decode(res.body)
    if not d then why = "the reply is not JSON: " .. err
    elseif type(d) ~= "table" then why = "the reply is not a JSON object"
    elseif d.error ~= nil and d.error ~= json.null then why = "the server answered with an error: " .. server_said(self.provider, res.body)
    else
      local ok, r, w = pcall(self.provider.parse, d)      -- a reply of an unexpected shape is malformed
      if ok then reply, why = r, w else reply, why = nil, "the reply has an unexpected shape: " .. tostring(r) end
    end
  end
  if not reply then
    local e = infra("malformed", string.format("%s: %s", where(cfg, url), why))
    e.retry = true
    return nil, e
  end
  reply.seconds = res.seconds
  return reply
end

-- store(path, reply): write a reply to the cache; a failure (a full disk) is
-- reported once per run, and the call will be paid again on resume
local cache_failure_shown = false
function Agent:store(cpath, reply)
  local stored = {}
  for k, v in pairs(reply) do stored[k] = v end
  stored.cached = nil
  local ok, err = fs.mkdir_p(fs.dirname(cpath))
  if ok then ok, err = fs.write_atomic(cpath, secrets.redact(json.canonical(stored))) end
  if not ok and not cache_failure_shown then
    cache_failure_shown = true
    io.stderr:write(string.format("warning: the response cache cannot be written (%s); replies are not cached, so a resumed run pays for them again (reported once)\n", err))
  end
end

function Agent:cache_path(key)
  local dir = self.opts.cache_dir
  if not dir or self.opts.no_cache then return nil end
  return fs.join(dir, key:sub(1, 2), key .. ".json")
end

-- the body as the response cache keys it: without fields that name the run
-- rather than the request (OpenAI's prompt_cache_key)
local function hashed_body(req)
  if not req.unhashed then return req.body end
  local b = {}
  for k, v in pairs(req.body) do b[k] = v end
  for _, k in ipairs(req.unhashed) do b[k] = nil end
  return b
end

-- reply(conversation, ctx) -> reply | nil, err
function Agent:reply(conversation, ctx)
  ctx = ctx or {}
  if self.player then return self.player:reply(conversation, ctx) end
  if self.remote then return self.remote:reply(conversation, ctx) end
  if self.program then return self.program:reply(conversation, ctx) end
  local stream = self.opts.stream and not self.opts.batch   -- a batch takes no streaming request
  local req = self.provider.request(self.cfg, self:with_turns(conversation), self.settings, stream, ctx.tools)
  -- the cache key: provider, path, model, messages and settings (never a key), plus the sample index
  -- (computed only when the cache is on: hashing the whole request costs)
  local cpath = self.opts.cache_dir and not self.opts.no_cache and self:cache_path(fs.sha256(json.canonical({
    provider = self.cfg.provider, base = self.cfg.base_url, path = req.path, body = hashed_body(req),
    sample = ctx.sample or 0,
  })))
  if cpath then
    local text = fs.read(cpath)
    local hit = text and json.decode(text)
    if hit then hit.cached = true; hit.cost = 0; self:remember(conversation, hit); return hit end
  end
  local l = self.limit or limiter(self.cfg, self.opts)
  self.limit = l
  if l.config_error then return nil, l.config_error end   -- no request: it would fail the same way
  if self.opts.batch and cpath then   -- through the provider's batch API (tabula.batch): priced, settled and cached there
    local reply, err = self.opts.batch:call(self, req, cpath)
    if reply then self:remember(conversation, reply) elseif err and err.config then l.config_error = err end
    return reply, err
  end
  local ticket <close>, refused = budget.reserve(self.cfg, req.body)   -- the run-wide budgets: worst case first
  if not ticket then return nil, refused end
  local max_attempts = self.opts.max_attempts or 6
  local budget = self.opts.time_budget or 1800
  local started = loop.now()
  local deadline = started + budget
  local last
  for attempt = 1, max_attempts do
    acquire(l)
    local ok, reply, err = pcall(self.attempt, self, req, stream, deadline)
    release(l)
    if not ok then error(reply, 0) end
    if reply then
      reply.attempts = attempt
      reply.cost = models.cost(self.cfg.prices, reply.usage)
      spend(reply)
      ticket:settle(reply)
      if cpath then self:store(cpath, reply) end
      reply.cached = false
      self:remember(conversation, reply)
      return reply
    end
    last = err
    if err.config then l.config_error = l.config_error or err end
    if err.timed_out and loop.now() >= deadline - 0.01 then
      last.message = last.message .. string.format(" (the call's deadline of %gs passed)", budget)
      break
    end
    if not err.retry then break end
    if attempt < max_attempts then
      local base = self.opts.backoff or 1
      local wait = math.min(base * 2 ^ (attempt - 1), 60) * (0.5 + math.random())   -- jitter
      if err.retry_after then wait = math.max(wait, err.retry_after) end
      if loop.now() - started + wait > budget then
        last.message = last.message .. string.format(" (the call's deadline of %gs would pass before the next attempt)", budget)
        last.kind_detail = "budget"
        break
      end
      loop.sleep(wait)
    end
  end
  last.attempts = max_attempts
  last.retry = nil
  return nil, last
end

return M
