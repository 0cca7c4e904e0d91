-- scenarios/tsugo/closed_loop.lua — closed-loop solving (beyond the paper):
-- after the model's first move the defender answers and the model plays on,
-- until the goal is decided. The Go counterpart of XiangqiBench's conversion
-- gap: first-move accuracy next to the solved rate.
--
-- The rule:
--  * on the reference tree: the opponent plays the first reply the tree holds
--    under the line so far (its main line; under a wrong move, the
--    refutation). A line that ends on the tree is solved when its last node is
--    marked correct (on a path to a correct end), failed otherwise;
--  * off the tree: the opponent asks GNU Go's owl reader for its best local
--    defence or attack (MCTS/UCT when GNU Go is not used), and the line is
--    judged by the same reader once the model has made as many moves as the
--    reference main line holds (plus one): solved when the side that must
--    fail can no longer succeed;
--  * an illegal move or no answer fails at once; a pass by the opponent is
--    shown as "pass".
local go = require "games.go"
local gnugo = require "games.go.gnugo"
local answers = require "scenarios.tsugo.answers"
local mcts = require "scenarios.tsugo.mcts"

local M = {}

local NAMES = { black = "Black", white = "White" }

-- the presented problem at the current position (for the engine player and MCTS)
local function at(q, g)
  local p = {}
  for k, v in pairs(q) do p[k] = v end
  p.stones, p.to_play = g:stones(), g:to_move()
  return p
end

local function tree_child(list, color, pt)
  for _, t in ipairs(list or {}) do
    if t.point == pt and t.color == (color == "black" and "B" or "W") then return t end
  end
end

-- owl verdict after the model's move: true when the model's side has reached
-- its goal, and GNU Go's best local move for the other side
local function gnugo_verdict(e, g, s, size)
  gnugo.setup(e, { size = size, stones = g:stones(), to_play = g:to_move() })
  if g:get(s.target) ~= s.defender then return true, nil end
  local code, pt = (s.attacker_is_model and gnugo.owl_defend or gnugo.owl_attack)(e, s.target)
  return code == 0, pt
end

-- run(spec) -> result | nil, infra error
-- spec: q (presented problem), first (SGF of the model's first move), frame,
-- say(text) -> reply | nil, err (the next model turn), P (prompts), gnugo (pool or nil), seed
function M.run(spec)
  local q = spec.q
  local s = mcts.setting(q)
  s.attacker_is_model = q.to_play ~= s.defender
  local g = go.position(q.size, q.stones, q.to_play)
  local me, them = q.to_play, go.other(q.to_play)
  local show = function(pt) return pt == "pass" and "pass" or spec.frame.label(go.to_gtp(pt, q.size), q.size) end
  local moves, shown = {}, {}
  local node_list, on_tree = q.tree, true
  local limit = math.max(1, math.ceil((q.depth or 2) / 2) + 1)
  local mine = spec.first
  local model_moves = 0
  local function finish(solved, reason) return { solved = solved, reason = reason, moves = shown, model_moves = model_moves } end
  while true do
    -- the model's move
    if not mine then return finish(false, "no_answer") end
    local ok = g:play(mine, me)
    if not ok then return finish(false, "illegal") end
    model_moves = model_moves + 1
    moves[#moves + 1] = mine
    shown[#shown + 1] = show(mine)
    local node = on_tree and tree_child(node_list, me, mine)
    if on_tree and not node then on_tree = false end
    if g:get(s.target) ~= s.defender then return finish(s.attacker_is_model, "target_captured") end
    if node and #node.children == 0 then return finish(node.correct == true, node.correct and "tree_correct_end" or "tree_refuted_end") end
    -- the opponent's reply
    local reply
    if node then
      reply = node.children[1]
      node_list = reply.children
      if #node_list == 0 then
        return finish(reply.correct == true, reply.correct and "tree_correct_end" or "tree_refuted_end")
      end
      reply = reply.point
    else
      if model_moves >= limit then
        local solved
        if spec.gnugo then solved = spec.gnugo:with(function(e) return gnugo_verdict(e, g, s, q.size) end)
        else
          local r = mcts.run(at(q, g), { seed = spec.seed, playouts = 200 })
          local best = 0
          for _, e in ipairs(r.root) do if e.q and e.visits > best then best = e.visits; solved = e.q < 0.5 end end
        end
        return finish(solved == true, "judged")
      end
      if spec.gnugo then
        local _, pt = spec.gnugo:with(function(e) return gnugo_verdict(e, g, s, q.size) end)
        reply = pt
      end
      if not reply or not g:is_legal(reply, them) then
        local r = mcts.run(at(q, g), { seed = spec.seed, playouts = 200 })
        reply = r.top or "pass"
      end
    end
    if reply ~= "pass" then
      if not g:play(reply, them) then reply = "pass"; g:set_to_move(me) end
    else
      g:set_to_move(me)
    end
    moves[#moves + 1] = reply
    shown[#shown + 1] = show(reply)
    if g:get(s.target) ~= s.defender then return finish(s.attacker_is_model, "target_captured") end
    local text = spec.P:fill("closed_loop_turn", { opponent = NAMES[them], reply = show(reply), moves = table.concat(shown, ", "),
      side = NAMES[me] })
    local r, err = spec.say(text, at(q, g))
    if not r then return nil, err end
    local got = answers.extract(r.text, { size = q.size, parse = spec.frame.parse })
    mine = got.answer and go.from_gtp(got.answer, q.size) or nil
  end
end

return M
