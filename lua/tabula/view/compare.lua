-- tabula.view.compare — compare.html: the result of tabula.compare as a page
-- (same look and rules as report.html: one file, nothing loaded, text
-- escaped). It shows the family of comparisons (each run against the baseline,
-- or every pair with --all-pairs): a summary table with the raw and adjusted
-- McNemar p-values and the simultaneous intervals beside the 95% ones; the
-- noise floor of a re-run (--floor), its flipped trials and each comparison
-- marked when its discordance is not above the floor's; then per comparison
-- the success rates and their paired difference with intervals, the 2×2 paired
-- outcomes, the trials that flipped each way and every paired trial, each
-- linked to its trial view in both runs' report.html. (tabula.compare's
-- header says how each figure is computed; the wording follows its Markdown.)
local html = require "tabula.view.html"
local plot = require "tabula.view.plot"
local view = require "tabula.view"
local compare = require "tabula.compare"
local host = require "tabula.c.host"
local fs = require "tabula.fs"

local M = {}

local function abs(p)
  if p:sub(1, 1) == "/" then return p end
  return (host.getenv("PWD") or ".") .. "/" .. p
end

local function parts(p)
  local out = {}
  for s in p:gmatch("[^/]+") do
    if s == ".." and #out > 0 and out[#out] ~= ".." then out[#out] = nil elseif s ~= "." then out[#out + 1] = s end
  end
  return out
end

-- relpath(from_dir, to) -> the path of `to` relative to the directory from_dir
function M.relpath(from_dir, to)
  local a, b = parts(abs(from_dir)), parts(abs(to))
  local i = 1
  while a[i] and b[i] and a[i] == b[i] do i = i + 1 end
  local out = {}
  for _ = i, #a do out[#out + 1] = ".." end
  for j = i, #b do out[#out + 1] = b[j] end
  return #out > 0 and table.concat(out, "/") or "."
end

local function link(base, run, key)
  local id = run.variant and (key .. "@" .. run.variant) or key
  return string.format('<a href="%s#trial=%s">%s</a>', html.esc(M.relpath(base, run.dir .. "/report.html")),
    html.esc((id:gsub("[%%&#?]", function(c) return string.format("%%%02X", c:byte()) end))), html.esc(run.label))
end

local function rate_cell(e, n)
  return string.format("%s (%d/%d) [%s, %s]", html.pct(e.rate), e.successes, n, html.pct(e.lo), html.pct(e.hi))
end

local C = require "tabula.compare"
local METHOD_SHORT = C.METHOD_SHORT

local function pval(p) return type(p) == "number" and string.format("%.4g", p) or "n/a" end
local level = C.level
local function bracket(e) return string.format("[%s, %s]", html.pct(e.lo), html.pct(e.hi)) end

-- the mark of a comparison whose discordance is not above the noise floor's
local NOT_ABOVE = '<span class="badge not-above">not above the noise floor</span>'

-- the family's one paragraph (tabula.compare's)
local function family_text(res, fam) return C.family_text(res, fam) end

