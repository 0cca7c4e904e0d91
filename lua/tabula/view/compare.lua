-- tabula.view.compare — compare.html: the result of tabula.compare as a page
-- (same look and rules as report.html: one file, nothing loaded, text
-- escaped): per comparison the success rates and their paired difference with
-- intervals, the 2×2 paired outcomes, the trials that flipped each way and
-- every paired trial, each linked to its trial view in both runs' report.html.
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

local function one(c, A, B, base)
  local out = { string.format("<h2>%s vs %s</h2>", html.esc(c.a_label), html.esc(c.b_label)) }
  out[#out + 1] = string.format("<p>%d paired trials%s. Exact McNemar test: %d succeeded only in A, %d only in B, p = %.4g.</p>",
    c.n, (c.only_a + c.only_b > 0) and string.format(" (%d only in A, %d only in B, left out)", c.only_a, c.only_b) or "",
    c.mcnemar.a_only, c.mcnemar.b_only, c.mcnemar.p)
  local both = c.a.successes - c.mcnemar.a_only
  local neither = c.n - both - c.mcnemar.a_only - c.mcnemar.b_only
  local panels = {
    { title = "Success with 95% intervals", html = html.raw(plot.bars({ title = "success rate (paired bootstrap)", ymax = 1, percent = true,
      names = { "A", "B" }, groups = { { label = "A: " .. c.a_label, values = { { c.a.rate, c.a.lo, c.a.hi } } },
        { label = "B: " .. c.b_label, values = { {}, { c.b.rate, c.b.lo, c.b.hi } } } } })) },
    { title = "Rates and difference", html = html.table({ "", "success", "" }, {
      { "A", rate_cell(c.a, c.n), "" }, { "B", rate_cell(c.b, c.n), "" },
      { "B − A", html.interval({ value = c.diff.value, lo = c.diff.lo, hi = c.diff.hi }), "paired bootstrap" } }) },
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
  for _, dir in ipairs({ { "to_failure", "Success in A, failure in B" }, { "to_success", "Failure in A, success in B" } }) do
    local ids = c.flipped[dir[1]]
    out[#out + 1] = string.format('<h3>%s (%d)</h3><ul class="flipped %s">', html.esc(dir[2]), #ids, dir[1])
    for _, k in ipairs(ids) do
      out[#out + 1] = string.format("<li>%s: %s · %s</li>", html.esc(k), link(base, A, k), link(base, B, k))
    end
    out[#out + 1] = "</ul>"
  end
  local keys = {}
  for k in pairs(A.trials) do if B.trials[k] then keys[#keys + 1] = k end end
  table.sort(keys)
  local rows = {}
  for _, k in ipairs(keys) do
    local a, b = A.trials[k].success, B.trials[k].success
    rows[#rows + 1] = { k, a and "success" or "failure", b and "success" or "failure", a == b and "" or (a and "A only" or "B only"),
      html.raw(link(base, A, k) .. " · " .. link(base, B, k)) }
  end
  out[#out + 1] = "<details><summary>every paired trial</summary>"
    .. html.str(html.table({ "trial", "A", "B", "flipped", "trial views" }, rows, { class = "list paired" })) .. "</details>"
  return table.concat(out)
end

-- build(res, specs, base) -> compare.html for compare.runs(specs)'s result, links relative to base
function M.build(res, specs, base)
  local runs = {}
  for i, sp in ipairs(specs) do runs[i] = compare.load(sp) end
  local rows = {}
  for i, r in ipairs(res.runs) do
    rows[#rows + 1] = { i == 1 and "A (baseline)" or "B", r.label, tostring(r.scenario), tostring(r.model), r.n,
      html.raw(string.format('<a href="%s">report.html</a>', html.esc(M.relpath(base, r.dir .. "/report.html")))) }
  end
  local body = { html.str(html.table({ "", "run", "scenario", "model", "trials", "report" }, rows)) }
  for i, c in ipairs(res.comparisons) do body[#body + 1] = one(c, runs[1], runs[i + 1], base) end
  return view.page({ title = "tabula compare: " .. table.concat(specs, " vs "), body = table.concat(body) })
end

-- write(res, specs, path) -> path: writes compare.html, and each run's
-- report.html when it is missing (the links lead to its trial views)
function M.write(res, specs, path)
  for _, r in ipairs(res.runs) do
    if fs.kind(r.dir .. "/report.html") ~= "file" then
      pcall(function()
        local meta = require("tabula.json").read_file(r.dir .. "/run.json")
        local s = require("tabula.cmd.run").lib.load(meta.scenario_file)
        view.write(r.dir, s)
      end)
    end
  end
  local ok, err = fs.write_atomic(path, M.build(res, specs, fs.dirname(path)))
  if not ok then require("tabula.cli").fail("compare: %s", err) end
  return path
end

return M
