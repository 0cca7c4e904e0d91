-- scenarios/tsugo/player.lua — the built-in `engine` player of TsuGO: it
-- searches the presented problem with MCTS/UCT (the local solver is not
-- used yet) and writes what it read as a search narrative
-- (scenarios/tsugo/narrative.lua), so that extraction, validation, replay and
-- the process metrics all run offline.
--
-- The reading: the root moves in order of visits (all four options under
-- K=4, the four most visited otherwise); for each, its principal variation
-- (the most visited reply, then the most visited answer, ... while a node has
-- at least 2 visits, at most 8 moves) and, when it was read, the line through
-- the second most visited reply; a line ends "win" when the first move's
-- value for the side to play is at least one half, else "lose"; a move with
-- fewer than 2 visits is "not read further". The answer is the most visited.
local go = require "games.go"
local mcts = require "scenarios.tsugo.mcts"
local narrative = require "scenarios.tsugo.narrative"

local M = {}

local function by_visits(children)
  local list = {}
  for i, c in ipairs(children or {}) do list[i] = { c = c, i = i } end
  table.sort(list, function(a, b) if a.c.n ~= b.c.n then return a.c.n > b.c.n end return a.i < b.i end)
  local out = {}
  for i, x in ipairs(list) do out[i] = x.c end
  return out
end

-- the line from node down its most visited children
local function pv(node, show, first)
  local moves = { show(node.move) }
  local cur = first or node
  if first then moves[#moves + 1] = show(first.move) end
  while #moves < 8 do
    local nxt = by_visits(cur.children)[1]
    if not nxt or nxt.n < 2 or nxt.move == "pass" then break end
    moves[#moves + 1] = show(nxt.move)
    cur = nxt
  end
  return moves
end

-- reading(p, spec) -> text, answer (SGF point)
-- spec: options ({ A = sgf, ..., order }) or nil, show (SGF -> displayed point), playouts, seed
function M.reading(p, spec)
  local root = spec.options and spec.options.order or nil
  local r = mcts.run(p, { playouts = spec.playouts, seed = spec.seed, root = root })
  local letter_of = {}
  if spec.options then for _, l in ipairs({ "A", "B", "C", "D" }) do letter_of[spec.options[l]] = l end end
  local side = p.to_play == "black" and "B" or "W"
  local kill = p.to_play ~= r.defender
  local reading = { to_play = side, candidates = {} }
  local ranked = by_visits(r.node.children)
  for k, c in ipairs(ranked) do
    if k > 4 or c.move == "pass" then break end
    local cand = { pos = spec.show(c.move), letter = letter_of[c.move], lines = {} }
    if c.n >= 2 then
      local q = c.w / c.n
      local result = q >= 0.5 and "win" or "lose"
      local why = (q >= 0.5) == kill and "the group dies" or "the group lives"
      cand.lines[1] = { moves = pv(c, spec.show), result = result, why = why }
      local second = by_visits(c.children)[2]
      if second and second.n >= 2 and second.move ~= "pass" then
        cand.lines[2] = { moves = pv(c, spec.show, second), result = result, why = why }
      end
    end
    reading.candidates[#reading.candidates + 1] = cand
  end
  local top = r.top
  reading.answer = spec.options and (letter_of[top] or "A") or spec.show(top)
  reading.conclusion = string.format("%s has the most support in my reading (%d of %d playouts).",
    spec.show(top), (function() for _, c in ipairs(r.node.children) do if c.move == top then return c.n end end return 0 end)(),
    spec.playouts or 200)
  return narrative.write(reading), top
end

-- show_for(p, frame) -> function(SGF) -> the point as the model reads it
function M.show_for(size, frame)
  return function(pt)
    if pt == "pass" then return "pass" end
    return frame.label(go.to_gtp(pt, size), size)
  end
end

return M
