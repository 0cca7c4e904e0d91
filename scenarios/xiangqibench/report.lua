-- scenarios.xiangqibench.report — XiangqiBench metrics, computed only from a run's
-- records (run.json, trials.jsonl), so a report can be rebuilt at any time.
-- Writes report.md and summary.json into the run directory.
--
-- The headline table is scored as the official scorer scores it
-- (floatai/xiangqibench 0.1.0, scoring.py): per (setting, case) the earliest
-- HEADLINE_TRIALS scored trials by trial index (the order the trials were
-- planned, so the same on resume and with workers); rows k = 1..3 over every
-- case with a scored trial, a case with fewer than k trials kept in row k
-- (pass@k = 1 if it has a success, pass^k = 0); intervals by the official
-- case bootstrap (numpy's default_rng with seed 2027 + 100k for pass@k and
-- 2427 + 100k for pass^k, 4000 resamples, the linear quantile rule: src/stats.c),
-- none when a row has fewer than 2 cases. Trials beyond the earliest 3 are
-- reported in a separate table over all scored trials (our own estimator,
-- k up to the most trials of a case, seed M.SEED).
local metrics = require "tabula.metrics"
local records = require "tabula.records"
local json = require "tabula.json"
local fs = require "tabula.fs"

local M = {}

M.DRAWS, M.SEED = 4000, 20260101
-- the official scorer's constants: trials per cell, bootstrap draws and base seed
M.HEADLINE_TRIALS, M.OFFICIAL_DRAWS, M.OFFICIAL_SEED = 3, 4000, 2027

-- our ending names -> the official harness's termination reasons (its
-- forfeits are "forfeit_" + the budget's name; mates are "checkmate"); the
-- other endings keep our name. Records carry it as official_reason.
M.OFFICIAL_REASON = {
  illegal_move_limit = "forfeit_invalid_action_limit", rejected_limit = "forfeit_invalid_action_limit",
  action_limit = "forfeit_action_limit", no_command_limit = "forfeit_no_command",
  call_cap = "forfeit_action_budget_exhausted", win_mate = "checkmate", loss_mate = "checkmate",
}
-- the official scorer's invalid-rate markers (substrings of the official reason)
local LOSS_MARKERS = { "invalid_action_limit", "no_command", "no_tool_call", "action_budget" }

local function invalid_ending(reason, official)
  official = official or M.OFFICIAL_REASON[reason] or reason or ""
  for _, m in ipairs(LOSS_MARKERS) do if official:find(m, 1, true) then return true end end
  return false
end

-- the standard settings (the official STANDARD_BUDGETS and defender): option -> value
M.STANDARD_BUDGETS = { { "max-plies", 40 }, { "actions", 8 }, { "rejected", 3 }, { "illegal", 3 },
  { "simulate-budget", 1 }, { "simulate-max", 8 }, { "view-budget", 1 }, { "no-command", 5 } }

