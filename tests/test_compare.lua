-- tabula compare: pairing over shared trial ids, exact McNemar, paired bootstrap,
-- flipped trials, usage; prompt variants of one run; report refuses extra arguments;
-- many comparisons (Holm/Bonferroni-adjusted p-values, --all-pairs, simultaneous
-- intervals against a brute-force bootstrap) and the noise floor of a re-run (--floor).
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local compare = require "tabula.compare"
local metrics = require "tabula.metrics"
local test, T = t.suite()

local tmpdir = t.tmpdir

local fake_run = require("tests.compare_runs").fake_run   -- a made-up run: trial i of n succeeds when ok(i)

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
  t.eq(c.mcnemar, { a_only = 3, b_only = 4, p = compare.mcnemar(3, 4), p_adjusted = compare.mcnemar(3, 4) }, "one comparison: nothing to adjust")
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

-- ---------------------------------------------------------------------------
-- many comparisons and the noise floor (issue 48)

-- holm_brute(ps) -> Holm's adjusted p-values straight from the definition, without
-- sorting: the rank of p_i among the family (ties by position), then the largest
-- min(1, (m - rank_j + 1) p_j) over every j ranked at or before i
local function holm_brute(ps)
  local m, rank, out = #ps, {}, {}
  for i = 1, m do
    rank[i] = 1
    for j = 1, m do
      if ps[j] < ps[i] or (ps[j] == ps[i] and j < i) then rank[i] = rank[i] + 1 end
    end
  end
  for i = 1, m do
    local best = 0
    for j = 1, m do
      if rank[j] <= rank[i] then best = math.max(best, math.min(1, (m - rank[j] + 1) * ps[j])) end
    end
    out[i] = best
  end
  return out
end

