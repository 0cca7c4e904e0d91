-- tabula.proxy — the metering proxy between an agent program and its model.
-- The program is given a seat key of its own (never the user's key) and the
-- proxy's URL as its model endpoint; every request it makes is checked
-- (its seat, its wire format, its model, the budgets), forwarded to the
-- participant's configured server with the key from the environment, metered
-- with the provider adapter's own reading of the usage, and reported.
--
--   local proxy = require "tabula.proxy"
--   local px = proxy.start()        -- the process's one proxy (loopback, a free port): px.port
--   local seat = px:seat{
--     agent = A,                    -- tabula.agent of the participant's model (cfg.provider: "openai"
--                                   -- = Responses, "openai-chat", "anthropic" or "gemini")
--     label = "seat 2 of match X",  -- for messages
--     model_policy = "refuse",      -- or "rewrite": a request naming another model
--     on_call = function(call) end, -- after every request the program made
--   }
--   seat.key        the program's API key (a fresh random token)
--   seat.base_url   the program's base URL, as the provider's official SDK takes it:
--                   http://127.0.0.1:PORT/v1 for "openai" and "openai-chat" (the
--                   OpenAI SDKs append /responses, /chat/completions), and
--                   http://127.0.0.1:PORT for "anthropic" and "gemini" (their SDKs
--                   append /v1/messages and /v1beta/models/...)
--   seat.api_url    the same with the version always included (.../v1, .../v1, .../v1beta),
--                   for programs configured with a versioned URL; the proxy takes
--                   each path with or without the version
--   seat.usage      { calls, input, cached, cache_write, output, reasoning, cost } so far
--   seat:close()    later requests with its key get 401
--   px:close()      stop listening (a later proxy.start() makes a new one)
--
-- The seat is known by the key the program sends (Authorization: Bearer,
-- x-api-key, x-goog-api-key, or ?key=); an unknown or closed key gets 401 in
-- the provider's error form. The program must speak cfg.provider's wire
-- format: a model request on another format's path is refused (404) and
-- recorded. Endpoints answered here: the models list (the participant's model
-- only) and one model's entry, Anthropic's count_tokens and Gemini's
-- countTokens (an estimate: body bytes / budget.BYTES_PER_TOKEN, no request
-- upstream); anything else is 404, recorded.
--
-- A model request: its model checked (model_policy: refused with 404
-- model-not-found, or rewritten to the participant's model; recorded either
-- way); a reservation taken from the run's budgets (budget.reserve: a refused
-- call is answered with M.BUDGET_STATUS, 400, in the provider's error form and
-- "x-should-retry: false": no SDK or agent program retries a 400, so a
-- program past its budget stops at once instead of retrying into its
-- decision limit); forwarded with the agent's endpoint headers (the key from
-- the environment) to cfg.base_url and the adapter's path, streamed or not
-- (SSE passed through line by line as it arrives); the usage read with the
-- adapter (parse, or its stream accumulator), priced with models.cost, spent
-- (agent.spend) and settled on the ticket; then on_call(call):
--   { seat = label, wire, method, path (without its query), model_asked, model, stream, status,
--     request = the body as forwarded (a table) or nil, reply = { text, tool_calls, usage, cost } or nil,
--     error = message or nil, refused = "wire" | "model" | "budget" | "endpoint" or nil,
--     rewritten = true when the model was rewritten, seconds }
-- on_call runs before the end of the reply is sent (a whole reply, or a
-- stream's last bytes), so the call is counted before the program can act on
-- it. A program that disconnects mid-stream does not stop the upstream
-- call: it is read to its end, counted, and recorded with error "the program
-- disconnected ...". A request with an unknown key belongs to no seat and is
-- not reported. The program's anthropic-beta and openai-beta headers are
-- passed on; no other header of the program is. A seat whose model's key is
-- not set (and not optional) is an error at px:seat. Not applied here: the
-- model's max_in_flight and rpm limits (agent.lua's limiter).
-- Upstream failures are the program's to handle, as with the real service:
-- an HTTP error goes back with its status and body, a transport failure as
-- 502 (504 on a timeout) in the provider's error form; the proxy never
-- retries. A reply that cannot be read (a cut stream, a malformed body)
-- reaches the program as it came, is recorded with error and is not spent
-- (its reservation released), like agent.lua's failed attempts.
-- The user's key is replaced in everything the program receives and
-- secrets.redact/scrub is applied to every error message and to on_call's
-- data.
local httpd = require "tabula.httpd"
local http = require "tabula.http"
local json = require "tabula.json"
local loop = require "tabula.loop"
local models = require "tabula.models"
local secrets = require "tabula.secrets"
local budget = require "tabula.budget"

