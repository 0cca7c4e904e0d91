-- TsuGO's closed loop judged by the goal on the board: on the suite's problems
-- (keys proven in the full local game) a wrong first move followed by any
-- play is never solved, and the proven key followed by the solver's moves is.
local t = require "tabula.testing"
local go = require "games.go"
local json = require "tabula.json"
local fs = require "tabula.fs"
local prompt = require "tabula.prompt"
local solve = require "games.go.solve"
local tp = require "scenarios.tsugo.prompts"
local mcts = require "scenarios.tsugo.mcts"
local closed_loop = require "scenarios.tsugo.closed_loop"
local metrics = require "tabula.metrics"
local engine = require "tabula.engine"
local gnugo = require "games.go.gnugo"
local test, T = t.suite()

-- the suite's first 24 problems (every tier; the whole suite is re-solved in test_go_suite)
local function suite()
  local list = {}
  for line in fs.read(t.root() .. "/games/go/suite.jsonl"):gmatch("[^\n]+") do
    if #list < 24 then list[#list + 1] = json.decode(line) end
  end
  return list
end

local P = prompt.set("tsugo")
local frame = tp.frame("standard")

-- a player that answers a uniformly random legal local point (or passes)
local function random_player(rng, size)
  return function(_, position)
    local g = go.position(position.size, position.stones, position.to_play)
    local legal = {}
    for _, pt in ipairs(mcts.local_points(position)) do if g:is_legal(pt) then legal[#legal + 1] = pt end end
    if #legal == 0 then return { text = "answer is pass" } end
    return { text = "answer is " .. go.to_gtp(legal[rng(1, #legal)], size) }
  end
end

-- a player that answers the solver's fastest proven win on the suite problem p
local function fastest_player(p)
  local q = assert(solve.query(p, { nodes = 20000, depth = 21 }))
  return function(_, position)
    local r = solve.first_moves(position, q)
    local pick, best
    for _, m in ipairs(r.moves) do
      if m.result == "win" and (not best or m.depth < best) then pick, best = m.move, m.depth end
    end
    return { text = "answer is " .. (pick and go.to_gtp(pick, p.size) or "pass") }
  end
end

test("every wrong first move, followed by any play, is never judged solved", function()
  local n = 0
  for _, p0 in ipairs(suite()) do
    -- with its tree, and without (as a collection problem whose tree does not hold the wrong move)
    local bare = {}
    for k, v in pairs(p0) do bare[k] = v end
    bare.tree = {}
    for _, p in ipairs({ p0, bare }) do
    for _, w in ipairs(p.wrong) do
      for seed = 1, 2 do
        local rng = metrics.rng(seed * 7919 + #p.id)
        local r = assert(closed_loop.run({ q = p, first = w, frame = frame, P = P, seed = seed,
          say = random_player(function(a, b) return a - 1 + rng(b - a + 1) end, p.size) }))
        t.eq(r.solved, false, string.format("%s: wrong first move %s (seed %d): %s", p.id, w, seed, table.concat(r.moves, " ")))
        n = n + 1
      end
    end
    end
  end
  t.ok(n > 50, "many wrong lines played: " .. n)
end)

test("with GNU Go as the opponent off the tree: a wrong first move is still never solved", function()
  t.need_program(gnugo.PATH)
  local pool = engine.pool(function() return gnugo.start({ level = 10 }) end, 1)
  local ok, err = pcall(function()
    for _, p0 in ipairs(suite()) do
      local p = {}
      for k, v in pairs(p0) do p[k] = v end
      p.tree = {}
      for _, w in ipairs(p.wrong) do
        local rng = metrics.rng(#p.id + #w)
        local r = assert(closed_loop.run({ q = p, first = w, frame = frame, P = P, seed = 1, gnugo = pool,
          say = random_player(function(a, b) return a - 1 + rng(b - a + 1) end, p.size) }))
        t.eq(r.solved, false, string.format("%s: wrong first move %s: %s", p.id, w, table.concat(r.moves, " ")))
      end
    end
  end)
  pool:close()
  if not ok then error(err, 0) end
end)

test("the key followed by the solver's fastest winning moves reaches the goal", function()
  for _, p in ipairs(suite()) do
    local r = assert(closed_loop.run({ q = p, first = p.correct[1], frame = frame, P = P, seed = 1, say = fastest_player(p) }))
    t.eq(r.solved, true, string.format("%s (%s): %s, %s", p.id, p.goal, r.reason, table.concat(r.moves, " ")))
  end
end)

test("a first move the answers reject is never solved, even when the goal is reached after it", function()
  -- the proven key played, but the problem's answers made to list another
  -- move only: the line reaches the goal and is recorded as such, not solved
  local p0 = suite()[1]
  local p = {}
  for k, v in pairs(p0) do p[k] = v end
  p.correct = { p0.wrong[1] }
  local r = assert(closed_loop.run({ q = p, first = p0.correct[1], frame = frame, P = P, seed = 1, say = fastest_player(p0) }))
  t.eq({ r.solved, r.reason, r.goal_reached }, { false, "first_move_rejected", true }, table.concat(r.moves, " "))
end)

return T
