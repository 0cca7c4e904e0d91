-- TsuGO scenario: transforms map answers back, MCTS is deterministic with a
-- seed, the options and the engine narrative on every problem (the fixture
-- and the own suite when present), offline runs, scripted runs through the
-- mock server for every modality, an extractor model over the mock server,
-- a resumed run, and GNU Go as the reference.
-- slow: TsuGO runs over the fixture problems and the suite's first 30 (left out by make check)
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local go = require "games.go"
local transforms = require "scenarios.tsugo.transforms"
local mcts = require "scenarios.tsugo.mcts"
local problems = require "scenarios.tsugo.problems"
local trees = require "scenarios.tsugo.trees"
local narrative = require "scenarios.tsugo.narrative"
local player = require "scenarios.tsugo.player"
local tp = require "scenarios.tsugo.prompts"
local test, T = t.suite()

local FIXTURE = "tests/data/tsugo/problems.jsonl"
local FAST = { "--gnugo", "none", "--engine-playouts", "150", "--mcts-playouts", "60", "--quiet" }

-- the runner holds its directory's lock until the process ends; a test that
-- continues a run in the same process lets it go first, as an ended run would
local function release()
  local runner = require "tabula.runner"
  if runner.lock then runner.lock:unlock(); runner.lock = nil end
end

local tmpdir = t.tmpdir

