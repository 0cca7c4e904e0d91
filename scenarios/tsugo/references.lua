-- scenarios/tsugo/references.lua — the non-LLM references of one problem:
-- MCTS/UCT with an open and a restricted (the four options) root, and GNU Go
-- over GTP (games.go.gnugo) as the guided reference (the paper's KataGo role;
-- KataGo is not used here). Points are SGF throughout.
--
-- GNU Go answers the life-and-death question through its owl reader: for a
-- kill problem `owl_attack TARGET`, for a live problem `owl_defend TARGET`
-- (TARGET: the group at stake, games.go.solve.query's choice, as for MCTS);
-- no move found is no answer. Restricted to the K=4 options: each option is
-- played and the reader asked whether the other side still succeeds
-- (`owl_defend` / `owl_attack` with the other side to move); the options that
-- work are kept, GNU Go's own move first if it is one of them, else the first
-- in A-D order; none working → its open move if it is an option, else no answer.
-- The board GNU Go reads is framed (games.go.frame: the attacker's wall
-- closing the region, the rest of the board filled with living groups) unless
-- --gnugo-frame false. GNU Go dying or answering garbage raises its named
-- infrastructure error; the caller records it for that reference, unscored.
local go = require "games.go"
local gnugo = require "games.go.gnugo"
local mcts = require "scenarios.tsugo.mcts"

local M = {}

-- gnugo(e, p, setting, options_sgf [, framed]) -> { open = SGF or nil, restricted = SGF or nil, working = {...} }
-- framed (default true): the problem inside a tsumego frame for the attacker
-- (games.go.frame), so the owl reader sees the closed local fight
function M.gnugo(e, p, s, options, framed)
  gnugo.setup(e, p, framed ~= false and go.other(s.defender) or nil)
  local kill = p.to_play ~= s.defender
  local ask = kill and gnugo.owl_attack or gnugo.owl_defend
  local back = kill and gnugo.owl_defend or gnugo.owl_attack
  local out = { working = {} }
  if not s.target then return out end
  local code, pt = ask(e, s.target)
  if code > 0 then out.open = pt end
  if options then
    for _, o in ipairs(options) do
      if gnugo.play(e, p.to_play, o) then
        local works
        if not gnugo.color(e, s.target) then works = kill     -- the target was captured
        else works = back(e, s.target) == 0 end
        if works then out.working[#out.working + 1] = o end
        gnugo.undo(e)
      end
    end
    for _, o in ipairs(out.working) do if o == out.open then out.restricted = o end end
    out.restricted = out.restricted or out.working[1]
    if not out.restricted then
      for _, o in ipairs(options) do if o == out.open then out.restricted = o end end
    end
  end
  return out
end

-- mcts_both(p, options_sgf, seed, playouts) -> { open = result, restricted = result }
function M.mcts_both(p, options, seed, playouts)
  return { open = mcts.run(p, { seed = seed, playouts = playouts }),
    restricted = options and mcts.run(p, { seed = seed, playouts = playouts, root = options }) or nil }
end

return M
