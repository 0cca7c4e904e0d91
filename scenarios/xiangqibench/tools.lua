-- scenarios.xiangqibench.tools — the XiangqiBench REPL as native tools (the
-- `--protocol tools` arm, and `tabula mcp xiangqibench`): one tool per
-- command the setting offers (move, resign, history, think; view_board,
-- legal_moves and simulate where queries are on), described by the prompt
-- files in prompts/xiangqibench/tools/, and a tool call turned into the
-- command the text REPL would have parsed, so both arms share one referee
-- and one set of budgets.
--
-- Choices: a call of a query the setting does not offer (view_board,
-- legal_moves, simulate) is rejected as disabled, as the text arm rejects the
-- command; any other unknown tool is an unknown command; arguments that are not a
-- JSON object, or a move that is not four ICCS characters, are a malformed
-- command; properties a tool does not declare are ignored. The system
-- prompt is the text arm's with its "How to act" paragraph (tools/act_text.txt,
-- matched exactly) replaced by tools/act_tools.txt.
local tools = require "tabula.tools"
local commands = require "scenarios.xiangqibench.commands"
local cli = require "tabula.cli"

local M = {}

local QUERIES = { view_board = true, legal_moves = true, simulate = true }
M.ORDER = { "move", "resign", "view_board", "legal_moves", "history", "simulate", "think" }

-- declare(trial) -> the tools of the trial's setting, and the set of their names
function M.declare(trial)
  local o, P = trial.opts, trial.tool_prompts
  local values = { view_budget = o["view-budget"], simulate_budget = o["simulate-budget"], simulate_max = o["simulate-max"] }
  local params = {
    move = tools.object({ move = tools.string("the move in ICCS coordinates, origin then destination, e.g. h2e2") }, { "move" }),
    simulate = tools.object({ moves = tools.array(tools.string("a move in ICCS coordinates"),
      "the line, moves for both sides alternating from now", o["simulate-max"]) }, { "moves" }),
    think = tools.object({ text = tools.string("your reasoning") }, { "text" }),
  }
  local list, names = {}, {}
  for _, name in ipairs(M.ORDER) do
    if trial.setting.queries or not QUERIES[name] then
      list[#list + 1] = { name = name, description = P:fill("tool_" .. name, values), parameters = params[name] }
      names[name] = true
    end
  end
  return tools.declare(list), names
end

-- system_prompt(text, P) -> the text arm's system prompt with the tools arm's "How to act"
function M.system_prompt(text, P)
  local old, new = P:raw("act_text"), P:raw("act_tools")
  local i, j = text:find(old, 1, true)
  if not i then
    cli.fail("prompt folder: the system prompt has no paragraph matching %s/act_text.txt to replace for --protocol tools", P.dir)
  end
  return text:sub(1, i - 1) .. new .. text:sub(j + 1)
end

local function bad(name, raw, why) return { name = "malformed", command = name, raw = raw, why = why } end

-- command(call, names) -> the command the call stands for (commands.parse's shape)
function M.command(call, names)
  local raw = tools.describe(call)
  if not names[call.name] then
    -- a query the setting does not offer is refused as disabled, as in the text arm
    if QUERIES[call.name] then return { name = call.name, raw = raw, moves = {} } end
    return { name = "unknown", raw = call.name }
  end
  if call.why then return bad(call.name, raw, call.name .. ": " .. call.why) end
  local a = call.arguments
  if call.name == "move" then
    if type(a.move) ~= "string" or a.move == "" then return bad("move", raw, "move needs a move like h2e2") end
    local m = commands.iccs((a.move:gsub("%s", "")))
    if not m then return bad("move", raw, string.format("'%s' is not a move in ICCS coordinates (like h2e2)", a.move)) end
    return { name = "move", move = m, raw = raw }
  elseif call.name == "simulate" then
    local list = a.moves
    if type(list) == "string" then   -- a line written as one string
      local parts = {}
      for tok in list:gmatch("[^%s,]+") do parts[#parts + 1] = tok end
      list = parts
    end
    if type(list) ~= "table" or #list == 0 then return bad("simulate", raw, "simulate needs at least one move") end
    local moves = {}
    for _, tok in ipairs(list) do
      local m = type(tok) == "string" and commands.iccs(tok)
      if not m then return bad("simulate", raw, string.format("'%s' is not a move in ICCS coordinates (like h2e2)", tostring(tok))) end
      moves[#moves + 1] = m
    end
    return { name = "simulate", moves = moves, raw = raw }
  elseif call.name == "think" then
    return { name = "think", arg = type(a.text) == "string" and a.text:match("^%s*(.-)%s*$") or "", raw = raw }
  end
  return { name = call.name, raw = raw }
end

return M
