-- TsuGO's preparation of problems of one's own (issue 46, item 18): each
-- problem's K=4 options and the solver's refutations are prepared in parallel
-- with a progress line, kept in a cache keyed by the problem's content and the
-- settings (scenarios/tsugo/prepare.lua), and a second run over the same
-- problems, like every worker process of a run, reads them instead of
-- preparing them again.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local test, T = t.suite()

local FIXTURE = t.root() .. "/tests/data/tsugo/problems.jsonl"   -- three problems of one's own

-- tsugo(dir, out, extra...) -> rc, output (stdout and stderr) of the real binary
local function tsugo(dir, out, ...)
  local args = { "run", t.root() .. "/scenarios/tsugo", "--problems", FIXTURE, "--model", "random", "--gnugo", "none",
    "--mcts-playouts", "40", "--engine-playouts", "60", "--prepared-cache", dir .. "/prepared", "--out", dir .. "/" .. out, ... }
  local q = {}
  for i, a in ipairs(args) do q[i] = t.quote(a) end
  local text = t.sh("cd " .. t.quote(dir) .. " && " .. t.tabula_bin() .. " " .. table.concat(q, " ") .. " 2>&1")
  local rc = tonumber(text:match("rc=(%d+)\n$"))
  return rc, (text:gsub("rc=%d+\n$", ""))
end

local function kept(dir)
  return fs.kind(dir .. "/prepared") == "dir" and #fs.list(dir .. "/prepared") or 0
end

test("problems of one's own: prepared in parallel with a progress line, kept, and read by a second run", function()
  local dir = t.tmpdir()
  local rc, out = tsugo(dir, "a", "--workers", "2")
  t.eq(rc, 0, out)
  t.contains(out, "tsugo: preparing problems (K=4 options, solver refutations): 0 of 3 done")
  t.contains(out, "3 of 3 done")
  t.contains(out, "tsugo: prepared 3 problems in ")
  t.contains(out, "(2 processes), 0 read from before")
  t.eq(kept(dir), 3, "one cache file per problem")
  -- a second run over the same problems (another run directory) prepares nothing
  local before = {}
  for _, f in ipairs(fs.list(dir .. "/prepared")) do before[f] = fs.read(dir .. "/prepared/" .. f) end
  rc, out = tsugo(dir, "b")
  t.eq(rc, 0, out)
  t.contains(out, "tsugo: 3 problems prepared before, read from " .. dir .. "/prepared")
  t.ok(not out:find("preparing problems", 1, true), out)
  for f, text in pairs(before) do t.eq(fs.read(dir .. "/prepared/" .. f), text, f .. " is not written again") end
  -- both runs hold the same option sets and logs
  local a, b = json.read_file(dir .. "/a/run.json").data, json.read_file(dir .. "/b/run.json").data
  t.eq(b.options, a.options)
  t.eq(b.option_logs, a.option_logs)
  t.ok(a.options.t1 and #a.options.t1 == 4, "t1 has its four options")
end)

test("the cache is keyed by the settings: another --solver-distractor-nodes prepares again, in one process", function()
  local dir = t.tmpdir()
  local rc, out = tsugo(dir, "a", "--workers", "1", "--ids", "t1")
  t.eq(rc, 0, out)
  t.contains(out, "tsugo: prepared 1 problem in ")
  t.contains(out, "(1 process), 0 read from before")
  rc, out = tsugo(dir, "b", "--workers", "1", "--solver-distractor-nodes", "300")
  t.eq(rc, 0, out)
  t.contains(out, "tsugo: prepared 3 problems in ")
  t.eq(kept(dir), 4)
  rc, out = tsugo(dir, "c", "--workers", "1")
  t.eq(rc, 0, out)
  t.contains(out, "tsugo: prepared 2 problems in ")
  t.contains(out, ", 1 read from before")
  -- a damaged cache file is prepared again, not trusted
  for _, f in ipairs(fs.list(dir .. "/prepared")) do fs.write_atomic(dir .. "/prepared/" .. f, "{not json") end
  rc, out = tsugo(dir, "d", "--workers", "1", "--ids", "t1")
  t.eq(rc, 0, out)
  t.contains(out, "tsugo: prepared 1 problem in ")
end)

return T
