-- tabula mcp SCENARIO [options] — serve a scenario's trials over the Model
-- Context Protocol on stdio (tabula.mcp), for an agent program to play: the
-- scenario's tools arm (--protocol tools), one trial at a time in plan order
-- (the queue: --trials, --ids, --limit, --setting ... select it as for tabula
-- run), with the same referee, budgets and records as any run (--out, default
-- runs/<scenario>-mcp-<time>; an existing one is continued). stdout carries
-- only the protocol; the run's own lines go to stderr. A scenario offers
-- itself with S.mcp = { options = {...} } (the options forced for its tools
-- arm); in a match scenario (DECE) the participants whose model is "mcp" are
-- the client's seats.
--
--   tabula mcp xiangqibench --setting sighted --trials 1 --out runs/mcp-claude-code --agent-name claude-code
local cli = require "tabula.cli"
local loop = require "tabula.loop"
local run = require("tabula.cmd.run").lib
local mcp = require "tabula.mcp"
local models = require "tabula.models"

local M = {}

M.summary = "serve a scenario's trials over MCP on stdio: tabula mcp SCENARIO [options]"
M.usage = "SCENARIO [options]"

M.OPTIONS = {
  { "agent-name", "string", "mcp-client", "the name the run records for the agent program (its model name in run.json and the records)" },
  { "max-message-bytes", "int", 4 * 1024 * 1024, "the largest client message (one line) read; a longer one is answered with a JSON-RPC error", min = 1 },
}

-- options(s) -> the scenario's run options (common and its own) and tabula mcp's
local function options(s)
  local spec = run.spec(s)
  for _, o in ipairs(M.OPTIONS) do spec[#spec + 1] = o end
  return spec
end

function M.serve(s, opts)
  if not s.mcp then cli.fail("mcp: scenario %s has no tools arm to serve over MCP", s.name) end
  if opts["dry-run"] then cli.fail("mcp: --dry-run is tabula run's (tabula run %s --protocol tools --dry-run shows the first request)", s.name) end
  if cli.given(opts).model then cli.fail("mcp: the agent is the MCP client (--model is not taken; name it with --agent-name)") end
  local name = opts["agent-name"]
  models.mcp = name   -- the model "mcp" (the run's, or a DECE participant's) is the MCP client
  local session = mcp.session({ max_message_bytes = opts["max-message-bytes"] })
  io.output(io.stderr)   -- stdout is the protocol's
  session:start()
  -- the scenario's own (XiangqiBench: --protocol tools), and one trial at a time
  local forced = { concurrency = 1, workers = 1, ["no-cache"] = true, stream = false, model = "mcp",
    out = opts.out or string.format("runs/%s-mcp-%s", s.name, os.date("%Y%m%d-%H%M%S")) }
  if s.refuse and s.refuse.model then forced.model = nil end   -- a scenario of participants (DECE): its "mcp" seats
  for k, v in pairs(s.mcp.options or {}) do forced[k] = v end
  local play = s.play
  s.play = function(trial, env)
    session:trial_begins(trial)
    local rec, err = play(trial, env)
    session:trial_over(trial, rec, err)
    return rec, err
  end
  local rc, out = run.execute(s, opts, forced)
  session:finish(out)
  session:wait_closed()
  return rc
end

return {
  summary = M.summary,
  raw_args = true,
  main = function(_, args)
    local path = args[1]
    if path == nil or path == "--help" or path == "-h" then
      io.write(cli.help_text(M.OPTIONS, { program = "tabula mcp", usage = M.usage, summary = M.summary }))
      return 0
    end
    local s = run.load(path)
    local opts, extra = cli.parse(options(s), { table.unpack(args, 2) }, { program = "tabula mcp " .. path, summary = s.summary })
    if not opts then return 0 end
    if #extra > 0 then cli.fail("unexpected argument '%s' (options start with --)", extra[1]) end
    local rc
    loop.run(function() rc = M.serve(s, opts) end)
    return rc
  end,
  lib = M,
}
