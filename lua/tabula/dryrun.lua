-- tabula.dryrun — `tabula run SCENARIO --dry-run` for any scenario: plays the
-- first trials with an agent that captures the first request of each and stops
-- the trial there, then prints those requests. No model is called, no key is
-- needed, nothing is written to a run directory.
local transcripts = require "tabula.transcripts"

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

-- run(s, trials, env [, n [, teardown]]) -> 0: prints the first request of the
-- first n trials (default 2), then calls teardown(env)
function M.run(s, trials, env, n, teardown)
  n = math.min(n or 2, #trials)
  env.agent = agent()
  for i = 1, n do
    local t = trials[i]
    local before = #env.agent.requests
    local ok, err = pcall(s.play, t, env.for_trial and env.for_trial(t) or env)
    if not ok and err ~= STOP then error(err, 0) end
    io.write(string.format("==== trial %s: first request\n", t.id))
    local req = env.agent.requests[before + 1]
    if not req then io.write("(the trial finished without calling the model)\n")
    else
      if req.ctx and req.ctx.board and req.ctx.board.fen then io.write("--- board: ", req.ctx.board:fen(), "\n") end
      io.write(transcripts.format_messages(req.messages), "\n")
      for _, tool in ipairs(req.ctx and req.ctx.tools or {}) do
        io.write(string.format("--- tool %s: %s %s\n", tool.name, tool.description, require("tabula.json").canonical(tool.parameters)))
      end
    end
  end
  if teardown then teardown(env) end
  io.write(string.format("dry run: %d of %d planned trials shown; no model was called\n", n, #trials))
  return 0
end

return M
