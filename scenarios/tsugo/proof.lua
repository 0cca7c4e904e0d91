-- scenarios/tsugo/proof.lua — the built-in engine player's exact reading:
-- the local solver (games.go.solve) on the candidate first moves, and the
-- lines that show its verdicts (a proven move's main line, the refutation of
-- a failing move).
--
-- The rule:
--  * the question is games.go.solve.query(p) (the suite's own target and
--    allowed points, else the region and its weakest big chain); the moves
--    tried are the four options under K=4, else the query's allowed points;
--  * the node budget (`nodes`) is split evenly over the moves tried: each
--    solver call (a move is asked twice, once per ko winner) gets
--    nodes / (2 x moves tried), at least 1;
--  * the answer is the first proven move in the order tried; none proven (a
--    move left open, or every move fails) and the solver has given up;
--  * a line (at most LINE moves with the first): while nothing is decided,
--    the side proven to win plays its first allowed move that keeps the win,
--    the side proven to lose the reply whose loss has the longest proof (the
--    most stubborn resistance); an unproven position, a pass or no such move
--    ends it.
local go = require "games.go"
local solve = require "games.go.solve"

local M = {}

M.LINE = 8

-- after(g, q, pt) -> the result of playing pt for the side that plays it, and the proof depth
local function after(g, q, pt)
  g:play(pt)
  local res, depth = solve.position(g, q)
  g:undo()
  return res == "loss" and "win" or res == "win" and "loss" or "unknown", depth or 0
end

local function playable(g, pt) return not g:get(pt) and g:is_legal(pt) end

-- keep(g, q) -> the first allowed move that wins for the side to move
local function keep(g, q)
  for _, pt in ipairs(q.allowed) do
    if playable(g, pt) and after(g, q, pt) == "win" then return pt end
  end
end

-- stubborn(g, q) -> the replies of the side to move (proven to lose), the
-- most stubborn first: the longest proofs first, ties in allowed order
local function stubborn(g, q)
  local losing = {}
  for i, pt in ipairs(q.allowed) do
    if playable(g, pt) then
      local res, depth = after(g, q, pt)
      if res == "loss" then losing[#losing + 1] = { pt = pt, depth = depth, i = i } end
    end
  end
  table.sort(losing, function(a, b) if a.depth ~= b.depth then return a.depth > b.depth end return a.i < b.i end)
  for i, x in ipairs(losing) do losing[i] = x.pt end
  return losing
end

-- line(g, q, res, limit) -> at most limit moves from g (left as it was); res:
-- the proven result for the side to move ("win" | "loss")
function M.line(g, q, res, limit)
  local moves = {}
  while #moves < limit and not solve.status(g, q) do
    local m
    if res == "win" then m = keep(g, q) else m = stubborn(g, q)[1] end
    if not m or not g:play(m) then break end
    moves[#moves + 1] = m
    res = res == "win" and "loss" or "win"
  end
  for _ = 1, #moves do g:undo() end
  return moves
end

-- lines(g, q, m) -> the lines that show the verdict on first move m (g left as it was)
local function lines(g, q, m)
  local out = {}
  if m.result == "unknown" then return out end
  g:play(m.move)
  if solve.status(g, q) then
    out[1] = { moves = { m.move }, result = m.result }          -- decided at once
  elseif m.result == "win" then
    -- the main line (the opponent's most stubborn defence) and the opponent's second try
    for k, reply in ipairs(stubborn(g, q)) do
      if k > 2 then break end
      g:play(reply)
      local rest = M.line(g, q, "win", M.LINE - 2)
      g:undo()
      out[k] = { moves = { m.move, reply, table.unpack(rest) }, result = "win" }
    end
    if #out == 0 then out[1] = { moves = { m.move }, result = "win" } end
  else
    -- the refutation found and how it goes on
    out[1] = { moves = { m.move, table.unpack(M.line(g, q, "win", M.LINE - 1)) }, result = "loss" }
  end
  g:undo()
  return out
end

-- run(p, opts) -> reading
-- opts: nodes (the budget), moves (the moves to try, default the query's
-- allowed points), narrate (how many moves the reading tells, default 4)
-- reading: { query, nodes (searched), answer (SGF) or nil, why (when no answer),
--   results = the solver's verdict per move tried ({ move, result = "win"|"loss"|"unknown", ko, depth }),
--   told = { { move, result, ko, lines = { { moves = {SGF...}, result } ... } } ... } }
-- told: with an answer, the answer and the first other moves tried, in the
-- order tried, at most `narrate` in all; none without an answer.
function M.run(p, opts)
  local q, why = solve.query(p)
  if not q then return { why = "no group at stake (" .. tostring(why) .. ")", results = {}, told = {} } end
  local moves = opts.moves or q.allowed
  q.nodes = math.max(1, opts.nodes // (2 * math.max(1, #moves)))
  local r = solve.first_moves(p, q, { moves = moves })
  local out = { query = q, results = r.moves, told = {}, nodes = r.nodes, answer = r.correct[1] }
  if not out.answer then
    local open = 0
    for _, m in ipairs(r.moves) do if m.result == "unknown" then open = open + 1 end end
    out.why = open > 0 and string.format("%d of %d first moves left open within %d nodes", open, #r.moves, opts.nodes)
      or "no first move works for the group chosen"
    return out
  end
  local g = go.position(p.size, p.stones, p.to_play)
  local others = (opts.narrate or 4) - 1
  for _, m in ipairs(r.moves) do
    local tell = m.move == out.answer
    if not tell and others > 0 then tell, others = true, others - 1 end
    if tell then
      out.told[#out.told + 1] = { move = m.move, result = m.result, ko = m.ko, lines = lines(g, q, m) }
    end
  end
  return out
end

return M
