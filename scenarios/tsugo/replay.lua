-- scenarios/tsugo/replay.lua — the replay check of an extracted tree (beyond
-- the paper): every move node is played on a real board from the problem
-- position along its branch; a move that cannot be played there (unknown
-- point, occupied, ko, suicide) is impossible — a hallucinated variation.
-- Each move node is also labelled against the reference tree:
--   on-tree-correct  the same line is in the reference tree, on a path to a correct end
--   on-tree-refuted  the same line is in the reference tree, not on such a path
--   off-tree         the reference tree does not hold this line
-- and every wrong first-level candidate that the reference tree refutes is
-- checked for whether the response read that refutation (one of the
-- reference's replies to it appears under it).
local go = require "games.go"

local M = {}

-- run(tree, problem) -> { labels = { [node id] = label }, impossible = { [id] = reason },
--   moves, impossible_count, refutations = { { candidate, found } ... } }
-- problem: the presented problem (SGF points; tree nodes hold GTP points)
function M.run(tree, p)
  local g0 = go.position(p.size, p.stones, p.to_play)
  local out = { labels = {}, impossible = {}, moves = 0, impossible_count = 0, refutations = {} }
  local ref_of = { [tree.root.id] = p.tree }        -- node id -> the reference children at that point (or nil: off tree)
  local game_of = { [tree.root.id] = g0 }           -- node id -> the game after the node (nil once impossible)
  for _, n in ipairs(tree.nodes) do
    if n.type == "move" then
      out.moves = out.moves + 1
      local parent_game = game_of[n.parent]
      local sgf = n.pos and go.from_gtp(n.pos, p.size)
      local color = n.side == "B" and "black" or (n.side == "W" and "white" or nil)
      if not parent_game then
        out.impossible[n.id] = "follows an impossible move"
      elseif not sgf or not color then
        out.impossible[n.id] = "unknown point or side"
      else
        local g = parent_game:copy()
        local ok, why = g:play(sgf, color)
        if ok then game_of[n.id] = g else out.impossible[n.id] = why end
      end
      if out.impossible[n.id] then out.impossible_count = out.impossible_count + 1 end
      local siblings = ref_of[n.parent]
      local hit
      for _, r in ipairs(siblings or {}) do
        if r.point == sgf and r.color == n.side then hit = r end
      end
      if hit then
        ref_of[n.id] = hit.children
        out.labels[n.id] = hit.correct and "on-tree-correct" or "on-tree-refuted"
      else
        out.labels[n.id] = "off-tree"
      end
    end
  end
  -- refutations of the wrong candidates the reference knows
  for _, cid in ipairs(tree.children[tree.root.id]) do
    local c = tree.nodes[cid + 1]
    if out.labels[c.id] == "on-tree-refuted" and #(ref_of[c.id] or {}) > 0 then
      local found = false
      for _, kid in ipairs(tree.children[c.id]) do
        if out.labels[kid] and out.labels[kid] ~= "off-tree" then found = true end
      end
      out.refutations[#out.refutations + 1] = { candidate = c.pos, found = found }
    end
  end
  return out
end

return M
