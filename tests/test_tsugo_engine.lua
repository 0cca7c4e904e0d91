-- TsuGO's built-in engine player: solver first (its answer is the solver's
-- proof, its narrative a valid tree with the proven move as a won branch and
-- the refuted ones as lost branches), MCTS when the solver gives up (said in
-- the narrative, the answer the search's top move), on the own suite and under
-- a board transform; one group at stake for all the searches; the GNU Go
-- calls the references use.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local go = require "games.go"
local solve = require "games.go.solve"
local player = require "scenarios.tsugo.player"
local narrative = require "scenarios.tsugo.narrative"
local trees = require "scenarios.tsugo.trees"
local mcts = require "scenarios.tsugo.mcts"
local problems = require "scenarios.tsugo.problems"
local transforms = require "scenarios.tsugo.transforms"
local tp = require "scenarios.tsugo.prompts"
local test, T = t.suite()

local SUITE = t.root() .. "/games/go/suite.jsonl"
local STD = tp.frame("standard")

local function side(p) return p.to_play == "black" and "B" or "W" end

-- the K=4 option sets of the suite's first 24 problems (every tier; the
-- whole suite of 150 would take a minute here), as the scenario builds them
local function suite_trials()
  local run = require("tabula.cmd.run").lib
  local S = run.load(t.root() .. "/scenarios/tsugo.lua")
  local opts = assert(require("tabula.cli").parse(run.spec(S), { "--problems", SUITE, "--gnugo", "none", "--mcts-playouts", "40",
    "--modality", "symbolic", "--candidates", "4", "--no-references", "--limit", "24" }))
  return S.plan(opts)
end

