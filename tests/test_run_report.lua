-- tabula run ends every run with report.html (replacing a stale one) and a last
-- line naming the files it wrote; tabula report RUN works from any directory:
-- run.json names the scenario by absolute path and sha256, and a scenario
-- file that is gone is found by name.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local test, T = t.suite()

local MINE = [[
-- mine.lua: a one-file scenario of a user's own, beside their data
local fs = require "tabula.fs"
return { name = "mine", summary = "my own scenario", defaults = { trials = 1 },
  plan = function(opts) return { { id = "a" }, { id = "b" } }, {} end,
  play = function(trial, env) return { trial_id = trial.id, status = "success" } end,
  report = function(dir)
    fs.write_atomic(dir .. "/report.md", "# mine\n"); fs.write_atomic(dir .. "/summary.json", "{}\n")
    return "mine: reported\n"
  end }
]]

local function last_line(text)
  local lines = {}
  for l in text:gmatch("[^\n]+") do if not l:match("^rc=") then lines[#lines + 1] = l end end
  return lines[#lines]
end

test("tabula run writes report.html at the end, replacing a stale one; its last line names the files", function()
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/mine.lua", MINE)
  fs.mkdir_p(dir .. "/r")
  fs.write_atomic(dir .. "/r/report.html", "STALE REPORT")
  local out = t.sh(string.format("cd %s && %s run ./mine.lua --out r --quiet", dir, t.tabula_bin()))
  t.contains(out, "rc=0")
  t.contains(out, "mine: reported")
  t.eq(last_line(out):match("^wrote r/report%.md, r/summary%.json and r/report%.html %(%d+ KB%)$") ~= nil, true,
    "last line: " .. tostring(last_line(out)))
  local html = fs.read(dir .. "/r/report.html")
  t.ok(not html:find("STALE REPORT", 1, true), "the stale report.html was replaced")
  t.contains(html, "<html")
  -- the scenario by absolute path and hash
  local meta = json.read_file(dir .. "/r/run.json")
  t.eq(meta.scenario_file:sub(1, 1), "/", "an absolute path: " .. meta.scenario_file)
  t.eq(fs.read(meta.scenario_file), MINE)
  t.eq(meta.scenario_sha256, fs.sha256(MINE))
end)

test("tabula report RUN from another directory, and by name when the scenario file is gone", function()
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/mine.lua", MINE)
  t.contains(t.sh(string.format("cd %s && %s run ./mine.lua --out r --quiet", dir, t.tabula_bin())), "rc=0")
  fs.remove(dir .. "/r/report.html")
  local out = t.sh(string.format("cd / && %s report %s/r", t.tabula_bin(), dir))
  t.contains(out, "rc=0")
  t.contains(out, "mine: reported")
  t.eq(fs.kind(dir .. "/r/report.html"), "file")
  -- a run of a scenario by name whose file has since moved: found by its name
  local r2 = t.tmpdir()
  t.contains(t.sh(string.format("cd %s && %s run xiangqibench --limit 1 --trials 1 --out run --quiet", r2, t.tabula_bin())), "rc=0")
  local meta = json.read_file(r2 .. "/run/run.json")
  meta.scenario_file = "/gone/scenarios/xiangqibench.lua"
  fs.write_atomic(r2 .. "/run/run.json", json.encode(meta))
  out = t.sh(string.format("cd / && %s report %s/run", t.tabula_bin(), r2))
  t.contains(out, "rc=0")
  t.contains(out, "note: the run's scenario file /gone/scenarios/xiangqibench.lua is gone; reporting with ")
  t.contains(out, "XiangqiBench: pass@k")
  -- a scenario of one's own that is gone and has no namesake: one line saying so
  fs.remove(dir .. "/mine.lua")
  out = t.sh(string.format("cd / && %s report %s/r", t.tabula_bin(), dir))
  t.contains(out, "rc=2")
  t.contains(out, "tabula: report: the run's scenario file " .. dir .. "/mine.lua is gone and no scenario named mine is found")
end)

return T
