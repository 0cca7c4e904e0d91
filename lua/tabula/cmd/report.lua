-- tabula report RUN — recompute a run's metrics from its records and write
-- report.md, summary.json and report.html into it. Works from any directory:
-- the scenario is the file run.json names (its absolute path), else, when that
-- file is gone, the scenario of the same name (tabula run's search).
local cli = require "tabula.cli"
local json = require "tabula.json"
local fs = require "tabula.fs"
local host = require "tabula.c.host"

local M = {}

-- scenario(meta) -> the run's scenario module, with a note on stderr when it
-- was found by name or its file changed since the run
function M.scenario(meta)
  local run = require("tabula.cmd.run").lib
  local f = meta.scenario_file
  local s
  if f and (fs.kind(f) == "file" or (f:sub(1, 1) ~= "/" and fs.kind(host.root .. "/" .. f) == "file")) then
    s = run.load(f)
  else
    if not meta.scenario then cli.fail("report: run.json names no scenario") end
    local ok, path = pcall(run.find, meta.scenario)
    if not ok then
      cli.fail("report: the run's scenario file %s is gone and no scenario named %s is found (run from the folder that holds scenarios/%s)",
        tostring(f), meta.scenario, meta.scenario)
    end
    s = run.load(path)
    if f then io.stderr:write(string.format("note: the run's scenario file %s is gone; reporting with %s (found by name)\n", f, s.path)) end
  end
  if meta.scenario_sha256 and fs.sha256_file(s.path) ~= meta.scenario_sha256 then
    io.stderr:write(string.format("note: %s changed since the run (sha256 %s then, %s now)\n", s.path,
      meta.scenario_sha256:sub(1, 12), (fs.sha256_file(s.path) or "?"):sub(1, 12)))
  end
  return s
end

-- write(dir, s [, no_html]) -> the console text: the scenario's report (it writes
-- report.md and summary.json), then report.html (replacing any older one),
-- ending in the line naming the files written
function M.write(dir, s, no_html)
  if not s.report then cli.fail("scenario %s has no report", s.name) end
  -- a section per variant (a run; an arena directory has no run.json); printed
  -- without control sequences (it may quote ids and replies)
  local by_variant = fs.kind(dir .. "/run.json") == "file"
  local text = require("tabula.terminal").clean((by_variant and require("tabula.variants").report(s, dir) or s.report(dir)) or "")
  require("tabula.model_settings").note_report(dir)   -- settings adjusted, prompt-cache share
  local md = s.name == "chessarena" and "leaderboard.md" or "report.md"
  if no_html then
    return text .. string.format("wrote %s/%s and %s/summary.json\n", dir, md, dir)
  end
  local view = require "tabula.view"
  local path, bytes = view.try_write(dir, s)
  if not path then   -- the records and the other two files stand; the page is told in one line
    io.write(text)
    view.page_failed(dir, bytes, string.format("%s/%s and %s/summary.json are written", dir, md, dir))
  end
  return text .. string.format("wrote %s/%s, %s/summary.json and %s/report.html (%d KB)\n", dir, md, dir, dir,
    (bytes + 1023) // 1024)
end

return {
  summary = "recompute metrics from a run's records: writes report.md, summary.json and report.html",
  usage = "RUN_DIR | ARENA_DIR [--no-html] | --index DIR",
  options = {
    { "index", "string", nil, "write DIR/index.html: one page listing the runs under DIR (scenario, model, date, trials, success with its interval, link)" },
    { "no-html", "bool", false, "only report.md and summary.json (computed streaming, in memory that does not grow with the run; report.html holds every trial)" },
  },
  main = function(opts, args)
    if opts.index then
      if #args > 0 then cli.fail("report: --index DIR takes no run directory (got '%s')", args[1]) end
      if fs.kind(opts.index) ~= "dir" then cli.fail("report: --index %s is not a directory", opts.index) end
      local path, n = require("tabula.view.index").write(opts.index)
      io.write(string.format("wrote %s (%d runs)\n", path, n))
      return 0
    end
    local dir = args[1] or cli.fail("report: give a run directory")
    if #args > 1 then cli.fail("report: unexpected argument '%s' (one run directory; to compare runs use tabula compare)", args[2]) end
    if fs.kind(dir) ~= "dir" then cli.fail("report: %s is not a directory", dir) end
    local meta
    if fs.kind(dir .. "/run.json") == "file" then
      meta = json.read_file(dir .. "/run.json")
    elseif fs.kind(dir .. "/games.jsonl") == "file" then   -- a ChessArena arena directory
      meta = { scenario = "chessarena" }   -- found by name
    else
      cli.fail("%s is not a run directory (no run.json) nor an arena (no games.jsonl)", dir)
    end
    local s = M.scenario(meta)
    require("tabula.cmd.run").lib.check_files(dir, s)
    io.write(M.write(dir, s, opts["no-html"]))
    return 0
  end,
  lib = M,
}
