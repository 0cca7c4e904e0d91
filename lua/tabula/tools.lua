-- tabula.tools — native tool calls, provider-neutral: how a scenario declares
-- its actions and queries as tools, how a conversation holds tool calls and
-- their results, and the rule for several calls in one reply. The provider
-- adapters (providers/) put these on each service's wire; the MCP server
-- (tabula.mcp) serves the same declarations.
--
--   local tools = require "tabula.tools"
--   local decl = tools.declare({
--     { name = "move", description = "play a move", parameters = tools.object({ move = tools.string("ICCS, e.g. h2e2") }, { "move" }) },
--   })
--   local reply = agent:reply(conversation, { tools = decl })
--   reply.tool_calls = { { id, name, arguments = table | nil, raw = "the arguments as sent", why } }
--   conversation[#conversation + 1] = agent.assistant(reply)          -- text, tool calls, provider turn
--   for _, m in ipairs(tools.answer(reply.tool_calls, run)) do conversation[#conversation + 1] = m end
--
-- A conversation's messages gain two shapes: an assistant message with
-- tool_calls (its content the text beside them, often ""), and
-- { role = "tool", call_id, name, content = text }, the result of one call;
-- the results of an assistant message's calls follow it, in the calls' order.
--
-- Several calls in one reply (the parallel rule): they run one after the
-- other in the order the model gave them; each that runs is answered with its
-- result; once one ends the turn (run returns stop = true: a move, a
-- resignation, the end of the game, a forfeit), every later call is answered
-- "not executed" (M.NOT_RUN) and does not count toward any budget. Every
-- call is answered, as the services require.
local json = require "tabula.json"

local M = {}

M.NOT_RUN = "Not executed: an earlier call in the same reply ended the turn."

-- schema helpers (JSON Schema, the subset every service takes)
function M.string(description) return { type = "string", description = description } end
function M.array(items, description, max)
  return { type = "array", items = items, description = description, maxItems = max }
end
-- object(properties [, required]) -> an object schema (no properties: an empty object)
function M.object(properties, required)
  local props = json.object()
  for k, v in pairs(properties or {}) do props[k] = v end
  local s = { type = "object", properties = props }
  if required and #required > 0 then s.required = json.array(required) end
  return s
end

-- declare(list) -> the list, checked: a name the services take, a description,
-- an object schema (a programming error raises)
function M.declare(list)
  local seen = {}
  for i, t in ipairs(list) do
    assert(type(t.name) == "string" and t.name:match("^[%a_][%w_%-]*$") and #t.name <= 64,
      string.format("tool %d: a name of letters, digits, _ and - (at most 64)", i))
    assert(not seen[t.name], "tool " .. t.name .. " is declared twice")
    seen[t.name] = true
    assert(type(t.description) == "string" and t.description ~= "", "tool " .. t.name .. " needs a description")
    t.parameters = t.parameters or M.object({})
    assert(t.parameters.type == "object", "tool " .. t.name .. ": parameters must be an object schema")
  end
  return list
end

-- has_properties(schema) -> does the schema name any property?
function M.has_properties(schema)
  return type(schema) == "table" and type(schema.properties) == "table" and next(schema.properties) ~= nil
end

-- call(id, name, raw | table) -> a tool call: arguments decoded from the raw
-- text (an object), or why they could not be
function M.call(id, name, args)
  local c = { id = tostring(id), name = tostring(name) }
  if type(args) == "table" then
    c.arguments = args
    c.raw = json.canonical(next(args) == nil and json.object() or args)
    return c
  end
  c.raw = type(args) == "string" and args or ""
  local raw = c.raw:match("^%s*$") and "{}" or c.raw
  local d, err = json.decode(raw)
  if type(d) == "table" and getmetatable(d) ~= json.array_mt then c.arguments = d
  else c.why = d == nil and ("the arguments are not JSON: " .. tostring(err)) or "the arguments are not a JSON object" end
  return c
end

-- arguments_object(call) -> the call's arguments as they go on the wire (an object, never [])
function M.arguments_object(c)
  local a = c.arguments
  if type(a) ~= "table" or next(a) == nil then return json.object() end
  return a
end

-- result(call, text [, is_error]) -> the tool message answering the call
-- (is_error: the call was refused, e.g. a rejected action)
function M.result(c, text, is_error)
  return { role = "tool", call_id = c.id, name = c.name, content = tostring(text), is_error = is_error or nil }
end

-- answer(calls, run) -> the tool messages answering every call, by the parallel
-- rule above; run(call) -> text, stop, is_error. Also returns how many calls ran.
function M.answer(calls, run)
  local out, stopped, ran = {}, false, 0
  for _, c in ipairs(calls or {}) do
    if stopped then out[#out + 1] = M.result(c, M.NOT_RUN)
    else
      local text, stop, is_error = run(c)
      ran = ran + 1
      out[#out + 1] = M.result(c, text, is_error)
      stopped = stop and true or false
    end
  end
  return out, ran
end

-- describe(call) -> "name {args}" for logs and transcripts
function M.describe(c)
  return string.format("%s %s", c.name, c.raw or "{}")
end

return M
