-- scenarios/tsugo/view.lua — TsuGO's parts of report.html (the S.view hook):
-- overview tables and an accuracy plot from the report's summary, and a trial
-- view showing the problem, then the extracted process tree drawn next to the
-- reference tree, its move nodes coloured by their replay label.
local report = require "scenarios.tsugo.report"
local go = require "games.go"

local M = {}

M.LEGEND = "Left: the tree extracted from the response; right: the reference tree. "
  .. "Green: on the reference tree, on a correct path; red: on the reference tree, refuted; grey: off the tree; "
  .. "orange with ✕: impossible on the board (a hallucinated move). Squares are judgments (win / lose / other)."

local COLOURS = { ["on-tree-correct"] = "#2e7d32", ["on-tree-refuted"] = "#c62828", ["off-tree"] = "#757575" }
local POLARITY = { win = "#2e7d32", lose = "#c62828", other = "#9e9e9e" }
local DX, DY = 58, 22

local function pct(x) return x and string.format("%.1f", 100 * x) or "–" end
local function num(x) return x and string.format("%.1f", x) or "–" end

function M.overview(src, kit)
  local html, plot = kit.html, kit.plot
  local sm = report.compute(src.recs)
  local rows, groups = {}, {}
  for _, a in ipairs(sm.by_cell) do
    rows[#rows + 1] = { a.modality, a.candidates == "4" and "K=4" or "open", a.tier, html.interval({ value = a.accuracy, lo = a.lo, hi = a.hi }), a.n }
    groups[#groups + 1] = { label = a.modality .. " " .. (a.candidates == "4" and "K=4" or "open") .. " " .. a.tier,
      values = { { a.accuracy, a.lo, a.hi } } }
  end
  local panels = {
    { title = "Accuracy (95% Wilson intervals)", html = html.raw(plot.bars({ title = "accuracy by modality, setting and tier",
      ylabel = "accuracy", ymax = 1, percent = true, groups = groups })) },
    { title = "Accuracy table", html = html.table({ "modality", "setting", "tier", "accuracy", "n" }, rows) },
  }
  local prow = {}
  for _, k in ipairs({ "4", "open" }) do
    local p = sm.process[k]
    if p then
      prow[#prow + 1] = { k == "4" and "K=4" or "open", pct(p.accuracy), num(p.mean.searche), num(p.tokene), pct(p.mean.swr),
        pct(p.mean.sfh), pct(p.mean.scr), num(p.mean.tnc), string.format("%d of %d", p.replay.impossible, p.replay.moves) }
    end
  end
  if #prow > 0 then
    panels[#panels + 1] = { title = "Process metrics (Symbolic input)", html = html.table({ "setting", "acc", "SearchE", "TokenE",
      "SWR", "SFH", "SCR", "TNC", "impossible moves" }, prow) }
  end
  local R = sm.references
  if R.problems > 0 then
    panels[#panels + 1] = { title = "References", html = html.table({ "reference", "accuracy", "SearchE", "n" }, {
      { "MCTS/UCT open", pct(R.mcts_open.accuracy), num(R.mcts_open.mean.searche), R.mcts_open.n },
      { "MCTS/UCT restricted", pct(R.mcts_restricted.accuracy), num(R.mcts_restricted.mean.searche), R.mcts_restricted.n },
      { "GNU Go open", pct(R.gnugo_open.accuracy), "–", R.gnugo_open.n },
      { "GNU Go restricted", pct(R.gnugo_restricted.accuracy), "–", R.gnugo_restricted.n },
    }) }
  end
  return panels
end

-- layout(nodes, children_of, root) -> positions { [node] = {x, y} }, rows used: leaves take rows in order
local function layout(root, kids)
  local pos, row = {}, 0
  local function place(n, depth)
    local ks = kids(n)
    if #ks == 0 then
      pos[n] = { depth, row }
      row = row + 1
    else
      for _, k in ipairs(ks) do place(k, depth + 1) end
      pos[n] = { depth, pos[ks[1]][2] }
    end
  end
  place(root, 0)
  return pos, math.max(row, 1)
end

