-- tabula compare: pairing over shared trial ids, exact McNemar, paired bootstrap,
-- flipped trials, usage; prompt variants of one run; report refuses extra arguments.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local compare = require "tabula.compare"
local test, T = t.suite()

local tmpdir = t.tmpdir

-- a run directory whose trial i succeeds when ok(i); usage grows with i
local function fake_run(n, ok, extra)
  local dir = tmpdir()
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

test("exact McNemar p-values against hand-computed binomial sums", function()
  t.near(compare.mcnemar(0, 6), 2 / 64, 1e-15)
  t.near(compare.mcnemar(3, 7), 2 * (1 + 10 + 45 + 120) / 1024, 1e-15)
  t.near(compare.mcnemar(7, 3), 2 * (1 + 10 + 45 + 120) / 1024, 1e-15, "symmetric")
  t.eq(compare.mcnemar(5, 5), 1)
  t.eq(compare.mcnemar(0, 0), 1)
end)

test("two runs: rates, paired difference, flips both ways, usage; errors and unpaired trials left out", function()
  -- A succeeds on 1..12, B on 4..16 (of 20): 3 flips to failure, 4 to success
  local a = fake_run(20, function(i) return i <= 12 end,
    { { trial_id = "only_a/1", status = "success" }, { trial_id = "c20/1", status = "error" } })
  local b = fake_run(20, function(i) return i >= 4 and i <= 16 end)
  local res = compare.runs({ a, b }, { draws = 2000, seed = 5 })
  local c = res.comparisons[1]
  t.eq(c.n, 19, "c20 is an error in A, only_a exists only in A")
  t.eq({ c.only_a, c.only_b }, { 1, 1 })
  t.eq({ c.a.successes, c.b.successes }, { 12, 13 })
  t.near(c.diff.value, 1 / 19, 1e-12)
  t.ok(c.diff.lo < c.diff.value and c.diff.value < c.diff.hi)
  t.ok(c.a.lo < c.a.rate and c.a.rate < c.a.hi)
  t.eq(c.flipped.to_failure, { "c01/1", "c02/1", "c03/1" })
  t.eq(c.flipped.to_success, { "c13/1", "c14/1", "c15/1", "c16/1" })
  t.eq(c.mcnemar, { a_only = 3, b_only = 4, p = compare.mcnemar(3, 4) })
  t.near(c.usage.a.output, 10, 1e-12, "mean of 1..19")
  t.near(c.usage.diff.output, 0, 1e-12)
  local md = compare.markdown(res)
  t.contains(md, "| B - A | +5.3 points")
  t.contains(md, "failure in A, success in B: `c13/1`, `c14/1`, `c15/1`, `c16/1`")
  -- JSON round trip of the result
  t.eq(json.decode(json.encode(res)).comparisons[1].mcnemar.b_only, 4)
  -- the paired interval is narrower than the difference of independent intervals would suggest
  t.ok(c.diff.hi - c.diff.lo < (c.a.hi - c.a.lo) + (c.b.hi - c.b.lo))
end)

test("variants of one run compare with RUN@VARIANT; bad input is one line", function()
  local dir = tmpdir()
  fs.write_atomic(dir .. "/run.json", json.encode({ scenario = "fake", model = "m" }))
  local lines = {}
  for i = 1, 8 do
    lines[#lines + 1] = json.canonical({ trial_id = "c" .. i .. "@base", status = i <= 4 and "success" or "failure" })
    lines[#lines + 1] = json.canonical({ trial_id = "c" .. i .. "@terse", status = i <= 6 and "success" or "failure" })
  end
  fs.write_atomic(dir .. "/trials.jsonl", table.concat(lines, "\n") .. "\n")
  local c = compare.runs({ dir .. "@base", dir .. "@terse" }).comparisons[1]
  t.eq(c.n, 8)
  t.eq(c.flipped.to_success, { "c5", "c6" })
  t.raises(function() compare.runs({ dir }) end, "give at least two runs")
  t.raises(function() compare.runs({ dir, "/nonexistent/run" }) end, "/nonexistent/run is not a run directory")
  t.raises(function() compare.runs({ dir .. "@base", dir .. "@nope" }) end, "no finished trials of variant nope")
  local other = fake_run(3, function() return true end)
  t.raises(function() compare.runs({ dir .. "@base", other }) end, "share no trial ids")
end)

test("the commands: compare prints Markdown or JSON; report refuses extra arguments", function()
  local a = fake_run(4, function(i) return i <= 2 end)
  local b = fake_run(4, function() return true end)
  local function run(args) return t.sh(t.tabula_bin() .. " " .. args) end
  local out = run("compare " .. a .. " " .. b .. " --json")
  t.contains(out, "rc=0")
  t.eq(json.decode(out:gsub("rc=0%s*$", "")).comparisons[1].mcnemar.b_only, 2)
  t.contains(run("compare " .. a .. " " .. b), "Exact McNemar test: 0 succeeded only in A, 2 only in B")
  out = run("report " .. a .. " " .. b)
  t.contains(out, "report: unexpected argument '" .. b .. "'")
  t.contains(out, "rc=2")
end)

return T
