-- tabula.budget — run-wide budgets: --max-cost, --max-calls, --max-run-tokens.
--
-- What the run's model calls cost is kept in RUN/spend.jsonl, one fsynced line
-- per finished trial with what was spent since the line before (calls answered
-- by a server; replays from the cache cost nothing), so a continued run counts
-- what earlier sessions spent. When a budget is reached no new trial starts;
-- the trials already running finish and are recorded (so a run may end a little
-- past its budget), and the run exits with status M.EXIT naming the budget.
-- Continuing with a larger budget (same --out) picks up where it stopped.
-- A trial cut by a kill leaves no spend line: its calls are in the cache and are
-- not paid again, but they are not counted either.
local records = require "tabula.records"
local agent = require "tabula.agent"
local cli = require "tabula.cli"

local M = {}

M.EXIT = 4

M.OPTIONS = {
  { "max-cost", "number", nil, "run-wide budget in USD: no new trial starts once the run's calls cost this much (needs the model's prices)" },
  { "max-calls", "int", nil, "run-wide budget: no new trial starts once the run made this many model calls", min = 1 },
  { "max-run-tokens", "int", nil, "run-wide budget: no new trial starts once the run's calls used this many tokens (input + output)", min = 1 },
}

local KEYS = { "calls", "input", "output", "cost" }

local Budget = {}
Budget.__index = Budget

-- new(opts, cfg, dir) -> a budget, or nil when no budget option is set. A cost
-- budget on a model without prices is refused.
function M.new(opts, cfg, dir)
  local limits = { cost = opts["max-cost"], calls = opts["max-calls"], tokens = opts["max-run-tokens"] }
  if not (limits.cost or limits.calls or limits.tokens) then return nil end
  if limits.cost and not cfg.prices then
    cli.fail("--max-cost: model %s has no prices, so its cost cannot be counted (give prices in models.lua, or use --max-calls / --max-run-tokens)", cfg.name)
  end
  local self = setmetatable({ limits = limits, path = dir .. "/spend.jsonl",
    spent = { calls = 0, input = 0, output = 0, cost = 0 }, seen = {} }, Budget)
  records.each(self.path, function(r) self:add(r) end, { skip_bad = true })
  for _, k in ipairs(KEYS) do self.seen[k] = agent.spent[k] end
  return self
end

function Budget:add(d)
  for _, k in ipairs(KEYS) do self.spent[k] = self.spent[k] + (tonumber(d[k]) or 0) end
end

-- delta() -> what this process's calls spent since the last delta()
function M.delta(seen)
  local d, any = {}, false
  for _, k in ipairs(KEYS) do
    d[k] = agent.spent[k] - (seen[k] or 0)
    seen[k] = agent.spent[k]
    if d[k] ~= 0 then any = true end
  end
  return any and d or nil
end

-- collect(extra): count this process's new spending (and extra, from worker
-- processes) and append it to spend.jsonl
function Budget:collect(extra)
  for _, x in pairs({ M.delta(self.seen) or false, extra or false }) do
    if x then
      self:add(x)
      if not self.writer then self.writer = records.writer(self.path) end
      self.writer:write(x)
    end
  end
end

-- reached() -> nil, or a sentence naming the budget that is used up
function Budget:reached()
  local l, s = self.limits, self.spent
  if l.cost and s.cost >= l.cost then
    return string.format("the --max-cost budget of %.4g USD was reached (spent %.4g USD)", l.cost, s.cost)
  end
  if l.calls and s.calls >= l.calls then
    return string.format("the --max-calls budget of %d calls was reached (%d calls made)", l.calls, s.calls)
  end
  local tokens = s.input + s.output
  if l.tokens and tokens >= l.tokens then
    return string.format("the --max-run-tokens budget of %d tokens was reached (%d used)", l.tokens, tokens)
  end
  return nil
end

function Budget:close()
  if self.writer then self.writer:close(); self.writer = nil end
end

return M
