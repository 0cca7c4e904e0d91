-- tabula merge refuses what it cannot merge safely (a shard still running or
-- unfinished, a target holding another run), carries everything a run needs
-- (transcripts, spending), and never leaves a half-written file in place.
-- slow: sharded runs (DECE matches included) merged and compared with unsharded ones (left out by make check)
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local test, T = t.suite()

local q, tabula = t.quote, t.tabula

-- a scenario of 8 trials with records of `pad` bytes; with a marker file
-- given, its second trial stops the run once with a configuration error (as a
-- bad key would), leaving the plan unfinished
local function scenario(dir, pad, marker)
  local path = dir .. "/pad.lua"
  fs.write_or_fail(path, string.format([[
local S = { name = "pad", summary = "8 trials, each a padded record" }
local played = 0
function S.plan() local ts = {} for i = 1, 8 do ts[i] = { id = "t" .. i } end return ts end
function S.play(trial)
  played = played + 1
  local marker = %q
  if marker ~= "" and played == 2 and not io.open(marker) then
    io.open(marker, "w"):close()
    return nil, { infra = true, config = true, message = "the key was refused" }
  end
  return { trial_id = trial.id, status = "success", reason = "ok", pad = string.rep("x", %d) }
end
return S
]], marker or "", pad or 10))
  return path
end

