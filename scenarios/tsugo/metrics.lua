-- scenarios/tsugo/metrics.lua — TsuGO's process metrics on a validated tree
-- (../shared/specs/tsugo.md, "Metrics"), the SearchE weight variants with their
-- correlations to accuracy, and the group-level TokenE.
--
-- owner(v) = the first-level candidate whose subtree holds v; c_1..c_K = the
-- candidates (first-level move children of the root) in order of appearance;
-- u_1..u_L = the non-root nodes in order of appearance (judgments included).
--   CCER = the rank r at which the correct first-move branch first appears:
--          the smallest k with c_k correct (math.huge when never expanded).
--          This is the paper's reading (Table 11, "rank at which the correct
--          first-move branch first appears"); its Table 3 SearchE follows from
--          its Table 12 means only with SCR on 0-100 (SWR 66.8, SFH 31.6,
--          SCR 30.7 -> 0.5*33.2 + 0.3*31.6 + 0.2*69.3 = 39.9).
--   SWR  = sum over wrong candidates of |subtree(c)| / sum over all candidates
--   SFH  = 1 if CCER = 1 else 0
--   SCR  = (CCER - 1) / SBC if CCER is finite, else 1 (so 0 <= SCR < 1, or 1)
--   SSC  = number of l >= 2 with owner(u_l) ~= owner(u_{l-1});  SBC = |C|
--   TMD  = maximum depth (root 0);  TMF = most children of any node;  TNC = |V|
--   ITT  = visible reasoning tokens;  IPN = ITT / |V|
--   SearchE = 100 (0.5 (1 - SWR) + 0.3 SFH + 0.2 (1 - SCR))
-- Choices where the spec is silent:
--  * "the correct candidate" is every first-level candidate whose point is an
--    accepted answer (the canonical move or a verified equivalent); with
--    several, the earliest;
--  * a tree without candidates has SWR undefined (0/0), so SWR, SFH, SCR and
--    SearchE are all undefined for it: it is counted, not averaged, so the
--    means of SWR, SFH, SCR and SearchE are over the same trees;
--  * a secondary, named node-count reading is kept beside them:
--    ccer_nodes = the smallest j with owner(u_j) correct, scr_nodes =
--    (ccer_nodes - 1) / SBC (it can pass 1), searche_nodes = SearchE with it.
--    It is never the headline.
-- SWR, SFH and SCR are returned as fractions; the report shows them on 0-100.
local json = require "tabula.json"
local trees = require "scenarios.tsugo.trees"

local metrics = require "tabula.metrics"

local M = {}

M.WEIGHTS = {
  { name = "main", w = { 0.5, 0.3, 0.2 } },
  { name = "balanced", w = { 1 / 3, 1 / 3, 1 / 3 } },
  { name = "waste-heavy", w = { 0.6, 0.2, 0.2 } },
  { name = "first-hit-heavy", w = { 0.4, 0.4, 0.2 } },
  { name = "rank-heavy", w = { 0.4, 0.2, 0.4 } },
}

-- searche(swr, sfh, scr [, w]) -> 100 (w1 (1 - swr) + w2 sfh + w3 (1 - scr)), or nil when swr is
function M.searche(swr, sfh, scr, w)
  if swr == nil then return nil end
  w = w or M.WEIGHTS[1].w
  return 100 * (w[1] * (1 - swr) + w[2] * sfh + w[3] * (1 - scr))
end