local function near_list(got, want, msg)
  t.eq(#got, #want, msg)
  for i = 1, #want do t.near(got[i], want[i], 1e-15, (msg or "") .. " [" .. i .. "]") end
end

test("Holm and Bonferroni adjustments: by hand and by brute force, monotone, capped at 1", function()
  -- sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> raised to 0.06
  local ps = { 0.01, 0.04, 0.03, 0.005 }
  near_list(compare.adjust(ps, "holm"), { 0.03, 0.06, 0.06, 0.02 }, "holm by hand")
  near_list(compare.adjust(ps, "holm"), holm_brute(ps), "holm brute force")
  near_list(compare.adjust(ps, "bonferroni"), { 0.04, 0.16, 0.12, 0.02 }, "bonferroni")
  near_list(compare.adjust(ps, "none"), ps, "none")
  -- the cap: 0.2*3 = 0.6, 0.6*2 = 1.2 -> 1, 0.7*1 -> 1 (monotone)
  local big = { 0.6, 0.7, 0.2 }
  near_list(compare.adjust(big, "holm"), { 1, 1, 0.6 }, "holm capped")
  near_list(compare.adjust(big, "holm"), holm_brute(big), "holm capped, brute force")
  near_list(compare.adjust(big, "bonferroni"), { 1, 1, 0.6 }, "bonferroni capped")
  -- ties and a family of one
  near_list(compare.adjust({ 0.02, 0.02, 0.5 }, "holm"), holm_brute({ 0.02, 0.02, 0.5 }), "ties")
  near_list(compare.adjust({ 0.02, 0.02, 0.5 }, "holm"), { 0.06, 0.06, 0.5 }, "ties by hand")
  near_list(compare.adjust({ 0.3 }, "holm"), { 0.3 }, "one comparison")
  t.raises(function() compare.adjust(ps, "sidak") end, "must be one of holm, bonferroni, none")
end)

-- arm(x, y): a run over 24 trials that differs from the baseline (success on 1..12)
-- in x of its successes (1..x fail) and y of its failures (13..12+y succeed)
local function arm(x, y)
  return fake_run(24, function(i) return (i <= 12 and i > x) or (i > 12 and i <= 12 + y) end)
end

test("a family of four comparisons with the baseline: adjusted McNemar p-values, simultaneous intervals", function()
  local base = fake_run(24, function(i) return i <= 12 end)
  -- discordant (a_only, b_only): B (0,6), C (0,7), D (1,8), E (2,4)
  local dirs = { base, arm(0, 6), arm(0, 7), arm(1, 8), arm(2, 4) }
  local raw = { 2 / 64, 2 / 128, 2 * (1 + 9) / 512, 2 * (1 + 6 + 15) / 64 }
  local res = compare.runs(dirs, { draws = 500, seed = 3 })
  t.eq(#res.comparisons, 4)
  t.eq({ res.family.pairs, res.family.m, res.family.method }, { "baseline", 4, "holm" })
  local got = {}
  for k, c in ipairs(res.comparisons) do
    t.eq({ c.a_index, c.b_index }, { 1, k + 1 })
    t.near(c.mcnemar.p, raw[k], 1e-15, "raw McNemar p " .. k)
    got[k] = c.mcnemar.p_adjusted
  end
  -- by hand: C 0.015625*4 = 0.0625; B 0.03125*3 = 0.09375; D 0.0390625*2 = 0.078125 -> 0.09375; E 0.6875
  near_list(got, { 0.09375, 0.0625, 0.09375, 0.6875 }, "holm over the family")
  near_list(got, holm_brute(raw), "holm brute force")
  local md = compare.markdown(res)
  t.contains(md, "Family: 4 comparisons (each run against the baseline " .. base .. "); McNemar p-values adjusted by Holm's step-down method.")
  t.contains(md, "each at the 98.75% level")
  t.contains(md, "p = 0.03125; Holm-adjusted over the 4 comparisons, p = 0.09375.")
  t.contains(md, "| McNemar p | Holm p |")
  -- simultaneous intervals: Bonferroni level 1 - 0.05/4, never narrower than the 95% ones
  t.near(res.family.simultaneous_level, 1 - 0.05 / 4, 1e-15)
  for _, c in ipairs(res.comparisons) do
    local s = c.diff.simultaneous
    t.eq({ s.lo, s.hi }, { compare.exact_interval(c.mcnemar.b_only, c.mcnemar.a_only, c.n, 1 - 0.05 / 4) })
    t.ok(s.lo <= c.diff.value and c.diff.value <= s.hi)
    t.ok(s.lo <= compare.exact_interval(c.mcnemar.b_only, c.mcnemar.a_only, c.n, 0.95))
  end
  -- Bonferroni: p * 4, E capped at 1
  local bres = compare.runs(dirs, { draws = 500, seed = 3, adjust = "bonferroni" })
  got = {}
  for k, c in ipairs(bres.comparisons) do got[k] = c.mcnemar.p_adjusted end
  near_list(got, { 0.125, 0.0625, 0.15625, 1 }, "bonferroni over the family")
  t.contains(compare.markdown(bres), "| McNemar p | Bonferroni p |")
  -- none: raw p-values, no simultaneous intervals
  local nres = compare.runs(dirs, { draws = 500, seed = 3, adjust = "none" })
  for k, c in ipairs(nres.comparisons) do t.eq(c.mcnemar.p_adjusted, c.mcnemar.p); t.eq(c.diff.simultaneous, nil, "none " .. k) end
  t.contains(compare.markdown(nres), "McNemar p-values not adjusted (--adjust none)")
end)

-- exact_bootstrap_brute(dv, p) -> the smallest resampled mean whose cumulative share of all
-- #dv^#dv equally likely resamples reaches p (integer counts: no rounding)
local function exact_bootstrap_brute(dv, p)
  local n, count, idx = #dv, {}, {}
  for i = 1, n do idx[i] = 1 end
  local total = 0
  while true do
    local s = 0
    for i = 1, n do s = s + dv[idx[i]] end
    count[s] = (count[s] or 0) + 1
    total = total + 1
    local i = 1
    while i <= n and idx[i] == n do idx[i] = 1; i = i + 1 end
    if i > n then break end
    idx[i] = idx[i] + 1
  end
  local cum = 0
  for s = -n, n do
    cum = cum + (count[s] or 0)
    if cum >= p * total then return s / n end
  end
end

test("simultaneous intervals: the exact paired bootstrap equals enumeration of every resample", function()
  for _, dv in ipairs({ { 1, 1, -1, 0 }, { 1, -1, 0, 0, 1 }, { 1, 0, 0, 0 }, { -1, -1, 1, 0, 0 } }) do
    local plus, minus = 0, 0
    for _, d in ipairs(dv) do if d > 0 then plus = plus + 1 elseif d < 0 then minus = minus + 1 end end
    for _, lv in ipairs({ 0.95, 1 - 0.05 / 3, 1 - 0.05 / 4, 0.5 }) do
      local a = (1 - lv) / 2
      local lo, hi = compare.exact_interval(plus, minus, #dv, lv)
      local what = table.concat(dv, ",") .. " at " .. lv
      t.near(lo, exact_bootstrap_brute(dv, a), 1e-12, "lo " .. what)
      t.near(hi, exact_bootstrap_brute(dv, 1 - a), 1e-12, "hi " .. what)
    end
  end
  -- the distribution of {1,0,0,0}: C(4,k) 3^(4-k) / 256 at k/4
  local dist = compare.diff_distribution(1, 0, 4)
  t.eq(#dist, 5)
  for k = 0, 4 do t.near(dist[k + 1][2], metrics.choose(4, k) * 3 ^ (4 - k) / 256, 1e-15, "mass at " .. k) end
end)

test("--all-pairs: every pair of runs, one family", function()
  local base = fake_run(24, function(i) return i <= 12 end)
  local dirs = { base, arm(0, 6), arm(0, 7), arm(1, 8) }
  local res = compare.runs(dirs, { draws = 500, seed = 3, all_pairs = true })
  t.eq(#res.comparisons, 6, "C(4,2) pairs")
  t.eq({ res.family.pairs, res.family.m }, { "all", 6 })
  local idx = {}
  for k, c in ipairs(res.comparisons) do idx[k] = c.a_index .. "-" .. c.b_index end
  t.eq(idx, { "1-2", "1-3", "1-4", "2-3", "2-4", "3-4" })
  -- B (success 1..18) vs D (2..20): trial 1 only in B, 19 and 20 only in D
  local bd = res.comparisons[5]
  t.eq({ bd.a_label, bd.b_label, bd.mcnemar.a_only, bd.mcnemar.b_only }, { dirs[2], dirs[4], 1, 2 })
  t.eq({ bd.flipped.to_failure, bd.flipped.to_success }, { { "c01/1" }, { "c19/1", "c20/1" } })
  local ps = {}
  for k, c in ipairs(res.comparisons) do ps[k] = c.mcnemar.p end
  local got = {}
  for k, c in ipairs(res.comparisons) do got[k] = c.mcnemar.p_adjusted end
  near_list(got, holm_brute(ps), "holm over the six pairs")
  t.near(res.family.simultaneous_level, 1 - 0.05 / 6, 1e-15)
  t.contains(compare.markdown(res), "Family: 6 comparisons (every pair of the 4 runs)")
  -- the command: --all-pairs in JSON; the page still written (baseline comparisons)
  local q = {}
  for i, d in ipairs(dirs) do q[i] = t.quote(d) end
  local html = tmpdir() .. "/c.html"
  local out = t.sh("(" .. t.tabula_bin() .. " compare " .. table.concat(q, " ") .. " --all-pairs --adjust bonferroni --json --html " .. html .. " 2>/dev/null)")
  t.contains(out, "rc=0")
  local js = json.decode(out:gsub("rc=0%s*$", ""))
  t.eq(#js.comparisons, 6)
  t.eq(js.family.method, "bonferroni")
  t.near(js.comparisons[5].mcnemar.p_adjusted, math.min(1, 6 * js.comparisons[5].mcnemar.p), 1e-12)
  t.eq(fs.kind(html), "file")
  out = t.sh("(" .. t.tabula_bin() .. " compare " .. table.concat(q, " ") .. " --all-pairs --html " .. html .. " >/dev/null)")
  t.ok(not out:find("baseline only", 1, true), "compare.html shows every pair of the family: " .. out)
  t.contains(t.sh(t.tabula_bin() .. " compare " .. q[1] .. " " .. q[2] .. " --adjust sidak"), "must be one of holm, bonferroni, none")
end)

test("the noise floor: a re-run's flips, each comparison's discordance beside them", function()
  -- the run: success on 1..10 of 20; its re-run flips 3 (to failure) and 17 (to success), c20 an error
  local text = fake_run(20, function(i) return i <= 10 end)
  local rerun = fake_run(20, function(i) return (i <= 10 and i ~= 3) or i == 17 end,
    { { trial_id = "c20/1", status = "error" } })
  local tools = fake_run(20, function(i) return (i <= 10 and i ~= 1 and i ~= 2 and i ~= 4) or (i >= 11 and i <= 13) end)
  local mcp = fake_run(20, function(i) return (i > 5 and i <= 10) or (i >= 11 and i <= 19) end)
  local res = compare.runs({ text, tools, mcp }, { draws = 1000, seed = 9, floor = text .. "=" .. rerun })
  local fl = res.floor
  t.eq({ fl.a_label, fl.b_label, fl.n, fl.only_a, fl.only_b }, { text, rerun, 19, 1, 0 })
  t.eq({ fl.discordance.count, fl.mcnemar.a_only, fl.mcnemar.b_only }, { 2, 1, 1 })
  t.near(fl.discordance.share, 2 / 19, 1e-15)
  t.eq({ fl.discordance.lo, fl.discordance.hi }, { metrics.wilson(2, 19) })
  t.eq({ fl.flipped.to_failure, fl.flipped.to_success }, { { "c03/1" }, { "c17/1" } })
  t.eq(fl.mcnemar.p, 1)
  t.near(fl.diff.value, 0, 1e-15)
  t.eq(res.family.m, 2, "the floor is not part of the family")
  -- each comparison against the floor: a one-sided Fisher exact test, checked against the
  -- hypergeometric sum written out with binomial coefficients
  local function fisher_by_hand(x1, n1, x2, n2)
    local N, K, p = n1 + n2, x1 + x2, 0
    for x = x1, math.min(K, n1) do p = p + metrics.choose(K, x) * metrics.choose(N - K, n1 - x) / metrics.choose(N, n1) end
    return p
  end
  t.near(compare.fisher_greater(3, 4, 1, 4), 17 / 70, 1e-15, "the lady tasting tea")
  local tc, mc = res.comparisons[1], res.comparisons[2]
  t.eq({ tc.discordance.count, mc.discordance.count }, { 6, 14 })
  t.near(tc.vs_floor.p, fisher_by_hand(6, 20, 2, 19), 1e-12)
  t.near(mc.vs_floor.p, fisher_by_hand(14, 20, 2, 19), 1e-12)
  t.eq({ tc.vs_floor.above, mc.vs_floor.above }, { false, true })
  local md = compare.markdown(res)
  t.contains(md, "## Noise floor: " .. text .. " vs " .. rerun .. " (a re-run of the same thing)")
  t.contains(md, "19 paired trials (1 only in the run, 0 only in the re-run, left out); 2 flipped between the two runs (10.5% of paired trials")
  t.contains(md, "- success in the run, failure in the re-run: `c03/1`")
  t.contains(md, "Discordant: 6 of 20 paired trials (30.0%); the noise floor's: 10.5% (2 of 19); one-sided Fisher p = 0.1337. Note: not above the noise floor")
  t.contains(md, "Discordant: 14 of 20 paired trials (70.0%); the noise floor's: 10.5% (2 of 19); one-sided Fisher p = 0.0001837: above the floor.")
  t.contains(md, "| not above (p = 0.1337) |")
  -- the re-run may be one of the compared runs too; a bad --floor is one line
  t.eq(compare.runs({ text, rerun }, { floor = { text, rerun } }).floor.discordance.count, 2)
  t.raises(function() compare.runs({ text, tools }, { floor = text }) end, "expects RUN=RERUN")
  t.raises(function() compare.runs({ text, tools }, { floor = text .. "=" .. text }) end, "must be two runs")
end)

test("the command: the same seed gives byte-identical Markdown and JSON with a floor and a family", function()
  local text = fake_run(20, function(i) return i <= 10 end)
  local rerun = fake_run(20, function(i) return (i <= 10 and i ~= 3) or i == 17 end)
  local tools = fake_run(20, function(i) return i <= 10 and i ~= 1 or i == 14 end)
  local mcp = fake_run(20, function(i) return i > 5 and i <= 17 end)
  local html = tmpdir() .. "/c.html"
  local base = t.tabula_bin() .. " compare " .. t.quote(text) .. " " .. t.quote(tools) .. " " .. t.quote(mcp)
    .. " --floor " .. t.quote(text .. "=" .. rerun) .. " --html " .. html .. " --draws 800"
  local function stdout(args) return t.sh("(" .. base .. args .. " 2>/dev/null)") end
  local md1, md2 = stdout(" --seed 11"), stdout(" --seed 11")
  local js1, js2 = stdout(" --seed 11 --json"), stdout(" --seed 11 --json")
  t.contains(md1, "## Noise floor:")
  t.contains(md1, "Holm-adjusted over the 2 comparisons")
  t.eq(md1, md2)
  t.eq(js1, js2)
  local js = json.decode(js1:gsub("rc=0%s*$", ""))
  t.eq(js.floor.discordance.count, 2)
  t.eq(js.comparisons[2].vs_floor.above, true)
  t.ok(js.comparisons[1].mcnemar.p_adjusted >= js.comparisons[1].mcnemar.p)
  -- the seed reaches the output (the 95% bootstrap intervals): another seed, another text
  t.ok(stdout(" --seed 12") ~= md1, "the seed is used")
end)

return T
