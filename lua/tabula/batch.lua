-- tabula.batch — a run's model calls through the providers' batch APIs
-- (--batch, or batch = true for a model in a models file), at batch prices.
--
-- The trials play as usual, all at once as tasks (up to M.MAX_TRIALS, or
-- --concurrency if larger). A call the response cache
-- cannot answer is reserved against the run-wide budgets like any call and
-- queued; once every running trial waits on the queue (nothing else can add
-- to it), or --batch-min calls are due, or the first due call has waited
-- --batch-wait seconds, the due calls are grouped by model and endpoint
-- into batches within each service's limits (tabula.providers.batches) and
-- submitted. Each batch's id is appended to RUN/batches.jsonl (fsynced) before
-- anything waits on it. Every --batch-poll seconds a batch is polled; when it
-- ends, each reply is parsed by the provider's own parser, priced at batch
-- prices (models.batch_prices), written to the response cache and handed to
-- the call that waited for it, so the scenario scores it through the same path
-- as a direct reply (and a resumed run replays it from the cache).
--
-- A killed or interrupted run resumes by polling the batches batches.jsonl
-- lists as not ended: a call whose request is in such a batch waits for that
-- batch, and paid work is never submitted twice. An item that errored,
-- expired or was cancelled is an infrastructure error: its trial is
-- re-queued (--retries) and the call goes into a new batch; after the last
-- retry the trial is recorded as error, never scored.
--
-- Under a run-wide budget (--max-cost, --max-calls, --max-run-tokens) a
-- queued call reserves its worst case without waiting (budget.reserve with
-- nowait): the calls due together go in one batch as far as the budget allows
-- them, and the first that does not fit stops the run's calls (its trial is
-- not recorded; continuing the run with a larger budget sends it). Waiting
-- instead would send the rest one small batch after another, each taking up
-- to 24 h, as each batch's real cost freed room. Before such a batch goes, one
-- line says what the budget allows: how many of the calls due, at what worst
-- case each.
--
-- Multi-turn scenarios batch per round: the calls due together (every trial's
-- next turn) form a batch, so each turn waits for a whole batch (hours per
-- turn in the worst case). Single-turn scenarios are the main use.
--
-- batches.jsonl lines: {op = "creating", tag, provider, base_url, model,
-- name, key_env, items = [custom ids], at} before each create; {op =
-- "submitted", id, tag, ... , file_id?} once the service answered with the id;
-- {op = "abandoned", tag} for a create refused; {op = "ended", id, status,
-- failed = [custom ids]}; {op = "cancel", id, at}. A create journalled without
-- its answer (a kill while it was sent) is looked up at the service by its tag
-- (OpenAI metadata tabula_tag, Gemini display name tabula-TAG) before its calls
-- may go again; Anthropic keeps no label, so there a kill in that moment can
-- send those calls twice. A custom id is the call's
-- response-cache key (64 hex digits: a valid custom_id everywhere).
local json = require "tabula.json"
local fs = require "tabula.fs"
local loop = require "tabula.loop"
local http = require "tabula.http"
local records = require "tabula.records"
local models = require "tabula.models"
local budget = require "tabula.budget"
local secrets = require "tabula.secrets"
local wire = require "tabula.providers.batches"

local M = {}

M.OPTIONS = {
  { "batch", "bool", false, "send the model calls through the provider's batch API at batch prices (slow: results within 24 h; resumable; see README, Batches)" },
  { "batch-min", "int", nil, "submit a batch once this many calls are due (default: when every running trial waits for one)", min = 1 },
  { "batch-wait", "number", 600, "seconds the first due call waits for others before its batch is submitted anyway", min = 0 },
  { "batch-poll", "number", 30, "seconds between polls of a submitted batch", min = 0 },
}

M.JOURNAL = "batches.jsonl"
M.MAX_TRIALS = 10000   -- trials played at once with --batch (unless --concurrency says more): the largest batch a round makes

local function now_iso() return os.date("!%Y-%m-%dT%H:%M:%SZ") end

-- ---- the HTTP client of one model's batch endpoints ----

local Client = {}
Client.__index = Client