local function args(extra, dir)
  local a = { "--problems", t.root() .. "/" .. FIXTURE, "--out", dir .. "/run" }
  for _, x in ipairs(FAST) do a[#a + 1] = x end
  for _, x in ipairs(extra or {}) do a[#a + 1] = x end
  return a
end

-- every problem file the checks run over: the fixture, and the own suite's
-- first 30 problems (every tier) once it exists
local function problem_files()
  local files = { t.root() .. "/" .. FIXTURE }
  local suite = t.root() .. "/games/go/suite.jsonl"
  if fs.kind(suite) == "file" then files[#files + 1] = suite end
  return files
end
local LIMIT = { [t.root() .. "/games/go/suite.jsonl"] = "30" }

test("transforms: every symmetry's inverse maps points back; the problem moves with it", function()
  for _, name in ipairs(transforms.NAMES) do
    local f, b = transforms.point_map(name, 19), transforms.point_map(name, 19, true)
    for _, pt in ipairs({ "aa", "sa", "as", "ss", "cd", "pq", "jj" }) do t.eq(b(f(pt)), pt, name .. " " .. pt) end
  end
  t.eq(transforms.point_map("rot90", 19)("aa"), "sa", "clockwise: top-left goes to top-right")
  t.eq(transforms.point_map("flip_h", 19)("ab"), "sb")
  t.eq(transforms.point_map("flip_v", 19)("ab"), "ar")
  t.eq(transforms.point_map("colour", 19)("ab"), "ab")
  local p = problems.load(t.root() .. "/" .. FIXTURE)[1]
  local q = transforms.apply(p, "rot180")
  t.eq(q.correct, { "bs" })
  t.eq(q.tree[1].point, "bs")
  t.eq(q.region, { 0, 16, 4, 18 })
  local c = transforms.apply(p, "colour")
  t.eq({ c.to_play, c.stones.black, c.tree[1].color }, { "black", p.stones.white, "B" })
  t.eq(transforms.apply(p, "relabel", 42).frame, "relabeled:42")
  t.eq(p.correct, { "ra" }, "the original is unchanged")
end)

test("MCTS: the same seed gives the same search; root metrics from the visits", function()
  local p = problems.load(t.root() .. "/" .. FIXTURE)[1]
  local a = mcts.run(p, { seed = 5, playouts = 80 })
  local b = mcts.run(p, { seed = 5, playouts = 80 })
  t.eq(a.root, b.root)
  t.eq(a.tops, b.tops)
  t.eq(a.tnc, b.tnc)
  local total = 0
  for _, e in ipairs(a.root) do total = total + e.visits end
  t.eq(total, 80, "every playout passes through one root move")
  local m = mcts.root_metrics(a, { ra = true })
  local ra
  for _, e in ipairs(a.root) do if e.point == "ra" then ra = e.visits end end
  t.near(m.swr, 1 - ra / 80)
  t.eq(m.sbc, #a.root)
  local r = mcts.run(p, { seed = 5, playouts = 30, root = { "ra", "qa", "sa", "pa" } })
  t.eq(#r.root, 3, "an occupied option is not a root move")
end)

test("K=4: the local solver's refuted first moves join the distractor pool", function()
  local dir = tmpdir()
  local _, out = t.run_scenario("scenarios/tsugo.lua", { "--problems", t.root() .. "/" .. FIXTURE, "--out", dir .. "/run", "--quiet",
    "--gnugo", "none", "--no-references", "--candidates", "4", "--mcts-playouts", "40", "--engine-playouts", "60", "--ids", "t1,t3" })
  local meta = json.decode(fs.read(out .. "/run.json"))
  for _, id in ipairs({ "t1", "t3" }) do
    local log = meta.data.option_logs[id]
    local solver = 0
    for _, e in ipairs(log.pool) do if e:find(" solver ", 1, true) then solver = solver + 1 end end
    t.ok(solver > 0, id .. ": solver refutations in the pool")
  end
end)

test("MCTS: the root's children are shuffled with the seed, so the first playout's pick is not always option A", function()
  local p = problems.load(t.root() .. "/" .. FIXTURE)[1]
  local firsts = {}
  for seed = 1, 16 do
    local r = mcts.run(p, { seed = seed, playouts = 1, root = { "qa", "sa", "ra", "nd" } })
    firsts[r.tops[1]] = (firsts[r.tops[1]] or 0) + 1
  end
  local n = 0
  for _ in pairs(firsts) do n = n + 1 end
  t.ok(n >= 2, "the first pick varies with the seed")
  t.ok((firsts.qa or 0) < 16, "not always the first option")
end)

test("on every fixture problem and the suite's first 30: options legal, local, never accepted; the engine narrative extracts to a valid tree", function()
  local run = require("tabula.cmd.run").lib
  local S = run.load(t.root() .. "/scenarios/tsugo.lua")
  local n = 0
  for _, file in ipairs(problem_files()) do
    local opts = assert(require("tabula.cli").parse(run.spec(S), { "--problems", file, "--gnugo", "none", "--mcts-playouts", "40",
      "--modality", "symbolic", "--candidates", "4", "--limit", LIMIT[file] or "1000" }))
    local trials = S.plan(opts)
    for _, tr in ipairs(trials) do
      if tr.kind == "model" then
        n = n + 1
        local p = tr.problem
        local g = go.position(p.size, p.stones, p.to_play)
        local accepted = {}
        for _, c in ipairs(p.correct) do accepted[c] = true end
        local correct_options = 0
        for _, o in ipairs(tr.options.order) do
          if accepted[o] then correct_options = correct_options + 1
          else t.ok(g:is_legal(o), p.id .. ": option " .. o .. " is legal") end
        end
        t.eq(correct_options, 1, p.id .. ": exactly one accepted option")
        local text = player.reading(p, { options = tr.options, show = player.show_for(p.size, tp.frame("standard")), playouts = 60, seed = 1 })
        local tree, log = trees.validate(narrative.extract(text), { to_play = p.to_play == "black" and "B" or "W" })
        t.ok(tree, p.id .. ": " .. tostring(log.rejected))
        t.eq(#trees.candidates(tree), 4, p.id .. ": the four options are the candidates")
      end
    end
  end
  t.ok(n >= 3)
end)

test("offline run: engine player, trees, metrics, report table; a second run resumes without work", function()
  local dir = tmpdir()
  local rc, out = t.run_scenario("scenarios/tsugo.lua", args({ "--transform", "rot180,colour" }, dir))
  t.eq(rc, 0)
  local recs = records.read(out .. "/trials.jsonl")
  t.eq(#recs, 3 * 2 * 3 + 3)
  local with_tree = 0
  for _, r in ipairs(recs) do
    if r.kind == "model" and r.modality == "symbolic" and r.transform == "identity" then
      t.eq(r.extractor, "builtin")
      t.ok(r.tree and r.metrics, r.trial_id .. " has a tree")
      t.eq(r.tree_rejected, nil)
      t.eq(r.replay.impossible, 0, "the engine never plays an impossible move")
      with_tree = with_tree + 1
    end
  end
  t.eq(with_tree, 6)
  local report = fs.read(out .. "/report.md")
  t.contains(report, "| rot180 |")
  t.contains(report, "SearchE weights")
  local sm = json.decode(fs.read(out .. "/summary.json"))
  t.ok(sm.process["4"].tokene > 0)
  t.eq(sm.references.problems, 3)
  -- report.html: the extracted tree next to the reference tree, nodes coloured by their replay label
  local S = require("tabula.cmd.run").lib.load(t.root() .. "/scenarios/tsugo.lua")
  require("tabula.view").write(out, S)
  local page = fs.read(out .. "/report.html")
  t.contains(page, '<svg class="board tsugo-trees"')
  t.contains(page, "(on-tree-correct)")
  t.contains(page, "Process metrics (Symbolic input)")
  -- rerun into the same directory: nothing is replayed
  local before = fs.read(out .. "/trials.jsonl")
  release()
  t.run_scenario("scenarios/tsugo.lua", args({ "--transform", "rot180,colour" }, dir))
  t.eq(fs.read(out .. "/trials.jsonl"), before)
end)

-- a run through the mock server; returns records, the server's log, the run dir
local function run_mock(provider, extra, rules)
  local mock = require "tests.mock"
  local s = mock.start(rules)
  local dir = tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return { mock = { provider = "%s", model = "m",
    base_url = %q, optional_key = true, prices = { input = 1, output = 1 } } }]], provider,
    s.url .. (provider == "gemini" and "/v1beta" or "/v1")))
  local a = args({ "--model", "mock", "--models", dir .. "/models.lua", "--no-references" }, dir)
  for _, x in ipairs(extra or {}) do a[#a + 1] = x end
  local ok, err = pcall(t.run_scenario, "scenarios/tsugo.lua", a)
  local log = s:log()
  local n = s:requests()
  if not ok then s:close(); error(err, 0) end
  return records.read(dir .. "/run/trials.jsonl"), log, dir, s, n
end

test("mock server, text modalities: prompts arrive, answers are scored", function()
  local rules = { { match = "Black stones: Q18, Q19", reply = "S19 is the vital point.\nanswer is S19" }, { reply = "answer is B" } }
  local recs, log, _, s = run_mock("openai", { "--modality", "symbolic,grid,symbolic+grid", "--candidates", "open", "--ids", "t1" }, rules)
  s:close()
  t.eq(#recs, 3)
  for _, r in ipairs(recs) do
    if r.modality == "symbolic" then t.eq({ r.correct, r.answer }, { true, "S19" }) end
  end
  local bodies = {}
  for _, l in ipairs(log) do bodies[#bodies + 1] = l.body end
  local all = table.concat(bodies, "\n")
  t.contains(all, "The board as a grid, 0 = empty, 1 = black, 2 = white.")
  t.contains(all, "White to play. No candidate moves are given")
  t.contains(all, '"temperature":0.7')
end)

test("mock server, visual modalities: the PNG arrives in the OpenAI, Anthropic and Gemini formats", function()
  if not problems.renderer() then t.skip("the Go board renderer (games.go.render) is not in this build yet") end
  for _, provider in ipairs({ "openai", "anthropic", "gemini" }) do
    local recs, log, _, s = run_mock(provider, { "--modality", "visual,symbolic+visual", "--candidates", "4", "--ids", "t1" },
      { { reply = "answer is A" } })
    s:close()
    t.eq(#recs, 2)
    t.ok(recs[1].image_sha256)
    local body = log[1].body
    if provider == "openai" then t.contains(body, '"image_url":"data:image/png;base64,iVBORw0KGgo')
    elseif provider == "anthropic" then t.contains(body, '"media_type":"image/png"'); t.contains(body, '"data":"iVBORw0KGgo')
    else t.contains(body, '"inline_data":{"data":"iVBORw0KGgo') end
  end
end)

test("an extractor model over the mock server builds the trees; a resumed run replays from the cache", function()
  local tree = '{"nodes":[{"id":0,"type":"root","parent":null},{"id":1,"type":"move","parent":0,"side":"W","move_pos":"S19"},'
    .. '{"id":2,"type":"judgment","parent":1,"polarity":"win"}]}'
  -- t2 and t3 (both Black to play) answer differently, so their extraction
  -- requests differ and none is served from the other's cache entry
  local rules = { { match = "The answer to convert", reply = tree },
    { match = "White stones: A2", reply = "Black S19 is the only try here.\nanswer is S19", usage = { input = 100, output = 30 } },
    { reply = "White S19 takes the vital point and the group dies.\nanswer is S19", usage = { input = 100, output = 40 } } }
  local recs, _, dir, s, n = run_mock("openai", { "--candidates", "open", "--extractor", "mock" }, rules)
  t.eq(#recs, 3)
  local by = {}
  for _, r in ipairs(recs) do by[r.problem_id] = r end
  t.eq({ by.t1.extractor, #by.t1.tree, by.t1.metrics.sfh, by.t1.itt, by.t1.itt_source }, { "mock", 3, 1, 40, "usage.output" })
  t.eq(by.t1.tree_repairs, {})
  t.eq({ by.t2.correct, by.t3.correct }, { true, false }, "S19 is t2's answer too, not t3's")
  t.eq(n, 6, "three answers and three extractions")
  -- drop the last record and leave a torn line: only that trial runs again, from the cache
  local path = dir .. "/run/trials.jsonl"
  local lines = {}
  for l in fs.read(path):gmatch("[^\n]+") do lines[#lines + 1] = l end
  local last = json.decode(lines[#lines])
  lines[#lines] = lines[#lines]:sub(1, 40)
  fs.write_atomic(path, table.concat(lines, "\n"))
  release()
  local a = args({ "--model", "mock", "--models", dir .. "/models.lua", "--no-references", "--candidates", "open", "--extractor", "mock" }, dir)
  t.run_scenario("scenarios/tsugo.lua", a)
  t.eq(s:requests(), n, "no new model call: the cache answered")
  s:close()
  local again = records.read(path, { skip_bad = true })
  t.eq(#again, 3)
  local redone
  for _, r in ipairs(again) do if r.trial_id == last.trial_id then redone = r end end
  t.eq({ redone.correct, redone.cached }, { last.correct, true })
end)

test("a model with no extractor model: no trees, no process numbers, the report says not computed", function()
  local rules = { { reply = "White S19 takes the vital point.\nanswer is S19", usage = { input = 100, output = 40 } } }
  local recs, _, dir, s = run_mock("openai", { "--candidates", "open" }, rules)
  s:close()
  t.eq(#recs, 3)
  for _, r in ipairs(recs) do
    t.eq({ r.tree, r.metrics, r.extractor }, { nil, nil, nil }, r.trial_id .. ": no tree from the built-in reader")
  end
  local md = fs.read(dir .. "/run/report.md")
  t.contains(md, "process metrics: not computed (no extractor")
  t.ok(not md:find("| setting | acc | SearchE", 1, true), "no process-metric table with numbers")
  local sm = json.decode(fs.read(dir .. "/run/summary.json"))
  t.eq(sm.process.open, nil)
  t.eq(sm.process_not_computed.open.n, 3)
  local meta = json.decode(fs.read(dir .. "/run/run.json"))
  t.contains(meta.setup.extractor, "none")
end)

test("closed loop over the mock server: the solver's defence, a solved line and a refuted one", function()
  local rules = { { match = "Black answers at T19", reply = "answer is R19" },
    { match = "Black answers at O19", reply = "answer is R19" },
    { match = "White to play. No candidate", reply = "answer is S19" }, { reply = "answer is R19" } }
  local recs, log, _, s = run_mock("openai", { "--candidates", "open", "--closed-loop", "--ids", "t1,t3" }, rules)
  s:close()
  local by = {}
  for _, r in ipairs(recs) do by[r.problem_id] = r end
  t.eq(by.t1.closed_loop, { solved = true, reason = "target_captured", moves = { "S19", "O19", "R19", "T19", "R19", "S19", "R19" }, model_moves = 4 })
  t.eq(by.t3.closed_loop.solved, false)
  t.eq(by.t3.correct, false)
  local turn
  for _, l in ipairs(log) do if l.body:find("Black answers at O19", 1, true) and not turn then turn = l.body end end
  t.contains(turn, "The moves so far: S19, O19.")
  t.contains(turn, '"role":"assistant"')
end)

test("GNU Go answering garbage or dying: a named infrastructure error for that reference, never a scored miss", function()
  for _, mode in ipairs({ "garbage", "dies" }) do
    local dir = tmpdir()
    local fake = dir .. "/fake-gnugo"
    fs.write_atomic(fake, "#!/bin/sh\nwhile read line; do\n  case \"$line\" in\n"
      .. "    version*) printf '= 3.8\\n\\n';;\n    quit*) exit 0;;\n"
      .. (mode == "garbage" and "    owl_*) printf '= banana split\\n\\n';;\n" or "    owl_*) exit 3;;\n")
      .. "    *) printf '= \\n\\n';;\n  esac\ndone\n")
    os.execute("chmod +x '" .. fake .. "'")
    local a = { "--problems", t.root() .. "/" .. FIXTURE, "--out", dir .. "/run", "--quiet", "--engine-playouts", "60",
      "--mcts-playouts", "40", "--candidates", "open", "--ids", "t1,t3", "--gnugo", fake }
    local _, out = t.run_scenario("scenarios/tsugo.lua", a)
    local n = 0
    for _, r in ipairs(records.read(out .. "/trials.jsonl")) do
      if r.kind == "reference" then
        n = n + 1
        t.eq(r.status, "success", mode .. ": the MCTS reference still stands")
        t.ok(r.gnugo and r.gnugo.error, mode .. ": the GNU Go part is an error")
        t.contains(r.gnugo.error, mode == "garbage" and "gnugo: owl_attack" or "gnugo")
        if mode == "garbage" then t.contains(r.gnugo.error, "banana") end
        t.eq(r.gnugo.correct, nil, "never scored")
      end
    end
    t.eq(n, 2)
    local sm = json.decode(fs.read(out .. "/summary.json"))
    t.eq({ sm.references.gnugo_open.n, sm.references.gnugo_errors }, { 0, 2 }, mode)
    t.contains(fs.read(out .. "/report.md"), "2 references failed (infrastructure errors, not scored)")
  end
end)

test("GNU Go reference: owl answers, restricted to the options, agreement", function()
  t.need_program("/usr/games/gnugo")
  local dir = tmpdir()
  local a = { "--problems", t.root() .. "/" .. FIXTURE, "--out", dir .. "/run", "--quiet", "--engine-playouts", "100",
    "--mcts-playouts", "60", "--candidates", "4", "--ids", "t1,t3" }
  local _, out = t.run_scenario("scenarios/tsugo.lua", a)
  local recs = records.read(out .. "/trials.jsonl")
  local n = 0
  for _, r in ipairs(recs) do
    if r.kind == "reference" then
      n = n + 1
      t.eq({ r.gnugo.correct, r.gnugo.restricted_correct, r.agreement }, { true, true, true }, r.problem_id)
      t.ok(r.mcts_open.metrics.tnc > 1)
    end
  end
  t.eq(n, 2)
  local meta = json.decode(fs.read(out .. "/run.json"))
  t.contains(meta.setup.gnugo, "GNU Go 3.8")
end)

return T
