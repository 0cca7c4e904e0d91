-- scenarios/dece/players.lua — one decision of a participant: the built-in baselines
-- (Random, Heuristic ε-greedy, ISMCTS) and model participants through their harness.
--
-- decide(p, ctx) -> result { action = id | nil, failure = nil | kind, why, usage, calls,
--   tools, attempts, fallback, prompt (the user message), reply (the final reply text) }
-- ctx = { G, state (not to be changed), seat, legal, rand, decision (index in the match),
--         match_id, memory (this seat's), agent (models), P (prompt set), budget_used }
-- A raised { infra = true } error is an infrastructure failure (the match is replayed).
local ismcts = require "games.ismcts"
local json = require "tabula.json"
local fs = require "tabula.fs"
local host = require "tabula.c.host"
local kit = require "games.kit"

local M = {}

local function zero() return { input = 0, cached = 0, output = 0, reasoning = 0 } end
M.zero_usage = zero

local function baseline(p, ctx)
  local m = p.manifest
  local id, info
  if m.player == "random" then id = ctx.legal[ctx.rand(#ctx.legal)].id
  elseif m.player == "heuristic" then id = ismcts.heuristic_pick(ctx.G, ctx.state, ctx.seat, ctx.legal, ctx.rand, m.epsilon)
  else id, info = ismcts.choose(ctx.G, ctx.state, ctx.seat, ctx.rand, { simulations = m.simulations, steps = m.steps, epsilon = m.epsilon, time = m.time_target }) end
  return { action = id, usage = zero(), calls = 0, search = info }
end

-- ---- model participants ----

local rules_cache = {}
local function rules_text(G)
  if not rules_cache[G.name] then
    rules_cache[G.name] = (fs.read(host.root .. "/" .. G.rules_file) or ("(no rules file for " .. G.name .. ")")):gsub("%s+$", "")
  end
  return rules_cache[G.name]
end
M.rules_text = rules_text

-- extract(text) -> the action id after the last "ACTION:", or the whole reply when it is one token
function M.extract(text)
  local last
  for id in (text or ""):gmatch("ACTION:%s*`?([^%s`]+)") do last = id end
  if last then return last end
  local only = (text or ""):match("^%s*`?([^%s`]+)`?%s*$")
  return only
end

local function tool_request(text)
  local name, arg = (text or ""):match("TOOL:%s*(%a+)%s*([^%s]*)")
  return name, arg
end

-- remember(memory, harness, user, reply [, turn]): what the next decision keeps of this
-- one; turn is the provider's own form of the reply (reasoning items, signed thinking
-- blocks, thought signatures: tabula.agent), sent back with it as the provider asks
function M.remember(mem, h, user, reply, turn)
  if h.memory == "full" or h.memory:match("^last:") then
    mem.messages = mem.messages or {}
    table.insert(mem.messages, { role = "user", content = user })
    table.insert(mem.messages, { role = "assistant", content = reply, turn = turn })
    local keep = tonumber(h.memory:match("^last:(%d+)$") or "")
    while keep and #mem.messages > 2 * keep do table.remove(mem.messages, 1) end
  elseif h.memory == "notes" then
    local notes = (reply or ""):match("<notes>(.-)</notes>")
    if notes then mem.notes = notes:gsub("^%s+", ""):gsub("%s+$", "") end
  end
end

function M.observation_text(G, state, seat, h)
  local obs = G.observation(state, seat)
  if h.format == "json" then return json.encode(obs) end
  return G.render(obs)
end

local function run_tool(G, state, seat, h, name, arg, legal)
  if name == "rules" then return rules_text(G) end
  if name == "state" then return M.observation_text(G, state, seat, h) end
  if name == "simulate" then
    local ok = false
    for _, a in ipairs(legal) do if a.id == arg then ok = true end end
    if not ok then return "simulate needs one of your legal action ids; '" .. tostring(arg) .. "' is not one" end
    -- on a copy seen from this seat (hidden parts resampled), never the real state
    local copy = G.determinize(state, seat, kit.generator(#arg + seat))
    G.apply(copy, seat, arg)
    return M.observation_text(G, copy, seat, h)
  end
  return "unknown tool " .. tostring(name)
end
M.run_tool = run_tool

local TOOL_LINES = {
  rules = "TOOL: rules  (the rules of this game)\n",
  state = "TOOL: state  (the current state again, as you see it)\n",
  simulate = "TOOL: simulate <action id>  (the state you would see after that action, on a copy; unknown cards or draws are made up)\n",
}

-- conversation(p, ctx, S, tools_text) -> conv, user: a decision's request, its system prompt
-- and turn from the prompt set S (the harness's, or its tools/ set), the legal and notes
-- blocks from ctx.P, the memory in between
function M.conversation(p, ctx, S, tools_text)
  local G, P, h = ctx.G, ctx.P, p.manifest.harness
  local mem = ctx.memory
  local system = S:fill("system", {
    title = G.title, seat = ctx.seat, players = ctx.state.n, rules = rules_text(G),
    legal_note = h.legal_actions and " and the list of your legal actions" or "",
    policy_note = h.retries > 0 and string.format("An answer that is not a legal action id gets %d more attempt%s.", h.retries, h.retries == 1 and "" or "s")
      or "An answer that is not a legal action id forfeits the game.",
    tools = tools_text,
    notes_note = h.memory == "notes" and "\nYou may keep notes for your later decisions: put them in <notes>...</notes> (they replace your earlier notes)." or "",
  })
  local lines = {}
  for i, a in ipairs(ctx.legal) do lines[i] = a.id .. ": " .. a.label end
  local user = S:fill("turn", {
    decision = ctx.decision, seat = ctx.seat, observation = M.observation_text(G, ctx.state, ctx.seat, h),
    legal_block = h.legal_actions and P:fill("legal_block", { actions = table.concat(lines, "\n") }) or "",
    notes_block = (h.memory == "notes" and mem.notes) and P:fill("notes_block", { notes = mem.notes }) or "",
  })
  local conv = { { role = "system", content = system } }
  for _, msg in ipairs(mem.messages or {}) do conv[#conv + 1] = msg end
  conv[#conv + 1] = { role = "user", content = user }
  return conv, user
end

-- ask(p, ctx, res, conv, n [, tools]) -> reply | nil (the participant's budget for the match
-- is spent: res.failure set): the n-th call of a decision, its usage counted in res and the
-- match budget, the reply appended to conv
function M.ask(p, ctx, res, conv, n, tools)
  local m, used = p.manifest, ctx.budget_used
  local budget = m.budget or {}
  if (budget.max_output_tokens and used.output >= budget.max_output_tokens) or (budget.max_cost and used.cost >= budget.max_cost) then
    res.failure, res.why = "budget", "the participant's budget for this match is spent"
    return nil
  end
  local ids = {}
  for i, a in ipairs(ctx.legal) do ids[i] = a.id end
  local reply, err = ctx.agent:reply(conv, { key = ctx.match_id .. ":" .. ctx.seat,
    sample = (ctx.salt or 0) * 100000000 + ctx.decision * 1000 + n,   -- a null arm's copy: other cache keys
    legal_actions = ids, rng = ctx.rand, tools = tools, format = function(a) return "ACTION: " .. tostring(a) end,
    instruction = ctx.instruction })
  if not reply then error(err, 0) end
  res.calls = res.calls + 1
  for k in pairs(res.usage) do res.usage[k] = res.usage[k] + ((reply.usage or {})[k] or 0) end
  used.output = used.output + ((reply.usage or {}).output or 0)
  used.cost = used.cost + require("tabula.models").cost(m.prices ~= json.null and m.prices or nil, reply.usage or {})
  res.turn = reply.turn   -- the provider's form of the reply, kept with it in the memory
  res.replies[#res.replies + 1] = reply.text or ""
  conv[#conv + 1] = require("tabula.agent").assistant(reply)
  return reply
end

local function model(p, ctx)
  local G, P, h = ctx.G, ctx.P, p.manifest.harness
  local ids = {}
  for i, a in ipairs(ctx.legal) do ids[i] = a.id end
  local allowed = {}
  for _, tl in ipairs(h.tools) do allowed[tl] = true end
  local tool_list = ""
  for _, tl in ipairs(h.tools) do tool_list = tool_list .. TOOL_LINES[tl] end
  local conv, user = M.conversation(p, ctx, P, #h.tools > 0 and P:fill("tools", { max_tools = h.max_tools, tool_list = tool_list }) or "")
  local res = { usage = zero(), calls = 0, tools = 0, attempts = 0, prompt = user, replies = {} }
  local calls = 0
  for attempt = 1, 1 + h.retries do
    res.attempts = attempt
    local text
    local tools_left = #h.tools > 0 and h.max_tools or 0
    while true do
      calls = calls + 1
      local reply = M.ask(p, ctx, res, conv, calls)
      if not reply then return res end
      text = reply.text or ""
      local tool, arg = tool_request(text)
      if M.extract_action_line(text) or not tool or not allowed[tool] or tools_left <= 0 then break end
      tools_left = tools_left - 1
      res.tools = res.tools + 1
      conv[#conv + 1] = { role = "user", content = P:fill("tool_result", { tool = tool .. (arg ~= "" and (" " .. arg) or ""),
        result = run_tool(G, ctx.state, ctx.seat, h, tool, arg, ctx.legal), left = tools_left }) }
    end
    res.reply = text
    local id = M.extract(text)
    local legal = false
    for _, x in ipairs(ids) do if x == id then legal = true end end
    if legal then res.action = id; return res end
    res.why = id and ("'" .. id .. "' is not a legal action id") or "no ACTION line"
    if attempt <= h.retries then
      conv[#conv + 1] = { role = "user", content = P:fill("retry", { why = res.why, attempt = attempt + 1, max_attempts = 1 + h.retries }) }
    end
  end
  res.failure = "invalid"
  M.fall_back(res, h, ctx)
  return res
end

-- fall_back(res, h, ctx): an invalid answer's action by the harness's fallback (none: no action)
function M.fall_back(res, h, ctx)
  if h.fallback == "none" then return end
  res.fallback = h.fallback
  res.action = h.fallback == "random" and ctx.legal[ctx.rand(#ctx.legal)].id
    or ismcts.heuristic_pick(ctx.G, ctx.state, ctx.seat, ctx.legal, ctx.rand, 0)
end

function M.extract_action_line(text) return (text or ""):find("ACTION:", 1, true) ~= nil end

function M.decide(p, ctx)
  if p.kind == "model" and p.manifest.harness.program then   -- an agent program (tabula.program)
    local P = ctx.P.program
    ctx.instruction = P:fill("instruction", { title = ctx.G.title, seat = ctx.seat, players = ctx.state.n })
    local ok, res = pcall(require("scenarios.dece.tools").decide, p, ctx)
    -- the decision is over either way: the program's call in flight is answered, the program stopped
    local ok2, err2 = pcall(ctx.agent.end_decision, ctx.agent, { key = ctx.match_id .. ":" .. ctx.seat }, ok and res or { why = "the match stopped" })
    if not ok then error(res, 0) end
    if not ok2 then error(err2, 0) end
    return res
  end
  if p.kind == "model" and p.manifest.harness.protocol == "tools" then return require("scenarios.dece.tools").decide(p, ctx) end
  if p.kind == "model" then return model(p, ctx) end
  return baseline(p, ctx)
end

return M
