-- scenarios/tsugo/closed_loop.lua — closed-loop solving (beyond the paper):
-- after the model's first move the opponent answers and the model plays on,
-- until the goal is decided. The Go counterpart of XiangqiBench's conversion
-- gap: first-move accuracy next to the solved rate.
--
-- The rule:
--  * "solved" only when the goal is reached on the board: for a kill the
--    target captured, for a live problem the target unconditionally alive —
--    the local solver's terminal test (games.go.solve.status: capture,
--    Benson's life or two one-point eyes) after every move. The opponent
--    reaching its own goal fails the line; so do an illegal move, no answer,
--    and reaching the move limit (ceil(depth / 2) + 4 model moves) without the
--    goal;
--  * the opponent's reply comes from the local solver where it decides (5000
--    nodes per reply tried; the replies tried are the target's liberties and
--    the allowed points within two steps of it, at most 16): a reply proven
--    to refute the model's line if there is one, else the proven-losing
--    reply that resists longest; where the solver cannot decide every reply
--    tried, from GNU Go's owl reader on the framed board (games.go.frame: its
--    best local attack or defence of the target), else from MCTS/UCT;
--  * a first move the problem's answers reject is never solved: the reference
--    says it fails against correct defence, so reaching the goal after it
--    means the opponent erred where the solver could not decide (GNU Go or
--    MCTS answered) or the reference lists fewer answers than work. Such a
--    line is recorded with reason "first_move_rejected" and goal_reached =
--    true, and counts as not solved (the report says how many);
--  * at the limit the record also keeps what framed GNU Go thinks of the
--    final position (`gnugo_view`), never as the verdict.
--  An opponent pass is shown as "pass".
local go = require "games.go"
local gnugo = require "games.go.gnugo"
local solve = require "games.go.solve"
local answers = require "scenarios.tsugo.answers"
local mcts = require "scenarios.tsugo.mcts"

local M = {}

local NAMES = { black = "Black", white = "White" }

M.EXTRA_MOVES = 4

-- the presented problem at the current position (for the engine player and MCTS)
local function at(q, g)
  local p = {}
  for k, v in pairs(q) do p[k] = v end
  p.stones, p.to_play = g:stones(), g:to_move()
  return p
end

-- GNU Go's best local move for the side to move on the framed board, and
-- whether that side can still reach its goal (owl: attack or defend the target)
local function gnugo_move(e, g, s, q)
  gnugo.setup(e, { size = q.size, stones = g:stones(), to_play = g:to_move(), region = q.region }, s.attacker)
  local ask = g:to_move() == s.attacker and gnugo.owl_attack or gnugo.owl_defend
  local code, pt = ask(e, s.target)
  return pt, code > 0
end

-- candidates(g, query) -> the opponent's replies the solver tries, nearest the
-- target first: its liberties, then allowed points within two steps of it,
-- at most M.REPLIES of them
M.REPLIES = 16
local function candidates(g, query)
  local chain, libs = g:group(query.target)
  local allowed, near, out, seen = {}, {}, {}, {}
  for _, pt in ipairs(query.allowed) do allowed[pt] = true end
  for _, st in ipairs(chain or {}) do
    local x, y = go.sgf_xy(st)
    for dx = -2, 2 do
      for dy = -2 + math.abs(dx), 2 - math.abs(dx) do
        local nx, ny = x + dx, y + dy
        if nx >= 0 and ny >= 0 and nx < g:size() and ny < g:size() then near[go.xy_sgf(nx, ny)] = true end
      end
    end
  end
  local function add(pt)
    if #out < M.REPLIES and not seen[pt] and allowed[pt] then seen[pt] = true; out[#out + 1] = pt end
  end
  for _, l in ipairs(libs or {}) do add(l) end
  for _, pt in ipairs(query.allowed) do if near[pt] then add(pt) end end
  return out
end

-- solver_reply(g, q) -> point | "pass" | nil: the opponent's reply by the solver, nil when it cannot decide
local function solver_reply(g, query, points)
  local refute, longest, longest_depth
  local undecided = false
  local function try(pt)
    if not g:play(pt) then return end
    local res, depth = solve.position(g, query)    -- for the model, now to move
    g:undo()
    if res == "loss" then refute = refute or pt
    elseif res == "win" then
      if not longest_depth or (depth or 0) > longest_depth then longest, longest_depth = pt, depth or 0 end
    else undecided = true end
  end
  for _, pt in ipairs(points) do
    if not refute and not g:get(pt) and g:is_legal(pt) then try(pt) end
  end
  if not refute then try("pass") end
  if refute then return refute end
  if undecided then return nil end
  return longest
