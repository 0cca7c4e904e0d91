-- games.go.generate — fresh corner and side life-and-death problems, each
-- proven by the local solver (games.go.solve), deduplicated up to symmetry and
-- colour, in tiers by the depth of the proof.
--
--   local gen = require "games.go.generate"
--   local problems = gen.run({ count = 40, seed = 1, nodes = 60000 }, log)
--
-- A candidate: on a 19x19 board, a defender band along the corner (or the top
-- side) with its eye space inside, the attacker's band just outside it (one
-- chain with open liberties beyond the allowed area, so it cannot be captured:
-- checked by M.wall_faults), then a few
-- random changes (a defender stone removed, an attacker stone or a defender
-- stone put inside). It is kept when the side to play wins, the other side
-- would win if it moved first, one or two first moves work (the pass does
-- not), and no answer depends on a ko.
local go = require "games.go"
local solve = require "games.go.solve"
local transform = require "games.go.transform"

local M = {}

-- tiers by main-line depth (the proof's plies) and branching (the legal first
-- moves to choose from): the depth's tier, one tier harder when the problem
-- offers at least M.WIDE legal first moves
M.TIERS = { { 3, "Easy" }, { 5, "Intermediate" }, { 7, "Medium" }, { math.huge, "Hard" } }
M.WIDE = 7

function M.tier_of(depth, branching)
  for i, t in ipairs(M.TIERS) do
    if depth <= t[1] then
      if (branching or 0) >= M.WIDE and i < #M.TIERS then return M.TIERS[i + 1][2] end
      return t[2]
    end
  end
end

local function rng(seed)
  local s = seed
  return function(a, b)       -- integer in [a, b]; a 64-bit LCG, independent of math.random
    s = (s * 6364136223846793005 + 1442695040888963407) & 0x7fffffffffffffff
    return a + (s >> 20) % (b - a + 1)
  end
end

