-- The DECE arena: seat-balanced schedules and matched studies, participants and their
-- manifest hashes, full matches between built-in players, a model participant over the mock
-- server (invalid answers: forfeit by default, fallback when asked), a killed match resumed
-- from its events to the same result, and a whole run with its report.
-- slow: a full match of every game between built-in players, and whole arena runs (left out by make check)
local t = require "tabula.testing"
local schedule = require "scenarios.dece.schedule"
local participants = require "scenarios.dece.participants"
local match = require "scenarios.dece.match"
local records = require "tabula.records"
local json = require "tabula.json"
local fs = require "tabula.fs"
local test, T = t.suite()

local tmpdir = t.tmpdir

test("dece schedule: 12 participants, 48 matches per game: 12 appearances per game, 4 in each seat, never twice in a match", function()
  local names = {}
  for i = 1, 12 do names[i] = "p" .. i end
  local sch = schedule.balanced({ names = names, games = { "azul", "splendor" }, matches_per_game = 48, seed = 20260924 })
  t.eq(#sch.matches, 96)
  local bal = schedule.balance(sch)
  for _, g in ipairs({ "azul", "splendor" }) do
    for _, nme in ipairs(names) do
      t.eq(bal[g][nme].appearances, 12)
      t.eq(bal[g][nme].seats, { 4, 4, 4 }, g .. " " .. nme)
    end
  end
  local seeds = {}
  for _, m in ipairs(sch.matches) do
    t.ok(m.seats[1] ~= m.seats[2] and m.seats[2] ~= m.seats[3] and m.seats[1] ~= m.seats[3])
    seeds[m.setup_seed] = true
  end
  t.eq(json.canonical(schedule.balanced({ names = names, games = { "azul", "splendor" }, matches_per_game = 48, seed = 20260924 })),
       json.canonical(sch), "the same seed gives the same schedule")
  t.ok(json.canonical(schedule.balanced({ names = names, games = { "azul" }, matches_per_game = 12, seed = 2 })) ~=
       json.canonical(schedule.balanced({ names = names, games = { "azul" }, matches_per_game = 12, seed = 3 })))
  t.raises(function() schedule.balanced({ names = names, games = { "azul" }, matches_per_game = 10 }) end, "not a multiple")
  local two = schedule.balanced({ names = { "a", "b", "c", "d" }, games = { "azul" }, matches_per_game = 8, players = 2, seed = 1 })
  for _, e in pairs(schedule.balance(two).azul) do t.eq(e.seats, { 2, 2 }) end
end)

test("dece schedule: a matched study fixes seed and focal seat per scenario; focal configurations never meet", function()
  local sch = schedule.matched({ games = { "azul" }, focal = { "A", "B", "C", "D" }, anchors = { "X", "Y" }, scenarios = 6, seed = 4 })
  t.eq(#sch.matches, 24)
  local by = {}
  for _, m in ipairs(sch.matches) do
    by[m.scenario] = by[m.scenario] or {}
    table.insert(by[m.scenario], m)
    local focal = 0
    for s, nme in ipairs(m.seats) do
      if nme == "A" or nme == "B" or nme == "C" or nme == "D" then focal = focal + 1; t.eq(s, m.focal_seat) end
    end
    t.eq(focal, 1)
  end
  local seats = {}
  for _, list in pairs(by) do
    t.eq(#list, 4)
    for _, m in ipairs(list) do t.eq(m.setup_seed, list[1].setup_seed); t.eq(m.focal_seat, list[1].focal_seat) end
    seats[list[1].focal_seat] = (seats[list[1].focal_seat] or 0) + 1
  end
  t.eq(seats, { 2, 2, 2 }, "focal seats rotate")
end)

-- The paper's baseline cohorts (4.1, D.8): 60 matches per baseline, 6 per game; each LLM
-- configuration an opponent once per game; identical seeds, seats and opponents across the
-- baselines; each baseline in every seat twice per game.
test("dece schedule: baseline cohorts: six matches per game, every opponent once, every seat twice, the same matches for each baseline", function()
  local games, llms = {}, {}
  for g = 1, 10 do games[g] = "game" .. g end
  for i = 1, 12 do llms[i] = "llm" .. i end
  local base = { "random", "heuristic", "ismcts" }
  local sch = schedule.baseline_cohort({ games = games, baselines = base, opponents = llms, seed = 7 })
  t.eq(#sch.matches, 180)
  t.eq(sch.kind, "baseline"); t.eq(sch.baselines, base)
  local per, by = {}, {}
  for _, m in ipairs(sch.matches) do
    local b = m.seats[m.focal_seat]
    t.eq(b, m.cohort)
    for s, nme in ipairs(m.seats) do if s ~= m.focal_seat then t.ok(nme:match("^llm"), m.id .. ": one baseline per match") end end
    per[b] = per[b] or {}
    per[b][m.game] = per[b][m.game] or { n = 0, opp = {}, seats = {} }
    local e = per[b][m.game]
    e.n = e.n + 1
    e.seats[m.focal_seat] = (e.seats[m.focal_seat] or 0) + 1
    for s, nme in ipairs(m.seats) do if s ~= m.focal_seat then e.opp[nme] = (e.opp[nme] or 0) + 1 end end
    by[m.scenario] = by[m.scenario] or {}
    table.insert(by[m.scenario], m)
  end
  local once = {}
  for _, x in ipairs(llms) do once[x] = 1 end
  for _, b in ipairs(base) do
    local total = 0
    for _, g in ipairs(games) do
      local e = per[b][g]
      t.eq(e.n, 6); t.eq(e.seats, { 2, 2, 2 }, b .. " in every seat twice in " .. g); t.eq(e.opp, once, "every LLM once in " .. g)
      total = total + e.n
    end
    t.eq(total, 60)
  end
  for sc, list in pairs(by) do
    t.eq(#list, 3, sc)
    for _, m in ipairs(list) do
      t.eq({ m.game, m.setup_seed, m.focal_seat }, { list[1].game, list[1].setup_seed, list[1].focal_seat })
      for s = 1, 3 do if s ~= m.focal_seat then t.eq(m.seats[s], list[1].seats[s], sc .. ": the same opponents in the same seats") end end
    end
  end
  t.raises(function() schedule.baseline_cohort({ games = games, baselines = base, opponents = { "a", "b", "c", "d", "e" } }) end, "not a multiple")
  t.raises(function() schedule.baseline_cohort({ games = games, baselines = base, opponents = llms, matches_per_game = 4 }) end, "equally often")
end)

test("dece participants: defaults, manifest hash identity, one-line errors", function()
  local ps = participants.load(nil)
  t.eq(#ps, 3)
  -- the default ISMCTS is sized for a default run of a few minutes (the paper's 1024 is an entry's default)
  t.eq(ps[3].manifest, { name = "ismcts", player = "ismcts", simulations = 32, steps = 18, epsilon = 0.1 })
  t.eq(participants.normalize({ name = "x", player = "ismcts" }, "x").manifest.simulations, 1024)
  local a = participants.normalize({ name = "m", model = "random", harness = { format = "json" } }, "x")
  local b = participants.normalize({ name = "m", model = "random", harness = { format = "json" } }, "x")
  local c = participants.normalize({ name = "m", model = "random", harness = { format = "json", memory = "last:3" } }, "x")
  t.eq(a.id, b.id); t.ok(a.id ~= c.id, "another memory scope is another participant")
  t.eq(a.manifest.harness.retries, 0); t.eq(a.manifest.harness.fallback, "none"); t.eq(a.manifest.harness.legal_actions, true)
  t.ok(a.manifest.prompt_sha256["system.txt"], "prompt files are part of the manifest")
  local ex = participants.load(t.root() .. "/scenarios/dece/participants.example.json")
  t.eq(#ex, 5)
  t.eq(ex[5].manifest.harness.tools, { "rules", "state", "simulate" })
  t.ok(ex[4].id ~= ex[5].id and ex[4].manifest.model == ex[5].manifest.model, "one model, two harnesses, two identities")
  t.raises(function() participants.normalize({ name = "m", model = "random", harness = { colour = 1 } }, "f") end, "unknown harness option 'colour'")
  t.raises(function() participants.normalize({ name = "m", model = "random", harness = { memory = "forever" } }, "f") end, "memory must be")
  t.raises(function() participants.normalize({ name = "m", player = "minimax" }, "f") end, "player must be")
end)

local arena_for = require("tests.dece_arena").arena

local BUILTIN = { { name = "random", player = "random" }, { name = "heuristic", player = "heuristic" },
                  { name = "ismcts", player = "ismcts", simulations = 8, steps = 18 } }

test("dece match: a full match per game between built-in players; decisions counted", function()
  local dir = tmpdir()
  local arena = arena_for(dir, BUILTIN, { "azul", "splendor", "century", "7wonders", "harmonies", "burgundy", "wingspan", "brass" })
  for _, g in ipairs({ "azul", "splendor", "century", "7wonders", "harmonies", "burgundy", "wingspan", "brass" }) do
    local rec = match.play(arena, { id = g .. "-1", game = g, seats = { "ismcts", "random", "heuristic" }, setup_seed = 77 })
    t.eq(rec.status, "finished")
    t.eq(#rec.ranks, 3)
    local D = 0
    for s = 1, 3 do D = D + rec.decisions[s]; t.ok(rec.turns[s] >= rec.decisions[s]) end
    t.eq(rec.D, D)
    t.ok(D >= 15, "a real game")
    local ev = records.read(dir .. "/matches/" .. g .. "-1.jsonl")
    t.eq(ev[1].k, "setup"); t.eq(ev[#ev].k, "end"); t.eq(ev[#ev].ranks, rec.ranks)
    t.eq(#ev - 2, rec.steps)
  end
end)

test("dece match: a match killed mid-way resumes from its events to the same result", function()
  local a, b = tmpdir(), tmpdir()
  local m = { id = "splendor-1", game = "splendor", seats = { "heuristic", "ismcts", "random" }, setup_seed = 5 }
  local full = match.play(arena_for(a, BUILTIN, { "splendor" }), m)
  local text = fs.read(a .. "/matches/splendor-1.jsonl")
  local lines = {}
  for l in text:gmatch("[^\n]+") do lines[#lines + 1] = l end
  fs.mkdir_p(b .. "/matches")
  -- the first 25 steps, and a torn half line as a kill in the middle of a write leaves it
  local keep = table.concat(lines, "\n", 1, 26) .. "\n" .. lines[27]:sub(1, 40)
  fs.write_atomic(b .. "/matches/splendor-1.jsonl", keep)
  local resumed = match.play(arena_for(b, BUILTIN, { "splendor" }), m)
  t.eq(resumed.resumed_steps, 25)
  for _, k in ipairs({ "ranks", "scores", "decisions", "D", "turns", "steps" }) do t.eq(resumed[k], full[k], k) end
  local ev = records.read(b .. "/matches/splendor-1.jsonl", { skip_bad = true })
  local ev_full = records.read(a .. "/matches/splendor-1.jsonl")
  t.eq(#ev, #ev_full)
  for i = 2, #ev - 1 do
    for j, c in ipairs(ev[i].choices) do t.eq(c.action, ev_full[i].choices[j].action, "step " .. i) end
  end
end)

-- a models.lua pointing a model named m at the mock server
local function mock_models(dir, url)
  fs.write_atomic(dir .. "/models.lua", string.format([[return { m = { provider = "openai", model = "m",
    base_url = %q, optional_key = true, prices = { input = 2, cached = 1, output = 10 } } }]], url .. "/v1"))
  return dir .. "/models.lua"
end

test("dece match: a model participant over the mock server; an invalid answer forfeits by default", function()
  local mock = require "tests.mock"
  local s = mock.start({ { match = "Decision 1 ", reply = "I take three.\nACTION: take:white,blue,green", times = 1,
                           usage = { input = 100, cached = 40, output = 20, reasoning = 5 } },
                         { reply = "ACTION: buy:everything", usage = { input = 120, cached = 0, output = 10, reasoning = 0 } } })
  local dir = tmpdir()
  local mf = mock_models(dir, s.url)
  local list = { { name = "llm", model = "m", models_file = mf }, BUILTIN[1], BUILTIN[2] }
  local ok, rec = pcall(match.play, arena_for(dir, list, { "splendor" }),
    { id = "splendor-1", game = "splendor", seats = { "llm", "random", "heuristic" }, setup_seed = 3 })
  local log = s:log()
  s:close()
  if not ok then error(rec, 0) end
  t.eq(rec.status, "forfeit"); t.eq(rec.forfeits, { 1 })
  t.eq(rec.ranks[1], 3, "the forfeiting seat is last")
  t.eq(rec.invalid[1], 1); t.eq(rec.failures[1].kind, "invalid")
  t.eq(rec.decisions[1], 2)
  t.eq(rec.usage[1], { input = 220, cached = 40, output = 30, reasoning = 5 })
  t.eq(#log, 2)
  local first = log[1].body and json.decode(log[1].body) or log[1]
  t.contains(json.encode(first), "take:white,blue,green: take 1 white, 1 blue and 1 green", "the legal actions are listed")
end)

test("dece match: a model participant over the mock server in Century: a legal answer, then an invalid one forfeits", function()
  local mock = require "tests.mock"
  local s = mock.start({ { match = "Decision 1 ", reply = "ACTION: play:1", times = 1 }, { reply = "ACTION: claim:9" } })
  local dir = tmpdir()
  local mf = mock_models(dir, s.url)
  local list = { { name = "llm", model = "m", models_file = mf }, BUILTIN[1], BUILTIN[2] }
  local ok, rec = pcall(match.play, arena_for(dir, list, { "century" }),
    { id = "century-1", game = "century", seats = { "llm", "random", "heuristic" }, setup_seed = 3 })
  local log = s:log()
  s:close()
  if not ok then error(rec, 0) end
  t.eq(rec.status, "forfeit"); t.eq(rec.forfeits, { 1 }); t.eq(rec.ranks[1], 3)
  t.eq(rec.decisions[1], 2); t.eq(rec.invalid[1], 1)
  t.eq(#log, 2)
  local first = log[1].body and json.decode(log[1].body) or log[1]
  t.contains(json.encode(first), "play:1: play card 1 (produce 2 yellow)", "the legal actions are listed")
end)

test("dece match: a model participant over the mock server in 7 Wonders: a simultaneous round, then an invalid answer forfeits", function()
  local mock = require "tests.mock"
  local G = require "games.7wonders"
  local first = G.card(G.setup(3, 3).hands[2][1]).slug
  local s = mock.start({ { match = "Decision 1 ", reply = "ACTION: discard:" .. first, times = 1 }, { reply = "ACTION: build:everything" } })
  local dir = tmpdir()
  local mf = mock_models(dir, s.url)
  local list = { { name = "llm", model = "m", models_file = mf }, BUILTIN[1], BUILTIN[2] }
  local ok, rec = pcall(match.play, arena_for(dir, list, { "7wonders" }),
    { id = "7wonders-1", game = "7wonders", seats = { "random", "llm", "heuristic" }, setup_seed = 3 })
  local log = s:log()
  s:close()
  if not ok then error(rec, 0) end
  t.eq(rec.status, "forfeit"); t.eq(rec.forfeits, { 2 }); t.eq(rec.ranks[2], 3)
  t.eq(rec.decisions, { 2, 2, 2 }, "every seat chose in both rounds")
  t.eq(#log, 2)
  local prompt = json.encode(log[1].body and json.decode(log[1].body) or log[1])
  t.contains(prompt, "discard:" .. first)
  local ev = records.read(dir .. "/matches/7wonders-1.jsonl")
  t.eq(#ev[2].choices, 3, "one step holds the three sealed choices")
end)

test("dece match: retries with feedback, then a fallback action; tools answer through the harness", function()
  local mock = require "tests.mock"
  local s = mock.start({ { match = "Decision 2 ", reply = "TOOL: rules", times = 1 },
                         { match = "Result of rules", reply = "ACTION: take:white,blue,green", times = 1 },
                         { reply = "ACTION: nope" } })
  local dir = tmpdir()
  local mf = mock_models(dir, s.url)
  local list = { { name = "llm", model = "m", models_file = mf, harness = { retries = 1, fallback = "random", tools = { "rules" }, memory = "last:1" } },
                 BUILTIN[1], BUILTIN[2] }
  local ok, rec = pcall(match.play, arena_for(dir, list, { "azul" }),
    { id = "azul-1", game = "azul", seats = { "random", "llm", "heuristic" }, setup_seed = 9 })
  local n = #s:log()
  s:close()
  if not ok then error(rec, 0) end
  t.eq(rec.status, "finished")
  t.eq(rec.fallbacks[2], rec.decisions[2], "every answer was invalid (the first was an illegal Azul id)")
  t.eq(rec.invalid[2], rec.decisions[2])
  t.eq(rec.tools[2], 1)
  t.eq(n, 2 * rec.decisions[2] + 1, "one retry per decision plus the tool call")
end)

test("dece match: a killed match with a model participant resumes from its events and the response cache", function()
  local mock = require "tests.mock"
  local s = mock.start({ { reply = "ACTION: nope", usage = { input = 50, cached = 0, output = 5, reasoning = 0 } } })
  local a, b = tmpdir(), tmpdir()
  local mf = mock_models(a, s.url)
  local list = { { name = "llm", model = "m", models_file = mf, harness = { fallback = "random", memory = "full" } }, BUILTIN[1], BUILTIN[2] }
  local m = { id = "azul-1", game = "azul", seats = { "heuristic", "llm", "random" }, setup_seed = 21 }
  local ok, full = pcall(match.play, arena_for(a, list, { "azul" }), m)
  if not ok then s:close(); error(full, 0) end
  local calls = #s:log()
  -- the kill: the first 30 steps were logged; every call had reached the cache
  local lines = {}
  for l in fs.read(a .. "/matches/azul-1.jsonl"):gmatch("[^\n]+") do lines[#lines + 1] = l end
  fs.mkdir_p(b .. "/matches")
  fs.write_atomic(b .. "/matches/azul-1.jsonl", table.concat(lines, "\n", 1, 31) .. "\n")
  os.execute(string.format("cp -r %q %q", a .. "/cache", b .. "/cache"))
  local ok2, resumed = pcall(match.play, arena_for(b, list, { "azul" }), m)
  local after = #s:log()
  s:close()
  if not ok2 then error(resumed, 0) end
  t.eq(after, calls, "no model call was paid for again")
  t.eq(resumed.resumed_steps, 30)
  for _, k in ipairs({ "ranks", "scores", "decisions", "usage", "fallbacks", "steps" }) do t.eq(resumed[k], full[k], k) end
end)

test("dece run: the scenario end to end with a participants file, reconciliation and report", function()
  local dir = tmpdir()
  -- the three built-in kinds, ISMCTS with a small search (its play is tested above; here the run and its report)
  fs.write_atomic(dir .. "/parts.json", json.encode({ participants = { BUILTIN[1], BUILTIN[2],
    { name = "ismcts", player = "ismcts", simulations = 2, steps = 8 } } }))
  local rc = t.run_scenario("scenarios/dece.lua", { "--participants", dir .. "/parts.json", "--out", dir .. "/run",
    "--games", "azul,splendor", "--matches-per-game", "3", "--draws", "200", "--quiet" })
  t.eq(rc, 0)
  local recs = records.read(dir .. "/run/matches.jsonl")
  t.eq(#recs, 6)
  local report = fs.read(dir .. "/run/report.md")
  t.contains(report, "6 of 6 scheduled matches finished.")
  t.contains(report, "## azul (3 matches)")
  t.contains(report, "Seat effects")
  local summary = json.read_file(dir .. "/run/summary.json")
  t.eq(#summary.missing, 0)
  t.ok(summary.overall.heuristic.pws > summary.overall.random.pws, "heuristic ahead of random")
  -- the outputs the paper reports beside these: token-frontier membership, intervals for mean
  -- cost and tokens, the mean LOEO τ_b and equal-game pair-order accuracy, redrawn samples
  t.contains(report, "on token frontier (bootstrap)")
  t.contains(report, "Mean LOEO τ_b ")
  t.contains(report, "equal-game pair-order accuracy")
  t.contains(report, "Bootstrap samples redrawn because they left out a configuration: ")
  local row = summary.games.azul.rows.random
  t.ok(row.token_frontier_frequency >= 0 and row.token_frontier_frequency <= 1)
  t.eq({ row.cost_lo, row.cost_hi }, { 0, 0 }, "built-in players cost nothing")
  t.ok(row.tokens_lo <= row.tokens and row.tokens <= row.tokens_hi)
  t.eq(type(summary.bootstrap.redrawn.azul), "number")
  t.eq(summary.bootstrap.draws, 200)
  t.ok(summary.loeo_mean.tau == nil or math.abs(summary.loeo_mean.tau) <= 1)
  -- report.html (written by the run): the rating panels and one view per match stepping through the observations
  local page = fs.read(dir .. "/run/report.html")
  t.contains(page, "azul: PWS with 95% bootstrap intervals")
  t.contains(page, "splendor: Elo–cost staircase V(B)")
  local dv = require "scenarios.dece.view"      -- the text observation and captions, kept compressed in the page (tabula.view.frames)
  local dsrc = dv.load(dir .. "/run")
  t.contains(dv.trial(dsrc.recs[1], nil, dsrc).frames[1].text, "You are player 1 of 3.")
  t.contains(dv.trial(dsrc.recs[1], nil, dsrc).frames[1].label, "step 1: seat 1 (")
  -- the scores are computed once for report.md and report.html, and again when a record changes
  local R = require "scenarios.dece.report"
  local first = R.compute(dir .. "/run")
  t.ok(R.compute(dir .. "/run") == first, "the same files: the same result, not computed again")
  local lines = {}
  for l in fs.read(dir .. "/run/matches.jsonl"):gmatch("[^\n]+") do lines[#lines + 1] = l end
  local full = fs.read(dir .. "/run/matches.jsonl")
  fs.write_atomic(dir .. "/run/matches.jsonl", table.concat(lines, "\n", 1, #lines - 1) .. "\n")
  local fewer = R.compute(dir .. "/run")
  t.eq(fewer.matches, first.matches - 1, "a record less: computed again")
  fs.write_atomic(dir .. "/run/matches.jsonl", full)
  t.eq(R.compute(dir .. "/run").matches, first.matches)
  -- running again continues: nothing left to play; a different schedule is refused
  rc = t.run_scenario("scenarios/dece.lua", { "--participants", dir .. "/parts.json", "--out", dir .. "/run",
    "--games", "azul,splendor", "--matches-per-game", "3", "--draws", "200", "--no-html", "--quiet" })
  t.eq(#records.read(dir .. "/run/matches.jsonl"), 6)
  t.raises(function() t.run_scenario("scenarios/dece.lua", { "--participants", dir .. "/parts.json", "--out", dir .. "/run",
    "--games", "azul,splendor", "--matches-per-game", "6", "--quiet" }) end, "holds a different run")
  t.raises(function() t.run_scenario("scenarios/dece.lua", { "--games", "azul,chess", "--out", dir .. "/other" }) end,
    "games/chess is not a multi-player game")
  t.raises(function() t.run_scenario("scenarios/dece.lua", { "--games", "nosuch", "--out", dir .. "/other" }) end, "no game 'nosuch'")
  -- a missing match is listed
  local lines = {}
  for l in fs.read(dir .. "/run/matches.jsonl"):gmatch("[^\n]+") do lines[#lines + 1] = l end
  fs.write_atomic(dir .. "/run/matches.jsonl", table.concat(lines, "\n", 1, 5) .. "\n")
  local out = require("scenarios.dece.report").compute(dir .. "/run")
  t.eq(#out.missing, 1)
end)

test("dece run: the benchmark's ten games by default; --seats within each game's own range", function()
  local S = require("tabula.cmd.run").lib.load(t.root() .. "/scenarios/dece.lua")
  local games
  for _, o in ipairs(S.options) do if o[1] == "games" then games = o[3] end end
  t.eq(games, { "azul", "splendor", "century", "7wonders", "carcassonne", "arknova", "brass", "burgundy", "harmonies", "wingspan" })
  -- each a complete game of the interface, taking the default three seats
  for _, g in ipairs(games) do
    local G = require("games." .. g)
    t.eq(G.incomplete, nil, g)
    t.ok(G.players.min <= 3 and G.players.max >= 3, g .. " takes three seats")
  end
  -- the default run plans one block of each: every participant once in each seat, 30 matches
  local opts = require("tabula.cli").parse(require("tabula.cmd.run").lib.spec(S), { "--out", tmpdir() .. "/plan" })
  local planned = S.plan(opts)
  t.eq(#planned, 30)
  local dir = tmpdir()
  local five = {}
  for i = 1, 5 do five[i] = { name = "r" .. i, player = "random" } end
  fs.write_atomic(dir .. "/parts.json", json.encode({ participants = five }))
  t.raises(function() t.run_scenario("scenarios/dece.lua", { "--participants", dir .. "/parts.json", "--out", dir .. "/x",
    "--games", "7wonders,azul", "--seats", "5", "--quiet" }) end, "--seats 5: azul is for 2 to 4 players")
  t.raises(function() t.run_scenario("scenarios/dece.lua", { "--participants", dir .. "/parts.json", "--out", dir .. "/x",
    "--games", "7wonders", "--seats", "8", "--quiet" }) end, "--seats 8: 7wonders is for 3 to 7 players")
  t.raises(function() t.run_scenario("scenarios/dece.lua", { "--participants", dir .. "/parts.json", "--out", dir .. "/x",
    "--games", "century", "--seats", "1", "--quiet" }) end, "--seats 1: century is for 2 to 5 players")
  -- the old spelling is refused, naming the new one
  t.raises(function() t.run_scenario("scenarios/dece.lua", { "--participants", dir .. "/parts.json", "--out", dir .. "/x",
    "--games", "7wonders", "--players", "5", "--quiet" }) end, "--players: DECE's seats per match are --seats")
  -- five seats of 7 Wonders (beyond the old limit of four)
  local rc = t.run_scenario("scenarios/dece.lua", { "--participants", dir .. "/parts.json", "--out", dir .. "/run",
    "--games", "7wonders", "--seats", "5", "--matches-per-game", "5", "--draws", "50", "--no-html", "--quiet" })
  t.eq(rc, 0)
  local recs = records.read(dir .. "/run/matches.jsonl")
  t.eq(#recs, 5)
  for _, r in ipairs(recs) do t.eq(#r.ranks, 5, r.match_id) end
  t.contains(fs.read(dir .. "/run/report.md"), "## 7wonders (5 matches)")
  t.ok(fs.read(dir .. "/run/report.md"):find("D/5 %d"), "D per seat of a five-seat match is D/5")
end)


test("dece run: the heaviest games start first (G.match_work); a CPU-bound run keeps one match per worker", function()
  local dir = tmpdir()
  fs.write_atomic(dir .. "/parts.json", json.encode({ participants = BUILTIN }))
  t.ok(require("games.splendor").match_work > require("games.azul").match_work)
  local rc = t.run_scenario("scenarios/dece.lua", { "--participants", dir .. "/parts.json", "--out", dir .. "/run",
    "--games", "azul,splendor", "--matches-per-game", "3", "--draws", "50", "--workers", "1", "--no-html", "--quiet" })
  t.eq(rc, 0)
  -- --no-html: the scores are written, the viewer's page is left to `tabula report`
  t.eq({ fs.kind(dir .. "/run/report.md"), fs.kind(dir .. "/run/summary.json"), fs.kind(dir .. "/run/report.html") }, { "file", "file", nil })
  local order = {}
  for i, r in ipairs(records.read(dir .. "/run/matches.jsonl")) do order[i] = r.match_id end
  t.eq(order, { "splendor-001", "splendor-002", "splendor-003", "azul-001", "azul-002", "azul-003" })
  -- the schedule (the run's identity) keeps its own order
  t.eq(json.read_file(dir .. "/run/schedule.json").matches[1].id, "azul-001")
  -- trials in flight: one per worker for DECE's built-in players, the default with a model
  -- or when --concurrency is given
  local run = require("tabula.cmd.run").lib
  local S = run.load(t.root() .. "/scenarios/dece.lua")
  local cpu = { cpu_bound = function() return true end }
  t.eq(S.cpu_bound({ participants = dir .. "/parts.json", games = { "azul" }, seed = 1, seats = 3 }), true)
  t.eq(run.concurrency({ concurrency = 4 }, cpu, 2), 2)
  t.eq(run.concurrency({ concurrency = 4 }, cpu, 1), 1)
  local given = require("tabula.cli").parse({ { "concurrency", "int", 4, "trials at once" } }, { "--concurrency", "6" })
  t.eq(run.concurrency(given, cpu, 2), 6, "given on the command line")
  t.eq(run.concurrency({ concurrency = 4 }, { cpu_bound = function() return false end }, 2), 4)
  t.eq(run.concurrency({ concurrency = 4 }, {}, 2), 4)
end)


test("dece match: with memory, the next decision sends the earlier reply back with its reasoning (each family), also after a resume", function()
  local fam = require "tests.families"
  local mock = require "tests.mock"
  for _, f in ipairs({ "claude", "gpt", "gemini" }) do
    local s = mock.start({ { match = "Decision 1 ", reply = "ACTION: take:white,blue,green", reasoning = "Three colours now.", times = 1 },
                           { reply = "ACTION: buy:everything" } })
    local dir = tmpdir()
    local mf = fam.models_file(dir, s)
    local list = { { name = "llm", model = f, models_file = mf, harness = { memory = "full" } }, BUILTIN[1], BUILTIN[2] }
    local m = { id = "splendor-1", game = "splendor", seats = { "llm", "random", "heuristic" }, setup_seed = 3 }
    local ok, rec = pcall(match.play, arena_for(dir, list, { "splendor" }), m)
    if not ok then s:close(); error(rec, 0) end
    t.eq(rec.decisions[1], 2, f)
    local b = fam.bodies(s)
    t.eq(#b, 2, f)
    t.ok(fam.carried(f, b[2]), f .. ": the second decision carries the first reply's reasoning")
    -- resumed from the event log (cut after decision 1): the same request again
    local path = dir .. "/matches/splendor-1.jsonl"
    local lines = {}
    for l in fs.read(path):gmatch("[^\n]+") do
      lines[#lines + 1] = l
      if l:find('"step"', 1, true) and l:find("take:white,blue,green", 1, true) then break end
    end
    fs.write_atomic(path, table.concat(lines, "\n") .. "\n")
    local s2 = mock.start({ { reply = "ACTION: buy:everything" } })
    fam.models_file(dir, s2)
    ok, rec = pcall(match.play, arena_for(dir, list, { "splendor" }), m)
    local b2 = fam.bodies(s2)
    s:close(); s2:close()
    if not ok then error(rec, 0) end
    t.ok(rec.resumed_steps and rec.resumed_steps > 0, f)
    t.eq(#b2, 1, f)
    t.eq(json.canonical(fam.carried(f, b2[1])), json.canonical(fam.carried(f, b[2])), f .. ": the resumed decision carries it too")
  end
end)

return T
