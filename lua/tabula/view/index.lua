-- tabula.view.index — one page listing the runs under a folder (`tabula report
-- --index DIR`), like a log list: per run its scenario, model, date, trials
-- recorded (of those planned), the headline figure — the success rate over its
-- finished trials with a 95% Wilson interval — and a link to its report.html.
-- A run is a folder holding run.json (or an arena's games.jsonl), found up to
-- four levels down; a damaged run is listed with what is wrong with it.
local html = require "tabula.view.html"
local json = require "tabula.json"
local fs = require "tabula.fs"
local records = require "tabula.records"
local metrics = require "tabula.metrics"

local M = {}

M.DEPTH = 4

-- find(dir) -> the run folders under dir (relative paths, sorted)
function M.find(dir)
  local out = {}
  local function walk(rel, depth)
    local path = rel == "" and dir or (dir .. "/" .. rel)
    if fs.kind(path .. "/run.json") == "file" or fs.kind(path .. "/games.jsonl") == "file" then out[#out + 1] = rel; return end
    if depth >= M.DEPTH then return end
    for _, name in ipairs(fs.list(path) or {}) do
      if name:sub(1, 1) ~= "." and fs.kind(path .. "/" .. name) == "dir" then walk(rel == "" and name or (rel .. "/" .. name), depth + 1) end
    end
  end
  walk("", 0)
  table.sort(out)
  return out
end

local function model_name(m)
  if type(m) == "table" then return m.name or m.id or json.canonical(m) end
  return m
end

-- describe(dir, rel) -> { rel, scenario, model, date, trials, planned, figure = { value, lo, hi, n }, report, problem }
function M.describe(dir, rel)
  local path = rel == "" and dir or (dir .. "/" .. rel)
  local d = { rel = rel == "" and "." or rel }
  local ok, err = pcall(function()
    local meta = fs.kind(path .. "/run.json") == "file" and json.read_file(path .. "/run.json") or { scenario = "chessarena" }
    d.scenario, d.model, d.date, d.planned = meta.scenario, model_name(meta.model), meta.created, meta.trials_planned
    local file
    for _, f in ipairs({ "trials.jsonl", "matches.jsonl", "games.jsonl" }) do
      if fs.kind(path .. "/" .. f) == "file" then file = f; break end
    end
    if not file then d.trials = 0; return end
    local recs = records.final((records.read(path .. "/" .. file, { skip_bad = true })))
    d.trials = #recs
    local n, ok_n = 0, 0
    for _, r in ipairs(recs) do
      if r.status == "success" or r.status == "failure" then
        n = n + 1
        if r.status == "success" then ok_n = ok_n + 1 end
      end
    end
    if n > 0 then
      local lo, hi = metrics.wilson(ok_n, n)
      d.figure = { value = ok_n / n, lo = lo, hi = hi, n = n }
    end
  end)
  if not ok then d.problem = tostring(err) end
  d.report = fs.kind(path .. "/report.html") == "file" and ((rel == "" and "" or (rel .. "/")) .. "report.html") or nil
  return d
end

-- build(dir) -> the page, the number of runs listed
function M.build(dir)
  local rows = {}
  for _, rel in ipairs(M.find(dir)) do
    local d = M.describe(dir, rel)
    local figure = d.figure and { v = html.interval(d.figure) .. string.format(" (n=%d)", d.figure.n), sort = d.figure.value } or "–"
    rows[#rows + 1] = { date = d.date or "", d.rel, tostring(d.scenario or "?"), tostring(d.model or "–"), tostring(d.date or "–"),
      { v = string.format("%d%s", d.trials or 0, d.planned and (" of " .. d.planned) or ""), sort = d.trials or 0 },
      figure,
      d.report and html.tag("a", { href = d.report }, "report.html") or (d.problem and ("damaged: " .. d.problem) or "no report.html yet") }
  end
  table.sort(rows, function(a, b)      -- the newest first, runs without a date last
    if a.date ~= b.date then return a.date > b.date end
    return a[1] < b[1]
  end)
  local body = {
    html.str(html.tag("h2", nil, string.format("%d runs under %s", #rows, dir))),
    '<p class="note">Headline figure: the success rate over each run\'s finished trials (infrastructure errors left out), with its 95% Wilson interval. '
      .. "Each run's own report holds its scenario's measures.</p>",
    html.str(html.table({ "run", "scenario", "model", "date", "trials", "success [95% interval]", "report" }, rows, { class = "list index" })),
  }
  return require("tabula.view").page({ title = "tabula runs: " .. dir, body = table.concat(body) }), #rows
end

-- write(dir) -> path, runs: dir/index.html
function M.write(dir)
  local text, n = M.build(dir)
  local path = dir .. "/index.html"
  local ok, err = fs.write_atomic(path, text)
  if not ok then require("tabula.cli").fail("%s", err) end
  return path, n
end

return M
