-- games.go.solve — the local life-and-death solver (src/gosolve.c) on
-- problems: which group is at stake, where moves may go, and which first moves
-- work, with kos reported.
--
--   local solve = require "games.go.solve"
--   local q = solve.query(p [, {margin = 1, nodes = 200000, depth = 40}])
--       -- uses p.target, p.allowed and p.goal when the problem has them (the suite);
--       -- else the region plus a margin, and the weakest big chain (see below)
--       -- { attacker, defender, target, allowed, goal } or nil, why
--   local r = solve.first_moves(p, q)
--       -- { moves = { {move = "sp", result = "win"|"loss"|"unknown", depth, ko = bool}, ... },
--       --   correct = {...} (proven winning first moves), status = "solved"|"partial", nodes }
-- A first move "wins" when, after it, the side to play has a proof whatever the
-- opponent does. `ko = true` when the answer differs depending on who wins kos
-- (each side in turn is denied ko captures); such moves count as "unknown".
local go = require "games.go"
local gosolve = require "tabula.c.gosolve"

local M = {}

local solver
local function get_solver()
  solver = solver or gosolve.new(20)
  return solver
end

-- chains of a colour whose stones all lie in the box, largest first
local function chains_in(g, color, box)
  local seen, out = {}, {}
  for _, pt in ipairs(g:stones()[color]) do
    if not seen[pt] then
      local stones, libs = g:group(pt)
      for _, s in ipairs(stones) do seen[s] = true end
      local inside = true
      for _, s in ipairs(stones) do
        local x, y = go.sgf_xy(s)
        if x < box[1] or y < box[2] or x > box[3] or y > box[4] then inside = false end
      end
      out[#out + 1] = { point = stones[1], size = #stones, libs = #libs, inside = inside }
    end
  end
  table.sort(out, function(a, b)
    if a.size ~= b.size then return a.size > b.size end
    return a.point < b.point
  end)
  return out
end

-- the weakest big chain of a colour: not unconditionally alive, in the box
local function target_of(g, color, box)
  local alive = {}
  for _, s in ipairs(g:benson(color)) do alive[s] = true end
  for _, c in ipairs(chains_in(g, color, box)) do
    if not alive[c.point] then return c end
  end
end

-- query(p [, opts]) -> query | nil, reason
function M.query(p, opts)
  opts = opts or {}
  local g = go.position(p.size, p.stones, p.to_play)
  if p.target and p.allowed and (p.goal == "live" or p.goal == "kill") then
    -- the problem names its group and its moves (the generated suite does)
    local defender = g:get(p.target)
    if not defender then return nil, "the target point is empty" end
    return { goal = p.goal, attacker = go.other(defender), defender = defender, target = p.target,
             allowed = p.allowed, nodes = opts.nodes or 200000, depth = opts.depth or 40 }
  end
  local r = p.region
  if not r then return nil, "no region" end
  local m = opts.margin or 1
  local box = { math.max(0, r[1] - m), math.max(0, r[2] - m), math.min(p.size - 1, r[3] + m), math.min(p.size - 1, r[4] + m) }
  local allowed = {}
  for x = box[1], box[3] do
    for y = box[2], box[4] do
      allowed[#allowed + 1] = go.xy_sgf(x, y)      -- occupied too: stones may be captured
    end
  end
  local me, other = p.to_play, go.other(p.to_play)
  local goal = p.goal
  local mine, theirs = target_of(g, me, box), target_of(g, other, box)
  if goal ~= "live" and goal ~= "kill" then
    -- not stated: the side whose weak group has fewer liberties is defending
    if mine and (not theirs or mine.libs < theirs.libs or (mine.libs == theirs.libs and mine.size >= theirs.size)) then
      goal = "live"
    else
      goal = "kill"
    end
  end
  local t = goal == "live" and mine or theirs
  if not t then return nil, "no group at stake" end
  return {
    goal = goal, attacker = goal == "live" and other or me, defender = goal == "live" and me or other,
    target = t.point, allowed = allowed, box = box,
    nodes = opts.nodes or 200000, depth = opts.depth or 40,
  }
end

local function attempt(g, q, ko_winner)
  q.ko_winner = ko_winner
  local res, depth, nodes = get_solver():solve(g, q)
  q.ko_winner = nil
  return res, depth, nodes
end

-- raw(g, q) -> "win"|"loss"|"unknown", depth, nodes: one search as the query says (q.ko_winner, q.targets, q.all, q.method)
function M.raw(g, q) return get_solver():solve(g, q) end

-- status(g, q) -> "attacker" | "defender" | nil: who has already won
function M.status(g, q) return get_solver():status(g, q) end

-- result of the position for the side to move, with kos: "win"/"loss"/"unknown", depth, ko, nodes
function M.position(g, q)
  local a, da, na = attempt(g, q, q.attacker)
  if a == "unknown" then return "unknown", nil, false, na end
  local d, dd, nd = attempt(g, q, q.defender)
  if d == "unknown" then return "unknown", nil, false, na + nd end
  if a ~= d then return "unknown", nil, true, na + nd end
  return a, math.max(da, dd), false, na + nd
end

-- first_moves(p, q [, {moves = {...}}]) -> report (see the header)
function M.first_moves(p, q, opts)
  opts = opts or {}
  local g = go.position(p.size, p.stones, p.to_play)
  local moves = opts.moves or q.allowed
  local out, correct, nodes, open = {}, {}, 0, 0
  for _, pt in ipairs(moves) do
    if g:is_legal(pt) then
      g:play(pt)
      local res, depth, ko, n = M.position(g, q)
      g:undo()
      nodes = nodes + n
      -- after our move the opponent is to move: their loss is our win
      local mine = res == "loss" and "win" or res == "win" and "loss" or "unknown"
      out[#out + 1] = { move = pt, result = mine, depth = depth and depth + 1, ko = ko or nil }
      if mine == "win" then correct[#correct + 1] = pt end
      if mine == "unknown" then open = open + 1 end
    end
  end
  return { moves = out, correct = correct, status = open == 0 and "solved" or "partial", nodes = nodes }
end

return M
