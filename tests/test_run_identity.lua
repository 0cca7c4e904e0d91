-- Prompt provenance and run identity: every template is hashed at setup into
-- run.json; a continuation with another template, scenario file or option is
-- refused with one line naming it and both values, unless --accept-changes
-- (recorded in run.json).
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local test, T = t.suite()

local tmpdir = t.tmpdir

local function sh(cmd)
  local d = tmpdir()
  local h = io.popen(string.format("( %s ) > %s/out 2> %s/err; echo $?", cmd, d, d))
  local rc = tonumber(h:read("a")); h:close()
  return rc, fs.read(d .. "/out") or "", fs.read(d .. "/err") or ""
end

-- a scenario of one trial that fills one of its two templates (the other is never filled)
local SCENARIO = [[
local prompt = require "tabula.prompt"
local S = { name = "tiny", summary = "one trial" }
S.options = { { "prompts", "string", nil, "prompt folder" } }
function S.plan(opts)
  local trials = {}
  for k = 1, opts.trials do trials[k] = { id = "only/" .. k } end
  return trials, {}
end
function S.setup(opts, env)
  env.prompts = prompt.set("tiny", opts.prompts)
  return { prompts = env.prompts:used() }
end
function S.play(trial, env)
  return { trial_id = trial.id, status = "success", text = env.prompts:fill("greeting", { who = "you" }) }
end
return S
]]

test("templates are hashed at setup; a changed template, scenario file or option is refused unless accepted", function()
  local dir = tmpdir()
  fs.mkdir_p(dir .. "/prompts")
  fs.write_atomic(dir .. "/prompts/greeting.txt", "Hello {{who}}.\n")
  fs.write_atomic(dir .. "/prompts/unused.txt", "Never filled.\n")
  fs.write_atomic(dir .. "/tiny.lua", SCENARIO)
  local base = string.format("%s run %s/tiny.lua --prompts %s/prompts --out %s/run --quiet --no-transcripts",
    t.tabula_bin(), dir, dir, dir)
  local rc, _, err = sh(base .. " --trials 1")
  t.eq(rc, 0, err)
  local meta = json.read_file(dir .. "/run/run.json")
  t.eq(meta.setup.prompts, { ["greeting.txt"] = fs.sha256("Hello {{who}}.\n"), ["unused.txt"] = fs.sha256("Never filled.\n") },
    "every template of the folder, filled or not")
  t.eq(meta.scenario_sha256, fs.sha256(SCENARIO))
  -- the same run continues
  rc, _, err = sh(base .. " --trials 1")
  t.eq(rc, 0, err)
  -- a template edited: refused, one line naming it
  fs.write_atomic(dir .. "/prompts/unused.txt", "Never filled, edited.\n")
  rc, _, err = sh(base .. " --trials 1")
  t.ok(rc ~= 0)
  t.eq(select(2, err:gsub("\n", "")), 1, "one line: " .. err)
  t.contains(err, "prompt template unused.txt changed (sha256 " .. fs.sha256("Never filled.\n"):sub(1, 12))
  t.contains(err, "--accept-changes")
  -- an option changed: named with both values (a smaller --trials is a change)
  fs.write_atomic(dir .. "/prompts/unused.txt", "Never filled.\n")
  rc, _, err = sh(base .. " --trials 1 --seed 2")
  t.ok(rc ~= 0)
  t.contains(err, "option --seed: 1 in the run, 2 now")
  -- the scenario file edited
  fs.write_atomic(dir .. "/tiny.lua", SCENARIO .. "-- edited\n")
  rc, _, err = sh(base .. " --trials 1")
  t.ok(rc ~= 0)
  t.contains(err, "scenario file " .. dir .. "/tiny.lua changed")
  -- accepted: continued, and run.json says what was accepted
  rc, _, err = sh(base .. " --trials 1 --seed 2 --accept-changes")
  t.eq(rc, 0, err)
  meta = json.read_file(dir .. "/run/run.json")
  t.eq(#meta.accepted_changes, 1)
  local changes = table.concat(meta.accepted_changes[1].changes, "\n")
  t.contains(changes, "scenario file")
  t.contains(changes, "option --seed: 1 in the run, 2 now")
  t.eq(meta.options["accept-changes"], true)
  t.eq(meta.options_identity["accept-changes"], nil, "not part of the identity")
  -- and from there on the run continues without the option
  rc, _, err = sh(base .. " --trials 1 --seed 2")
  t.eq(rc, 0, err)
  t.eq(#json.read_file(dir .. "/run/run.json").accepted_changes, 1)
end)

test("a run is continued with a larger --trials: the recorded trials kept, the new ones added; a smaller one is refused", function()
  local dir = tmpdir()
  fs.mkdir_p(dir .. "/prompts")
  fs.write_atomic(dir .. "/prompts/greeting.txt", "Hello {{who}}.\n")
  fs.write_atomic(dir .. "/tiny.lua", SCENARIO)
  local base = string.format("%s run %s/tiny.lua --prompts %s/prompts --out %s/run --quiet --no-transcripts",
    t.tabula_bin(), dir, dir, dir)
  local rc, _, err = sh(base .. " --trials 2")
  t.eq(rc, 0, err)
  rc, _, err = sh(base .. " --trials 4")
  t.eq(rc, 0, err)
  t.contains(err, "resuming: 2 of 4 trials already recorded")
  local ids = {}
  for _, r in ipairs((require("tabula.records").read(dir .. "/run/trials.jsonl"))) do ids[#ids + 1] = r.trial_id end
  table.sort(ids)   -- worker processes finish in either order
  t.eq(ids, { "only/1", "only/2", "only/3", "only/4" }, "each trial once: the first two kept, two added")
  local meta = json.read_file(dir .. "/run/run.json")
  t.eq(meta.options_identity.trials, 4)
  t.eq(#meta.extended, 1)
  t.eq({ meta.extended[1].trials_from, meta.extended[1].trials_to }, { 2, 4 })
  t.eq(meta.accepted_changes, nil, "an extension is not an accepted change")
  rc, _, err = sh(base .. " --trials 3")
  t.ok(rc ~= 0, "a smaller --trials is refused")
  t.contains(err, "option --trials: 4 in the run, 3 now")
end)

test("a template filled after setup is the text hashed at setup", function()
  local prompt = require "tabula.prompt"
  local dir = tmpdir()
  fs.write_atomic(dir .. "/a.txt", "first {{x}}\n")
  local P = prompt.set("none", dir)
  fs.write_atomic(dir .. "/a.txt", "second {{x}}\n")
  t.eq(P:fill("a", { x = 1 }), "first 1")
  t.eq(P:used(), { ["a.txt"] = fs.sha256("first {{x}}\n") })
  local hashes = prompt.hash_files({ ["b.txt"] = dir .. "/a.txt" })
  t.eq(hashes, { ["b.txt"] = fs.sha256("second {{x}}\n") })
end)

test("one process, runs on A, then B, then A again: the lock of A was released when B began (not left to the collector)", function()
  local dir = tmpdir()
  collectgarbage("stop")   -- the old code released A's lock only when its handle was collected
  local ok, err = pcall(function()
    for _, d in ipairs({ "a", "b", "a" }) do
      t.eq(t.run_scenario("examples/checks_mc.lua", { "--model", "random", "--limit", "1", "--out", dir .. "/" .. d,
        "--quiet", "--workers", "1" }), 0, d)
    end
  end)
  collectgarbage("restart")
  if not ok then error(err, 0) end
end)

return T