-- the summary table: one row per comparison of the family (and the floor's column)
local function summary(res, fam, fl)
  local head = { "#", "A", "B", "paired", "B − A [95% interval]" }
  if fam.simultaneous_level then head[#head + 1] = "simultaneous " .. level(fam.simultaneous_level) end
  head[#head + 1] = "discordant"
  head[#head + 1] = "McNemar p"
  if fam.m >= 2 then head[#head + 1] = (METHOD_SHORT[fam.method] or "unadjusted") .. " p" end
  if fl then head[#head + 1] = "vs noise floor (Fisher p)" end
  local rows = {}
  for k, c in ipairs(res.comparisons) do
    local row = { attrs = { id = "row-" .. k }, html.raw(string.format('<a href="#cmp-%d">%d</a>', k, k)), c.a_label, c.b_label,
      { v = c.n, sort = c.n }, html.interval(c.diff) }
    if fam.simultaneous_level then row[#row + 1] = c.diff.simultaneous and bracket(c.diff.simultaneous) or "n/a" end
    row[#row + 1] = { v = string.format("%s (%d)", html.pct(c.discordance.share), c.discordance.count), sort = c.discordance.share }
    row[#row + 1] = { v = pval(c.mcnemar.p), sort = c.mcnemar.p }
    if fam.m >= 2 then row[#row + 1] = { v = pval(c.mcnemar.p_adjusted), sort = c.mcnemar.p_adjusted } end
    if fl then
      row[#row + 1] = html.raw((c.vs_floor.above and "above" or NOT_ABOVE) .. " (p = " .. html.esc(pval(c.vs_floor.p)) .. ")")
    end
    rows[k] = row
  end
  return html.str(html.table(head, rows, { class = "family" }))
end

-- the flipped trials of a pairing, each direction a list linked to both runs' trial views
local function flip_lists(c, A, B, base, names)
  local out = {}
  for i, dir in ipairs({ "to_failure", "to_success" }) do
    local ids = c.flipped[dir]
    out[#out + 1] = string.format('<h3>%s (%d)</h3><ul class="flipped %s">', html.esc(names[i]), #ids, dir)
    for _, k in ipairs(ids) do
      out[#out + 1] = string.format("<li>%s: %s · %s</li>", html.esc(k), link(base, A, k), link(base, B, k))
    end
    out[#out + 1] = "</ul>"
  end
  return table.concat(out)
end

-- the noise floor's section: the re-run's flips, their share with its interval, McNemar
local function floor_section(fl, A, B, base)
  local out = { string.format('<div id="floor" class="floor"><h2>Noise floor: %s vs %s (a re-run of the same thing)</h2>',
    html.esc(fl.a_label), html.esc(fl.b_label)) }
  out[#out + 1] = '<div class="panels">'
  local rows = {
    { "paired trials", fl.n .. ((fl.only_a + fl.only_b > 0)
      and string.format(" (%d only in the run, %d only in the re-run, left out)", fl.only_a, fl.only_b) or "") },
    { "flipped", string.format("%d: %d succeeded only in the run, %d only in the re-run", fl.discordance.count,
      fl.mcnemar.a_only, fl.mcnemar.b_only) },
    { "share of paired trials", string.format("%s %s (95%% Wilson interval)", html.pct(fl.discordance.share), bracket(fl.discordance)) },
    { "rate difference (re-run − run)", html.interval(fl.diff) .. " (paired bootstrap)" },
    { "exact McNemar p", pval(fl.mcnemar.p) },
  }
  out[#out + 1] = string.format('<figure class="panel"><figcaption>The re-run\'s flips</figcaption>%s</figure>',
    html.str(html.table({ "", "run vs re-run" }, rows, { class = "floor-figures" })))
  out[#out + 1] = "</div>"
  out[#out + 1] = flip_lists(fl, A, B, base, { "Success in the run, failure in the re-run", "Failure in the run, success in the re-run" })
  out[#out + 1] = "<p>Each comparison's discordant share is tested against the floor's with a one-sided Fisher exact test"
    .. " (is it larger?), read as a screen: not adjusted for multiplicity, and the two sets of paired trials"
    .. " are treated as independent.</p></div>"
  return table.concat(out)
end

local function one(k, c, A, B, base, fam, fl)
  local out = { string.format('<h2 id="cmp-%d">%s vs %s</h2>', k, html.esc(c.a_label), html.esc(c.b_label)) }
  local adj = ""
  if fam.m >= 2 and METHOD_SHORT[fam.method] then
    adj = string.format("; %s-adjusted over the %d comparisons, p = %s", METHOD_SHORT[fam.method], fam.m, pval(c.mcnemar.p_adjusted))
  end
  out[#out + 1] = string.format("<p>%d paired trials%s. Exact McNemar test: %d succeeded only in A, %d only in B, p = %s%s.</p>",
    c.n, (c.only_a + c.only_b > 0) and string.format(" (%d only in A, %d only in B, left out)", c.only_a, c.only_b) or "",
    c.mcnemar.a_only, c.mcnemar.b_only, pval(c.mcnemar.p), html.esc(adj))
  if fl then
    out[#out + 1] = string.format('<p class="vs-floor">Discordant: %d of %d paired trials (%s); the noise floor\'s: %s (%d of %d);'
      .. " one-sided Fisher p = %s%s</p>", c.discordance.count, c.n, html.pct(c.discordance.share), html.pct(fl.discordance.share),
      fl.discordance.count, fl.n, pval(c.vs_floor.p), c.vs_floor.above and ": above the floor."
        or (". " .. NOT_ABOVE .. " These flips may be no more than re-run noise."))
  else
    out[#out + 1] = string.format("<p>Discordant: %d of %d paired trials (%s).</p>", c.discordance.count, c.n, html.pct(c.discordance.share))
  end
  local both = c.a.successes - c.mcnemar.a_only
  local neither = c.n - both - c.mcnemar.a_only - c.mcnemar.b_only
  local diff_rows = { { "A", rate_cell(c.a, c.n), "" }, { "B", rate_cell(c.b, c.n), "" },
    { "B − A", html.interval({ value = c.diff.value, lo = c.diff.lo, hi = c.diff.hi }), "paired bootstrap, 95%" } }
  if c.diff.simultaneous then
    diff_rows[#diff_rows + 1] = { "B − A, simultaneous", bracket(c.diff.simultaneous),
      string.format("Bonferroni over %d, %s each", fam.m, level(fam.simultaneous_level)) }
  end
  local panels = {
    { title = "Success with 95% intervals", html = html.raw(plot.bars({ title = "success rate (paired bootstrap)", ymax = 1, percent = true,
      names = { "A", "B" }, groups = { { label = "A: " .. c.a_label, values = { { c.a.rate, c.a.lo, c.a.hi } } },
        { label = "B: " .. c.b_label, values = { {}, { c.b.rate, c.b.lo, c.b.hi } } } } })) },
    { title = "Rates and difference", html = html.table({ "", "success", "" }, diff_rows) },
    { title = "Paired outcomes", html = html.table({ "", "B success", "B failure" }, {
      { "A success", both, c.mcnemar.a_only }, { "A failure", c.mcnemar.b_only, neither } }) },
    { title = "Usage per trial (mean)", html = html.table({ "", "input tokens", "output tokens", "cost ($)" }, {
      { "A", string.format("%.1f", c.usage.a.input), string.format("%.1f", c.usage.a.output), string.format("%.6f", c.usage.a.cost) },
      { "B", string.format("%.1f", c.usage.b.input), string.format("%.1f", c.usage.b.output), string.format("%.6f", c.usage.b.cost) },
      { "B − A", string.format("%+.1f", c.usage.diff.input), string.format("%+.1f", c.usage.diff.output), string.format("%+.6f", c.usage.diff.cost) } }) },
  }
  out[#out + 1] = '<div class="panels">'
  for _, p in ipairs(panels) do
    out[#out + 1] = string.format('<figure class="panel"><figcaption>%s</figcaption>%s</figure>', html.esc(p.title), html.str(p.html))
  end
  out[#out + 1] = "</div>"
  out[#out + 1] = flip_lists(c, A, B, base, { "Success in A, failure in B", "Failure in A, success in B" })
  local keys = {}
  for key in pairs(A.trials) do if B.trials[key] then keys[#keys + 1] = key end end
  table.sort(keys)
  local rows = {}
  for _, key in ipairs(keys) do
    local a, b = A.trials[key].success, B.trials[key].success
    rows[#rows + 1] = { key, a and "success" or "failure", b and "success" or "failure", a == b and "" or (a and "A only" or "B only"),
      html.raw(link(base, A, key) .. " · " .. link(base, B, key)) }
  end
  out[#out + 1] = "<details><summary>every paired trial</summary>"
    .. html.str(html.table({ "trial", "A", "B", "flipped", "trial views" }, rows, { class = "list paired" })) .. "</details>"
  return '<div class="comparison">' .. table.concat(out) .. "</div>"
end

-- build(res, specs, base) -> compare.html for compare.runs(specs [, opts])'s result (every
-- comparison of its family, its noise floor when it has one), links relative to base
function M.build(res, specs, base)
  local runs, by_spec = {}, {}
  for i, sp in ipairs(specs) do runs[i] = compare.load(sp); by_spec[sp] = runs[i] end
  local fam = res.family or { pairs = "baseline", m = #res.comparisons, method = "none", level = 0.95 }
  local fl = res.floor
  local rows = {}
  for i, r in ipairs(res.runs) do
    rows[#rows + 1] = { (i == 1 and fam.pairs ~= "all") and "1 (baseline)" or tostring(i), r.label, tostring(r.scenario), tostring(r.model), r.n,
      html.raw(string.format('<a href="%s">report.html</a>', html.esc(M.relpath(base, r.dir .. "/report.html")))) }
  end
  local body = { html.str(html.table({ "", "run", "scenario", "model", "trials", "report" }, rows)) }
  if fam.m >= 2 or fl then
    body[#body + 1] = '<div id="summary"><h2>Summary</h2>'
    if fam.m >= 2 then body[#body + 1] = '<p class="family">' .. html.esc(family_text(res, fam)) .. "</p>" end
    body[#body + 1] = summary(res, fam, fl) .. "</div>"
  end
  if fl then
    local FA = by_spec[fl.a_label] or compare.load(fl.a_label)
    local FB = by_spec[fl.b_label] or compare.load(fl.b_label)
    body[#body + 1] = floor_section(fl, FA, FB, base)
  end
  for k, c in ipairs(res.comparisons) do
    local ia, ib = c.a_index or 1, c.b_index or (k + 1)
    body[#body + 1] = one(k, c, runs[ia], runs[ib], base, fam, fl)
  end
  return view.page({ title = "tabula compare: " .. table.concat(specs, " vs "), body = table.concat(body) })
end

-- write(res, specs, path) -> path: writes compare.html, and each run's (the
-- noise floor's too) report.html when it is missing (the links lead to its trial views)
function M.write(res, specs, path)
  local dirs = {}
  for _, r in ipairs(res.runs) do dirs[#dirs + 1] = r.dir end
  if res.floor then
    for _, label in ipairs({ res.floor.a_label, res.floor.b_label }) do dirs[#dirs + 1] = compare.load(label).dir end
  end
  for _, dir in ipairs(dirs) do
    if fs.kind(dir .. "/report.html") ~= "file" then
      pcall(function()
        local meta = require("tabula.json").read_file(dir .. "/run.json")
        local s = require("tabula.cmd.run").lib.load(meta.scenario_file)
        view.write(dir, s)
      end)
    end
  end
  local ok, err = fs.write_atomic(path, M.build(res, specs, fs.dirname(path)))
  if not ok then require("tabula.cli").fail("compare: %s", err) end
  return path
end

return M
