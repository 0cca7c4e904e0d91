-- scenarios/dece/scores.lua — the DECE arena's scores (../shared/specs/dece.md "Scores"):
-- pairwise placement score (PWS), Bradley–Terry on the Elo scale (pair weight 1/(n−1),
-- ties half, penalty 0.02·Σθ²/2, Σθ = 0, Newton's method), with a seat term for the
-- first-seat advantage, whole-match bootstrap within each game, leave-one-game-out Kendall
-- τ_b and pair-order accuracy, split-half reliability (Kendall τ_b), Spearman, the group
-- contrast Γ with its bootstrap interval, Pareto frontiers with the staircase V(B),
-- quantiles, matched-study contrasts (per game, equal game weights, interaction Î).
--
-- A match here is { game = , ranks = {r1..rn}, seats = {participant per seat}, ... }.
local kit = require "games.kit"

local metrics = require "tabula.metrics"

local M = {}

M.PENALTY = 0.02
M.BOOTSTRAP_DRAWS = 5000
M.BOOTSTRAP_SEED = 20260924
local LN10 = math.log(10)

function M.elo(theta) return 1500 + 400 * theta / LN10 end

-- pws(ranks) -> per seat u = (1/(n−1)) Σ_{j≠i} [1(r_i < r_j) + ½·1(r_i = r_j)]
function M.pws(ranks)
  local n, u = #ranks, {}
  for i = 1, n do
    local s = 0
    for j = 1, n do
      if j ~= i then
        if ranks[i] < ranks[j] then s = s + 1 elseif ranks[i] == ranks[j] then s = s + 0.5 end
      end
    end
    u[i] = n > 1 and s / (n - 1) or 0.5
  end
  return u
end

-- solve, fit: Bradley–Terry by Newton's method (tabula.bt, shared with ChessArena's colour term)
local bt = require "tabula.bt"
M.solve = bt.solve
function M.fit(k, comps, opts)
  opts = opts or {}
  if opts.penalty == nil then
    local o = {}
    for kk, v in pairs(opts) do o[kk] = v end
    o.penalty = M.PENALTY
    opts = o
  end
  return bt.fit(k, comps, opts)
end

