-- scenarios/dece/report.lua — the DECE report from a run's records: per-game and overall
-- PWS and Elo with bootstrap intervals, leave-one-game-out agreement, resources and
-- Pareto frontiers (Elo–cost, Elo–tokens) with frontier membership over the bootstrap draws,
-- seat effects, decision counts, failures by kind, reconciliation with the schedule, and
-- matched-study contrasts. Beside them, as the seed paper reports: intervals for mean cost and
-- tokens, token-frontier membership, the mean LOEO τ_b and equal-game pair-order accuracy,
-- split-half Kendall τ_b (mean, 5th–95th percentiles), Γ's bootstrap interval and the number
-- of redrawn bootstrap samples (a draw still incomplete at the redraw limit stops the report).
-- Writes report.md and summary.json; returns the console text.
local S = require "scenarios.dece.scores"
local records = require "tabula.records"
local models = require "tabula.models"
local json = require "tabula.json"
local fs = require "tabula.fs"
local robustness = require "tabula.robustness"

local M = {}

local function pct(x) return x and string.format("%.1f", 100 * x) or "-" end
local function num(x, f) return x and string.format(f or "%.0f", x) or "-" end

local function prices_of(meta, name)
  local p = meta.participants[name]
  local pr = p and p.manifest.prices
  if pr == nil or pr == json.null then return nil end
  return pr
end

-- resources(matches, meta) -> per game, per name: mean cost and tokens per appearance
local function appearance_costs(ms, meta)
  local r = {}
  for _, m in ipairs(ms) do
    for s, nme in ipairs(m.seats) do
      local u = (m.usage or {})[s] or {}
      local e = r[nme] or { cost = 0, tokens = 0, input = 0, cached = 0, output = 0, reasoning = 0, n = 0 }
      e.cost = e.cost + models.cost(prices_of(meta, nme), u)
      e.tokens = e.tokens + (u.input or 0) + (u.output or 0)
      for _, k in ipairs({ "input", "cached", "output", "reasoning" }) do e[k] = e[k] + (u[k] or 0) end
      e.n = e.n + 1
      r[nme] = e
    end
  end
  for _, e in pairs(r) do
    for _, k in ipairs({ "cost", "tokens", "input", "cached", "output", "reasoning" }) do e[k] = e[k] / e.n end
  end
  return r
end

