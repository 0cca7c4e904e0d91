-- games.carcassonne.ai — the fixed action scores of the Heuristic baseline and ISMCTS
-- rollouts (immediate points plus what a follower is worth), and the score estimate of a
-- state cut short. Read-only on the state; see RULES.md "Heuristic".
local TILES = require "games.carcassonne.tiles"
local B = require "games.carcassonne.board"

local M = {}
local T, DX, DY = TILES.T, TILES.DX, TILES.DY
local CITY, ROAD, FIELD, MONASTERY = TILES.CITY, TILES.ROAD, TILES.FIELD, TILES.MONASTERY
local find, key = B.find, B.key

-- follower_cost(s, me): what tying up one more follower costs, more when few are left
local function follower_cost(s, me)
  local left = s.supply[me]
  return left <= 1 and 4 or left <= 3 and 2.5 or 1.5
end

-- context(s, me, x, y) -> what a placement at x, y sees whatever the rotation: the
-- neighbours' roots facing each side (middle port), their number, and the occupied
-- monasteries around (+ one's own, − others')
local function context(s, me, x, y)
  local at, sp = s.at, s.sp
  local nbroot, neighbours, monks = {}, 0, 0
  for side = 1, 4 do
    local j = at[key(x + DX[side], y + DY[side])]
    if j then
      neighbours = neighbours + 1
      local np = T[s.tt[j]].rot[s.tr[j]].port
      nbroot[side] = find(sp, s.tb[j] - 1 + np[3 * ((side + 1) % 4) + 1])
    end
  end
  local ms, mg, sk, st, tx, ty = s.ms, s.mg, s.sk, s.st, s.tx, s.ty
  for m = 1, #mg do
    local g = mg[m]
    if sk[g] == MONASTERY then
      local i = st[g]
      local dx, dy = tx[i] - x, ty[i] - y
      if dx >= -1 and dx <= 1 and dy >= -1 and dy <= 1 then
        local gain = (B.around(s, tx[i], ty[i]) == 8) and 3 or 1
        monks = monks + (ms[m] == me and gain or -0.4 * gain)
      end
    end
  end
  return nbroot, neighbours, monks, x, y
end

-- rate_place(s, me, t, r, ctx...): completions with one's own followers (their points), help
-- to opponents' features (negative), growth of one's own features, the best follower
-- opportunity the tile opens, monasteries around, and a small bonus per neighbour
local function rate_place(s, me, t, r, nbroot, neighbours, monks, x, y)
  local e = T[t]
  local rp = e.rot[r].port
  local sz, so, sn, own = s.sz, s.so, s.sn, s.own
  local v = 0.2 * neighbours + monks
  local supply = s.supply[me]
  local best_follow = 0
  for f, ft in ipairs(e.feats) do
    local k = ft.kind
    if k == CITY or k == ROAD then
      local open, size, pen = ft.sides, 1, ft.pennant
      local mine, theirs, r1, r2 = 0, 0, nil, nil
      local others
      for side = 1, 4 do
        local root = nbroot[side]
        if root and rp[3 * (side - 1) + 1] == f then
          open = open - 2
          if root ~= r1 and root ~= r2 then
            if r1 then r2 = root else r1 = root end
            open, size, pen = open + so[root], size + sz[root], pen + sn[root]
            mine = mine + own[me][root]
            for seat = 1, #own do
              if seat ~= me and own[seat][root] > 0 then
                others = others or {}
                others[seat] = (others[seat] or 0) + own[seat][root]
              end
            end
          end
        end
      end
      if others then for _, c in pairs(others) do if c > theirs then theirs = c end end end
      local done = open <= 0
      local val = k == CITY and (done and 2 * (size + pen) or (size + pen)) or size
      if mine > 0 and mine >= theirs then
        v = v + (done and val or (k == CITY and 1.2 or 0.6))
      elseif theirs > 0 then
        v = v - (done and 0.5 * val or 0.3)
      elseif supply > 0 then
        local w = done and val or (k == CITY and 1 + 0.5 * math.min(size + pen, 6) - 0.3 * open or 0.4)
        if w > best_follow then best_follow = w end
      end
    elseif k == MONASTERY and supply > 0 then
      local w = 1 + 0.6 * (B.around(s, x, y) + 1) - follower_cost(s, me) * 0.5
      if w > best_follow then best_follow = w end
    end
  end
  return v + best_follow
end

-- rate_follower(s, me, name): the points a follower on that feature should bring, less
-- the cost of tying it up (none when the feature is complete and the follower comes back)
local function rate_follower(s, me, name)
  if name == "none" then return 0 end
  local i = s.last
  local f = T[s.tt[i]].rot[s.tr[i]].index[name]
  local r = find(s.sp, s.tb[i] + f - 1)
  local k, cost, left = s.sk[r], follower_cost(s, me), #s.stack
  if k == CITY then
    if s.so[r] == 0 then return 2 * (s.sz[r] + s.sn[r]) + 0.5 end
    return 1.4 * (s.sz[r] + s.sn[r]) + 1 - 0.4 * s.so[r] - cost
  elseif k == ROAD then
    if s.so[r] == 0 then return s.sz[r] + 0.5 end
    return s.sz[r] + 0.5 - 0.2 * s.so[r] - 0.7 * cost
  elseif k == MONASTERY then
    return B.around(s, s.tx[i], s.ty[i]) + (left > 8 and 2 or 0) - cost
  end
  local cities = B.farms(s, { [r] = true })[r]
  return 3 * cities + (left < 25 and 1 or 0) - 3 - cost
end

function M.heuristic(s, seat, id)
  if s.phase == "place" then
    local x, y, r = B.parse_place(id)
    if not x then return -100 end
    return rate_place(s, seat, s.tile, r, context(s, seat, x, y))
  end
  local name = id:match("^follower:(%w+)$")
  return name and rate_follower(s, seat, name) or -100
end

-- heuristic_all: the placements in the legal list's own order without reading the ids back
function M.heuristic_all(s, seat, legal)
  local out = {}
  if s.phase == "place" then
    local fx, fy, t = s.fx, s.fy, s.tile
    local at, a, b, c = 0, nil, nil, nil
    B.each_placement(s, t, function(i, r)
      if i ~= at then at = i; a, b, c = context(s, seat, fx[i], fy[i]) end
      out[#out + 1] = rate_place(s, seat, t, r, a, b, c, fx[i], fy[i])
    end)
    if #out == #legal then return out end
    out = {}
  end
  for j, a in ipairs(legal) do out[j] = M.heuristic(s, seat, a.id) end
  return out
end

-- estimate(state) -> per seat: the points so far plus what the followers on the map would
-- score if the game ended now
function M.estimate(s)
  local pts = B.end_points(s)
  local est = {}
  for i = 1, s.n do est[i] = s.score[i] + pts[i] end
  return est
end

return M
