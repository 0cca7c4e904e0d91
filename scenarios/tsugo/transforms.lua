-- scenarios/tsugo/transforms.lua — TsuGO's robustness transforms by name:
-- the 8 board symmetries and colour inversion (games.go.transform moves the
-- stones, correct and wrong sets, tree and region), coordinate relabeling (the
-- same board read through a seeded relabeled frame of
-- scenarios/tsugo/prompts.lua: column letters and row numbers shuffled with the
-- trial's seed; answers are read back through the same frame)
-- and option-order permutation (the labels move, scenarios/tsugo/options.lua).
-- point_map gives the map of points and its inverse for predictions
-- (consistency: the transformed prediction mapped back agrees with the
-- prediction on the original).
local gt = require "games.go.transform"

local M = {}

M.NAMES = { "identity" }
for _, s in ipairs(gt.SYMMETRIES) do if s ~= "identity" then M.NAMES[#M.NAMES + 1] = s end end
for _, s in ipairs({ "colour", "relabel", "options" }) do M.NAMES[#M.NAMES + 1] = s end

local SYMMETRY = {}
for _, s in ipairs(gt.SYMMETRIES) do SYMMETRY[s] = true end

function M.valid(name)
  for _, n in ipairs(M.NAMES) do if n == name then return true end end
  return false
end

-- point_map(name, size, inverse) -> function(sgf point) -> sgf point ("pass" kept)
function M.point_map(name, size, inverse)
  if not SYMMETRY[name] then return function(pt) return pt end end
  local s = inverse and gt.inverse(name) or name
  return function(pt)
    if pt == nil then return nil end
    return gt.point(pt, s, size)
  end
end

-- apply(problem, name [, seed]) -> the transformed problem (a new table; the
-- original unchanged) with .transform = name and .frame ("standard", or
-- "relabeled:SEED" for relabel)
function M.apply(p, name, seed)
  local q = gt.apply(p, { symmetry = SYMMETRY[name] and name or "identity", invert = name == "colour" })
  q.transform = name
  q.frame = name == "relabel" and ("relabeled:" .. math.tointeger(seed or 1)) or "standard"
  return q
end

return M
