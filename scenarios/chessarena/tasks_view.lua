-- scenarios.chessarena.tasks_view — the fine-grained chess tasks' parts of report.html
-- (each scenario's S.view): puzzles (PSA by rating band, the puzzle line with
-- the model's moves), basic understanding (PMA, precision and recall by item
-- kind; the asked square and the moves named against the true ones) and move
-- selection (LR, TR, MAR; the chosen move against the engine's best).
local chess = require "games.chess"
local tasks = require "scenarios.chessarena.tasks"

local M = {}

local function board(fen, arrows, marks)
  return { game = "chess", fen = fen, arrows = arrows or {}, marks = marks or {} }
end

local function reply_message(text, rec_or_step, mark, frame, title)
  return { role = "assistant", title = title, text = text, usage = rec_or_step.usage, cost = rec_or_step.cost, mark = mark, frame = frame }
end

-- ---- puzzles ----

M.puzzles = { LEGEND = "Red: the puzzle's moves for the opponent. Blue: the model's move. Green dashed: the solution's move where the model missed it." }

function M.puzzles.row(rec)
  return { case = rec.puzzle_id, setting = rec.band, reason = rec.solved and "solved" or "missed" }
end

function M.puzzles.overview(src, kit)
  local bands, order = {}, {}
  for _, r in ipairs(src.recs) do
    if r.band then
      if not bands[r.band] then bands[r.band] = { n = 0, c = 0 }; order[#order + 1] = r.band end
      bands[r.band].n = bands[r.band].n + 1
      if r.solved then bands[r.band].c = bands[r.band].c + 1 end
    end
  end
  table.sort(order, function(a, b) return (tonumber(a:match("^%d+")) or 0) < (tonumber(b:match("^%d+")) or 0) end)
  local groups = {}
  for _, b in ipairs(order) do
    local lo, hi = kit.metrics.wilson(bands[b].c, bands[b].n)
    groups[#groups + 1] = { label = string.format("%s (n=%d)", b, bands[b].n), values = { { bands[b].c / bands[b].n, lo, hi } } }
  end
  return { { title = "Puzzle solving accuracy by rating band (95% Wilson intervals)",
    html = kit.html.raw(kit.plot.bars({ title = "PSA by band", ymax = 1, percent = true, groups = groups })) } }
end

function M.puzzles.trial(rec)
  local msgs, call_frames, marks = {}, {}, {}
  if not rec.fen or not rec.line then
    for i, st in ipairs(rec.steps or {}) do msgs[#msgs + 1] = reply_message(st.reply, st, (not st.right) and "wrong" or nil, 0) end
    return { frames = { { board = { game = "text", text = "puzzle " .. tostring(rec.puzzle_id) .. " (the record holds no position)" } } }, messages = msgs }
  end
  local g = chess.new(rec.fen)
  local frames = { { board = board(rec.fen), label = "puzzle position" } }
  local function push(u, kind, label, extra)
    if not g or not g:play(u) then return end
    local arrows = { { move = u, kind = kind } }
    for _, a in ipairs(extra or {}) do arrows[#arrows + 1] = a end
    frames[#frames + 1] = { board = board(g:fen(), arrows), label = label }
  end
  push(rec.line[1], "defender", "the opponent's setup move " .. rec.line[1])
  for i, st in ipairs(rec.steps or {}) do
    local at = #frames - 1
    call_frames[i] = at + 1
    marks[i] = (not st.right) and "wrong" or nil
    msgs[#msgs + 1] = reply_message(st.reply, st, marks[i], at, "assistant · move " .. i)
    if st.choice then
      push(st.choice, "agent", string.format("model: %s%s", st.choice, st.right and "" or (" (solution " .. tostring(st.want) .. ")")),
        (not st.right and st.want) and { { move = st.want, kind = "hint" } } or nil)
    elseif frames[#frames] then
      local b = frames[#frames].board
      if st.want then b.arrows[#b.arrows + 1] = { move = st.want, kind = "hint" } end
    end
    local reply = rec.line[2 * i + 1]
    if st.right and reply then push(reply, "defender", "opponent: " .. reply) end
  end
  -- the verdict: the moves the model played against the solution's
  local chosen = {}
  for i, st in ipairs(rec.steps or {}) do chosen[i] = tostring(st.choice or "none") end
  local want = {}
  for i = 2, #rec.line, 2 do want[#want + 1] = rec.line[i] end
  local verdict = { outcome = rec.status or "?", { "reason", rec.solved and "solved" or "missed" },
    { "answer", table.concat(chosen, " ") }, { "expected", table.concat(want, " ") } }
  return { frames = frames, messages = msgs, call_frames = call_frames, call_marks = marks, legend = M.puzzles.LEGEND, verdict = verdict,
    facts = { { "puzzle", rec.puzzle_id }, { "rating", rec.rating }, { "solution", table.concat(rec.line, " ") },
      { "solved", tostring(rec.solved) } } }
end

-- ---- basic understanding ----

M.understanding = { LEGEND = "Green ring: the square asked about. Green dashed: its true legal moves. Blue: moves the model named that are legal; orange: moves it named that are not." }

function M.understanding.row(rec)
  return { case = tostring(rec.square), setting = rec.kind, reason = rec.parse_error and "parse error" or (rec.piece_match and "piece right" or "piece wrong") }
end

function M.understanding.overview(src, kit)
  local all, by, kinds = {}, {}, {}
  for _, r in ipairs(src.recs) do
    if r.truth then
      local p = { truth = r.truth, answer = r.answer }
      all[#all + 1] = p
      if not by[r.kind] then by[r.kind] = {}; kinds[#kinds + 1] = r.kind end
      table.insert(by[r.kind], p)
    end
  end
  table.sort(kinds)
  local groups, rows = {}, {}
  for _, k in ipairs({ "all", table.unpack(kinds) }) do
    local s = tasks.score_understanding(k == "all" and all or by[k])
    groups[#groups + 1] = { label = string.format("%s (n=%d)", k, s.n), values = { { s.pma }, { s.precision }, { s.recall } } }
    rows[#rows + 1] = { k, s.n, kit.html.pct(s.pma), kit.html.pct(s.precision), kit.html.pct(s.recall) }
  end
  return {
    { title = "Basic understanding", html = kit.html.raw(kit.plot.bars({ title = "PMA, precision and recall by item kind", ymax = 1,
      percent = true, names = { "PMA", "precision", "recall" }, groups = groups })) },
    { title = "Scores", html = kit.html.table({ "items", "n", "PMA", "precision", "recall" }, rows) },
  }
end

function M.understanding.trial(rec)
  local truth, answer = rec.truth or {}, rec.answer or {}
  local legal, arrows = {}, {}
  for _, u in ipairs(truth.legal_moves or {}) do legal[u] = true; arrows[#arrows + 1] = { move = u, kind = "hint" } end
  for _, u in ipairs(answer.legal_moves or {}) do arrows[#arrows + 1] = { move = u, kind = legal[u] and "agent" or "illegal" } end
  local mark = (rec.status ~= "success") and (rec.parse_error and "parse error" or "wrong") or nil
  local function said(x) return string.format("%s: %s", tostring(x.piece or "none"), table.concat(x.legal_moves or {}, " ")) end
  local verdict = { outcome = rec.status or "?", { "reason", M.understanding.row(rec).reason }, { "answer", said(answer) },
    { "expected", said(truth) } }
  return { verdict = verdict, frames = { { board = board(rec.fen, arrows, { { sq = rec.square, kind = "ring" } }),
      label = string.format("square %s: piece %s, answered %s", tostring(rec.square), tostring(truth.piece or "none"), tostring(answer.piece or "none")) } },
    messages = { reply_message(rec.reply, rec, mark, 0) }, call_marks = { mark }, legend = M.understanding.LEGEND,
    facts = { { "position", rec.fen }, { "square, kind", tostring(rec.square) .. ", " .. tostring(rec.kind) },
      { "true moves", table.concat(truth.legal_moves or {}, " ") }, { "answered moves", table.concat(answer.legal_moves or {}, " ") } } }
end

-- ---- move selection ----

M.selection = { LEGEND = "Blue: the model's move. Green dashed: the engine's best move." }

function M.selection.row(rec)
  return { case = rec.fen, reason = rec.legal and "legal" or tostring(rec.error_kind or "illegal") }
end

function M.selection.overview(src, kit)
  local items = {}
  for _, r in ipairs(src.recs) do if r.q then items[#items + 1] = { q = r.q, choice = r.choice } end end
  local s = tasks.score_selection(items)
  return {
    { title = "Move selection", html = kit.html.raw(kit.plot.bars({ title = "legal rate and top-move rate", ymax = 1, percent = true,
      groups = { { label = "LR", values = { { s.lr } } }, { label = "TR", values = { { s.tr } } } } })) },
    { title = "Scores", html = kit.html.table({ "positions", "LR", "TR", "MAR" },
      { { s.n, kit.html.pct(s.lr), kit.html.pct(s.tr), s.mar and string.format("%+.3f", s.mar) or "n/a" } }) },
  }
end

function M.selection.trial(rec)
  local best
  for m, v in pairs(rec.q or {}) do if not best or v > rec.q[best] or (v == rec.q[best] and m < best) then best = m end end
  local arrows = {}
  if best then arrows[#arrows + 1] = { move = best, kind = "hint" } end
  if rec.choice then arrows[#arrows + 1] = { move = rec.choice, kind = "agent" } end
  local mark = (not rec.legal) and "illegal" or nil
  local verdict = { outcome = rec.status or "?", { "reason", M.selection.row(rec).reason }, { "answer", tostring(rec.choice or "none") },
    { "expected", tostring(best) .. " (the engine's best)" } }
  return { verdict = verdict, frames = { { board = board(rec.fen, arrows), label = string.format("chosen %s, best %s", tostring(rec.choice or "none"), tostring(best)) } },
    messages = { reply_message(rec.reply, rec, mark, 0) }, call_marks = { mark }, legend = M.selection.LEGEND,
    facts = { { "position", rec.fen }, { "choice", tostring(rec.choice) .. (rec.error and (" (" .. rec.error .. ")") or "") },
      { "win probability of the choice", rec.q_choice and string.format("%.3f", rec.q_choice) or "n/a" } } }
end

return M
