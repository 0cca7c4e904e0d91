-- TsuGO process metrics on hand-computed trees: every metric, CCER = infinity,
-- several accepted candidates, the empty tree, SCR above 1, the SearchE weight
-- variants, Pearson and Spearman with ties, TokenE.
local t = require "tabula.testing"
local json = require "tabula.json"
local trees = require "scenarios.tsugo.trees"
local tm = require "scenarios.tsugo.metrics"
local test, T = t.suite()

-- build(spec) -> validated tree; spec: list of { id, parent, "B:S17" | "win"/"lose"/"other" }
local function build(spec)
  local nodes = { { id = 0, type = "root", parent = json.null } }
  for _, s in ipairs(spec) do
    local side, pos = s[3]:match("^([BW]):(%w+)$")
    if side then nodes[#nodes + 1] = { id = s[1], parent = s[2], type = "move", side = side, move_pos = pos }
    else nodes[#nodes + 1] = { id = s[1], parent = s[2], type = "judgment", polarity = s[3] } end
  end
  return assert(trees.validate(nodes))
end

local S17 = { S17 = true }

test("every metric on a hand-computed tree (revisit, unclosed candidate)", function()
  -- R18 read, S17 (correct) read, Q18 read, back to R18, O18 left unclosed
  local tree = build({ { 1, 0, "B:R18" }, { 2, 1, "W:S17" }, { 3, 2, "lose" }, { 4, 0, "B:S17" }, { 5, 4, "win" },
    { 6, 0, "B:Q18" }, { 7, 6, "other" }, { 8, 1, "W:T18" }, { 9, 8, "lose" }, { 10, 0, "B:O18" } })
  local m = tm.tree_metrics(tree, S17, 1200)
  -- subtrees: R18 {1,2,3,8,9} = 5, S17 {4,5} = 2, Q18 {6,7} = 2, O18 {10, closing} = 2
  t.eq(m.ccer, 2, "CCER is the correct branch's rank among the candidates")
  t.near(m.swr, 9 / 11)
  t.eq(m.sfh, 0)
  t.eq(m.sbc, 4)
  t.near(m.scr, 1 / 4)
  t.eq(m.ssc, 4)          -- owners 1 1 1 4 4 6 6 1 1 10 10
  t.eq(m.tmd, 3)
  t.eq(m.tmf, 4)
  t.eq(m.tnc, 12)
  t.eq(m.itt, 1200)
  t.near(m.ipn, 100)
  t.near(m.searche, 100 * (0.5 * 2 / 11 + 0.2 * 0.75))
  t.near(m.searche_variants.balanced, 100 * (2 / 11 + 0.75) / 3)
  t.near(m.searche_variants["waste-heavy"], 100 * (0.6 * 2 / 11 + 0.2 * 0.75))
  t.near(m.searche_variants["first-hit-heavy"], 100 * (0.4 * 2 / 11 + 0.2 * 0.75))
  t.near(m.searche_variants["rank-heavy"], 100 * (0.4 * 2 / 11 + 0.4 * 0.75))
  t.eq(m.searche_variants.main, m.searche)
  -- the secondary node-count reading: four nodes come before S17's branch
  t.eq(m.ccer_nodes, 4)
  t.near(m.scr_nodes, 3 / 4)
  t.near(m.searche_nodes, 100 * (0.5 * 2 / 11 + 0.2 * 0.25))
end)

test("CCER is infinite when the correct move is never expanded", function()
  local m = tm.tree_metrics(build({ { 1, 0, "B:R18" }, { 2, 1, "lose" } }), S17, nil)
  t.eq(m.ccer, math.huge)
  t.eq({ m.swr, m.sfh, m.scr, m.ssc, m.sbc, m.tmd, m.tmf, m.tnc }, { 1, 0, 1, 0, 1, 2, 1, 3 })
  t.eq(m.searche, 0)
  t.eq({ m.ccer_nodes, m.scr_nodes, m.searche_nodes }, { math.huge, 1, 0 })
  t.eq(m.ipn, nil, "no tokens, no IPN")
  local rec = tm.for_record(m)
  t.eq({ rec.ccer, rec.ccer_infinite, rec.ccer_nodes_infinite }, { json.null, true, true })
end)

test("first hit: SFH 1, SCR 0", function()
  local m = tm.tree_metrics(build({ { 1, 0, "B:S17" }, { 2, 1, "W:R18" }, { 3, 2, "win" }, { 4, 0, "B:R18" }, { 5, 4, "lose" } }), S17)
  t.eq({ m.ccer, m.sfh, m.scr, m.ssc }, { 1, 1, 0, 1 })
  t.near(m.swr, 0.4)
  t.near(m.searche, 80)
end)

test("a deep wrong branch first: SCR stays in [0, 1] by rank; only the named node-count variant passes 1", function()
  local m = tm.tree_metrics(build({ { 1, 0, "B:R18" }, { 2, 1, "W:S17" }, { 3, 2, "B:T18" }, { 4, 3, "lose" },
    { 5, 0, "B:S17" }, { 6, 5, "win" } }), S17)
  t.eq({ m.ccer, m.sbc }, { 2, 2 })
  t.near(m.scr, 0.5)
  t.near(m.searche, 100 * (0.5 * 2 / 6 + 0.2 * 0.5))
  t.eq(m.ccer_nodes, 5)
  t.near(m.scr_nodes, 2)
  t.ok(m.searche_nodes < 0)
end)

test("the paper's worked numbers: Table 12 means give Table 3's SearchE 39.9", function()
  t.near(tm.searche(0.668, 0.316, 0.307), 39.94, 1e-9)
end)

test("SCR by rank over many hand-built trees: always in [0, 1], SearchE in [0, 100]", function()
  -- K candidates, the correct one at rank r with a long wrong chain before it
  for K = 1, 5 do
    for r = 1, K do
      local spec, id = {}, 1
      for k = 1, K do
        local pos = k == r and "S17" or ("A" .. k)
        local cand = id
        spec[#spec + 1] = { id, 0, "B:" .. pos }; id = id + 1
        local parent = cand
        for d = 1, (k == r and 1 or 6) do
          spec[#spec + 1] = { id, parent, (d % 2 == 1 and "W:" or "B:") .. "T" .. d }; parent = id; id = id + 1
        end
        spec[#spec + 1] = { id, parent, "lose" }; id = id + 1
      end
      local m = tm.tree_metrics(build(spec), S17)
      t.eq(m.ccer, r)
      t.near(m.scr, (r - 1) / K)
      t.eq(m.sfh, r == 1 and 1 or 0)
      t.ok(m.searche >= 0 and m.searche <= 100, "SearchE in range")
    end
  end
end)

test("several accepted first moves are all correct candidates", function()
  local m = tm.tree_metrics(build({ { 1, 0, "B:N14" }, { 2, 1, "win" }, { 3, 0, "B:P15" }, { 4, 3, "win" } }), { P15 = true, N14 = true })
  t.eq({ m.swr, m.ccer, m.sfh, m.scr }, { 0, 1, 1, 0 })
  t.near(m.searche, 100)
end)

test("the empty tree: no candidates, SWR and SearchE undefined", function()
  local m = tm.tree_metrics(build({}), S17, 50)
  t.eq({ m.ccer, m.sbc, m.tmd, m.tmf, m.tnc, m.ssc }, { math.huge, 0, 0, 0, 1, 0 })
  t.eq({ m.swr, m.sfh, m.scr }, { nil, nil, nil }, "no candidates: SWR, SFH and SCR undefined like SearchE")
  t.eq(m.searche, nil)
  t.near(m.ipn, 50)
end)

test("ranks average ties; Pearson and Spearman by hand", function()
  t.eq(tm.ranks({ 10, 20, 20, 40 }), { 1, 2.5, 2.5, 4 })
  t.eq(tm.ranks({ 0, 1, 0, 1 }), { 1.5, 3.5, 1.5, 3.5 })
  t.near(tm.pearson({ 10, 20, 20, 40 }, { 0, 1, 0, 1 }), 15 / math.sqrt(475))
  t.near(tm.spearman({ 10, 20, 20, 40 }, { 0, 1, 0, 1 }), 3 / math.sqrt(18))
  t.near(tm.spearman({ 1, 2, 3 }, { 30, 20, 10 }), -1)
  t.eq(tm.pearson({ 5, 5, 5 }, { 0, 1, 1 }), nil, "a constant series has no correlation")
  t.eq(tm.pearson({ 5 }, { 1 }), nil)
end)

test("from_record recomputes from the stored tree and the accepted answers", function()
  local tree = build({ { 1, 0, "B:R18" }, { 2, 1, "lose" }, { 3, 0, "B:S17" }, { 4, 3, "win" } })
  local rec = json.decode(json.encode({ tree = trees.to_schema(tree), accepted = { "S17" }, itt = 80,
    metrics = tm.for_record(tm.tree_metrics(tree, S17, 80)) }))
  local m = tm.from_record(rec)
  t.eq({ m.ccer_nodes, m.ccer, m.sbc, m.tnc }, { 3, 2, 2, 5 })
  t.near(m.ipn, 16)
  rec.tree = nil
  rec.metrics.ccer = 7
  t.eq(tm.from_record(rec).ccer, 7, "without a tree, the stored values")
end)

test("TokenE: group accuracy against mean visible tokens", function()
  t.near(tm.tokene(0.4, 2000), 100 * 40 / 42)
  t.eq(tm.tokene(0, 1500), 0)
  t.eq(tm.tokene(0, 0), nil)
  t.near(tm.tokene(1, 0), 100)
  t.eq(tm.tokene(nil, 100), nil, "undefined for non-LLM references")
end)

test("aggregate: means over trees, undefined SearchE counted, correlations per variant", function()
  local a = tm.tree_metrics(build({ { 1, 0, "B:S17" }, { 2, 1, "win" } }), S17, 100)        -- SearchE 100
  local b = tm.tree_metrics(build({ { 1, 0, "B:R18" }, { 2, 1, "lose" } }), S17, 300)       -- SearchE 0
  local c = tm.tree_metrics(build({}), S17, 10)                                               -- undefined
  local agg = tm.aggregate({ { correct = true, metrics = a }, { correct = false, metrics = b },
    { correct = false, metrics = c }, { correct = true } })
  t.eq({ agg.n, agg.with_tree, agg.searche_undefined, agg.ccer_infinite, agg.ccer_finite_mean }, { 4, 3, 1, 2, 1 })
  t.near(agg.mean.searche, 50)
  t.near(agg.mean.itt, 410 / 3)
  t.near(agg.mean.swr, 0.5)
  t.near(agg.mean.sfh, 0.5, nil, "SFH over the same two trees as SearchE")
  t.near(agg.mean.scr, 0.5, nil, "SCR over the same two trees as SearchE")
  t.eq(agg.variants[1].name, "main")
  t.eq(agg.variants[1].n, 2)
  t.near(agg.variants[1].pearson, 1)
  t.near(agg.variants[1].spearman, 1)
end)

test("accuracy intervals are Wilson per cell: 24 of 24 is not [100, 100]", function()
  local report = require "scenarios.tsugo.report"
  local recs = {}
  for i = 1, 24 do
    recs[i] = { kind = "model", status = "success", correct = true, problem_id = "p" .. i, modality = "symbolic",
      candidates = "4", transform = "identity", trial_index = 1, tier = "Easy" }
  end
  for i = 1, 10 do
    recs[#recs + 1] = { kind = "model", status = i <= 3 and "success" or "failure", correct = i <= 3, problem_id = "q" .. i,
      modality = "symbolic", candidates = "open", transform = "identity", trial_index = 1, tier = "Hard" }
  end
  local sm = report.compute(recs)
  local a = sm.by_setting["4"]
  t.eq(a.accuracy, 1)
  t.near(a.lo, 0.8617, 1e-3)
  t.near(a.hi, 1)
  local o = sm.by_setting.open
  t.near(o.lo, 0.1078, 1e-3)
  t.near(o.hi, 0.6032, 1e-3)
end)

return T
