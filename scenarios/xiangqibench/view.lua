-- scenarios.xiangqibench.view — XiangqiBench's parts of report.html (the S.view hook):
-- pass@k / pass^k curves with intervals per setting, endings, and a trial view
-- whose frames are the positions after every ply, with the agent's move and
-- the defender's reply as arrows, simulated lines as numbered dashed arrows
-- (beside the reply the defender really played), and illegal or rejected
-- moves marked.
local report = require "scenarios.xiangqibench.report"

local M = {}

M.LEGEND = "Blue: the agent's move (faded: the one before the reply). Red: the defender's reply. "
  .. "Dashed purple, numbered s1, s2…: a simulated line (on the position it was asked from, and beside the real reply). "
  .. "Dashed orange with ✕: an illegal or rejected move."

function M.overview(src, kit)
  local html, plot = kit.html, kit.plot
  local sm = report.compute(src.recs, src.meta)
  local series, rows, ks = {}, {}, {}
  for i, s in ipairs(sm.order) do
    local col = plot.PALETTE[(i - 1) % #plot.PALETTE + 1]
    local at, hat = {}, {}
    for _, r in ipairs(sm.settings[s].pass) do
      at[#at + 1] = { r.k, r.pass_at.value, r.pass_at.lo, r.pass_at.hi }
      hat[#hat + 1] = { r.k, r.pass_hat.value, r.pass_hat.lo, r.pass_hat.hi }
      ks[r.k] = r.k
      rows[#rows + 1] = { s, sm.settings[s].cases, r.k, html.interval(r.pass_at), html.interval(r.pass_hat) }
    end
    series[#series + 1] = { name = s .. " pass@k", points = at, color = col }
    series[#series + 1] = { name = s .. " pass^k", points = hat, color = col, dash = true }
  end
  local notice = "<p><strong>" .. html.esc(sm.defender_line) .. "</strong></p>"
  if not sm.standard then
    notice = notice .. "<p><strong>NON-STANDARD run (not comparable with the official leaderboard): "
      .. html.esc(table.concat(sm.nonstandard, "; ")) .. ".</strong></p>"
  end
  local panels = {
    { title = "Defender and settings", html = html.raw(notice) },
    { title = string.format("pass@k and pass^k, earliest %d trials per case (95%% case-bootstrap intervals)", sm.headline_trials),
      html = html.raw(plot.lines({ title = "pass@k (solid) and pass^k (dashed) by k", xlabel = "k", ylabel = "rate",
        ymin = 0, ymax = 1, percent = true, series = series, xticks = ks })) },
    { title = "Headline", html = html.table({ "setting", "cases", "k", "pass@k", "pass^k" }, rows) },
  }
  local more = {}
  for _, s in ipairs(sm.order) do
    local all = sm.settings[s].all_trials
    for _, r in ipairs(all and all.pass or {}) do
      more[#more + 1] = { s, all.trials, r.cases, r.k, html.interval(r.pass_at), html.interval(r.pass_hat) }
    end
  end
  if #more > 0 then
    panels[#panels + 1] = { title = string.format("All scored trials (beyond the earliest %d per case; not the official table)",
      sm.headline_trials), html = html.table({ "setting", "trials", "cases", "k", "pass@k", "pass^k" }, more) }
  end
  local reasons = {}
  for k in pairs(sm.reasons) do reasons[#reasons + 1] = k end
  table.sort(reasons)
  local groups = {}
  for _, k in ipairs(reasons) do groups[#groups + 1] = { label = k:gsub("_", " "), values = { { sm.reasons[k] } } } end
  if #groups > 0 then
    panels[#panels + 1] = { title = "Endings", html = html.raw(plot.bars({ title = "trials by ending", ylabel = "trials", groups = groups })) }
  end
  local diffs = {}
  for _, d in ipairs(sm.differences) do
    if d.diff then diffs[#diffs + 1] = { d.a .. " − " .. d.b, string.format("%+.1f pts [%+.1f, %+.1f]", 100 * d.diff.value,
      100 * d.diff.lo, 100 * d.diff.hi), d.diff.cases } end
  end
  if #diffs > 0 then
    panels[#panels + 1] = { title = "Setting differences (pass@1, paired)", html = html.table({ "settings", "difference", "cases" }, diffs) }
  end
  local c, sim = sm.conversion, sm.simulation
  panels[#panels + 1] = { title = "Conversion and simulation gaps", html = html.table({ "measure", "value" }, {
    { "first move = reference move", html.pct(c.first_move_is_reference) .. " of " .. c.trials_with_a_move .. " trials" },
    { "win rate, reference first move", html.pct(c.win_rate_reference_first) },
    { "win rate, other first move", html.pct(c.win_rate_other_first) },
    { "simulations complete / illegal / terminal", string.format("%d / %d / %d", sim.outcomes.complete or 0, sim.outcomes.illegal or 0,
      (sim.outcomes.terminal or 0) + (sim.outcomes.cap or 0)) },
    { "adopted lines; defender diverged", string.format("%d; %s", sim.adopted, html.pct(sim.defender_diverged)) },
  }) }
  panels[#panels + 1] = require("tabula.robustness").panel(sm.robustness, html, "Robustness (success rate over all scored trials)")
  return panels
end

local function sim_arrows(sim, upto, extra)
  local out = {}
  for i, p in ipairs(sim.plies or {}) do
    if i > upto then break end
    if p.valid then out[#out + 1] = { move = p.move, kind = "sim", label = "s" .. i } end
  end
  for _, a in ipairs(extra or {}) do out[#out + 1] = a end
  return out
end

function M.trial(rec, kit)
  local frames = { { board = { game = "xiangqi", fen = rec.initial_fen, arrows = {}, marks = {} }, label = "start" } }
  local moves = rec.moves or {}
  for i, mv in ipairs(moves) do
    local arrows = { { move = mv.move, kind = mv.by == "agent" and "agent" or "defender" } }
    if mv.by ~= "agent" and moves[i - 1] then table.insert(arrows, 1, { move = moves[i - 1].move, kind = "previous" }) end
    local who = mv.by == "agent" and "agent" or ("defender, " .. tostring((mv.defender or {}).backend or mv.by))
    frames[#frames + 1] = { board = { game = "xiangqi", fen = mv.fen_after, arrows = arrows, marks = {} },
      label = string.format("ply %d: %s (%s)", mv.ply, mv.description or mv.move, who) }
  end
  -- simulated lines: the whole line on the position it was asked from; its
  -- first two plies again beside the agent's real move and the real reply
  for _, sim in ipairs(rec.simulations or {}) do
    local at = frames[(sim.ply or 0) + 1]
    if at then at.board.arrows = sim_arrows(sim, math.huge, at.board.arrows) end
    local reply = frames[(sim.ply or 0) + 3]
    local real = moves[(sim.ply or 0) + 1]
    if reply and real and sim.plies and sim.plies[1] and real.move == sim.plies[1].move then
      local a = reply.board.arrows
      reply.board.arrows = sim_arrows(sim, 2, a)
      reply.label = reply.label .. " — simulated reply: " .. tostring(sim.plies[2] and sim.plies[2].move or "none")
    end
  end
  local msgs, marks = {}, {}
  if rec.system_prompt then msgs[#msgs + 1] = { role = "system", text = rec.system_prompt, fold = true, frame = 0 } end
  if rec.initial_message then msgs[#msgs + 1] = { role = "user", text = rec.initial_message, frame = 0 } end
  for i, a in ipairs(rec.actions or {}) do
    local bad = a.kind ~= "accepted" and a.kind or nil
    marks[i] = bad
    local at = a.ply or 0
    msgs[#msgs + 1] = { role = "assistant", title = string.format("assistant · turn %s", tostring(a.turn)), text = a.model_text,
      reasoning = a.reasoning, usage = a.usage, cost = a.cost, mark = bad, frame = at }
    local cmd = a.command or {}
    if bad and cmd.move and frames[at + 1] then
      local b = frames[at + 1].board
      b.arrows[#b.arrows + 1] = { move = cmd.move, kind = "illegal" }
      b.marks[#b.marks + 1] = { sq = cmd.move:sub(3, 4), kind = "x" }
    end
    local after = at
    if not bad and cmd.name == "move" then after = math.min(at + 2, #moves) end
    if a.feedback then msgs[#msgs + 1] = { role = "user", title = "tabula", text = a.feedback, frame = after } end
  end
  local u = rec.usage or {}
  return {
    frames = frames, messages = msgs, call_marks = marks, legend = M.LEGEND,
    facts = {
      { "case", tostring(rec.case_id) .. (rec.category and (" (" .. rec.category .. ")") or "") },
      { "setting", rec.setting }, { "outcome", tostring(rec.status) .. ": " .. tostring(rec.reason) },
      { "plies", string.format("%s (stored mate distance %s)", tostring(rec.plies), tostring(rec.stored_mate_plies)) },
      { "first move / reference", tostring(rec.first_move) .. " / " .. tostring(rec.reference_move) },
      { "calls, tokens, cost", string.format("%s calls; %d in, %d out, %d reasoning; $%.4f", tostring(rec.calls),
        u.input or 0, u.output or 0, u.reasoning or 0, rec.cost or 0) },
    },
  }
end

return M
