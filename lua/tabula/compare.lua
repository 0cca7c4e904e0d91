-- tabula.compare — paired comparison of runs of any scenario.
--
--   local c = compare.runs({ "runs/a", "runs/b", "runs/c" } [, { draws = 4000, seed = 1,
--     adjust = "holm", all_pairs = false, floor = "runs/a=runs/a2" }])
--   print(compare.markdown(c))      -- or json.encode(c)
--
-- Each run is a directory (or DIR@VARIANT: the trials of one prompt variant of
-- a run, whose trial ids end in "@VARIANT"). The first run is the baseline; every
-- other run is compared with it (or, with all_pairs, every run with every later
-- one) over the trial ids both hold (the variant suffix dropped), skipping trials
-- recorded as infrastructure errors. A trial succeeds when its status is
-- "success". For each pair of runs the result holds:
--   n                       paired trials; only_a, only_b: unpaired ones
--   a_index, b_index        the two runs' places in runs
--   a, b                    { successes, rate, lo, hi } (95% bootstrap interval)
--   diff                    { value = rate_b - rate_a, lo, hi } (paired bootstrap),
--                           and simultaneous = { lo, hi } (see the family, below)
--   mcnemar                 { a_only, b_only, p, p_adjusted } exact two-sided McNemar
--                           test (a_only: succeeded in A only); p_adjusted: see below
--   discordance             { count = a_only + b_only, share = count / n }
--   vs_floor                (with a floor) { p, above }: see the noise floor, below
--   flipped                 { to_failure = ids, to_success = ids } (from A to B)
--   usage                   { a, b, diff } each { input, output, cost } per trial (mean)
--
-- Many comparisons. The comparisons printed form one family (res.family: m of them,
-- "baseline" or "all" pairs). Each McNemar p gets an adjusted value for the family:
-- Holm's step-down method (default: the k-th smallest p times m - k + 1, made
-- non-decreasing in p and capped at 1), Bonferroni (p times m, capped at 1), or none.
-- With m >= 2 and an adjustment, each rate difference also gets a simultaneous
-- interval: Bonferroni, each at the level 1 - 0.05 / m (for Holm too: Holm's step-down
-- has no matching intervals). It is the exact percentile interval of the paired
-- bootstrap, the limit of infinitely many draws: a resample of n paired trials
-- holds (K+, K-, K0) trials of difference +1, -1, 0, a multinomial draw, so the
-- resampled difference (K+ - K-) / n has a known distribution (computed to within
-- 1e-30 of its mass), and its p-quantile is the smallest value whose cumulative
-- probability reaches p (as the 95% interval's order statistic does for many draws).
-- It needs no seed.
--
-- The noise floor. floor = "RUN=RERUN" names a run and a re-run of the same thing
-- (same configuration, another seed or simply again); it is not part of the family.
-- Its pairing (res.floor, the fields of a pair plus discordance = { count, share, lo,
-- hi } with a 95% Wilson interval) gives the trials that flipped for no reason but
-- noise: the floor that McNemar's test of a real comparison is read against. Each
-- comparison's discordant share is set beside the floor's and tested with a one-sided
-- Fisher exact test (is the comparison's share larger than the floor's?):
-- vs_floor = { p, above = p < 0.05 }; a comparison that is not above the floor is
-- noted. The test treats the two sets of paired trials as independent samples, which
-- they are not quite when the comparison and the floor share a run (A vs B, A vs A'),
-- and it is not adjusted for multiplicity: read it as a screen, not a verdict.
local json = require "tabula.json"
local fs = require "tabula.fs"
local cli = require "tabula.cli"
local records = require "tabula.records"
local metrics = require "tabula.metrics"

local M = {}

-- binom_tail(k, n) -> P(X <= k) for X ~ Binomial(n, 1/2)
local function binom_tail(k, n)
  local s = 0
  for i = 0, k do s = s + metrics.choose(n, i) end
  return s / 2 ^ n
end

-- mcnemar(b, c) -> exact two-sided p-value for b and c discordant pairs
function M.mcnemar(b, c)
  local n = b + c
  if n == 0 then return 1 end
  return math.min(1, 2 * binom_tail(math.min(b, c), n))
end

M.ADJUST = { "holm", "bonferroni", "none" }

-- adjust(ps, method) -> the p-values adjusted for the family ps (same order):
-- "holm" (step-down), "bonferroni" or "none"
function M.adjust(ps, method)
  local m, out = #ps, {}
  if method == "none" then
    for i, p in ipairs(ps) do out[i] = p end
  elseif method == "bonferroni" then
    for i, p in ipairs(ps) do out[i] = math.min(1, m * p) end
  elseif method == "holm" then
    local order = {}
    for i = 1, m do order[i] = i end
    table.sort(order, function(x, y) if ps[x] ~= ps[y] then return ps[x] < ps[y] end return x < y end)
    local run = 0
    for k, i in ipairs(order) do
      run = math.max(run, math.min(1, (m - k + 1) * ps[i]))
      out[i] = run
    end
  else
    cli.fail("compare: --adjust must be one of %s, got '%s'", table.concat(M.ADJUST, ", "), tostring(method))
  end
  return out
end

-- log_factorials(n) -> lf with lf[k] = log(k!) for k = 0..n
local function log_factorials(n)
  local lf = { [0] = 0 }
  for i = 1, n do lf[i] = lf[i - 1] + math.log(i) end
  return lf
end

-- log of the Binomial(N, p) probability of k (0 * log 0 taken as 0)
local function log_binom(lf, N, k, p)
  local v = lf[N] - lf[k] - lf[N - k]
  if k > 0 then v = v + k * math.log(p) end
  if N - k > 0 then v = v + (N - k) * math.log(1 - p) end
  return v
end

-- the counts of Binomial(N, p) that hold all but 2 exp(-72) < 1e-31 of its mass
-- (Hoeffding: P(|X - Np| >= t) <= 2 exp(-2 t^2 / N), here t = 6 sqrt(N))
local function window(N, p)
  local t = math.ceil(6 * math.sqrt(N))
  return math.max(0, math.floor(N * p - t)), math.min(N, math.ceil(N * p + t))
end

-- diff_distribution(plus, minus, n) -> { {d, prob}... } in increasing d: the distribution
-- of the mean of n values resampled with replacement from n paired differences of which
-- plus are +1, minus are -1 and the rest 0 (the paired bootstrap's, with infinitely many
-- draws): K- ~ Binomial(n, minus/n), then K+ ~ Binomial(n - K-, plus/(n - minus)), d = (K+ - K-)/n
function M.diff_distribution(plus, minus, n)
  local lf = log_factorials(n)
  local pm = minus / n
  local q = (n - minus > 0) and plus / (n - minus) or 0
  local mass = {}
  local lo_m, hi_m = window(n, pm)
  for km = lo_m, hi_m do
    local lm = log_binom(lf, n, km, pm)
    local lo_p, hi_p = window(n - km, q)
    for kp = lo_p, hi_p do
      local pr = math.exp(lm + log_binom(lf, n - km, kp, q))
      if pr > 0 then mass[kp - km] = (mass[kp - km] or 0) + pr end
    end
  end
  local ss = {}
  for s in pairs(mass) do ss[#ss + 1] = s end
  table.sort(ss)
  local out = {}
  for i, s in ipairs(ss) do out[i] = { s / n, mass[s] } end
  return out
end

-- quantile(dist, p) -> the smallest value whose cumulative probability reaches p
-- (the probabilities normalised by their sum; 1e-12 absorbs rounding at a jump)
function M.quantile(dist, p)
  local total = 0
  for _, e in ipairs(dist) do total = total + e[2] end
  local cum = 0
  for _, e in ipairs(dist) do
    cum = cum + e[2]
    if cum >= p * total - 1e-12 then return e[1] end
  end
  return dist[#dist][1]
end

-- exact_interval(plus, minus, n, level) -> lo, hi: the exact percentile interval of the
-- paired bootstrap of a rate difference at this level (see diff_distribution)
function M.exact_interval(plus, minus, n, level)
  local dist = M.diff_distribution(plus, minus, n)
  local a = (1 - level) / 2
  return M.quantile(dist, a), M.quantile(dist, 1 - a)
end

-- fisher_greater(x1, n1, x2, n2) -> the one-sided Fisher exact p-value that the share
-- x1/n1 is larger than x2/n2: P(X >= x1) for X hypergeometric (n1 drawn from n1 + n2
-- of which x1 + x2 are marked)
function M.fisher_greater(x1, n1, x2, n2)
  local N, K = n1 + n2, x1 + x2
  local lf = log_factorials(N)
  local lc = function(a, b) return lf[a] - lf[b] - lf[a - b] end
  local p = 0
  for x = x1, math.min(K, n1) do
    if K - x <= n2 then p = p + math.exp(lc(K, x) + lc(N - K, n1 - x) - lc(N, n1)) end
  end
  return math.min(1, p)
end

-- the usage of one trial record: its own usage/cost fields, else its transcript
local function usage_of(rec, tr)
  local u = rec.usage
  if type(u) == "table" then return { input = u.input or 0, output = u.output or 0, cost = rec.cost or 0 } end
  if tr then
    local s = require("tabula.transcripts").summary(tr)
    return { input = s.input, output = s.output, cost = s.cost }
  end
  return { input = 0, output = 0, cost = rec.cost or 0 }
end

-- load(spec) -> { dir, variant, label, scenario, model, trials = key -> { success, usage } }
function M.load(spec)
  local dir, variant = spec:match("^(.-)@([^/@]+)$")
  if not dir or fs.kind(dir .. "/run.json") ~= "file" then dir, variant = spec, nil end
  if fs.kind(dir .. "/run.json") ~= "file" then cli.fail("compare: %s is not a run directory (no run.json)", dir) end
  local meta = json.read_file(dir .. "/run.json")
  local recs = records.read(dir .. "/trials.jsonl", { skip_bad = true })
  local last = {}
  for _, r in ipairs(recs) do if r.trial_id then last[r.trial_id] = r end end
  local trs
  local run = { dir = dir, variant = variant, label = spec, scenario = meta.scenario,
    model = type(meta.model) == "table" and meta.model.name or meta.model, trials = {}, n = 0,
    protocol = type(meta.options) == "table" and meta.options.protocol or nil }   -- the arm: text REPL or native tools
  -- the agent-CLI arm (an agent program over MCP, tabula.program) and the MCP arm (tabula mcp)
  if type(meta.options) == "table" and meta.options.program then
    local pr = tostring(meta.options.program)
    run.protocol = "agent program " .. (pr:match("([^/]+)%.json$") or pr)
  elseif type(meta.options) == "table" and meta.options.model == "mcp" then
    run.protocol = "mcp"
  end
  for id, r in pairs(last) do
    local base, v = id:match("^(.*)@([^@/]+)$")
    if not base then base = id end
    if r.status ~= "error" and (variant == nil or v == variant) then
      if not (r.usage or r.cost) and not trs then trs = require("tabula.transcripts").load_all(dir) end
      run.trials[variant and base or id] = { success = r.status == "success", usage = usage_of(r, trs and trs[id]) }
      run.n = run.n + 1
    end
  end
  if run.n == 0 then cli.fail("compare: %s has no finished trials%s", dir, variant and (" of variant " .. variant) or "") end
  return run
end

local function rate(values, draws, seed)
  local lo, hi = metrics.bootstrap_mean(values, draws, seed)
  local s = 0
  for _, v in ipairs(values) do s = s + v end
  return { successes = s, rate = s / #values, lo = lo, hi = hi }
end

-- pair(A, B [, opts]) -> the comparison of two loaded runs
function M.pair(A, B, opts)
  opts = opts or {}
  local draws, seed = opts.draws or 4000, opts.seed or 20260101
  local keys = {}
  for k in pairs(A.trials) do if B.trials[k] then keys[#keys + 1] = k end end
  table.sort(keys)
  local c = { a_label = A.label, b_label = B.label, n = #keys, only_a = A.n - #keys, only_b = B.n - #keys }
  if #keys == 0 then
    cli.fail("compare: %s and %s share no trial ids (were they run on the same cases?)", A.label, B.label)
  end
  local av, bv, dv = {}, {}, {}
  local a_only, b_only = 0, 0
  local to_failure, to_success = {}, {}
  local ua = { input = 0, output = 0, cost = 0 }
  local ub = { input = 0, output = 0, cost = 0 }
  for i, k in ipairs(keys) do
    local ta, tb = A.trials[k], B.trials[k]
    av[i], bv[i] = ta.success and 1 or 0, tb.success and 1 or 0
    dv[i] = bv[i] - av[i]
    if ta.success and not tb.success then a_only = a_only + 1; to_failure[#to_failure + 1] = k end
    if tb.success and not ta.success then b_only = b_only + 1; to_success[#to_success + 1] = k end
    for f in pairs(ua) do ua[f] = ua[f] + ta.usage[f]; ub[f] = ub[f] + tb.usage[f] end
  end
  -- the same seed and length give the same resampled indices: the intervals are paired
  c.a, c.b = rate(av, draws, seed), rate(bv, draws, seed)
  local lo, hi = metrics.bootstrap_mean(dv, draws, seed)
  c.diff = { value = c.b.rate - c.a.rate, lo = lo, hi = hi }
  c.mcnemar = { a_only = a_only, b_only = b_only, p = M.mcnemar(a_only, b_only) }
  c.discordance = { count = a_only + b_only, share = (a_only + b_only) / #keys }
  c.flipped = { to_failure = to_failure, to_success = to_success }
  local ud = {}
  for f in pairs(ua) do ua[f] = ua[f] / #keys; ub[f] = ub[f] / #keys; ud[f] = ub[f] - ua[f] end
  c.usage = { a = ua, b = ub, diff = ud }
  return c
end

-- parse_floor(text) -> run, rerun from "RUN=RERUN" (a run and a re-run of the same thing)
function M.parse_floor(text)
  local a, b = tostring(text):match("^([^=]+)=([^=]+)$")
  if not a then cli.fail("compare: --floor expects RUN=RERUN (a run and a re-run of the same configuration), got '%s'", tostring(text)) end
  if a == b then cli.fail("compare: --floor %s: a run and its re-run must be two runs", tostring(text)) end
  return a, b
end

-- runs(specs [, opts]) -> { runs = { {label, dir, scenario, model, n, protocol} },
--   comparisons = { pair(first, other)... } (all_pairs: pair(i, j) for every i < j),
--   family = { pairs = "baseline" | "all", m, method, level, simultaneous_level },
--   floor = pair(run, rerun) with its discordance interval (only with opts.floor) }
-- (protocol: the run's --protocol, the text or tools arm, where the scenario has one)
function M.runs(specs, opts)
  opts = opts or {}
  if #specs < 2 then cli.fail("compare: give at least two runs (RUN_A RUN_B [...])") end
  local method = opts.adjust or "holm"
  M.adjust({}, method)   -- checks the name
  local loaded, out = {}, { runs = {}, comparisons = {} }
  for i, sp in ipairs(specs) do
    local r = M.load(sp)
    loaded[i] = r
    out.runs[i] = { label = r.label, dir = r.dir, variant = r.variant, scenario = r.scenario, model = r.model, n = r.n, protocol = r.protocol }
  end
  for i = 2, #loaded do
    if loaded[i].scenario ~= loaded[1].scenario then
      io.stderr:write(string.format("note: comparing runs of different scenarios (%s, %s)\n", loaded[1].scenario, loaded[i].scenario))
    end
  end
  for i = 1, opts.all_pairs and #loaded - 1 or 1 do
    for j = i + 1, #loaded do
      local c = M.pair(loaded[i], loaded[j], opts)
      c.a_index, c.b_index = i, j
      out.comparisons[#out.comparisons + 1] = c
    end
  end
  -- the family: adjusted McNemar p-values and, with m >= 2, Bonferroni simultaneous intervals
  local m = #out.comparisons
  local fam = { pairs = opts.all_pairs and "all" or "baseline", m = m, method = method, level = 0.95 }
  local ps = {}
  for k, c in ipairs(out.comparisons) do ps[k] = c.mcnemar.p end
  for k, p in ipairs(M.adjust(ps, method)) do out.comparisons[k].mcnemar.p_adjusted = p end
  if m >= 2 and method ~= "none" then
    fam.simultaneous_level = 1 - (1 - fam.level) / m
    for _, c in ipairs(out.comparisons) do
      local lo, hi = M.exact_interval(c.mcnemar.b_only, c.mcnemar.a_only, c.n, fam.simultaneous_level)
      c.diff.simultaneous = { lo = lo, hi = hi }
    end
  end
  out.family = fam
  -- the noise floor: a run against a re-run of itself
  if opts.floor then
    local fa, fb = opts.floor, nil
    if type(fa) == "table" then fa, fb = fa[1], fa[2] else fa, fb = M.parse_floor(fa) end
    local A, B
    for i, sp in ipairs(specs) do
      if sp == fa then A = loaded[i] end
      if sp == fb then B = loaded[i] end
    end
    A, B = A or M.load(fa), B or M.load(fb)
    local f = M.pair(A, B, opts)
    local lo, hi = metrics.wilson(f.discordance.count, f.n)
    f.discordance.lo, f.discordance.hi = lo, hi
    out.floor = f
    for _, c in ipairs(out.comparisons) do
      local p = M.fisher_greater(c.discordance.count, c.n, f.discordance.count, f.n)
      c.vs_floor = { p = p, above = p < 0.05 }
    end
  end
  return out
end

local function pct(x) return x and string.format("%.1f%%", 100 * x) or "-" end
local function spct(x) return x and string.format("%+.1f", 100 * x) or "-" end

local function id_list(ids, max)
  if #ids == 0 then return "(none)" end
  local shown = {}
  for i = 1, math.min(#ids, max) do shown[i] = "`" .. ids[i] .. "`" end
  return table.concat(shown, ", ") .. (#ids > max and string.format(" and %d more", #ids - max) or "")
end

local METHOD = { holm = "Holm's step-down method", bonferroni = "Bonferroni's method" }
local METHOD_SHORT = { holm = "Holm", bonferroni = "Bonferroni" }

local function level(x) return string.format("%.4g%%", 100 * x) end
local function pval(p) return p and string.format("%.4g", p) or "-" end

-- family_text(res [, f]) -> the family in one paragraph: which comparisons, which adjustment,
-- which intervals (report text and compare.html alike)
function M.family_text(res, f)
  f = f or res.family
  local which = f.pairs == "all" and string.format("every pair of the %d runs", #res.runs)
    or string.format("each run against the baseline %s", res.runs[1].label)
  local how = METHOD[f.method] and ("McNemar p-values adjusted by " .. METHOD[f.method])
    or "McNemar p-values not adjusted (--adjust none)"
  local text = string.format("Family: %d comparisons (%s); %s.", f.m, which, how)
  if f.simultaneous_level then
    text = text .. string.format(" Simultaneous intervals of the differences: Bonferroni, each at the %s level"
      .. " (exact paired-bootstrap percentiles), all %d together at %s.", level(f.simultaneous_level), f.m, level(f.level or 0.95))
  end
  return text
end
local function family_lines(res, L) L[#L + 1] = M.family_text(res) end
M.METHOD, M.METHOD_SHORT, M.level = METHOD, METHOD_SHORT, level

-- the summary table of the family (with the noise floor's column when there is one)
local function summary_lines(res, L)
  local f, fl = res.family, res.floor
  local head = "| A | B | paired | B - A | 95% interval |"
  if f.simultaneous_level then head = head .. " simultaneous " .. level(f.simultaneous_level) .. " |" end
  head = head .. " discordant | McNemar p |"
  if f.m >= 2 then head = head .. " " .. (METHOD_SHORT[f.method] or "unadjusted") .. " p |" end
  if fl then head = head .. " vs noise floor |" end
  L[#L + 1] = head
  L[#L + 1] = "|" .. string.rep("---|", select(2, head:gsub("|", "")) - 1)
  for _, c in ipairs(res.comparisons) do
    local row = string.format("| %s | %s | %d | %s | [%s, %s] |", c.a_label, c.b_label, c.n, spct(c.diff.value),
      spct(c.diff.lo), spct(c.diff.hi))
    if f.simultaneous_level then row = row .. string.format(" [%s, %s] |", spct(c.diff.simultaneous.lo), spct(c.diff.simultaneous.hi)) end
    row = row .. string.format(" %s (%d) | %s |", pct(c.discordance.share), c.discordance.count, pval(c.mcnemar.p))
    if f.m >= 2 then row = row .. " " .. pval(c.mcnemar.p_adjusted) .. " |" end
    if fl then row = row .. string.format(" %s (p = %s) |", c.vs_floor.above and "above" or "not above", pval(c.vs_floor.p)) end
    L[#L + 1] = row
  end
end

-- the noise floor's section
local function floor_lines(res, L, max_ids)
  local fl = res.floor
  L[#L + 1] = ""
  L[#L + 1] = string.format("## Noise floor: %s vs %s (a re-run of the same thing)", fl.a_label, fl.b_label)
  L[#L + 1] = ""
  L[#L + 1] = string.format("%d paired trials%s; %d flipped between the two runs (%s of paired trials, 95%% interval [%s, %s]):"
    .. " %d succeeded only in the run, %d only in the re-run. Rate difference (re-run - run): %s points [%s, %s]"
    .. " (paired bootstrap); exact McNemar p = %s.", fl.n,
    (fl.only_a + fl.only_b > 0) and string.format(" (%d only in the run, %d only in the re-run, left out)", fl.only_a, fl.only_b) or "",
    fl.discordance.count, pct(fl.discordance.share), pct(fl.discordance.lo), pct(fl.discordance.hi),
    fl.mcnemar.a_only, fl.mcnemar.b_only, spct(fl.diff.value), spct(fl.diff.lo), spct(fl.diff.hi), pval(fl.mcnemar.p))
  L[#L + 1] = ""
  L[#L + 1] = "- success in the run, failure in the re-run: " .. id_list(fl.flipped.to_failure, max_ids)
  L[#L + 1] = "- failure in the run, success in the re-run: " .. id_list(fl.flipped.to_success, max_ids)
  L[#L + 1] = ""
  L[#L + 1] = "Each comparison's discordant share is tested against the floor's with a one-sided Fisher exact test"
    .. " (is it larger?), read as a screen: not adjusted for multiplicity, and the two sets of paired trials"
    .. " are treated as independent."
end

-- markdown(result [, max_ids]) -> the report as Markdown
function M.markdown(res, max_ids)
  max_ids = max_ids or 20
  local arms = false
  for _, r in ipairs(res.runs) do arms = arms or r.protocol ~= nil end
  local L = { "# Comparison", "", arms and "| run | scenario | model | protocol | trials |" or "| run | scenario | model | trials |",
    arms and "|---|---|---|---|---|" or "|---|---|---|---|" }
  for _, r in ipairs(res.runs) do
    L[#L + 1] = string.format("| %s | %s | %s |%s %d |", r.label, tostring(r.scenario), tostring(r.model),
      arms and (" " .. tostring(r.protocol or "-") .. " |") or "", r.n)
  end
  local fam, fl = res.family or { m = #res.comparisons, method = "none" }, res.floor
  if fam.m >= 2 or fl then
    L[#L + 1] = ""
    L[#L + 1] = "## Summary"
    L[#L + 1] = ""
    if fam.m >= 2 then family_lines(res, L); L[#L + 1] = "" end
    summary_lines(res, L)
  end
  if fl then floor_lines(res, L, max_ids) end
  for _, c in ipairs(res.comparisons) do
    L[#L + 1] = ""
    L[#L + 1] = string.format("## %s vs %s (A vs B)", c.a_label, c.b_label)
    L[#L + 1] = ""
    L[#L + 1] = string.format("%d paired trials%s.", c.n,
      (c.only_a + c.only_b > 0) and string.format(" (%d only in A, %d only in B, left out)", c.only_a, c.only_b) or "")
    L[#L + 1] = ""
    L[#L + 1] = "| | success | 95% interval |"
    L[#L + 1] = "|---|---|---|"
    L[#L + 1] = string.format("| A | %s (%d/%d) | [%s, %s] |", pct(c.a.rate), c.a.successes, c.n, pct(c.a.lo), pct(c.a.hi))
    L[#L + 1] = string.format("| B | %s (%d/%d) | [%s, %s] |", pct(c.b.rate), c.b.successes, c.n, pct(c.b.lo), pct(c.b.hi))
    L[#L + 1] = string.format("| B - A | %s points | [%s, %s] (paired bootstrap) |", spct(c.diff.value), spct(c.diff.lo), spct(c.diff.hi))
    if c.diff.simultaneous then
      L[#L + 1] = string.format("| B - A, simultaneous | | [%s, %s] (Bonferroni over %d, %s each) |",
        spct(c.diff.simultaneous.lo), spct(c.diff.simultaneous.hi), fam.m, level(fam.simultaneous_level))
    end
    L[#L + 1] = ""
    local adj = ""
    if fam.m >= 2 and METHOD_SHORT[fam.method] then
      adj = string.format("; %s-adjusted over the %d comparisons, p = %s", METHOD_SHORT[fam.method], fam.m, pval(c.mcnemar.p_adjusted))
    end
    L[#L + 1] = string.format("Exact McNemar test: %d succeeded only in A, %d only in B, p = %.4g%s.",
      c.mcnemar.a_only, c.mcnemar.b_only, c.mcnemar.p, adj)
    if fl then
      L[#L + 1] = ""
      L[#L + 1] = string.format("Discordant: %d of %d paired trials (%s); the noise floor's: %s (%d of %d); one-sided Fisher p = %s%s",
        c.discordance.count, c.n, pct(c.discordance.share), pct(fl.discordance.share), fl.discordance.count, fl.n,
        pval(c.vs_floor.p), c.vs_floor.above and ": above the floor."
          or ". Note: not above the noise floor; these flips may be no more than re-run noise.")
    end
    L[#L + 1] = ""
    L[#L + 1] = "- success in A, failure in B: " .. id_list(c.flipped.to_failure, max_ids)
    L[#L + 1] = "- failure in A, success in B: " .. id_list(c.flipped.to_success, max_ids)
    L[#L + 1] = ""
    L[#L + 1] = "| per trial | input tokens | output tokens | cost |"
    L[#L + 1] = "|---|---|---|---|"
    for _, row in ipairs({ { "A", c.usage.a }, { "B", c.usage.b }, { "B - A", c.usage.diff } }) do
      L[#L + 1] = string.format("| %s | %.1f | %.1f | %.6f |", row[1], row[2].input, row[2].output, row[2].cost)
    end
  end
  return table.concat(L, "\n") .. "\n"
end

return M
