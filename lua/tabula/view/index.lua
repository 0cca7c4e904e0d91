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

-- wilson_figure(recs) -> { value, lo, hi, n } over the finished trials of recs, or nil
local function wilson_figure(recs)
  local n, ok_n = 0, 0
  for _, r in ipairs(recs) do
    if r.status == "success" or r.status == "failure" then
      n = n + 1
      if r.status == "success" then ok_n = ok_n + 1 end
    end
  end
  if n == 0 then return nil end
  local lo, hi = metrics.wilson(ok_n, n)
  return { value = ok_n / n, lo = lo, hi = hi, n = n }
end

-- leader(path, file) -> the arena's or DECE's leader from the run's summary.json, as text
-- and a sort key, or nil: DECE's best overall PWS, ChessArena's best rating
local function leader(path, file)
  if fs.kind(path .. "/summary.json") ~= "file" then return nil end
  local okd, sm = pcall(json.read_file, path .. "/summary.json")
  if not okd or type(sm) ~= "table" then return nil end
  if file == "matches.jsonl" and type(sm.overall) == "table" then
    local best, bn
    for nme, o in pairs(sm.overall) do
      if tonumber(o.pws) and (not best or o.pws > best.pws or (o.pws == best.pws and nme < bn)) then best, bn = o, nme end
    end
    if best then
      return { text = string.format("leader %s: PWS %s", html.esc(bn), html.str(html.interval({ value = best.pws, lo = best.lo, hi = best.hi }))),
        sort = best.pws }
    end
  elseif type(sm.leaderboard) == "table" and type(sm.leaderboard[1]) == "table" then
    local top = sm.leaderboard[1]
    local r = tonumber(top.r or top.rating)
    if r then
      return { text = string.format("leader %s: rating %.0f%s", html.esc(tostring(top.id or top.name or "?")), r,
        (tonumber(top.lo) and tonumber(top.hi)) and string.format(" [%.0f, %.0f]", top.lo, top.hi) or ""), sort = r / 10000 }
    end
  end
end

-- describe(dir, rel) -> { rel, scenario, model, date, trials, planned, figure = { value, lo, hi, n },
-- leader, variants = { { name, trials, figure }... }, report, problem }
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
    d.leader = file ~= "trials.jsonl" and leader(path, file) or nil
    -- a run with --variant: a figure per variant (pooling would mix the arms)
    local order = type(meta.setup) == "table" and meta.setup.variant_order
    if type(order) == "table" and #order > 0 then
      d.variants = {}
      for _, name in ipairs(order) do
        local sub = {}
        for _, r in ipairs(recs) do
          local v = r.variant or (type(r.trial_id) == "string" and r.trial_id:match("@([%w_.-]+)$"))
          if v == name then sub[#sub + 1] = r end
        end
        d.variants[#d.variants + 1] = { name = name, trials = #sub, figure = wilson_figure(sub) }
      end
    else
      d.figure = wilson_figure(recs)
    end
  end)
  if not ok then d.problem = tostring(err) end
  d.report = fs.kind(path .. "/report.html") == "file" and ((rel == "" and "" or (rel .. "/")) .. "report.html") or nil
  return d
end

-- build(dir) -> the page, the number of runs listed
function M.build(dir)
  local rows, runs = {}, 0
  local function figure_of(f) return f and { v = html.interval(f) .. string.format(" (n=%d)", f.n), sort = f.value } or "–" end
  for _, rel in ipairs(M.find(dir)) do
    local d = M.describe(dir, rel)
    runs = runs + 1
    local link = d.report and html.tag("a", { href = d.report }, "report.html") or (d.problem and ("damaged: " .. d.problem) or "no report.html yet")
    local function row(name, trials, planned, figure)
      rows[#rows + 1] = { date = d.date or "", name, tostring(d.scenario or "?"), tostring(d.model or "–"), tostring(d.date or "–"),
        { v = string.format("%d%s", trials or 0, planned and (" of " .. planned) or ""), sort = trials or 0 }, figure, link }
    end
    if d.variants then
      for _, v in ipairs(d.variants) do row(d.rel .. " @" .. v.name, v.trials, nil, figure_of(v.figure)) end
    else
      row(d.rel, d.trials, d.planned, d.leader and { v = html.raw(d.leader.text), sort = d.leader.sort } or figure_of(d.figure))
    end
  end
  table.sort(rows, function(a, b)      -- the newest first, runs without a date last
    if a.date ~= b.date then return a.date > b.date end
    return a[2] < b[2]
  end)
  local body = {
    html.str(html.tag("h2", nil, string.format("%d runs under %s", runs, dir))),
    '<p class="note">Headline figure: the success rate over each run\'s finished trials (infrastructure errors left out), with its 95% Wilson interval; '
      .. "a run with variants has a row per variant; an arena names its leader (ChessArena: the best rating; DECE: the best overall PWS). "
      .. "Each run's own report holds its scenario's measures.</p>",
    html.str(html.table({ "run", "scenario", "model", "date", "trials", "headline [95% interval]", "report" }, rows, { class = "list index" })),
  }
  return require("tabula.view").page({ title = "tabula runs: " .. dir, body = table.concat(body) }), runs
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