local M = {}

M.BUDGET_STATUS = 400
M.WIRES = { openai = true, ["openai-chat"] = true, anthropic = true, gemini = true }

-- the adapter's path of a model request, by wire format (Gemini's names the model)
local UPSTREAM_PATH = { openai = "/responses", ["openai-chat"] = "/chat/completions", anthropic = "/messages" }

local function is_gemini_model_path(p)
  return p:match("^/models/[^/:]+:generateContent$") or p:match("^/models/[^/:]+:streamGenerateContent$")
end

-- which wire format a path belongs to (nil: none of the four)
local function wire_of_path(p)
  if p == "/responses" then return "openai" end
  if p == "/chat/completions" then return "openai-chat" end
  if p == "/messages" then return "anthropic" end
  if is_gemini_model_path(p) then return "gemini" end
  return nil
end

-- ---- the provider's error forms ----

local ANTHROPIC_TYPE = { [400] = "invalid_request_error", [401] = "authentication_error", [403] = "permission_error",
  [404] = "not_found_error", [413] = "request_too_large", [429] = "rate_limit_error", [529] = "overloaded_error" }
local GEMINI_STATUS = { [400] = "INVALID_ARGUMENT", [401] = "UNAUTHENTICATED", [403] = "PERMISSION_DENIED",
  [404] = "NOT_FOUND", [429] = "RESOURCE_EXHAUSTED", [500] = "INTERNAL", [502] = "UNAVAILABLE", [503] = "UNAVAILABLE",
  [504] = "DEADLINE_EXCEEDED" }

-- error_body(wire, status, message [, code]) -> JSON text in the wire format's
-- error form (OpenAI's error.code; Gemini's status name when in capitals)
function M.error_body(wire, status, message, code)
  message = secrets.redact(message)
  if wire == "anthropic" then
    return json.canonical({ type = "error", error = { type = ANTHROPIC_TYPE[status] or (status >= 500 and "api_error" or "invalid_request_error"), message = message } })
  elseif wire == "gemini" then   -- code, when given in capitals, is Gemini's status name
    local name = code and code:match("^%u[%u_]+$") or GEMINI_STATUS[status] or (status >= 500 and "INTERNAL" or "FAILED_PRECONDITION")
    return json.canonical({ error = { code = status, message = message, status = name } })
  end
  local typ = status >= 500 and "server_error" or status == 429 and "rate_limit_exceeded" or "invalid_request_error"
  return json.canonical({ error = { message = message, type = typ, param = json.null, code = code or json.null } })
end

-- ---- helpers ----

-- url_decode(s [, form]) -> s with %XX decoded (and "+" as a space in a query: form)
local function url_decode(s, form)
  if form then s = s:gsub("%+", " ") end
  return (s:gsub("%%(%x%x)", function(h) return string.char(tonumber(h, 16)) end))
end

local function query_params(q)
  local out = {}
  for pair in (q or ""):gmatch("[^&]+") do
    local k, v = pair:match("^([^=]*)=?(.*)$")
    out[url_decode(k, true)] = url_decode(v, true)
  end
  return out
end

-- key_of(req) -> the key the program sent, and the wire format its header suggests
local function key_of(req)
  local h = req.headers
  local bearer = h["authorization"] and h["authorization"]:match("^[Bb]earer%s+(%S+)")
  if bearer then return bearer, nil end
  if h["x-api-key"] then return h["x-api-key"], "anthropic" end
  if h["x-goog-api-key"] then return h["x-goog-api-key"], "gemini" end
  local q = query_params(req.query)
  if q.key then return q.key, "gemini" end
  return nil
