-- tabula play SCENARIO --case ID [options] — play the agent's side yourself at
-- the terminal, through the same protocol the models get, for any scenario.
-- ID is a trial id or its beginning (the first trial that starts with it is
-- played): a case id picks that case's first trial. The human player shows
-- every message the model would get (the system prompt too); images are saved
-- to files and their paths printed. Records go to --out (default runs/play-TIME).
-- A line "quit" or Ctrl-D (end of input) ends the session; the unfinished trial
-- is not recorded.
local run = require("tabula.cmd.run").lib
local cli = require "tabula.cli"

return {
  summary = "play a scenario's agent side at the terminal: tabula play SCENARIO --case ID (a trial id or its beginning)",
  raw_args = true,
  main = function(_, args)
    local path = args[1]
    if not path or path == "--help" then
      io.write("usage: tabula play SCENARIO --case ID [--out DIR] [scenario options]\n")
      return 0
    end
    local rest, case, out = {}, nil, false
    local i = 2
    while i <= #args do
      if args[i] == "--case" then case = args[i + 1]; i = i + 2
      else
        if args[i] == "--out" or args[i]:match("^%-%-out=") then out = true end
        rest[#rest + 1] = args[i]; i = i + 1
      end
    end
    if not case then cli.fail("play: give --case ID (a trial id or its beginning)") end
    local forced = { model = "human", concurrency = 1, trial = case, ["no-cache"] = true, workers = 1 }
    if not out then forced.out = string.format("runs/play-%s", os.date("%Y%m%d-%H%M%S")) end
    return run.run_args({ path, table.unpack(rest) }, forced)
  end,
}
