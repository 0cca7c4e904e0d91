-- tabula.robustness — how far a leaderboard can be trusted (issue 48): clustered bootstrap
-- intervals beside the i.i.d. ones, drop-k fragility of the first place and of each adjacent
-- pair, and simultaneous rank-confidence sets; the same appendix for every scenario. A null
-- arm (o.null_pairs = { { a = NAME, b = COPY } }: one configuration entered twice under
-- different seeds) gives the noise floor: the copies' difference with its intervals, and the
-- adjacent gaps smaller than it.
--
-- A run is described as units (a DECE match, a ChessArena game, a XiangqiBench trial), each
--   { id = "...", cluster = "...", stratum = "...", contrib = { [key] = { points, weight } } }
-- A participant's score is, per stratum, its points over its weight in that stratum, then the
-- equal-weight mean over the strata it appears in (DECE: mean PWS per game, then the mean over
-- games; ChessArena and XiangqiBench have one stratum: points per game, successes per trial).
-- Keys that are not participants (e.g. "@white") are covariates: scored the same way, never
-- ranked. Units that share randomness share a cluster (within one stratum); both bootstraps
-- resample within each stratum, the i.i.d. one units and the clustered one whole clusters.
local metrics = require "tabula.metrics"

local M = {}

M.DRAWS, M.SEED = 2000, 20260948
M.BUDGET = 50000      -- subsets an exact drop-k search may try before it gives a greedy bound
M.LEVEL = 0.95
local EPS = 1e-12

-- add(st, contrib [, sign]): add (or with sign −1 take away) a unit's contributions to the
-- sums { [key] = {points, weight} } of its stratum
local function add(st, contrib, sign)
  sign = sign or 1
  for key, c in pairs(contrib) do
    local e = st[key] or { 0, 0 }
    e[1], e[2] = e[1] + sign * c[1], e[2] + sign * c[2]
    st[key] = e
  end
end

-- scores(units [, keep]) -> { [key] = score }: keep(i) says whether unit i counts (default all)
function M.scores(units, keep)
  local acc = {}
  for i, u in ipairs(units) do
    if not keep or keep(i) then
      acc[u.stratum or ""] = acc[u.stratum or ""] or {}
      add(acc[u.stratum or ""], u.contrib)
    end
  end
  return M.from_sums(acc)
end

