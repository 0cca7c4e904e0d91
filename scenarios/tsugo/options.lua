-- scenarios/tsugo/options.lua — the K=4 option set by the paper's rule
-- (../shared/specs/tsugo.md, "K=4 distractors"), the option-order permutation
-- transform, and the distance it ranks by.
--
-- choose(spec) -> options, log
--  1. the pool, in order: first moves of the reference tree's wrong variations,
--     then the proposals of the non-LLM searches (the local solver's refuted moves, MCTS/UCT,
--     GNU Go), each source in its own order;
--  2. removed: accepted answers, points that are occupied or illegal for the
--     side to play, points outside the problem's local region, repeats;
--  3. only when fewer than three remain, the points near the canonical answer
--     (empty, legal, local; within distance 2.9, i.e. a 5x5 window without its
--     corners) join the pool — the searches' proposals come first because
--     they are plausible, geometry alone is not;
--  4. the remaining moves are ranked by Euclidean distance to the canonical
--     answer (ties: pool order) and the three nearest are the distractors;
--  5. the canonical answer and the three distractors are shuffled with the
--     trial's seed and labelled A-D.
-- Fewer than three possible distractors: the problem has no K=4 form (log.short).
local go = require "games.go"

local M = {}

M.LETTERS = { "A", "B", "C", "D" }
-- xy("P15") -> column, row (0-based; distances do not depend on the board size)
function M.xy(p)
  return go.sgf_xy(go.from_gtp(p, go.max_size))
end

function M.distance(a, b)
  local ax, ay = M.xy(a)
  local bx, by = M.xy(b)
  return math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2)
end

-- nearby(p, size) -> points within distance 2.9 of p, in board order
function M.nearby(p, size)
  local x, y = go.sgf_xy(go.from_gtp(p, size))
  local out = {}
  for dy = -2, 2 do
    for dx = -2, 2 do
      local nx, ny = x + dx, y + dy
      if (dx ~= 0 or dy ~= 0) and dx * dx + dy * dy <= 8 and nx >= 0 and nx < size and ny >= 0 and ny < size then
        out[#out + 1] = go.to_gtp(go.xy_sgf(nx, ny), size)
      end
    end
  end
  return out
end

-- shuffle(list, rng) -> a new list in Fisher-Yates order (rng(n) -> 1..n)
function M.shuffle(list, rng)
  local out = {}
  for i, v in ipairs(list) do out[i] = v end
  for i = #out, 2, -1 do
    local j = rng(i)
    out[i], out[j] = out[j], out[i]
  end
  return out
end

-- choose(spec) -> options ({ A = point, ... } plus .order = { points in A-D order }) | nil, log
-- spec: canonical, accepted (set), sources = { { name, points = {...} }, ... },
--       usable(point) -> true | false, why  (empty, legal for the side to play, local)
--       size, rng
function M.choose(spec)
  local log = { removed = {}, pool = {} }
  local seen, pool = {}, {}
  local function consider(p, source)
    if seen[p] then return end
    seen[p] = true
    if spec.accepted[p] then log.removed[#log.removed + 1] = p .. " (" .. source .. "): an accepted answer"; return end
    local ok, why = spec.usable(p)
    if not ok then log.removed[#log.removed + 1] = p .. " (" .. source .. "): " .. why; return end
    pool[#pool + 1] = { point = p, source = source, order = #pool + 1, d = M.distance(p, spec.canonical) }
  end
  seen[spec.canonical] = true
  for _, src in ipairs(spec.sources) do
    for _, p in ipairs(src.points) do consider(p, src.name) end
  end
  if #pool < 3 then
    for _, p in ipairs(M.nearby(spec.canonical, spec.size or 19)) do consider(p, "nearby") end
  end
  table.sort(pool, function(a, b) if a.d ~= b.d then return a.d < b.d end return a.order < b.order end)
  for _, c in ipairs(pool) do log.pool[#log.pool + 1] = string.format("%s %s %.2f", c.point, c.source, c.d) end
  if #pool < 3 then log.short = true; return nil, log end
  local four = { spec.canonical, pool[1].point, pool[2].point, pool[3].point }
  log.distractors = { { pool[1].point, pool[1].source }, { pool[2].point, pool[2].source }, { pool[3].point, pool[3].source } }
  local order = M.shuffle(four, spec.rng)
  local opts = { order = order }
  for i, l in ipairs(M.LETTERS) do opts[l] = order[i] end
  return opts, log
end

-- permuted(options) -> the same four moves with every label moved one place
-- (A B C D -> the moves that were B C D A), for the option-order transform
function M.permuted(options)
  local order = { options.order[2], options.order[3], options.order[4], options.order[1] }
  local out = { order = order }
  for i, l in ipairs(M.LETTERS) do out[l] = order[i] end
  return out
end

-- accepted_count(options, accepted) -> how many of the four options are accepted answers
function M.accepted_count(options, accepted)
  local n = 0
  for _, p in ipairs(options.order) do if accepted[p] then n = n + 1 end end
  return n
end

return M
