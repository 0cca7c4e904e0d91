-- tabula merge that fails midway (issue 46, item 5): the merge is built beside
-- the target and renamed into place, so a failure after some files were
-- written leaves no half-written target, and the same command can be retried.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local records = require "tabula.records"
local test, T = t.suite()

local tabula = t.tabula

-- a scenario with records of its own (matches.jsonl), per-trial logs and a file
-- every shard holds the same copy of: the merge checks that file after it has
-- written the records, so a copy that differs fails it midway
local function scenario(dir)
  local path = dir .. "/logs.lua"
  fs.write_or_fail(path, [[
local fs = require "tabula.fs"
local S = { name = "logs", summary = "4 matches, each with a log" }
S.records = { file = "matches.jsonl", id = "match_id", logs = "logs", files = { "shared.txt" } }
function S.plan() local ts = {} for i = 1, 4 do ts[i] = { id = "m" .. i } end return ts end
function S.begin(opts, dir) fs.write_or_fail(dir .. "/shared.txt", "the same in every shard\n") end
function S.play(trial, env)
  fs.mkdir_p(env.dir .. "/logs")
  fs.write_or_fail(env.dir .. "/logs/" .. trial.id .. ".jsonl", "{}\n")
  return { match_id = trial.id, status = "finished" }
end
return S
]])
  return path
end

test("a merge failing after its records were written leaves no target; fixed, the same command merges", function()
  local dir = t.tmpdir()
  local scen = scenario(dir)
  local s = {}
  for k = 1, 2 do
    s[k] = dir .. "/s" .. k
    local rc, out = tabula("run", scen, "--shard", k .. "/2", "--out", s[k], "--quiet")
    t.eq(rc, 0, out)
  end
  local good = fs.read(s[2] .. "/shared.txt")
  fs.write_or_fail(s[2] .. "/shared.txt", "changed\n")
  local rc, out = tabula("merge", dir .. "/m", s[1], s[2])
  t.eq(rc, 2, out)
  t.contains(out, "merge: shared.txt differs between " .. s[1] .. " and " .. s[2])
  t.eq(fs.kind(dir .. "/m"), nil, "a merge that failed left " .. dir .. "/m behind")
  t.eq(fs.kind(dir .. "/.m.merging"), nil, "a merge that failed left its staging directory behind")
  -- a leftover of a merge killed midway (its staging directory) does not block the retry
  fs.mkdir_p(dir .. "/.m.merging/logs")
  fs.write_or_fail(dir .. "/.m.merging/matches.jsonl", '{"match_id": "m1", "sta')
  fs.write_or_fail(s[2] .. "/shared.txt", good)
  rc, out = tabula("merge", dir .. "/m", s[1], s[2])
  t.eq(rc, 0, out)
  t.contains(out, "merged 2 shards into " .. dir .. "/m: 4 trials")
  t.eq(#records.read(dir .. "/m/matches.jsonl"), 4)
  t.eq(#fs.list(dir .. "/m/logs"), 4)
  t.eq(fs.kind(dir .. "/m/run.json"), "file")
  t.eq(fs.kind(dir .. "/.m.merging"), nil)
end)

test("a target that holds other files is refused before anything is written", function()
  local dir = t.tmpdir()
  local scen = scenario(dir)
  local s = {}
  for k = 1, 2 do
    s[k] = dir .. "/s" .. k
    t.eq((tabula("run", scen, "--shard", k .. "/2", "--out", s[k], "--quiet")), 0)
  end
  fs.mkdir_p(dir .. "/m")
  fs.write_or_fail(dir .. "/m/notes.txt", "mine\n")
  local rc, out = tabula("merge", dir .. "/m", s[1], s[2])
  t.eq(rc, 2, out)
  t.contains(out, "merge: " .. dir .. "/m is not empty (it holds notes.txt); give a new directory")
  t.eq(fs.list(dir .. "/m"), { "notes.txt" })
end)

return T
