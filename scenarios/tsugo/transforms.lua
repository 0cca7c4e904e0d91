-- scenarios/tsugo/transforms.lua — TsuGO's robustness transforms of a
-- normalized problem (games.go.problem form, SGF points): the 8 board
-- symmetries, colour inversion (colours and side to play swapped), coordinate
-- relabeling (the same board read through the relabeled frame of
-- scenarios/tsugo/prompts.lua) and option-order permutation (the labels move,
-- scenarios/tsugo/options.lua). Each transform maps the stones, the correct and
-- wrong first moves, the reference tree and the region, and has the inverse
-- map for predictions (consistency: the transformed prediction mapped back
-- agrees with the prediction on the original).
local go = require "games.go"

local M = {}

-- name -> function(x, y, n) -> x', y' (n = size - 1), and its inverse's name
local GEOMETRY = {
  identity = { function(x, y) return x, y end, "identity" },
  rot90 = { function(x, y, n) return n - y, x end, "rot270" },           -- clockwise
  rot180 = { function(x, y, n) return n - x, n - y end, "rot180" },
  rot270 = { function(x, y, n) return y, n - x end, "rot90" },
  mirror_h = { function(x, y, n) return n - x, y end, "mirror_h" },      -- left and right swap
  mirror_v = { function(x, y, n) return x, n - y end, "mirror_v" },      -- top and bottom swap
  transpose = { function(x, y) return y, x end, "transpose" },
  antitranspose = { function(x, y, n) return n - y, n - x end, "antitranspose" },
}

M.NAMES = { "identity", "rot90", "rot180", "rot270", "mirror_h", "mirror_v", "transpose", "antitranspose",
  "colour", "relabel", "options" }

function M.valid(name)
  for _, n in ipairs(M.NAMES) do if n == name then return true end end
  return false
end

-- point_map(name, size, inverse) -> function(sgf point) -> sgf point ("pass" kept)
function M.point_map(name, size, inverse)
  local g = GEOMETRY[name] or GEOMETRY.identity
  local f = inverse and GEOMETRY[g[2]][1] or g[1]
  return function(pt)
    if pt == "pass" or pt == nil then return pt end
    local x, y = go.sgf_xy(pt)
    return go.xy_sgf(f(x, y, size - 1))
  end
end

local function map_list(list, f)
  local out = {}
  for i, v in ipairs(list or {}) do out[i] = f(v) end
  table.sort(out)
  return out
end

local function map_tree(list, f, swap)
  local out = {}
  for i, t in ipairs(list or {}) do
    local c = t.color
    if swap then c = c == "B" and "W" or "B" end
    out[i] = { color = c, point = f(t.point), correct = t.correct, comment = t.comment,
      children = map_tree(t.children, f, swap) }
  end
  return out
end

-- apply(problem, name) -> the transformed problem (a new table; the original unchanged)
-- with .transform = name and .frame ("standard" or "relabeled")
function M.apply(p, name)
  local f = M.point_map(name, p.size)
  local swap = name == "colour"
  local q = {}
  for k, v in pairs(p) do q[k] = v end
  local stones = { black = map_list(p.stones.black, f), white = map_list(p.stones.white, f) }
  if swap then stones.black, stones.white = stones.white, stones.black end
  q.stones = stones
  q.to_play = swap and go.other(p.to_play) or p.to_play
  q.correct = map_list(p.correct, f)
  q.wrong = map_list(p.wrong, f)
  q.tree = map_tree(p.tree, f, swap)
  if p.region then
    local x0, y0 = f(go.xy_sgf(p.region[1], p.region[2])):byte(1, 2)
    local x1, y1 = f(go.xy_sgf(p.region[3], p.region[4])):byte(1, 2)
    x0, y0, x1, y1 = x0 - 97, y0 - 97, x1 - 97, y1 - 97
    q.region = { math.min(x0, x1), math.min(y0, y1), math.max(x0, x1), math.max(y0, y1) }
  end
  q.grid = nil                                  -- rendered again from the stones
  q.transform = name
  q.frame = name == "relabel" and "relabeled" or "standard"
  return q
end

return M