-- draw(root, kids, style, x0) -> svg parts, width, height
local function draw(root, kids, style, x0, title)
  local html = require "tabula.view.html"
  local pos, rows = layout(root, kids)
  local out = { string.format('<text x="%d" y="14" font-size="12" font-weight="bold">%s</text>', x0 + 4, html.esc(title)) }
  local maxd = 0
  local function xy(n) return x0 + 14 + pos[n][1] * DX, 34 + pos[n][2] * DY end
  local function edges(n)
    for _, k in ipairs(kids(n)) do
      local ax, ay = xy(n)
      local bx, by = xy(k)
      out[#out + 1] = string.format('<path d="M%d %dC%d %d %d %d %d %d" fill="none" stroke="#bbb"/>', ax, ay, ax + DX / 2, ay, bx - DX / 2, by, bx, by)
      edges(k)
    end
  end
  edges(root)
  for n, p in pairs(pos) do
    if p[1] > maxd then maxd = p[1] end
    local x, y = xy(n)
    local s = style(n)
    if s.square then
      out[#out + 1] = string.format('<rect x="%d" y="%d" width="10" height="10" fill="%s"><title>%s</title></rect>', x - 5, y - 5, s.color, html.esc(s.text))
    else
      out[#out + 1] = string.format('<circle cx="%d" cy="%d" r="6" fill="%s"><title>%s</title></circle>', x, y, s.color, html.esc(s.title or s.text))
      out[#out + 1] = string.format('<text x="%d" y="%d" font-size="10">%s</text>', x + 8, y - 4, html.esc(s.text))
      if s.cross then out[#out + 1] = string.format('<text x="%d" y="%d" font-size="11" fill="#ef6c00">✕</text>', x - 4, y + 4) end
    end
  end
  return out, 28 + (maxd + 1) * DX + 30, 40 + rows * DY
end

-- trees_svg(rec, problem_tree, size) -> the extracted tree next to the reference tree
function M.trees_svg(rec, ref, size)
  local nodes = rec.tree
  local kids_of = {}
  for _, n in ipairs(nodes) do kids_of[n.id] = {} end
  for _, n in ipairs(nodes) do if n.parent and n.parent ~= require("tabula.json").null then table.insert(kids_of[n.parent], n) end end
  local left, w1, h1 = draw(nodes[1], function(n) return kids_of[n.id] end, function(n)
    if n.type == "judgment" then return { square = true, color = POLARITY[n.polarity] or "#9e9e9e", text = n.polarity } end
    if n.type == "root" then return { color = "#37474f", text = "start" } end
    if n.impossible then return { color = "#ef6c00", text = n.label, cross = true, title = n.label .. ": " .. n.impossible } end
    return { color = COLOURS[n.replay] or "#757575", text = n.label, title = n.label .. " (" .. tostring(n.replay) .. ")" }
  end, 0, "extracted (" .. tostring(rec.extractor) .. ")")
  local root = { children = ref or {} }
  local right, w2, h2 = draw(root, function(n) return n.children or {} end, function(n)
    if n == root then return { color = "#37474f", text = "start" } end
    return { color = n.correct and "#2e7d32" or "#c62828", text = n.color .. ":" .. go.to_gtp(n.point, size) }
  end, w1 + 20, "reference")
  local out = { string.format('<svg class="board tsugo-trees" viewBox="0 0 %d %d" width="%d" height="%d">', w1 + w2 + 20, math.max(h1, h2),
    w1 + w2 + 20, math.max(h1, h2)) }
  for _, s in ipairs(left) do out[#out + 1] = s end
  for _, s in ipairs(right) do out[#out + 1] = s end
  out[#out + 1] = "</svg>"
  return table.concat(out)
end

-- the problems of a run, by id (for the reference trees and the diagram)
local problems_by_dir = {}
local function problem_of(src, id)
  local dir = src.dir or ""
  if not problems_by_dir[dir] then
    local by = {}
    local path = src.meta and src.meta.data and src.meta.data.problems
    local ok, list = pcall(function() return require("scenarios.tsugo.problems").load(path) end)
    if ok then for _, p in ipairs(list) do by[p.id] = p end end
    problems_by_dir[dir] = by
  end
  return problems_by_dir[dir][id]
end

function M.row(rec)
  return { id = rec.trial_id, case = rec.problem_id, setting = rec.kind == "reference" and "reference"
    or table.concat({ rec.modality, rec.candidates == "4" and "K=4" or "open", rec.transform }, " "),
    outcome = rec.status, reason = rec.reason, cost = rec.cost }
end

function M.trial(rec, kit, src)
  local p = problem_of(src, rec.problem_id)
  local frames = {}
  if p then
    local g = go.position(p.size, p.stones, p.to_play)
    frames[1] = { board = { game = "text", text = tostring(g) .. "\n" .. p.to_play .. " to play; correct: "
      .. table.concat(p.correct_gtp or {}, ", ") }, label = "problem " .. p.id }
  end
  if rec.tree and p and rec.transform == "identity" then
    frames[#frames + 1] = { board = { svg = M.trees_svg(rec, p.tree, p.size) }, label = "process tree and reference tree" }
  end
  local facts = { { "answer", tostring(rec.answer or "none") .. (rec.letter and (" (" .. rec.letter .. ")") or "") },
    { "correct", tostring(rec.correct) } }
  if rec.metrics then
    facts[#facts + 1] = { "SearchE", num(rec.metrics.searche) }
    facts[#facts + 1] = { "SWR / SFH / SCR", string.format("%s / %s / %s", pct(rec.metrics.swr), pct(rec.metrics.sfh), pct(rec.metrics.scr)) }
    facts[#facts + 1] = { "TNC / TMD / TMF", string.format("%d / %d / %d", rec.metrics.tnc, rec.metrics.tmd, rec.metrics.tmf) }
  end
  if rec.tree_rejected then facts[#facts + 1] = { "tree rejected", rec.tree_rejected } end
  if rec.closed_loop then facts[#facts + 1] = { "closed loop", (rec.closed_loop.solved and "solved" or "not solved") .. " (" .. rec.closed_loop.reason .. ")" } end
  local messages = {}
  if rec.reply then messages[1] = { role = "assistant", text = rec.reply, reasoning = rec.reasoning, usage = rec.usage, cost = rec.cost } end
  return { frames = frames, facts = facts, messages = messages, legend = M.LEGEND }
end

return M
