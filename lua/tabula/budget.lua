-- tabula.budget — run-wide budgets: --max-cost, --max-calls, --max-run-tokens,
-- bound per model call.
--
-- One ledger per process (M.active) counts every model call of the run, from
-- every agent (so a match of several agents is covered too). Before a call is
-- sent (not before each HTTP retry) agent.lua reserves its worst case:
--   calls   1
--   tokens  the input, estimated as ceil(bytes of the request body / 3) (at
--           least the tokens of English, code and JSON, about one per CJK
--           character; images are overestimated), plus the output limit: the
--           request's max_tokens (or its provider's spelling), else the model's
--           max_output_tokens (models.lua), else M.DEFAULT_OUTPUT_TOKENS
--   cost    those input tokens at the input price plus the output limit at the
--           output price
-- and settles it when the call ends: the reservation is released and what the
-- server reported is spent. A call waits while open reservations leave no room
-- for it, and is refused once no reservation is open and it still does not fit
-- (spent + its worst case would pass the budget): from then on every call is
-- refused. A call of the batch queue (tabula.batch) does not wait: its open
-- reservations settle only when a batch ends, so it is refused at once, and
-- the calls due together go in one batch as far as the budget allows. So a
-- run never spends more than its budget unless a call uses more than its
-- reservation; calls in flight finish and are recorded. Replies
-- replayed from the response cache reserve nothing and cost nothing.
--
-- A refused call fails with { infra = true, kind = "budget", over_budget = true }:
-- its trial ends as `budget` — not scored and not recorded at all (like a trial
-- cut by a kill), so continuing the run with a larger budget (same --out) plays
-- it again, its finished calls replayed from the cache. The run exits with
-- status M.EXIT and one line naming the budget and the final spend.
--
-- Worker processes (tabula.workers) reserve through the parent: M.remote makes a
-- worker's ledger ask the parent's over the worker protocol, so the bound holds
-- across processes; a worker whose parent is gone reserves nothing.
--
-- RUN/spend.jsonl is the persisted record: one fsynced line per settled call
-- ({calls, input, output, cost, r}), so a killed run keeps what its finished
-- calls spent and a continued run counts what earlier sessions spent. A call
-- whose worker died before settling it is counted at its reservation
-- (unsettled = true): the server may have billed it.
--
-- RUN/reservations.jsonl journals every reservation before its call is sent
-- ({r, tokens, cost, cache}: r names it across sessions, cache is the response
-- cache file its reply is stored in, when the caller gave it), fsynced; its
-- settled line in spend.jsonl carries the same r. A process killed with calls
-- in flight (SIGKILL: nothing settles them) leaves reservations without a
-- settled line; the next session of the run (Ledger:reconcile, once it holds
-- the run's lock) counts each at its real cost when its reply reached the
-- cache (from_cache = true), else at its reservation (unsettled = true), and
-- starts the journal afresh. So a run killed any number of times still counts
-- every call that may have been billed, and cannot pass its budget. A caller
-- whose paid work has a journal of its own (the batch queue, which records
-- what an earlier session's batch cost when it reads it) reserves with
-- journal = false.
local records = require "tabula.records"
local json = require "tabula.json"
local loop = require "tabula.loop"
local models = require "tabula.models"
local cli = require "tabula.cli"
local fs = require "tabula.fs"

local M = {}

M.EXIT = 4
M.DEFAULT_OUTPUT_TOKENS = 32768
M.BYTES_PER_TOKEN = 3

M.OPTIONS = {
  { "max-cost", "number", nil, "run-wide budget in USD: no model call starts whose worst case would pass it (needs the model's prices)" },
  { "max-calls", "int", nil, "run-wide budget: at most this many model calls", min = 1 },
  { "max-run-tokens", "int", nil, "run-wide budget: no model call starts whose worst case would pass this many tokens (input + output)", min = 1 },
}

local KEYS = { "calls", "input", "output", "cost" }

-- the output-limit fields of the providers' request bodies
local function output_limit(body)
  if type(body) ~= "table" then return nil end
  local g = type(body.generationConfig) == "table" and body.generationConfig or {}
  return tonumber(body.max_tokens or body.max_completion_tokens or body.max_output_tokens or g.maxOutputTokens)
end

-- worst(cfg, body) -> input, output, bytes, from: the worst case of one call
-- in tokens (the input estimated from the body's bytes, the output limit) and
-- where the output limit comes from ("request", "model" or "default")
function M.worst(cfg, body)
  local bytes = #json.canonical(body or {})
  local input = math.ceil(bytes / M.BYTES_PER_TOKEN)
  local output, from = output_limit(body), "request"
  if not output then output, from = tonumber(cfg.max_output_tokens), "model" end
  if not output then output, from = M.DEFAULT_OUTPUT_TOKENS, "default" end
  return input, output, bytes, from
end

-- estimate(cfg, body, limits) -> the worst case of one call { calls, tokens, cost }
-- (tokens and cost only when a budget needs them: encoding the body costs)
function M.estimate(cfg, body, limits)
  local need = { calls = 1, tokens = 0, cost = 0 }
  if limits and (limits.cost or limits.tokens) then
    local input, output = M.worst(cfg, body)
    need.tokens = input + output
    need.cost = models.cost(cfg.prices, { input = input, output = output })
  end
  return need
end

-- refusal(message) -> the error a refused call fails with
function M.refusal(message)
  return { infra = true, kind = "budget", over_budget = true, message = message }
end

-- is_refusal(err): a call was refused by the budget (its trial is not recorded)
function M.is_refusal(err) return type(err) == "table" and err.over_budget == true end

-- ---- tickets: one open reservation ----

local Ticket = {}
Ticket.__index = Ticket

-- ticket:settle(reply): the call ended with this reply: spend what it used
function Ticket:settle(reply)
  if self.done then return end
  self.done = true
  local u = reply and reply.usage or {}
  self.owner:settled(self, reply and { calls = 1, input = u.input or 0, output = u.output or 0, cost = reply.cost or 0 })
end

-- closing a ticket that was not settled (the call failed or was cut): the
-- reservation is released and nothing is spent
function Ticket:__close() self:settle(nil) end

local NONE = setmetatable({ done = true }, Ticket)   -- no ledger: nothing to count

-- reserve(cfg, body [, how]) -> ticket | nil, refusal: what agent.lua calls
-- before a model call; how = { cache = the response cache file its reply will
-- be stored in, journal = false (not journalled: see above), nowait = true (a
-- call that does not fit now is refused at once rather than waiting for open
-- reservations to settle: the batch queue, whose open reservations settle only
-- when a batch ends, hours later; so the calls due together go in one batch as
-- far as the budget allows, and the rest are not sent one batch after another) }
function M.reserve(cfg, body, how)
  local l = M.active
  if not l then return NONE end
  local need = M.estimate(cfg, body, l.limits)
  if type(how) == "table" then
    need.cache = type(how.cache) == "string" and how.cache or nil
    if how.journal == false then need.journal = false end
    if how.nowait then need.nowait = true end
  end
  return l:reserve(need)
end

-- ---- the ledger of the process that writes the records ----

local Ledger = {}
Ledger.__index = Ledger

-- limits(opts) -> the budgets the run options set
function M.limits(opts)
  return { cost = opts["max-cost"], calls = opts["max-calls"], tokens = opts["max-run-tokens"] }
end

-- new(opts, cfg, dir) -> the run's ledger (made M.active), counting what
-- RUN/spend.jsonl holds. A cost budget on a model without prices is refused.
function M.new(opts, cfg, dir)
  local limits = M.limits(opts)
  if limits.cost and not cfg.prices then
    cli.fail("--max-cost: model %s has no prices, so its cost cannot be counted (give prices in models.lua, or use --max-calls / --max-run-tokens)", cfg.name)
  end
  local self = setmetatable({ limits = limits, path = dir .. "/spend.jsonl", journal_path = dir .. "/" .. M.JOURNAL,
    spent = { calls = 0, input = 0, output = 0, cost = 0 }, held = { calls = 0, tokens = 0, cost = 0 },
    open = 0, waiting = {}, settled_ids = {}, n = 0,
    session = string.format("%x-%x", os.time(), require("tabula.c.proc").getpid()) }, Ledger)
  records.each(self.path, function(r)
    self:add(r)
    if r.r ~= nil then self.settled_ids[r.r] = true end
  end, { skip_bad = true })
  M.active = self
  return self
end

M.JOURNAL = "reservations.jsonl"

-- unsettled(dir [, settled]) -> the reservations RUN/reservations.jsonl holds
-- without a settled line in RUN/spend.jsonl (settled: the r of every settled
-- line, when the caller has read them), each as the line that counts it:
-- { calls = 1, input, output, cost, r, from_cache = true } when its reply is in
-- the response cache, else { calls = 1, input = its tokens, output = 0, cost =
-- its reservation, r, unsettled = true }
function M.unsettled(dir, settled)
  if not settled then
    settled = {}
    records.each(dir .. "/spend.jsonl", function(r) if r.r ~= nil then settled[r.r] = true end end, { skip_bad = true, quiet = true })
  end
  local out, pending, order = {}, {}, {}
  records.each(dir .. "/" .. M.JOURNAL, function(j)
    if type(j) ~= "table" or j.r == nil or settled[j.r] then return end
    if j.released then pending[j.r] = nil; settled[j.r] = true; return end
    if not pending[j.r] then pending[j.r] = j; order[#order + 1] = j.r end
  end, { skip_bad = true, quiet = true })
  for _, r in ipairs(order) do
    local j = pending[r]
    if j == nil then goto next end
    settled[j.r] = true   -- counted once, whatever the journal repeats
    local text = type(j.cache) == "string" and fs.kind(j.cache) == "file" and fs.read(j.cache)
    local ok, reply = pcall(json.decode, text or "null")
    reply = ok and reply
    local u = type(reply) == "table" and type(reply.usage) == "table" and reply.usage
    if u then
      out[#out + 1] = { calls = 1, input = tonumber(u.input) or 0, output = tonumber(u.output) or 0,
        cost = tonumber(reply.cost) or 0, r = j.r, from_cache = true }
    else
      out[#out + 1] = { calls = 1, input = tonumber(j.tokens) or 0, output = 0, cost = tonumber(j.cost) or 0, r = j.r, unsettled = true }
    end
    ::next::
  end
  return out
end

-- ledger:reconcile(): what an earlier session left unsettled (a kill during its
-- calls) is counted and written to spend.jsonl, and the journal starts afresh.
-- Called once the run's lock is held (runner.run): before it, another process
-- might still be making those calls.
function Ledger:reconcile()
  if self.reconciled then return end
  self.reconciled = true
  for _, line in ipairs(M.unsettled(fs.dirname(self.path), self.settled_ids)) do
    self.settled_ids[line.r] = true
    self:settle_free(line)
  end
  if fs.kind(self.journal_path) then fs.write_or_fail(self.journal_path, "") end
end

function Ledger:add(d)
  for _, k in ipairs(KEYS) do self.spent[k] = self.spent[k] + (tonumber(d[k]) or 0) end
end

-- the budget a call of this worst case would pass (spent + open reservations
-- + need), or nil
function Ledger:passes(need)
  local l, s, h = self.limits, self.spent, self.held
  if l.calls and s.calls + h.calls + need.calls > l.calls then return "calls" end
  if l.cost and s.cost + h.cost + need.cost > l.cost then return "cost" end
  if l.tokens and s.input + s.output + h.tokens + need.tokens > l.tokens then return "tokens" end
  return nil
end

-- reserve(need) -> ticket | nil, refusal: waits while open reservations leave
-- no room; refuses (and stops every later call) once none is open and the call
-- still does not fit, or at once when need.nowait
function Ledger:reserve(need)
  while true do
    if self.over then return nil, M.refusal(self:reached()) end
    local kind = self:passes(need)
    if not kind then break end
    if self.open == 0 or need.nowait then
      self.over = { kind = kind, need = need }
      self:wake()
      return nil, M.refusal(self:reached())
    end
    local f = loop.future()
    self.waiting[#self.waiting + 1] = f
    f:await()
  end
  local r
  if need.journal ~= false then   -- journalled (fsynced) before the call is sent
    self.n = self.n + 1
    r = self.session .. "." .. self.n
    if not self.journal then self.journal = records.writer(self.journal_path) end
    self.journal:write({ r = r, tokens = need.tokens, cost = need.cost, cache = need.cache })
  end
  local held = { calls = need.calls, tokens = need.tokens, cost = need.cost }
  for k, v in pairs(held) do self.held[k] = self.held[k] + v end
  self.open = self.open + 1
  return setmetatable({ owner = self, need = held, r = r }, Ticket)
end

function Ledger:wake()
  local w = self.waiting
  self.waiting = {}
  for _, f in ipairs(w) do f:set() end
end

-- settled(ticket, spent | nil): release the reservation, spend and record what
-- the call used
function Ledger:settled(ticket, spent)
  for k, v in pairs(ticket.need) do self.held[k] = self.held[k] - v end
  self.open = self.open - 1
  if spent then
    spent.r = ticket.r   -- its reservation is settled
    self:settle_free(spent)
  else
    -- released (the call failed or was cut): the journal says so, nothing is spent
    if ticket.r and self.journal then self.journal:write({ r = ticket.r, released = true }) end
    self:wake()
  end
end

-- record(spent): paid work that held no reservation in this session (a
-- batch submitted before the run was resumed, its reply read now): counted
-- and recorded like a settled call
function M.record(spent)
  local l = M.active
  if l and l.settle_free then l:settle_free(spent) end
end

function Ledger:settle_free(spent)
  self:add(spent)
  if not self.writer then self.writer = records.writer(self.path) end
  self.writer:write(spent)
  self:wake()
end

-- spend_worst(ticket): a call that cannot be settled (its worker died during
-- it) is counted at its reservation
function Ledger:spend_worst(ticket)
  if ticket.done then return end
  ticket.done = true
  local n = ticket.need
  self:settled(ticket, { calls = 1, input = n.tokens, output = 0, cost = n.cost, unsettled = true })
end

-- reached() -> nil, or a sentence naming the budget that stopped calls, with
-- what was spent so far
function Ledger:reached()
  local o = self.over
  if not o then return nil end
  local l, s = self.limits, self.spent
  if o.kind == "calls" then
    return string.format("the --max-calls budget of %d calls was reached (%d calls made)", l.calls, s.calls)
  elseif o.kind == "cost" then
    return string.format("the --max-cost budget of %.4g USD was reached (spent %.4g USD; the next call could cost up to %.4g USD)",
      l.cost, s.cost, o.need.cost)
  end
  return string.format("the --max-run-tokens budget of %d tokens was reached (%d used; the next call could use up to %d)",
    l.tokens, s.input + s.output, o.need.tokens)
end

function Ledger:close()
  if self.writer then self.writer:close(); self.writer = nil end
  if self.journal then
    self.journal:close(); self.journal = nil
    if self.open == 0 then fs.write_or_fail(self.journal_path, "") end   -- every reservation settled
  end
  if M.active == self then M.active = nil end
end

-- ---- a worker's ledger: asks the parent's ----

local Remote = {}
Remote.__index = Remote

-- remote(ask, tell, alive, limits) -> a ledger for a worker process (made
-- M.active): ask(msg) -> the parent's answer (waits), tell(msg) sends without
-- waiting, alive() is false once the parent is gone; limits are the parent's
-- (they say what to estimate; the parent decides).
function M.remote(ask, tell, alive, limits)
  local self = setmetatable({ ask = ask, tell = tell, alive = alive, limits = limits or {}, n = 0 }, Remote)
  M.active = self
  return self
end

function Remote:reserve(need)
  if not self.alive() then return nil, M.refusal("the parent process is gone") end
  self.n = self.n + 1
  local n = self.n
  local answer = self.ask({ op = "reserve", n = n, need = need })
  if not (answer and answer.grant) then
    return nil, M.refusal(answer and answer.refused or "the parent process is gone")
  end
  return setmetatable({ owner = self, n = n, need = need }, Ticket)
end

function Remote:settled(ticket, spent)
  self.tell({ op = "settle", n = ticket.n, spent = spent or json.null })
end

-- serve(ledger, tickets, msg, send, gone): the parent's side of Remote for one
-- message of a worker; tickets holds that worker's open reservations by
-- number (workers.lua counts them at worst if the worker dies), gone() is true
-- once the worker is dead (a reservation granted after that is released)
function M.serve(ledger, tickets, msg, send, gone)
  if msg.op == "reserve" then
    local need = {}
    for _, k in ipairs({ "calls", "tokens", "cost" }) do need[k] = tonumber(type(msg.need) == "table" and msg.need[k]) or 0 end
    if type(msg.need) == "table" then
      need.cache = type(msg.need.cache) == "string" and msg.need.cache or nil
      if msg.need.journal == false then need.journal = false end
      if msg.need.nowait then need.nowait = true end
    end
    local ticket, refused = ledger:reserve(need)
    if ticket and gone() then ticket:settle(nil); return end
    if ticket then tickets[msg.n] = ticket end
    send({ op = "grant", n = msg.n, grant = ticket ~= nil, refused = refused and refused.message })
  elseif msg.op == "settle" then
    local ticket = tickets[msg.n]
    tickets[msg.n] = nil
    if ticket and not ticket.done then
      ticket.done = true
      local spent = type(msg.spent) == "table" and {} or nil
      for _, k in ipairs(spent and KEYS or {}) do spent[k] = tonumber(msg.spent[k]) or 0 end
      ledger:settled(ticket, spent)
    end
  end
end

return M