-- from_sums({ [stratum] = { [key] = {points, weight} } }) -> { [key] = equal-stratum mean }
-- (strata in sorted order, so the sums are added in the same order in every process)
function M.from_sums(acc)
  local sum, cnt, strata = {}, {}, {}
  for s in pairs(acc) do strata[#strata + 1] = s end
  table.sort(strata)
  for _, s in ipairs(strata) do
    for key, e in pairs(acc[s]) do
      if e[2] > EPS then sum[key] = (sum[key] or 0) + e[1] / e[2]; cnt[key] = (cnt[key] or 0) + 1 end
    end
  end
  local r = {}
  for key, s in pairs(sum) do r[key] = s / cnt[key] end
  return r
end

-- percentile(sorted, p): linear interpolation between order statistics (type 7)
local function percentile(xs, p)
  if #xs == 0 then return nil end
  local h = (#xs - 1) * p + 1
  local lo = math.floor(h)
  return xs[lo] + (h - lo) * (xs[math.min(lo + 1, #xs)] - xs[lo])
end
M.percentile = percentile

-- groups(units, by) -> per stratum (sorted by name) the list of resampling groups, each a
-- list of unit indices: by "unit" one unit a group, by "cluster" the units of one cluster
function M.groups(units, by)
  local strata, snames, where = {}, {}, {}
  for i, u in ipairs(units) do
    local s = u.stratum or ""
    if not strata[s] then strata[s] = {}; where[s] = {}; snames[#snames + 1] = s end
    local key = by == "cluster" and tostring(u.cluster or u.id or i) or i
    local g = where[s][key]
    if not g then g = {}; where[s][key] = g; table.insert(strata[s], g) end
    g[#g + 1] = i
  end
  table.sort(snames)
  local out = {}
  for k, s in ipairs(snames) do out[k] = strata[s] end
  return out
end

-- resample(units, by, draws, seed) -> list of draws, each { [key] = score }: groups drawn with
-- replacement within each stratum (as many as it has); the same seed gives the same draws
function M.resample(units, by, draws, seed)
  local rand = metrics.rng(seed or M.SEED)
  local strata = M.groups(units, by)
  local out = {}
  for d = 1, draws or M.DRAWS do
    local acc = {}
    for k, groups in ipairs(strata) do
      local st = {}
      acc[k] = st
      for _ = 1, #groups do
        for _, i in ipairs(groups[rand(#groups)]) do add(st, units[i].contrib) end
      end
    end
    out[d] = M.from_sums(acc)
  end
  return out
end

-- interval(draws, key [, level]) -> lo, hi: the percentile interval of key over the draws
-- (draws where key is absent are left out)
function M.interval(draws, key, level)
  local xs = {}
  for _, d in ipairs(draws) do if d[key] then xs[#xs + 1] = d[key] end end
  table.sort(xs)
  local a = (1 - (level or M.LEVEL)) / 2
  return percentile(xs, a), percentile(xs, 1 - a)
end

-- ranking(scores, names) -> names by score, highest first (ties: the order of names)
function M.ranking(scores, names)
  local pos, r = {}, {}
  for i, n in ipairs(names) do pos[n] = i; if scores[n] then r[#r + 1] = n end end
  table.sort(r, function(a, b)
    if math.abs(scores[a] - scores[b]) > EPS then return scores[a] > scores[b] end
    return pos[a] < pos[b]
  end)
  return r
end

-- ---- drop-k fragility ----

-- a removable state: per stratum and key the sums of the units still in, and per stratum and
-- participant how many of its units are in (a removal may not take a participant out of a
-- stratum it plays in: its score there would be undefined)
local function state_of(units, names)
  local isname = {}
  for _, n in ipairs(names) do isname[n] = true end
  local S = { sums = {}, count = {}, units = units, isname = isname, strata = {} }
  for _, u in ipairs(units) do
    local s = u.stratum or ""
    if not S.sums[s] then S.sums[s], S.count[s] = {}, {}; S.strata[#S.strata + 1] = s end
    add(S.sums[s], u.contrib)
    for key in pairs(u.contrib) do
      if isname[key] then S.count[s][key] = (S.count[s][key] or 0) + 1 end
    end
  end
  table.sort(S.strata)
  return S
end

-- apply(S, block, sign): take out (sign −1) or put back (+1) the units of a block; false when
-- taking it out would leave a participant without units in a stratum (nothing is changed then)
local function apply(S, block, sign)
  if sign < 0 then
    local need = {}
    for _, i in ipairs(block) do
      local u = S.units[i]
      for key in pairs(u.contrib) do
        if S.isname[key] then
          local k = (u.stratum or "") .. "\0" .. key
          need[k] = (need[k] or 0) + 1
          if need[k] >= S.count[u.stratum or ""][key] then return false end
        end
      end
    end
  end
  for _, i in ipairs(block) do
    local u = S.units[i]
    local s = u.stratum or ""
    add(S.sums[s], u.contrib, sign)
    for key in pairs(u.contrib) do
      if S.isname[key] then S.count[s][key] = S.count[s][key] + sign end
    end
  end
  return true
end

-- margin(S, a, others) -> score(a) − the best score among others (≤ 0: a is no longer ahead)
local function score_of(S, key)
  local sum, cnt = 0, 0
  for _, s in ipairs(S.strata) do
    local e = S.sums[s][key]
    if e and e[2] > EPS then sum = sum + e[1] / e[2]; cnt = cnt + 1 end
  end
  return cnt > 0 and sum / cnt or nil
end

local function margin(S, a, others)
  local best = -math.huge
  for _, b in ipairs(others) do
    local x = score_of(S, b)
    if x and x > best then best = x end
  end
  return score_of(S, a) - best
end

-- fragility(units, names, a, others, blocks [, budget]) -> { k, exact, removed (block indices),
-- searched (largest size searched exhaustively), tried }: the fewest blocks whose removal puts
-- some participant of others level with or ahead of a. Subsets are searched by size while the
-- budget lasts (exact); after that, greedy removal of the block that lowers the margin most
-- gives an upper bound (exact = false, searched = the size below which none exists). k = nil
-- when no admissible removal changes the order.
function M.fragility(units, names, a, others, blocks, budget)
  budget = budget or M.BUDGET
  local S = state_of(units, names)
  if margin(S, a, others) <= EPS then return { k = 0, exact = true, removed = {}, searched = 0, tried = 1 } end
  local n, tried, chosen = #blocks, 0, {}
  local found
  -- dfs(start, left): remove left more blocks from start..n
  local function dfs(start, left)
    if left == 0 then
      tried = tried + 1
      if margin(S, a, others) <= EPS then found = { table.unpack(chosen) }; return true end
      return false
    end
    for b = start, n - left + 1 do
      if tried >= budget then return false end
      if apply(S, blocks[b], -1) then
        chosen[#chosen + 1] = b
        local hit = dfs(b + 1, left - 1)
        chosen[#chosen] = nil
        apply(S, blocks[b], 1)
        if hit then return true end
      end
    end
    return false
  end
  local searched = 0
  for k = 1, n do
    local before = tried
    if dfs(1, k) then return { k = k, exact = true, removed = found, searched = k, tried = tried } end
    if tried >= budget then break end
    searched = k
    if tried == before then break end      -- no admissible subset of this size: none larger either
  end
  if tried < budget then return { k = nil, exact = true, removed = {}, searched = searched, tried = tried } end
  -- greedy: remove the block that lowers the margin most, until the order changes
  local out, removed = {}, {}
  while true do
    local best, bestm
    for b = 1, n do
      if not removed[b] and apply(S, blocks[b], -1) then
        local m = margin(S, a, others)
        apply(S, blocks[b], 1)
        if not bestm or m < bestm - EPS then best, bestm = b, m end
      end
    end
    if not best then return { k = nil, exact = false, removed = {}, searched = searched, tried = tried } end
    apply(S, blocks[best], -1)
    removed[best] = true
    out[#out + 1] = best
    if bestm <= EPS then
      table.sort(out)
      return { k = #out, exact = false, removed = out, searched = searched, tried = tried }
    end
  end
end

-- ---- rank-confidence sets ----

-- rank_sets(scores, draws, names [, level]) -> { critical, sets = { [name] = {lo, hi} }, resolved =
-- { {above, below, t} }, unresolved = { {a, b} } }: max-t over all pairwise differences: each
-- difference studentised by its bootstrap standard deviation, the critical value the level's
-- quantile of the draws' largest |d* − d| / sd; a pair is resolved when |d| / sd exceeds it.
-- A participant's ranks run from 1 + (resolved above it) to K − (resolved below it).
function M.rank_sets(scores, draws, names, level)
  local pairs_ = {}
  for i = 1, #names - 1 do
    for j = i + 1, #names do
      local a, b = names[i], names[j]
      local d, xs = scores[a] - scores[b], {}
      for k, dr in ipairs(draws) do xs[k] = (dr[a] and dr[b]) and dr[a] - dr[b] or d end
      local m = 0
      for _, x in ipairs(xs) do m = m + x end
      m = m / #xs
      local v = 0
      for _, x in ipairs(xs) do v = v + (x - m) ^ 2 end
      local sd = #xs > 1 and math.sqrt(v / (#xs - 1)) or 0
      pairs_[#pairs_ + 1] = { a = a, b = b, d = d, xs = xs, sd = sd }
    end
  end
  local T = {}
  for k = 1, #draws do
    local t = 0
    for _, p in ipairs(pairs_) do
      if p.sd > EPS then t = math.max(t, math.abs(p.xs[k] - p.d) / p.sd) end
    end
    T[k] = t
  end
  table.sort(T)
  local c = percentile(T, level or M.LEVEL) or math.huge
  local above, below = {}, {}
  for _, n in ipairs(names) do above[n], below[n] = 0, 0 end
  local out = { critical = c, sets = {}, resolved = {}, unresolved = {} }
  for _, p in ipairs(pairs_) do
    local t = p.sd > EPS and math.abs(p.d) / p.sd or (math.abs(p.d) > EPS and math.huge or 0)
    if t > c then
      local hi, lo = p.a, p.b
      if p.d < 0 then hi, lo = p.b, p.a end
      below[hi], above[lo] = below[hi] + 1, above[lo] + 1
      out.resolved[#out.resolved + 1] = { above = hi, below = lo, t = t }
    else
      out.unresolved[#out.unresolved + 1] = { a = p.a, b = p.b, t = t }
    end
  end
  for _, n in ipairs(names) do out.sets[n] = { lo = 1 + above[n], hi = #names - below[n] } end
  return out
end

-- ---- the appendix ----

-- analyse(o) -> the appendix of one leaderboard. o = { units, names (participants),
-- covariates = { { key, label, null } }, draws, seed, drop = "unit" | "cluster",
-- unit = "matches", cluster = "seat-rotation blocks", budget }
function M.analyse(o)
  local units, draws, seed = o.units, o.draws or M.DRAWS, o.seed or M.SEED
  local scores = M.scores(units)
  local names = M.ranking(scores, o.names)
  local iid = M.resample(units, "unit", draws, seed)
  local clu = M.resample(units, "cluster", draws, seed)
  local nclusters, small = 0, false
  for _, groups in ipairs(M.groups(units, "cluster")) do
    nclusters = nclusters + #groups
    if #groups < 2 then small = true end
  end
  -- a stratum with one cluster cannot vary under clustered resampling: then no clustered
  -- intervals are given and the rank sets use the i.i.d. draws
  local r = { draws = draws, seed = seed, units = #units, clusters = nclusters, unit = o.unit or "units",
    cluster = o.cluster or "clusters", strata = #M.groups(units, "unit"), ranking = names, rows = {},
    covariates = {}, level = M.LEVEL, single_cluster_stratum = small or nil, rank_draws = small and "i.i.d." or "clustered" }
  local function clustered(key)
    if small then return nil, nil end
    return M.interval(clu, key)
  end
  for _, n in ipairs(names) do
    local lo, hi = M.interval(iid, n)
    local clo, chi = clustered(n)
    local w, cw = hi and hi - lo, chi and chi - clo
    r.rows[#r.rows + 1] = { name = n, score = scores[n], iid_lo = lo, iid_hi = hi, cluster_lo = clo, cluster_hi = chi,
      width_ratio = (w and cw and w > EPS) and cw / w or nil }
  end
  for _, cv in ipairs(o.covariates or {}) do
    if scores[cv.key] then
      local lo, hi = M.interval(iid, cv.key)
      local clo, chi = clustered(cv.key)
      r.covariates[#r.covariates + 1] = { key = cv.key, label = cv.label, null = cv.null, value = scores[cv.key],
        iid_lo = lo, iid_hi = hi, cluster_lo = clo, cluster_hi = chi }
    end
  end
  -- the smallest gap between adjacent places, which a covariate is balanced against
  local gap
  for i = 1, #names - 1 do
    local g = scores[names[i]] - scores[names[i + 1]]
    if not gap or g < gap then gap = g end
  end
  r.smallest_gap = gap
  for _, cv in ipairs(r.covariates) do
    if gap and cv.null and math.abs(cv.value - cv.null) > gap then cv.larger_than_gap = true end
  end
  -- null arms (issue 48: a participant entered twice under different seeds): the two copies'
  -- difference is the noise floor, with its intervals, beside the adjacent gaps it exceeds
  r.null = {}
  for _, np in ipairs(o.null_pairs or {}) do
    if scores[np.a] and scores[np.b] then
      local function diff_interval(draws)
        local xs = {}
        for _, d in ipairs(draws) do if d[np.a] and d[np.b] then xs[#xs + 1] = d[np.a] - d[np.b] end end
        table.sort(xs)
        local a = (1 - M.LEVEL) / 2
        return percentile(xs, a), percentile(xs, 1 - a)
      end
      local lo, hi = diff_interval(iid)
      local clo, chi
      if not small then clo, chi = diff_interval(clu) end
      local floor = math.abs(scores[np.a] - scores[np.b])
      local below = {}
      for i = 1, #names - 1 do
        local g = scores[names[i]] - scores[names[i + 1]]
        if g < floor - EPS then below[#below + 1] = names[i] .. " > " .. names[i + 1] end
      end
      r.null[#r.null + 1] = { a = np.a, b = np.b, diff = scores[np.a] - scores[np.b], iid_lo = lo, iid_hi = hi,
        cluster_lo = clo, cluster_hi = chi, floor = floor, gaps_below = below }
    end
  end
  if #names >= 2 then
    local blocks, ids = {}, {}
    if o.drop == "cluster" then
      for _, groups in ipairs(M.groups(units, "cluster")) do
        for _, g in ipairs(groups) do blocks[#blocks + 1] = g; ids[#blocks] = tostring(units[g[1]].cluster) end
      end
    else
      for i, u in ipairs(units) do blocks[i] = { i }; ids[i] = tostring(u.id or i) end
    end
    local function named(f)
      local list = {}
      for k, b in ipairs(f.removed) do list[k] = ids[b] end
      f.removed = list
      f.tried = nil
      return f
    end
    r.drop_unit = o.drop == "cluster" and r.cluster or r.unit
    local others = { table.unpack(names, 2) }
    r.first = named(M.fragility(units, names, names[1], others, blocks, o.budget))
    r.first.leader = names[1]
    r.pairs = {}
    for i = 1, #names - 1 do
      local f = named(M.fragility(units, names, names[i], { names[i + 1] }, blocks, o.budget))
      f.above, f.below = names[i], names[i + 1]
      r.pairs[i] = f
    end
    local rs = M.rank_sets(scores, small and iid or clu, names)
    -- an infinite statistic (no variation in the draws) is written as null
    r.critical = rs.critical < math.huge and rs.critical or nil
    for _, p in ipairs(rs.resolved) do if p.t == math.huge then p.t = nil end end
    for _, row in ipairs(r.rows) do row.rank_lo, row.rank_hi = rs.sets[row.name].lo, rs.sets[row.name].hi end
    r.resolved, r.unresolved = rs.resolved, rs.unresolved
  end
  return r
end

local function f3(x) return x and string.format("%.3f", x) or "-" end
local function span(lo, hi) return (lo and hi) and string.format("[%.3f, %.3f]", lo, hi) or "-" end

M.NAMED = 10   -- removed units named in the text; more are counted

local function drop_text(f, word)
  if f.k == nil then
    return f.exact and "no admissible removal changes it" or
      string.format("not changed by greedy removal (none of %d or fewer %s changes it)", f.searched, word)
  end
  -- a large study's greedy bound removes many units: the first ten are named, the rest counted
  -- (the summary's robustness section keeps them all)
  local list = #f.removed > 0 and (": " .. table.concat(f.removed, ", ", 1, math.min(#f.removed, M.NAMED))) or ""
  if #f.removed > M.NAMED then list = list .. string.format(", … and %d more (all in summary.json)", #f.removed - M.NAMED) end
  if f.exact then return string.format("k = %d (exact)%s", f.k, list) end
  if f.k == f.searched + 1 then
    return string.format("k = %d (exact: no %d or fewer %s change it, greedy removal of %d does)%s", f.k, f.searched, word, f.k, list)
  end
  return string.format("%d ≤ k ≤ %d (greedy upper bound; all subsets of up to %d searched)%s", f.searched + 1, f.k, f.searched, list)
end

M.HEADERS = { "participant", "score", "95% i.i.d.", "95% clustered", "width ratio", "ranks (95%, max-t)" }

-- parts(r) -> intro (text), rows (cells as text, in M.HEADERS' order), notes (paragraphs, each a
-- heading line or nil and its items): what report.md and report.html both show
function M.parts(r)
  local intro = {
    string.format("%d %s in %d %s; %d bootstrap draws (seed %d), resampled %s: i.i.d. %s, clustered whole %s. Percentile intervals at %.0f%%; width ratio = clustered / i.i.d.",
      r.units, r.unit, r.clusters, r.cluster, r.draws, r.seed, r.strata == 1 and "as one set" or ("within each of " .. r.strata .. " strata"),
      r.unit, r.cluster, 100 * r.level) }
  if r.single_cluster_stratum then
    intro[2] = string.format("A stratum holds a single %s, which clustered resampling cannot vary: no clustered intervals are given, and the rank sets use the i.i.d. draws.",
      (r.cluster:gsub("s$", "")))
  end
  local rows = {}
  for i, x in ipairs(r.rows) do
    rows[i] = { x.name, f3(x.score), span(x.iid_lo, x.iid_hi), span(x.cluster_lo, x.cluster_hi),
      x.width_ratio and string.format("%.2f", x.width_ratio) or "-",
      x.rank_lo and (x.rank_lo == x.rank_hi and tostring(x.rank_lo) or string.format("%d–%d", x.rank_lo, x.rank_hi)) or "-" }
  end
  local notes = {}
  if r.first then
    local items = { string.format("first place (%s): %s", r.first.leader, drop_text(r.first, r.drop_unit)) }
    for _, p in ipairs(r.pairs) do items[#items + 1] = string.format("%s ahead of %s: %s", p.above, p.below, drop_text(p, r.drop_unit)) end
    notes[#notes + 1] = { head = string.format("Drop-k fragility (removed %s; a removal never takes a participant out of a stratum; level counts as changed):", r.drop_unit),
      items = items }
    local res, un = {}, {}
    for _, p in ipairs(r.resolved) do res[#res + 1] = p.above .. " > " .. p.below end
    for _, p in ipairs(r.unresolved) do un[#un + 1] = p.a .. " – " .. p.b end
    notes[#notes + 1] = { head = string.format("Rank-confidence sets: max-t over all pairwise differences on the %s draws, critical value %s. Resolved pairs: %s. Unresolved: %s.",
      r.rank_draws, r.critical and string.format("%.2f", r.critical) or "∞ (the draws do not vary)", #res > 0 and table.concat(res, ", ") or "none",
      #un > 0 and table.concat(un, ", ") or "none") }
  end
  for _, n in ipairs(r.null or {}) do
    notes[#notes + 1] = { head = string.format("Noise floor (null arm): %s and its copy %s, the same configuration under other seeds, differ by %s, i.i.d. %s, clustered %s. Adjacent gaps smaller than this floor: %s.",
      n.a, n.b, f3(n.diff), span(n.iid_lo, n.iid_hi), span(n.cluster_lo, n.cluster_hi),
      #n.gaps_below > 0 and table.concat(n.gaps_below, ", ") or "none") }
  end
  for _, e in ipairs(r.bt_effects or {}) do   -- a covariate of a contextual Bradley–Terry fit (ChessArena's colour)
    if e.value then
      local function sg(x) return x and string.format("%+d", math.floor(x + 0.5)) or "-" end
      notes[#notes + 1] = { head = string.format("%s: %s, 95%% interval [%s, %s] (%d bootstrap draws of whole %s)%s.", e.label, sg(e.value),
        sg(e.lo), sg(e.hi), e.draws or 0, r.cluster,
        e.larger_than_gap and string.format("; larger than the smallest gap between adjacent players (%.0f)", e.gap) or "") }
    end
  end
  for _, cv in ipairs(r.covariates) do
    notes[#notes + 1] = { head = string.format("%s: %s, i.i.d. %s, clustered %s (no effect: %s)%s.", cv.label, f3(cv.value), span(cv.iid_lo, cv.iid_hi),
      span(cv.cluster_lo, cv.cluster_hi), f3(cv.null),
      cv.larger_than_gap and string.format("; its distance from no effect exceeds the smallest adjacent gap (%.3f)", r.smallest_gap) or "") }
  end
  return intro, rows, notes
end

-- markdown(r [, title]) -> the lines of the "Robustness" section
function M.markdown(r, title)
  local intro, rows, notes = M.parts(r)
  local L = { "## " .. (title or "Robustness") }
  for _, p in ipairs(intro) do L[#L + 1] = ""; L[#L + 1] = p end
  L[#L + 1] = ""
  L[#L + 1] = "| " .. table.concat(M.HEADERS, " | ") .. " |"
  L[#L + 1] = "|" .. string.rep("---|", #M.HEADERS)
  for _, row in ipairs(rows) do L[#L + 1] = "| " .. table.concat(row, " | ") .. " |" end
  for _, n in ipairs(notes) do
    L[#L + 1] = ""
    L[#L + 1] = n.head
    if n.items then
      L[#L + 1] = ""
      for _, it in ipairs(n.items) do L[#L + 1] = "- " .. it end
    end
  end
  return L
end

-- panel(r, html, title) -> a report.html panel (tabula.view) with the same table and notes
function M.panel(r, html, title)
  local intro, rows, notes = M.parts(r)
  local out = {}
  for _, p in ipairs(intro) do out[#out + 1] = "<p>" .. html.esc(p) .. "</p>" end
  out[#out + 1] = html.str(html.table(M.HEADERS, rows))
  for _, n in ipairs(notes) do
    out[#out + 1] = "<p>" .. html.esc(n.head) .. "</p>"
    if n.items then
      local li = {}
      for _, it in ipairs(n.items) do li[#li + 1] = "<li>" .. html.esc(it) .. "</li>" end
      out[#out + 1] = "<ul>" .. table.concat(li) .. "</ul>"
    end
  end
  return { title = title or "Robustness", wide = true, html = html.raw(table.concat(out)) }
end

return M
