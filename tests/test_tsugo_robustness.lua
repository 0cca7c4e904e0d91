-- TsuGO's robustness protocol: the stratified sample by tier with the seed,
-- the default transforms and terse prompts of --robustness, and the seeded
-- coordinate relabeling mapped back for consistency (engine runs, offline).
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local problems = require "scenarios.tsugo.problems"
local test, T = t.suite()

local SUITE = t.root() .. "/games/go/suite.jsonl"
local FIXTURE = t.root() .. "/tests/data/tsugo/problems.jsonl"

local function tiers(list)
  local n = {}
  for _, p in ipairs(list) do n[p.tier] = (n[p.tier] or 0) + 1 end
  return n
end

local function ids(list)
  local out = {}
  for i, p in ipairs(list) do out[i] = p.id end
  return out
end

local function fake(spec)
  local list = {}
  for tier, n in pairs(spec) do for i = 1, n do list[#list + 1] = { id = tier .. i, tier = tier } end end
  table.sort(list, function(a, b) return a.id < b.id end)
  return list
end

test("stratified sample: round the Easy/Medium/Hard strata, seeded, in file order", function()
  local list = problems.load(SUITE)
  local a = problems.stratified(list, 10, 1)
  t.eq(#a, 10)
  local have = tiers(list)
  local want = { Easy = math.min(4, have.Easy), Medium = math.min(3, have.Medium), Hard = 10 - math.min(4, have.Easy) - math.min(3, have.Medium) }
  t.eq(tiers(a), want, "4 Easy, 3 Medium, 3 Hard; no Intermediate")
  t.eq(ids(problems.stratified(list, 10, 1)), ids(a), "the same seed, the same sample")
  local differs = false
  for s = 2, 6 do if table.concat(ids(problems.stratified(list, 10, s))) ~= table.concat(ids(a)) then differs = true end end
  t.ok(differs, "other seeds draw other samples")
  local pos = {}
  for i, p in ipairs(list) do pos[p] = i end
  for i = 2, #a do t.ok(pos[a[i]] > pos[a[i - 1]], "file order") end
  -- a short stratum gives its places to the others
  t.eq(tiers(problems.stratified(fake({ Easy = 20, Medium = 1, Hard = 20 }), 10, 3)), { Easy = 5, Medium = 1, Hard = 4 })
  -- none of the paper's tiers: every tier is a stratum
  t.eq(tiers(problems.stratified(fake({ A = 5, B = 5 }), 4, 3)), { A = 2, B = 2 })
  t.eq(#problems.stratified(fake({ Easy = 2 }), 10, 1), 2, "fewer problems than places: all of them")
end)

test("--robustness: the sample, the paper's three transforms, terse prompts at temperature 0", function()
  local run = require("tabula.cmd.run").lib
  local S = run.load(t.root() .. "/scenarios/tsugo.lua")
  local opts = assert(require("tabula.cli").parse(run.spec(S), { "--problems", SUITE, "--gnugo", "none", "--mcts-playouts", "20",
    "--robustness", "--candidates", "4", "--no-references" }))
  local trials, data = S.plan(opts)
  t.eq(#data.robustness_sample, 10)
  t.eq(data.robustness_sample, ids(problems.stratified(problems.load(SUITE), 10, opts.seed)))
  local seen = {}
  for _, tr in ipairs(trials) do seen[tr.transform] = (seen[tr.transform] or 0) + 1 end
  t.eq(seen, { identity = 10, rot180 = 10, flip_h = 10, colour = 10 })
  -- --ids keeps exactly those; --transform replaces the three
  opts = assert(require("tabula.cli").parse(run.spec(S), { "--problems", SUITE, "--gnugo", "none", "--mcts-playouts", "20",
    "--robustness", "--candidates", "4,open", "--no-references", "--ids", "tabula-go-0001", "--transform", "relabel" }))
  trials = S.plan(opts)
  t.eq(#trials, 2)
  for _, tr in ipairs(trials) do t.eq(tr.candidates, "4", tr.id .. ": --robustness is K=4 only") end
  -- the terse prompt
  local out = {}
  local write = io.write
  io.write = function(...) for _, v in ipairs({ ... }) do out[#out + 1] = tostring(v) end end
  local ok, err = pcall(S.dry_run, trials, opts)
  io.write = write
  t.ok(ok, tostring(err))
  local text = table.concat(out)
  t.contains(text, "Reply with the best option only")
  t.contains(text, "The coordinates are relabeled")
end)

test("engine under transforms and relabeling (open answers): read back through the frame, consistent, correct", function()
  local dir = t.tmpdir()
  local rc, out = t.run_scenario("scenarios/tsugo.lua", { "--problems", FIXTURE, "--out", dir .. "/run", "--quiet", "--gnugo", "none",
    "--mcts-playouts", "30", "--engine-playouts", "60", "--no-references", "--transform", "rot180,colour,relabel",
    "--candidates", "open" })
  t.eq(rc, 0)
  local recs = records.read(out .. "/trials.jsonl")
  t.eq(#recs, 3 * 4)
  local base = {}
  for _, r in ipairs(recs) do if r.transform == "identity" then base[r.problem_id] = r end end
  local relabeled = 0
  for _, r in ipairs(recs) do
    t.eq(r.answer_original, base[r.problem_id].answer_original, r.trial_id .. ": consistent with the original")
    if r.transform == "relabel" then
      relabeled = relabeled + 1
      t.ok(r.frame:match("^relabeled:%d+$"), r.frame)
      local shown = r.reply:match("answer is (%S+)%s*$")
      t.ok(shown ~= r.answer or r.answer == require("scenarios.tsugo.prompts").frame(r.frame).label(r.answer, 19), "the reply uses the relabeled frame")
      t.eq(require("scenarios.tsugo.prompts").frame(r.frame).parse(shown, 19), r.answer, "read back through the frame")
    end
  end
  t.eq(relabeled, 3)
  local sm = json.decode(fs.read(out .. "/summary.json"))
  for _, a in ipairs(sm.by_transform) do
    t.eq(a.candidates, "open", "the transform table is split by setting")
    if a.transform ~= "identity" then t.eq({ a.transform, a.consistency, a.pairs }, { a.transform, 1.0, 3 }) end
  end
  local meta = json.decode(fs.read(out .. "/run.json"))
  t.ok(meta, "run.json")
end)

return T
