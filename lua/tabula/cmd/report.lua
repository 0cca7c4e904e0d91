-- tabula report RUN — recompute a run's metrics from its records and write
-- report.md, summary.json and report.html into it.
local cli = require "tabula.cli"
local json = require "tabula.json"
local fs = require "tabula.fs"

return {
  summary = "recompute metrics from a run's records: writes report.md, summary.json and report.html",
  usage = "RUN_DIR | ARENA_DIR [--no-html]",
  options = {
    { "no-html", "bool", false, "only report.md and summary.json (computed streaming, in memory that does not grow with the run; report.html holds every trial)" },
  },
  main = function(opts, args)
    local no_html = opts["no-html"]
    local dir = args[1] or cli.fail("report: give a run directory")
    if #args > 1 then cli.fail("report: unexpected argument '%s' (one run directory; to compare runs use tabula compare)", args[2]) end
    local meta
    if fs.kind(dir .. "/run.json") == "file" then
      meta = json.read_file(dir .. "/run.json")
    elseif fs.kind(dir .. "/games.jsonl") == "file" then   -- a ChessArena arena directory
      meta = { scenario = "chessarena", scenario_file = "scenarios/chessarena.lua" }
    else
      cli.fail("%s is not a run directory (no run.json) nor an arena (no games.jsonl)", dir)
    end
    local run = require("tabula.cmd.run").lib
    local s = run.load(meta.scenario_file)
    if not s.report then cli.fail("scenario %s has no report", meta.scenario) end
    io.write(require("tabula.variants").report(s, dir) or "")   -- a section per variant
    if no_html then
      io.write(string.format("wrote %s/report.md and %s/summary.json\n", dir, dir))
      return 0
    end
    local _, bytes = require("tabula.view").write(dir, s)
    io.write(string.format("wrote %s/%s, %s/summary.json and %s/report.html (%d KB)\n", dir,
      meta.scenario == "chessarena" and "leaderboard.md" or "report.md", dir, dir, (bytes + 1023) // 1024))
    return 0
  end,
}