-- judgments of the first-level candidates: point -> { polarity... }
local function verdicts(tree)
  local out = {}
  for _, c in ipairs(trees.candidates(tree)) do
    local pol = {}
    local function walk(n)
      if n.type == "judgment" then pol[#pol + 1] = n.polarity end
      for _, k in ipairs(tree.children[n.id]) do walk(tree.nodes[k + 1]) end
    end
    walk(c)
    out[c.pos] = pol
  end
  return out
end

test("engine, solver first: on the suite's first 24 problems the answer is the solver's proof and the narrative a valid tree", function()
  if fs.kind(SUITE) ~= "file" then t.skip("no games/go/suite.jsonl") end
  local n = 0
  for _, tr in ipairs(suite_trials()) do
    local p = tr.problem
    local show = player.show_for(p.size, STD)
    -- the solver's own proof over the four options, with the whole budget
    local q = assert(solve.query(p))
    local proven = {}
    for _, c in ipairs(solve.first_moves(p, q, { moves = tr.options.order }).correct) do proven[c] = true end
    for _, cands in ipairs({ tr.options, false }) do
      local text, answer, source = player.reading(p, { options = cands or nil, show = show, nodes = 200000, playouts = 50, seed = 1 })
      t.eq(source, "solver", p.id)
      if cands then t.ok(proven[answer], p.id .. ": the K=4 answer " .. answer .. " is proven by the solver") end
      local accepted = false
      for _, c in ipairs(p.correct) do if c == answer then accepted = true end end
      t.ok(accepted, p.id .. ": the answer is an accepted move")
      local label = show(answer)
      for _, l in ipairs({ "A", "B", "C", "D" }) do if cands and cands[l] == answer then label = l end end
      t.contains(text, "answer is " .. label)
      local open = text:find("-> other", 1, true) ~= nil
      t.eq(text:find("unsettled", 1, true) ~= nil, open, p.id .. ": the conclusion says what was settled")
      local tree, log = trees.validate(narrative.extract(text), { to_play = side(p), text = text })
      t.ok(tree, p.id .. ": " .. tostring(log.rejected))
      local v = verdicts(tree)
      if cands then t.eq(#trees.candidates(tree), 4, p.id .. ": the four options are the candidates") end
      t.ok(#trees.candidates(tree) <= 4)
      for pos, pol in pairs(v) do
        local sgf = go.from_gtp(pos, p.size)
        for _, x in ipairs(pol) do
          if proven[sgf] or sgf == answer then t.eq(x, "win", p.id .. " " .. pos)
          elseif cands then t.ok(x == "lose" or x == "other", p.id .. " " .. pos .. " " .. x) end
        end
      end
      n = n + 1
    end
  end
  t.ok(n >= 48, "both settings on 24 suite problems")
end)

test("engine, fallback: a budget too small for a proof gives MCTS's answer, and the narrative says so", function()
  local p = problems.load(SUITE)[2]
  local show = player.show_for(p.size, STD)
  local text, answer, source = player.reading(p, { show = show, nodes = 10, playouts = 80, seed = 7 })
  t.eq(source, "mcts")
  t.contains(text, "fall back to a Monte Carlo search")
  t.eq(answer, mcts.run(p, { playouts = 80, seed = 7 }).top, "the answer is the search's most visited move")
  t.contains(text, "answer is " .. show(answer))
  local tree, log = trees.validate(narrative.extract(text), { to_play = side(p), text = text })
  t.ok(tree, tostring(log.rejected))
  t.ok(#trees.candidates(tree) >= 1)
  -- nodes = 0: MCTS only, nothing about a solver
  local text0, answer0, source0 = player.reading(p, { show = show, nodes = 0, playouts = 80, seed = 7 })
  t.eq({ source0, answer0 }, { "mcts", answer })
  t.ok(not text0:find("exact reading", 1, true))
end)

test("engine under a transform: the suite's target and allowed points move with the board", function()
  local p = problems.load(SUITE)[3]
  for _, name in ipairs({ "rot90", "flip_v", "colour" }) do
    local q = transforms.apply(p, name)
    local _, answer, source = player.reading(q, { show = player.show_for(q.size, STD), nodes = 200000, playouts = 50, seed = 1 })
    t.eq(source, "solver", name)
    local back = transforms.point_map(name, p.size, true)(answer)
    local ok = false
    for _, c in ipairs(p.correct) do if c == back then ok = true end end
    t.ok(ok, name .. ": the answer mapped back is correct (" .. back .. ")")
  end
end)

test("one group at stake: MCTS, GNU Go and the solver use games.go.solve.query's choice", function()
  local n = 0
  for _, file in ipairs({ t.root() .. "/tests/data/tsugo/problems.jsonl", SUITE }) do
    for _, p in ipairs(problems.load(file)) do
      local q = solve.query(p)
      local s = mcts.setting(p)
      t.eq({ s.target, s.defender }, { q and q.target, q and q.defender or go.other(p.to_play) }, p.id)
      if p.target then t.eq(s.target, p.target, p.id .. ": the suite's own target") end
      n = n + 1
    end
  end
  t.ok(n > 20)
end)

test("games.go.gnugo: play, color and undo (SGF points both ways)", function()
  t.need_program("/usr/games/gnugo")
  local gnugo = require "games.go.gnugo"
  local e = gnugo.start({ level = 1 })
  gnugo.setup(e, { size = 9, stones = { black = { "aa" }, white = { "ba" } }, to_play = "black" })
  t.eq({ gnugo.color(e, "aa"), gnugo.color(e, "ba"), gnugo.color(e, "cc") }, { "black", "white", nil })
  t.ok(gnugo.play(e, "white", "ab"), "white captures")
  t.eq(gnugo.color(e, "aa"), nil)
  t.eq(gnugo.play(e, "black", "ba"), false, "an occupied point is refused")
  gnugo.undo(e)
  t.eq(gnugo.color(e, "aa"), "black", "undo restores the capture")
  e:close()
end)

test("report: GNU Go restricted to the options counts a problem with no answer (or a wrong one) as wrong", function()
  local report = require "scenarios.tsugo.report"
  local function ref(id, gn)
    return { kind = "reference", status = "success", problem_id = id, tier = "Easy", gnugo = gn,
      mcts_open = { correct = false }, mcts_restricted = { correct = true } }
  end
  local sm = report.compute({ ref("a", { correct = true, restricted = "A1", restricted_correct = true }),
    ref("b", { correct = false, restricted_correct = false }),
    ref("c", { correct = false }) })             -- a record written before restricted_correct was always set
  t.eq({ sm.references.gnugo_restricted.n, sm.references.gnugo_restricted.correct }, { 3, 1 })
  t.eq({ sm.references.gnugo_open.n, sm.references.gnugo_open.correct }, { 3, 1 })
end)

return T
