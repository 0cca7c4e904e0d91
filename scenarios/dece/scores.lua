-- scenarios/dece/scores.lua — the DECE arena's scores (../shared/specs/dece.md "Scores"):
-- pairwise placement score (PWS), Bradley–Terry on the Elo scale (pair weight 1/(n−1),
-- ties half, penalty 0.02·Σθ²/2, Σθ = 0, Newton's method), with a seat term for the
-- first-seat advantage, whole-match bootstrap within each game, leave-one-game-out Kendall
-- τ_b and pair-order accuracy, split-half reliability, Spearman, the group contrast Γ,
-- Pareto frontiers with the staircase V(B), quantiles, matched-study contrasts.
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

-- solve(A, b) -> x for a small dense symmetric positive definite system (Gaussian elimination)
local function solve(A, b)
  local n = #b
  local m = {}
  for i = 1, n do m[i] = {}; for j = 1, n do m[i][j] = A[i][j] end; m[i][n + 1] = b[i] end
  for c = 1, n do
    local p = c
    for r = c + 1, n do if math.abs(m[r][c]) > math.abs(m[p][c]) then p = r end end
    m[c], m[p] = m[p], m[c]
    for r = c + 1, n do
      local f = m[r][c] / m[c][c]
      for j = c, n + 1 do m[r][j] = m[r][j] - f * m[c][j] end
    end
  end
  local x = {}
  for r = n, 1, -1 do
    local s = m[r][n + 1]
    for j = r + 1, n do s = s - m[r][j] * x[j] end
    x[r] = s / m[r][r]
  end
  return x
end
M.solve = solve

local function sigmoid(z) return 1 / (1 + math.exp(-z)) end

-- fit(k, comparisons, opts) -> θ (k values): minimise Σ w·[−y log σ(x·θ) − (1−y) log σ(−x·θ)]
-- + penalty·Σθ²/2 by Newton's method; a comparison is { x = {{item, ±1}, ...}, y, w }: the
-- linear predictor Σ ±θ_item (participant a minus participant b, plus seat terms), y = 1 if
-- a placed ahead, ½ tie, 0 behind; with opts.blocks the items are in blocks each centred
-- separately (participants; seats). penalty defaults
-- to 0.02; with penalty 0 the fit is the plain maximum likelihood (when it exists).
function M.fit(k, comps, opts)
  opts = opts or {}
  local lambda = opts.penalty or M.PENALTY
  local theta = {}
  for i = 1, k do theta[i] = 0 end
  for _ = 1, opts.iterations or 100 do
    local g, H = {}, {}
    for i = 1, k do g[i] = lambda * theta[i]; H[i] = {}; for j = 1, k do H[i][j] = 0 end; H[i][i] = lambda end
    for _, c in ipairs(comps) do
      local z = 0
      for _, t in ipairs(c.x) do z = z + t[2] * theta[t[1]] end
      local p = sigmoid(z)
      local r, h = c.w * (p - c.y), c.w * p * (1 - p)
      for _, t in ipairs(c.x) do
        g[t[1]] = g[t[1]] + r * t[2]
        for _, u in ipairs(c.x) do H[t[1]][u[1]] = H[t[1]][u[1]] + h * t[2] * u[2] end
      end
    end
    if lambda == 0 then   -- without the penalty the level is free: pin it with Σθ = 0
      for i = 1, k do for j = 1, k do H[i][j] = H[i][j] + 1 / k end end
    end
    local step = solve(H, g)
    local size = 0
    for i = 1, k do theta[i] = theta[i] - step[i]; size = math.max(size, math.abs(step[i])) end
    if size < 1e-12 then break end
  end
  -- centre (the penalised optimum is centred already; this removes rounding drift)
  for _, block in ipairs(opts.blocks or { { 1, k } }) do
    local s = 0
    for i = block[1], block[2] do s = s + theta[i] end
    for i = block[1], block[2] do theta[i] = theta[i] - s / (block[2] - block[1] + 1) end
  end
  return theta
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
-- (and of any opts.extra(sample, name) -> number, e.g. mean cost). Whole matches are drawn
-- with replacement within each game; a draw that leaves out a participant of that game is
-- drawn again; the same draw index is used for every game (so overall = mean over games).
function M.bootstrap(matches, names, opts)
  opts = opts or {}
  local draws = opts.draws or M.BOOTSTRAP_DRAWS
  local rand = kit.generator(opts.seed or M.BOOTSTRAP_SEED)
  local games, gnames = M.by_game(matches)
  local out = { games = {}, overall = {} }
  for _, g in ipairs(gnames) do
    local ms = games[g]
    local present = {}
    for _, m in ipairs(ms) do for _, nme in ipairs(m.seats) do present[nme] = true end end
    local here = {}
    for _, nme in ipairs(names) do if present[nme] then here[#here + 1] = nme end end
    local res = { pws = {}, elo = {}, extra = {} }
    for _, nme in ipairs(here) do res.pws[nme], res.elo[nme], res.extra[nme] = {}, {}, {} end
    for d = 1, draws do
      local sample
      for _ = 1, 1000 do
        sample = {}
        local seen, count = {}, 0
        for i = 1, #ms do
          local m = ms[rand(#ms)]
          sample[i] = m
          for _, nme in ipairs(m.seats) do if not seen[nme] then seen[nme] = true; count = count + 1 end end
        end
        if count == #here then break end
      end
      local p = M.pws_by(sample)
      local e = M.elo_fit(sample, here)
      for _, nme in ipairs(here) do
        res.pws[nme][d], res.elo[nme][d] = p[nme], e[nme]
        if opts.extra then res.extra[nme][d] = opts.extra(sample, nme) end
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

-- matched_delta(matches, A, B, opts) -> Δ̂ = mean over scenarios of Y_A − Y_B (Y = (n − rank)/(n − 1)
-- per focal appearance, (3 − rank)/2 with three players), and its scenario-cluster bootstrap
-- interval (opts.draws, default 100000, seed 20260917; opts.level, default 0.95)
function M.matched_delta(matches, A, B, opts)
  opts = opts or {}
  local sc, order = {}, {}
  for _, m in ipairs(matches) do
    if m.scenario and m.focal_seat then
      local key = m.scenario
      if not sc[key] then sc[key] = {}; order[#order + 1] = key end
      local n = #m.ranks
      local y = (n - m.ranks[m.focal_seat]) / (n - 1)
      local who = m.seats[m.focal_seat]
      sc[key][who] = sc[key][who] or {}
      table.insert(sc[key][who], y)
    end
  end
  local diffs = {}
  for _, key in ipairs(order) do
    local a, b = sc[key][A], sc[key][B]
    if a and b then
      local ma, mb = 0, 0
      for _, v in ipairs(a) do ma = ma + v / #a end
      for _, v in ipairs(b) do mb = mb + v / #b end
      diffs[#diffs + 1] = ma - mb
    end
  end
  if #diffs == 0 then return nil end
  local mean = 0
  for _, d in ipairs(diffs) do mean = mean + d / #diffs end
  local rand = kit.generator(opts.seed or 20260917)
  local draws, means = opts.draws or 100000, {}
  for d = 1, draws do
    local s = 0
    for _ = 1, #diffs do s = s + diffs[rand(#diffs)] end
    means[d] = s / #diffs
  end
  table.sort(means)
  local alpha = 1 - (opts.level or 0.95)
  return { delta = mean, lo = M.quantile(means, alpha / 2), hi = M.quantile(means, 1 - alpha / 2), scenarios = #diffs }
end

-- correlations: one implementation for every report (tabula.metrics)
M.pearson, M.spearman = metrics.pearson, metrics.spearman

-- split_half(matches, names, opts) -> mean over random half splits of a game's matches
-- (every participant in both halves; opts.splits, default 2000, seed) of the Spearman
-- correlation between the halves' PWS, and its Spearman–Brown step-up 2r/(1 + r)
function M.split_half(matches, names, opts)
  opts = opts or {}
  local rand = kit.generator(opts.seed or M.BOOTSTRAP_SEED)
  local n = #matches
  local half = n // 2
  local sum, count = 0, 0
  for _ = 1, opts.splits or 2000 do
    local a, b
    for _ = 1, 100 do
      local order = {}
      for i = 1, n do order[i] = i end
      kit.shuffle(order, rand)
      a, b = {}, {}
      for i = 1, n do if i <= half then a[#a + 1] = matches[order[i]] else b[#b + 1] = matches[order[i]] end end
      local pa, pb = M.pws_by(a), M.pws_by(b)
      local ok = true
      for _, nme in ipairs(names) do if pa[nme] == nil or pb[nme] == nil then ok = false end end
      if ok then
        local x, y = {}, {}
        for _, nme in ipairs(names) do x[#x + 1] = pa[nme]; y[#y + 1] = pb[nme] end
        local r = M.spearman(x, y)
        if r then sum = sum + r; count = count + 1 end
        break
      end
    end
  end
  if count == 0 then return nil end
  local r = sum / count
  return { r = r, stepped_up = 2 * r / (1 + r), splits = count }
end

-- gamma(per_game, A, B, games_meta) -> Γ = mean δ_g over the public-information spatial games
-- (spatial planning 2, hidden information 0) minus mean δ_g over the others, δ_g =
-- 100 (PWS_A,g − PWS_B,g); with the range of Γ over deleting one game at a time
function M.gamma(per_game, A, B, annotations)
  local function compute(skip)
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
  local g = compute(nil)
  if not g then return nil end
  local lo, hi = g, g
  for game in pairs(per_game) do
    local v = compute(game)
    if v then lo, hi = math.min(lo, v), math.max(hi, v) end
  end
  return { gamma = g, lo = lo, hi = hi }
end

return M
