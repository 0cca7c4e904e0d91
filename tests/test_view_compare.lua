-- compare.html (tabula.view.compare) for a family of comparisons (issue 48): every
-- pair under --all-pairs with its own two runs, the raw and adjusted McNemar p-values
-- with the method and the family size, the simultaneous intervals beside the 95%
-- ones, the noise floor of a re-run (its flipped trials, their share with its
-- interval, McNemar p) and each comparison marked when it is not above the floor;
-- one file, no address outside it, run names escaped.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local compare = require "tabula.compare"
local metrics = require "tabula.metrics"
local html = require "tabula.view.html"
local page_of = require "tabula.view.compare"
local test, T = t.suite()

local tmpdir = t.tmpdir

local fake_run = require("tests.compare_runs").fake_run   -- a made-up run: trial i of n succeeds when ok(i)

-- arm(x, y): 24 trials differing from the baseline (success on 1..12) in x of its
-- successes (1..x fail) and y of its failures (13..12+y succeed)
local function arm(x, y)
  return fake_run(24, function(i) return (i <= 12 and i > x) or (i > 12 and i <= 12 + y) end)
end

local function baseline() return fake_run(24, function(i) return i <= 12 end) end

-- compare RUN... OPTIONS through the binary; -> what it wrote to stderr, then rc=N
local function command(dirs, options)
  local q = {}
  for i, d in ipairs(dirs) do q[i] = t.quote(d) end
  return t.sh("(" .. t.quote(t.tabula_bin()) .. " compare " .. table.concat(q, " ") .. " " .. options .. " >/dev/null)")
end