-- comparisons(matches, index, opts) -> the pair comparisons of matches (participant names
-- mapped by index[name]); pair weight 1/(n−1), or 1/(|N_g|·(n−1)) with opts.mixed where
-- |N_g| is the number of player counts in the set; opts.seats adds seat items after k.
function M.comparisons(matches, index, opts)
  opts = opts or {}
  local counts, ncounts = {}, 0
  for _, m in ipairs(matches) do if not counts[#m.ranks] then counts[#m.ranks] = true; ncounts = ncounts + 1 end end
  local k = opts.k or 0
  local comps = {}
  for _, m in ipairs(matches) do
    local n = #m.ranks
    local w = 1 / (n - 1)
    if opts.mixed then w = w / ncounts end
    for a = 1, n - 1 do
      for b = a + 1, n do
        local ia, ib = index[m.seats[a]], index[m.seats[b]]
        if ia and ib and ia ~= ib then
          local y = m.ranks[a] < m.ranks[b] and 1 or (m.ranks[a] == m.ranks[b] and 0.5 or 0)
          local x = { { ia, 1 }, { ib, -1 } }
          if opts.seats then x[3] = { k + a, 1 }; x[4] = { k + b, -1 } end
          comps[#comps + 1] = { x = x, y = y, w = w }
        end
      end
    end
  end
  return comps
end

-- elo_fit(matches, names [, opts]) -> { [name] = Elo }
function M.elo_fit(matches, names, opts)
  local index = {}
  for i, nme in ipairs(names) do index[nme] = i end
  local theta = M.fit(#names, M.comparisons(matches, index, opts), opts)
  local r = {}
  for i, nme in ipairs(names) do r[nme] = M.elo(theta[i]) end
  return r, theta
end

-- seat_effects(matches, names) -> per seat the Elo-scale offset (centred over seats), from
-- Bradley–Terry with a participant term and a seat term
function M.seat_effects(matches, names)
  local index, n = {}, 0
  for i, nme in ipairs(names) do index[nme] = i end
  for _, m in ipairs(matches) do n = math.max(n, #m.ranks) end
  local k = #names
  local comps = M.comparisons(matches, index, { seats = true, k = k })
  local theta = M.fit(k + n, comps, { blocks = { { 1, k }, { k + 1, k + n } } })
  local r = {}
  for s = 1, n do r[s] = 400 * theta[k + s] / LN10 end
  return r
end

-- seat_bootstrap(matches, names, draws, seed) -> per seat the list of its seat term over
-- whole-match bootstrap draws (a draw that leaves a participant out is drawn again, as
-- bootstrap() does; after 1000 tries the draw is skipped)
function M.seat_bootstrap(matches, names, draws, seed)
  local rand = kit.generator(seed)
  local out = {}
  for _ = 1, draws do
    for _ = 0, 1000 do
      local sample, seen, count = {}, {}, 0
      for i = 1, #matches do
        local m = matches[rand(#matches)]
        sample[i] = m
        for _, nme in ipairs(m.seats) do if not seen[nme] then seen[nme] = true; count = count + 1 end end
      end
      if count == #names then
        for s, v in ipairs(M.seat_effects(sample, names)) do out[s] = out[s] or {}; out[s][#out[s] + 1] = v end
        break
      end
    end
  end
  return out
end

-- pws_by(matches) -> { [name] = mean u over its appearances }, { [name] = appearances }
function M.pws_by(matches)
  local sum, cnt = {}, {}
  for _, m in ipairs(matches) do
    local u = M.pws(m.ranks)
    for s, nme in ipairs(m.seats) do
      sum[nme] = (sum[nme] or 0) + u[s]
      cnt[nme] = (cnt[nme] or 0) + 1
    end
  end
  local r = {}
  for nme, s in pairs(sum) do r[nme] = s / cnt[nme] end
  return r, cnt
end

-- by_game(matches) -> { [game] = {matches} }, sorted game names
function M.by_game(matches)
  local g, names = {}, {}
  for _, m in ipairs(matches) do
    if not g[m.game] then g[m.game] = {}; names[#names + 1] = m.game end
    table.insert(g[m.game], m)
  end
  table.sort(names)
  return g, names
end

-- quantile(sorted, p): linear interpolation between order statistics (type 7)
function M.quantile(xs, p)
  local n = #xs
  if n == 0 then return nil end
  local h = (n - 1) * p + 1
  local lo = math.floor(h)
  local hi = math.min(lo + 1, n)
  return xs[lo] + (h - lo) * (xs[hi] - xs[lo])
end

local function sorted(xs) local t = {}; for i, v in ipairs(xs) do t[i] = v end; table.sort(t); return t end
M.sorted = sorted

-- percentile interval (2.5%, 97.5%) of a list of draws
function M.interval(draws)
  local s = sorted(draws)
  return M.quantile(s, 0.025), M.quantile(s, 0.975)
end

-- bootstrap(matches, names, opts) -> per game and overall, per name: the draws of PWS and Elo
-- (and of each opts.extras[key](sample, name) -> number, e.g. mean cost and tokens, in
-- .extras[key][name]). Whole matches are drawn with replacement within each game; a draw that
-- leaves out a participant of that game is drawn again (counted in .games[g].redrawn), up to
-- opts.redraws (default 1000) times: a draw still incomplete then is refused (nil, message),
-- never used. The same draw index is used for every game (so overall = mean over games).
function M.bootstrap(matches, names, opts)
  opts = opts or {}
  local draws = opts.draws or M.BOOTSTRAP_DRAWS
  local limit = opts.redraws or 1000
  local rand = kit.generator(opts.seed or M.BOOTSTRAP_SEED)
  local games, gnames = M.by_game(matches)
  local out = { games = {}, overall = {} }
  for _, g in ipairs(gnames) do
    local ms = games[g]
    local present = {}
    for _, m in ipairs(ms) do for _, nme in ipairs(m.seats) do present[nme] = true end end
    local here = {}
    for _, nme in ipairs(names) do if present[nme] then here[#here + 1] = nme end end
    local res = { pws = {}, elo = {}, extras = {}, redrawn = 0 }
    for _, nme in ipairs(here) do res.pws[nme], res.elo[nme] = {}, {} end
    for key in pairs(opts.extras or {}) do
      res.extras[key] = {}
      for _, nme in ipairs(here) do res.extras[key][nme] = {} end
    end
    for d = 1, draws do
      local sample, complete
      for try = 0, limit do
        if try > 0 then res.redrawn = res.redrawn + 1 end
        sample = {}
        local seen, count = {}, 0
        for i = 1, #ms do
          local m = ms[rand(#ms)]
          sample[i] = m
          for _, nme in ipairs(m.seats) do if not seen[nme] then seen[nme] = true; count = count + 1 end end
        end
        if count == #here then complete = true; break end
      end
      if not complete then
        return nil, string.format("%s: bootstrap draw %d still leaves out a participant after %d redraws (too few matches for a whole-match bootstrap)", g, d, limit)
      end
      local p = M.pws_by(sample)
      local e = M.elo_fit(sample, here)
      for _, nme in ipairs(here) do
        res.pws[nme][d], res.elo[nme][d] = p[nme], e[nme]
        for key, f in pairs(opts.extras or {}) do res.extras[key][nme][d] = f(sample, nme) end
      end
    end
    out.games[g] = res
  end
  for _, nme in ipairs(names) do
    local o = {}
    for d = 1, draws do
      local s, c = 0, 0
      for _, g in ipairs(gnames) do
        local v = out.games[g].pws[nme] and out.games[g].pws[nme][d]
        if v then s = s + v; c = c + 1 end
      end
      o[d] = c > 0 and s / c or nil
    end
    out.overall[nme] = o
  end
  return out
end

-- kendall_tau_b(x, y) over paired lists (ties in either handled by τ_b)
function M.kendall_tau_b(x, y)
  local n = #x
  local con, dis, tx, ty = 0, 0, 0, 0
  for i = 1, n - 1 do
    for j = i + 1, n do
      local a, b = x[i] - x[j], y[i] - y[j]
      if a == 0 and b == 0 then -- tied in both: counts in neither
      elseif a == 0 then tx = tx + 1
      elseif b == 0 then ty = ty + 1
      elseif (a > 0) == (b > 0) then con = con + 1
      else dis = dis + 1 end
    end
  end
  local den = math.sqrt((con + dis + tx) * (con + dis + ty))
  if den == 0 then return nil end
  return (con - dis) / den
end

-- pair_order_accuracy(train, held) over paired lists: pairs tied in the held-out scores
-- are left out; a pair tied in the training scores gets half credit
function M.pair_order_accuracy(train, held)
  local credit, pairs = 0, 0
  for i = 1, #train - 1 do
    for j = i + 1, #train do
      local h = held[i] - held[j]
      if h ~= 0 then
        pairs = pairs + 1
        local t = train[i] - train[j]
        if t == 0 then credit = credit + 0.5 elseif (t > 0) == (h > 0) then credit = credit + 1 end
      end
    end
  end
  if pairs == 0 then return nil end
  return credit / pairs
end

-- loeo(per_game, names) -> per held-out game { tau, accuracy }: the mean PWS over the
-- other games against the held-out game's PWS (participants present in all of them)
function M.loeo(per_game, names)
  local gnames = {}
  for g in pairs(per_game) do gnames[#gnames + 1] = g end
  table.sort(gnames)
  local r = {}
  if #gnames < 2 then return r end
  for _, h in ipairs(gnames) do
    local train, held = {}, {}
    for _, nme in ipairs(names) do
      local s, c = 0, 0
      for _, g in ipairs(gnames) do
        if g ~= h and per_game[g][nme] then s = s + per_game[g][nme]; c = c + 1 end
      end
      if c > 0 and per_game[h][nme] then train[#train + 1] = s / c; held[#held + 1] = per_game[h][nme] end
    end
    r[h] = { tau = M.kendall_tau_b(train, held), accuracy = M.pair_order_accuracy(train, held), n = #train }
  end
  return r, gnames
end

-- frontier(points [, tol]) -> the names on the Pareto frontier of { name, elo, cost }: no
-- other point has Elo at least as high and cost at most as high with one strictly better.
-- Elo is compared with a tolerance (M.ELO_TOL, 1e-9): two fits that agree but for
-- floating-point noise are equal, so both are nondominated at equal cost.
M.ELO_TOL = 1e-9
function M.frontier(points, tol)
  tol = tol or M.ELO_TOL
  local on = {}
  for _, p in ipairs(points) do
    local dominated = false
    for _, q in ipairs(points) do
      if q ~= p and q.elo >= p.elo - tol and q.cost <= p.cost and (q.elo > p.elo + tol or q.cost < p.cost) then dominated = true end
    end
    if not dominated then on[#on + 1] = p.name end
  end
  table.sort(on)
  return on
end

-- staircase(points) -> steps { cost = B, elo = V(B) } where V(B) = max Elo among points
-- with cost ≤ B changes (ascending cost); V(B) for any B is the last step with cost ≤ B
function M.staircase(points)
  local ps = {}
  for i, p in ipairs(points) do ps[i] = p end
  table.sort(ps, function(a, b) if a.cost ~= b.cost then return a.cost < b.cost end return a.elo > b.elo end)
  local steps, best = {}, -math.huge
  for _, p in ipairs(ps) do
    if p.elo > best then
      best = p.elo
      if #steps > 0 and steps[#steps].cost == p.cost then steps[#steps].elo = best
      else steps[#steps + 1] = { cost = p.cost, elo = best, name = p.name } end
    end
  end
  return steps
end

function M.value_at(steps, budget)
  local v
  for _, s in ipairs(steps) do if s.cost <= budget then v = s.elo end end
  return v
end

-- cost(usage, prices) -> dollars: 10⁻⁶ (p_in (I − H) + p_cache H + p_out O), where I counts
-- cached input H and O counts reasoning (the host's one formula, tabula.models.cost)
function M.cost(usage, prices) return require("tabula.models").cost(prices, usage) end

-- matched_study(matches, focal, opts) -> the matched harness study (seed paper G.1–G.2):
-- Y = (n − rank)/(n − 1) per focal appearance ((3 − rank)/2 with three players); for each
-- pair A, B of focal configurations and each game g, Δ̂_g = mean over g's scenarios of
-- Y_A − Y_B, and Δ̂ = the mean of the Δ̂_g (games weighted equally; no scores pooled across
-- games). With four focal configurations (a 2×2 design: 1, 2 one model's two harnesses, 3, 4
-- the other's) the interaction Î = Δ̂(1, 2) − Δ̂(3, 4), per game and overall. Intervals: a
-- scenario-cluster bootstrap (opts.draws, default 100000, seed 20260917) that resamples the
-- scenarios within each game with every configuration's outcome kept together and averages
-- the game means; pointwise 95% percentile intervals (lo, hi) and, as the paper's stated
-- sensitivity, Bonferroni intervals (lo_adj, hi_adj) at 1 − 0.05/K for the family of K
-- per-game designed contrasts (the 2×2's two contrasts, else every pair, times the games).
M.MATCHED_DRAWS, M.MATCHED_SEED = 100000, 20260917
function M.matched_study(matches, focal, opts)
  opts = opts or {}
  local per_game, gnames = {}, {}
  for _, m in ipairs(matches) do
    if m.scenario and m.focal_seat then
      local g = m.game or "all"
      if not per_game[g] then per_game[g] = { list = {}, by = {} }; gnames[#gnames + 1] = g end
      local G = per_game[g]
      local sc = G.by[m.scenario]
      if not sc then sc = {}; G.by[m.scenario] = sc; G.list[#G.list + 1] = sc end
      local n = #m.ranks
      local who = m.seats[m.focal_seat]
      local e = sc[who] or { sum = 0, n = 0 }
      e.sum, e.n = e.sum + (n - m.ranks[m.focal_seat]) / (n - 1), e.n + 1
      sc[who] = e
    end
  end
  table.sort(gnames)
  if #gnames == 0 then return nil end
  local pairs_, designed = {}, {}
  for i = 1, #focal - 1 do for j = i + 1, #focal do pairs_[#pairs_ + 1] = { focal[i], focal[j] } end end
  if #focal == 4 then designed = { 1, #pairs_ } else for k = 1, #pairs_ do designed[k] = k end end   -- (1,2) and (3,4)
  -- diffs[g][k] = per scenario of game g, Y_A − Y_B of pair k (nil where one is missing)
  local diffs = {}
  for _, g in ipairs(gnames) do
    diffs[g] = {}
    for k, pr in ipairs(pairs_) do
      local d = {}
      for i, sc in ipairs(per_game[g].list) do
        local a, b = sc[pr[1]], sc[pr[2]]
        if a and b then d[i] = a.sum / a.n - b.sum / b.n end
      end
      diffs[g][k] = d
    end
  end
  local function estimate(pick)     -- pick[g] = scenario indices (nil: all of them)
    local game_delta, overall = {}, {}
    for k = 1, #pairs_ do
      local s, c = 0, 0
      game_delta[k] = {}
      for _, g in ipairs(gnames) do
        local d, gs, gc = diffs[g][k], 0, 0
        local idx = pick and pick[g]
        for i = 1, idx and #idx or #per_game[g].list do
          local v = d[idx and idx[i] or i]
          if v then gs = gs + v; gc = gc + 1 end
        end
        if gc > 0 then game_delta[k][g] = gs / gc; s = s + gs / gc; c = c + 1 end
      end
      overall[k] = c > 0 and s / c or nil
    end
    return game_delta, overall
  end
  local point_g, point = estimate(nil)
  local draws = opts.draws or M.MATCHED_DRAWS
  local rand = kit.generator(opts.seed or M.MATCHED_SEED)
  local boot_g, boot = {}, {}
  for k = 1, #pairs_ do boot[k] = {}; boot_g[k] = {}; for _, g in ipairs(gnames) do boot_g[k][g] = {} end end
  for d = 1, draws do
    local pick = {}
    for _, g in ipairs(gnames) do
      local ns, idx = #per_game[g].list, {}
      for i = 1, ns do idx[i] = rand(ns) end
      pick[g] = idx
    end
    local eg, eo = estimate(pick)
    for k = 1, #pairs_ do
      boot[k][d] = eo[k]
      for _, g in ipairs(gnames) do boot_g[k][g][d] = eg[k][g] end
    end
  end
  local family = #designed * #gnames
  local adj = 0.05 / family
  local function bounds(list)
    local xs = {}
    for d = 1, draws do if list[d] then xs[#xs + 1] = list[d] end end
    table.sort(xs)
    if #xs == 0 then return {} end
    return { lo = M.quantile(xs, 0.025), hi = M.quantile(xs, 0.975), lo_adj = M.quantile(xs, adj / 2), hi_adj = M.quantile(xs, 1 - adj / 2) }
  end
  local function contrast(value, games, list, glists, extra)
    local r = bounds(list)
    r.value, r.games = value, {}
    for _, g in ipairs(gnames) do
      if games[g] then
        local b = bounds(glists[g])
        b.value, b.scenarios = games[g], #per_game[g].list
        r.games[g] = b
      end
    end
    for k2, v in pairs(extra or {}) do r[k2] = v end
    return r
  end
  local out = { pairs = {}, games = gnames, draws = draws, seed = opts.seed or M.MATCHED_SEED,
                family = family, level_adj = 1 - adj }
  for k, pr in ipairs(pairs_) do
    local scen = 0
    for _, g in ipairs(gnames) do for i = 1, #per_game[g].list do if diffs[g][k][i] then scen = scen + 1 end end end
    if point[k] then
      out.pairs[#out.pairs + 1] = contrast(point[k], point_g[k], boot[k], boot_g[k], { a = pr[1], b = pr[2], scenarios = scen })
    end
  end
  if #focal == 4 and point[1] and point[#pairs_] then
    local k1, k2 = 1, #pairs_
    local function minus(x, y) return x and y and x - y or nil end
    local ig, il, igl = {}, {}, {}
    for _, g in ipairs(gnames) do
      ig[g] = minus(point_g[k1][g], point_g[k2][g])
      igl[g] = {}
      for d = 1, draws do igl[g][d] = minus(boot_g[k1][g][d], boot_g[k2][g][d]) end
    end
    for d = 1, draws do il[d] = minus(boot[k1][d], boot[k2][d]) end
    out.interaction = contrast(point[k1] - point[k2], ig, il, igl,
      { a = focal[1] .. "−" .. focal[2], b = focal[3] .. "−" .. focal[4] })
  end
  return out
end

-- correlations: one implementation for every report (tabula.metrics)
M.pearson, M.spearman = metrics.pearson, metrics.spearman

-- split_half(matches, names, opts) -> within-game split-half reliability as the seed paper
-- (D.3): opts.splits (default 2000) random splits of the matches into two halves (24/24 of
-- 48; the odd one out, if any, in the second), each conditioned on every configuration
-- appearing in both halves (a split that leaves one out is drawn again, up to opts.redraws
-- = 1000 times; then nil, message), and the Kendall τ_b between the halves' PWS:
-- { mean, p05, p95 (5th–95th percentiles over the splits), splits, redrawn }
function M.split_half(matches, names, opts)
  opts = opts or {}
  local rand = kit.generator(opts.seed or M.BOOTSTRAP_SEED)
  local n = #matches
  local half = n // 2
  local taus, redrawn = {}, 0
  for _ = 1, opts.splits or 2000 do
    local done = false
    for _ = 1, opts.redraws or 1000 do
      local order = {}
      for i = 1, n do order[i] = i end
      kit.shuffle(order, rand)
      local a, b = {}, {}
      for i = 1, n do if i <= half then a[#a + 1] = matches[order[i]] else b[#b + 1] = matches[order[i]] end end
      local pa, pb = M.pws_by(a), M.pws_by(b)
      local ok = true
      for _, nme in ipairs(names) do if pa[nme] == nil or pb[nme] == nil then ok = false end end
      if ok then
        local x, y = {}, {}
        for _, nme in ipairs(names) do x[#x + 1] = pa[nme]; y[#y + 1] = pb[nme] end
        taus[#taus + 1] = M.kendall_tau_b(x, y)    -- nil when a half ties everyone (left out)
        done = true
        break
      end
      redrawn = redrawn + 1
    end
    if not done then
      return nil, string.format("no split of %d matches puts every configuration in both halves (%d tries)", n, opts.redraws or 1000)
    end
  end
  local xs = {}
  for _, v in pairs(taus) do xs[#xs + 1] = v end
  if #xs == 0 then return nil, "every split ties all configurations in a half" end
  table.sort(xs)
  local sum = 0
  for _, v in ipairs(xs) do sum = sum + v end
  return { mean = sum / #xs, p05 = M.quantile(xs, 0.05), p95 = M.quantile(xs, 0.95), splits = #xs, redrawn = redrawn }
end

-- gamma(per_game, A, B, annotations) -> Γ = mean δ_g over the public-information spatial
-- games (spatial planning 2, hidden information 0) minus mean δ_g over the others, δ_g =
-- 100 (PWS_A,g − PWS_B,g); with the range of Γ over deleting one game at a time (lo, hi)
local function gamma_of(per_game, A, B, annotations, skip)
  local s1, c1, s2, c2 = 0, 0, 0, 0
  for g, p in pairs(per_game) do
    if g ~= skip and p[A] and p[B] and annotations[g] then
      local d = 100 * (p[A] - p[B])
      if annotations[g].spatial == 2 and annotations[g].hidden == 0 then s1 = s1 + d; c1 = c1 + 1 else s2 = s2 + d; c2 = c2 + 1 end
    end
  end
  if c1 == 0 or c2 == 0 then return nil end
  return s1 / c1 - s2 / c2
end

function M.gamma(per_game, A, B, annotations)
  local g = gamma_of(per_game, A, B, annotations)
  if not g then return nil end
  local lo, hi = g, g
  for game in pairs(per_game) do
    local v = gamma_of(per_game, A, B, annotations, game)
    if v then lo, hi = math.min(lo, v), math.max(hi, v) end
  end
  return { gamma = g, lo = lo, hi = hi }
end

-- gamma_interval(boot, A, B, annotations) -> the pointwise 95% percentile interval of Γ over
-- the whole-match bootstrap draws (the same draws as PWS and Elo; games and groups fixed)
function M.gamma_interval(boot, A, B, annotations)
  local xs, draws = {}, 0
  for _, res in pairs(boot.games) do if res.pws[A] then draws = math.max(draws, #res.pws[A]) end end
  for d = 1, draws do
    local per_game = {}
    for g, res in pairs(boot.games) do
      if res.pws[A] and res.pws[B] then per_game[g] = { [A] = res.pws[A][d], [B] = res.pws[B][d] } end
    end
    xs[#xs + 1] = gamma_of(per_game, A, B, annotations)
  end
  if #xs == 0 then return nil end
  return M.interval(xs)
end

return M
