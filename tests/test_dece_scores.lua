-- DECE scores against hand values and an independent fit: PWS with ties, Bradley–Terry
-- (penalised Newton fit, its stationarity, and the plain fit against minorization–
-- maximization), seat effects, Kendall τ_b and pair-order accuracy with ties, Pareto
-- frontier and staircase, quantiles, cost, the whole-match bootstrap and matched studies.
local t = require "tabula.testing"
local S = require "scenarios.dece.scores"
local test, T = t.suite()

test("dece scores: PWS with ties by hand", function()
  t.eq(S.pws({ 1, 2, 3 }), { 1, 0.5, 0 })
  t.eq(S.pws({ 1, 2, 2 }), { 1, 0.25, 0.25 })
  t.eq(S.pws({ 1, 1, 3 }), { 0.75, 0.75, 0 })
  t.eq(S.pws({ 2, 1 }), { 0, 1 })
  local p, c = S.pws_by({ { seats = { "a", "b", "c" }, ranks = { 1, 2, 3 } }, { seats = { "b", "c", "a" }, ranks = { 1, 1, 3 } } })
  t.eq(p, { a = 0.5, b = 0.625, c = 0.375 }); t.eq(c, { a = 2, b = 2, c = 2 })
end)

local function two_player(wins_a, wins_b)
  local ms = {}
  for _ = 1, wins_a do ms[#ms + 1] = { seats = { "A", "B" }, ranks = { 1, 2 } } end
  for _ = 1, wins_b do ms[#ms + 1] = { seats = { "A", "B" }, ranks = { 2, 1 } } end
  return ms
end

test("dece scores: Bradley-Terry by hand: 3 wins of 4 is a log-odds of ln 3 (190.8 Elo) without penalty", function()
  local elo, theta = S.elo_fit(two_player(3, 1), { "A", "B" }, { penalty = 0 })
  t.near(theta[1] - theta[2], math.log(3), 1e-9)
  t.near(theta[1] + theta[2], 0, 1e-12)
  t.near(elo.A - elo.B, 400 * math.log(3) / math.log(10), 1e-6)
  t.near(elo.A, 1500 + 200 * math.log(3) / math.log(10), 1e-6)
end)

test("dece scores: the penalised fit is the stationary point of loss + 0.02·Σθ²/2 and is centred", function()
  local _, theta = S.elo_fit(two_player(3, 1), { "A", "B" })
  local a = theta[1]
  t.near(theta[2], -a, 1e-12)
  local p = 1 / (1 + math.exp(-(2 * a)))
  t.near(4 * (p - 0.75) + 0.02 * a, 0, 1e-9, "gradient for A")
  t.ok(2 * a < math.log(3), "the penalty shrinks the gap")
  -- a participant that always wins still gets a finite rating with the penalty
  local _, th2 = S.elo_fit(two_player(4, 0), { "A", "B" })
  t.ok(th2[1] > 2 and th2[1] < 20, "finite")
end)

-- independent fit: Hunter's MM iterations for Bradley–Terry with weighted, half-credit ties
local function mm(matches, names)
  local idx, k = {}, #names
  for i, n in ipairs(names) do idx[n] = i end
  local W, N = {}, {}
  for i = 1, k do W[i] = 0; N[i] = {}; for j = 1, k do N[i][j] = 0 end end
  for _, m in ipairs(matches) do
    local n = #m.ranks
    for a = 1, n - 1 do for b = a + 1, n do
      local i, j, w = idx[m.seats[a]], idx[m.seats[b]], 1 / (n - 1)
      local y = m.ranks[a] < m.ranks[b] and 1 or (m.ranks[a] == m.ranks[b] and 0.5 or 0)
      W[i] = W[i] + w * y; W[j] = W[j] + w * (1 - y)
      N[i][j] = N[i][j] + w; N[j][i] = N[j][i] + w
    end end
  end
  local g = {}
  for i = 1, k do g[i] = 1 end
  for _ = 1, 5000 do
    local new = {}
    for i = 1, k do
      local d = 0
      for j = 1, k do if j ~= i and N[i][j] > 0 then d = d + N[i][j] / (g[i] + g[j]) end end
      new[i] = W[i] / d
    end
    g = new
  end
  local th, mean = {}, 0
  for i = 1, k do th[i] = math.log(g[i]); mean = mean + th[i] / k end
  for i = 1, k do th[i] = th[i] - mean end
  return th
end

test("dece scores: Bradley-Terry Newton fit (no penalty) equals an independent MM fit on 3-player matches with ties", function()
  local names = { "p", "q", "r", "s" }
  local ms = {}
  local rand = require("games.kit").generator(17)
  local strength = { p = 1.0, q = 0.4, r = 0, s = -0.6 }
  for i = 1, 40 do
    local seats = {}
    local pool = { "p", "q", "r", "s" }
    for j = 1, 3 do seats[j] = table.remove(pool, rand(#pool)) end
    local score = {}
    for j = 1, 3 do score[j] = math.floor((strength[seats[j]] + rand(100) / 40) * 2) end
    local ranks = require("games.kit").ranks(score)
    ms[i] = { seats = seats, ranks = ranks }
  end
  local _, newton = S.elo_fit(ms, names, { penalty = 0 })
  local ref = mm(ms, names)
  for i = 1, 4 do t.near(newton[i], ref[i], 1e-6, names[i]) end
  local _, pen = S.elo_fit(ms, names)
  t.ok(math.abs(pen[1]) < math.abs(newton[1]), "the penalty shrinks towards 0")
end)

test("dece scores: seat effects: seat 1 always ahead among rotating equals", function()
  local ms = {}
  local names = { "a", "b", "c" }
  for r = 0, 5 do
    local seats = { names[r % 3 + 1], names[(r + 1) % 3 + 1], names[(r + 2) % 3 + 1] }
    ms[#ms + 1] = { seats = seats, ranks = { 1, 2, 3 } }
  end
  local eff = S.seat_effects(ms, names)
  t.ok(eff[1] > 100 and eff[3] < -100, "first seat ahead, last behind")
  t.near(eff[1] + eff[2] + eff[3], 0, 1e-9)
  local elo = S.elo_fit(ms, names)
  t.near(elo.a, 1500, 1e-6, "rotating seats: equal participants")
end)

test("dece scores: Kendall tau-b and pair-order accuracy with ties by hand", function()
  t.near(S.kendall_tau_b({ 1, 2, 3, 4 }, { 1, 3, 2, 4 }), 4 / 6, 1e-12)
  t.near(S.kendall_tau_b({ 1, 2, 2, 3 }, { 1, 2, 3, 3 }), 0.8, 1e-12)
  t.near(S.kendall_tau_b({ 1, 2, 3 }, { 3, 2, 1 }), -1, 1e-12)
  t.eq(S.kendall_tau_b({ 1, 1 }, { 1, 2 }), nil)
  t.near(S.pair_order_accuracy({ 3, 2, 2, 1 }, { 4, 3, 1, 1 }), 0.9, 1e-12)
  local r = S.loeo({ g1 = { a = 0.9, b = 0.5, c = 0.1 }, g2 = { a = 0.8, b = 0.2, c = 0.4 }, g3 = { a = 0.7, b = 0.6, c = 0.2 } }, { "a", "b", "c" })
  -- hold out g2: training means a .8, b .55, c .15 against a .8, b .2, c .4 -> 2 concordant, 1 discordant
  t.near(r.g2.tau, 1 / 3, 1e-12)
  t.near(r.g2.accuracy, 2 / 3, 1e-12)
  t.near(r.g1.tau, 1, 1e-12)
end)

test("dece scores: Pareto frontier and staircase on a hand set", function()
  local pts = { { name = "A", elo = 1600, cost = 2 }, { name = "B", elo = 1550, cost = 1 }, { name = "C", elo = 1500, cost = 1.5 },
                { name = "D", elo = 1600, cost = 3 }, { name = "E", elo = 1400, cost = 0 } }
  t.eq(S.frontier(pts), { "A", "B", "E" })
  local st = S.staircase(pts)
  t.eq(#st, 3)
  t.eq({ st[1].cost, st[1].elo, st[2].cost, st[2].elo, st[3].cost, st[3].elo }, { 0, 1400, 1, 1550, 2, 1600 })
  t.eq(S.value_at(st, 0.5), 1400); t.eq(S.value_at(st, 2.5), 1600); t.eq(S.value_at(st, -1), nil)
  t.eq(S.frontier({ { name = "x", elo = 1, cost = 1 }, { name = "y", elo = 1, cost = 1 } }), { "x", "y" }, "equal points dominate neither")
end)

-- x and y have the same results against the same opponents in other seats, so their Elo is
-- equal but for floating-point noise; at equal cost both are nondominated
test("dece scores: frontier ties: equal Elo up to 1e-9 leaves both configurations on the frontier", function()
  local kit = require "games.kit"
  local rand, noisy = kit.generator(3), 0
  for _ = 1, 200 do
    local ms = {}
    for _ = 1, 12 do
      local r = kit.shuffle({ 1, 2, 3 }, rand)
      local o = ({ "a", "b", "c" })[rand(3)]
      local o2 = o == "a" and "b" or "a"
      ms[#ms + 1] = { seats = { "x", o, o2 }, ranks = { r[1], r[2], r[3] } }
      ms[#ms + 1] = { seats = { o2, "y", o }, ranks = { r[3], r[1], r[2] } }
    end
    local e = S.elo_fit(ms, { "a", "b", "x", "y", "c" })
    t.near(e.x, e.y, 1e-9)
    if e.x ~= e.y then noisy = noisy + 1 end
    local on = S.frontier({ { name = "x", elo = e.x, cost = 1 }, { name = "y", elo = e.y, cost = 1 }, { name = "a", elo = e.a, cost = 2 } })
    t.ok(on[1] == "x" and on[2] == "y" or on[2] == "x" and on[3] == "y", "x and y both on the frontier: " .. table.concat(on, ","))
  end
  t.ok(noisy > 0, "some fits differ by rounding")
  t.eq(S.frontier({ { name = "x", elo = 1500, cost = 1 }, { name = "y", elo = 1500 + 1e-6, cost = 1 } }), { "y" }, "a real difference still dominates")
end)

test("dece scores: quantiles (linear interpolation), cost from a price table", function()
  t.near(S.quantile({ 1, 2, 3, 4 }, 0.5), 2.5, 1e-12)
  t.near(S.quantile({ 1, 2, 3, 4 }, 0.25), 1.75, 1e-12)
  t.near(S.quantile({ 7 }, 0.9), 7, 1e-12)
  t.near(S.cost({ input = 1000, cached = 400, output = 200 }, { input = 2, cached = 0.5, output = 8 }), 0.003, 1e-15)
  t.eq(S.cost({ input = 10 }, nil), 0)
end)

test("dece scores: whole-match bootstrap: deterministic, redraws samples missing a participant, intervals bracket", function()
  local ms = {}
  for i = 1, 6 do ms[#ms + 1] = { game = "g1", seats = { "a", "b" }, ranks = { i <= 4 and 1 or 2, i <= 4 and 2 or 1 } } end
  ms[#ms + 1] = { game = "g1", seats = { "a", "c" }, ranks = { 2, 1 } }     -- c appears once only
  for i = 1, 4 do ms[#ms + 1] = { game = "g2", seats = { "b", "a", "c" }, ranks = { 1, i % 2 + 2, (i + 1) % 2 + 2 } } end
  local names = { "a", "b", "c" }
  local b1 = S.bootstrap(ms, names, { draws = 300, seed = 5 })
  local b2 = S.bootstrap(ms, names, { draws = 300, seed = 5 })
  t.eq(b1.games.g1.elo.a, b2.games.g1.elo.a, "same seed, same draws")
  t.eq(#b1.games.g1.pws.c, 300, "c is in every draw of g1 (draws without it are redrawn)")
  for _, v in ipairs(b1.games.g1.pws.c) do t.eq(v, 1) end
  local p = S.pws_by({ table.unpack(ms, 8, 11) })
  local lo, hi = S.interval(b1.games.g2.pws.b)
  t.ok(lo <= p.b and p.b <= hi)
  t.eq(#b1.overall.a, 300)
  t.ok(b1.overall.a[1] ~= nil)
end)

-- a matched record: scenario sc of game g, the focal configuration `who` at rank `rank` in seat 2
local function focal_match(g, sc, who, rank)
  return { game = g, scenario = g .. "-" .. sc, focal_seat = 2, seats = { "x", who, "y" }, ranks = { rank == 1 and 2 or 1, rank, 3 } }
end

test("dece scores: matched study: delta of (3 - rank)/2 over scenarios with a cluster bootstrap", function()
  local ms = {}
  local function add(sc, who, rank) ms[#ms + 1] = focal_match("g", sc, who, rank) end
  -- scenario 1: A first, B second; scenario 2: A second, B third; scenario 3: both second
  add(1, "A", 1); add(1, "B", 2); add(2, "A", 2); add(2, "B", 3); add(3, "A", 2); add(3, "B", 2)
  local r = S.matched_study(ms, { "A", "B" }, { draws = 2000 }).pairs[1]
  t.near(r.value, (0.5 + 0.5 + 0) / 3, 1e-12)
  t.eq(r.scenarios, 3)
  t.ok(r.lo >= 0 - 1e-12 and r.hi <= 0.5 + 1e-12 and r.lo <= r.value and r.value <= r.hi)
end)

-- The paper (G.1-G.2): each game's Δ̂, games weighted equally, scenarios resampled within each
-- game; 95% pointwise intervals with the Bonferroni level as a sensitivity; the interaction Î
-- with its own interval. Game g1 has 2 scenarios where A beats B by a half, g2 four where they
-- tie: Δ̂ = (0.5 + 0)/2 = 0.25 in every draw (pooling the scenarios would give 1/6 and vary).
test("dece scores: matched study: each game's Δ̂, equal game weights, within-game resampling, Bonferroni, Î with an interval", function()
  local ms = {}
  local function add(g, sc, who, rank) ms[#ms + 1] = focal_match(g, sc, who, rank) end
  for sc = 1, 2 do add("g1", sc, "A", 1); add("g1", sc, "B", 2); add("g1", sc, "C", 2); add("g1", sc, "D", 2) end
  for sc = 1, 4 do
    add("g2", sc, "A", 2); add("g2", sc, "B", 2)
    add("g2", sc, "C", sc <= 2 and 1 or 3); add("g2", sc, "D", 2)     -- C − D: +0.5 twice, −0.5 twice
  end
  local study = S.matched_study(ms, { "A", "B", "C", "D" }, { draws = 3000 })
  t.eq(study.games, { "g1", "g2" })
  t.eq(study.family, 4, "two designed contrasts (A−B, C−D) in two games")
  t.near(study.level_adj, 1 - 0.05 / 4, 1e-12)
  local ab = study.pairs[1]
  t.eq({ ab.a, ab.b }, { "A", "B" })
  t.near(ab.value, 0.25, 1e-12)
  t.near(ab.games.g1.value, 0.5, 1e-12); t.near(ab.games.g2.value, 0, 1e-12)
  t.eq({ ab.games.g1.scenarios, ab.games.g2.scenarios }, { 2, 4 })
  t.near(ab.lo, 0.25, 1e-12); t.near(ab.hi, 0.25, 1e-12)
  local cd = study.pairs[#study.pairs]
  t.eq({ cd.a, cd.b }, { "C", "D" })
  t.near(cd.value, 0, 1e-12); t.near(cd.games.g2.value, 0, 1e-12)
  t.ok(cd.lo < 0 and cd.hi > 0, "C − D varies with the scenarios drawn")
  t.ok(cd.lo_adj <= cd.lo and cd.hi_adj >= cd.hi, "the Bonferroni interval is wider")
  t.ok(cd.games.g2.lo_adj <= cd.games.g2.lo)
  local i = study.interaction
  t.near(i.value, 0.25, 1e-12)
  t.near(i.games.g1.value, 0.5, 1e-12); t.near(i.games.g2.value, 0, 1e-12)
  t.ok(i.lo < i.value and i.value < i.hi, "Î has a bootstrap interval, not one draw")
  t.eq(S.matched_study(ms, { "A", "B", "C", "D" }, { draws = 3000 }).interaction.lo, i.lo, "same seed, same draws")
end)

test("dece scores: Spearman, split-half reliability and the group contrast by hand", function()
  t.near(S.spearman({ 1, 2, 3, 4 }, { 10, 20, 40, 30 }), 0.8, 1e-12)
  t.near(S.spearman({ 1, 2, 2, 3 }, { 1, 2, 2, 3 }), 1, 1e-12)
  local ms = {}
  for i = 1, 12 do
    local seats = ({ { "a", "b", "c" }, { "b", "c", "a" }, { "c", "a", "b" } })[i % 3 + 1]
    local rank = { a = 1, b = 2, c = 3 }
    ms[i] = { seats = seats, ranks = { rank[seats[1]], rank[seats[2]], rank[seats[3]] } }
  end
  local sh = S.split_half(ms, { "a", "b", "c" }, { splits = 50 })
  t.near(sh.mean, 1, 1e-12); t.near(sh.p05, 1, 1e-12); t.near(sh.p95, 1, 1e-12); t.eq(sh.splits, 50)
  local g = S.gamma({ azul = { A = 0.6, B = 0.4 }, splendor = { A = 0.3, B = 0.5 }, x = { A = 0.5, B = 0.5 } }, "A", "B",
    { azul = { spatial = 2, hidden = 0 }, splendor = { spatial = 0, hidden = 1 }, x = { spatial = 2, hidden = 1 } })
  t.near(g.gamma, 30, 1e-9); t.near(g.lo, 20, 1e-9); t.near(g.hi, 40, 1e-9)
end)

-- Split-half reliability as the paper: Kendall τ_b (not Spearman, not stepped up) over random
-- 24/24 splits conditioned on every configuration in both halves; 5th–95th percentiles.
test("dece scores: split-half reliability is the mean Kendall τ_b over random half splits, with its 5th-95th percentiles", function()
  local kit = require "games.kit"
  local rand = kit.generator(8)
  local names = { "a", "b", "c", "d", "e", "f" }
  local ms = {}
  for i = 1, 48 do
    local seats = kit.shuffle({ table.unpack(names) }, rand)
    seats = { seats[1], seats[2], seats[3] }
    local r = kit.shuffle({ 1, 2, 3 }, rand)
    ms[i] = { seats = seats, ranks = r }
  end
  local sh = S.split_half(ms, names, { splits = 300, seed = 3 })
  -- the same splits by hand: the generator, the shuffle and the redraw rule
  local rand2 = kit.generator(3)
  local taus, redrawn = {}, 0
  while #taus < 300 do
    local order = {}
    for i = 1, 48 do order[i] = i end
    kit.shuffle(order, rand2)
    local a, b = {}, {}
    for i = 1, 48 do table.insert(i <= 24 and a or b, ms[order[i]]) end
    local pa, pb = S.pws_by(a), S.pws_by(b)
    local ok = true
    for _, nme in ipairs(names) do if not pa[nme] or not pb[nme] then ok = false end end
    if ok then
      local x, y = {}, {}
      for k, nme in ipairs(names) do x[k], y[k] = pa[nme], pb[nme] end
      taus[#taus + 1] = S.kendall_tau_b(x, y)
    else redrawn = redrawn + 1 end
  end
  table.sort(taus)
  local mean = 0
  for _, v in ipairs(taus) do mean = mean + v / #taus end
  t.near(sh.mean, mean, 1e-12)
  t.near(sh.p05, S.quantile(taus, 0.05), 1e-12); t.near(sh.p95, S.quantile(taus, 0.95), 1e-12)
  t.eq({ sh.splits, sh.redrawn }, { 300, redrawn })
  t.ok(sh.p05 < sh.mean and sh.mean < sh.p95)
  -- a configuration in one match only can never be in both halves: refused, not skipped
  local few = { table.unpack(ms, 1, 10) }
  few[11] = { seats = { "a", "b", "z" }, ranks = { 1, 2, 3 } }
  local none, why = S.split_half(few, { "a", "b", "z" }, { splits = 5, redraws = 50 })
  t.eq(none, nil); t.contains(why, "both halves")
end)

-- Missing outputs of the report's statistics: the bootstrap counts its redrawn samples and
-- refuses a draw still incomplete at the limit; Γ gets a bootstrap interval
test("dece scores: the bootstrap counts redrawn samples and refuses an incomplete draw; Γ's bootstrap interval", function()
  local ms = {}
  for i = 1, 6 do ms[#ms + 1] = { game = "g1", seats = { "a", "b" }, ranks = { i <= 4 and 1 or 2, i <= 4 and 2 or 1 } } end
  ms[#ms + 1] = { game = "g1", seats = { "a", "c" }, ranks = { 2, 1 } }     -- c in one match of seven
  local b = S.bootstrap(ms, { "a", "b", "c" }, { draws = 200, seed = 5, extras = { one = function() return 1 end } })
  -- a draw holds c with probability 1 − (6/7)^7 ≈ 0.66: about half a redraw per draw
  t.ok(b.games.g1.redrawn > 40 and b.games.g1.redrawn < 200, "redrawn " .. b.games.g1.redrawn)
  t.eq(#b.games.g1.extras.one.c, 200)
  local none, why = S.bootstrap(ms, { "a", "b", "c" }, { draws = 200, seed = 5, redraws = 0 })
  t.eq(none, nil, "a draw without c is refused at the limit")
  t.contains(why, "g1: bootstrap draw")
  -- Γ over the draws of two games, one in each group
  local gm = {}
  for i = 1, 8 do
    gm[#gm + 1] = { game = "azul", seats = { "A", "B" }, ranks = { i <= 6 and 1 or 2, i <= 6 and 2 or 1 } }
    gm[#gm + 1] = { game = "splendor", seats = { "A", "B" }, ranks = { i <= 2 and 1 or 2, i <= 2 and 2 or 1 } }
  end
  local ann = { azul = { spatial = 2, hidden = 0 }, splendor = { spatial = 0, hidden = 1 } }
  local bg = S.bootstrap(gm, { "A", "B" }, { draws = 400, seed = 2 })
  local lo, hi = S.gamma_interval(bg, "A", "B", ann)
  local point = S.gamma({ azul = S.pws_by({ table.unpack(gm) }) }, "A", "B", ann)
  t.eq(point, nil, "Γ needs both groups")
  local per_game = {}
  for _, g in ipairs({ "azul", "splendor" }) do
    local sub = {}
    for _, m in ipairs(gm) do if m.game == g then sub[#sub + 1] = m end end
    per_game[g] = S.pws_by(sub)
  end
  local gamma = S.gamma(per_game, "A", "B", ann).gamma
  t.near(gamma, 100 * ((0.75 - 0.25) - (0.25 - 0.75)), 1e-9)
  t.ok(lo < gamma and gamma < hi, string.format("Γ %.1f in [%.1f, %.1f]", gamma, lo, hi))
end)

return T
