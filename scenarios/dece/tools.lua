-- scenarios/dece/tools.lua — a model participant's decision through native
-- tool calls (harness "protocol": "tools"): the action is a call of `act`
-- with the action id, and the harness's queries (rules, state, simulate) are
-- tools beside it; the prompts are the harness folder's tools/ templates.
-- The same policy as the text harness: a decision allows max_tools queries;
-- a reply whose calls hold no act, an act with an id that is not legal, a
-- query over the allowance or an unknown tool is an invalid answer (retries
-- and fallback as the harness says). Several calls in one reply run in order
-- (tabula.tools); the calls after act, or after the call that made the
-- answer invalid, are not executed. Memory (full, last:N) keeps each
-- decision's prompt and "ACTION: <id>", as the text harness keeps its reply.
-- The MCP-driven participant (model "mcp", under tabula mcp dece) plays so.
local tools = require "tabula.tools"
local json = require "tabula.json"
local players = require "scenarios.dece.players"

local M = {}

local ORDER = { "rules", "state", "simulate" }

-- declare(h, P) -> the tools of a harness
function M.declare(h, P)
  local allowed = {}
  for _, tl in ipairs(h.tools) do allowed[tl] = true end
  local list = { { name = "act", description = P:fill("tool_act", {}),
    parameters = tools.object({ id = tools.string("the action id") }, { "id" }) } }
  for _, name in ipairs(ORDER) do
    if allowed[name] then
      list[#list + 1] = { name = name, description = P:fill("tool_" .. name, {}),
        parameters = name == "simulate" and tools.object({ id = tools.string("one of your legal action ids") }, { "id" }) or nil }
    end
  end
  return tools.declare(list), allowed
end

function M.decide(p, ctx)
  local G, h, m = ctx.G, p.manifest.harness, p.manifest
  local P, TP = ctx.P, ctx.P.tools
  local mem = ctx.memory
  local decl, allowed = M.declare(h, TP)
  local ids, legal_set = {}, {}
  for i, a in ipairs(ctx.legal) do ids[i] = a.id; legal_set[a.id] = true end
  local names = {}
  for _, tl in ipairs(h.tools) do names[#names + 1] = tl end
  local system = TP:fill("system", {
    title = G.title, seat = ctx.seat, players = ctx.state.n, rules = players.rules_text(G),
    legal_note = h.legal_actions and " and the list of your legal actions" or "",
    policy_note = h.retries > 0 and string.format("An answer that is not a legal action id gets %d more attempt%s.", h.retries, h.retries == 1 and "" or "s")
      or "An answer that is not a legal action id forfeits the game.",
    tools = #h.tools > 0 and TP:fill("tools", { max_tools = h.max_tools, tool_names = table.concat(names, ", ") }) or "",
    notes_note = h.memory == "notes" and "\nYou may keep notes for your later decisions: put them in <notes>...</notes> (they replace your earlier notes)." or "",
  })
  local lines = {}
  for i, a in ipairs(ctx.legal) do lines[i] = a.id .. ": " .. a.label end
  local user = TP:fill("turn", {
    decision = ctx.decision, seat = ctx.seat, observation = players.observation_text(G, ctx.state, ctx.seat, h),
    legal_block = h.legal_actions and P:fill("legal_block", { actions = table.concat(lines, "\n") }) or "",
    notes_block = (h.memory == "notes" and mem.notes) and P:fill("notes_block", { notes = mem.notes }) or "",
  })
  local conv = { { role = "system", content = system } }
  for _, msg in ipairs(mem.messages or {}) do conv[#conv + 1] = msg end
  conv[#conv + 1] = { role = "user", content = user }
  local res = { usage = players.zero_usage(), calls = 0, tools = 0, attempts = 0, prompt = user, replies = {} }
  local budget = m.budget or {}
  local calls = 0
  for attempt = 1, 1 + h.retries do
    res.attempts = attempt
    local tools_left = h.max_tools
    local chosen, why
    while not chosen and not why do
      local used = ctx.budget_used
      if (budget.max_output_tokens and used.output >= budget.max_output_tokens) or (budget.max_cost and used.cost >= budget.max_cost) then
        res.failure, res.why = "budget", "the participant's budget for this match is spent"
        return res
      end
      calls = calls + 1
      local reply, err = ctx.agent:reply(conv, { key = ctx.match_id .. ":" .. ctx.seat, sample = ctx.decision * 1000 + calls,
        legal_actions = ids, rng = ctx.rand, tools = decl, format = function(a) return "ACTION: " .. tostring(a) end })
      if not reply then error(err, 0) end
      res.calls = res.calls + 1
      for k in pairs(res.usage) do res.usage[k] = res.usage[k] + ((reply.usage or {})[k] or 0) end
      used.output = used.output + ((reply.usage or {}).output or 0)
      used.cost = used.cost + require("tabula.models").cost(m.prices ~= json.null and m.prices or nil, reply.usage or {})
      res.replies[#res.replies + 1] = reply.text or ""
      conv[#conv + 1] = require("tabula.agent").assistant(reply)
      if not reply.tool_calls or #reply.tool_calls == 0 then
        why = "no act call"
      else
        local results = tools.answer(reply.tool_calls, function(call)
          local a = call.arguments or {}
          if call.name == "act" then
            if type(a.id) == "string" and legal_set[a.id] then chosen = a.id; return "Played " .. a.id .. ".", true end
            why = type(a.id) == "string" and ("'" .. a.id .. "' is not a legal action id") or "act needs an action id"
            return "That answer cannot be played: " .. why .. ".", true, true
          end
          if not allowed[call.name] then why = "unknown tool " .. call.name; return why .. ".", true, true end
          if tools_left <= 0 then why = "no tool calls left for this decision"; return why .. ".", true, true end
          tools_left = tools_left - 1
          res.tools = res.tools + 1
          return players.run_tool(G, ctx.state, ctx.seat, h, call.name, tostring(a.id or ""), ctx.legal), false
        end)
        for _, r in ipairs(results) do conv[#conv + 1] = r end
      end
    end
    if chosen then
      res.action = chosen
      local said = table.concat(res.replies, "\n"):gsub("^%s+", "")
      res.reply = (said ~= "" and (said .. "\n") or "") .. "ACTION: " .. chosen
      return res
    end
    res.why, res.reply = why, res.replies[#res.replies]
    if attempt <= h.retries then
      conv[#conv + 1] = { role = "user", content = TP:fill("retry", { why = why, attempt = attempt + 1, max_attempts = 1 + h.retries }) }
    end
  end
  res.failure = "invalid"
  players.fall_back(res, h, ctx)
  return res
end

return M