-- tree_metrics(tree, accepted, itt) -> the per-response metrics.
-- accepted: set of points { ["S17"] = true }; itt: visible reasoning tokens (or nil)
function M.tree_metrics(tree, accepted, itt)
  local nodes = tree.nodes
  local correct_owner = {}
  local cands = {}
  for _, id in ipairs(tree.children[tree.root.id]) do
    local c = nodes[id + 1]
    cands[#cands + 1] = c
    if c.pos and accepted[c.pos] then correct_owner[c.id] = true end
  end
  local size = {}
  for _, n in ipairs(nodes) do
    if n.owner then size[n.owner] = (size[n.owner] or 0) + 1 end
  end
  local total, wrong = 0, 0
  for _, c in ipairs(cands) do
    total = total + size[c.id]
    if not correct_owner[c.id] then wrong = wrong + size[c.id] end
  end
  local ccer_nodes, ssc = math.huge, 0
  local prev
  for j = 2, #nodes do                          -- nodes[1] is the root; u_{j-1} = nodes[j]
    local o = nodes[j].owner
    if ccer_nodes == math.huge and correct_owner[o] then ccer_nodes = j - 1 end
    if j > 2 and o ~= prev then ssc = ssc + 1 end
    prev = o
  end
  local ccer = math.huge
  for k, c in ipairs(cands) do
    if correct_owner[c.id] then ccer = k; break end
  end
  local sbc = #cands
  local swr = total > 0 and wrong / total or nil
  local sfh, scr, scr_nodes
  if swr ~= nil then
    sfh = ccer == 1 and 1 or 0
    scr = ccer < math.huge and (ccer - 1) / sbc or 1
    scr_nodes = ccer_nodes < math.huge and (ccer_nodes - 1) / sbc or 1
  end
  local tmd, tmf = 0, 0
  for _, n in ipairs(nodes) do
    if n.depth > tmd then tmd = n.depth end
    if #tree.children[n.id] > tmf then tmf = #tree.children[n.id] end
  end
  local m = { ccer = ccer, swr = swr, sfh = sfh, scr = scr, ssc = ssc, sbc = sbc,
    tmd = tmd, tmf = tmf, tnc = #nodes, itt = itt, ipn = itt and itt / #nodes or nil }
  m.searche = M.searche(swr, sfh, scr)
  m.ccer_nodes, m.scr_nodes = ccer_nodes, scr_nodes
  m.searche_nodes = M.searche(swr, sfh, scr_nodes)
  m.searche_variants = {}
  for _, v in ipairs(M.WEIGHTS) do m.searche_variants[v.name] = M.searche(swr, sfh, scr, v.w) end
  return m
end

-- for_record(m) -> m with the infinite CCERs written as JSON null plus a flag
function M.for_record(m)
  for _, k in ipairs({ "ccer", "ccer_nodes" }) do
    if m[k] == math.huge then m[k] = json.null; m[k .. "_infinite"] = true end
  end
  return m
end

-- from_record(rec) -> the metrics of a record, recomputed from its stored tree
-- when it has one (so a report follows the current definitions), else as stored
function M.from_record(rec)
  if rec.tree and rec.accepted then
    local accepted = {}
    for _, a in ipairs(rec.accepted) do accepted[a] = true end
    return M.tree_metrics(trees.from_schema(rec.tree), accepted, rec.itt)
  end
  local m = rec.metrics
  if m then
    for _, k in ipairs({ "ccer", "ccer_nodes" }) do if m[k .. "_infinite"] then m[k] = math.huge end end
  end
  return m
end

-- tokene(acc, mean_itt) -> 100 A / (A + ITT/1000) with A = 100 acc; nil when undefined (0/0)
function M.tokene(acc, mean_itt)
  if acc == nil or mean_itt == nil then return nil end
  local a = 100 * acc
  local d = a + mean_itt / 1000
  if d == 0 then return nil end
  return 100 * a / d
end

-- correlations: one implementation for every report (tabula.metrics)
M.pearson, M.ranks, M.spearman = metrics.pearson, metrics.ranks, metrics.spearman

M.PER_RESPONSE = { "swr", "sfh", "scr", "ssc", "sbc", "tmd", "tmf", "tnc", "itt", "ipn", "searche", "scr_nodes", "searche_nodes" }

-- aggregate(items) -> means over responses with a tree, the weight variants
-- with their correlations to accuracy, and counts.
-- items: list of { correct = bool, metrics = tree_metrics(...) or nil }
function M.aggregate(items)
  local sums, counts = {}, {}
  local with_tree, undefined, ccer_inf = 0, 0, 0
  local ccer_sum, ccer_n = 0, 0
  for _, it in ipairs(items) do
    local m = it.metrics
    if m then
      with_tree = with_tree + 1
      for _, k in ipairs(M.PER_RESPONSE) do
        if m[k] ~= nil then sums[k] = (sums[k] or 0) + m[k]; counts[k] = (counts[k] or 0) + 1 end
      end
      if m.searche == nil then undefined = undefined + 1 end
      if m.ccer == math.huge then ccer_inf = ccer_inf + 1 else ccer_sum, ccer_n = ccer_sum + m.ccer, ccer_n + 1 end
    end
  end
  local out = { n = #items, with_tree = with_tree, searche_undefined = undefined, ccer_infinite = ccer_inf,
    ccer_finite_mean = ccer_n > 0 and ccer_sum / ccer_n or nil, mean = {} }
  for k, s in pairs(sums) do out.mean[k] = s / counts[k] end
  out.variants = {}
  for _, v in ipairs(M.WEIGHTS) do
    local xs, ys = {}, {}
    for _, it in ipairs(items) do
      local s = it.metrics and it.metrics.searche_variants and it.metrics.searche_variants[v.name]
      if s then xs[#xs + 1] = s; ys[#ys + 1] = it.correct and 1 or 0 end
    end
    local mean
    if #xs > 0 then mean = 0; for _, x in ipairs(xs) do mean = mean + x end; mean = mean / #xs end
    out.variants[#out.variants + 1] = { name = v.name, weights = v.w, mean = mean, n = #xs,
      pearson = M.pearson(xs, ys), spearman = M.spearman(xs, ys) }
  end
  return out
end

return M
