-- scenarios/tsugo/view.lua — TsuGO's parts of report.html (the S.view hook):
-- overview tables and an accuracy plot from the report's summary, and a trial
-- view showing the problem, then the extracted process tree drawn next to the
-- reference tree, its move nodes coloured by their replay label.
local report = require "scenarios.tsugo.report"
local go = require "games.go"
local svg = require "games.go.svg"

local M = {}

M.LEGEND = "Left: the tree extracted from the response; right: the reference tree. "
  .. "Green: on the reference tree, on a correct path; red: on the reference tree, refuted; grey: off the tree; "
  .. "orange with ✕: impossible on the board (a hallucinated move). Squares are judgments (win / lose / other)."

local COLOURS = { ["on-tree-correct"] = "#2e7d32", ["on-tree-refuted"] = "#c62828", ["off-tree"] = "#757575" }
local POLARITY = { win = "#2e7d32", lose = "#c62828", other = "#9e9e9e" }
local DX, DY = 58, 22

-- difficulty tiers in their natural order (the suites' names for them)
M.TIERS = { "Easy", "Elementary", "Intermediate", "Medium", "Advanced", "Hard", "Expert" }

local function pct(x) return x and string.format("%.1f", 100 * x) or "–" end
local function num(x) return x and string.format("%.1f", x) or "–" end

function M.overview(src, kit)
  local html, plot = kit.html, kit.plot
  local sm = report.compute(src.recs)
  local rows, groups = {}, {}
  -- tiers in their natural order (Easy, Medium, Hard), not alphabetically
  local rank = {}
  for i, t in ipairs(M.TIERS) do rank[t] = i end
  local cells = {}
  for i, a in ipairs(sm.by_cell) do cells[i] = a end
  table.sort(cells, function(a, b)
    if a.modality ~= b.modality then return a.modality < b.modality end
    if a.candidates ~= b.candidates then return a.candidates < b.candidates end
    local ra, rb = rank[a.tier] or 99, rank[b.tier] or 99
    if ra ~= rb then return ra < rb end
    return tostring(a.tier) < tostring(b.tier)
  end)
  for _, a in ipairs(cells) do
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

-- gtp_points(list, size) -> SGF points of the GTP coordinates that parse (others left out)
local function gtp_points(list, size)
  local out = {}
  for _, c in ipairs(list or {}) do
    local pt = go.parse_point(tostring(c), size)
    if pt and pt ~= "pass" then out[#out + 1] = pt end
  end
  return out
end

-- frames(rec, p) -> the board the model saw (the transformed problem), its options,
-- the accepted answers and the chosen move, then one frame per closed-loop move
function M.frames(rec, p)
  local transforms = require "scenarios.tsugo.transforms"
  local q = rec.transform and rec.transform ~= "identity" and transforms.apply(p, rec.transform, rec.seed) or p
  local size = q.size
  local labels = {}
  for i, o in ipairs(rec.options or {}) do
    local pt = go.parse_point(tostring(o), size)
    if pt and pt ~= "pass" then labels[string.char(64 + i)] = pt end
  end
  local accepted = rec.accepted and gtp_points(rec.accepted, size) or q.correct or {}
  local chosen = rec.answer and go.parse_point(tostring(rec.answer), size) or nil
  local what = { string.format("%s to play", q.to_play) }
  if rec.kind ~= "reference" then
    what[#what + 1] = "answer " .. tostring(rec.answer or "none") .. (rec.letter and (" (" .. rec.letter .. ")") or "")
  end
  what[#what + 1] = "accepted " .. table.concat(rec.accepted or p.correct_gtp or {}, ", ")
  local cl = rec.closed_loop
  local near = {}
  for _, pt in pairs(labels) do near[#near + 1] = pt end
  for _, pt in ipairs(accepted) do near[#near + 1] = pt end
  if chosen then near[#near + 1] = chosen end
  for _, m in ipairs(cl and type(cl.moves) == "table" and cl.moves or {}) do near[#near + 1] = go.parse_point(tostring(m), size) end
  local crop = svg.crop(size, q.region, near)
  local frames = { { board = { svg = svg.board(q, { labels = labels, accepted = accepted, chosen = chosen, crop = crop }),
    stones = #q.stones.black + #q.stones.white }, label = "problem " .. tostring(p.id) .. ": " .. table.concat(what, "; ") } }
  if cl and type(cl.moves) == "table" then
    local g = go.position(size, q.stones, q.to_play)
    local colour, played = q.to_play, {}
    for i, m in ipairs(cl.moves) do
      local pt = go.parse_point(tostring(m), size)
      if not pt then break end
      local who = i % 2 == 1 and "model" or "defence"
      if pt == "pass" then g:set_to_move(go.other(colour))
      elseif not g:play(pt, colour) then break end
      played[#played + 1] = pt
      local grid_stones = 0
      for _, row in ipairs(g:grid()) do for _, v in ipairs(row) do if v ~= 0 then grid_stones = grid_stones + 1 end end end
      frames[#frames + 1] = { board = { svg = svg.board(g, { last = pt, crop = crop, numbers = played }), stones = grid_stones },
        label = string.format("closed loop, move %d (%s, %s): %s%s", i, who, colour, tostring(m),
          i == #cl.moves and string.format(" — %s (%s)", cl.solved and "solved" or "not solved", tostring(cl.reason)) or "") }
      colour = go.other(colour)
    end
  end
  return frames
end

function M.trial(rec, kit, src)
  local p = problem_of(src, rec.problem_id)
  local frames = p and M.frames(rec, p) or {}
  if rec.tree and p and rec.transform == "identity" then
    frames[#frames + 1] = { board = { svg = M.trees_svg(rec, p.tree, p.size) }, label = "process tree and reference tree" }
  end
  local facts = {}
  if rec.metrics then
    facts[#facts + 1] = { "SearchE", num(rec.metrics.searche) }
    facts[#facts + 1] = { "SWR / SFH / SCR", string.format("%s / %s / %s", pct(rec.metrics.swr), pct(rec.metrics.sfh), pct(rec.metrics.scr)) }
    facts[#facts + 1] = { "TNC / TMD / TMF", string.format("%s / %s / %s", tostring(rec.metrics.tnc), tostring(rec.metrics.tmd), tostring(rec.metrics.tmf)) }
  end
  if rec.tree_rejected then facts[#facts + 1] = { "tree rejected", rec.tree_rejected } end
  local messages = {}
  if rec.reply then messages[1] = { role = "assistant", text = rec.reply, reasoning = rec.reasoning, usage = rec.usage, cost = rec.cost } end
  local verdict = { outcome = rec.status or "?", { "reason", tostring(rec.reason) } }
  if rec.kind ~= "reference" then
    verdict[#verdict + 1] = { "answer", tostring(rec.answer or "none") .. (rec.letter and (" (" .. rec.letter .. ")") or "") }
    verdict[#verdict + 1] = { "expected", table.concat(rec.accepted or {}, " or ") }
  end
  if rec.closed_loop then verdict[#verdict + 1] = { "ending", (rec.closed_loop.solved and "solved" or "not solved") .. ", " .. tostring(rec.closed_loop.reason) } end
  -- the closed loop's turn k is call k: it is shown on the frame after the model's k-th move
  local call_frames = {}
  if rec.closed_loop then for k = 1, (rec.closed_loop.model_moves or 0) + 1 do call_frames[k] = math.min(#frames, 2 * (k - 1) + 1) end end
  return { frames = frames, facts = facts, messages = messages, verdict = verdict, call_frames = call_frames,
    legend = "Board: red letters are the K=4 options, green squares the accepted answers, the dashed blue ring the chosen move, "
      .. "a small ring the last move. " .. M.LEGEND }
end

return M
