-- games.go.frame — a tsumego frame: the rest of the board filled around a
-- local problem so that a whole-board reader (GNU Go's owl code) reads the
-- problem as the closed local fight it is, not as a group with the empty
-- board for escape room and eye space.
--
--   local frame = require "games.go.frame"
--   local stones = frame.stones(p, "white")     -- p.stones plus the frame; "white" attacks
--   local framed = frame.apply(p, "white")      -- a copy of p with those stones
--
-- The frame (the usual construction, cf. the frames Go programs put around
-- tsumego; written here from that description):
--  * the box: the problem's region (p.region, the bounding box of its stones
--    and reference moves) grown by `margin` lines (1 by default, the local
--    moves' margin); nothing inside the box changes;
--  * outside the box, by the Chebyshev distance d to the box: d <= wall
--    (4 by default) is the attacker's, beyond that the defender's, so the
--    attacker's wall closes the region on every side away from the board's
--    edge and the defender's stones are kept away from the problem;
--  * holes: outside points with (x + 2y) mod 5 = 0 whose four neighbours are
--    all of one colour and outside the box are left empty: eyes, so both
--    outside groups are alive and neither side gains outside liberties or
--    eyes in the fight; the wall's ring at d = 1 has no holes;
--  * no box (no region) or a box covering the board: no frame.
-- A frame stone that would stand with no liberty is left out (never an
-- illegal position).
local go = require "games.go"

local M = {}

M.MARGIN, M.WALL = 1, 4

-- box(p [, margin]) -> { x0, y0, x1, y1 } or nil
function M.box(p, margin)
  local r = p.region
  if not r then return nil end
  local m = margin or M.MARGIN
  local n = p.size - 1
  return { math.max(0, r[1] - m), math.max(0, r[2] - m), math.min(n, r[3] + m), math.min(n, r[4] + m) }
end

-- stones(p, attacker [, opts]) -> stones table (black/white lists, sorted) with the frame
-- opts: margin, wall
function M.stones(p, attacker, opts)
  opts = opts or {}
  local b = M.box(p, opts.margin)
  local out = { black = {}, white = {} }
  for _, c in ipairs({ "black", "white" }) do for i, pt in ipairs(p.stones[c]) do out[c][i] = pt end end
  if not b then return out end
  local size, wall = p.size, opts.wall or M.WALL
  local defender = go.other(attacker)
  local function dist(x, y)
    local dx = x < b[1] and b[1] - x or x > b[3] and x - b[3] or 0
    local dy = y < b[2] and b[2] - y or y > b[4] and y - b[4] or 0
    return math.max(dx, dy)
  end
  local function colour(x, y)
    local d = dist(x, y)
    if d == 0 then return nil, d end
    return d <= wall and attacker or defender, d
  end
  local grid = {}
  for y = 0, size - 1 do
    for x = 0, size - 1 do
      local c, d = colour(x, y)
      if c then
        local hole = d > 1 and (x + 2 * y) % 5 == 0
        if hole then
          for _, n in ipairs({ { x - 1, y }, { x + 1, y }, { x, y - 1 }, { x, y + 1 } }) do
            local nx, ny = n[1], n[2]
            if nx >= 0 and ny >= 0 and nx < size and ny < size then
              local nc = colour(nx, ny)
              if nc ~= c then hole = false end
            end
          end
        end
        if not hole then grid[go.xy_sgf(x, y)] = c end
      end
    end
  end
  local pts = {}
  for pt in pairs(grid) do pts[#pts + 1] = pt end
  table.sort(pts)
  for _, pt in ipairs(pts) do table.insert(out[grid[pt]], pt) end
  -- leave out frame chains with no liberty (a board too small for holes)
  local g = go.position(size, out, p.to_play or "black")
  local dead = {}
  for _, pt in ipairs(pts) do
    if not dead[pt] then
      local chain, libs = g:group(pt)
      if #libs == 0 then for _, s in ipairs(chain) do dead[s] = true end end
    end
  end
  if next(dead) then
    for _, c in ipairs({ "black", "white" }) do
      local keep = {}
      for _, pt in ipairs(out[c]) do if not dead[pt] then keep[#keep + 1] = pt end end
      out[c] = keep
    end
  end
  table.sort(out.black)
  table.sort(out.white)
  return out
end

-- apply(p, attacker [, opts]) -> a shallow copy of p whose stones carry the frame
function M.apply(p, attacker, opts)
  local q = {}
  for k, v in pairs(p) do q[k] = v end
  q.stones = M.stones(p, attacker, opts)
  q.framed = true
  return q
end

return M
