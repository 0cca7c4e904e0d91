-- scenarios/tsugo/report.lua — TsuGO's report from a run's records:
-- accuracy by modality x candidate setting x tier with 95% Wilson
-- intervals, accuracy and consistency under each
-- transform, the process metrics (Symbolic input, no transform) with
-- distributions, SearchE weight variants with their correlations to accuracy,
-- TokenE per evaluated set, the replay check, the references side by side
-- (MCTS open/restricted, GNU Go, engine-tree agreement), tokens and cost.
-- Writes report.md and summary.json; returns the console table.
local records = require "tabula.records"
local json = require "tabula.json"
local fs = require "tabula.fs"
local metrics = require "tabula.metrics"
local tm = require "scenarios.tsugo.metrics"

local M = {}

local SETTINGS = { ["4"] = "K=4", open = "open" }

-- accuracy with its 95% Wilson score interval per cell (trials as the
-- units; a percentile bootstrap collapses to [100, 100] at 24 of 24)
local function accuracy(list)
  local by, order = {}, {}
  local n, c = 0, 0
  for _, r in ipairs(list) do
    n = n + 1
    if r.correct then c = c + 1 end
    if not by[r.problem_id] then by[r.problem_id] = { 0, 0 }; order[#order + 1] = r.problem_id end
    by[r.problem_id][1] = by[r.problem_id][1] + 1
    if r.correct then by[r.problem_id][2] = by[r.problem_id][2] + 1 end
  end
  local lo, hi = metrics.wilson(c, n)
  return { n = n, correct = c, accuracy = n > 0 and c / n or nil, lo = lo, hi = hi, problems = #order }
end

local function quantiles(xs)
  if #xs == 0 then return nil end
  local s = {}
  for i, x in ipairs(xs) do s[i] = x end
  table.sort(s)
  local function q(p) return s[math.max(1, math.min(#s, math.floor(p * (#s - 1) + 1.5)))] end
  return { min = s[1], q1 = q(0.25), median = q(0.5), q3 = q(0.75), max = s[#s] }
end

local function group(list, keyf)
  local out, order = {}, {}
  for _, r in ipairs(list) do
    local k = keyf(r)
    if not out[k] then out[k] = {}; order[#order + 1] = k end
    table.insert(out[k], r)
  end
  table.sort(order)
  return out, order
end

-- process(list) -> aggregate process metrics of the records with trees
local function process(list)
  local items, searche, tnc, itts = {}, {}, {}, {}
  local rejected, repairs, summary_only = 0, 0, 0
  local moves, impossible, responses_bad, ref_found, ref_total = 0, 0, 0, 0, 0
  local extractors = {}
  for _, r in ipairs(list) do
    if r.summary_only then summary_only = summary_only + 1 end
    if r.extractor then extractors[r.extractor] = true end
    if r.tree_rejected then rejected = rejected + 1 end
    repairs = repairs + #(r.tree_repairs or {})
    local m = tm.from_record(r)
    if m then
      items[#items + 1] = { correct = r.correct, metrics = m }
      if m.searche then searche[#searche + 1] = m.searche end
      tnc[#tnc + 1] = m.tnc
    end
    if r.itt then itts[#itts + 1] = r.itt end
    if r.replay then
      moves, impossible = moves + r.replay.moves, impossible + r.replay.impossible
      if r.replay.impossible > 0 then responses_bad = responses_bad + 1 end
      for _, x in ipairs(r.replay.refutations or {}) do
        ref_total = ref_total + 1
        if x.found then ref_found = ref_found + 1 end
      end
    end
  end
  local agg = tm.aggregate(items)
  local acc = accuracy(list)
  local names = {}
  for k in pairs(extractors) do names[#names + 1] = k end
  table.sort(names)
  agg.accuracy = acc.accuracy
  agg.mean_itt = metrics.mean(itts)
  agg.tokene = tm.tokene(acc.accuracy, agg.mean_itt)
  agg.searche_distribution = quantiles(searche)
  agg.tnc_distribution = quantiles(tnc)
  agg.trees_rejected, agg.repairs, agg.summary_only = rejected, repairs, summary_only
  agg.extractors = names
  agg.replay = { moves = moves, impossible = impossible, rate = moves > 0 and impossible / moves or nil,
    responses_with_impossible = responses_bad, refutations_found = ref_found, refutations_considered = ref_total }
  return agg
end

function M.compute(recs)
  local model, refs_list, errors = {}, {}, 0
  for _, r in ipairs(recs) do
    if r.status == "error" then errors = errors + 1
    elseif r.kind == "reference" then refs_list[#refs_list + 1] = r
    elseif r.kind == "model" then model[#model + 1] = r end
  end
  local sm = { errors = errors, by_cell = {}, by_transform = {}, process = {}, references = {} }
  -- accuracy: modality x setting x tier, on untransformed prompts
  local plain = {}
  for _, r in ipairs(model) do if r.transform == "identity" then plain[#plain + 1] = r end end
  sm.overall = accuracy(plain)
  local cells, order = group(plain, function(r) return r.modality .. "|" .. r.candidates .. "|" .. tostring(r.tier or "?") end)
  for _, k in ipairs(order) do
    local m, c, t = k:match("^(.-)|(.-)|(.*)$")
    local a = accuracy(cells[k])
    a.modality, a.candidates, a.tier = m, c, t
    sm.by_cell[#sm.by_cell + 1] = a
  end
  local settings, sorder = group(plain, function(r) return r.candidates end)
  sm.by_setting = {}
  for _, k in ipairs(sorder) do sm.by_setting[k] = accuracy(settings[k]) end
  -- items with more than one accepted option
  local multi = {}
  for _, r in ipairs(plain) do if (r.accepted_options or 0) > 1 then multi[r.problem_id] = true end end
  local nm = 0
  for _ in pairs(multi) do nm = nm + 1 end
  sm.items_with_several_accepted_options = nm
  -- transforms: accuracy and consistency with the untransformed answer
  local base = {}
  for _, r in ipairs(plain) do base[table.concat({ r.problem_id, r.modality, r.candidates, r.trial_index }, "|")] = r end
  -- split by setting: K=4 and open answers are different tasks
  local tr, torder = group(model, function(r) return r.transform .. "|" .. r.candidates end)
  for _, k in ipairs(torder) do
    local a = accuracy(tr[k])
    a.candidates = k:match("|(.*)$")
    local agree, pairs_n = 0, 0
    for _, r in ipairs(tr[k]) do
      local b = base[table.concat({ r.problem_id, r.modality, r.candidates, r.trial_index }, "|")]
      if b then
        pairs_n = pairs_n + 1
        if b.answer_original and b.answer_original == r.answer_original then agree = agree + 1 end
      end
    end
    a.transform = k:match("^(.-)|")
    a.consistency = pairs_n > 0 and agree / pairs_n or nil
    a.pairs = pairs_n
    sm.by_transform[#sm.by_transform + 1] = a
  end
  -- process metrics: symbolic input, no transform, per setting (TokenE per evaluated set)
  local sym = {}
  for _, r in ipairs(plain) do if r.modality == "symbolic" then sym[#sym + 1] = r end end
  local ps, porder = group(sym, function(r) return r.candidates end)
  -- without any extraction (a model run with no extractor model) there are no
  -- process metrics: the setting is listed as not computed, never as numbers
  sm.process_not_computed = {}
  for _, k in ipairs(porder) do
    local p = process(ps[k])
    if #p.extractors == 0 and p.with_tree == 0 then
      sm.process_not_computed[k] = { n = #ps[k], tokene = p.tokene, mean_itt = p.mean_itt }
    else sm.process[k] = p end
  end
  -- per tier too
  sm.process_by_tier = {}
  local pt, ptorder = group(sym, function(r) return r.candidates .. "|" .. tostring(r.tier or "?") end)
  for _, k in ipairs(ptorder) do
    local p = process(pt[k])
    if #p.extractors > 0 or p.with_tree > 0 then sm.process_by_tier[k] = p end
  end
  -- references
  local R = sm.references
  R.problems = #refs_list
  local function ref_acc(f)
    local n, c, ms = 0, 0, {}
    for _, r in ipairs(refs_list) do
      local x = f(r)
      if x then
        n = n + 1
        if x.correct then c = c + 1 end
        if x.metrics then ms[#ms + 1] = x.metrics end
      end
    end
    local mean = {}
    for _, k in ipairs({ "swr", "sfh", "scr", "ssc", "sbc", "tmd", "tmf", "tnc", "searche" }) do
      local xs = {}
      for _, m in ipairs(ms) do if m[k] then xs[#xs + 1] = m[k] end end
      mean[k] = metrics.mean(xs)
    end
    return { n = n, correct = c, accuracy = n > 0 and c / n or nil, mean = mean }
  end
  R.mcts_open = ref_acc(function(r) return r.mcts_open end)
  R.mcts_restricted = ref_acc(function(r) return r.mcts_restricted end)
  -- GNU Go: a reference whose engine failed is an infrastructure error, not a miss
  local function gnugo_ok(r) return r.gnugo and not r.gnugo.error end
  R.gnugo_open = ref_acc(function(r) return gnugo_ok(r) and { correct = r.gnugo.correct } end)
  -- restricted: every problem with options (a restricted MCTS root); no answer is wrong
  R.gnugo_restricted = ref_acc(function(r) return gnugo_ok(r) and r.mcts_restricted and { correct = r.gnugo.restricted_correct == true } end)
  R.gnugo_errors, R.gnugo_answered = 0, 0
  for _, r in ipairs(refs_list) do
    if r.gnugo and r.gnugo.error then
      R.gnugo_errors = R.gnugo_errors + 1
      R.gnugo_first_error = R.gnugo_first_error or (r.problem_id .. ": " .. r.gnugo.error)
    elseif r.gnugo and r.gnugo.open then R.gnugo_answered = R.gnugo_answered + 1 end
  end
  local agree = {}
  local na = 0
  for _, r in ipairs(refs_list) do if r.agreement then agree[r.problem_id] = true; na = na + 1 end end
  R.agreement = { agree = na, of = R.gnugo_open.n }
  local sub = {}
  for _, r in ipairs(plain) do if agree[r.problem_id] then sub[#sub + 1] = r end end
  R.model_accuracy_where_agree = accuracy(sub)
  -- closed loop: first-move accuracy next to the solved rate
  sm.closed_loop = {}
  for _, k in ipairs(sorder) do
    local n, first, solved, erred = 0, 0, 0, 0
    for _, r in ipairs(settings[k]) do
      if r.closed_loop then
        n = n + 1
        if r.correct then first = first + 1 end
        if r.closed_loop.solved then solved = solved + 1 end
        if r.closed_loop.reason == "first_move_rejected" then erred = erred + 1 end
      end
    end
    if n > 0 then sm.closed_loop[k] = { n = n, first_move = first / n, solved = solved / n, goal_after_rejected = erred } end
  end
  -- tokens and cost
  local tok = { input = 0, cached = 0, output = 0, reasoning = 0 }
  local cost = 0
  for _, r in ipairs(model) do
    for k in pairs(tok) do tok[k] = tok[k] + ((r.usage or {})[k] or 0) end
    cost = cost + (r.cost or 0)
  end
  sm.tokens, sm.cost, sm.model_trials = tok, cost, #model
  return sm
end

local function pct(x) return x and string.format("%.1f", 100 * x) or "–" end
local function num(x, f) return x and string.format(f or "%.1f", x) or "–" end
local function ci(a) return a.lo and string.format("[%s, %s]", pct(a.lo), pct(a.hi)) or "" end

function M.console(sm)
  local L = { "TsuGO (untransformed prompts)",
    string.format("%-8s %8s %14s %8s %8s %6s %6s %6s %6s", "setting", "acc", "95% CI", "SearchE", "TokenE", "SWR", "SFH", "SCR", "TNC") }
  for _, k in ipairs({ "4", "open" }) do
    local a = sm.by_setting[k]
    if a then
      local p = sm.process[k] or { mean = {} }
      L[#L + 1] = string.format("%-8s %7s%% %14s %8s %8s %6s %6s %6s %6s", SETTINGS[k], pct(a.accuracy), ci(a),
        num(p.mean.searche), num(p.tokene), pct(p.mean.swr), pct(p.mean.sfh), pct(p.mean.scr), num(p.mean.tnc))
    end
  end
  if next(sm.process_not_computed or {}) then L[#L + 1] = "process metrics: not computed (no extractor)" end
  for _, k in ipairs({ "4", "open" }) do
    local c = sm.closed_loop[k]
    if c then
      L[#L + 1] = string.format("closed loop %s: first move %s%%, solved %s%% (n = %d)%s", SETTINGS[k], pct(c.first_move), pct(c.solved), c.n,
        (c.goal_after_rejected or 0) > 0 and string.format("; the goal reached after a rejected first move in %d (the opponent erred; not solved)", c.goal_after_rejected) or "")
    end
  end
  local R = sm.references
  if R.problems > 0 then
    L[#L + 1] = string.format("references on %d problems: MCTS open %s%%, restricted %s%%; GNU Go open %s%%, restricted %s%%",
      R.problems, pct(R.mcts_open.accuracy), pct(R.mcts_restricted.accuracy), pct(R.gnugo_open.accuracy), pct(R.gnugo_restricted.accuracy))
    if (R.gnugo_errors or 0) > 0 then
      L[#L + 1] = string.format("GNU Go failed on %d references (infrastructure errors, not scored); first: %s", R.gnugo_errors, R.gnugo_first_error)
    end
  end
  return table.concat(L, "\n") .. "\n"
end

function M.markdown(sm, meta)
  local opts = meta.options or {}
  local L = { "# TsuGO report", "",
    string.format("Model: %s. Problems: %s (%s). Extractor: %s. Guided reference: %s.",
      meta.model and meta.model.name or "?", tostring(meta.data and meta.data.n_problems), tostring(meta.data and meta.data.problems),
      tostring(meta.setup and meta.setup.extractor or opts.extractor), tostring(meta.setup and meta.setup.gnugo)),
    string.format("Scored model trials: %d; infrastructure errors not scored: %d.", sm.model_trials, sm.errors), "",
    "## Accuracy (untransformed prompts)", "",
    "| modality | setting | tier | accuracy | 95% CI (Wilson) | n |", "|---|---|---|---|---|---|" }
  for _, a in ipairs(sm.by_cell) do
    L[#L + 1] = string.format("| %s | %s | %s | %s | %s | %d |", a.modality, SETTINGS[a.candidates] or a.candidates, a.tier, pct(a.accuracy), ci(a), a.n)
  end
  L[#L + 1] = ""
  L[#L + 1] = string.format("Items whose four options hold more than one accepted answer: %d.", sm.items_with_several_accepted_options)
  if #sm.by_transform > 1 then
    L[#L + 1] = ""
    L[#L + 1] = "## Transforms"
    L[#L + 1] = ""
    L[#L + 1] = "| transform | setting | accuracy | 95% CI | consistency with the original | pairs |"
    L[#L + 1] = "|---|---|---|---|---|---|"
    for _, a in ipairs(sm.by_transform) do
      L[#L + 1] = string.format("| %s | %s | %s | %s | %s | %d |", a.transform, SETTINGS[a.candidates] or a.candidates, pct(a.accuracy), ci(a),
        pct(a.consistency), a.pairs)
    end
  end
  L[#L + 1] = ""
  L[#L + 1] = "## Process metrics (Symbolic input)"
  L[#L + 1] = ""
  for _, k in ipairs({ "4", "open" }) do
    local x = (sm.process_not_computed or {})[k]
    if x then
      L[#L + 1] = string.format("%s: process metrics: not computed (no extractor; %d symbolic responses; give --extractor MODEL). TokenE %s.",
        SETTINGS[k], x.n, num(x.tokene))
      L[#L + 1] = ""
    end
  end
  if next(sm.process) then
    L[#L + 1] = "| setting | acc | SearchE | TokenE | SWR | SFH | SCR | CCER (finite mean) | CCER = ∞ | SSC | SBC | TMD | TMF | TNC | ITT | IPN | trees | SCR, SearchE by node count |"
    L[#L + 1] = "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  end
  for _, k in ipairs({ "4", "open" }) do
    local p = sm.process[k]
    if p then
      local m = p.mean
      L[#L + 1] = string.format("| %s | %s | %s | %s | %s | %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %d of %d | %s, %s |",
        SETTINGS[k], pct(p.accuracy), num(m.searche), num(p.tokene), pct(m.swr), pct(m.sfh), pct(m.scr), num(p.ccer_finite_mean),
        p.ccer_infinite, num(m.ssc), num(m.sbc), num(m.tmd), num(m.tmf), num(m.tnc), num(p.mean_itt, "%.0f"), num(m.ipn), p.with_tree, p.n,
        pct(m.scr_nodes), num(m.searche_nodes))
    end
  end
  L[#L + 1] = ""
  L[#L + 1] = "CCER is the rank at which the correct first-move branch first appears among the candidates (the paper's definition), "
    .. "so SCR = (CCER - 1)/SBC stays on 0-100; SWR, SFH, SCR and SearchE are averaged over the same trees (those with a candidate). "
    .. "The last column is a secondary reading that counts CCER in nodes (it can pass 100); it is not the headline."
  for _, k in ipairs({ "4", "open" }) do
    local p = sm.process[k]
    if p then
      L[#L + 1] = ""
      L[#L + 1] = string.format("%s: trees by %s; %d rejected, %d repairs; %d summary-only responses left out; SearchE undefined (no candidate) in %d.",
        SETTINGS[k], #p.extractors > 0 and table.concat(p.extractors, ", ") or "none", p.trees_rejected, p.repairs, p.summary_only, p.searche_undefined)
      local d = p.searche_distribution
      if d then
        L[#L + 1] = string.format("SearchE distribution: min %.1f, quartiles %.1f / %.1f / %.1f, max %.1f. TNC: median %s, max %s.",
          d.min, d.q1, d.median, d.q3, d.max, tostring(p.tnc_distribution.median), tostring(p.tnc_distribution.max))
      end
      local rp = p.replay
      L[#L + 1] = string.format("Replay: %d of %d extracted moves impossible on the board (%s%%), in %d responses; refutations of wrong candidates read: %d of %d.",
        rp.impossible, rp.moves, pct(rp.rate), rp.responses_with_impossible, rp.refutations_found, rp.refutations_considered)
      L[#L + 1] = ""
      L[#L + 1] = "| SearchE weights (waste, first hit, rank) | mean | Pearson with accuracy | Spearman with accuracy | n |"
      L[#L + 1] = "|---|---|---|---|---|"
      for _, v in ipairs(p.variants) do
        L[#L + 1] = string.format("| %s (%.2f, %.2f, %.2f) | %s | %s | %s | %d |", v.name, v.weights[1], v.weights[2], v.weights[3],
          num(v.mean), num(v.pearson, "%.3f"), num(v.spearman, "%.3f"), v.n)
      end
    end
  end
  if next(sm.closed_loop) then
    L[#L + 1] = ""
    L[#L + 1] = "## Closed loop"
    L[#L + 1] = ""
    L[#L + 1] = "A first move the answers reject is never solved; the last column counts the lines that reached the goal after one anyway (the opponent, unproven there, erred)."
    L[#L + 1] = ""
    L[#L + 1] = "| setting | first-move accuracy | solved | gap | n | goal after a rejected first move |"
    L[#L + 1] = "|---|---|---|---|---|---|"
    for _, k in ipairs({ "4", "open" }) do
      local c = sm.closed_loop[k]
      if c then
        L[#L + 1] = string.format("| %s | %s | %s | %s | %d | %d |", SETTINGS[k], pct(c.first_move), pct(c.solved), pct(c.first_move - c.solved), c.n,
          c.goal_after_rejected or 0)
      end
    end
  end
  local R = sm.references
  if R.problems > 0 then
    L[#L + 1] = ""
    L[#L + 1] = "## References"
    L[#L + 1] = ""
    L[#L + 1] = "| reference | accuracy | SearchE | SWR | SFH | SCR | SSC | root branches | TNC | depth | fan-out | n |"
    L[#L + 1] = "|---|---|---|---|---|---|---|---|---|---|---|---|"
    for _, x in ipairs({ { "MCTS/UCT open root", R.mcts_open }, { "MCTS/UCT restricted root (K=4)", R.mcts_restricted },
      { "GNU Go open", R.gnugo_open }, { "GNU Go restricted to the options", R.gnugo_restricted } }) do
      local m = x[2].mean
      L[#L + 1] = string.format("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d |", x[1], pct(x[2].accuracy), num(m.searche),
        pct(m.swr), pct(m.sfh), pct(m.scr), num(m.ssc), num(m.sbc), num(m.tnc), num(m.tmd), num(m.tmf), x[2].n)
    end
    L[#L + 1] = ""
    L[#L + 1] = string.format("MCTS/UCT: SFH is whether the top root move after the first playout is accepted; the root's children are shuffled "
      .. "with the seed, so with uniform priors that first pick is a seeded random choice, not a judgement. Its trees here: depth %s, %s nodes on average "
      .. "(open root), against depth about 5 for the paper's MCTS trees; the differences come from no first-play urgency (Q = 0 for an unvisited child), "
      .. "c_puct = 5 with uniform priors, full expansion of every new leaf and 200 playouts spread over the local moves.",
      num(R.mcts_open.mean.tmd), num(R.mcts_open.mean.tnc))
    L[#L + 1] = ""
    L[#L + 1] = string.format("Engine-tree agreement (GNU Go's move is an accepted answer): %d of %d problems; the model's accuracy on them: %s%% (n = %d). TokenE is undefined for the references.",
      R.agreement.agree, R.agreement.of, pct(R.model_accuracy_where_agree.accuracy), R.model_accuracy_where_agree.n)
    L[#L + 1] = string.format("GNU Go answered (found a move) on %d of %d problems; %d references failed (infrastructure errors, not scored)%s.",
      R.gnugo_answered, R.gnugo_open.n, R.gnugo_errors, R.gnugo_first_error and ("; first: " .. R.gnugo_first_error) or "")
  end
  L[#L + 1] = ""
  L[#L + 1] = string.format("Tokens: %d input (%d cached), %d output (%d reasoning). Cost $%.4f.",
    sm.tokens.input, sm.tokens.cached, sm.tokens.output, sm.tokens.reasoning, sm.cost)
  return table.concat(L, "\n") .. "\n"
end

function M.write(dir)
  local meta = json.read_file(dir .. "/run.json")
  local recs = records.read(dir .. "/trials.jsonl", { skip_bad = true })
  local sm = M.compute(recs)
  fs.write_or_fail(dir .. "/summary.json", json.encode(sm, { pretty = true, lenient = true }) .. "\n")
  fs.write_or_fail(dir .. "/report.md", M.markdown(sm, meta))
  return M.console(sm)
end

return M
