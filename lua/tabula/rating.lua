-- tabula.rating — Glicko-1, updated after every game, and competition sampling
-- (pair a player with the opponent whose game is most informative).
--   q = ln(10)/400; g(RD) = 1/sqrt(1 + 3 q^2 RD^2 / pi^2)
--   E = 1 / (1 + 10^(-g(RD_o)(r - r_o)/400)); d^2 = 1/(q^2 g(RD_o)^2 E (1 - E))
--   r' = r + q/(1/RD^2 + 1/d^2) * g(RD_o)(s - E); RD' = sqrt(1/(1/RD^2 + 1/d^2)), at least the floor
local M = {}

M.Q = math.log(10) / 400

function M.g(rd)
  return 1 / math.sqrt(1 + 3 * M.Q ^ 2 * rd ^ 2 / math.pi ^ 2)
end

function M.expected(r, r_o, rd_o)
  return 1 / (1 + 10 ^ (-M.g(rd_o) * (r - r_o) / 400))
end

-- update(a, b, score_a [, floor]) -> new a, new b (each { r, rd }); score 1, 0.5, 0
function M.update(a, b, s, floor)
  floor = floor or 50
  local function one(p, o, score)
  local go = M.g(o.rd)
    local e = M.expected(p.r, o.r, o.rd)
    local d2 = 1 / (M.Q ^ 2 * go ^ 2 * e * (1 - e))
    local denom = 1 / p.rd ^ 2 + 1 / d2
    return { r = p.r + M.Q / denom * go * (score - e), rd = math.max(floor, math.sqrt(1 / denom)) }
  end
  return one(a, b, s), one(b, a, 1 - s)
end

-- Ratings: a table of players replayed from a list of games
local Table = {}
Table.__index = Table

-- table(opts): opts.floor (RD floor, 50), r0, rd0; opts.anchors = { [id] = rating }: engine
-- anchors (issue 48), players pinned at a fixed rating with RD at the floor, never updated, so
-- that ratings of different runs share one scale
function M.table(opts)
  opts = opts or {}
  return setmetatable({ players = {}, floor = opts.floor or 50, r0 = opts.r0 or 1500, rd0 = opts.rd0 or 350,
    anchors = opts.anchors or {} }, Table)
end

function Table:get(id)
  local p = self.players[id]
  if not p then
    local pin = self.anchors[id]
    p = { id = id, r = pin or self.r0, rd = pin and self.floor or self.rd0, games = 0, w = 0, d = 0, l = 0, anchor = pin and true or nil }
    self.players[id] = p
  end
  return p
end

-- add(white, black, result) with result "1-0", "0-1" or "1/2-1/2"
function Table:add(white, black, result)
  local a, b = self:get(white), self:get(black)
  local s = result == "1-0" and 1 or result == "0-1" and 0 or 0.5
  local na, nb = M.update(a, b, s, self.floor)
  if not a.anchor then a.r, a.rd = na.r, na.rd end
  if not b.anchor then b.r, b.rd = nb.r, nb.rd end
  a.games, b.games = a.games + 1, b.games + 1
  if s == 1 then a.w, b.l = a.w + 1, b.l + 1 elseif s == 0 then a.l, b.w = a.l + 1, b.w + 1 else a.d, b.d = a.d + 1, b.d + 1 end
end

-- score(i, j): how informative a game between i and j is: E(1-E)(g(RD_i)^2 + g(RD_j)^2)
function Table:score(i, j)
  local a, b = self:get(i), self:get(j)
  local e = M.expected(a.r, b.r, b.rd)
  return e * (1 - e) * (M.g(a.rd) ^ 2 + M.g(b.rd) ^ 2)
end

-- pick(i, candidates) -> the candidate with the highest score (ties: first in order)
function Table:pick(i, candidates)
  local best, best_s
  for _, j in ipairs(candidates) do
    if j ~= i then
      local s = self:score(i, j)
      if not best_s or s > best_s + 1e-12 then best, best_s = j, s end
    end
  end
  return best, best_s
end

-- leaderboard([all]) -> rows sorted by rating; only RD <= 100 unless all
function Table:leaderboard(all)
  local rows = {}
  for _, p in pairs(self.players) do
    if all or p.rd <= 100 then
      rows[#rows + 1] = { id = p.id, r = p.r, rd = p.rd, lo = p.r - 1.96 * p.rd, hi = p.r + 1.96 * p.rd,
        games = p.games, w = p.w, d = p.d, l = p.l, anchor = p.anchor }
    end
  end
  table.sort(rows, function(x, y) return x.r > y.r or (x.r == y.r and x.id < y.id) end)
  return rows
end

return M
