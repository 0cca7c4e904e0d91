-- games.7wonders.pay — paying a cost in resources: the city's own production (fixed and
-- "one of" cards), then purchases from the two neighbours at 2 coins a unit (1 with the
-- trading posts for raw materials, the marketplace for manufactured goods). One payment is
-- chosen by a fixed rule (games/7wonders/RULES.md): the fewest coins in total; among equal
-- totals, the most paid to the left neighbour; own "one of" cards are always used first.
local M = {}

M.RES = { W = 1, S = 2, C = 3, O = 4, G = 5, L = 6, P = 7 }
local RES = M.RES

-- vector(letters) -> { units of each of the 7 resources }
function M.vector(letters)
  local v = { 0, 0, 0, 0, 0, 0, 0 }
  for k = 1, #letters do
    local r = RES[letters:sub(k, k)]
    v[r] = v[r] + 1
  end
  return v
end

-- option lists of "one of" strings, cached by string
local OPTS = {}
local function options(letters)
  local o = OPTS[letters]
  if not o then
    o = {}
    for k = 1, #letters do o[k] = RES[letters:sub(k, k)] end
    OPTS[letters] = o
  end
  return o
end

-- plan(city, left_city, right_city, need) -> coins to the left, coins to the right, or nil
-- when the resources cannot be had at any price
function M.plan(c, L, R, need)
  local rem, units = {}, 0
  for r = 1, 7 do
    local x = need[r] - c.prod[r]
    if x > 0 then rem[r] = x; units = units + x else rem[r] = 0 end
  end
  if units == 0 then return 0, 0 end
  local pl = { c.raw_left and 1 or 2, c.raw_left and 1 or 2, c.raw_left and 1 or 2, c.raw_left and 1 or 2,
               c.manu and 1 or 2, c.manu and 1 or 2, c.manu and 1 or 2 }
  local pr = { c.raw_right and 1 or 2, c.raw_right and 1 or 2, c.raw_right and 1 or 2, c.raw_right and 1 or 2, pl[5], pl[6], pl[7] }
  local own, lc, rc = c.choice, L.sell_choice, R.sell_choice
  local nown, nl = #own, #lc
  local nbuy = nl + #rc
  local best, best_l, best_r = math.huge, nil, nil
  -- fixed purchases once every "one of" unit is placed: cheaper side first, ties left
  local function fixed(cl, cr)
    for r = 1, 7 do
      local x = rem[r]
      if x > 0 then
        local al, ar = L.sell[r], R.sell[r]
        if pl[r] <= pr[r] then
          local t = x < al and x or al
          cl = cl + t * pl[r]; x = x - t
          if x > ar then return end
          cr = cr + x * pr[r]
        else
          local t = x < ar and x or ar
          cr = cr + t * pr[r]; x = x - t
          if x > al then return end
          cl = cl + x * pl[r]
        end
      end
    end
    local tot = cl + cr
    if tot < best or (tot == best and cr < best_r) then best, best_l, best_r = tot, cl, cr end
  end
  -- the neighbours' "one of" cards (k-th of nbuy): used for a needed resource, or not
  local function buy(k, cl, cr, left_units)
    if cl + cr >= best and not (cl + cr == best and cr < best_r) then return end
    if left_units == 0 then
      if cl + cr < best or cr < best_r then best, best_l, best_r = cl + cr, cl, cr end
      return
    end
    if k > nbuy then return fixed(cl, cr) end
    local is_left = k <= nl
    local o = options(is_left and lc[k] or rc[k - nl])
    for _, r in ipairs(o) do
      if rem[r] > 0 then
        rem[r] = rem[r] - 1
        if is_left then buy(k + 1, cl + pl[r], cr, left_units - 1) else buy(k + 1, cl, cr + pr[r], left_units - 1) end
        rem[r] = rem[r] + 1
      end
    end
    buy(k + 1, cl, cr, left_units)
  end
  -- the city's own "one of" cards: always used when one of their resources is still needed
  local function use_own(k, left_units)
    if left_units == 0 then best, best_l, best_r = 0, 0, 0; return end
    if k > nown then return buy(1, 0, 0, left_units) end
    local used = false
    for _, r in ipairs(options(own[k])) do
      if rem[r] > 0 then
        used = true
        rem[r] = rem[r] - 1
        use_own(k + 1, left_units - 1)
        rem[r] = rem[r] + 1
        if best == 0 then return end
      end
    end
    if not used then use_own(k + 1, left_units) end
  end
  use_own(1, units)
  if not best_l then return nil end
  return best_l, best_r
end

return M
