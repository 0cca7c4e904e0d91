-- tabula.compare — paired comparison of runs of any scenario.
--
--   local c = compare.runs({ "runs/a", "runs/b" } [, { draws = 4000, seed = 1 }])
--   print(compare.markdown(c))      -- or json.encode(c)
--
-- Each run is a directory (or DIR@VARIANT: the trials of one prompt variant of
-- a run, whose trial ids end in "@VARIANT"). The first run is the baseline; every
-- other run is compared with it over the trial ids both hold (the variant suffix
-- dropped), skipping trials recorded as infrastructure errors. A trial succeeds
-- when its status is "success". For each pair of runs the result holds:
--   n                       paired trials; only_a, only_b: unpaired ones
--   a, b                    { successes, rate, lo, hi } (95% bootstrap interval)
--   diff                    { value = rate_b - rate_a, lo, hi } (paired bootstrap)
--   mcnemar                 { a_only, b_only, p } exact two-sided McNemar test
--                           (a_only: succeeded in A only)
--   flipped                 { to_failure = ids, to_success = ids } (from A to B)
--   usage                   { a, b, diff } each { input, output, cost } per trial (mean)
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
  c.flipped = { to_failure = to_failure, to_success = to_success }
  local ud = {}
  for f in pairs(ua) do ua[f] = ua[f] / #keys; ub[f] = ub[f] / #keys; ud[f] = ub[f] - ua[f] end
  c.usage = { a = ua, b = ub, diff = ud }
  return c
end

-- runs(specs [, opts]) -> { runs = { {label, dir, scenario, model, n, protocol} }, comparisons = { pair(first, other)... } }
-- (protocol: the run's --protocol, the text or tools arm, where the scenario has one)
function M.runs(specs, opts)
  if #specs < 2 then cli.fail("compare: give at least two runs (RUN_A RUN_B [...])") end
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
    out.comparisons[#out.comparisons + 1] = M.pair(loaded[1], loaded[i], opts)
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
    L[#L + 1] = ""
    L[#L + 1] = string.format("Exact McNemar test: %d succeeded only in A, %d only in B, p = %.4g.",
      c.mcnemar.a_only, c.mcnemar.b_only, c.mcnemar.p)
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
