-- games.go.checks — the checks every normalized tsumego problem must pass
-- (TsuGO normalization): one coordinate convention, a legal position, grid = stones, side to play
-- known, every correct first move an empty legal point, every tree move legal
-- in sequence, local (bounded region), first-move determinate (a finite,
-- non-empty correct set, not ko-dependent). Each finding names the problem and
-- the check; `reason` is the check name used to count drops.
local go = require "games.go"

local M = {}

M.MAX_REGION = 13      -- a problem is local when its stones and moves fit in 13x13

local function finding(p, check, msg, fatal)
  return { id = p.id, check = check, message = msg, fatal = fatal }
end

function M.format(f) return string.format("%s: %s: %s", f.id, f.check, f.message) end

local function point_ok(pt, size)
  if pt == "pass" then return true end
  if type(pt) ~= "string" or not pt:match("^%l%l$") then return false end
  local x, y = go.sgf_xy(pt)
  return x < size and y < size
end

-- check(p [, opts{max_region}]) -> findings (a list; empty when all is well)
function M.check(p, opts)
  opts = opts or {}
  local out = {}
  local size = p.size
  if type(size) ~= "number" or size < 2 or size > go.max_size then
    return { finding(p, "size", "board size " .. tostring(size) .. " is not 2..25", true) }
  end
  if p.convention == "position only" or #p.tree == 0 then
    out[#out + 1] = finding(p, "solution", "no solution moves in the file", true)
  end
  if not p.to_play then out[#out + 1] = finding(p, "side", "the side to play is not stated", true); return out end
  -- one coordinate convention: SGF points on the board everywhere
  local bad = {}
  for _, c in ipairs { "black", "white" } do
    for _, pt in ipairs(p.stones[c]) do if not point_ok(pt, size) then bad[#bad + 1] = tostring(pt) end end
  end
  for _, pt in ipairs(p.correct) do if not point_ok(pt, size) or pt == "pass" then bad[#bad + 1] = tostring(pt) end end
  if #bad > 0 then out[#out + 1] = finding(p, "coordinates", "not SGF points of the board: " .. table.concat(bad, " "), true); return out end
  local g = go.position(size, p.stones, p.to_play)
  -- a legal position: no chain without liberties (GNU Go aborts on those)
  for _, c in ipairs { "black", "white" } do
    for _, pt in ipairs(p.stones[c]) do
      if #select(2, g:group(pt)) == 0 then
        out[#out + 1] = finding(p, "position", "the chain at " .. go.to_gtp(pt, size) .. " has no liberties", true)
        return out
      end
    end
  end
  -- the symbolic and grid forms agree
  if p.grid then
    local grid = g:grid()
    for y = 1, size do
      for x = 1, size do
        if not p.grid[y] or p.grid[y][x] ~= grid[y][x] then
          out[#out + 1] = finding(p, "grid", string.format("grid row %d column %d disagrees with the stone lists", y, x), true)
          goto grid_done
        end
      end
    end
  end
  ::grid_done::
  -- correct first moves: empty and legal
  if #p.correct == 0 and #p.tree > 0 then out[#out + 1] = finding(p, "determinate", "no correct first move", true) end
  for _, pt in ipairs(p.correct) do
    local ok, why = g:is_legal(pt)
    if not ok then out[#out + 1] = finding(p, "correct-legal", go.to_gtp(pt, size) .. " is not legal for " .. p.to_play .. " (" .. why .. ")", true) end
  end
  -- every tree move legal in sequence
  local first_bad
  local function walk(list, depth)
    for _, n in ipairs(list) do
      if first_bad then return end
      local color = n.color == "W" and "white" or "black"
      local ok, why = g:play(n.point, color)
      if not ok then
        first_bad = string.format("%s %s at depth %d is not legal (%s)", n.color, n.point == "pass" and "pass" or go.to_gtp(n.point, size), depth, why)
        return
      end
      walk(n.children, depth + 1)
      g:undo()
    end
  end
  walk(p.tree, 1)
  if first_bad then out[#out + 1] = finding(p, "tree-legal", first_bad, false) end
  -- local
  local maxr = opts.max_region or M.MAX_REGION
  if p.region then
    local w, h = p.region[3] - p.region[1] + 1, p.region[4] - p.region[2] + 1
    if w > maxr or h > maxr then
      out[#out + 1] = finding(p, "local", string.format("stones and moves span %dx%d (more than %dx%d)", w, h, maxr, maxr), true)
    end
  end
  -- ko-dependent
  local ko = p.goal == "ko"
  local function ko_words(list)
    for _, n in ipairs(list) do
      if n.correct and n.comment and (n.comment:lower():find("%f[%a]ko%f[%A]") or n.comment:find("劫", 1, true)) then return true end
      if n.correct and ko_words(n.children) then return true end
    end
  end
  if ko or ko_words(p.tree) then out[#out + 1] = finding(p, "determinate", "the answer depends on a ko", true) end
  return out
end

-- fatal(p) -> whether a check makes p unusable (a problem the benches and tests leave out)
function M.fatal(p)
  for _, x in ipairs(M.check(p)) do if x.fatal then return true end end
  return false
end

return M
