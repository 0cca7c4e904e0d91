-- tabula.metrics — estimators and intervals shared by reports.
local M = {}

-- C(n, k) as a float (exact for the small n used here)
function M.choose(n, k)
  if k < 0 or k > n then return 0 end
  local r = 1
  for i = 1, k do r = r * (n - k + i) / i end
  return r
end

-- pass@k for one case with n trials and c successes: 1 - C(n-c, k) / C(n, k)
function M.pass_at_k(n, c, k)
  if k > n then return nil end
  return 1 - M.choose(n - c, k) / M.choose(n, k)
end

-- pass^k: C(c, k) / C(n, k) (all k of k draws succeed)
function M.pass_hat_k(n, c, k)
  if k > n then return nil end
  return M.choose(c, k) / M.choose(n, k)
end

function M.mean(xs)
  if #xs == 0 then return nil end
  local s = 0
  for _, x in ipairs(xs) do s = s + x end
  return s / #xs
end

-- a small deterministic generator (splitmix64), independent of math.random
function M.rng(seed)
  local state = seed or 1
  return function(n)
    state = state + 0x9E3779B97F4A7C15
    local z = state
    z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ~ (z >> 27)) * 0x94D049BB133111EB
    z = z ~ (z >> 31)
    return (z >> 1) % n + 1
  end
end

-- bootstrap_mean(values, draws, seed) -> lo, hi: the 95% percentile interval
-- of the mean of values resampled with replacement. The same seed and length
-- give the same draws, so per-unit differences give paired intervals.
-- (the resampling runs in C, src/stats.c: a report may need millions of draws)
function M.bootstrap_mean(values, draws, seed)
  return require("tabula.c.stats").bootstrap_mean(values, draws or 4000, seed or 20260101)
end

-- wilson(c, n) -> lo, hi: the 95% Wilson score interval of a proportion
function M.wilson(c, total)
  if total == 0 then return nil, nil end
  local z, p = 1.959964, c / total
  local d = 1 + z * z / total
  local mid = (p + z * z / (2 * total)) / d
  local half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / d
  return math.max(0, mid - half), math.min(1, mid + half)
end

-- pearson(xs, ys) -> r, or nil when fewer than 2 pairs or a constant series
function M.pearson(xs, ys)
  local n = #xs
  if n < 2 then return nil end
  local mx, my = 0, 0
  for i = 1, n do mx = mx + xs[i]; my = my + ys[i] end
  mx, my = mx / n, my / n
  local sxy, sxx, syy = 0, 0, 0
  for i = 1, n do
    local dx, dy = xs[i] - mx, ys[i] - my
    sxy, sxx, syy = sxy + dx * dy, sxx + dx * dx, syy + dy * dy
  end
  if sxx == 0 or syy == 0 then return nil end
  return sxy / math.sqrt(sxx * syy)
end

-- ranks(xs) -> 1-based ranks, ties sharing their average rank
function M.ranks(xs)
  local idx = {}
  for i = 1, #xs do idx[i] = i end
  table.sort(idx, function(a, b) if xs[a] ~= xs[b] then return xs[a] < xs[b] end return a < b end)
  local r = {}
  local i = 1
  while i <= #idx do
    local j = i
    while j < #idx and xs[idx[j + 1]] == xs[idx[i]] do j = j + 1 end
    for k = i, j do r[idx[k]] = (i + j) / 2 end
    i = j + 1
  end
  return r
end

-- spearman(xs, ys) -> Pearson's r of the (tie-averaged) ranks
function M.spearman(xs, ys)
  if #xs < 2 then return nil end
  return M.pearson(M.ranks(xs), M.ranks(ys))
end

return M
