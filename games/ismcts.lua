-- games.ismcts — single-observer information-set Monte Carlo tree search (Cowling,
-- Powley and Whitehouse 2012) over the game interface of games/README.md, the DECE
-- reference baseline: every simulation determinizes the state from the observer's view,
-- walks one tree of action ids (UCB1 with availability counts; new actions expanded in the
-- heuristic's order), rolls out with the game's heuristic (ε-greedy) and scores the final
-- ranking, or the game's estimate of the final scores when the simulation is cut short.
--
--   local id, info = ismcts.choose(G, state, seat, rand, { simulations = 1024, steps = 18 })
--
-- steps bounds the actions of one simulation (tree and rollout together); a simulation
-- that stops before the end is scored on the provisional ranking. A simultaneous choice
-- is searched as if the seats chose in turn, the observer first (so the root holds its
-- actions; the game must accept the pending seats' choices in any order), the others
-- after it in seat order. info: simulations, nodes, visits of the pick.
local kit = require "games.kit"

local M = {}

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
  for _ = 1, sims do
    local d = G.determinize(state, observer, rand)
    local node, path, taken = root, {}, 0
    -- selection and expansion
    while taken < steps and not G.is_terminal(d) do
      local seat = G.current_seats(d)[1]
      if taken == 0 then seat = observer end    -- a simultaneous choice: the observer's comes first
      local acts = G.legal_actions(d, seat, true)
      local untried = {}
      for _, a in ipairs(acts) do
        local ch = node.children[a.id]
        if ch then ch.avail = ch.avail + 1 else untried[#untried + 1] = a.id end
      end
      local id
      if #untried > 0 then
        -- expand the untried action the heuristic likes best (ties: at random)
        local best, pick = -math.huge, {}
        for _, u in ipairs(untried) do
          local h = G.heuristic(d, seat, u)
          if h > best then best, pick = h, { u } elseif h == best then pick[#pick + 1] = u end
        end
        id = pick[rand(#pick)]
        local ch = new_node(seat)
        ch.avail = 1
        node.children[id] = ch
        nodes = nodes + 1
        node = ch
        assert(G.apply(d, seat, id))
        taken = taken + 1
        path[#path + 1] = node
        break
      end
      local best, pick = -math.huge, nil
      for _, a in ipairs(acts) do
        local ch = node.children[a.id]
        local v = ch.w / ch.n + c * math.sqrt(math.log(ch.avail) / ch.n)
        if v > best then best, pick = v, a.id end
      end
      id = pick
      node = node.children[id]
      assert(G.apply(d, seat, id))
      taken = taken + 1
      path[#path + 1] = node
    end
    -- rollout
    while taken < steps and not G.is_terminal(d) do
      local seat = G.current_seats(d)[1]
      local acts = G.legal_actions(d, seat, true)
      assert(G.apply(d, seat, M.heuristic_pick(G, d, seat, acts, rand, eps)))
      taken = taken + 1
    end
    -- backpropagation: each node holds the reward of the seat that chose its action
    local rw = rewards(G, d)
    root.n = root.n + 1
    for _, nd in ipairs(path) do
      nd.n = nd.n + 1
      nd.w = nd.w + rw[nd.seat]
    end
  end
  local best, id = -1, legal[1].id
  for _, a in ipairs(legal) do     -- the most visited action (ties: the first listed)
    local ch = root.children[a.id]
    if ch and ch.n > best then best, id = ch.n, a.id end
  end
  return id, { simulations = sims, nodes = nodes, visits = best }
end

M.kit = kit
return M