-- shards(dir, scen, n [, extra]) -> the n shard directories, each run
local function shards(dir, scen, n, extra)
  local out = {}
  for k = 1, n do
    out[k] = dir .. "/s" .. k
    local args = { "run", scen, "--shard", k .. "/" .. n, "--out", out[k], "--quiet", "--concurrency", "1" }
    for _, a in ipairs(extra or {}) do args[#args + 1] = a end
    tabula(table.unpack(args))
  end
  return out
end

local function count(path)
  local n = 0
  records.each(path, function() n = n + 1 end)
  return n
end

test("a shard whose run lock is held is refused, naming it; --partial merges it and says so in run.json", function()
  local dir = t.tmpdir()
  local s = shards(dir, scenario(dir), 2)
  local lock = assert(fs.lock(s[2] .. "/.lock"))   -- as a run still going would hold it
  local rc, out = tabula("merge", dir .. "/m", s[1], s[2])
  t.eq(rc, 2, out)
  t.contains(out, "shard " .. s[2] .. " is still running (process ")
  t.eq(fs.kind(dir .. "/m/trials.jsonl"), nil)
  rc, out = tabula("merge", dir .. "/m", s[1], s[2], "--partial")
  t.eq(rc, 0, out)
  t.contains(out, "partial: 1 shard not finished")
  local meta = json.read_file(dir .. "/m/run.json")
  t.eq(#meta.merged_partial, 1)
  t.eq(meta.merged_partial[1].shard, s[2])
  lock:unlock()
  t.eq(count(dir .. "/m/trials.jsonl"), 8)
end)

test("a shard that did not finish its plan is refused, naming it and its count", function()
  local dir = t.tmpdir()
  local scen = scenario(dir, 10, dir .. "/died")
  local s = shards(dir, scen, 2)   -- shard 1 dies at its second trial, shard 2 runs whole
  t.eq(count(s[1] .. "/trials.jsonl"), 1)
  local rc, out = tabula("merge", dir .. "/m", s[1], s[2])
  t.eq(rc, 2, out)
  t.contains(out, "shard " .. s[1] .. " is unfinished (1 of 4 trials recorded)")
  t.eq(fs.kind(dir .. "/m/run.json"), nil)
  -- continued, it merges
  rc, out = tabula("run", scen, "--shard", "1/2", "--out", s[1], "--quiet")
  t.eq(rc, 0, out)
  rc, out = tabula("merge", dir .. "/m", s[1], s[2])
  t.eq(rc, 0, out)
  t.eq(count(dir .. "/m/trials.jsonl"), 8)
  t.eq(json.read_file(dir .. "/m/run.json").merged_partial, nil)
end)

test("a damaged line in a shard is named by the merge, which refuses the shard as unfinished", function()
  local dir = t.tmpdir()
  local s = shards(dir, scenario(dir), 2)
  local path = s[2] .. "/trials.jsonl"
  local text = fs.read(path)
  local second = text:find("\n", 1, true) + 1
  fs.write_or_fail(path, text:sub(1, second - 1) .. "[" .. text:sub(second + 1))   -- same length
  local rc, out = tabula("merge", dir .. "/m", s[1], s[2])
  t.eq(rc, 2, out)
  t.contains(out, path .. ": 1 damaged line skipped, at line 2 (")
  t.contains(out, "shard " .. s[2] .. " is unfinished (3 of 4 trials recorded)")
end)

test("a target holding another run's run.json is refused; the same run's is not", function()
  local dir = t.tmpdir()
  local scen = scenario(dir)
  local s = shards(dir, scen, 2)
  local other = dir .. "/other"
  t.eq((tabula("run", scen, "--out", other, "--quiet", "--seed", "7")), 0)
  fs.mkdir_p(dir .. "/m")
  fs.write_or_fail(dir .. "/m/run.json", fs.read(other .. "/run.json"))
  local rc, out = tabula("merge", dir .. "/m", s[1], s[2])
  t.eq(rc, 2, out)
  t.contains(out, "merge: " .. dir .. "/m holds another run (")
  t.eq(json.read_file(dir .. "/m/run.json").options.seed, 7)
  t.eq(fs.kind(dir .. "/m/trials.jsonl"), nil)
  -- a run.json of this very run (a merge cut short before its records) is taken over
  fs.write_or_fail(dir .. "/m/run.json", fs.read(s[1] .. "/run.json"))
  rc, out = tabula("merge", dir .. "/m", s[1], s[2])
  t.eq(rc, 0, out)
end)

test("transcripts are merged: tabula show MERGED TRIAL prints what the shard recorded", function()
  local dir = t.tmpdir()
  local s = shards(dir, "scenarios/xiangqibench.lua", 2, { "--limit", "3", "--trials", "2" })
  local rc, out = tabula("merge", dir .. "/m", s[1], s[2])
  t.eq(rc, 0, out)
  local tr = require "tabula.transcripts"
  local ids = tr.ids(dir .. "/m")
  t.eq(#ids, 6)
  for k = 1, 2 do
    for _, id in ipairs(tr.ids(s[k])) do
      local rc1, shown = tabula("show", dir .. "/m", id)
      local rc2, want = tabula("show", s[k], id)
      t.eq(rc1, 0, shown); t.eq(rc2, 0)
      t.eq(shown, want)
    end
  end
  -- a text shared by trials of both shards is stored once
  local shas, n = {}, 0
  records.each(dir .. "/m/transcripts/texts.jsonl", function(r) t.eq(shas[r.sha], nil, r.sha); shas[r.sha] = true; n = n + 1 end)
  t.ok(n > 0)
end)

test("spending is merged: a budget on the merged run counts every shard's calls", function()
  local mock = require "tests.mock"
  local server = mock.start({ { reply = "ok", usage = { input = 10, output = 5 } } })
  local dir = t.tmpdir()
  fs.write_or_fail(dir .. "/one_call.lua", [[
local S = { name = "one_call", summary = "each trial asks the model once" }
function S.plan() local ts = {} for i = 1, 8 do ts[i] = { id = "t" .. i } end return ts end
function S.play(trial, env)
  local reply, err = env.agent:reply({ { role = "user", content = "trial " .. trial.id } }, {})
  if not reply then return nil, err end
  return { trial_id = trial.id, status = "success", reason = "answered" }
end
return S
]])
  fs.write_or_fail(dir .. "/models.lua", string.format(
    [[return { priced = { provider = "openai", model = "m", base_url = %q, optional_key = true, prices = { input = 1000, output = 2000 } } }]],
    server.url .. "/v1"))
  local s = shards(dir, dir .. "/one_call.lua", 2, { "--model", "priced", "--models", dir .. "/models.lua", "--max-calls", "100" })
  server:close()
  local rc, out = tabula("merge", dir .. "/m", s[1], s[2])
  t.eq(rc, 0, out)
  t.contains(out, "8 calls spent (0.16 USD)")
  local b = require("tabula.budget").new({ ["max-calls"] = 100 }, {}, dir .. "/m")
  t.eq(b.spent.calls, 8)
  t.near(b.spent.cost, 0.16, 1e-9)
  b:close()
end)

test("a full disk: the merge stops naming the records file, and leaves no torn file in place", function()
  local dir = t.tmpdir()
  local mnt = dir .. "/small"
  fs.mkdir_p(mnt)
  local mounted = t.sh("mount -t tmpfs -o size=64k tmpfs " .. q(mnt))
  if not mounted:match("rc=0\n$") then t.skip("cannot mount a small tmpfs to fill (needs root): " .. mounted) end
  local ok, err = pcall(function()
    local s = shards(dir, scenario(dir, 40000), 2)   -- 8 records of 40 KB: 320 KB
    local rc, out = tabula("merge", mnt .. "/m", s[1], s[2])
    t.eq(rc, 2, out)
    t.contains(out, "cannot write " .. mnt .. "/m/trials.jsonl: No space left on device")
    t.eq(fs.kind(mnt .. "/m/trials.jsonl"), nil)
    t.eq(fs.kind(mnt .. "/m/run.json"), nil)
  end)
  t.sh("umount " .. q(mnt))
  if not ok then error(err, 0) end
end)

test("DECE shards (records in matches.jsonl, event logs in matches/) merge into the unsharded run: same matches, same report", function()
  local dir = t.tmpdir()
  fs.write_or_fail(dir .. "/parts.json", json.encode({ participants = { { name = "random", player = "random" },
    { name = "heuristic", player = "heuristic" }, { name = "ismcts", player = "ismcts", simulations = 8, steps = 18 } } }))
  local function dece(out, ...)   -- in a process of its own (an in-process run keeps its lock)
    local rc2, text = tabula("run", "scenarios/dece", "--no-html", "--participants", dir .. "/parts.json", "--out", out, "--games", "azul",
      "--matches-per-game", "3", "--draws", "50", "--workers", "1", "--quiet", ...)
    t.eq(rc2, 0, text)
  end
  dece(dir .. "/whole")
  dece(dir .. "/s1", "--shard", "1/2")
  -- an unfinished shard is refused, naming it
  local rc, out = tabula("merge", dir .. "/m", dir .. "/s1")
  t.eq(rc, 2, out)
  t.contains(out, "shards missing: 2/2")
  dece(dir .. "/s2", "--shard", "2/2")
  rc, out = tabula("merge", dir .. "/m", dir .. "/s1", dir .. "/s2")
  t.eq(rc, 0, out)
  t.contains(out, "merged 2 shards into " .. dir .. "/m: 3 trials")
  local function matches(d)
    local by = {}
    for _, r in ipairs((records.read(d .. "/matches.jsonl"))) do
      r.seconds, r.wall_seconds = nil, nil
      by[r.match_id] = json.canonical(r)
    end
    return by
  end
  t.eq(matches(dir .. "/m"), matches(dir .. "/whole"))
  for _, id in ipairs({ "azul-001", "azul-002", "azul-003" }) do
    t.eq(fs.kind(dir .. "/m/matches/" .. id .. ".jsonl"), "file", id .. "'s event log")
  end
  t.eq(fs.read(dir .. "/m/schedule.json"), fs.read(dir .. "/whole/schedule.json"))
  rc, out = tabula("report", dir .. "/m", "--no-html")
  t.eq(rc, 0, out)
  local a, b = json.read_file(dir .. "/m/summary.json"), json.read_file(dir .. "/whole/summary.json")
  t.eq(json.canonical(a), json.canonical(b), "the merged run reports as the unsharded one")
  t.contains(fs.read(dir .. "/m/report.md"), "3 of 3 scheduled matches finished.")
  -- merging again into a directory holding records is refused
  rc, out = tabula("merge", dir .. "/m", dir .. "/s1", dir .. "/s2")
  t.eq(rc, 2, out)
  t.contains(out, "already holds records (matches.jsonl)")
end)

return T