-- sections(page) -> { [k] = the HTML of comparison k (from its heading to the next one) }
local function sections(page)
  local out, starts = {}, {}
  for pos, k in page:gmatch('()<h2 id="cmp%-(%d+)">') do starts[#starts + 1] = { pos = pos, k = tonumber(k) } end
  for i, s in ipairs(starts) do
    out[s.k] = page:sub(s.pos, (starts[i + 1] and starts[i + 1].pos or #page + 1) - 1)
  end
  return out, #starts
end

-- row(page, k) -> the summary table's row of comparison k
local function row(page, k)
  return page:match('<tr id="row%-' .. k .. '">(.-)</tr>') or ""
end

local function count(s, piece)
  local n, i = 0, 1
  while true do
    local a, b = s:find(piece, i, true)
    if not a then return n end
    n, i = n + 1, b + 1
  end
end

local function basename(p) return p:match("([^/]+)/*$") end

test("--all-pairs: the page shows every pair of the family, each with its own two runs", function()
  local dirs = { baseline(), arm(0, 6), arm(0, 7), arm(1, 8) }
  local path = tmpdir() .. "/c.html"
  local out = command(dirs, "--all-pairs --html " .. t.quote(path))
  t.contains(out, "rc=0")
  t.ok(not out:find("baseline only", 1, true), "no note that the page leaves comparisons out: " .. out)
  local page = fs.read(path)
  local sec, n = sections(page)
  t.eq(n, 6, "C(4,2) comparisons on the page")
  local want = { { 1, 2 }, { 1, 3 }, { 1, 4 }, { 2, 3 }, { 2, 4 }, { 3, 4 } }
  for k, ab in ipairs(want) do
    local a, b = dirs[ab[1]], dirs[ab[2]]
    t.contains(sec[k], string.format('<h2 id="cmp-%d">%s vs %s</h2>', k, html.esc(a), html.esc(b)), "heading " .. k)
    t.contains(row(page, k), "<td>" .. html.esc(a) .. "</td><td>" .. html.esc(b) .. "</td>", "summary row " .. k)
  end
  t.eq(count(page, '<tr id="row-'), 6, "one summary row per comparison")
  t.contains(page, "Family: 6 comparisons (every pair of the 4 runs); McNemar p-values adjusted by Holm&#39;s step-down method.")
  -- run 2 (success 1..18) vs run 4 (2..20): c01 only in run 2, c19 and c20 only in run 4;
  -- each flipped trial linked to its view in those two runs' pages, not the baseline's
  local s = sec[5]
  t.contains(s, "Exact McNemar test: 1 succeeded only in A, 2 only in B, p = 1")
  t.contains(s, "<td>A success</td><td>17</td><td>1</td>")
  t.contains(s, "Success in A, failure in B (1)")
  t.contains(s, "Failure in A, success in B (2)")
  for _, id in ipairs({ "c01/1", "c19/1", "c20/1" }) do
    for _, d in ipairs({ dirs[2], dirs[4] }) do
      t.contains(s, basename(d) .. "/report.html#trial=" .. id .. '"', "a link to " .. id .. " in " .. d)
    end
    t.ok(not s:find(basename(dirs[1]) .. "/report.html#trial=" .. id, 1, true), "no link into the baseline's page")
  end
  -- run 3 (1..19) vs run 4 (2..20): the last pair, the 2×2 of its own runs
  t.contains(sec[6], "<td>A success</td><td>18</td><td>1</td>")
  t.contains(sec[6], "<td>A failure</td><td>1</td><td>4</td>")
end)

test("the adjusted p-values with their method and family size; simultaneous intervals beside the 95% ones", function()
  local dirs = { baseline(), arm(0, 6), arm(0, 7), arm(1, 8), arm(2, 4) }
  local base = tmpdir()
  local res = compare.runs(dirs, { draws = 500, seed = 3 })
  local page = page_of.build(res, dirs, base)
  t.contains(page, "Family: 4 comparisons (each run against the baseline " .. html.esc(dirs[1])
    .. "); McNemar p-values adjusted by Holm&#39;s step-down method. Simultaneous intervals of the differences:"
    .. " Bonferroni, each at the 98.75% level (exact paired-bootstrap percentiles), all 4 together at 95%.")
  t.contains(page, "<th>McNemar p</th><th>Holm p</th>")
  t.contains(page, "<th>B − A [95% interval]</th><th>simultaneous 98.75%</th>")
  -- raw and Holm-adjusted (by hand in tests/test_compare.lua): B 0.03125 -> 0.09375,
  -- C 0.015625 -> 0.0625, D 0.0390625 -> 0.09375, E 0.6875 -> 0.6875
  local raw = { "0.03125", "0.01562", "0.03906", "0.6875" }
  local holm = { "0.09375", "0.0625", "0.09375", "0.6875" }
  local sec = sections(page)
  for k, c in ipairs(res.comparisons) do
    local r = row(page, k)
    t.contains(r, '<td data-v="' .. c.mcnemar.p .. '">' .. raw[k] .. "</td>", "raw p in row " .. k)
    t.contains(r, '<td data-v="' .. c.mcnemar.p_adjusted .. '">' .. holm[k] .. "</td>", "Holm p in row " .. k)
    t.contains(sec[k], "Holm-adjusted over the 4 comparisons, p = " .. holm[k] .. ".")
    -- the simultaneous interval beside the 95% one, in the table and in the comparison
    local lo, hi = compare.exact_interval(c.mcnemar.b_only, c.mcnemar.a_only, c.n, 1 - 0.05 / 4)
    local simul = string.format("[%s, %s]", html.pct(lo), html.pct(hi))
    t.contains(r, "<td>" .. html.interval(c.diff) .. "</td><td>" .. simul .. "</td>", "intervals in row " .. k)
    t.contains(sec[k], "<td>B − A, simultaneous</td><td>" .. simul .. "</td><td>Bonferroni over 4, 98.75% each</td>")
  end
  -- Bonferroni: p times 4, E capped at 1
  local bres = compare.runs(dirs, { draws = 500, seed = 3, adjust = "bonferroni" })
  local bpage = page_of.build(bres, dirs, base)
  t.contains(bpage, "McNemar p-values adjusted by Bonferroni&#39;s method.")
  t.contains(bpage, "<th>McNemar p</th><th>Bonferroni p</th>")
  t.contains(row(bpage, 4), '<td data-v="1">1</td>')
  t.contains(row(bpage, 1), '<td data-v="0.125">0.125</td>')
  -- none: the raw p-values only, no simultaneous intervals
  local npage = page_of.build(compare.runs(dirs, { draws = 500, seed = 3, adjust = "none" }), dirs, base)
  t.contains(npage, "McNemar p-values not adjusted (--adjust none).")
  t.contains(npage, "<th>unadjusted p</th>")
  t.ok(not npage:find("simultaneous", 1, true), "no simultaneous interval without an adjustment")
  -- two runs: a family of one, nothing to adjust, no summary
  local one = page_of.build(compare.runs({ dirs[1], dirs[2] }, { draws = 200 }), { dirs[1], dirs[2] }, base)
  t.contains(one, "p = 0.03125.</p>")
  t.ok(not one:find("adjusted", 1, true) and not one:find('id="summary"', 1, true), "a single comparison is not a family")
end)

test("the noise floor panel: the re-run's flips, share and McNemar p; a comparison not above it is marked", function()
  -- the run: success on 1..10 of 20; its re-run flips c03 (to failure) and c17 (to success), c20 an error
  local text = fake_run(20, function(i) return i <= 10 end)
  local rerun = fake_run(20, function(i) return (i <= 10 and i ~= 3) or i == 17 end,
    { { trial_id = "c20/1", status = "error" } })
  -- tools: 6 discordant of 20 (not above the floor); mcp: 14 (above); mcp's name needs escaping
  local tools = fake_run(20, function(i) return (i <= 10 and i ~= 1 and i ~= 2 and i ~= 4) or (i >= 11 and i <= 13) end)
  local mcp = fake_run(20, function(i) return (i > 5 and i <= 10) or (i >= 11 and i <= 19) end, nil, tmpdir() .. "/mcp <b>&x")
  local path = tmpdir() .. "/c.html"
  local out = command({ text, tools, mcp }, "--floor " .. t.quote(text .. "=" .. rerun) .. " --draws 500 --html " .. t.quote(path))
  t.contains(out, "rc=0")
  local page = fs.read(path)
  local floor = page:match('<div id="floor".-<h2 id="cmp%-1">')
  t.ok(floor, "a noise-floor section")
  t.contains(floor, "<h2>Noise floor: " .. html.esc(text) .. " vs " .. html.esc(rerun) .. " (a re-run of the same thing)</h2>")
  t.contains(floor, "<td>paired trials</td><td>19 (1 only in the run, 0 only in the re-run, left out)</td>")
  t.contains(floor, "<td>flipped</td><td>2: 1 succeeded only in the run, 1 only in the re-run</td>")
  local lo, hi = metrics.wilson(2, 19)
  t.contains(floor, string.format("<td>share of paired trials</td><td>10.5%% [%s, %s] (95%% Wilson interval)</td>", html.pct(lo), html.pct(hi)))
  t.contains(floor, "<td>exact McNemar p</td><td>1</td>")
  -- the flipped trials, each linked to its view in the run and in the re-run (not a compared run)
  t.contains(floor, "Success in the run, failure in the re-run (1)</h3>")
  t.contains(floor, "Failure in the run, success in the re-run (1)</h3>")
  local to_failure = floor:match('<ul class="flipped to_failure">(.-)</ul>')
  local to_success = floor:match('<ul class="flipped to_success">(.-)</ul>')
  t.eq(count(to_failure, "<li>"), 1)
  t.eq(count(to_success, "<li>"), 1)
  for list, id in pairs({ [to_failure] = "c03/1", [to_success] = "c17/1" }) do
    t.contains(list, "<li>" .. id .. ": ")
    t.contains(list, basename(text) .. "/report.html#trial=" .. id .. '"')
    t.contains(list, basename(rerun) .. "/report.html#trial=" .. id .. '"')
  end
  -- tools (6 of 20 against 2 of 19: Fisher p = 0.1337) is marked, mcp (14 of 20) is not
  local BADGE = '<span class="badge not-above">not above the noise floor</span>'
  local sec = sections(page)
  t.contains(sec[1], "Discordant: 6 of 20 paired trials (30.0%); the noise floor's: 10.5% (2 of 19); one-sided Fisher p = 0.1337. " .. BADGE)
  t.contains(sec[2], "Discordant: 14 of 20 paired trials (70.0%); the noise floor's: 10.5% (2 of 19); one-sided Fisher p = 0.0001837: above the floor.")
  t.ok(not sec[2]:find("not above", 1, true), "mcp is above the floor")
  t.contains(page, "<th>vs noise floor (Fisher p)</th>")
  t.contains(row(page, 1), "<td>" .. BADGE .. " (p = 0.1337)</td>")
  t.contains(row(page, 2), "<td>above (p = 0.0001837)</td>")
  t.eq(count(page, BADGE), 2, "marked once in the summary, once in its comparison")
  -- the family of two with its floor; the name with markup shown as text
  t.contains(page, "Family: 2 comparisons (each run against the baseline " .. html.esc(text) .. ")")
  t.contains(sec[2], '<h2 id="cmp-2">' .. html.esc(text) .. " vs " .. html.esc(mcp) .. "</h2>")
  t.contains(page, "mcp &lt;b&gt;&amp;x")
  t.ok(not page:find("mcp <b>", 1, true), "a run's name is escaped")
  -- one file: the one script of report.html, no address outside the page
  t.eq(count(page, "<script"), 1)
  t.ok(not page:find("https?://"), "no http(s) address")
end)

return T