end

-- goal(g, s) -> "attacker" | "defender" | nil: who has reached its goal on the board
local function goal(g, s)
  if g:get(s.target) ~= s.defender then return "attacker" end
  return solve.status(g, s.query)
end

-- run(spec) -> result | nil, infra error
-- spec: q (presented problem), first (SGF of the model's first move), frame,
-- say(text, position) -> reply | nil, err (the next model turn), P (prompts), gnugo (pool or nil), seed,
-- nodes (solver budget per reply tried, default 5000)
function M.run(spec)
  local q = spec.q
  local s = mcts.setting(q)
  if not s.query then return { solved = false, reason = "no_group_at_stake", moves = {}, model_moves = 0 } end
  s.attacker = go.other(s.defender)
  local query = {}
  for k, v in pairs(s.query) do query[k] = v end
  query.nodes = spec.nodes or 5000
  query.depth = math.min(query.depth or 40, 40)
  local g = go.position(q.size, q.stones, q.to_play)
  local me, them = q.to_play, go.other(q.to_play)
  local model_side = me == s.attacker and "attacker" or "defender"
  local show = function(pt) return pt == "pass" and "pass" or spec.frame.label(go.to_gtp(pt, q.size), q.size) end
  local shown = {}
  local limit = math.max(1, math.ceil((q.depth or 2) / 2) + M.EXTRA_MOVES)
  local mine = spec.first
  local model_moves = 0
  local function finish(solved, reason, extra)
    local r = { solved = solved, reason = reason, moves = shown, model_moves = model_moves }
    for k, v in pairs(extra or {}) do r[k] = v end
    return r
  end
  local rejected = true
  for _, c in ipairs(q.correct or {}) do if c == spec.first then rejected = false end end
  local function decided()
    local w = goal(g, s)
    if not w then return nil end
    if w == model_side and rejected then return finish(false, "first_move_rejected", { goal_reached = true }) end
    if w == model_side then return finish(true, model_side == "attacker" and "target_captured" or "target_alive") end
    return finish(false, model_side == "attacker" and "target_alive" or "target_captured")
  end
  while true do
    -- the model's move
    if not mine then return finish(false, "no_answer") end
    if not g:play(mine, me) then return finish(false, "illegal") end
    model_moves = model_moves + 1
    shown[#shown + 1] = show(mine)
    local d = decided()
    if d then return d end
    if model_moves >= limit then
      local view
      if spec.gnugo then
        local ok, _, can = pcall(spec.gnugo.with, spec.gnugo, function(e) return gnugo_move(e, g, s, q) end)
        if ok then view = can and "the opponent still succeeds" or "the opponent no longer succeeds" end
      end
      return finish(false, "limit", { gnugo_view = view })
    end
    -- the opponent's reply
    local reply = solver_reply(g, query, candidates(g, query))
    if not reply and spec.gnugo then
      local ok, pt = pcall(spec.gnugo.with, spec.gnugo, function(e) return (gnugo_move(e, g, s, q)) end)
      if not ok then
        return nil, { infra = true, message = "closed loop: gnugo: " .. (type(pt) == "table" and tostring(pt.message) or tostring(pt)) }
      end
      reply = pt
    end
    if reply and reply ~= "pass" and not g:is_legal(reply, them) then reply = nil end
    if not reply then
      local r = mcts.run(at(q, g), { seed = spec.seed, playouts = 200 })
      reply = r.top or "pass"
    end
    if reply ~= "pass" then
      if not g:play(reply, them) then reply = "pass"; g:set_to_move(me) end
    else
      g:set_to_move(me)
    end
    shown[#shown + 1] = show(reply)
    d = decided()
    if d then return d end
    local text = spec.P:fill("closed_loop_turn", { opponent = NAMES[them], reply = show(reply), moves = table.concat(shown, ", "),
      side = NAMES[me] })
    local r, err = spec.say(text, at(q, g))
    if not r then return nil, err end
    local got = answers.extract(r.text, { size = q.size, parse = spec.frame.parse })
    mine = got.answer and go.from_gtp(got.answer, q.size) or nil
  end
end

return M
