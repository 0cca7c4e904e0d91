-- scenarios.jianghu108.view — Jianghu108's parts of report.html (the S.view
-- hook): accuracy by circumstance and by whether the answer is E (with Wilson
-- intervals), the letters chosen against the answers (per-letter bias), and a
-- trial view with the problem's position, the correct option and the chosen
-- one drawn as arrows. The position comes from the run's problem file (its
-- path in run.json); without it the view shows the problem as text.
local jh = require "games.xiangqi.jianghu"
local notation = require "games.xiangqi.notation"
local report = require "scenarios.jianghu108.report"
local fs = require "tabula.fs"

local M = {}

M.LEGEND = "Green dashed: the correct option's move. Blue: the option the model chose (when it is another move)."

function M.row(rec)
  return { case = rec.problem_id and tostring(rec.problem_id), setting = rec.circumstance }
end

function M.overview(src, kit)
  local html, plot, metrics = kit.html, kit.plot, kit.metrics
  local sm = report.compute(src.recs)
  local groups = {}
  for _, g in ipairs({ { "all", sm.overall }, { "Red wins", sm.by_circumstance.win }, { "draw", sm.by_circumstance.draw },
    { "E", sm.by_answer.E }, { "not E", sm.by_answer.not_E } }) do
    local lo, hi = metrics.wilson(g[2].correct, g[2].n)
    groups[#groups + 1] = { label = string.format("%s (n=%d)", g[1], g[2].n), values = { { g[2].accuracy, lo, hi } } }
  end
  local letters = {}
  for _, l in ipairs({ "A", "B", "C", "D", "E", "none" }) do
    letters[#letters + 1] = { label = l, values = { { sm.chosen_letters[l] or 0 }, { sm.answer_letters[l] or 0 } } }
  end
  return {
    { title = "Accuracy (95% Wilson intervals)", html = html.raw(plot.bars({ title = "accuracy by circumstance and answer",
      ymax = 1, percent = true, groups = groups })) },
    { title = "Per-letter bias", html = html.raw(plot.bars({ title = "letters chosen against correct answers", ylabel = "trials",
      names = { "chosen", "correct answer" }, groups = letters })) },
    { title = "Extraction", html = html.table({ "method", "trials" }, {
      { "box", sm.extraction.box or 0 }, { "isolated letter", sm.extraction.letter or 0 },
      { "no answer", sm.extraction.none or 0 }, { "empty reply", sm.extraction.empty or 0 } }) },
  }
end

-- problems(src) -> id -> problem, from the run's problem file (cached on src)
local function problems(src)
  if src.jianghu_problems then return src.jianghu_problems end
  local by = {}
  local path = src.meta and src.meta.data and src.meta.data.problems
  if path and fs.kind(path) == "file" then
    local ok, list = pcall(jh.load, path)
    if ok then for _, p in ipairs(list) do by[tostring(p.id)] = p end end
  end
  src.jianghu_problems = by
  return by
end

function M.trial(rec, _, src)
  local p = problems(src)[tostring(rec.problem_id)]
  local frame
  if p then
    local b = notation.jianghu_board(p.Red, p.Black)
    if b then
      local arrows = {}
      local function option(letter, kind)
        local i = ({ A = 1, B = 2, C = 3, D = 4 })[letter or ""]
        local m = i and notation.from_jianghu(b, jh.option_text(p, i))
        if m then arrows[#arrows + 1] = { move = m, kind = kind, label = letter } end
      end
      option(rec.answer, "hint")
      if rec.extracted ~= rec.answer then option(rec.extracted, "agent") end
      -- labelled as the prompt and the picture write the board: files A-I, ranks 1-10
      frame = { board = { game = "xiangqi", fen = b:fen(), arrows = arrows, coords = "A1" },
        label = string.format("problem %s: answer %s, chosen %s", tostring(rec.problem_id), tostring(rec.answer), tostring(rec.extracted or "none")) }
    end
  end
  if not frame then
    local text = p and (p.Red .. "\n" .. p.Black .. "\n" .. table.concat(p.options, "\n")) or ("problem " .. tostring(rec.problem_id) .. " (problem file not found)")
    frame = { board = { game = "text", text = text }, label = "problem " .. tostring(rec.problem_id) }
  end
  return {
    frames = { frame }, legend = M.LEGEND,
    verdict = { outcome = rec.status or "?", { "reason", tostring(rec.reason or (rec.correct and "correct" or "wrong")) },
      { "answer", tostring(rec.extracted or "none") }, { "expected", tostring(rec.answer) } },
    messages = { { role = "assistant", text = rec.reply, reasoning = rec.reasoning, usage = rec.usage, cost = rec.cost,
      mark = (not rec.correct) and (rec.extracted and "wrong" or "no answer") or nil, frame = 0 } },
    call_marks = { (not rec.correct) and (rec.extracted and "wrong" or "no answer") or nil },
    facts = { { "problem", rec.problem_id }, { "circumstance", rec.circumstance }, { "answer / chosen", tostring(rec.answer) .. " / " ..
      tostring(rec.extracted or "none") .. " (" .. tostring(rec.extraction) .. ")" }, { "language, vision", tostring(rec.lang) .. ", " .. tostring(rec.vision) } },
  }
end

return M