-- client(cfg, provider) -> a client with the model's headers and base URL
function M.client(cfg, provider)
  local headers = {}
  for _, h in ipairs(provider.auth_headers(models.key(cfg))) do headers[#headers + 1] = h end
  return setmetatable({ cfg = cfg, base = (cfg.base_url or ""):gsub("/+$", ""), headers = headers, attempts = 5, backoff = 1 }, Client)
end

-- call(method, path | URL, body, content_type, raw) -> decoded JSON (raw: the text) | nil, err
-- 429, 5xx and transport failures are retried with backoff; err.config for 400/401/403/404
function Client:call(method, path, body, ctype, raw)
  local url = path:match("^https?://") and path or self.base .. path
  local headers = { "Content-Type: " .. (ctype or "application/json") }
  for _, h in ipairs(self.headers) do headers[#headers + 1] = h end
  local last
  for attempt = 1, self.attempts do
    local res, code, msg = http.request({ method = method, url = url, headers = headers, body = body,
      connect_timeout = 20, timeout = 600, max_bytes = 1024 * 1024 * 1024 })
    local where = string.format("model %s at %s", self.cfg.name, url)
    if res and res.status == 200 then
      if raw then return res.body end
      local d, e = json.decode(res.body)
      if d ~= nil then return d end
      last = { message = string.format("%s: the reply is not JSON: %s", where, e) }
    elseif res then
      local d = json.decode(res.body)
      local said = type(d) == "table" and type(d.error) == "table" and d.error.message or res.body
      last = { message = secrets.redact(string.format("%s: HTTP %d: %s", where, res.status, tostring(said):sub(1, 500))), status = res.status }
      if res.status == 400 or res.status == 401 or res.status == 403 or res.status == 404 or res.status == 413 then
        last.config = true
        return nil, last
      end
    else
      last = { message = secrets.redact(string.format("%s: transport error %s: %s", where, tostring(code), tostring(msg))) }
    end
    if attempt < self.attempts then loop.sleep(math.min(self.backoff * 2 ^ (attempt - 1), 60) * (0.5 + math.random())) end
  end
  return nil, last
end

-- ---- the journal ----

-- read(dir) -> list of batches { id, provider, base_url, model, key_env, items, ended, status, failed (cid set), cancel },
-- and the creates that may have happened: { tag, items, ... } journalled before a
-- create whose answer never came (the run was killed meanwhile)
function M.read(dir)
  local list, by, creating, order = {}, {}, {}, {}
  records.each(fs.join(dir, M.JOURNAL), function(r)
    if r.op == "creating" and type(r.tag) == "string" then
      creating[r.tag] = r
      order[#order + 1] = r.tag
    elseif r.op == "abandoned" and type(r.tag) == "string" then
      creating[r.tag] = nil
    end
    if r.op == "submitted" and type(r.tag) == "string" then creating[r.tag] = nil end
    if r.op == "submitted" and type(r.id) == "string" and not by[r.id] then
      local b = { id = r.id, provider = r.provider, base_url = r.base_url, model = r.model, name = r.name, key_env = r.key_env,
        items = type(r.items) == "table" and r.items or {}, file_id = r.file_id, at = r.at, failed = {} }
      by[r.id] = b
      list[#list + 1] = b
    elseif r.op == "ended" and by[r.id] then
      local b = by[r.id]
      b.ended, b.status = true, r.status
      for _, cid in ipairs(type(r.failed) == "table" and r.failed or {}) do b.failed[cid] = true end
    elseif r.op == "cancel" and by[r.id] then
      by[r.id].cancel = r.at or true
    end
  end, { skip_bad = true })
  local orphans = {}
  for _, tag in ipairs(order) do
    local c = creating[tag]
    if c and type(c.items) == "table" then orphans[#orphans + 1] = c; creating[tag] = nil end
  end
  return list, orphans
end

-- ---- the queue ----

local Queue = {}
Queue.__index = Queue

-- new(opts, dir [, out]) -> the run's queue: reads what batches.jsonl holds
function M.new(opts, dir, out)
  local self = setmetatable({ dir = dir, path = fs.join(dir, M.JOURNAL), min = opts["batch-min"],
    wait = opts["batch-wait"] or 600, poll = opts["batch-poll"] or 30, out = out,
    active = 0, waiting = 0, groups = {}, order = {}, items = {}, pending = {}, batches = {},
    stats = { submitted = 0, running = 0, done = 0, items = 0, items_done = 0 } }, Queue)
  local list, orphans = M.read(dir)
  self.orphans = {}
  for _, o in ipairs(orphans) do
    for _, cid in ipairs(o.items) do self.orphans[cid] = o end
  end
  for _, b in ipairs(list) do
    self.batches[b.id] = b
    b.cids = {}
    for _, cid in ipairs(b.items) do
      b.cids[cid] = true
      if not (b.ended and b.failed[cid]) then self.items[cid] = b end
    end
    if not b.ended then self.stats.running = self.stats.running + 1 end
  end
  return self
end

-- say(fmt, ...): one line on stderr (not with --quiet)
function Queue:say(fmt, ...)
  if self.out then self.out(string.format(fmt, ...)) end
end

-- summary() -> the progress line's part: batches submitted / in progress / done, items done
function Queue:summary()
  local s = self.stats
  return string.format("batches %d submitted, %d in progress, %d done; %d/%d items done", s.submitted, s.running, s.done, s.items_done, s.items)
end

function Queue:changed() if self.on_change then self.on_change() end end

-- notice(line): a line that is said even when the live progress line shows
-- the batches (above it) or --quiet is given: what the budget lets go
function Queue:notice(line)
  if self.out then return self.out(line) end
  if require("tabula.c.host").isatty(2) then
    io.stderr:write("\r", line, "\27[K\n")
    self:changed()   -- the live line again, below it
  else
    io.stderr:write(line, "\n")
  end
end

-- allowed(due) -> the line: the budget that held calls back, how many of the
-- calls due it lets go in this batch, and the worst case of one call (the
-- trials not started yet are not counted: the runner starts none once the
-- budget refused a call)
function Queue:allowed(due)
  local held = self.held
  self.held = nil
  local l = budget.active
  local o = l and l.over
  local what, each = "the run's budget", ""
  if o and o.kind == "cost" then
    what = string.format("the --max-cost budget of %.4g USD", l.limits.cost)
    each = string.format(" (a call's worst case: up to %.4g USD at batch prices, its input and its whole output limit)", o.need.cost)
  elseif o and o.kind == "tokens" then
    what = string.format("the --max-run-tokens budget of %d tokens", l.limits.tokens)
    each = string.format(" (a call's worst case: up to %d tokens, its input and its whole output limit)", o.need.tokens)
  elseif o and o.kind == "calls" then
    what = string.format("the --max-calls budget of %d calls", l.limits.calls)
  end
  return string.format("batch: %s allows %d of the calls due%s: %s in one batch, and no later call of this run is sent "
    .. "(%d refused so far; continue the run with a larger budget or a lower --max-tokens, same --out, to send the rest)",
    what, due, each, due == 1 and "it goes" or "they go", held)
end

-- wrap(play) -> play counted as a running trial (the queue submits when every one waits)
function Queue:wrap(play)
  return function(...)
    self.active = self.active + 1
    local r = table.pack(pcall(play, ...))
    self.active = self.active - 1
    self:kick()
    if not r[1] then error(r[2], 0) end
    return table.unpack(r, 2, r.n)
  end
end

-- kick(): check soon whether the due calls should go (after every task that is
-- ready has run up to its own call)
function Queue:kick()
  if self.kicked then return end
  self.kicked = true
  loop.spawn(function()
    loop.sleep(0)
    loop.sleep(0)
    self.kicked = false
    self:check()
  end)
end

function Queue:check()
  local due = 0
  for _, g in pairs(self.groups) do due = due + #g.items end
  if due == 0 then return end
  local late = self.first_at and loop.now() - self.first_at >= self.wait
  if self.waiting >= self.active or (self.min and due >= self.min) or late then
    self.first_at = nil
    if self.held then self:notice(self:allowed(due)) end   -- what the budget allows, before the batch goes
    for _, gkey in ipairs(self.order) do
      local g = self.groups[gkey]
      if #g.items > 0 then
        local items = g.items
        g.items = {}
        loop.spawn(function() self:submit(g, items) end)
      end
    end
  elseif not self.timer then
    local at = self.first_at + self.wait   -- first_at is gone once these calls went
    self.timer = loop.spawn(function()
      loop.sleep_until(at)
      self.timer = nil
      self:check()
    end)
  end
end

-- prices(cfg) -> the model's batch prices (tabula.models.batch_prices)
local function batch_cfg(cfg)
  return setmetatable({ prices = models.batch_prices(cfg) }, { __index = cfg })
end

local function item_error(kind, message)
  return { infra = true, kind = "batch", batch_kind = kind, message = secrets.redact(message) }
end

-- call(agent, req, cpath) -> reply | nil, err: what agent:reply does for a call
-- the cache did not answer (the reply priced, spent, settled and cached)
function Queue:call(agent, req, cpath)
  local key = cpath:match("([^/]+)%.json$")
  self.waiting = self.waiting + 1
  self:kick()
  local ok, reply, err = pcall(self.wait_for, self, agent, req, key, cpath)
  self.waiting = self.waiting - 1
  if not ok then error(reply, 0) end
  return reply, err
end

function Queue:wait_for(agent, req, key, cpath)
  if self.orphans[key] then
    local ok, e = self:adopt(agent, self.orphans[key])
    if not ok then return nil, e end
  end
  local b = self.items[key]
  if b then return self:from_batch(agent, b, key) end   -- submitted before (a resumed run): never again
  local same = self.pending[key]
  if same then   -- the same request is due already: one item, answered to both
    local f = loop.future()
    same.waiters[#same.waiters + 1] = f
    return f:await()
  end
  local ticket, refused = budget.reserve(batch_cfg(agent.cfg), req.body, { nowait = true })
  if not ticket then   -- counted for the line that says what the budget allows
    self.held = (self.held or 0) + 1
    return nil, refused
  end
  local adapter = wire.adapter(agent.cfg.provider)
  local gkey = table.concat({ agent.cfg.provider, agent.cfg.base_url, agent.cfg.name, req.path }, "\0")
  local g = self.groups[gkey]
  if not g then
    g = { agent = agent, adapter = adapter, items = {} }
    self.groups[gkey] = g
    self.order[#self.order + 1] = gkey
  end
  local entry = { cid = key, key = key, path = req.path, body = req.body, ticket = ticket, cpath = cpath, future = loop.future(), waiters = {} }
  g.items[#g.items + 1] = entry
  self.pending[key] = entry
  self.first_at = self.first_at or loop.now()
  self.stats.items = self.stats.items + 1
  self:kick()
  return entry.future:await()
end

-- adopt(agent, o): a create journalled without its answer (the run was
-- killed meanwhile): the batch labelled with its tag, if the service made it,
-- is polled like any batch of an earlier session; else its calls are free to go again
function Queue:adopt(agent, o)
  while o.settling do o.settling:await() end
  if o.done then return true end
  o.settling = loop.future()
  local function settled(ok, e)
    local f = o.settling
    o.settling, o.done = nil, ok
    f:set()
    return ok, e
  end
  local adapter = wire.adapter(o.provider or agent.cfg.provider)
  local id, ferr
  if adapter and adapter.find then id, ferr = adapter.find(M.client(agent.cfg, agent.provider), o.tag) end
  if not id and ferr then   -- not known whether it exists: not sent again (the trial is re-queued, or runs on resume)
    return settled(nil, item_error("find", string.format("model %s: the batch created before the run stopped cannot be looked up: %s",
      agent.cfg.name, tostring(ferr.message))))
  end
  if id then
    local b = { id = id, provider = o.provider, base_url = o.base_url, model = o.model, name = o.name, key_env = o.key_env,
      items = o.items, tag = o.tag, at = o.at, failed = {}, cids = {}, waiters = {} }
    self:journal({ op = "submitted", id = id, tag = o.tag, provider = o.provider, base_url = o.base_url, model = o.model,
      name = o.name, key_env = o.key_env, items = json.array(o.items), at = o.at, adopted = true })
    self.batches[id] = b
    self.stats.running = self.stats.running + 1
    for _, cid in ipairs(o.items) do b.cids[cid] = true; self.items[cid] = b end
    self:say("batch %s: found at the service (its creation was not journalled before the run stopped)", id)
  else
    self:journal({ op = "abandoned", tag = o.tag })
  end
  for _, cid in ipairs(o.items) do self.orphans[cid] = nil end
  return settled(true)
end

-- from_batch(agent, b, key): a call whose request is in batch b (submitted in
-- an earlier session, or by another call of this one): its result
function Queue:from_batch(agent, b, key)
  if not b.task then
    if b.ended then   -- ended, yet its reply is not in the cache (a failed cache write): read its results again
      b.ended, b.spent = nil, true   -- what it cost was counted when it ended
      self.stats.running = self.stats.running + 1
    end
    self:watch(b, agent, nil)
  end
  if not b.waiters[key] then
    b.waiters[key] = {}
    if not b.mine then self.stats.items = self.stats.items + 1 end
  end
  local f = loop.future()
  table.insert(b.waiters[key], f)
  return f:await()
end

-- submit(g, items): split into batches within the service's limits and submit each
function Queue:submit(g, items)
  local limits, chunk, bytes = g.adapter.limits, {}, 0
  local ctx = { base = g.agent.cfg.base_url:gsub("/+$", "") }
  local chunks = {}
  for _, it in ipairs(items) do
    local n = #g.adapter.line(it, ctx) + 1
    if #chunk > 0 and (#chunk >= limits.items or bytes + n > limits.bytes) then
      chunks[#chunks + 1] = chunk
      chunk, bytes = {}, 0
    end
    chunk[#chunk + 1] = it
    bytes = bytes + n
  end
  if #chunk > 0 then chunks[#chunks + 1] = chunk end
  for _, c in ipairs(chunks) do self:submit_one(g, c, ctx) end
end

function Queue:journal(line)
  if not self.writer then self.writer = records.writer(self.path) end
  self.writer:write(line)
end

function Queue:submit_one(g, items, ctx)
  local cfg = g.agent.cfg
  local client = M.client(cfg, g.agent.provider)
  local cids = {}
  for i, it in ipairs(items) do cids[i] = it.cid end
  -- journalled before the create: a run killed before its answer looks the batch up by its tag
  local tag = fs.sha256(table.concat(cids, ",") .. tostring(loop.now()) .. tostring(math.random())):sub(1, 24)
  local who = { provider = cfg.provider, base_url = secrets.scrub(cfg.base_url), model = cfg.model, name = cfg.name, key_env = cfg.key_env }
  self:journal({ op = "creating", tag = tag, provider = who.provider, base_url = who.base_url, model = who.model, name = who.name,
    key_env = who.key_env, items = json.array(cids), at = now_iso() })
  local id, extra = g.adapter.create(client, items, ctx, tag)
  if not id then
    self:journal({ op = "abandoned", tag = tag })
    local err = extra or {}
    local e = item_error("create", string.format("the batch of %d calls was not created: %s", #items, tostring(err.message)))
    e.config = err.config
    for _, it in ipairs(items) do
      it.ticket:settle(nil)
      self.pending[it.cid] = nil
      self.stats.items_done = self.stats.items_done + 1
      it.future:set(nil, e)
      for _, f in ipairs(it.waiters) do f:set(nil, e) end
    end
    self:changed()
    return
  end
  local b = { id = id, tag = tag, provider = cfg.provider, base_url = cfg.base_url, model = cfg.model, name = cfg.name, key_env = cfg.key_env,
    items = cids, file_id = extra and extra.file_id, at = now_iso(), failed = {}, cids = {}, waiters = {} }
  -- the id is on disk before anything waits on it: a killed run polls it again
  self:journal({ op = "submitted", id = id, tag = tag, provider = who.provider, base_url = who.base_url, model = who.model,
    name = who.name, key_env = who.key_env, items = json.array(cids), file_id = b.file_id, at = b.at })
  self.batches[id] = b
  local entries = {}
  b.mine = true
  for _, it in ipairs(items) do
    b.cids[it.cid] = true
    self.items[it.cid] = b
    self.pending[it.cid] = nil
    entries[it.cid] = it
  end
  self.stats.submitted = self.stats.submitted + 1
  self.stats.running = self.stats.running + 1
  self:say("batch %s: %d calls of %s submitted", id, #items, cfg.name)
  self:changed()
  self:watch(b, g.agent, entries)
end

-- watch(b, agent, entries): poll b until it ends, then hand out its results
function Queue:watch(b, agent, entries)
  b.waiters = b.waiters or {}
  b.task = loop.spawn(function()
    local adapter = wire.adapter(agent.cfg.provider)
    local client = M.client(agent.cfg, agent.provider)
    local polled, err
    while true do
      loop.sleep(self.poll)
      polled, err = adapter.poll(client, b)
      if polled and polled.ended then break end
      if not polled and err and err.config then break end   -- the batch is gone (404) or refused
    end
    local results
    if polled then results, err = adapter.results(client, b, polled) end
    self:deliver(b, agent, entries or {}, results or {}, polled and polled.status or "unreadable",
      not results and tostring(err and err.message or "no results")) 
  end)
end

-- the reply of one item's body, parsed as a direct reply would be
local function parse(agent, body)
  local ok, r, why = pcall(agent.provider.parse, body)
  if ok and r then return r end
  return nil, ok and why or ("the reply has an unexpected shape: " .. tostring(r))
end

function Queue:deliver(b, agent, entries, results, status, unreadable)
  local failed = json.array()
  local spend = require("tabula.agent").spend
  local prices = models.batch_prices(agent.cfg)
  for _, cid in ipairs(b.items) do
    local r = results[cid]
    local entry = entries[cid]
    local reply, why
    if r and r.body then reply, why = parse(agent, r.body) end
    if reply then
      reply.attempts = 1
      reply.cost = models.cost(prices, reply.usage)
      if entry then
        spend(reply)
        entry.ticket:settle(reply)
      elseif not b.spent then   -- submitted by an earlier session: paid, so counted, though nothing reserved it
        spend(reply)
        budget.record({ calls = 1, input = reply.usage.input or 0, output = reply.usage.output or 0, cost = reply.cost })
      end
      agent:store(entry and entry.cpath or agent:cache_path(cid), reply)
      reply.cached = false
    else
      failed[#failed + 1] = cid
      if entry then entry.ticket:settle(nil) end
      self.items[cid] = nil   -- a later call of this request goes into a new batch
      why = why and ("its reply is malformed: " .. why) or (r and string.format("%s: %s", r.kind, tostring(r.message)))
        or unreadable or "the batch's results hold no reply for it"
      reply = nil
    end
    local e = not reply and item_error(r and r.kind or "missing",
      string.format("model %s: batch %s (%s): call %s… %s", agent.cfg.name, b.id, status, cid:sub(1, 12), why))
    local waiting = { entry and entry.future }
    for _, f in ipairs(entry and entry.waiters or {}) do waiting[#waiting + 1] = f end
    for _, f in ipairs(b.waiters[cid] or {}) do waiting[#waiting + 1] = f end
    for i, f in ipairs(waiting) do
      if reply and i > 1 then   -- another call of the same request: replayed, as from the cache
        local copy = {}
        for k, v in pairs(reply) do copy[k] = v end
        copy.cached, copy.cost = true, 0
        f:set(copy)
      else f:set(reply, e) end
    end
    if entry or b.waiters[cid] then self.stats.items_done = self.stats.items_done + 1 end
  end
  b.waiters = {}
  b.ended, b.status = true, status
  self:journal({ op = "ended", id = b.id, status = status, failed = failed })
  self.stats.running = self.stats.running - 1
  self.stats.done = self.stats.done + 1
  self:say("batch %s: %s, %d of %d calls answered", b.id, status, #b.items - #failed, #b.items)
  self:changed()
end

function Queue:close()
  if self.timer then loop.cancel(self.timer); self.timer = nil end
  if self.writer then self.writer:close(); self.writer = nil end
end

-- ---- tabula batch status / cancel ----

-- the client of a journalled batch (the key from the environment variable it names)
function M.client_for(b)
  local provider = require(({ openai = "tabula.providers.responses", ["openai-chat"] = "tabula.providers.openai",
    anthropic = "tabula.providers.anthropic", gemini = "tabula.providers.gemini" })[b.provider] or "tabula.providers.openai")
  local cfg = { name = b.name or b.model, provider = b.provider, base_url = b.base_url, model = b.model, key_env = b.key_env }
  local c = M.client(cfg, provider)
  c.attempts = 2
  return c, wire.adapter(b.provider)
end

return M
