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
  local G, h = ctx.G, p.manifest.harness
  local TP = ctx.P.tools
  local decl, allowed = M.declare(h, TP)
  local legal_set = {}
  for _, a in ipairs(ctx.legal) do legal_set[a.id] = true end
  local names = {}
  for _, tl in ipairs(h.tools) do names[#names + 1] = tl end
  local conv, user = players.conversation(p, ctx, TP,
    #h.tools > 0 and TP:fill("tools", { max_tools = h.max_tools, tool_names = table.concat(names, ", ") }) or "")
  local res = { usage = players.zero_usage(), calls = 0, tools = 0, attempts = 0, prompt = user, replies = {} }
  local calls = 0
  for attempt = 1, 1 + h.retries do
    res.attempts = attempt
    local tools_left = h.max_tools
    local chosen, why
    while not chosen and not why do
      calls = calls + 1
      local reply = players.ask(p, ctx, res, conv, calls, decl)
      if not reply then return res end
      if not reply.tool_calls or #reply.tool_calls == 0 then
        why = reply.program_end or "no act call"
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
    res.turn = nil   -- a turn that called tools is not kept: the memory holds the decision as text
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
