-- games.go.transform — the 8 board symmetries, colour inversion and coordinate
-- relabeling, applied to a normalized problem (games.go.problem): stones,
-- grid, side to play, correct and wrong sets, tree, main line, region and the
-- suite's target and allowed points all
-- move together. inverse(name) undoes a symmetry.
local go = require "games.go"

local M = {}

M.SYMMETRIES = { "identity", "rot90", "rot180", "rot270", "flip_h", "flip_v", "transpose", "anti_transpose" }

local MAP = {
  identity = function(x, y) return x, y end,
  rot90 = function(x, y, m) return m - y, x end,              -- clockwise
  rot180 = function(x, y, m) return m - x, m - y end,
  rot270 = function(x, y, m) return y, m - x end,
  flip_h = function(x, y, m) return m - x, y end,             -- mirror left-right
  flip_v = function(x, y, m) return x, m - y end,             -- mirror top-bottom
  transpose = function(x, y) return y, x end,
  anti_transpose = function(x, y, m) return m - y, m - x end,
}
local INVERSE = { rot90 = "rot270", rot270 = "rot90" }

function M.inverse(name) return INVERSE[name] or name end

-- point(pt, name, size) -> the SGF point under a symmetry ("pass" stays)
function M.point(pt, name, size)
  local f = MAP[name]
  if not f then error("unknown symmetry '" .. tostring(name) .. "' (" .. table.concat(M.SYMMETRIES, ", ") .. ")", 2) end
  if pt == "pass" then return pt end
  local x, y = go.sgf_xy(pt)
  return go.xy_sgf(f(x, y, size - 1))
end

local function copy(v)
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do out[k] = copy(x) end
  return setmetatable(out, getmetatable(v))
end

local function map_list(list, fn)
  local out = {}
  for i, v in ipairs(list) do out[i] = fn(v) end
  return out
end

local function sorted(list) table.sort(list); return list end

local SWAP = { B = "W", W = "B", black = "white", white = "black" }

-- apply(problem, {symmetry = name, invert = bool}) -> a new problem
function M.apply(p, how)
  local name = how.symmetry or "identity"
  local inv = how.invert
  local size = p.size
  local function pt(v) return M.point(v, name, size) end
  local q = copy(p)
  local bl, wh = map_list(p.stones.black, pt), map_list(p.stones.white, pt)
  if inv then bl, wh = wh, bl end
  q.stones = { black = sorted(bl), white = sorted(wh) }
  if inv then q.to_play = SWAP[p.to_play] end
  q.correct = sorted(map_list(p.correct, pt))
  q.wrong = sorted(map_list(p.wrong or {}, pt))
  q.correct_gtp = map_list(q.correct, function(v) return go.to_gtp(v, size) end)
  if p.target then q.target = pt(p.target) end                 -- the suite's group at stake
  if p.allowed then q.allowed = sorted(map_list(p.allowed, pt)) end
  local function tree(list)
    return map_list(list, function(n)
      local m = copy(n)
      m.point = pt(n.point)
      if inv then m.color = SWAP[n.color] end
      m.children = tree(n.children)
      return m
    end)
  end
  q.tree = tree(p.tree)
  q.pv = map_list(p.pv or {}, function(s)
    local c, v = s:match("^(%a):(.*)$")
    return (inv and SWAP[c] or c) .. ":" .. pt(v)
  end)
  if p.region then
    local x0, y0 = MAP[name](p.region[1], p.region[2], size - 1)
    local x1, y1 = MAP[name](p.region[3], p.region[4], size - 1)
    q.region = { math.min(x0, x1), math.min(y0, y1), math.max(x0, x1), math.max(y0, y1) }
  end
  q.grid = go.position(size, q.stones, q.to_play):grid()
  q.transform = { symmetry = name, invert = inv or nil, of = p.id }
  return q
end

-- relabel(size, seed) -> a coordinate relabeling: columns and rows get other
-- labels (a shuffled alphabet and shuffled numbers). Returns
-- { cols = {...}, rows = {...}, label = fn(sgf) -> "K7", point = fn(label) -> sgf }
function M.relabel(size, seed)
  local s = seed or 1
  local function rand(n) s = (s * 1103515245 + 12345) % 2147483648; return s % n + 1 end
  local letters = {}
  for c in ("ABCDEFGHJKLMNOPQRSTUVWXYZ"):gmatch(".") do letters[#letters + 1] = c end
  local cols, rows = {}, {}
  for i = 1, size do cols[i] = letters[i]; rows[i] = tostring(i) end
  for i = size, 2, -1 do local j = rand(i); cols[i], cols[j] = cols[j], cols[i] end
  for i = size, 2, -1 do local j = rand(i); rows[i], rows[j] = rows[j], rows[i] end
  local col_of, row_of = {}, {}
  for i, c in ipairs(cols) do col_of[c] = i end
  for i, r in ipairs(rows) do row_of[r] = i end
  return {
    cols = cols, rows = rows,
    label = function(pt)
      local x, y = go.sgf_xy(pt)
      return cols[x + 1] .. rows[y + 1]
    end,
    point = function(label)
      local c, r = label:upper():match("^(%a)(%d+)$")
      if not c or not col_of[c] or not row_of[r] then return nil end
      return go.xy_sgf(col_of[c] - 1, row_of[r] - 1)
    end,
  }
end

return M