end

-- strip the version prefix an SDK adds: /v1, /v1beta, /v1alpha
local function unversioned(path)
  return path:match("^/v%d+%a*(/.*)$") or path
end

local function random_token()
  local f = io.open("/dev/urandom", "rb")
  local bytes = f and f:read(24)
  if f then f:close() end
  if not bytes or #bytes < 24 then error("proxy: cannot read /dev/urandom for a seat key") end
  return (bytes:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

-- an SSE reader: on_event(event, data) for each data line (agent.lua's)
local sse_reader = require("tabula.agent").sse_reader

local function replace_plain(text, needle, by)
  if not needle or #needle == 0 then return text end
  return secrets.replace_plain(text, needle, by)
end


-- ---- seats ----

local Seat = {}
Seat.__index = Seat

function Seat:close()
  if self.closed then return end
  self.closed = true
  if self.proxy.seats[self.key] == self then self.proxy.seats[self.key] = nil end
end

-- the text the program receives: the user's key never in it
function Seat:clean(text)
  return replace_plain(text, self.user_key, "[redacted]")
end

function Seat:report(call)
  local c = secrets.scrub(call)
  c.seat = self.label
  if self.on_call then
    local ok, err = pcall(self.on_call, c)
    if not ok then io.stderr:write("proxy: on_call of ", tostring(self.label), " failed: ", secrets.redact(tostring(err)), "\n") end
  end
end

local function send_json(res, status, text, extra)
  local h = { ["Content-Type"] = "application/json" }
  for k, v in pairs(extra or {}) do h[k] = v end
  res:status(status, h)
  res:finish(text)
end

-- ---- the proxy ----

local Proxy = {}
Proxy.__index = Proxy

local the_proxy

-- start([opts]) -> the process's proxy (made on first use; later calls return
-- it, whatever their opts); opts.host (127.0.0.1), opts.port (0: a free port),
-- opts.max_body (httpd.MAX_BODY). Must be called inside a loop task.
function M.start(opts)
  if the_proxy and not the_proxy.closed then return the_proxy end
  local px = setmetatable({ seats = {} }, Proxy)
  local server, err = httpd.serve({ host = (opts or {}).host or "127.0.0.1", port = (opts or {}).port or 0,
    max_body = (opts or {}).max_body,
    on_error = function(err) io.stderr:write("proxy: a request failed: ", secrets.redact(tostring(err)), "\n") end,
  }, function(req, res) return px:handle(req, res) end)
  if not server then error("proxy: " .. err) end
  px.server, px.port, px.host = server, server.port, server.host
  px.url = "http://" .. px.host .. ":" .. px.port
  the_proxy = px
  return px
end

function Proxy:close()
  if self.closed then return end
  self.closed = true
  for _, s in pairs(self.seats) do s.closed = true end
  self.seats = {}
  self.server:close()
  if the_proxy == self then the_proxy = nil end
end

-- seat{ agent, label, model_policy, on_call } -> seat
function Proxy:seat(o)
  local a = o.agent
  if type(a) ~= "table" or type(a.cfg) ~= "table" or not M.WIRES[a.cfg.provider] or not a.provider then
    error("proxy: a seat needs the agent of a model served over HTTP (provider openai, openai-chat, anthropic or gemini)", 2)
  end
  local policy = o.model_policy or "refuse"
  if policy ~= "refuse" and policy ~= "rewrite" then error("proxy: model_policy is \"refuse\" or \"rewrite\"", 2) end
  local cfg = a.cfg
  if cfg.key_env and not cfg.optional_key and not models.key(cfg) then
    error(string.format("proxy: %s: the key of model %s is not set (export %s)", o.label or "a seat", tostring(cfg.name), cfg.key_env), 2)
  end
  local key
  repeat key = "tabula-seat-" .. random_token() until not self.seats[key]
  local wire = cfg.provider
  local root = self.url
  local seat = setmetatable({
    proxy = self, agent = a, cfg = cfg, wire = wire, label = o.label or ("seat " .. cfg.name), policy = policy,
    on_call = o.on_call, key = key,
    model = (tostring(cfg.model):gsub("^models/", "")),
    base_url = (wire == "openai" or wire == "openai-chat") and root .. "/v1" or root,
    api_url = root .. (wire == "gemini" and "/v1beta" or "/v1"),
    usage = { calls = 0, input = 0, cached = 0, cache_write = 0, output = 0, reasoning = 0, cost = 0 },
    adapter = a.provider,   -- the provider adapter (tabula.providers.*) the agent uses
    user_key = models.key(cfg),
  }, Seat)
  self.seats[key] = seat
  return seat
end

-- the models list and one model's entry, in the wire's form
local function model_entry(wire, id)
  if wire == "anthropic" then
    return { type = "model", id = id, display_name = id, created_at = "1970-01-01T00:00:00Z" }
  elseif wire == "gemini" then
    return { name = "models/" .. id, baseModelId = id, version = "001", displayName = id,
      description = "the participant's model, through tabula's proxy",
      inputTokenLimit = 1048576, outputTokenLimit = 65536,
      supportedGenerationMethods = json.array({ "generateContent", "streamGenerateContent", "countTokens" }) }
  end
  return { id = id, object = "model", created = 0, owned_by = "tabula" }
end

local function models_list(wire, id)
  local e = model_entry(wire, id)
  if wire == "anthropic" then return { data = json.array({ e }), has_more = false, first_id = id, last_id = id } end
  if wire == "gemini" then return { models = json.array({ e }) } end
  return { object = "list", data = json.array({ e }) }
end

function Proxy:handle(req, res)
  local started = loop.now()
  local path = unversioned(req.path)
  local key, hinted = key_of(req)
  local seat = key and self.seats[key]
  if not seat then
    local wire = hinted or wire_of_path(path) or (path:find(":", 1, true) and "gemini") or "openai"
    local status = 401
    send_json(res, status, M.error_body(wire, status, key and "tabula proxy: this API key is not (or no longer) valid"
      or "tabula proxy: no API key in the request", wire ~= "gemini" and wire ~= "anthropic" and "invalid_api_key" or nil))
    return
  end
  local call = { wire = seat.wire, method = req.method, path = req.path, stream = false }
  local function done(status, extra)
    call.status = status
    for k, v in pairs(extra or {}) do call[k] = v end
    call.seconds = loop.now() - started
    seat:report(call)
  end
  local function refuse(status, why, message, code, headers)
    done(status, { refused = why, error = message })
    send_json(res, status, M.error_body(seat.wire, status, message, code), headers)
  end
  local wire = seat.wire
  -- the models list, one model's entry
  if req.method == "GET" and path == "/models" then
    done(200)
    return send_json(res, 200, json.canonical(models_list(wire, seat.model)))
  end
  local asked_entry = req.method == "GET" and path:match("^/models/([^/:]+)$")
  if asked_entry then
    asked_entry = url_decode(asked_entry)
    if asked_entry == seat.model then
      done(200, { model_asked = asked_entry, model = seat.model })
      return send_json(res, 200, json.canonical(model_entry(wire, seat.model)))
    end
    call.model_asked = asked_entry
    return refuse(404, "model", string.format("the model %s does not exist or is not available to %s (its model is %s)",
      asked_entry, seat.label, seat.model), "model_not_found")
  end
  -- token counts: estimated here
  local counting = (wire == "anthropic" and path == "/messages/count_tokens")
    or (wire == "gemini" and path:match("^/models/[^/:]+:countTokens$"))
  if req.method == "POST" and counting then
    local body = json.decode(req.body)
    if type(body) ~= "table" then return refuse(400, nil, "the request body is not a JSON object") end
    local n = budget.worst(seat.cfg, body)
    done(200)
    return send_json(res, 200, json.canonical(wire == "anthropic" and { input_tokens = n } or { totalTokens = n }))
  end
  local other = wire_of_path(path)
  if other and other ~= wire then
    return refuse(404, "wire", string.format("%s speaks the %s wire format; %s is an endpoint of %s (tabula does not translate between formats)",
      seat.label, wire, req.path, other))
  end
  if not (req.method == "POST" and other == wire) then
    return refuse(404, "endpoint", string.format("tabula proxy: no endpoint %s %s for %s", req.method, req.path, seat.label))
  end
  return self:model_call(seat, req, res, path, call, done, refuse)
end

-- model_call: one model request of a seat's program
function Proxy:model_call(seat, req, res, path, call, done, refuse)
  local cfg, wire = seat.cfg, seat.wire
  local body = json.decode(req.body)
  if type(body) ~= "table" then return refuse(400, nil, "the request body is not a JSON object") end
  local asked, method
  if wire == "gemini" then
    asked, method = path:match("^/models/([^/:]+):(%a+)$")
    asked = url_decode(asked)
  else
    asked = type(body.model) == "string" and body.model or nil
  end
  local stream = (wire == "gemini" and method == "streamGenerateContent") or (wire ~= "gemini" and body.stream == true)
  call.stream, call.model_asked, call.model = stream, asked, seat.model
  local text = req.body
  if asked ~= seat.model then
    if seat.policy == "refuse" and asked ~= nil then
      call.request = body
      return refuse(404, "model", string.format("the model %s does not exist or is not available to %s (its model is %s)",
        tostring(asked), seat.label, seat.model), "model_not_found")
    end
    call.rewritten = true
    if wire ~= "gemini" then body.model = seat.model; text = json.canonical(body) end
  end
  call.request = body
  -- the run's budgets: the worst case of this call first
  local ticket <close>, refused = budget.reserve(cfg, body)
  if not ticket then
    return refuse(M.BUDGET_STATUS, "budget", string.format("tabula: %s may make no more model calls: %s",
      seat.label, refused and refused.message or "the budget was reached"), wire == "gemini" and "FAILED_PRECONDITION" or "budget_exceeded", { ["x-should-retry"] = "false" })
  end
  local upstream = wire == "gemini"
    and ("/models/" .. seat.model .. ":" .. method .. ((stream and query_params(req.query).alt == "sse") and "?alt=sse" or ""))
    or UPSTREAM_PATH[wire]
  local headers, base = seat.agent:endpoint()
  local hs = {}
  for i, h in ipairs(headers) do hs[i] = h end
  for _, name in ipairs({ "anthropic-beta", "openai-beta" }) do
    if req.headers[name] then hs[#hs + 1] = name .. ": " .. req.headers[name] end
  end
  local opts = seat.agent.opts or {}
  local max_bytes = opts.max_reply_bytes or require("tabula.agent").MAX_REPLY_BYTES
  local url = base .. upstream
  -- streaming: passed through line by line once the reply shows itself as SSE
  -- (its first byte neither "{" nor "[", which start an error body or
  -- Gemini's JSON-array stream: those are sent whole at the end)
  local mode, pending, raw, raw_len = nil, "", {}, 0
  local acc = stream and seat.adapter.stream()
  local stream_error
  local sse = stream and sse_reader(function(ev, data)
    local ok, e = pcall(acc.event, acc, ev, data)
    if not ok and not stream_error then stream_error = type(e) == "table" and e.stream_error or tostring(e) end
  end)
  local function pass(final)
    local cut = final and #pending or (pending:match(".*\n()") or 1) - 1
    if cut > 0 and not res:gone() then res:write(seat:clean(pending:sub(1, cut))) end
    pending = pending:sub(cut + 1)
  end
  local r, code, msg = http.request({
    method = "POST", url = url, headers = hs, body = text,
    connect_timeout = opts.connect_timeout or 20,
    timeout = stream and 1e9 or (opts.timeout or 600),
    idle_timeout = stream and (opts.idle_timeout or 300) or nil,
    max_bytes = max_bytes,
    on_chunk = stream and function(data)
      if mode == nil then
        local first = data:match("^%s*(%S)")
        if not first then raw[#raw + 1] = data; return end
        mode = (first == "{" or first == "[") and "whole" or "sse"
        if mode == "sse" then
          res:status(200, { ["Content-Type"] = "text/event-stream", ["Cache-Control"] = "no-cache" })
          pending = table.concat(raw)
          raw = {}
          sse(pending)
        end
      end
      if mode == "sse" then
        sse(data)
        pending = pending .. data
        pass(false)
      else
        if raw_len < max_bytes then raw[#raw + 1] = data; raw_len = raw_len + #data end
      end
    end or nil,
  })
  local gone = res:gone()
  -- what the program is sent at the end, after the call is counted and
  -- reported (so on_call comes before the program can see a whole reply)
  local function reply_to_program(status, ctype, body_text)
    if mode == "sse" then
      pass(true)
      res:finish()
    else
      res:status(status, { ["Content-Type"] = ctype or "application/json" })
      res:finish(seat:clean(body_text))
    end
  end
  if not r then
    local message = string.format("%s: model %s at %s: transport error %s: %s", seat.label, cfg.name, url, tostring(code), tostring(msg))
    if code == "too_large" then message = string.format("%s: the reply is larger than %d bytes", seat.label, max_bytes) end
    local status = mode == "sse" and 200 or code == 28 and 504 or 502
    done(status, { error = message })
    return reply_to_program(status, nil, M.error_body(wire, status, message))
  end
  local status = r.status
  local ctype = r.headers["content-type"]
  local body_text = stream and (mode == "sse" and "" or table.concat(raw)) or r.body
  if status ~= 200 then
    local d = json.decode(body_text)
    local said = type(d) == "table" and seat.adapter.error_message(d) or body_text:sub(1, 500)
    done(status, { error = string.format("%s: model %s: HTTP %d: %s", seat.label, cfg.name, status, tostring(said)) })
    return reply_to_program(status, ctype, body_text)
  end
  -- the usage, read as the adapter reads it
  local reply, why
  if stream then
    local whole = mode ~= "sse" and json.decode(body_text)
    if type(whole) == "table" and getmetatable(whole) ~= json.array_mt and whole[1] == nil then
      -- a server that answered a streamed request with one JSON reply
      local ok, rr, w = pcall(seat.adapter.parse, whole)
      if ok then reply, why = rr, w else why = "the reply has an unexpected shape: " .. tostring(rr) end
    else
      for _, chunk in ipairs(type(whole) == "table" and whole or {}) do   -- Gemini without alt=sse: a JSON array of chunks
        local ok, e = pcall(acc.event, acc, nil, json.canonical(chunk))
        if not ok and not stream_error then stream_error = type(e) == "table" and e.stream_error or tostring(e) end
      end
      if stream_error then why = stream_error else reply, why = acc:finish() end
    end
  else
    local d, err = json.decode(body_text)
    if type(d) ~= "table" then why = "the reply is not a JSON object" .. (err and (": " .. err) or "")
    elseif d.error ~= nil and d.error ~= json.null then why = "the server answered with an error"
    else
      local ok, rr, w = pcall(seat.adapter.parse, d)
      if ok then reply, why = rr, w else why = "the reply has an unexpected shape: " .. tostring(rr) end
    end
  end
  if not reply then
    done(status, { error = string.format("%s: model %s: %s", seat.label, cfg.name, tostring(why)) })
    return reply_to_program(status, ctype, body_text)
  end
  reply.cost = models.cost(cfg.prices, reply.usage or {})
  require("tabula.agent").spend(reply)
  ticket:settle(reply)
  local u, su = reply.usage or {}, seat.usage
  su.calls = su.calls + 1
  for _, k in ipairs({ "input", "cached", "cache_write", "output", "reasoning" }) do su[k] = su[k] + (u[k] or 0) end
  su.cost = su.cost + reply.cost
  done(status, { reply = { text = reply.text, tool_calls = reply.tool_calls, usage = u, cost = reply.cost },
    error = gone and "the program disconnected before the reply ended" or nil })
  return reply_to_program(status, ctype, body_text)
end

return M