-- standard(meta) -> true | false, { "what differs", ... }: a run is standard
-- when its budgets are the official ones and its defender is Pikafish at depth
-- 18 (1 thread, Hash 256) with the rule-search fallback for the positions it
-- rejects only (an engine that dies stops the run)
function M.standard(meta)
  local o = (meta and meta.options) or {}
  local diffs = {}
  for _, b in ipairs(M.STANDARD_BUDGETS) do
    local v = o[b[1]]
    if v ~= nil and v ~= b[2] then diffs[#diffs + 1] = string.format("--%s %s (standard %s)", b[1], tostring(v), b[2]) end
  end
  local d = o.defender or "builtin"
  local setup = (meta and meta.setup and meta.setup.defender) or {}
  if d == "builtin" then
    diffs[#diffs + 1] = "defender: the built-in search, not Pikafish"
  elseif not tostring(d):match("^pikafish") then
    diffs[#diffs + 1] = string.format("defender: %s, not Pikafish", tostring(d))
  else
    if o["defender-depth"] ~= nil and o["defender-depth"] ~= 18 then
      diffs[#diffs + 1] = string.format("--defender-depth %s (standard 18)", tostring(o["defender-depth"]))
    end
    if o["defender-nodes"] ~= nil then diffs[#diffs + 1] = "--defender-nodes set (standard: depth 18 only)" end
    if setup.threads ~= nil and setup.threads ~= 1 then diffs[#diffs + 1] = string.format("defender threads %s (standard 1)", tostring(setup.threads)) end
    if setup.hash ~= nil and setup.hash ~= 256 then diffs[#diffs + 1] = string.format("defender hash %s MB (standard 256)", tostring(setup.hash)) end
    if o["defender-fallback"] == true then
      diffs[#diffs + 1] = "--defender-fallback (the rule search answers when the engine dies; standard: the run stops)"
    end
  end
  return #diffs == 0, diffs
end

-- the defender line at the top of the reports
function M.defender_line(meta)
  local d = (meta and meta.options and meta.options.defender) or "builtin"
  if d == "builtin" then
    return "Defender: the built-in search, not the paper's Pikafish: numbers are not comparable with the paper's."
  elseif not tostring(d):match("^pikafish") then
    return string.format("Defender: %s, not the paper's Pikafish: numbers are not comparable with the paper's.", tostring(d))
  end
  return "Defender: Pikafish (" .. tostring(d) .. ")."
end

local FAILURE_CLASS = {
  illegal_move_limit = "invalid-action limit", rejected_limit = "invalid-action limit",
  no_command_limit = "no command", attacker_perpetual_check = "perpetual check by attacker",
  repetition_draw = "repetition draw", action_limit = "action limit", turn_cap = "turn cap",
  resignation = "resignation", loss_mate = "opponent terminal", call_cap = "call cap",
}
M.FAILURE_ORDER = { "invalid-action limit", "no command", "perpetual check by attacker", "repetition draw",
  "action limit", "call cap", "turn cap", "resignation", "opponent terminal" }

-- by_case(recs) -> { [setting] = { case_id = { n, c } }, settings (in order) }
function M.by_case(recs)
  local out, order = {}, {}
  for _, r in ipairs(recs) do
    if r.status == "success" or r.status == "failure" then
      if not out[r.setting] then out[r.setting] = {}; order[#order + 1] = r.setting end
      local cs = out[r.setting][r.case_id] or { n = 0, c = 0 }
      cs.n = cs.n + 1
      if r.status == "success" then cs.c = cs.c + 1 end
      out[r.setting][r.case_id] = cs
    end
  end
  return out, order
end

local function sorted_units(cases)
  local ids = {}
  for id in pairs(cases) do ids[#ids + 1] = id end
  table.sort(ids)
  local units = {}
  for i, id in ipairs(ids) do units[i] = cases[id] end
  return units, ids
end

-- pass_table(cases) -> rows, ncases: for k = 1..the most trials of a case,
-- pass@k and pass^k averaged over the cases with at least k trials, with
-- 95% case-bootstrap intervals (cases in id order). In C (src/stats.c): the
-- per-case values by running products, one resampling for every k that
-- averages the same cases.
function M.pass_table(cases)
  local units = sorted_units(cases)
  return require("tabula.c.stats").pass_table(units, M.DRAWS, M.SEED), #units
end

-- pass_table_reference(cases): the same table k by k from the binomial
-- formulas of tabula.metrics (what pass_table replaced; tests and
-- bench/report_scale.lua compare with it)
function M.pass_table_reference(cases)
  local units = sorted_units(cases)
  local nmax = 0
  for _, u in ipairs(units) do nmax = math.max(nmax, u.n) end
  local rows = {}
  for k = 1, nmax do
    local row = { k = k }
    for _, hat in ipairs({ false, true }) do
      local xs = {}
      for _, u in ipairs(units) do
        if u.n >= k then xs[#xs + 1] = hat and metrics.pass_hat_k(u.n, u.c, k) or metrics.pass_at_k(u.n, u.c, k) end
      end
      local lo, hi = metrics.bootstrap_mean(xs, M.DRAWS, M.SEED)
      row[hat and "pass_hat" or "pass_at"] = { value = metrics.mean(xs), lo = lo, hi = hi, cases = #xs }
      row.cases = #xs   -- the cases with at least k trials: those this row averages
    end
    rows[#rows + 1] = row
  end
  return rows, #units
end

-- select(cell) -> the earliest HEADLINE_TRIALS trials of a cell, by trial
-- index (then trial id)
function M.select(cell)
  local sorted = {}
  for i, e in ipairs(cell) do sorted[i] = e end
  table.sort(sorted, function(a, b)
    if a.index ~= b.index then return a.index < b.index end
    return a.id < b.id
  end)
  local out = {}
  for i = 1, math.min(M.HEADLINE_TRIALS, #sorted) do out[i] = sorted[i] end
  return out
end

-- headline(cells) -> { rows, cases, incomplete, solved, invalid_rate, selected
-- (case -> {n, c}) }: the official table of one setting from its cells
-- (case -> trials), cases in id order
function M.headline(cells)
  local ids = {}
  for id in pairs(cells) do ids[#ids + 1] = id end
  table.sort(ids)
  local units, selected = {}, {}
  local incomplete, solved, ntrials, ninvalid = 0, 0, 0, 0
  for i, id in ipairs(ids) do
    local sel = M.select(cells[id])
    local c = 0
    for _, e in ipairs(sel) do
      if e.success then c = c + 1 end
      if e.invalid then ninvalid = ninvalid + 1 end
    end
    ntrials = ntrials + #sel
    if #sel < M.HEADLINE_TRIALS then incomplete = incomplete + 1 end
    if c > 0 then solved = solved + 1 end
    units[i] = { n = #sel, c = c }
    selected[id] = units[i]
  end
  local rows = require("tabula.c.stats").official_pass_rows(units, M.HEADLINE_TRIALS, M.OFFICIAL_DRAWS, M.OFFICIAL_SEED)
  return { rows = rows, cases = #ids, incomplete = incomplete, solved = solved,
    invalid_rate = ntrials > 0 and ninvalid / ntrials or 0, selected = selected, trials = ntrials }
end

-- paired difference of pass@1 between two settings over their common cases,
-- with the same case resamples for both
function M.difference(a, b)
  local diffs = {}
  local units, ids = sorted_units(a)
  for i, id in ipairs(ids) do
    local u, v = units[i], b[id]
    if v then diffs[#diffs + 1] = metrics.pass_at_k(u.n, u.c, 1) - metrics.pass_at_k(v.n, v.c, 1) end
  end
  if #diffs == 0 then return nil end
  local lo, hi = metrics.bootstrap_mean(diffs, M.DRAWS, M.SEED)
  return { value = metrics.mean(diffs), lo = lo, hi = hi, cases = #diffs }
end

local function rate(num, den) return den > 0 and num / den or nil end

-- robustness(bycase, order) -> the robustness appendix (tabula.robustness) of the settings'
-- success rate over all scored trials: a trial is a unit, a case's trials (of every setting)
-- are a cluster, and drop-k removes whole cases
function M.robustness(bycase, order)
  local units, cases = {}, {}
  for _, s in ipairs(order) do for id in pairs(bycase[s]) do cases[id] = true end end
  local ids = {}
  for id in pairs(cases) do ids[#ids + 1] = id end
  table.sort(ids)
  for _, id in ipairs(ids) do
    for _, s in ipairs(order) do
      local u = bycase[s][id]
      for i = 1, u and u.n or 0 do
        units[#units + 1] = { id = id .. "#" .. i, cluster = id, contrib = { [s] = { i <= u.c and 1 or 0, 1 } } }
      end
    end
  end
  return require("tabula.robustness").analyse({ units = units, names = order, unit = "trials", cluster = "cases", drop = "cluster" })
end

-- accumulator(meta) -> acc: acc:add(rec) for each final record (any order of
-- arrival as in trials.jsonl), then acc:finish(errors) -> the summary. Only
-- counters and per-trial numbers are kept, never the records, so a report's
-- memory does not grow with what the records hold.
function M.accumulator(meta)
  local A = { meta = meta, bycase = {}, order = {}, scored = 0, cells = {},
    same = 0, same_win = 0, other = 0, other_win = 0,
    outcomes = { complete = 0, illegal = 0, terminal = 0, cap = 0 }, by_len = {}, adopted = 0, diverged = 0,
    classes = {}, nfail = 0, mix = {}, rel = { wins = {}, failures = {} },
    tok = { input = {}, cached = {}, output = {}, reasoning = {}, cost = {}, calls = {} }, reasons = {} }
  for b = 1, 5 do A.mix[b] = { total = 0 } end
  return setmetatable(A, { __index = M.Accumulator })
end

-- the record fields the summary reads, down to the fields of each action, move
-- and simulation (the rest of each record is checked, not decoded)
M.FIELDS = { "trial_id", "trial_index", "official_reason", "status", "setting", "case_id", "first_move", "reference_move", "success", "reason",
  "stored_mate_plies", "plies", "cost", "calls", "usage",
  simulations = { "outcome", "length", "ply", "requested" }, moves = { "ply", "by", "move" },
  actions = { "kind", command = { "name" } } }

local BUCKETS = { { 1, 1, "1" }, { 2, 2, "2" }, { 3, 4, "3-4" }, { 5, 8, "5-8" } }

M.Accumulator = {}

function M.Accumulator:add(r)
  if r.status ~= "success" and r.status ~= "failure" then return end
  self.scored = self.scored + 1
  -- per case and setting
  if not self.bycase[r.setting] then self.bycase[r.setting] = {}; self.order[#self.order + 1] = r.setting end
  local cs = self.bycase[r.setting][r.case_id] or { n = 0, c = 0 }
  cs.n = cs.n + 1
  if r.status == "success" then cs.c = cs.c + 1 end
  self.bycase[r.setting][r.case_id] = cs
  -- the cell's trials, for the earliest-3 selection (a few numbers per trial)
  local cells = self.cells[r.setting] or {}
  self.cells[r.setting] = cells
  local cell = cells[r.case_id] or {}
  cells[r.case_id] = cell
  local index = tonumber(r.trial_index) or tonumber(tostring(r.trial_id or ""):match("/(%d+)$")) or math.huge
  cell[#cell + 1] = { index = index, id = tostring(r.trial_id or ""), success = r.status == "success",
    invalid = invalid_ending(r.reason, r.official_reason) }
  -- conversion gap
  if r.first_move then
    if r.first_move == r.reference_move then
      self.same = self.same + 1; if r.success then self.same_win = self.same_win + 1 end
    else
      self.other = self.other + 1; if r.success then self.other_win = self.other_win + 1 end
    end
  end
  -- simulation gap
  for _, sim in ipairs(r.simulations or {}) do
    self.outcomes[sim.outcome] = (self.outcomes[sim.outcome] or 0) + 1
    for _, b in ipairs(BUCKETS) do
      if sim.length >= b[1] and sim.length <= b[2] then
        local e = self.by_len[b[3]] or { n = 0, legal = 0 }
        e.n = e.n + 1
        if sim.outcome ~= "illegal" then e.legal = e.legal + 1 end
        self.by_len[b[3]] = e
      end
    end
    -- adopted: a fully legal line of 2+ plies whose first move was then played for real
    if sim.outcome ~= "illegal" and sim.length >= 2 then
      local real, reply
      for i, mv in ipairs(r.moves or {}) do
        if mv.ply == sim.ply + 1 and mv.by == "agent" then real = mv.move; reply = r.moves[i + 1] end
      end
      if real == sim.requested[1] and reply then
        self.adopted = self.adopted + 1
        if reply.move ~= sim.requested[2] then self.diverged = self.diverged + 1 end
      end
    end
  end
  -- failure classes
  if not r.success then
    self.nfail = self.nfail + 1
    local c = FAILURE_CLASS[r.reason] or r.reason
    self.classes[c] = (self.classes[c] or 0) + 1
  end
  -- REPL composition over normalised progress (5 bins)
  local n = #(r.actions or {})
  for i, a in ipairs(r.actions or {}) do
    local cls = a.kind == "no_command" and "no_command" or (a.kind == "rejected" or a.kind == "illegal") and "rejected"
      or a.kind == "refused" and "refused"
      or (a.command and a.command.name) or "other"
    local bin = math.min(5, math.floor((i - 1) / n * 5) + 1)
    self.mix[bin][cls] = (self.mix[bin][cls] or 0) + 1
    self.mix[bin].total = self.mix[bin].total + 1
  end
  -- plies relative to the stored mate distance
  if r.stored_mate_plies and r.stored_mate_plies > 0 then
    local list = r.success and self.rel.wins or self.rel.failures
    list[#list + 1] = r.plies / r.stored_mate_plies
  end
  -- tokens and cost
  local tok = self.tok
  for k in pairs(tok) do
    if k == "cost" then tok.cost[#tok.cost + 1] = r.cost or 0
    elseif k == "calls" then tok.calls[#tok.calls + 1] = r.calls or 0
    else tok[k][#tok[k] + 1] = (r.usage or {})[k] or 0 end
  end
  self.reasons[r.reason] = (self.reasons[r.reason] or 0) + 1
end

function M.Accumulator:finish(errors)
  local order, bycase = self.order, self.bycase
  local out = { settings = {}, order = order, trials = self.scored,
    errors = errors, draws = M.DRAWS, seed = M.SEED }
  out.headline_trials, out.official_draws, out.official_seed = M.HEADLINE_TRIALS, M.OFFICIAL_DRAWS, M.OFFICIAL_SEED
  local selected = {}
  for _, s in ipairs(order) do
    local h = M.headline(self.cells[s])
    selected[s] = h.selected
    local st = { cases = h.cases, pass = h.rows, trials = h.trials, incomplete = h.incomplete, solved = h.solved,
      invalid_rate = h.invalid_rate }
    -- trials beyond the earliest 3: all scored trials, in a table of their own
    local more = false
    for _, u in pairs(bycase[s]) do if u.n > M.HEADLINE_TRIALS then more = true end end
    if more then
      local rows, ncases = M.pass_table(bycase[s])
      local total = 0
      for _, u in pairs(bycase[s]) do total = total + u.n end
      st.all_trials = { cases = ncases, trials = total, pass = rows }
    end
    out.settings[s] = st
  end
  out.differences = {}
  for i = 2, #order do
    out.differences[#out.differences + 1] = { a = order[i], b = order[1], diff = M.difference(selected[order[i]], selected[order[1]]) }
  end
  out.robustness = M.robustness(bycase, order)
  out.standard, out.nonstandard = M.standard(self.meta)
  out.defender_line = M.defender_line(self.meta)
  out.conversion = { first_move_is_reference = rate(self.same, self.same + self.other), trials_with_a_move = self.same + self.other,
    win_rate_reference_first = rate(self.same_win, self.same), win_rate_other_first = rate(self.other_win, self.other) }
  local legality = {}
  for _, b in ipairs(BUCKETS) do
    local e = self.by_len[b[3]]
    legality[b[3]] = e and { n = e.n, full_line_legal = rate(e.legal, e.n) } or { n = 0 }
  end
  local accepted = 0
  for _, n in pairs(self.outcomes) do accepted = accepted + n end
  out.simulation = { outcomes = self.outcomes, legality_by_length = legality, adopted = self.adopted,
    defender_diverged = rate(self.diverged, self.adopted), diverged = self.diverged,
    accepted = accepted, illegal_stops = rate(self.outcomes.illegal or 0, accepted) }
  out.failures = { total = self.nfail, classes = self.classes }
  out.command_mix = self.mix
  local rel = self.rel
  out.plies_over_stored = { wins = metrics.mean(rel.wins), failures = metrics.mean(rel.failures),
    n_wins = #rel.wins, n_failures = #rel.failures }
  local per = {}
  for k, xs in pairs(self.tok) do per[k] = metrics.mean(xs) end
  local total_cost = 0
  for _, c in ipairs(self.tok.cost) do total_cost = total_cost + c end
  out.per_trial = per
  out.total_cost = total_cost
  out.reasons = self.reasons
  out.model = self.meta and self.meta.model and self.meta.model.name
  return out
end

-- compute(recs, meta) -> the summary of a list of records (earlier errors
-- superseded by a result on resume are dropped first)
function M.compute(recs, meta)
  local final, errors = records.final(recs)
  local acc = M.accumulator(meta)
  for _, r in ipairs(final) do acc:add(r) end
  return acc:finish(errors)
end

local function pct(x) return x and string.format("%.1f%%", 100 * x) or "n/a" end
local function ci(e)
  if not (e and e.value) then return "n/a" end
  if not e.lo then return pct(e.value) .. " (no interval: fewer than 2 cases)" end
  return string.format("%s [%s, %s]", pct(e.value), pct(e.lo), pct(e.hi))
end

local function nonstandard_line(sm)
  if sm.standard then return nil end
  return "NON-STANDARD run (not comparable with the official leaderboard): " .. table.concat(sm.nonstandard, "; ") .. "."
end

-- console(summary) -> the pass@k / pass^k table for the terminal
function M.console(summary)
  local out = { string.format("XiangqiBench: pass@k and pass^k, earliest %d scored trials per case (95%% case-bootstrap intervals)",
    summary.headline_trials) }
  if nonstandard_line(summary) then out[#out + 1] = "  " .. nonstandard_line(summary) end
  for _, s in ipairs(summary.order) do
    local st = summary.settings[s]
    out[#out + 1] = string.format("  %s (%d cases, solved %d, invalid %s%s)", s, st.cases, st.solved, pct(st.invalid_rate),
      st.incomplete > 0 and string.format(", %d with fewer than %d trials", st.incomplete, summary.headline_trials) or "")
    for _, row in ipairs(st.pass) do
      out[#out + 1] = string.format("    k=%d  pass@k %-24s pass^k %s", row.k, ci(row.pass_at), ci(row.pass_hat))
    end
    if st.all_trials then
      out[#out + 1] = string.format("    all %d scored trials (beyond the earliest %d; not the official table):", st.all_trials.trials,
        summary.headline_trials)
      for _, row in ipairs(st.all_trials.pass) do
        out[#out + 1] = string.format("    k=%d  pass@k %-24s pass^k %s  (%d cases with %d+ trials)", row.k, ci(row.pass_at),
          ci(row.pass_hat), row.cases, row.k)
      end
    end
  end
  local rs = {}
  for k, v in pairs(summary.reasons) do rs[#rs + 1] = k .. " " .. v end
  table.sort(rs)
  out[#out + 1] = "  endings: " .. table.concat(rs, ", ")
  return table.concat(out, "\n") .. "\n"
end

function M.markdown(sm)
  local L = {}
  local function add(s) L[#L + 1] = s end
  add("# XiangqiBench report")
  add("")
  add(sm.defender_line)
  if nonstandard_line(sm) then add(""); add("**" .. nonstandard_line(sm) .. "**") end
  add("")
  add(string.format("Model: %s. Scored trials: %d (infrastructure errors not scored: %d).", tostring(sm.model), sm.trials, sm.errors))
  add("")
  add("## pass@k and pass^k")
  add("")
  add(string.format("Scored as the official scorer scores: the earliest %d scored trials per case (by trial index); a case with fewer "
    .. "than k trials stays in row k (pass@k 1 if it has a success, pass^k 0). Intervals: 95%%, %d case-bootstrap draws "
    .. "(numpy's generator, seed %d + 100k for pass@k, %d + 400 + 100k for pass^k).", sm.headline_trials, sm.official_draws,
    sm.official_seed, sm.official_seed))
  add("")
  add("| setting | cases | k | pass@k | pass^k |")
  add("|---|---|---|---|---|")
  for _, s in ipairs(sm.order) do
    for _, row in ipairs(sm.settings[s].pass) do
      add(string.format("| %s | %d | %d | %s | %s |", s, row.cases, row.k, ci(row.pass_at), ci(row.pass_hat)))
    end
  end
  add("")
  add("| setting | solved | invalid-ending rate | cases with fewer than " .. sm.headline_trials .. " trials |")
  add("|---|---|---|---|")
  for _, s in ipairs(sm.order) do
    local st = sm.settings[s]
    add(string.format("| %s | %d/%d | %s | %d |", s, st.solved, st.cases, pct(st.invalid_rate), st.incomplete))
  end
  local any_more = false
  for _, s in ipairs(sm.order) do if sm.settings[s].all_trials then any_more = true end end
  if any_more then
    add("")
    add(string.format("## All scored trials (beyond the earliest %d per case; not the official table)", sm.headline_trials))
    add("")
    add(string.format("Every scored trial; row k averages the cases with at least k trials. Intervals: 95%%, %d case-bootstrap draws, seed %d.",
      sm.draws, sm.seed))
    add("")
    add("| setting | trials | cases | k | pass@k | pass^k |")
    add("|---|---|---|---|---|---|")
    for _, s in ipairs(sm.order) do
      local all = sm.settings[s].all_trials
      if all then
        for _, row in ipairs(all.pass) do
          add(string.format("| %s | %d | %d | %d | %s | %s |", s, all.trials, row.cases, row.k, ci(row.pass_at), ci(row.pass_hat)))
        end
      end
    end
  end
  if #sm.differences > 0 then
    add("")
    add("## Setting differences (pass@1 of the earliest " .. sm.headline_trials .. " trials, paired over common cases)")
    add("")
    add("| setting | minus | difference | cases |")
    add("|---|---|---|---|")
    for _, d in ipairs(sm.differences) do
      if d.diff then
        add(string.format("| %s | %s | %+.1f pts [%+.1f, %+.1f] | %d |", d.a, d.b, 100 * d.diff.value, 100 * d.diff.lo,
          100 * d.diff.hi, d.diff.cases))
      end
    end
  end
  add("")
  add("## Conversion gap")
  add("")
  local c = sm.conversion
  add(string.format("First move equals the reference move in %s of %d trials. Win rate when it does: %s; otherwise: %s.",
    pct(c.first_move_is_reference), c.trials_with_a_move, pct(c.win_rate_reference_first), pct(c.win_rate_other_first)))
  add("")
  add("## Simulation gap")
  add("")
  local o = sm.simulation.outcomes
  add(string.format("Accepted simulations: %d complete legal lines, %d stopped on an illegal ply, %d reached a terminal position or the cap.",
    o.complete or 0, o.illegal or 0, (o.terminal or 0) + (o.cap or 0)))
  add(string.format("Illegal stops: %s of accepted simulations (%d of %d).", pct(sm.simulation.illegal_stops), o.illegal or 0,
    sm.simulation.accepted or 0))
  add("")
  add("| requested length | simulations | full line legal |")
  add("|---|---|---|")
  for _, b in ipairs({ "1", "2", "3-4", "5-8" }) do
    local e = sm.simulation.legality_by_length[b]
    add(string.format("| %s | %d | %s |", b, e.n, pct(e.full_line_legal)))
  end
  add("")
  add(string.format("Adopted lines (first move of a fully legal line then played): %d; the defender's real reply differed from the assumed one in %s (%d of %d).",
    sm.simulation.adopted, pct(sm.simulation.defender_diverged), sm.simulation.diverged or 0, sm.simulation.adopted))
  add("")
  add("## Failure classes")
  add("")
  add("| class | trials | share of failures |")
  add("|---|---|---|")
  for _, cls in ipairs(M.FAILURE_ORDER) do
    local n = sm.failures.classes[cls] or 0
    add(string.format("| %s | %d | %s |", cls, n, pct(rate(n, sm.failures.total))))
  end
  add("")
  add("## REPL composition over normalised trajectory progress")
  add("")
  local classes = { "move", "think", "view_board", "legal_moves", "history", "simulate", "resign", "rejected", "refused",
    "no_command" }
  add("| progress | " .. table.concat(classes, " | ") .. " |")
  add("|---" .. string.rep("|---", #classes) .. "|")
  for b = 1, 5 do
    local row = { string.format("%d-%d%%", (b - 1) * 20, b * 20) }
    local m = sm.command_mix[b]
    for _, cls in ipairs(classes) do row[#row + 1] = pct(rate(m[cls] or 0, m.total)) end
    add("| " .. table.concat(row, " | ") .. " |")
  end
  add("")
  add("## Length and cost")
  add("")
  local p = sm.plies_over_stored
  add(string.format("Plies played / stored mate distance: wins %s (n=%d), failures %s (n=%d).",
    p.wins and string.format("%.2f", p.wins) or "n/a", p.n_wins, p.failures and string.format("%.2f", p.failures) or "n/a", p.n_failures))
  local t = sm.per_trial
  add(string.format("Per trial: %.1f calls, %.0f input tokens (%.0f cached), %.0f output tokens (%.0f reasoning), $%.4f. Total cost $%.4f.",
    t.calls or 0, t.input or 0, t.cached or 0, t.output or 0, t.reasoning or 0, t.cost or 0, sm.total_cost))
  if sm.robustness then add(""); add(table.concat(require("tabula.robustness").markdown(sm.robustness, "Robustness (success rate over all scored trials)"), "\n")) end
  return table.concat(L, "\n") .. "\n"
end

function M.write(dir)
  local meta = json.read_file(dir .. "/run.json")
  -- streamed: one record at a time, never the whole file
  local acc = M.accumulator(meta)
  local errors = records.each_final(dir .. "/trials.jsonl", function(r) acc:add(r) end,
    { skip_bad = true, keys = M.FIELDS })
  local sm = acc:finish(errors)
  fs.write_or_fail(dir .. "/summary.json", json.encode(sm, { pretty = true }) .. "\n")
  fs.write_or_fail(dir .. "/report.md", M.markdown(sm))
  return sm
end

return M