-- a candidate: stones, the box of allowed moves, the defender's colour
local function candidate(r)
  local side = r(1, 3) == 1             -- a third are side problems
  local W = r(4, 6)
  local x0 = side and r(5, 8) or 0      -- side problems start away from the corner
  local d = {}
  d[0] = r(1, 2)
  for x = 1, W do
    d[x] = math.max(1, math.min(3, d[x - 1] + r(-1, 1)))
  end
  if side then d[0] = math.min(d[0], d[1]) end
  local defender = r(1, 2) == 1 and "black" or "white"
  local attacker = go.other(defender)
  local board = {}
  local function put(x, y, c)
    if x >= 0 and y >= 0 and x < 19 and y < 19 then board[go.xy_sgf(x, y)] = c end
  end
  local last = side and W or W
  -- defender band: (x, d[x]), filled where the height changes, closed at the right end
  for x = 0, last do
    put(x0 + x, d[x], defender)
    if x > 0 and d[x] ~= d[x - 1] then put(x0 + x, math.min(d[x], d[x - 1]), defender); put(x0 + x, math.max(d[x], d[x - 1]), defender) end
  end
  for y = 0, d[last] do put(x0 + last + 1, y, defender) end
  if side then for y = 0, d[0] do put(x0 - 1, y, defender) end end
  -- attacker band just outside
  for x = -1, last + 2 do
    local h = (x >= 0 and x <= last) and d[x] or d[math.max(0, math.min(last, x))]
    if x >= 0 or side then put(x0 + x, h + 1, attacker) end
  end
  for y = 0, d[last] + 1 do put(x0 + last + 2, y, attacker) end
  if side then for y = 0, d[0] + 1 do put(x0 - 2, y, attacker) end end
  -- close the attacker's band where the height changes: a stone above the
  -- higher side on both columns, so the band is one chain. (The band's runs
  -- on either side of a step up touch only diagonally without the one on the
  -- lower column; that run was a chain of its own with a few liberties outside
  -- the area, capturable on the board the model sees. `closed` counts those
  -- stones: a candidate that needed one is a repaired one.)
  local closed = 0
  for x = 1, last do
    if d[x] ~= d[x - 1] then
      local h = math.max(d[x], d[x - 1]) + 1
      for _, cx in ipairs({ x - 1, x }) do
        if board[go.xy_sgf(x0 + cx, h)] ~= attacker then
          put(x0 + cx, h, attacker)
          if cx == x - 1 then closed = closed + 1 end
        end
      end
    end
  end
  -- random changes inside
  local inside = {}
  for x = 0, last do for y = 0, d[x] - 1 do inside[#inside + 1] = { x0 + x, y } end end
  local band = {}
  for pt, c in pairs(board) do if c == defender then band[#band + 1] = pt end end
  table.sort(band)
  for _ = 1, r(0, 2) do
    local pt = band[r(1, #band)]
    board[pt] = nil
  end
  for _ = 1, r(0, 2) do
    local p = inside[r(1, #inside)]
    put(p[1], p[2], attacker)
  end
  if r(1, 3) == 1 then
    local p = inside[r(1, #inside)]
    put(p[1], p[2], defender)
  end
  local stones = { black = {}, white = {} }
  local pts = {}
  for pt in pairs(board) do pts[#pts + 1] = pt end
  table.sort(pts)
  for _, pt in ipairs(pts) do table.insert(stones[board[pt]], pt) end
  -- moves go inside the attacker's band: the eye space and the defender's band
  local inner = {}
  for x = 0, last do for y = 0, d[x] do inner[#inner + 1] = go.xy_sgf(x0 + x, y) end end
  for y = 0, d[last] do inner[#inner + 1] = go.xy_sgf(x0 + last + 1, y) end
  if side then for y = 0, d[0] do inner[#inner + 1] = go.xy_sgf(x0 - 1, y) end end
  table.sort(inner)
  return stones, defender, attacker, inner, closed
end

-- the key of a position up to the 8 symmetries and colour (side to play = black)
function M.identity(p)
  local best
  for _, sym in ipairs(transform.SYMMETRIES) do
    local q = transform.apply(p, { symmetry = sym, invert = p.to_play == "white" })
    local k = table.concat(q.stones.black, ",") .. "|" .. table.concat(q.stones.white, ",")
    if not best or k < best then best = k end
  end
  return best
end

-- fingerprint(stones) -> the stone pattern up to the 8 symmetries, colour and
-- translation (each variant moved to the top-left corner; the smallest key):
-- the same problem anywhere on the board, turned or with colours swapped
function M.fingerprint(stones, size)
  size = size or 19
  local best
  for _, sym in ipairs(transform.SYMMETRIES) do
    for _, swap in ipairs({ false, true }) do
      local pts = {}
      local x0, y0 = math.huge, math.huge
      for _, c in ipairs({ "black", "white" }) do
        local col = (c == "black") ~= swap and "b" or "w"
        for _, pt in ipairs(stones[c]) do
          local x, y = go.sgf_xy(transform.point(pt, sym, size))
          pts[#pts + 1] = { x, y, col }
          x0, y0 = math.min(x0, x), math.min(y0, y)
        end
      end
      local keys = {}
      for i, q in ipairs(pts) do keys[i] = string.format("%s%d.%d", q[3], q[1] - x0, q[2] - y0) end
      table.sort(keys)
      local k = table.concat(keys, ",")
      if not best or k < best then best = k end
    end
  end
  return best
end

-- near copies: a problem whose stones differ from a known one's in at most
-- M.NEAR points (a stone added or removed counts one, a recoloured stone two)
-- under one of the 8 symmetries and colour, compared both where they stand on
-- the board (the same size) and moved to the top-left corner
M.NEAR = 3

-- the 16 variants of a stone set (8 symmetries, colours swapped or not), each
-- as {board = set, corner = set, n = stones}; keys "b3.4"
local function variants(stones, size)
  local out = {}
  for _, sym in ipairs(transform.SYMMETRIES) do
    for _, swap in ipairs({ false, true }) do
      local pts, x0, y0 = {}, math.huge, math.huge
      for _, c in ipairs({ "black", "white" }) do
        local col = (c == "black") ~= swap and "b" or "w"
        for _, pt in ipairs(stones[c]) do
          local x, y = go.sgf_xy(transform.point(pt, sym, size))
          pts[#pts + 1] = { col, x, y }
          x0, y0 = math.min(x0, x), math.min(y0, y)
        end
      end
      local board, corner = {}, {}
      for _, q in ipairs(pts) do
        board[q[1] .. q[2] .. "." .. q[3]] = true
        corner[q[1] .. (q[2] - x0) .. "." .. (q[3] - y0)] = true
      end
      out[#out + 1] = { board = board, corner = corner, n = #pts }
    end
  end
  return out
end

-- near_index() -> an index of known problems for near_copy; add(index, stones, size, id)
function M.near_index() return { by_n = {} } end

function M.near_add(index, stones, size, id)
  local v = variants(stones, size or 19)[1]            -- the identity, colours as they are
  local n = v.n
  index.by_n[n] = index.by_n[n] or {}
  table.insert(index.by_n[n], { board = v.board, corner = v.corner, n = n, size = size or 19, id = id })
end

-- stones outside b, or in b but not a: early exit past limit
local function differ(a, na, b, nb, limit)
  local missing = 0
  for k in pairs(a) do
    if not b[k] then missing = missing + 1; if missing > limit then return missing end end
  end
  return missing + (nb - (na - missing))
end

-- near_copy(index, stones, size) -> the id of a known problem within M.NEAR points, and the distance; or nil
function M.near_copy(index, stones, size)
  size = size or 19
  for _, v in ipairs(variants(stones, size)) do
    for n = v.n - M.NEAR, v.n + M.NEAR do
      for _, k in ipairs(index.by_n[n] or {}) do
        local d = differ(v.corner, v.n, k.corner, k.n, M.NEAR)
        if k.size == size then d = math.min(d, differ(v.board, v.n, k.board, k.n, M.NEAR)) end
        if d <= M.NEAR then return k.id, d end
      end
    end
  end
end

-- the principal variation from a position (winner's first proven move, loser's longest resistance)
local function pv_from(g, q, limit)
  local line = {}
  for _ = 1, limit do
    local best, best_depth, winner_move
    local me = g:to_move()
    local moves = {}
    for _, pt in ipairs(q.allowed) do if g:is_legal(pt) then moves[#moves + 1] = pt end end
    for _, pt in ipairs(moves) do
      g:play(pt)
      local res, depth = solve.position(g, q)
      g:undo()
      if res == "loss" then winner_move = winner_move or pt end          -- the opponent loses: a winning move
      if res == "win" and (not best_depth or (depth or 0) > best_depth) then best, best_depth = pt, depth or 0 end
    end
    local pick = winner_move or best
    if not pick then break end
    line[#line + 1] = (me == "black" and "B" or "W") .. ":" .. pick
    g:play(pick)
    if solve.status(g, q) then break end
  end
  return line
end

-- The attacker's wall must be safe on the board the model sees, where moves
-- may also go outside the solver's area. A liberty argument: moves inside the
-- area never take a liberty outside it, so an attacker chain with L >= 2
-- liberties outside the area is never in atari after any sequence inside it,
-- and only after L - 1 defender moves outside the area (tempo the attacker may
-- spend inside it) can a sequence inside bring it to atari. M.WALL_LIBS is
-- the least L every wall chain must have. (The generator before issue 43 left
-- chains with 1 to 4 such liberties in 46 of its 150 problems.)
M.WALL_LIBS = 5

-- wall_faults(p) -> list of faults (empty when safe): every attacker chain
-- with a stone outside p.allowed next to an allowed point, with fewer than
-- M.WALL_LIBS liberties outside p.allowed
function M.wall_faults(p)
  local g = go.position(p.size or 19, p.stones, p.to_play)
  local allowed = {}
  for _, pt in ipairs(p.allowed) do allowed[pt] = true end
  local attacker = go.other(g:get(p.target))
  local seen, faults = {}, {}
  for _, pt in ipairs(p.stones[attacker]) do
    if not seen[pt] then
      local chain, libs = g:group(pt)
      local outside_stone, touches = false, false
      for _, s in ipairs(chain) do
        seen[s] = true
        if not allowed[s] then outside_stone = true end
        local x, y = go.sgf_xy(s)
        for _, n in ipairs({ { x - 1, y }, { x + 1, y }, { x, y - 1 }, { x, y + 1 } }) do
          if n[1] >= 0 and n[2] >= 0 and allowed[go.xy_sgf(n[1], n[2])] then touches = true end
        end
      end
      if outside_stone and touches then
        local out = {}
        for _, l in ipairs(libs) do if not allowed[l] then out[#out + 1] = l end end
        if #out < M.WALL_LIBS then
          table.sort(chain); table.sort(out)
          faults[#faults + 1] = string.format("attacker chain %s has %d liberties outside the area (%s), fewer than %d",
            table.concat(chain, "+"), #out, table.concat(out, " "), M.WALL_LIBS)
        end
      end
    end
  end
  return faults
end

-- one proven problem from a candidate, or nil
local function prove(stones, defender, attacker, box, to_play, opts)
  local g = go.position(19, stones, to_play)
  -- a legal position: every chain has a liberty
  for _, c in ipairs { "black", "white" } do
    for _, pt in ipairs(stones[c]) do
      if #select(2, g:group(pt)) == 0 then return nil end
    end
  end
  local target
  for _, pt in ipairs(stones[defender]) do
    local ch = g:group(pt)
    if not target or #ch > target.size then target = { point = pt, size = #ch } end
  end
  if not target or target.size < 3 then return nil end
  -- the full local region: every point inside the attacker's band, occupied
  -- ones too (a point freed by a capture is played again)
  local allowed = {}
  for _, pt in ipairs(box) do allowed[#allowed + 1] = pt end
  local q = { attacker = attacker, defender = defender, target = target.point, allowed = allowed,
              nodes = opts.nodes or 20000, depth = opts.depth or 21, method = "id" }
  if solve.status(g, q) then return nil end       -- already decided
  local res, depth, ko = solve.position(g, q)
  if res ~= "win" or ko then return nil end
  -- the other side to move would win: the first move matters
  local h = go.position(19, stones, go.other(to_play))
  local other = solve.position(h, q)
  if other ~= "win" then return nil end
  local p = { size = 19, stones = stones, to_play = to_play, tree = {} }
  local r = solve.first_moves(p, q)
  if r.status ~= "solved" or #r.correct < 1 or #r.correct > 2 then return nil end
  for _, m in ipairs(r.moves) do if m.ko then return nil end end
  local col = to_play == "black" and "B" or "W"
  local wrong = {}
  for _, m in ipairs(r.moves) do if m.result == "loss" then wrong[#wrong + 1] = m.move end end
  local pv
  for _, pt in ipairs(r.correct) do
    g:play(pt)
    local rest = pv_from(g, q, depth)
    g:undo()
    pv = pv or { col .. ":" .. pt, table.unpack(rest) }
    p.tree[#p.tree + 1] = { color = col, point = pt, correct = true, children = {} }
  end
  -- the main line as a chain under the first correct move
  local node = p.tree[1]
  for i = 2, #pv do
    local c, pt = pv[i]:match("^(%a):(.*)$")
    local n = { color = c, point = pt, correct = true, children = {} }
    node.children[1] = n
    node = n
  end
  for _, pt in ipairs(wrong) do p.tree[#p.tree + 1] = { color = col, point = pt, correct = false, children = {} } end
  p.correct = r.correct
  p.wrong = wrong
  p.pv = pv
  p.depth = depth
  p.goal = to_play == defender and "live" or "kill"
  p.target = target.point
  p.allowed = allowed
  return p
end

-- run(opts, log) -> problems. opts: count, seed, nodes, depth, tries (give up after),
-- confirm(p) -> true | false, why (e.g. framed GNU Go agrees with the key),
-- known (set of fingerprints not to reproduce, e.g. the shared collections'),
-- near (a near_index of problems not to come within M.NEAR points of).
-- Returns the problems, the candidates tried, the proven candidates rejected
-- { wall = n, copy = n, confirm = n, near = n } (checked in that order), and
-- { checked = proven candidates whose wall was checked, repaired = problems
-- kept whose band needed a closing stone (see candidate) }
function M.run(opts, log)
  local r = rng(opts.seed or 1)
  local out, seen, tries = {}, {}, 0
  local rejected = { copy = 0, near = 0, confirm = 0, wall = 0 }
  local walls = { checked = 0, repaired = 0 }
  local max_tries = opts.tries or opts.count * 400
  while #out < opts.count and tries < max_tries do
    tries = tries + 1
    local stones, defender, attacker, box, closed = candidate(r)
    local to_play = r(1, 2) == 1 and defender or attacker
    local key = M.identity({ size = 19, stones = stones, to_play = to_play, correct = {}, tree = {} })
    if not seen[key] then
      seen[key] = true
      local p = prove(stones, defender, attacker, box, to_play, opts)
      local why
      if p then
        walls.checked = walls.checked + 1
        local faults = M.wall_faults(p)
        if #faults > 0 then
          p, why = nil, "capturable wall: " .. faults[1]
          rejected.wall = rejected.wall + 1
        end
      end
      if p then p.region = require("games.go.problem").region_of(p) end   -- the frame GNU Go is asked in
      if p and opts.known and opts.known[M.fingerprint(p.stones)] then
        p, why = nil, "a copy of a shared problem"
        rejected.copy = rejected.copy + 1
      end
      if p and opts.confirm then
        local ok, w = opts.confirm(p)
        if not ok then p, why = nil, w; rejected.confirm = rejected.confirm + 1 end
      end
      if p and opts.near then
        local id, d = M.near_copy(opts.near, p.stones, 19)
        if id then
          p, why = nil, string.format("a near copy of %s (%d points differ)", id, d)
          rejected.near = rejected.near + 1
        end
      end
      if why and log then log(string.format("try %d rejected: %s", tries, why)) end
      if p then
        p.id = string.format("tabula-go-%04d", #out + 1)
        p.source = "tabula-generator"
        p.license = "CC0 (generated by tabula)"
        p.convention = "solver proof"
        p.seed = opts.seed or 1
        p.try = tries
        p.branching = #p.correct + #p.wrong
        p.tier = M.tier_of(p.depth, p.branching)
        p.correct_gtp = {}
        for i, pt in ipairs(p.correct) do p.correct_gtp[i] = go.to_gtp(pt, 19) end
        p.grid = go.position(19, p.stones, p.to_play):grid()
        if closed > 0 then walls.repaired = walls.repaired + 1 end
        out[#out + 1] = p
        if log then log(string.format("%s: %s to play and %s, depth %d, %s (try %d)", p.id, p.to_play, p.goal, p.depth, table.concat(p.correct_gtp, " "), tries)) end
      end
    end
  end
  return out, tries, rejected, walls
end

return M
