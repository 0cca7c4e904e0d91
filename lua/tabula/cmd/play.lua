-- tabula play SCENARIO.lua --case ID [options] — play the agent's side yourself
-- at the terminal, through the same protocol the models get.
local run = require("tabula.cmd.run").lib
local cli = require "tabula.cli"

return {
  summary = "play a scenario's agent side at the terminal: tabula play scenarios/xiangqibench.lua --case ID",
  raw_args = true,
  main = function(_, args)
    local path = args[1]
    if not path or path == "--help" then
      io.write("usage: tabula play SCENARIO.lua --case ID [--setting sighted] [scenario options]\n")
      return 0
    end
    local rest, case = {}, nil
    local i = 2
    while i <= #args do
      if args[i] == "--case" then case = args[i + 1]; i = i + 2
      else rest[#rest + 1] = args[i]; i = i + 1 end
    end
    if not case then cli.fail("play: give --case ID") end
    local forced = { model = "human", trials = 1, concurrency = 1, ids = { case }, ["no-cache"] = true,
      out = string.format("runs/play-%s", os.date("%Y%m%d-%H%M%S")) }
    return run.run_args({ path, table.unpack(rest) }, forced)
  end,
}