local function decision_stats(ms)
  local Ds, turns = {}, {}
  for _, m in ipairs(ms) do
    Ds[#Ds + 1] = m.D
    local t = 0
    for _, v in ipairs(m.turns or {}) do t = t + v end
    turns[#turns + 1] = t
  end
  local d, tt = S.sorted(Ds), S.sorted(turns)
  return { median = S.quantile(d, 0.5), q1 = S.quantile(d, 0.25), q3 = S.quantile(d, 0.75),
           turns_median = S.quantile(tt, 0.5), matches = #ms }
end

-- robustness_of(matches, sch, names) -> the robustness appendix (tabula.robustness) of the
-- overall PWS: a match is a unit, its game the stratum; matches that share randomness are a
-- cluster: a scenario's matches (one setup seed: matched studies, baseline cohorts), else a
-- balanced schedule's seat-rotation block (the k matches of one permutation in a game)
local SEAT_DRAWS = 400   -- whole-match bootstrap draws of the seat term (a fit each)

local function robustness_of(matches, sch, names)
  local block, seen = {}, {}
  for _, m in ipairs(sch.matches) do
    seen[m.game] = (seen[m.game] or 0) + 1
    block[m.id] = m.scenario or string.format("%s-block%d", m.game, (seen[m.game] - 1) // #names + 1)
  end
  local units = {}
  for i, m in ipairs(matches) do
    local u = S.pws(m.ranks)
    local contrib = { ["@seat1"] = { u[1], 1 } }
    for s, nme in ipairs(m.seats) do
      local e = contrib[nme] or { 0, 0 }
      e[1], e[2] = e[1] + u[s], e[2] + 1
      contrib[nme] = e
    end
    units[i] = { id = m.match_id, cluster = block[m.match_id] or m.match_id, stratum = m.game, contrib = contrib }
  end
  -- null arms (--null-arm NAME: NAME+null is NAME entered again under other random streams)
  local null_pairs, isname = {}, {}
  for _, n in ipairs(names) do isname[n] = true end
  for _, n in ipairs(names) do
    local base = n:match("^(.*)%+null$")
    if base and isname[base] then null_pairs[#null_pairs + 1] = { a = base, b = n } end
  end
  return robustness.analyse({ units = units, names = names, unit = "matches", null_pairs = null_pairs,
    cluster = sch.kind == "balanced" and "seat-rotation blocks" or "scenarios (one setup seed each)",
    covariates = { { key = "@seat1", label = "First-seat PWS (seat effect; mean over games)", null = 0.5 } } })
end

-- compute(dir) -> the scores of a run directory. The last result is kept while the
-- run's files stay the same: the end of a run writes report.md and then report.html,
-- and both read it (the bootstraps are most of a report's time).
local last, compute
function M.compute(dir)
  local key = { dir }
  for _, f in ipairs({ "run.json", "schedule.json", "matches.jsonl" }) do key[#key + 1] = fs.sha256_file(dir .. "/" .. f) or "-" end
  key = table.concat(key, "\0")
  if last and last.key == key then return last.result end
  last = { key = key, result = compute(dir) }
  return last.result
end

compute = function(dir)
  local meta = json.read_file(dir .. "/run.json")
  local sch = json.read_file(dir .. "/schedule.json")
  local recs = records.read(dir .. "/matches.jsonl", { skip_bad = true })
  local by_id = {}
  for _, r in ipairs(recs) do by_id[r.match_id] = r end
  local matches, missing = {}, {}
  for _, m in ipairs(sch.matches) do
    if by_id[m.id] then matches[#matches + 1] = by_id[m.id] else missing[#missing + 1] = m.id end
  end
  local names = meta.order
  local games, gnames = S.by_game(matches)
  local draws = (meta.bootstrap or {}).draws or S.BOOTSTRAP_DRAWS
  local out = { games = {}, overall = {}, missing = missing, matches = #matches, scheduled = #sch.matches,
                names = names, game_names = gnames }
  local cost_by_game = {}
  for _, g in ipairs(gnames) do cost_by_game[g] = appearance_costs(games[g], meta) end
  -- mean cost and tokens per appearance of a bootstrap sample
  local function per_appearance(value)
    return function(sample, nme)
      local c, n = 0, 0
      for _, m in ipairs(sample) do
        for s, x in ipairs(m.seats) do
          if x == nme then c = c + value(nme, (m.usage or {})[s] or {}); n = n + 1 end
        end
      end
      return n > 0 and c / n or 0
    end
  end
  local boot, why = S.bootstrap(matches, names, { draws = draws, seed = (meta.bootstrap or {}).seed, extras = {
    cost = per_appearance(function(nme, u) return models.cost(prices_of(meta, nme), u) end),
    tokens = per_appearance(function(_, u) return (u.input or 0) + (u.output or 0) end) } })
  if not boot then error("DECE report: " .. why, 0) end
  out.bootstrap = { draws = draws, seed = (meta.bootstrap or {}).seed or S.BOOTSTRAP_SEED, redrawn = {} }
  for _, g in ipairs(gnames) do out.bootstrap.redrawn[g] = boot.games[g].redrawn end
  -- engine anchors (--pin NAME=ELO, issue 48): in each game where NAME plays, every draw and the
  -- point estimate are shifted so that NAME sits at ELO; the scale of different runs is then one
  local pins = {}
  for _, spec in ipairs(((meta.options or {}).pin) or {}) do
    local nme, v = tostring(spec):match("^(.+)=(%-?%d+%.?%d*)$")
    if nme then pins[#pins + 1] = { name = nme, elo = tonumber(v) } end
  end
  out.pins = #pins > 0 and pins or nil
  local per_game_pws = {}
  for _, g in ipairs(gnames) do
    local ms = games[g]
    local present = {}
    for _, m in ipairs(ms) do for _, nme in ipairs(m.seats) do present[nme] = true end end
    local here = {}
    for _, nme in ipairs(names) do if present[nme] then here[#here + 1] = nme end end
    local pws, cnt = S.pws_by(ms)
    local counts = {}
    for _, m in ipairs(ms) do counts[#m.ranks] = true end
    local mixed = next(counts, next(counts)) ~= nil     -- several player counts: pair weight 1/(|N_g|(n−1))
    local elo = S.elo_fit(ms, here, { mixed = mixed })
    local seat = S.seat_effects(ms, here)
    local b = boot.games[g]
    local pinned
    for _, pin in ipairs(pins) do
      if not pinned and elo[pin.name] then
        pinned = pin
        local off = pin.elo - elo[pin.name]
        for _, nme in ipairs(here) do elo[nme] = elo[nme] + off end
        for d = 1, #(b.elo[pin.name] or {}) do
          local o = pin.elo - b.elo[pin.name][d]
          for _, nme in ipairs(here) do b.elo[nme][d] = b.elo[nme][d] + o end
        end
      end
    end
    -- the seat term's intervals: a whole-match bootstrap of the contextual Bradley–Terry fit
    local seat_draws = S.seat_bootstrap(ms, here, SEAT_DRAWS, S.BOOTSTRAP_SEED + 17)
    local seat_ci = {}
    for s2 = 1, #seat do seat_ci[s2] = { S.interval(seat_draws[s2]) } end
    local rows = {}
    local costs = cost_by_game[g]
    local pts_cost, pts_tok = {}, {}
    for _, nme in ipairs(here) do
      local plo, phi = S.interval(b.pws[nme])
      local elo_lo, elo_hi = S.interval(b.elo[nme])
      local cost_lo, cost_hi = S.interval(b.extras.cost[nme])
      local tok_lo, tok_hi = S.interval(b.extras.tokens[nme])
      rows[nme] = { pws = pws[nme], pws_lo = plo, pws_hi = phi, elo = elo[nme], elo_lo = elo_lo, elo_hi = elo_hi,
                    appearances = cnt[nme], cost = costs[nme].cost, tokens = costs[nme].tokens, usage = costs[nme],
                    cost_lo = cost_lo, cost_hi = cost_hi, tokens_lo = tok_lo, tokens_hi = tok_hi }
      pts_cost[#pts_cost + 1] = { name = nme, elo = elo[nme], cost = costs[nme].cost }
      pts_tok[#pts_tok + 1] = { name = nme, elo = elo[nme], cost = costs[nme].tokens }
    end
    -- frontier membership over the bootstrap draws (Elo and mean cost, or mean tokens, of the
    -- same draw)
    for key, field in pairs({ cost = "frontier_frequency", tokens = "token_frontier_frequency" }) do
      local member = {}
      for _, nme in ipairs(here) do member[nme] = 0 end
      for d = 1, draws do
        local pts = {}
        for _, nme in ipairs(here) do pts[#pts + 1] = { name = nme, elo = b.elo[nme][d], cost = b.extras[key][nme][d] } end
        for _, nme in ipairs(S.frontier(pts)) do member[nme] = member[nme] + 1 end
      end
      for _, nme in ipairs(here) do rows[nme][field] = member[nme] / draws end
    end
    per_game_pws[g] = pws
    local fails = {}
    for _, m in ipairs(ms) do
      for _, f in ipairs(m.failures or {}) do
        local nme = m.seats[f.seat]
        fails[nme] = fails[nme] or {}
        fails[nme][f.kind] = (fails[nme][f.kind] or 0) + 1
      end
    end
    local ex, ey = {}, {}
    for _, nme in ipairs(here) do ex[#ex + 1] = elo[nme]; ey[#ey + 1] = pws[nme] end
    local seat_decisions = {}
    for _, m in ipairs(ms) do
      for s, d in ipairs(m.decisions or {}) do seat_decisions[s] = (seat_decisions[s] or 0) + d / #ms end
    end
    -- the smallest gap between adjacent Elo places, which the seat term is balanced against
    local sorted = {}
    for _, nme in ipairs(here) do sorted[#sorted + 1] = elo[nme] end
    table.sort(sorted, function(x, y) return x > y end)
    local gap
    for i = 1, #sorted - 1 do if not gap or sorted[i] - sorted[i + 1] < gap then gap = sorted[i] - sorted[i + 1] end end
    out.games[g] = { rows = rows, names = here, seat_effects = seat, seat_intervals = seat_ci, seat_draws = SEAT_DRAWS,
      smallest_elo_gap = gap, seat_larger_than_gap = (gap and seat[1] and math.abs(seat[1]) > gap) or nil, pinned = pinned,
      decisions = decision_stats(ms), mixed = mixed,
      seats = not mixed and ms[1] and #ms[1].ranks or nil,
      seat_decisions = seat_decisions, elo_pws_spearman = S.spearman(ex, ey),
      split_half = #ms >= 4 and S.split_half(ms, here, { splits = 2000 }) or nil,
      bootstrap_redrawn = b.redrawn,
      frontier_cost = S.frontier(pts_cost), frontier_tokens = S.frontier(pts_tok),
      staircase_cost = S.staircase(pts_cost), staircase_tokens = S.staircase(pts_tok), failures = fails, matches = #ms }
  end
  for _, nme in ipairs(names) do
    local s, c = 0, 0
    for _, g in ipairs(gnames) do if per_game_pws[g][nme] then s = s + per_game_pws[g][nme]; c = c + 1 end end
    local lo, hi
    if boot.overall[nme] and #boot.overall[nme] > 0 then lo, hi = S.interval(boot.overall[nme]) end
    out.overall[nme] = { pws = c > 0 and s / c or nil, lo = lo, hi = hi, games = c }
  end
  out.loeo = S.loeo(per_game_pws, names)
  out.robustness = robustness_of(matches, sch, names)
  -- the means over held-out games (equal-game) and over the games' split-half τ_b
  local function mean_of(field, list)
    local s, c = 0, 0
    for _, x in pairs(list) do if x and x[field] then s = s + x[field]; c = c + 1 end end
    return c > 0 and s / c or nil
  end
  out.loeo_mean = { tau = mean_of("tau", out.loeo), accuracy = mean_of("accuracy", out.loeo) }
  local halves = {}
  for _, g in ipairs(gnames) do halves[g] = out.games[g].split_half end
  out.split_half_mean = mean_of("mean", halves)
  -- group contrast Γ for every two configurations of the same model
  local ann = {}
  for _, g in ipairs(gnames) do
    local ok, G = pcall(require, "games." .. g)
    if ok then ann[g] = G.annotations end
  end
  out.gamma = {}
  for i = 1, #names - 1 do
    for j = i + 1, #names do
      local a, b = meta.participants[names[i]], meta.participants[names[j]]
      if a and b and a.manifest.model and a.manifest.model == b.manifest.model then
        local x = S.gamma(per_game_pws, names[i], names[j], ann)
        if x then
          x.a, x.b = names[i], names[j]
          x.boot_lo, x.boot_hi = S.gamma_interval(boot, names[i], names[j], ann)
          out.gamma[#out.gamma + 1] = x
        end
      end
    end
  end
  if (sch.kind == "matched" or sch.kind == "baseline") and #names >= 2 then
    local focal = sch.kind == "baseline" and sch.baselines or (meta.options or {}).matched or {}
    local study = S.matched_study(matches, focal, { draws = (meta.matched or {}).draws })
    if study then
      out.matched, out.interaction = study.pairs, study.interaction
      out.matched_design = { draws = study.draws, seed = study.seed, family = study.family, level_adj = study.level_adj, games = study.games,
                             kind = sch.kind }
    end
  end
  return out
end

function M.write(dir)
  local r = M.compute(dir)
  local L = {}
  local function add(...) L[#L + 1] = string.format(...) end
  add("# DECE report: %s", dir)
  add("")
  add("%d of %d scheduled matches finished%s.", r.matches, r.scheduled,
    #r.missing > 0 and (" — missing: " .. table.concat(r.missing, ", ")) or "")
  add("")
  add("## Overall PWS (equal-weight mean over games, %%; 95%% bootstrap interval)")
  add("")
  add("| participant | PWS | 95%% interval | games |")
  add("|---|---|---|---|")
  local order = {}
  for _, nme in ipairs(r.names) do order[#order + 1] = nme end
  table.sort(order, function(a, b) return (r.overall[a].pws or -1) > (r.overall[b].pws or -1) end)
  for _, nme in ipairs(order) do
    local o = r.overall[nme]
    add("| %s | %s | [%s, %s] | %d |", nme, pct(o.pws), pct(o.lo), pct(o.hi), o.games)
  end
  local console = { table.unpack(L, 3) }
  for _, g in ipairs(r.game_names) do
    local gr = r.games[g]
    add("")
    add("## %s (%d matches)", g, gr.matches)
    add("")
    add("| participant | PWS %% | 95%% interval | Elo | 95%% interval | appearances | cost $/appearance | 95%% interval | tokens/appearance | 95%% interval | on cost frontier (bootstrap) | on token frontier (bootstrap) |")
    add("|---|---|---|---|---|---|---|---|---|---|---|---|")
    local names = { table.unpack(gr.names) }
    table.sort(names, function(a, b) return gr.rows[a].elo > gr.rows[b].elo end)
    for _, nme in ipairs(names) do
      local x = gr.rows[nme]
      add("| %s | %s | [%s, %s] | %s | [%s, %s] | %d | %.4f | [%s, %s] | %.0f | [%s, %s] | %s | %s |", nme, pct(x.pws), pct(x.pws_lo), pct(x.pws_hi),
        num(x.elo), num(x.elo_lo), num(x.elo_hi), x.appearances, x.cost, num(x.cost_lo, "%.4f"), num(x.cost_hi, "%.4f"),
        x.tokens, num(x.tokens_lo), num(x.tokens_hi), pct(x.frontier_frequency), pct(x.token_frontier_frequency))
    end
    add("")
    add("Elo–cost frontier: %s. Elo–token frontier: %s.", table.concat(gr.frontier_cost, ", "), table.concat(gr.frontier_tokens, ", "))
    local st = {}
    for _, s in ipairs(gr.staircase_cost) do st[#st + 1] = string.format("B ≥ $%.4f: %.0f (%s)", s.cost, s.elo, s.name) end
    add("Staircase V(B) (best Elo within a mean cost per appearance B): %s.", table.concat(st, "; "))
    local se = {}
    local function signed(v) return string.format("%+d", math.floor((v or 0) + 0.5)) end
    for s, v in ipairs(gr.seat_effects) do
      local ci = (gr.seat_intervals or {})[s] or {}
      se[#se + 1] = "seat " .. s .. " " .. signed(v) .. (ci[1] and string.format(" [%s, %s]", signed(ci[1]), signed(ci[2])) or "")
    end
    add("Seat effects (contextual Bradley–Terry: a participant term and a seat term, Elo points, centred; 95%% intervals from %d whole-match bootstrap draws): %s; first-seat advantage %s%s.",
      gr.seat_draws or 0, table.concat(se, ", "), signed(gr.seat_effects[1]),
      gr.seat_larger_than_gap and string.format(" (larger than the smallest adjacent Elo gap, %.0f: the seat rotation matters here)", gr.smallest_elo_gap) or "")
    if gr.pinned then add("Elo scale anchored: %s pinned at %g in every draw (--pin).", gr.pinned.name, gr.pinned.elo) end
    local d = gr.decisions
    -- D per seat: D/3 in the reference study's three-player matches, D/n for one other count,
    -- the study's D/3 when the game was played at several counts
    local per = gr.seats or 3
    add("Decisions per match D: median %s (IQR %s–%s), D/%d %s; engine turns median %s.", num(d.median, "%.1f"), num(d.q1, "%.1f"),
      num(d.q3, "%.1f"), per, num(d.median and d.median / per, "%.1f"), num(d.turns_median, "%.1f"))
    local sd = {}
    for s, v in ipairs(gr.seat_decisions) do sd[#sd + 1] = string.format("seat %d %.1f", s, v) end
    add("Mean decisions per match by seat: %s.", table.concat(sd, ", "))
    local sh = gr.split_half
    add("Elo–PWS Spearman: %s. Split-half reliability (Kendall τ_b between the halves' PWS over %s random half splits, every configuration in both halves): %s.",
      num(gr.elo_pws_spearman, "%.3f"), sh and tostring(sh.splits) or "2000",
      sh and string.format("mean %.3f, 5th–95th percentile %.3f–%.3f (%d splits redrawn)", sh.mean, sh.p05, sh.p95, sh.redrawn) or "-")
    add("Bootstrap samples redrawn because they left out a configuration: %d.", gr.bootstrap_redrawn or 0)
    if gr.mixed then add("Several player counts in this game: Elo pair weight 1/(|N_g|(n−1)).") end
    local fl = {}
    for nme, kinds in pairs(gr.failures) do
      for k, c in pairs(kinds) do fl[#fl + 1] = string.format("%s %s %d", nme, k, c) end
    end
    table.sort(fl)
    add("Failures by kind: %s.", #fl > 0 and table.concat(fl, ", ") or "none")
    -- console: the per-game PWS/Elo table
    console[#console + 1] = ""
    console[#console + 1] = string.format("%s (%d matches): participant, PWS %%, Elo [95%% interval]", g, gr.matches)
    for _, nme in ipairs(names) do
      local x = gr.rows[nme]
      console[#console + 1] = string.format("  %-16s %5s  %5s [%s, %s]", nme, pct(x.pws), num(x.elo), num(x.elo_lo), num(x.elo_hi))
    end
  end
  add("")
  add("## Leave-one-game-out agreement (PWS)")
  add("")
  add("| held-out game | Kendall τ_b | pair-order accuracy | participants |")
  add("|---|---|---|---|")
  for _, g in ipairs(r.game_names) do
    local x = r.loeo[g]
    if x then add("| %s | %s | %s | %d |", g, num(x.tau, "%.3f"), num(x.accuracy, "%.3f"), x.n) end
  end
  add("")
  add("Mean LOEO τ_b %s; equal-game pair-order accuracy %s%%. Mean split-half τ_b over games %s.", num(r.loeo_mean.tau, "%.3f"),
    pct(r.loeo_mean.accuracy), num(r.split_half_mean, "%.3f"))
  if #r.gamma > 0 then
    add("")
    add("## Group contrast Γ (public-information spatial games minus the others, δ = 100 ΔPWS; 95%% bootstrap interval; game-deletion range)")
    add("")
    for _, x in ipairs(r.gamma) do
      add("- %s − %s: Γ = %.1f, 95%% interval [%s, %s], game-deletion range [%.1f, %.1f]", x.a, x.b, x.gamma,
        num(x.boot_lo, "%.1f"), num(x.boot_hi, "%.1f"), x.lo, x.hi)
    end
  end
  if r.matched then
    local md = r.matched_design
    add("")
    add("## %s (Δ̂_g = mean over game g's scenarios of Y_A − Y_B, Y = (3 − rank)/2; Δ̂ = mean over games)",
      md.kind == "baseline" and "Baseline cohorts: the baselines in the same matches" or "Matched study")
    add("")
    add("Pointwise 95%% intervals from %d scenario-cluster bootstrap draws (seed %d; scenarios resampled within each game, game means averaged); in braces, the Bonferroni sensitivity at %.2f%% for a family of %d per-game contrasts.",
      md.draws, md.seed, 100 * md.level_adj, md.family)
    add("")
    local function line(label, x)
      local games = {}
      for _, g in ipairs(md.games) do
        local y = x.games[g]
        if y then games[#games + 1] = string.format("%s %.3f [%s, %s] {%s, %s}", g, y.value, num(y.lo, "%.3f"), num(y.hi, "%.3f"), num(y.lo_adj, "%.3f"), num(y.hi_adj, "%.3f")) end
      end
      add("- %s: %.3f [%s, %s] {%s, %s}; by game: %s", label, x.value, num(x.lo, "%.3f"), num(x.hi, "%.3f"),
        num(x.lo_adj, "%.3f"), num(x.hi_adj, "%.3f"), table.concat(games, "; "))
    end
    for _, x in ipairs(r.matched) do line(string.format("Δ̂ %s − %s (%d scenarios)", x.a, x.b, x.scenarios), x) end
    if r.interaction then line(string.format("interaction Î = Δ̂(%s) − Δ̂(%s)", r.interaction.a, r.interaction.b), r.interaction) end
  end
  add("")
  for _, line in ipairs(robustness.markdown(r.robustness, "Robustness (overall PWS)")) do add("%s", line) end
  local text = table.concat(L, "\n") .. "\n"
  fs.write_or_fail(dir .. "/report.md", text)
  fs.write_or_fail(dir .. "/summary.json", json.encode(r, { pretty = true, lenient = true }) .. "\n")
  return table.concat(console, "\n") .. "\n"
end

return M
