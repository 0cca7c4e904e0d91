-- tabula.dryrun — `tabula run SCENARIO --dry-run` for any scenario: plays the
-- first trials with an agent that captures the first request of each and stops
-- the trial there, then prints those requests. No model is called, no key is
-- needed, nothing is written to a run directory.
--
-- With a model (--model, not a built-in player) every planned trial is played
-- up to its first request, and the request the model's provider adapter would
-- send is built (the same body, never sent), so the dry run ends with an
-- estimate per model: the planned calls, the prompt tokens those requests
-- send and the worst case of their output limit, in dollars at the model's
-- prices (batch prices with --batch). Tokens are counted as --max-cost
-- reserves them (tabula.budget.worst): the bytes of each request body / 3,
-- rounded up; there is no tokenizer.
local transcripts = require "tabula.transcripts"
local budget = require "tabula.budget"
local models = require "tabula.models"

local M = {}

local STOP = setmetatable({}, { __tostring = function() return "dry run: stopped at the first request" end })

-- agent(cfg_name) -> an agent that raises STOP at its first reply() and keeps the request
local function agent()
  local a = { cfg = { name = "dry-run", provider = "builtin" }, requests = {} }
  function a:reply(conv, ctx)
    local copy = {}
    for i, m in ipairs(conv) do copy[i] = m end
    self.requests[#self.requests + 1] = { messages = copy, ctx = ctx }
    error(STOP, 0)
  end
  function a:describe() return { name = "dry-run" } end
  function a:is_builtin() return false end   -- it stands for a model (a scenario's tools arm shows its tools)
  return a
end

-- first(s, t, env) -> the first request trial t makes (nil: none)
local function first(s, t, env)
  local before = #env.agent.requests
  local ok, err = pcall(s.play, t, env.for_trial and env.for_trial(t) or env)
  if not ok and err ~= STOP then error(err, 0) end
  return env.agent.requests[before + 1]
end

local function money(x) return string.format("%.6g USD", x) end

-- estimate(model, requests, ntrials, batch) -> the lines of the estimate for
-- one model (an agent of tabula.agent, used only to build its requests)
function M.estimate(model, requests, ntrials, batch)
  local cfg = model.cfg
  local input, output, bytes, froms = 0, 0, 0, {}
  for _, req in ipairs(requests) do
    local built = model.provider.request(cfg, model:with_turns(req.messages), model.settings, false, req.ctx and req.ctx.tools)
    local i, o, b, from = budget.worst(cfg, built.body)
    input, output, bytes = input + i, output + o, bytes + b
    froms[from] = true
  end
  local prices = batch and models.batch_prices(cfg) or cfg.prices
  local lines = {}
  local function say(fmt, ...) lines[#lines + 1] = string.format(fmt, ...) end
  say("dry run: estimate for model %s (%s %s)%s", cfg.name, tostring(cfg.provider), tostring(cfg.model), batch and ", through the batch API" or "")
  if prices then
    say("  prices: %g USD per million input tokens, %g per million output tokens%s", prices.input or 0, prices.output or 0,
      cfg.prices_from and (" (" .. cfg.prices_from .. ")") or "")
  else
    say("  prices: none (give prices in the models file): tokens only")
  end
  say("  planned calls: %d (the first call of each trial that calls the model: %d of %d trials; a trial of several turns makes more, "
    .. "each sending the conversation so far)", #requests, #requests, ntrials)
  local p_in, p_out = prices and prices.input or 0, prices and prices.output or 0
  say("  prompt tokens: %d (%d bytes of request bodies / %d, rounded up per call; no tokenizer)%s", input, bytes,
    budget.BYTES_PER_TOKEN, prices and (", " .. money(1e-6 * p_in * input)) or "")
  local from = froms.request and "the requests' output limit" or froms.model and "the model's max_output_tokens"
    or string.format("tabula's default of %d", budget.DEFAULT_OUTPUT_TOKENS)
  say("  worst case output: %d tokens (%s)%s", output, from, prices and (", " .. money(1e-6 * p_out * output)) or "")
  if prices then say("  worst case of these calls: %s", money(1e-6 * (p_in * input + p_out * output))) end
  return lines
end

-- every(s, trials, env, shown) -> the estimate lines (env.dry_model: the
-- model's agent), from every trial's first request (shown[i]: trial i's,
-- captured already; false: it made none), or nil without a model
local function every(s, trials, env, shown)
  if not env.dry_model then return nil end
  local reqs = {}
  for i = 1, #trials do
    local req = shown[i]
    if req == nil then req = first(s, trials[i], env) end
    if req then reqs[#reqs + 1] = req end   -- a trial that calls no model plans no call
  end
  return M.estimate(env.dry_model, reqs, #trials, env.dry_batch)
end

local function say_estimate(env, estimate)
  if estimate then io.write(table.concat(estimate, "\n"), "\n")
  elseif env.dry_builtin then
    io.write(string.format("dry run: model %s is a built-in player: its calls cost nothing\n", env.dry_builtin))
  end
end

-- run(s, trials, env [, n [, teardown]]) -> 0: prints the first request of the
-- first n trials (default 2), then (env.dry_model: the model's agent) the
-- estimate of every trial's first call, then calls teardown(env)
function M.run(s, trials, env, n, teardown)
  n = math.min(n or 2, #trials)
  env.agent = agent()
  local shown = {}
  for i = 1, n do
    local t = trials[i]
    local req = first(s, t, env)
    shown[i] = req or false
    io.write(string.format("==== trial %s: first request\n", t.id))
    if not req then io.write("(the trial finished without calling the model)\n")
    else
      if req.ctx and req.ctx.board and req.ctx.board.fen then io.write("--- board: ", req.ctx.board:fen(), "\n") end
      io.write(transcripts.format_messages(req.messages), "\n")
      for _, tool in ipairs(req.ctx and req.ctx.tools or {}) do
        io.write(string.format("--- tool %s: %s %s\n", tool.name, tool.description, require("tabula.json").canonical(tool.parameters)))
      end
    end
  end
  local estimate = every(s, trials, env, shown)
  if teardown then teardown(env) end
  io.write(string.format("dry run: %d of %d planned trials shown; no model was called\n", n, #trials))
  say_estimate(env, estimate)
  return 0
end

-- estimate_only(s, trials, env [, teardown]) -> 0: the estimate alone, for a
-- scenario whose own dry_run printed its prompts (tabula.cmd.run)
function M.estimate_only(s, trials, env, teardown)
  env.agent = agent()
  local estimate = every(s, trials, env, {})
  if teardown then teardown(env) end
  say_estimate(env, estimate)
  return 0
end

return M
