-- games.go.verify — checks a problem's reference first moves with the local
-- solver (df-pn, src/gosolve.c) when the problem does not name its group:
-- shared problems rarely say "live" or "kill" and never which stones. Each
-- move is searched in two models that bracket the unknowns (S = the side to play):
--
--   agree     the move works in the model UNFAVOURABLE to S: the opponent wins
--             every ko; the group at stake is one chain (the largest; for "live"
--             the one with more liberties among equals, the other may be a
--             sacrifice) which must live / be captured; the problem is closed:
--             every empty point more than three steps from the defender's stones
--             holds an attacker stone, and attacker stones there cannot be captured
--             (the usual tsumego convention; for a kill it is the one assumption
--             that helps S: an agreement means "dead in the closed problem").
--   disagree  the move fails in the model FAVOURABLE to S, for both goals: S wins
--             every ko; any chain of the colour at stake counts (one survivor is
--             life, one capture a kill); when S defends the problem is open (moves
--             anywhere in the box, the region plus a margin; the points outside it
--             are liberties nobody may fill: a chain that reaches them has escaped);
--             when S attacks it is closed two steps from the defender's stones.
--   unknown   anything else; `ko = true` when the unfavourable model turns around
--             by giving S the kos alone: the answer depends on a ko.
--
-- In every model moves stay within two steps of a defender stone. With a stated
-- goal only that one is tried; else both, the guess of games.go.solve.query
-- first: an agreement for either goal agrees, a disagreement needs both to fail.
-- Killing in the unfavourable model, the largest chain is tried first, then each
-- of the next two of at least three stones alone (the corner group at stake need
-- not be the largest chain), then up to four weak chains (at most three
-- liberties), cutting ones first: a weak chain is the group at stake when the
-- move captures it and either it cuts (two liberties or more, touching two of
-- S's chains: the cutting stones of a capturing problem) or the opponent, moving
-- first instead, is proven to save it (the problem is critical for that chain).
--
--   local verify = require "games.go.verify"
--   verify.move(p, "ba", {nodes = 20000, margin = 1}) -> "agree"|"disagree"|"unknown", info
--       info = {goal = "live"|"kill", ko = bool, nodes = n}
local go = require "games.go"
local solve = require "games.go.solve"

local M = {}

-- a kill in the unfavourable model: the chains tried as the group at stake
local MAX_PICKS, MIN_OTHER = 3, 3
-- then the weak chains tried as the group at stake: their liberties, how many
local MAX_LIBS, MAX_WEAK = 3, 4

-- the problem's box: its region plus a margin, clipped to the board
local function box_of(p, margin)
  local r = p.region
  return { math.max(0, r[1] - margin), math.max(0, r[2] - margin),
           math.min(p.size - 1, r[3] + margin), math.min(p.size - 1, r[4] + margin) }
end

local function inside(box, pt)
  local x, y = go.sgf_xy(pt)
  return x >= box[1] and y >= box[2] and x <= box[3] and y <= box[4]
end

-- the points that matter when `color`'s stones are at stake: within radius
-- steps of one of them, or on the reference tree, inside the box
local function near(p, box, color, radius)
  local g = go.position(p.size, p.stones, p.to_play)
  local set = {}
  for _, pt in ipairs(p.stones[color]) do
    local x, y = go.sgf_xy(pt)
    for dx = -radius, radius do
      for dy = -radius + math.abs(dx), radius - math.abs(dx) do
        local x2, y2 = x + dx, y + dy
        if x2 >= box[1] and y2 >= box[2] and x2 <= box[3] and y2 <= box[4] then set[go.xy_sgf(x2, y2)] = true end
      end
    end
  end
  local function walk(list)
    for _, t in ipairs(list) do
      if t.point ~= "pass" and inside(box, t.point) then set[t.point] = true end
      walk(t.children or {})
    end
  end
  walk(p.tree or {})
  local out = {}
  for pt in pairs(set) do out[#out + 1] = pt end
  table.sort(out)
  return out, set, g
end

-- the position; with fill, every empty point that does not matter (outside
-- `set`) holds a stone of that colour
local function position(p, set, fill)
  local stones = { black = { table.unpack(p.stones.black) }, white = { table.unpack(p.stones.white) } }
  if fill then
    local g = go.position(p.size, p.stones, p.to_play)
    for x = 0, p.size - 1 do
      for y = 0, p.size - 1 do
        local pt = go.xy_sgf(x, y)
        if not set[pt] and not g:get(pt) then table.insert(stones[fill], pt) end
      end
    end
  end
  return go.position(p.size, stones, p.to_play)
end

-- the chains of a colour in the box that are not already safe: {point, size, libs}, main first
local function chains(g, color, q, box, prefer_libs)
  local seen, out = {}, {}
  for _, pt in ipairs(g:stones()[color]) do
    if not seen[pt] and inside(box, pt) then
      local stones, libs = g:group(pt)
      for _, s in ipairs(stones) do seen[s] = true end
      local one = { attacker = go.other(color), target = stones[1], allowed = q.allowed }
      if not solve.status(g, one) then out[#out + 1] = { point = stones[1], size = #stones, libs = #libs } end
    end
  end
  table.sort(out, function(a, b)
    if a.size ~= b.size then return a.size > b.size end
    if a.libs ~= b.libs then return (a.libs > b.libs) == prefer_libs end
    return a.point < b.point
  end)
  return out
end

-- the side to play S wants `goal`; favourable = the model favours S
local function model(p, box, goal, favourable, nodes, pick)
  local S = p.to_play
  local defender = goal == "live" and S or go.other(S)
  local attacker = go.other(defender)
  -- S attacks, favourable, or S defends, unfavourable: every point further than
  -- two from the defender's stones holds a stone of the attacker that cannot be
  -- captured. S attacks, unfavourable: the same three points away (more room for
  -- the defender). S defends, favourable: moves anywhere in the box, the points
  -- outside it open liberties nobody may fill (a chain that reaches them has
  -- escaped).
  local open = goal == "live" and favourable
  local allowed, set = near(p, box, defender, favourable and 2 or 3)
  if open then
    allowed = {}
    for x = box[1], box[3] do
      for y = box[2], box[4] do allowed[#allowed + 1] = go.xy_sgf(x, y) end
    end
  end
  local g = position(p, set, not open and attacker or nil)
  -- moves stay within two points of a defender stone
  local q = { attacker = attacker, defender = defender, allowed = allowed, nodes = nodes, method = "dfpn", near = 2,
              ko_winner = favourable and S or go.other(S), outside_safe = not open }
  -- live: the main chain has more liberties among equals (the other may be a sacrifice)
  local list = chains(g, defender, q, box, goal == "live")
  if #list == 0 then return nil end
  pick = pick or 1
  if pick > 1 and not (list[pick] and list[pick].size >= MIN_OTHER) then return nil end
  q.target = list[pick].point
  if favourable then
    q.targets = {}
    for i = 1, math.min(#list, 32) do q.targets[i] = list[i].point end
    q.all = goal == "live"        -- S defends: one survivor is enough; S attacks: one capture is enough
  end
  return g, q, list
end

-- after S plays move: "win" for S, "loss", or "unknown"; nodes
local function after(g, q, move)
  if not g:is_legal(move) then return "illegal", 0 end
  g:play(move)
  local st = solve.status(g, q)
  local res, _, nodes
  if st then
    res, nodes = (st == "attacker") == (q.attacker ~= g:to_move()) and "win" or "loss", 0
  else
    local r
    r, _, nodes = require("games.go.solve").raw(g, q)
    res = r == "loss" and "win" or r == "win" and "loss" or "unknown"
  end
  g:undo()
  return res, nodes
end

-- does the chain at pt touch two different chains of colour?
local function cuts(g, pt, color)
  local stones = g:group(pt)
  local heads, n = {}, 0
  for _, s in ipairs(stones) do
    local x, y = go.sgf_xy(s)
    for _, d in ipairs({ { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }) do
      local x2, y2 = x + d[1], y + d[2]
      if x2 >= 0 and y2 >= 0 and x2 < g:size() and y2 < g:size() then
        local nb = go.xy_sgf(x2, y2)
        if g:get(nb) == color then
          local h = g:group(nb)[1]
          if not heads[h] then heads[h] = true; n = n + 1 end
        end
      end
    end
  end
  return n >= 2
end

local function try(p, box, goal, favourable, move, nodes)
  local g, q = model(p, box, goal, favourable, nodes)
  if not g then return "unknown", 0 end
  local res, n = after(g, q, move)
  -- killing, unfavourable: the largest chain first, then each next one of at
  -- least MIN_OTHER stones alone (the corner group need not be the largest)
  for pick = 2, MAX_PICKS do
    if res == "win" or favourable or goal ~= "kill" then break end
    g, q = model(p, box, goal, favourable, nodes, pick)
    if not g then break end
    local r2, n2 = after(g, q, move)
    n = n + n2
    if r2 == "win" then res = r2 end
  end
  -- killing, unfavourable, still not proven: a weak chain (at most MAX_LIBS
  -- liberties) not tried above is the group at stake when the move captures
  -- it and either it cuts (at least two liberties and two of S's chains
  -- around it: the cutting stones of a capturing problem) or, the opponent
  -- moving first instead, the opponent saves it (the problem is critical for it)
  if res ~= "win" and not favourable and goal == "kill" then
    local list
    g, q, list = model(p, box, goal, favourable, nodes)
    local weak = {}
    for i, c in ipairs(list or {}) do
      if c.libs <= MAX_LIBS and not (i <= MAX_PICKS and (i == 1 or c.size >= MIN_OTHER)) then
        c.cuts = c.libs >= 2 and cuts(g, c.point, p.to_play)
        weak[#weak + 1] = c
      end
    end
    table.sort(weak, function(a, b)
      if a.cuts ~= b.cuts then return a.cuts end
      if a.libs ~= b.libs then return a.libs < b.libs end
      if a.size ~= b.size then return a.size > b.size end
      return a.point < b.point
    end)
    for i = 1, math.min(#weak, MAX_WEAK) do
      q.target = weak[i].point
      local r2, n2 = after(g, q, move)
      n = n + n2
      if r2 == "win" and weak[i].cuts then res = "win"; break end
      if r2 == "win" then
        local S = p.to_play
        g:set_to_move(go.other(S))
        local r3, _, n3 = solve.raw(g, q)
        g:set_to_move(S)
        n = n + n3
        if r3 == "win" then res = "win"; break end
      end
    end
  end
  return res, n
end

-- move(p, move [, opts]) -> verdict, info (see the header)
function M.move(p, move, opts)
  opts = opts or {}
  local nodes = opts.nodes or 20000
  if not p.region then return "unknown", { why = "no region" } end
  local box = box_of(p, opts.margin or 1)
  local q0 = solve.query(p, { nodes = nodes })
  local first = (p.goal == "live" or p.goal == "kill") and p.goal or (q0 and q0.goal) or "kill"
  local goals = { first, first == "live" and "kill" or "live" }
  if p.goal == "live" or p.goal == "kill" then goals[2] = nil end
  local info, open = { nodes = 0 }, false
  for i, goal in ipairs(goals) do
    local pess, n1 = try(p, box, goal, false, move, nodes)
    info.nodes = info.nodes + n1
    if pess == "win" then info.goal = goal; return "agree", info end
    local opt, n2 = try(p, box, goal, true, move, nodes)
    info.nodes = info.nodes + n2
    if opt == "win" and pess == "loss" then
      -- does giving S the kos alone turn the unfavourable model around?
      local g, q = model(p, box, goal, false, nodes)
      if g then
        q.ko_winner = p.to_play
        local r, n3 = after(g, q, move)
        info.nodes = info.nodes + n3
        if r == "win" then info.ko = true; info.goal = goal end
      end
    end
    -- the move may work for this goal, or the search ran out: no disagreement,
    -- but the other goal may still be proven
    if opt ~= "loss" then open = true end
    -- it fails for this goal even in the favourable model: try the other goal
    if i == #goals and not open then return "disagree", info end
  end
  return "unknown", info
end

-- for diagnosis (bench/go_solver_why.lua): the models and one search after a move
M.box_of, M.model, M.after = box_of, model, after

return M
