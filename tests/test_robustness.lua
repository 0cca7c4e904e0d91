-- The robustness appendix (issue 48, tabula.robustness): each statistic against an independent
-- computation written here (exact enumeration of the bootstrap distribution on 3–4 units or
-- clusters, every subset for drop-k, max-t rank sets by hand and from enumerated draws), the
-- same input giving byte-identical output, and the appendix in report.md and summary.json of
-- a DECE run, a ChessArena arena and a XiangqiBench run.
-- slow: a DECE run, a ChessArena arena and a XiangqiBench run each reported with the appendix (left out by make check)
local t = require "tabula.testing"
local R = require "tabula.robustness"
local metrics = require "tabula.metrics"
local json = require "tabula.json"
local fs = require "tabula.fs"
local test, T = t.suite()

-- one participant "a", a unit per value
local function value_units(values, clusters)
  local units = {}
  for i, v in ipairs(values) do units[i] = { id = "u" .. i, cluster = clusters and clusters[i], contrib = { a = { v, 1 } } } end
  return units
end

-- the exact bootstrap distribution of a ratio of sums: every tuple of groups equally likely;
-- groups are lists of {points, weight}. Returns atoms sorted with their probabilities.
local function exact_distribution(groups)
  local m, prob = #groups, {}
  local total = m ^ m
  local idx = {}
  for i = 1, m do idx[i] = 1 end
  while true do
    local p, w = 0, 0
    for i = 1, m do for _, x in ipairs(groups[idx[i]]) do p, w = p + x[1], w + x[2] end end
    local key = string.format("%.12f", p / w)
    prob[key] = (prob[key] or 0) + 1 / total
    local i = 1
    while i <= m and idx[i] == m do idx[i] = 1; i = i + 1 end
    if i > m then break end
    idx[i] = idx[i] + 1
  end
  local atoms = {}
  for k, p in pairs(prob) do atoms[#atoms + 1] = { v = tonumber(k), p = p } end
  table.sort(atoms, function(a, b) return a.v < b.v end)
  return atoms
end

-- the exact quantile (smallest atom with CDF ≥ q); the CDF must be clear of q by margin on both
-- sides of that atom, so a Monte Carlo percentile with many draws lands on it
local function exact_quantile(atoms, q)
  local c = 0
  for _, a in ipairs(atoms) do
    local before = c
    c = c + a.p
    if c >= q then
      t.ok(c - q > 0.004 and q - before > 0.004, string.format("the case is clear of atom edges at %.3f", q))
      return a.v
    end
  end
end

-- against_exact(draws, atoms): the percentile interval of "a" over the draws is the exact
-- distribution's quantiles, and every atom's frequency is within 4 standard errors of its probability
local function against_exact(draws, atoms)
  local lo, hi = R.interval(draws, "a")
  t.near(lo, exact_quantile(atoms, 0.025), 1e-9)
  t.near(hi, exact_quantile(atoms, 0.975), 1e-9)
  local freq = {}
  for _, d in ipairs(draws) do local k = string.format("%.12f", d.a); freq[k] = (freq[k] or 0) + 1 end
  for _, a in ipairs(atoms) do
    local f = (freq[string.format("%.12f", a.v)] or 0) / #draws
    t.ok(math.abs(f - a.p) <= 4 * math.sqrt(a.p * (1 - a.p) / #draws) + 1e-9, string.format("atom %.4f: %.4f vs exact %.4f", a.v, f, a.p))
  end
end

test("scores: per stratum points over weight, then the equal-weight mean over the strata a participant is in", function()
  local units = {
    { stratum = "g1", contrib = { a = { 1, 1 }, b = { 0, 1 } } },
    { stratum = "g1", contrib = { a = { 0.5, 1 }, b = { 0.5, 1 } } },
    { stratum = "g2", contrib = { a = { 0, 1 }, c = { 1, 1 } } },
  }
  local s = R.scores(units)
  t.near(s.a, (0.75 + 0) / 2, 1e-15); t.near(s.b, 0.25, 1e-15); t.near(s.c, 1, 1e-15)
  t.eq(R.ranking(s, { "a", "b", "c" }), { "c", "a", "b" })
end)

test("i.i.d. bootstrap on 4 units: the percentile interval equals the exact enumeration's quantiles; every atom's frequency within 4 standard errors", function()
  local values = { 0, 1, 3, 7 }
  local groups = {}
  for i, v in ipairs(values) do groups[i] = { { v, 1 } } end
  local atoms = exact_distribution(groups)     -- 256 equally likely resamples
  local draws = R.resample(value_units(values), "unit", 40000, 7)
  against_exact(draws, atoms)
end)

test("clustered bootstrap on 3 clusters of unequal size: interval and atoms equal the exact enumeration of whole-cluster resamples", function()
  local values = { 0, 1, 3, 7, 7, 2 }
  local clusters = { "x", "x", "y", "z", "z", "z" }
  local groups = { { { 0, 1 }, { 1, 1 } }, { { 3, 1 } }, { { 7, 1 }, { 7, 1 }, { 2, 1 } } }
  local atoms = exact_distribution(groups)      -- 27 equally likely cluster resamples
  local units = value_units(values, clusters)
  local draws = R.resample(units, "cluster", 40000, 11)
  against_exact(draws, atoms)
  -- units in pairs of identical values: clustering widens the interval (ratio > 1)
  local twin = value_units({ 0, 0, 1, 1, 3, 3, 7, 7 }, { 1, 1, 2, 2, 3, 3, 4, 4 })
  twin[1].contrib.b = { 0.5, 1 }
  for i = 2, #twin do twin[i].contrib.b = { 0.5, 1 } end
  local r = R.analyse({ units = twin, names = { "a", "b" }, draws = 4000 })
  local row = r.rows[1].name == "a" and r.rows[1] or r.rows[2]
  t.near(row.width_ratio, (row.cluster_hi - row.cluster_lo) / (row.iid_hi - row.iid_lo), 1e-12)
  t.ok(row.width_ratio > 1.2, "shared randomness widens the interval: " .. row.width_ratio)
end)

-- brute force: every subset of units removed, scores recomputed from scratch; the smallest
-- number that leaves a level with or behind one of others (a removal may not take a participant
-- out of a stratum it plays in)
local function brute_drop(units, names, a, others)
  local n, best = #units, nil
  local isname = {}
  for _, x in ipairs(names) do isname[x] = true end
  for mask = 0, (1 << n) - 1 do
    local k = 0
    for i = 1, n do if mask & (1 << (i - 1)) ~= 0 then k = k + 1 end end
    if not best or k < best then
      local sums, before, after = {}, {}, {}
      for i, u in ipairs(units) do
        for key, c in pairs(u.contrib) do
          if isname[key] then before[u.stratum .. key] = true end
          if mask & (1 << (i - 1)) == 0 then
            if isname[key] then after[u.stratum .. key] = true end
            sums[u.stratum] = sums[u.stratum] or {}
            local e = sums[u.stratum][key] or { 0, 0 }
            sums[u.stratum][key] = { e[1] + c[1], e[2] + c[2] }
          end
        end
      end
      local ok = true
      for key in pairs(before) do if not after[key] then ok = false end end
      if ok then
        local tot, cnt = {}, {}
        for _, st in pairs(sums) do
          for key, e in pairs(st) do tot[key] = (tot[key] or 0) + e[1] / e[2]; cnt[key] = (cnt[key] or 0) + 1 end
        end
        local sa = tot[a] / cnt[a]
        for _, b in ipairs(others) do
          if tot[b] / cnt[b] >= sa - 1e-12 then best = k; break end
        end
      end
    end
  end
  return best
end

-- a random two-player run of n games over two strata (results 1, ½, 0)
local function random_run(rand, n, players)
  local units = {}
  for i = 1, n do
    local a = players[rand(#players)]
    local b = players[rand(#players)]
    while b == a do b = players[rand(#players)] end
    local w = ({ 1, 0.5, 0, 1 })[rand(4)]
    units[i] = { id = "g" .. i, stratum = i % 2 == 0 and "s1" or "s2", contrib = { [a] = { w, 1 }, [b] = { 1 - w, 1 } } }
  end
  return units
end

test("drop-k: the exact search equals brute force over all subsets (first place and every adjacent pair, 30 random runs); the greedy bound is never below it and really changes the order", function()
  local rand = metrics.rng(48)
  local names = { "p", "q", "r" }
  local checked, changed = 0, 0
  for run = 1, 30 do
    local units = random_run(rand, 6 + run % 5, names)
    local scores = R.scores(units)
    local complete = true
    for _, x in ipairs(names) do if not scores[x] then complete = false end end
    if complete then
      local order = R.ranking(scores, names)
      local blocks = {}
      for i = 1, #units do blocks[i] = { i } end
      local cases = { { order[1], { order[2], order[3] } }, { order[1], { order[2] } }, { order[2], { order[3] } } }
      for _, c in ipairs(cases) do
        local want = brute_drop(units, names, c[1], c[2])
        local got = R.fragility(units, names, c[1], c[2], blocks)
        t.eq(got.k, want, "run " .. run)
        t.ok(got.exact)
        checked = checked + 1
        if want and want > 0 then
          changed = changed + 1
          local g = R.fragility(units, names, c[1], c[2], blocks, 0)   -- budget 0: only the greedy bound
          t.eq(g.exact, false)
          t.ok(g.k and g.k >= want, "greedy is an upper bound")
          local gone = {}
          for _, b in ipairs(g.removed) do gone[b] = true end
          local after = R.scores(units, function(i) return not gone[i] end)
          local flips = false
          for _, b in ipairs(c[2]) do if after[b] >= after[c[1]] - 1e-12 then flips = true end end
          t.ok(flips, "the greedy removal changes the order")
        end
      end
    end
  end
  t.ok(checked >= 60 and changed >= 20, string.format("enough cases: %d checked, %d changeable", checked, changed))
end)

test("drop-k by hand: A wins all four games, B beats C once and draws once: four removals bring B level with A, one puts C ahead of B", function()
  local function g(id, a, b, w) return { id = id, contrib = { [a] = { w, 1 }, [b] = { 1 - w, 1 } } } end
  local units = { g("1", "A", "B", 1), g("2", "A", "B", 1), g("3", "A", "B", 1), g("4", "B", "C", 1), g("5", "B", "C", 0.5),
                  g("6", "A", "C", 1) }
  -- A 4/4 = 1; B 1.5/5 = .3; C .5/3 ≈ .167
  local r = R.analyse({ units = units, names = { "A", "B", "C" }, draws = 200 })
  t.eq(r.ranking, { "A", "B", "C" })
  t.eq({ r.first.k, r.first.exact, r.first.removed }, { 4, true, { "1", "2", "3", "5" } },
    "without A's wins over B and the B–C draw, B is 1/1 like A (level counts as a change)")
  t.eq({ r.pairs[2].k, r.pairs[2].removed }, { 1, { "4" } }, "without game 4, B has 0.5/4 and C 0.5/2")
end)

-- a study of hundreds of matches: the greedy bound removed 143 matches and the report listed
-- every one on a line (the 480-match DECE overview); the text names ten and counts the rest
test("drop-k in the text: up to ten removed units are named, more are counted; the result keeps them all", function()
  local function g(id, a, b, w) return { id = id, contrib = { [a] = { w, 1 }, [b] = { 1 - w, 1 } } } end
  local units = { g("1", "A", "B", 1), g("2", "A", "B", 1), g("3", "A", "B", 1), g("4", "B", "C", 1), g("5", "B", "C", 0.5),
                  g("6", "A", "C", 1) }
  local r = R.analyse({ units = units, names = { "A", "B", "C" }, draws = 200 })
  local md = table.concat(R.markdown(r), "\n")
  t.contains(md, "first place (A): k = 4 (exact): 1, 2, 3, 5\n", "four removed: all named")
  local many = {}
  for i = 1, 25 do many[i] = "m" .. i end
  r.first.removed, r.first.k = many, 25
  md = table.concat(R.markdown(r), "\n")
  t.contains(md, "first place (A): k = 25 (exact): m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, … and 15 more (all in summary.json)\n")
  t.ok(not md:find("m11", 1, true), "the eleventh is not named")
  t.eq(#r.first.removed, 25, "the result (summary.json) keeps every removed unit")
end)

test("rank-confidence sets: max-t from enumerated draws equals a direct computation; by hand, a clear leader and two level participants", function()
  -- draws: the 27 equally likely cluster resamples of three participants' scores
  local clusters = { { a = 0.9, b = 0.4, c = 0.5 }, { a = 0.7, b = 0.6, c = 0.3 }, { a = 0.8, b = 0.5, c = 0.55 } }
  local draws = {}
  for i = 1, 3 do for j = 1, 3 do for k = 1, 3 do
    local d = {}
    for _, n in ipairs({ "a", "b", "c" }) do d[n] = (clusters[i][n] + clusters[j][n] + clusters[k][n]) / 3 end
    draws[#draws + 1] = d
  end end end
  local scores = { a = 0.8, b = 0.5, c = 0.45 }
  local rs = R.rank_sets(scores, draws, { "a", "b", "c" })
  -- direct: sd of each difference, the max statistic per draw, its 95% point (type 7)
  local prs = { { "a", "b" }, { "a", "c" }, { "b", "c" } }
  local sd = {}
  for k, p in ipairs(prs) do
    local xs, m = {}, 0
    for i, d in ipairs(draws) do xs[i] = d[p[1]] - d[p[2]]; m = m + xs[i] / #draws end
    local v = 0
    for _, x in ipairs(xs) do v = v + (x - m) ^ 2 end
    sd[k] = math.sqrt(v / (#draws - 1))
  end
  local Ts = {}
  for i, d in ipairs(draws) do
    local m = 0
    for k, p in ipairs(prs) do m = math.max(m, math.abs(d[p[1]] - d[p[2]] - (scores[p[1]] - scores[p[2]])) / sd[k]) end
    Ts[i] = m
  end
  table.sort(Ts)
  local h = (#Ts - 1) * 0.95 + 1
  local crit = Ts[math.floor(h)] + (h - math.floor(h)) * (Ts[math.floor(h) + 1] - Ts[math.floor(h)])
  t.near(rs.critical, crit, 1e-12)
  local resolved = {}
  for k, p in ipairs(prs) do
    if math.abs(scores[p[1]] - scores[p[2]]) / sd[k] > crit then resolved[#resolved + 1] = p[1] .. ">" .. p[2] end
  end
  local got = {}
  for _, p in ipairs(rs.resolved) do got[#got + 1] = p.above .. ">" .. p.below end
  t.eq(got, resolved)
  t.eq(got, { "a>b", "a>c" }, "a is clear of both; b and c are not told apart")
  t.eq(rs.sets, { a = { lo = 1, hi = 1 }, b = { lo = 2, hi = 3 }, c = { lo = 2, hi = 3 } })
end)

test("the appendix is deterministic: the same input gives byte-identical markdown and JSON; another seed gives other draws", function()
  local units = random_run(metrics.rng(5), 30, { "p", "q", "r", "s" })
  for i, u in ipairs(units) do u.cluster = "c" .. ((i + 1) // 2) end
  local a = R.analyse({ units = units, names = { "p", "q", "r", "s" }, draws = 500 })
  local b = R.analyse({ units = units, names = { "p", "q", "r", "s" }, draws = 500 })
  t.eq(json.canonical(a), json.canonical(b))
  t.eq(table.concat(R.markdown(a), "\n"), table.concat(R.markdown(b), "\n"))
  local c = R.analyse({ units = units, names = { "p", "q", "r", "s" }, draws = 500, seed = 1 })
  t.ok(json.canonical(a) ~= json.canonical(c))
  t.contains(table.concat(R.markdown(a), "\n"), "| participant | score | 95% i.i.d. | 95% clustered | width ratio | ranks (95%, max-t) |")
  -- in two processes (string hashing, and so the order of pairs(), differs between them): the
  -- same bytes, with many strata whose per-stratum scores are summed
  local code = [[
    local R, metrics = require "tabula.robustness", require "tabula.metrics"
    local rand, units = metrics.rng(9), {}
    for i = 1, 60 do
      local w = rand(7) / 7
      units[i] = { id = "u" .. i, cluster = "c" .. (i // 3), stratum = "game" .. (i % 12),
        contrib = { p = { w, 1 }, q = { 1 - w, 1 }, r = { rand(3) / 3, 1 } } }
    end
    local _ = io.write(require("tabula.json").canonical(R.analyse({ units = units, names = { "p", "q", "r" }, draws = 300 })))]]
  local one, two = select(2, t.tabula("-e", code)), select(2, t.tabula("-e", code))
  t.contains(one, '"ranking"')
  t.eq(one, two)
end)

test("null arm: the copies' difference, its interval equal to the exact enumeration of the paired resample, the gaps below the floor", function()
  -- three units, each scoring a, its copy b and a third participant c; b - a per unit: -0.25, 0.5, 0
  local units = {
    { id = "u1", contrib = { a = { 0.75, 1 }, b = { 0.5, 1 }, c = { 0.5, 1 } } },
    { id = "u2", contrib = { a = { 0.25, 1 }, b = { 0.75, 1 }, c = { 0.5, 1 } } },
    { id = "u3", contrib = { a = { 0.5, 1 }, b = { 0.5, 1 }, c = { 0.5, 1 } } },
  }
  local r = R.analyse({ units = units, names = { "a", "b", "c" }, draws = 20000, seed = 5, null_pairs = { { a = "a", b = "b" } } })
  local n = r.null[1]
  -- by hand: a = 0.5, b = 0.5833, c = 0.5; the floor |a - b| = 0.0833
  t.near(n.diff, 0.5 - 1.75 / 3, 1e-12)
  t.near(n.floor, 1.75 / 3 - 0.5, 1e-12)
  -- the ranking b, a, c (a and c level): the gaps b-a = 0.083 (not below the floor) and a-c = 0 (below it)
  t.eq(r.ranking, { "b", "a", "c" })
  t.eq(n.gaps_below, { "a > c" })
  -- the interval of a - b: the exact distribution of the mean of resampled unit differences (0.25, -0.5, 0)
  local atoms = exact_distribution({ { { 0.25, 1 } }, { { -0.5, 1 } }, { { 0, 1 } } })
  t.near(n.iid_lo, exact_quantile(atoms, 0.025), 1e-9)
  t.near(n.iid_hi, exact_quantile(atoms, 0.975), 1e-9)
  local md = table.concat(R.markdown(r), "\n")
  t.contains(md, "Noise floor (null arm): a and its copy b, the same configuration under other seeds, differ by -0.083")
  t.contains(md, "Adjacent gaps smaller than this floor: a > c.")
end)

test("DECE --null-arm: the copy NAME+null is another identity, plays other random streams, and the report shows the floor", function()
  local participants = require "scenarios.dece.participants"
  local list = participants.load(nil, nil, nil, { "heuristic" })
  t.eq(#list, 4)
  t.eq({ list[4].name, list[4].manifest.null_of, list[4].manifest.seed_salt }, { "heuristic+null", "heuristic", 1 })
  t.ok(list[4].id ~= list[2].id, "another identity")
  t.raises(function() participants.load(nil, nil, nil, { "nobody" }) end, "--null-arm nobody: no participant of that name")
  -- the same match with the heuristic or its copy in seat 1: other random streams, other play
  local match = require "scenarios.dece.match"
  local arena = require("tests.dece_arena").arena
  local function actions(name)
    local dir = t.tmpdir()
    local ents = { { name = "heuristic", player = "heuristic", epsilon = 0.5 }, { name = "random", player = "random" } }
    if name ~= "heuristic" then ents[3] = { name = name, player = "heuristic", epsilon = 0.5, null_of = "heuristic" } end
    local rec = match.play(arena(dir, ents, { "azul" }), { id = "m", game = "azul", seats = { name, "random", "random" }, setup_seed = 11 })
    local out = {}
    for _, e in ipairs(require("tabula.records").read(dir .. "/matches/m.jsonl")) do
      if e.k == "step" then out[#out + 1] = e.choices[1].action end
    end
    return table.concat(out, " "), rec
  end
  local a1 = actions("heuristic")
  local a2 = actions("heuristic")
  local b = actions("heuristic+null")
  t.eq(a1, a2, "the same seeds replay the same match")
  t.ok(a1 ~= b, "the copy draws other streams")
  -- a run's report with the floor
  local dir = t.tmpdir()
  local rc, out = t.tabula("run", "scenarios/dece", "--games", "azul", "--null-arm", "random", "--draws", "200", "--quiet", "--out", dir .. "/run")
  t.eq(rc, 0, out)
  t.contains(fs.read(dir .. "/run/report.md"), "Noise floor (null arm): random and its copy random+null")
  t.eq(json.read_file(dir .. "/run/summary.json").robustness.null[1].b, "random+null")
end)

test("ChessArena --null-arm: PLAYER#null is the same configuration under its own id; the appendix gives the copies' floor", function()
  local S = require "scenarios.chessarena"
  local p = S.parse_player("stockfish:depth=2#null")
  t.eq({ p.id, p.kind, p.how, p.n, p.tag }, { "stockfish:depth=2#null", "engine", "depth", 2, "null" })
  local q = S.parse_player("openai:gpt-5.5@blitz+legal#null")
  t.eq({ q.kind, q.model, q.mode, q.legal }, { "llm", "openai:gpt-5.5", "blitz", true })
  -- games by hand: r beats x twice, r#null beats x once and loses once; r and r#null draw
  local games = {
    { game_id = "g1", white = "r", black = "x", result = "1-0" }, { game_id = "g2", white = "x", black = "r", result = "0-1" },
    { game_id = "g3", white = "r#null", black = "x", result = "1-0" }, { game_id = "g4", white = "x", black = "r#null", result = "1-0" },
    { game_id = "g5", white = "r", black = "r#null", result = "1/2-1/2" } }
  local r = S.robustness(games, { "r", "r#null", "x" })
  -- scores: r 2.5/3, r#null 1.5/3: the floor 1/3
  t.eq({ r.null[1].a, r.null[1].b }, { "r", "r#null" })
  t.near(r.null[1].diff, 1 / 3, 1e-12)
  local dir = t.tmpdir()
  t.raises(function() S.player_ids({ arena = dir, players = { "random" }, ["null-arm"] = { "stockfish" } }) end,
    "--null-arm stockfish: not a player of this arena")
  local ids = S.player_ids({ arena = dir, players = { "random" }, ["null-arm"] = { "random" } })
  t.eq(ids, { "random", "random#null" })
end)

test("engine anchors: a pinned player's rating and RD never move; the others update against it as Glicko-1 says; the arena keeps its scale", function()
  local rating = require "tabula.rating"
  local tb = rating.table({ anchors = { sf = 1200 } })
  tb:add("x", "sf", "1-0")
  local sf, x = tb:get("sf"), tb:get("x")
  t.eq({ sf.r, sf.rd, sf.anchor }, { 1200, 50, true })
  -- by hand: x (1500, 350) beats an opponent at (1200, 50)
  local q = math.log(10) / 400
  local g = 1 / math.sqrt(1 + 3 * q ^ 2 * 50 ^ 2 / math.pi ^ 2)
  local e = 1 / (1 + 10 ^ (-g * (1500 - 1200) / 400))
  local d2 = 1 / (q ^ 2 * g ^ 2 * e * (1 - e))
  local denom = 1 / 350 ^ 2 + 1 / d2
  t.near(x.r, 1500 + q / denom * g * (1 - e), 1e-9)
  t.near(x.rd, math.sqrt(1 / denom), 1e-9)
  -- without the anchor the same game moves both
  local free = rating.table()
  free:add("x", "sf", "1-0")
  t.ok(free:get("sf").r < 1500)
  -- the arena keeps its anchors: a later run with another scale is refused; the report names it
  local S = require "scenarios.chessarena"
  local dir = t.tmpdir()
  t.eq(S.arena_anchors({ arena = dir, anchor = { "stockfish:depth=1=1200" } }), { ["stockfish:depth=1"] = 1200 })
  t.eq(S.arena_anchors({ arena = dir }), { ["stockfish:depth=1"] = 1200 })
  t.raises(function() S.arena_anchors({ arena = dir, anchor = { "stockfish:depth=1=1300" } }) end, "is anchored at")
  t.raises(function() S.anchors({ "stockfish" }) end, "want PLAYER=RATING")
  local rc, out = t.tabula("run", "scenarios/chessarena", "--arena", dir, "--players", "random,stockfish:depth=1", "--game-count", "2", "--all", "--quiet")
  t.eq(rc, 0, out)
  t.contains(out, "| stockfish:depth=1 | 1200 (anchor) | 50 |")
  t.contains(fs.read(dir .. "/leaderboard.md"), "Anchored scale: stockfish:depth=1 at 1200")
end)

test("DECE seat effects: the contextual Bradley–Terry seat term's bootstrap interval equals the exact enumeration of whole-match resamples", function()
  local scores = require "scenarios.dece.scores"
  -- three matches of three participants in rotated seats; seat 1 wins twice
  local ms = {
    { seats = { "a", "b", "c" }, ranks = { 1, 2, 3 } },
    { seats = { "b", "c", "a" }, ranks = { 1, 3, 2 } },
    { seats = { "c", "a", "b" }, ranks = { 2, 1, 3 } },
  }
  local names = { "a", "b", "c" }
  -- the exact distribution: every one of the 27 resamples equally likely, those that leave a
  -- participant out drawn again (so: conditioned on holding all three)
  local vals = {}
  for i = 1, 3 do for j = 1, 3 do for k = 1, 3 do
    local sample = { ms[i], ms[j], ms[k] }
    local seen, n = {}, 0
    for _, m in ipairs(sample) do for _, x in ipairs(m.seats) do if not seen[x] then seen[x] = true; n = n + 1 end end end
    if n == 3 then vals[#vals + 1] = scores.seat_effects(sample, names)[1] end
  end end end
  table.sort(vals)
  t.eq(#vals, 27, "every resample holds all three (each match has all three)")
  local function q(p) return vals[math.max(1, math.ceil(p * #vals - 1e-9))] end
  local draws = scores.seat_bootstrap(ms, names, 6000, 99)
  local lo, hi = scores.interval(draws[1])
  t.near(lo, q(0.025), 1e-6)
  t.near(hi, q(0.975), 1e-6)
  -- the point estimate favours seat 1 (it won twice of three)
  t.ok(scores.seat_effects(ms, names)[1] > 0)
end)

test("DECE --pin NAME=ELO: the anchor sits at ELO in the point estimate and in every draw; the gaps are those of the unpinned fit", function()
  local dir = t.tmpdir()
  local rc, out = t.tabula("run", "scenarios/dece", "--games", "azul", "--matches-per-game", "3", "--draws", "200", "--quiet", "--out", dir .. "/a")
  t.eq(rc, 0, out)
  rc, out = t.tabula("run", "scenarios/dece", "--games", "azul", "--matches-per-game", "3", "--draws", "200", "--pin", "random=1000",
    "--quiet", "--out", dir .. "/b")
  t.eq(rc, 0, out)
  local a = json.read_file(dir .. "/a/summary.json").games.azul.rows
  local b = json.read_file(dir .. "/b/summary.json").games.azul.rows
  t.near(b.random.elo, 1000, 1e-9)
  t.eq({ b.random.elo_lo, b.random.elo_hi }, { 1000, 1000 }, "pinned in every draw")
  for _, n in ipairs({ "heuristic", "ismcts" }) do t.near(b[n].elo - b.random.elo, a[n].elo - a.random.elo, 1e-9) end
  t.contains(fs.read(dir .. "/b/report.md"), "Elo scale anchored: random pinned at 1000 in every draw (--pin).")
  -- part of the run's identity: continuing with another pin is refused
  rc, out = t.tabula("run", "scenarios/dece", "--games", "azul", "--matches-per-game", "3", "--draws", "200", "--pin", "random=900",
    "--quiet", "--out", dir .. "/b")
  t.ok(rc ~= 0 and out:find("option --pin", 1, true), out)
  rc, out = t.tabula("run", "scenarios/dece", "--games", "azul", "--pin", "nobody=1000", "--quiet", "--out", dir .. "/c")
  t.contains(out, "--pin nobody=1000: nobody is not a participant of this run")
end)

test("ChessArena colour term: the contextual Bradley–Terry fit equals plain gradient ascent on the same objective; its interval the exact enumeration over pairs", function()
  local S = require "scenarios.chessarena"
  local games = {
    { white = "a", black = "b", result = "1-0" }, { white = "b", black = "a", result = "1/2-1/2" },
    { white = "a", black = "c", result = "1-0" }, { white = "c", black = "a", result = "0-1" },
    { white = "b", black = "c", result = "1-0" }, { white = "c", black = "b", result = "1-0" },
  }
  local names = { "a", "b", "c" }
  local h, elo = S.colour_bt(games, names)
  -- an independent fit: gradient ascent on Σ [y log σ(z) + (1−y) log σ(−z)] − 0.02·Σθ²/2 (θ: a, b, c, white)
  local th = { 0, 0, 0, 0 }
  local idx = { a = 1, b = 2, c = 3 }
  for _ = 1, 20000 do
    local g = { -0.02 * th[1], -0.02 * th[2], -0.02 * th[3], -0.02 * th[4] }
    for _, x in ipairs(games) do
      local y = ({ ["1-0"] = 1, ["0-1"] = 0, ["1/2-1/2"] = 0.5 })[x.result]
      local z = th[idx[x.white]] - th[idx[x.black]] + th[4]
      local r = y - 1 / (1 + math.exp(-z))
      g[idx[x.white]] = g[idx[x.white]] + r; g[idx[x.black]] = g[idx[x.black]] - r; g[4] = g[4] + r
    end
    for i = 1, 4 do th[i] = th[i] + 0.1 * g[i] end
  end
  local m = (th[1] + th[2] + th[3]) / 3
  t.near(h, 400 * th[4] / math.log(10), 1e-4)
  t.near(elo.a, 400 * (th[1] - m) / math.log(10), 1e-4)
  -- the interval: three colour-swapped pairs (a–b, a–c, b–c), each resample of 3 pairs equally likely
  local pairs3 = { { games[1], games[2] }, { games[3], games[4] }, { games[5], games[6] } }
  local vals = {}
  for i = 1, 3 do for j = 1, 3 do for k = 1, 3 do
    local sample = {}
    for _, p in ipairs({ pairs3[i], pairs3[j], pairs3[k] }) do for _, x in ipairs(p) do sample[#sample + 1] = x end end
    vals[#vals + 1] = (S.colour_bt(sample, names))
  end end end
  table.sort(vals)
  local saved = S.COLOUR_DRAWS
  S.COLOUR_DRAWS = 8000
  local e = S.colour_effect(games, names)
  S.COLOUR_DRAWS = saved
  t.near(e.value, h, 1e-12)
  t.near(e.lo, vals[math.ceil(0.025 * 27)], 1e-6)
  t.near(e.hi, vals[math.ceil(0.975 * 27)], 1e-6)
  local md = table.concat(require("tabula.robustness").markdown(S.robustness(games, names)), "\n")
  t.contains(md, "White's advantage (contextual Bradley–Terry colour term, Elo points): ")
end)

test("a stratum with a single cluster: no clustered intervals, rank sets on the i.i.d. draws, and the report says so", function()
  local units = random_run(metrics.rng(12), 16, { "p", "q", "r" })
  for i, u in ipairs(units) do u.cluster = u.stratum == "s1" and "one" or ("c" .. i // 4) end
  local r = R.analyse({ units = units, names = { "p", "q", "r" }, draws = 300 })
  t.eq(r.rank_draws, "i.i.d.")
  for _, row in ipairs(r.rows) do t.eq({ row.cluster_lo, row.cluster_hi }, {}); t.ok(row.iid_lo and row.rank_lo) end
  local iid = R.resample(units, "unit", 300, R.SEED)
  t.eq(r.critical, R.rank_sets(R.scores(units), iid, r.ranking).critical)
  local md = table.concat(R.markdown(r), "\n")
  t.contains(md, "no clustered intervals are given, and the rank sets use the i.i.d. draws")
  t.contains(md, "on the i.i.d. draws, critical value")
end)

test("ChessArena clusters: the n-th game of two players with each of them White form a colour-swapped pair", function()
  local S = require("tabula.cmd.run").lib.load(t.root() .. "/scenarios/chessarena.lua")
  local games = { { game_id = "g1", white = "A", black = "B", result = "1-0" }, { game_id = "g2", white = "B", black = "A", result = "1-0" },
    { game_id = "g3", white = "A", black = "B", result = "0-1" }, { game_id = "g4", white = "A", black = "C", result = "1/2-1/2" } }
  local r = S.robustness(games, { "A", "B", "C" })
  t.eq({ r.units, r.clusters }, { 4, 3 })
  t.near(r.covariates[1].value, 2.5 / 4, 1e-15, "White's points per game")
end)

test("a DECE run shows the appendix in report.md and summary.json; rewriting the report gives the same bytes", function()
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/parts.json", json.encode({ participants = { { name = "random", player = "random" },
    { name = "heuristic", player = "heuristic" }, { name = "random2", player = "random" } } }))
  t.eq(t.run_scenario("scenarios/dece.lua", { "--participants", dir .. "/parts.json", "--out", dir .. "/run",
    "--games", "azul", "--matches-per-game", "6", "--draws", "100", "--quiet" }), 0)
  local md = fs.read(dir .. "/run/report.md")
  t.contains(md, "## Robustness (overall PWS)")
  t.contains(md, "6 matches in 2 seat-rotation blocks")
  t.contains(md, "- first place (")
  t.contains(md, "First-seat PWS (seat effect; mean over games)")
  local sm = json.read_file(dir .. "/run/summary.json")
  t.eq({ sm.robustness.units, sm.robustness.clusters, #sm.robustness.rows }, { 6, 2, 3 })
  t.eq(sm.robustness.rows[1].score, sm.overall[sm.robustness.rows[1].name].pws, "the appendix scores the report's overall PWS")
  require("scenarios.dece.report").write(dir .. "/run")
  t.eq(fs.read(dir .. "/run/report.md"), md)
  -- report.html's overview has the same panel, after the overall table
  local html = require "tabula.view.html"
  t.contains(html.str(R.panel(sm.robustness, html, "Robustness (overall PWS)").html), "<th>95% clustered</th>")
  local page = fs.read(dir .. "/run/report.html")
  t.contains(page, "Robustness (overall PWS)")
  t.contains(page, "<th>95% clustered</th>")
end)

test("a ChessArena arena shows the appendix in leaderboard.md and summary.json", function()
  t.need_program("/usr/games/stockfish")
  local dir = t.tmpdir()
  t.eq(t.run_scenario("scenarios/chessarena.lua", { "--arena", dir .. "/arena", "--players", "random,stockfish:depth=1",
    "--game-count", "4", "--max-moves", "20", "--analysis-depth", "0", "--all", "--quiet" }), 0)
  local md = fs.read(dir .. "/arena/leaderboard.md")
  t.contains(md, "## Robustness (score share: points per game)")
  t.contains(md, "4 games in 2 colour-swapped pairs")
  t.contains(md, "White's points per game (colour effect)")
  local sm = json.read_file(dir .. "/arena/summary.json")
  t.eq({ sm.robustness.units, sm.robustness.clusters, #sm.robustness.rows }, { 4, 2, 2 })
  t.ok(sm.robustness.first and sm.robustness.first.leader, "first place and its fragility")
  local page = fs.read(dir .. "/arena/report.html")
  t.contains(page, "Robustness (score share: points per game, every player)")
  t.contains(page, "<th>95% clustered</th>")
end)

test("a XiangqiBench run shows the appendix in report.md and summary.json; cases are the clusters and drop-k removes cases", function()
  local report = require "scenarios.xiangqibench.report"
  -- two settings, four cases, two trials each
  local recs = {}
  local pat = { a = "SS SF FF SS", b = "SF FF FF SF" }
  for s, cells in pairs(pat) do
    local ci = 0
    for cell in cells:gmatch("%S+") do
      ci = ci + 1
      for ti = 1, 2 do
        local ok = cell:sub(ti, ti) == "S"
        recs[#recs + 1] = { trial_id = s .. ci .. ti, case_id = "c" .. ci, setting = s, trial_index = ti,
          status = ok and "success" or "failure", success = ok, reason = ok and "win_mate" or "loss_mate" }
      end
    end
  end
  table.sort(recs, function(x, y) return x.trial_id < y.trial_id end)
  local sm = report.compute(recs, { options = {} })
  local rb = sm.robustness
  t.eq({ rb.units, rb.clusters, rb.drop_unit }, { 16, 4, "cases" })
  t.eq(rb.ranking, { "a", "b" })
  -- brute force over the 16 subsets of cases: the fewest whose removal leaves b level or ahead
  local best
  for mask = 0, 15 do
    local k, p, w = 0, { a = 0, b = 0 }, { a = 0, b = 0 }
    for c = 1, 4 do if mask & (1 << (c - 1)) ~= 0 then k = k + 1 end end
    for _, r in ipairs(recs) do
      local c = tonumber(r.case_id:sub(2))
      if mask & (1 << (c - 1)) == 0 then p[r.setting] = p[r.setting] + (r.success and 1 or 0); w[r.setting] = w[r.setting] + 1 end
    end
    if w.a > 0 and w.b > 0 and p.b / w.b >= p.a / w.a and (not best or k < best) then best = k end
  end
  t.eq({ rb.first.k, rb.first.exact }, { best, true })
  t.eq(best, 3, "by hand: a 5/8, b 2/8; only c3 left, both 0/2")
  t.contains(report.markdown(sm), "## Robustness (success rate over all scored trials)")
  -- a whole run writes it too
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/cases.jsonl", json.canonical({ id = "mate1", fen = "3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1",
    first_winning_move = "b1b9", win_in_plies = 1 }) .. "\n")
  fs.write_atomic(dir .. "/replies.jsonl", json.canonical({ text = "```bash\nmove b1b9\n```" }) .. "\n")
  t.run_scenario("scenarios/xiangqibench.lua", { "--model", "replay:" .. dir .. "/replies.jsonl", "--cases", dir .. "/cases.jsonl",
    "--trials", "1", "--out", dir .. "/run", "--quiet" })
  t.contains(fs.read(dir .. "/run/report.md"), "## Robustness (success rate over all scored trials)")
  t.eq(json.read_file(dir .. "/run/summary.json").robustness.units, 1)
  t.contains(fs.read(dir .. "/run/report.html"), "Robustness (success rate over all scored trials)")
end)

test("the report.html panel shows the markdown's table and notes", function()
  local html = require "tabula.view.html"
  local units = random_run(metrics.rng(3), 12, { "p", "q", "r" })
  local r = R.analyse({ units = units, names = { "p", "q", "r" }, draws = 200 })
  local panel = R.panel(r, html, "Robustness (x)")
  local body = html.str(panel.html)
  t.eq(panel.title, "Robustness (x)")
  for _, line in ipairs(R.markdown(r)) do
    local row = line:match("^| (%w+) | ")
    if row and row ~= "participant" then t.contains(body, "<td>" .. row .. "</td>") end
    local item = line:match("^%- (.*)")
    if item then t.contains(body, "<li>" .. html.esc(item) .. "</li>") end
  end
  t.contains(body, html.esc(r.first.leader))
end)

return T
