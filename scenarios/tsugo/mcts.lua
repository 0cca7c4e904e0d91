-- scenarios/tsugo/mcts.lua — the unguided MCTS/UCT reference of TsuGO
-- (../shared/specs/tsugo.md, "Non-LLM references"): 200 playouts, a fixed
-- seed, selection Q(s,a) + c_puct P(s,a) sqrt(N(s)) / (1 + N(s,a)) with
-- c_puct = 5 and uniform priors, expansion over the local legal moves, random
-- rollouts to a local life-and-death terminal; open or restricted root.
--
-- Choices where the spec is silent:
--  * local = the problem's region (bounding box of its stones and reference
--    moves) grown by one line; local legal moves leave out the mover's own eyes;
--    a side with no local legal move passes; two passes end a line;
--  * the target is the group at stake as the local solver chooses it
--    (games.go.solve.query: the suite's own target, else the weakest big
--    chain of the region, the goal stated or read from the liberties); the
--    same group for GNU Go and the engine player; no group at stake: the
--    attacker wins at once;
--  * terminal: the solver's test (games.go.solve.status): the target is
--    captured (the attacker wins) or unconditionally alive (the defender
--    wins); at the depth limit (the
--    number of local points, the "board-area" limit) or after two passes the
--    defender wins when the target still stands;
--  * expansion creates every child of a leaf at once (so TNC counts created
--    nodes, as for the paper's Smargo trees); Q of an unvisited child is 0;
--    ties in selection go to the earlier child (moves in board order below
--    the root; the root's children are shuffled with the seed before the
--    first playout), the top root move is the most visited (ties: the
--    earlier); `root` in the result lists the root moves in that shuffled order;
--  * SFH for MCTS: the top root move after the first playout is accepted —
--    with uniform priors that first pick is the first root child in the
--    shuffled order, i.e. a seeded random choice, not a judgement;
--  * depth and size: with c_puct = 5, uniform priors and Q = 0 for unvisited
--    children (no first-play urgency), 200 playouts spread wide and every
--    new leaf is a full expansion, so trees here can be deeper and are much
--    larger than the paper's MCTS trees (depth about 5); the report prints
--    the measured means beside the paper's figure.
local go = require "games.go"
local solve = require "games.go.solve"
local metrics = require "tabula.metrics"

local M = {}

-- local_points(problem) -> SGF points of the region grown by one line
function M.local_points(p)
  local r = p.region or { 0, 0, p.size - 1, p.size - 1 }
  local out = {}
  for y = math.max(0, r[2] - 1), math.min(p.size - 1, r[4] + 1) do
    for x = math.max(0, r[1] - 1), math.min(p.size - 1, r[3] + 1) do out[#out + 1] = go.xy_sgf(x, y) end
  end
  return out
end

-- setting(problem) -> { game, to_play, defender, target, query, points }:
-- the group at stake is games.go.solve.query's (the solver's) choice
function M.setting(p)
  local q = solve.query(p)
  return { game = go.position(p.size, p.stones, p.to_play), to_play = p.to_play, query = q,
    defender = q and q.defender or go.other(p.to_play), target = q and q.target, points = M.local_points(p) }
end

-- local moves of colour c in game g: legal, local, not c's own eye
local function local_moves(g, c, points)
  local out = {}
  for _, pt in ipairs(points) do
    if not g:get(pt) and g:is_legal(pt, c) and not g:is_eye(pt, c) then out[#out + 1] = pt end
  end
  return out
end

-- outcome(g, s) -> "attacker" | "defender" | nil (not decided): the solver's terminal test
local function outcome(g, s)
  if not s.target then return "attacker" end
  return solve.status(g, s.query)
end

-- a random rollout from g (changed in place), c to move -> winner
local function rollout(g, c, s, rng, limit)
  local passes = 0
  for _ = 1, limit do
    local w = outcome(g, s)
    if w then return w end
    local moves = local_moves(g, c, s.points)
    if #moves == 0 then
      passes = passes + 1
      if passes >= 2 then break end
    else
      passes = 0
      g:play(moves[rng(#moves)], c)
    end
    c = go.other(c)
  end
  return outcome(g, s) or (g:get(s.target) == s.defender and "defender" or "attacker")
end

-- run(problem, opts) -> result
-- opts: playouts (200), seed (1), c_puct (5), root = list of SGF points (restricted root) or nil
-- result: { top (SGF), root = { {point, visits, q} ... } in the shuffled root order, tnc, depth, fanout,
--           tops = the top root move after each playout, winner_side }
function M.run(p, opts)
  opts = opts or {}
  local s = M.setting(p)
  local rng = metrics.rng(opts.seed or 1)
  local cp = opts.c_puct or 5
  local limit = #s.points
  local attacker = go.other(s.defender)
  local tnc = 1
  local maxdepth, fanout = 0, 0
  local root = { n = 0, w = 0, color = nil, depth = 0 }
  local function expand(node, g, c)
    local moves
    if node == root and opts.root then
      moves = {}
      for _, pt in ipairs(opts.root) do if not g:get(pt) and g:is_legal(pt, c) then moves[#moves + 1] = pt end end
    else
      moves = local_moves(g, c, s.points)
    end
    if #moves == 0 then moves = { "pass" } end
    if node == root then
      -- shuffle the root's children with the seed: selection breaks ties
      -- toward the earlier child, so a fixed order (A-D, board order) would
      -- make the first playout's top move, and so SFH, the first option
      for i = #moves, 2, -1 do
        local j = rng(i)
        moves[i], moves[j] = moves[j], moves[i]
      end
    end
    node.children = {}
    for i, pt in ipairs(moves) do
      node.children[i] = { move = pt, color = c, n = 0, w = 0, depth = node.depth + 1 }
    end
    tnc = tnc + #moves
    if #moves > fanout then fanout = #moves end
    if node.depth + 1 > maxdepth then maxdepth = node.depth + 1 end
  end
  local tops = {}
  for _ = 1, opts.playouts or 200 do
    local g = s.game:copy()
    local c = s.to_play
    local node, path = root, { root }
    local winner
    local passes = 0
    while true do
      winner = outcome(g, s)
      if winner then break end
      if not node.children then
        if node ~= root and node.n == 0 then break end      -- a new leaf: roll out from here
        expand(node, g, c)
      end
      -- select: Q + c P sqrt(N) / (1 + n), Q from the mover's side
      local best, best_v
      local prior = 1 / #node.children
      local sq = math.sqrt(math.max(1, node.n))
      for _, ch in ipairs(node.children) do
        local q = ch.n > 0 and ch.w / ch.n or 0
        local v = q + cp * prior * sq / (1 + ch.n)
        if not best_v or v > best_v then best, best_v = ch, v end
      end
      node = best
      path[#path + 1] = node
      if node.move == "pass" then passes = passes + 1 else passes = 0; g:play(node.move, c) end
      c = go.other(c)
      if passes >= 2 then winner = g:get(s.target) == s.defender and "defender" or "attacker"; break end
    end
    winner = winner or rollout(g, c, s, rng, limit)
    local winner_color = winner == "defender" and s.defender or attacker
    for _, nd in ipairs(path) do
      nd.n = nd.n + 1
      if nd.color == winner_color then nd.w = nd.w + 1 end
    end
    local top, tv = nil, -1
    for _, ch in ipairs(root.children or {}) do if ch.n > tv then top, tv = ch, ch.n end end
    tops[#tops + 1] = top and top.move
  end
  local out = { root = {}, tnc = tnc, depth = maxdepth, fanout = fanout, tops = tops, tops_final = tops[#tops],
    defender = s.defender, target = s.target, node = root }
  for _, ch in ipairs(root.children or {}) do
    out.root[#out.root + 1] = { point = ch.move, visits = ch.n, q = ch.n > 0 and ch.w / ch.n or nil }
  end
  out.top = tops[#tops]
  return out
end

-- root_metrics(result, accepted_sgf_set) -> SWR, SFH, SCR, SSC from the root visits
--  SWR = 1 - visit share of the accepted moves; SFH = the top move after the
--  first playout is accepted; SCR = (rank - 1) / number of root moves, rank of
--  the best-ranked accepted move by visits (1 when none is a root move);
--  SSC = changes of the top root move over the playouts
function M.root_metrics(r, accepted)
  local total, good = 0, 0
  local ranked = {}
  for i, e in ipairs(r.root) do
    total = total + e.visits
    if accepted[e.point] then good = good + e.visits end
    ranked[i] = { e = e, i = i }
  end
  table.sort(ranked, function(a, b) if a.e.visits ~= b.e.visits then return a.e.visits > b.e.visits end return a.i < b.i end)
  local rank
  for k, x in ipairs(ranked) do if accepted[x.e.point] then rank = k; break end end
  local ssc = 0
  for i = 2, #r.tops do if r.tops[i] ~= r.tops[i - 1] then ssc = ssc + 1 end end
  return {
    swr = total > 0 and 1 - good / total or nil,
    sfh = (r.tops[1] and accepted[r.tops[1]]) and 1 or 0,
    scr = rank and (rank - 1) / #r.root or 1,
    ssc = ssc, sbc = #r.root, tnc = r.tnc, tmd = r.depth, tmf = r.fanout,
  }
end

return M
