-- tests/compare_runs.lua — small made-up run directories for the tests of tabula compare
-- (tests/test_compare.lua, tests/test_view_compare.lua).
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"

local M = {}

-- fake_run(n, ok [, extra [, dir]]) -> a run directory (dir, or a new one) whose trial i of n
-- succeeds when ok(i); usage grows with i; extra: more trial records, as given
function M.fake_run(n, ok, extra, dir)
  dir = dir or t.tmpdir()
  fs.mkdir_p(dir)
  fs.write_atomic(dir .. "/run.json", json.encode({ scenario = "fake", model = { name = "m" } }))
  local lines = {}
  for i = 1, n do
    lines[#lines + 1] = json.canonical({ trial_id = string.format("c%02d/1", i), status = ok(i) and "success" or "failure",
      usage = { input = 100, output = i }, cost = 0.01 })
  end
  for _, r in ipairs(extra or {}) do lines[#lines + 1] = json.canonical(r) end
  fs.write_atomic(dir .. "/trials.jsonl", table.concat(lines, "\n") .. "\n")
  return dir
end

return M
