-- games.ismcts — single-observer information-set Monte Carlo tree search (Cowling,
-- Powley and Whitehouse 2012) over the game interface of games/README.md, the DECE
-- reference baseline: every simulation determinizes the state from the observer's view,
-- walks one tree of action ids (UCB1 with availability counts; new actions expanded in the
-- heuristic's order), rolls out with the game's heuristic (ε-greedy) and scores the final
-- ranking, or the game's estimate of the final scores when the simulation is cut short.
--
--   local id, info = ismcts.choose(G, state, seat, rand, { simulations = 1024, steps = 18 })
--   ismcts.choose(G, state, seat, rand, { simulations = 1024, time = 30 })   -- and a 30 s target
--
-- time is a wall-time target per decision in seconds (the reference study's 30 s) besides
-- the simulation cap: no simulation starts once the decision has taken that long (at least
-- one always runs); opts.clock (seconds, default tabula.loop's clock, else os.clock) is what
-- it is measured with. info.stopped says which bound ended the search ("simulations" or
-- "time").
--
-- steps bounds the actions of one simulation (tree and rollout together); a simulation
-- that stops before the end is scored on the provisional ranking. A simultaneous choice
-- (several current seats) is searched decoupled (DUCT, as in Tak, Lanctot and Winands 2014
-- for simultaneous moves): at its node every pending seat picks from its own statistics
-- (UCB1 with availability) against the same frozen state, so no seat's pick depends on
-- another's sealed choice of that step, and only the joint choice leads to the next node;
-- rollouts likewise pick every seat's action before applying any. The pending seats are
-- applied in ascending order, as the arena does. Turn-by-turn choices are searched as
-- before. info: simulations, nodes, visits and mean reward (value) of the pick.
local kit = require "games.kit"

local M = {}

local function default_clock()
  local ok, loop = pcall(require, "tabula.loop")
  if ok and loop.now then return loop.now() end
  return os.clock()
end

M.DEFAULTS = { simulations = 1024, steps = 18, exploration = 0.7, epsilon = 0.1 }

-- pws(ranks, seat) -> the pairwise placement score of seat (1 best .. 0 worst)
local function pws(ranks, seat)
  local n, u = #ranks, 0
  if n < 2 then return 1 end
  for j = 1, n do
    if j ~= seat then
      if ranks[seat] < ranks[j] then u = u + 1 elseif ranks[seat] == ranks[j] then u = u + 0.5 end
    end
  end
  return u / (n - 1)
end
M.pws = pws

-- rewards(G, state) -> per-seat reward in [0, 1]: the placement (pairwise) by the game's
-- estimate of the final score (G.estimate, or the ranking's scores at the end and when the
-- game has no estimate), plus a share for the margin to the best other seat
local function rewards(G, state)
  local est
  if G.is_terminal(state) or not G.estimate then est = G.ranking(state).scores else est = G.estimate(state) end
  local n = #est
  local ranks = kit.ranks(est)
  if G.is_terminal(state) then ranks = G.ranking(state).ranks end
  local out = {}
  for i = 1, n do
    local other = -math.huge
    for j = 1, n do if j ~= i and est[j] > other then other = est[j] end end
    out[i] = 0.7 * pws(ranks, i) + 0.3 / (1 + math.exp(-(est[i] - other) / 5))
  end
  return out
end

-- heuristic_pick(G, state, seat, legal, rand, epsilon) -> id: ε-greedy on the game's action
-- scores (ties: the first listed)
function M.heuristic_pick(G, state, seat, legal, rand, epsilon)
  if rand(1000000) <= (epsilon or 0.1) * 1000000 then return legal[rand(#legal)].id end
  local best, id = -math.huge, legal[1].id
  local all = G.heuristic_all and G.heuristic_all(state, seat, legal)
  for i, a in ipairs(legal) do
    local h = all and all[i] or G.heuristic(state, seat, a.id)
    if h > best then best, id = h, a.id end
  end
  return id
end

local function new_node(seat) return { seat = seat, n = 0, w = 0, avail = 0, children = {} } end

-- select(G, d, seat, stats, rand, c) -> id, edge, new: one seat's choice at a tree node from
-- its statistics stats (action id -> { seat, n, w, avail }) on the state d: the untried
-- legal action the heuristic likes best (ties: at random), a new edge; otherwise UCB1 with
-- availability counts. Every legal action's availability counts this visit.
local function select(G, d, seat, stats, rand, c)
  local acts = G.legal_actions(d, seat, true)
  local untried = {}
  for _, a in ipairs(acts) do
    local ch = stats[a.id]
    if ch then ch.avail = ch.avail + 1 else untried[#untried + 1] = a.id end
  end
  if #untried > 0 then
    local best, pick = -math.huge, {}
    for _, u in ipairs(untried) do
      local h = G.heuristic(d, seat, u)
      if h > best then best, pick = h, { u } elseif h == best then pick[#pick + 1] = u end
    end
    local id = pick[rand(#pick)]
    local ch = new_node(seat)
    ch.avail = 1
    stats[id] = ch
    return id, ch, true
  end
  local best, pick = -math.huge, nil
  for _, a in ipairs(acts) do
    local ch = stats[a.id]
    local v = ch.w / ch.n + c * math.sqrt(math.log(ch.avail) / ch.n)
    if v > best then best, pick = v, a.id end
  end
  return pick, stats[pick], false
end

-- joint(G, d, seats, pick) -> ids: a simultaneous choice made against the frozen state d:
-- every seat's id is picked (pick(seat) -> id) before any is applied, then they are applied
-- in the order of seats (ascending, as the arena does)
local function joint(G, d, seats, pick)
  local ids = {}
  for i, seat in ipairs(seats) do ids[i] = pick(seat) end
  for i, seat in ipairs(seats) do assert(G.apply(d, seat, ids[i])) end
  return ids
end

function M.choose(G, state, observer, rand, opts)
  opts = opts or {}
  local sims = opts.simulations or M.DEFAULTS.simulations
  local steps = opts.steps or M.DEFAULTS.steps
  local c = opts.exploration or M.DEFAULTS.exploration
  local eps = opts.epsilon or M.DEFAULTS.epsilon
  local legal = G.legal_actions(state, observer, true)
  if #legal == 1 then return legal[1].id, { simulations = 0, nodes = 0 } end
  local root = { children = {}, n = 0 }
  local nodes = 0
  local clock, target = opts.clock or default_clock, opts.time
  local started = target and clock()
  local done, stopped = 0, "simulations"
  for k = 1, sims do
    if target and k > 1 and clock() - started >= target then stopped = "time"; break end
    done = k
    local d = G.determinize(state, observer, rand)
    local node, path, taken = root, {}, 0
    -- selection and expansion
    while taken < steps and not G.is_terminal(d) do
      local seats = G.current_seats(d)
      if #seats > 1 then
        -- a simultaneous choice (decoupled): each pending seat picks from its own statistics
        -- at this node, which no other seat's choice of this step has reached; the joint
        -- choice then leads to the next node
        node.joint = node.joint or {}
        local fresh = false
        local ids = joint(G, d, seats, function(seat)
          local stats = node.joint[seat] or {}
          node.joint[seat] = stats
          local id, edge, new = select(G, d, seat, stats, rand, c)
          if new then fresh, nodes = true, nodes + 1 end
          path[#path + 1] = edge
          return id
        end)
        taken = taken + #seats
        local key = table.concat(ids, " ")
        local nxt = node.children[key]
        if not nxt then nxt, fresh = { children = {} }, true; node.children[key] = nxt end
        node = nxt
        if fresh then break end
      else
        local seat = seats[1]
        local id, new
        id, node, new = select(G, d, seat, node.children, rand, c)
        assert(G.apply(d, seat, id))
        taken = taken + 1
        path[#path + 1] = node
        if new then nodes = nodes + 1; break end
      end
    end
    -- rollout (a simultaneous choice: every seat picks against the same frozen state)
    while taken < steps and not G.is_terminal(d) do
      local seats = G.current_seats(d)
      joint(G, d, seats, function(seat)
        return M.heuristic_pick(G, d, seat, G.legal_actions(d, seat, true), rand, eps)
      end)
      taken = taken + #seats
    end
    -- backpropagation: each edge holds the reward of the seat that chose its action
    local rw = rewards(G, d)
    root.n = root.n + 1
    for _, nd in ipairs(path) do
      nd.n = nd.n + 1
      nd.w = nd.w + rw[nd.seat]
    end
  end
  -- the observer's statistics at the root: its edges, or its own in a simultaneous choice
  local mine = root.joint and root.joint[observer] or root.children
  local best, id, value = -1, legal[1].id, nil
  for _, a in ipairs(legal) do     -- the most visited action (ties: the first listed)
    local ch = mine[a.id]
    if ch and ch.n > best then best, id, value = ch.n, a.id, ch.w / ch.n end
  end
  return id, { simulations = done, nodes = nodes, visits = best, value = value, stopped = stopped }
end

M.kit = kit
return M
