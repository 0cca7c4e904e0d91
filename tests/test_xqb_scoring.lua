-- XiangqiBench scoring as the official scorer scores (floatai/xiangqibench
-- 0.1.0, scoring.py): the earliest 3 scored trials per (setting, case) by trial
-- index, short cells kept in every row, the official case bootstrap (numpy's
-- default_rng stream, src/stats.c; its own unit test, tests/c/test_stats.c,
-- checks the stream against numpy's published vectors), trials beyond the
-- third in a separate table, and the non-standard marking.
local t = require "tabula.testing"
local json = require "tabula.json"
local fs = require "tabula.fs"
local test, T = t.suite()

local report = require "scenarios.xiangqibench.report"
local stats = require "tabula.c.stats"

-- The trial set of the side-by-side comparison: 10 cases x 5 trials x 2
-- settings, outcomes mixed, two infrastructure errors, short cells (a trial
-- index with "-" was never run). S success, F failure, E error.
local PATTERNS = {
  sighted = "SSFSF FFFFS SSSSS FEFSS FF--- S---- FFFFF SFFFF FSSFF EFF--",
  restricted = "FFFFF SFFFF SSFFS FFFFS F---- SS--- FFSSS FFFFF SFSFS FFFFF",
}

local function trial_set()
  local recs = {}
  for _, s in ipairs({ "sighted", "restricted" }) do
    local ci = 0
    for cells in PATTERNS[s]:gmatch("%S+") do
      ci = ci + 1
      local cid = string.format("c%02d", ci)
      for ti = 1, #cells do
        local ch = cells:sub(ti, ti)
        if ch ~= "-" then
          local status = ({ S = "success", F = "failure", E = "error" })[ch]
          recs[#recs + 1] = { trial_id = string.format("%s/%s/%d", cid, s, ti), case_id = cid, setting = s, trial_index = ti,
            status = status, success = status == "success", reason = ({ S = "win_mate", F = "loss_mate", E = "error" })[ch] }
        end
      end
    end
  end
  -- arrival order is not trial order: latest first
  local rev = {}
  for i = #recs, 1, -1 do rev[#rev + 1] = recs[i] end
  return rev
end

-- The official scorer's figures on this set: scoring.py's rules (earliest 3,
-- short cells kept, seeds 2027 + 100k and 2427 + 100k, 4000 draws,
-- np.quantile linear) evaluated first by an independent Python rendering of
-- numpy's SeedSequence, PCG64, Generator.integers (Lemire), pairwise mean and
-- quantile, and since confirmed with numpy 1.24 itself (Debian's
-- python3-numpy; tests/test_xqb_numpy.lua checks our C against numpy on
-- many more inputs). value, lo, hi per k.
local OFFICIAL = {
  sighted = {
    { at = { 0.4, 0.16666666666666669, 0.6333333333333334 } },
    { at = { 0.5333333333333334, 0.2666666666666667, 0.8 }, hat = { 0.16666666666666666, 0.0, 0.3666666666666667 } },
    { at = { 0.6, 0.3, 0.9 }, hat = { 0.1, 0.0, 0.3 } },
  },
  restricted = {
    { at = { 0.3, 0.1, 0.5333333333333334 } },
    { at = { 0.4333333333333334, 0.16666666666666669, 0.7000000000000001 }, hat = { 0.16666666666666666, 0.0, 0.36750000000000305 } },
    { at = { 0.5, 0.2, 0.8 }, hat = { 0.0, 0.0, 0.0 } },
  },
}

local function g17(x) return x == nil and "nil" or string.format("%.17g", x) end

test("every headline number equals the official scorer's on the same records", function()
  local sm = report.compute(trial_set(), { options = {} })
  t.eq(sm.errors, 2)
  for s, want in pairs(OFFICIAL) do
    local rows = sm.settings[s].pass
    t.eq(#rows, 3, s .. ": rows k = 1..3")
    for k, w in ipairs(want) do
      local hat = w.hat or w.at   -- pass^1 is pass@1
      t.eq({ g17(rows[k].pass_at.value), g17(rows[k].pass_at.lo), g17(rows[k].pass_at.hi) }, { g17(w.at[1]), g17(w.at[2]), g17(w.at[3]) },
        s .. " pass@" .. k)
      t.eq({ g17(rows[k].pass_hat.value), g17(rows[k].pass_hat.lo), g17(rows[k].pass_hat.hi) }, { g17(hat[1]), g17(hat[2]), g17(hat[3]) },
        s .. " pass^" .. k)
      t.eq(rows[k].cases, 10, s .. ": every case stays in row " .. k)
    end
  end
end)

test("the earliest 3 by trial index, whatever the order of arrival", function()
  local recs = trial_set()
  local a = report.compute(recs, { options = {} })
  -- another arrival order: sorted by trial id
  table.sort(recs, function(x, y) return x.trial_id < y.trial_id end)
  local b = report.compute(recs, { options = {} })
  t.eq(json.canonical(a.settings), json.canonical(b.settings))
  -- sighted c02 is FFFFS: its success is the 5th trial, outside the headline
  local cells = {}
  for _, r in ipairs(recs) do
    if r.setting == "sighted" and r.case_id == "c02" then cells[#cells + 1] = { index = r.trial_index, id = r.trial_id,
      success = r.success } end
  end
  local sel = report.select(cells)
  t.eq({ #sel, sel[1].index, sel[2].index, sel[3].index }, { 3, 1, 2, 3 })
  -- c04 is F E F S S: the error is not scored, so the earliest scored are 1, 3, 4
  local h = report.headline({ c04 = { { index = 4, id = "c04/4", success = true }, { index = 1, id = "c04/1", success = false },
    { index = 3, id = "c04/3", success = false }, { index = 5, id = "c04/5", success = true } } })
  t.eq({ h.selected.c04.n, h.selected.c04.c }, { 3, 1 })
end)

test("short cells stay in row k (pass@k = any success, pass^k = 0) and are counted as incomplete", function()
  local sm = report.compute(trial_set(), { options = {} })
  local st = sm.settings.sighted
  t.eq({ st.cases, st.incomplete, st.solved }, { 10, 3, 6 })
  -- one case with one success: row 3 has pass@3 = 1 and pass^3 = 0, no interval (one case)
  local rows = stats.official_pass_rows({ { n = 1, c = 1 } }, 3, 4000, 2027)
  t.eq({ rows[3].pass_at.value, rows[3].pass_hat.value, rows[3].cases }, { 1, 0, 1 })
  t.eq(rows[3].pass_at.lo, nil, "no interval with one case, as the official scorer")
end)

test("trials beyond the earliest 3 are reported in their own labelled table", function()
  local sm = report.compute(trial_set(), { options = {} })
  local all = sm.settings.sighted.all_trials
  t.ok(all, "an all-trials table")
  t.eq(all.trials, 39)
  t.eq(#all.pass, 5, "k up to the most trials of a case")
  local md = report.markdown(sm)
  t.contains(md, "## All scored trials (beyond the earliest 3 per case; not the official table)")
  t.contains(md, "| sighted | 10 | 1 | 40.0% [16.7%, 63.3%] | 40.0% [16.7%, 63.3%] |")
  -- three trials a case: no such table
  local few = {}
  for _, r in ipairs(trial_set()) do if r.trial_index <= 3 then few[#few + 1] = r end end
  local sm3 = report.compute(few, { options = {} })
  t.eq(sm3.settings.sighted.all_trials, nil)
  t.ok(not report.markdown(sm3):find("All scored trials", 1, true))
end)

-- the simulation gap as the paper gives it (issue 43): illegal stops as a share
-- of accepted simulations, defender replies differing from the simulated line
-- as a share of adopted lines, each with its counts
test("the simulation gap is printed as the paper's percentages with their counts", function()
  local recs = trial_set()
  local line = { "h2e2", "h9e9" }
  recs[1].simulations = { { outcome = "complete", length = 2, ply = 0, requested = line } }
  recs[1].moves = { { ply = 1, by = "agent", move = "h2e2" }, { ply = 2, by = "defender", move = "h7e7" } }   -- differs
  recs[2].simulations = { { outcome = "complete", length = 2, ply = 0, requested = line } }
  recs[2].moves = { { ply = 1, by = "agent", move = "h2e2" }, { ply = 2, by = "defender", move = "h9e9" } }   -- as simulated
  recs[3].simulations = { { outcome = "illegal", length = 3, ply = 0, requested = { "a0a1", "i9i8", "a1a9" } },
                          { outcome = "terminal", length = 1, ply = 2, requested = { "b0c2" } } }
  local sm = report.compute(recs, { options = {} })
  t.eq({ sm.simulation.accepted, sm.simulation.illegal_stops, sm.simulation.adopted, sm.simulation.diverged,
         sm.simulation.defender_diverged }, { 4, 0.25, 2, 1, 0.5 })
  local md = report.markdown(sm)
  t.contains(md, "Illegal stops: 25.0% of accepted simulations (1 of 4).")
  t.contains(md, "differed from the assumed one in 50.0% (1 of 2).")
end)

-- one scripted trial (a mate in one) with extra options; returns the run directory
local function run(extra)
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/cases.jsonl", json.canonical({ id = "mate1", fen = "3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1",
    first_winning_move = "b1b9", win_in_plies = 1 }) .. "\n")
  fs.write_atomic(dir .. "/replies.jsonl", json.canonical({ text = "```bash\nmove b1b9\n```" }) .. "\n")
  local args = { "--model", "replay:" .. dir .. "/replies.jsonl", "--cases", dir .. "/cases.jsonl", "--trials", "1",
    "--out", dir .. "/run", "--quiet" }
  for _, a in ipairs(extra or {}) do args[#args + 1] = a end
  t.run_scenario("scenarios/xiangqibench.lua", args)
  return dir .. "/run"
end

test("a run off the standard budgets or defender is marked non-standard, saying which setting", function()
  local out = run({ "--actions", "10", "--no-command", "4" })
  local sm = json.read_file(out .. "/summary.json")
  t.eq(sm.standard, false)
  t.eq(sm.nonstandard, { "--actions 10 (standard 8)", "--no-command 4 (standard 5)", "defender: the built-in search, not Pikafish" })
  local md = fs.read(out .. "/report.md")
  t.contains(md, "Defender: the built-in search, not the paper's Pikafish: numbers are not comparable with the paper's.")
  t.contains(md, "NON-STANDARD run (not comparable with the official leaderboard): --actions 10 (standard 8); --no-command 4 (standard 5); "
    .. "defender: the built-in search, not Pikafish.")
  local html = fs.read(out .. "/report.html")
  t.contains(html, "NON-STANDARD run (not comparable with the official leaderboard): --actions 10 (standard 8)")
  t.contains(html, "not the paper&#39;s Pikafish")
  -- standard budgets: only the defender differs
  sm = json.read_file(run() .. "/summary.json")
  t.eq(sm.nonstandard, { "defender: the built-in search, not Pikafish" })
end)

test("standard(): Pikafish at depth 18, 1 thread, Hash 256, the standard budgets, no fallback on death: standard", function()
  local ok, diffs = report.standard({ options = { defender = "pikafish:/opt/pikafish", ["max-plies"] = 40, actions = 8 }, setup = { defender = { threads = 1, hash = 256 } } })
  t.eq({ ok, #diffs }, { true, 0 })
  ok, diffs = report.standard({ options = { defender = "pikafish:/opt/pikafish", ["defender-depth"] = 12,
    ["defender-fallback"] = true }, setup = { defender = { threads = 1, hash = 64 } } })
  t.eq(ok, false)
  t.eq(diffs, { "--defender-depth 12 (standard 18)", "defender hash 64 MB (standard 256)",
    "--defender-fallback (the rule search answers when the engine dies; standard: the run stops)" })
end)

return T
