-- scenarios/tsugo/player.lua — the built-in `engine` player of TsuGO: it
-- answers from the local solver (scenarios/tsugo/proof.lua) and, when the
-- solver gives up, from MCTS/UCT (scenarios/tsugo/mcts.lua), and writes what
-- it read as a search narrative (scenarios/tsugo/narrative.lua), so that
-- extraction, validation, replay and the process metrics all run offline.
--
-- Solver first (spec.nodes > 0): the candidates are the four options under
-- K=4 (in A-D order), else the solver's allowed points; the narrative gives,
-- in the order tried, every option (K=4) or the answer and at most three
-- other moves tried (open): a proven move with its main line and the
-- opponent's second try ("win"), a failing move with the refutation found
-- ("lose"), a move the budget left open as "other". The answer is the first
-- proven move.
--
-- MCTS when the solver gives up (no proven move): the narrative says so and
-- why, and the search's root leaves out the moves the solver proved to fail
-- (unless that leaves none). The reading: the root moves in order of visits
-- (all four options under K=4, the four most visited otherwise); for each,
-- its principal variation (the most visited reply, then the most visited
-- answer, ... while a node has at least 2 visits, at most 8 moves) and, when
-- it was read, the line through the second most visited reply; a line ends
-- "win" when the first move's value for the side to play is at least one
-- half, else "lose"; a move with fewer than 2 visits is "not read further".
-- The answer is the most visited.
local go = require "games.go"
local mcts = require "scenarios.tsugo.mcts"
local narrative = require "scenarios.tsugo.narrative"
local proof = require "scenarios.tsugo.proof"

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

local NAMES = { black = "Black", white = "White" }

local function letters(options)
  local letter_of = {}
  if options then for _, l in ipairs({ "A", "B", "C", "D" }) do letter_of[options[l]] = l end end
  return letter_of
end

-- why a line ends as it does, in words: who reaches the goal
local function why(p, q, result)
  local kill = q.defender ~= p.to_play
  local ok = result == "win"
  if ok then return kill and (NAMES[q.defender] .. " dies") or (NAMES[q.defender] .. " lives") end
  return kill and (NAMES[q.defender] .. " lives") or (NAMES[q.defender] .. " dies")
end

-- the solver's reading as the narrative's candidates
local function proof_candidates(p, spec, r)
  local letter_of = letters(spec.options)
  local cands = {}
  for _, t in ipairs(r.told) do
    local c = { pos = spec.show(t.move), letter = letter_of[t.move], lines = {} }
    if t.result == "unknown" then
      c.lines[1] = { moves = { c.pos }, result = "other", why = t.ko and "it turns into a ko" or "not settled within my reading budget" }
    else
      for _, line in ipairs(t.lines) do
        local shown = {}
        for i, m in ipairs(line.moves) do shown[i] = spec.show(m) end
        local w = why(p, r.query, line.result)
        if line.result == "loss" and line.moves[2] then w = spec.show(line.moves[2]) .. " refutes it, " .. w end
        c.lines[#c.lines + 1] = { moves = shown, result = line.result == "win" and "win" or "lose", why = w }
      end
    end
    cands[#cands + 1] = c
  end
  return cands
end

-- verdicts(r) -> what the other moves told came to, in words
local function verdicts(r)
  local n = { loss = 0, win = 0, unknown = 0 }
  for _, t in ipairs(r.told) do if t.move ~= r.answer then n[t.result] = n[t.result] + 1 end end
  local parts = {}
  local function say(k, one, many) if k > 0 then parts[#parts + 1] = k .. " " .. (k == 1 and one or many) end end
  say(n.loss, "fails", "fail")
  say(n.win, "also works", "also work")
  say(n.unknown, "stays unsettled", "stay unsettled")
  return #parts > 0 and ("; of the other moves I read, " .. table.concat(parts, ", ")) or ""
end

-- reading(p, spec) -> text, answer (SGF point), source ("solver" | "mcts")
-- spec: options ({ A = sgf, ..., order }) or nil, show (SGF -> displayed point),
-- nodes (the solver's budget; 0 or nil: MCTS only), playouts, seed
function M.reading(p, spec)
  local side = p.to_play == "black" and "B" or "W"
  local notes = {}
  local r
  if (spec.nodes or 0) > 0 then
    r = proof.run(p, { nodes = spec.nodes, moves = spec.options and spec.options.order, narrate = 4 })
    if r.answer then
      local letter_of = letters(spec.options)
      local text = narrative.write({ to_play = side, candidates = proof_candidates(p, spec, r),
        preamble = { string.format("I read the position exactly (%d first moves tried, %d positions searched).", #r.results, r.nodes) },
        conclusion = string.format("%s works against every defence I found%s.", spec.show(r.answer), verdicts(r)),
        answer = spec.options and letter_of[r.answer] or spec.show(r.answer) })
      return text, r.answer, "solver"
    end
    notes[1] = "My exact reading gave up (" .. r.why .. "), so I fall back to a Monte Carlo search."
  end
  local root = spec.options and spec.options.order or nil
  if r and #r.results > 0 then
    -- leave out the moves the solver proved to fail
    local failed, kept = {}, {}
    for _, t in ipairs(r.results) do if t.result == "loss" then failed[#failed + 1] = t.move end end
    if #failed > 0 then
      local out = {}
      for _, t in ipairs(r.results) do if t.result ~= "loss" then kept[#kept + 1] = t.move end end
      if #kept > 0 then
        root = kept
        for i, m in ipairs(failed) do out[i] = spec.show(m) end
        notes[#notes + 1] = "The exact reading did prove that " .. table.concat(out, ", ") .. " fail; I search the other moves."
      end
    end
  end
  local m = mcts.run(p, { playouts = spec.playouts, seed = spec.seed, root = root })
  local letter_of = letters(spec.options)
  local kill = p.to_play ~= m.defender
  local reading = { to_play = side, candidates = {}, preamble = notes }
  local ranked = by_visits(m.node.children)
  for k, c in ipairs(ranked) do
    if k > 4 or c.move == "pass" then break end
    local cand = { pos = spec.show(c.move), letter = letter_of[c.move], lines = {} }
    if c.n >= 2 then
      local q = c.w / c.n
      local result = q >= 0.5 and "win" or "lose"
      local w = (q >= 0.5) == kill and "the group dies" or "the group lives"
      cand.lines[1] = { moves = pv(c, spec.show), result = result, why = w }
      local second = by_visits(c.children)[2]
      if second and second.n >= 2 and second.move ~= "pass" then
        cand.lines[2] = { moves = pv(c, spec.show, second), result = result, why = w }
      end
    end
    reading.candidates[#reading.candidates + 1] = cand
  end
  local top = m.top
  local visits = 0
  for _, c in ipairs(m.node.children) do if c.move == top then visits = c.n end end
  reading.answer = spec.options and (letter_of[top] or "A") or spec.show(top)
  reading.conclusion = string.format("%s has the most support in my Monte Carlo search (%d of %d playouts).",
    spec.show(top), visits, spec.playouts or 200)
  return narrative.write(reading), top, "mcts"
end

-- show_for(p, frame) -> function(SGF) -> the point as the model reads it
function M.show_for(size, frame)
  return function(pt)
    if pt == "pass" then return "pass" end
    return frame.label(go.to_gtp(pt, size), size)
  end
end

return M
