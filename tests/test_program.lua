-- Agent programs as DECE participants (tabula.program, issue 44), played by a fake agent
-- program (tests/fake_agent.lua: a real process that starts its MCP server from the
-- configuration tabula writes, and calls its model through the metering proxy) over the
-- mock model server: a whole match; what real programs rarely do (exit without acting, run
-- past the decision limit, act twice, ignore SIGTERM, ask for another model, spend past the
-- run's budget); the participants file's checks; `tabula run scenarios/dece` with two
-- program participants and a built-in one, the key in no file and no program's environment;
-- XiangqiBench's agent-CLI arm (--program) and its row in tabula compare.
-- slow: whole matches, each decision a program launch (two processes)
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local budget = require "tabula.budget"
local participants = require "scenarios.dece.participants"
local match = require "scenarios.dece.match"
local arena = require("tests.dece_arena").arena
local mock = require "tests.mock"
local test, T = t.suite()

local function models_file(dir, url, key_env)
  fs.write_atomic(dir .. "/models.lua", string.format([[return {
  m = { provider = "openai-chat", model = "m", base_url = %q, %s, prices = { input = 2, cached = 1, output = 10 } },
  other = { provider = "openai-chat", model = "other-model", base_url = %q, optional_key = true },
  g = { provider = "gemini", model = "gemini-3-flash-preview", base_url = %q, optional_key = true } }]],
    url .. "/v1", key_env and string.format("key_env = %q", key_env) or "optional_key = true", url .. "/v1", url .. "/v1beta"))
  return dir .. "/models.lua"
end

local FAKE = { t.tabula_bin(), t.root() .. "/tests/fake_agent.lua" }

-- fake(name, mode, harness extra, env extra) -> a participants entry played by the fake program
local function fake(name, mode, extra, env)
  local e = { FAKE_MODE = mode }
  for k, v in pairs(env or {}) do e[k] = v end
  local h = { program = { command = FAKE, env = e }, decision_timeout = 30, grace = 2 }
  for k, v in pairs(extra or {}) do h[k] = v end
  return { name = name, model = "m", harness = h }
end

local RANDOM, HEURISTIC = { name = "random", player = "random" }, { name = "heuristic", player = "heuristic" }

-- play(dir, entry, game) -> ok, record | error, the mock's log
local function play(dir, s, entry, game, seed)
  local mf = models_file(dir, s.url)
  local ok, rec = pcall(match.play, arena(dir, { entry, RANDOM, HEURISTIC }, { game }, mf),
    { id = game .. "-1", game = game, seats = { entry.name, "random", "heuristic" }, setup_seed = seed or 3 })
  return ok, rec, s:log()
end

-- played(entry) -> the record, the run directory and the mock's log of one Azul match (an error
-- raised by the match is the test's)
local function played(entry)
  local s = mock.start({})
  local dir = t.tmpdir()
  local ok, rec, log = play(dir, s, entry, "azul")
  s:close()
  if not ok then error(rec, 0) end
  return rec, dir, log
end

local function steps(dir, id)
  local out = {}
  for _, e in ipairs(records.read(dir .. "/matches/" .. id .. ".jsonl")) do
    if e.k == "step" then for _, c in ipairs(e.choices) do if c.seat == 1 then out[#out + 1] = c end end end
  end
  return out
end

test("a fake agent program plays a whole Azul match: each decision a launch, its model calls metered through the proxy", function()
  local rec, dir, log = played(fake("prog", "play"))
  t.eq(rec.status, "finished")
  t.eq(#rec.failures, 0)
  local n = rec.decisions[1]
  t.ok(n >= 10, "decisions of the program's seat: " .. n)
  t.eq(rec.calls[1], n, "one tool call (act) reaches the harness per decision")
  t.eq(#log, n, "one model call per decision, every one through the proxy to the mock")
  -- the usage the proxy read is the seat's: as many input tokens as the mock reported
  t.ok(rec.usage[1].input > 0 and rec.usage[1].output == n, "usage counted: " .. json.canonical(rec.usage[1]))
  -- the calls journal: one line per model call, with the request as the program sent it
  local calls = records.read(dir .. "/programs/azul-1/seat1/calls.jsonl")
  t.eq(#calls, n)
  t.eq({ calls[1].wire, calls[1].model, calls[1].status, calls[1].decision }, { "openai-chat", "m", 200, 1 })
  -- every decision's record says what the program did
  local st = steps(dir, "azul-1")
  t.eq(#st, n)
  t.eq({ st[1].program.launches, st[1].program.tool_calls, st[1].program.model_calls, st[1].program.late_calls },
    { 1, 1, 1, 0 })
  t.eq(st[1].program.exit.how, "exit")
  -- its own workspace and home, inside the run directory
  local trace = fs.read(dir .. "/programs/azul-1/seat1/program.log")
  t.contains(trace, "env HOME=" .. dir .. "/programs/azul-1/seat1/home")
  t.eq(fs.kind(dir .. "/programs/azul-1/seat1/workspace"), "dir")
end)

test("a program that exits without acting fails its decision (the harness's policy: a forfeit), not an infrastructure error", function()
  local rec, dir, log = played(fake("prog", "exit"))
  t.eq({ rec.status, rec.forfeits }, { "forfeit", { 1 } })
  t.eq(rec.failures[1].why, "the program exited without acting (exit 3)")
  t.eq(#log, 0)
end)

test("the decision limit: a program that never acts is killed when its time is up, and the decision fails", function()
  local rec, dir = played(fake("prog", "sleep", { decision_timeout = 1 }))
  t.eq(rec.status, "forfeit")
  t.eq(rec.failures[1].why, "the program's decision limit of 1 s passed")
  local st = steps(dir, "azul-1")
  t.eq(st[1].program.exit.how, "signal", "the program was killed")
end)

test("acting twice: the second act is refused and counted, one action is played", function()
  local rec, dir = played(fake("prog", "twice", nil, { FAKE_TRACE = "TRACE" }))
  t.eq(rec.status, "finished")
  local st = steps(dir, "azul-1")
  t.eq(st[1].program.late_calls, 1)
  t.eq(st[1].program.tool_calls, 1)
  local log = fs.read(dir .. "/programs/azul-1/seat1/workspace/TRACE")
  t.contains(log, "act again -> Played ")
  t.contains(log, "(error)")
end)

test("a program that ignores SIGTERM after acting is killed with SIGKILL at the end of its grace", function()
  local rec, dir = played(fake("prog", "ignore_term", { grace = 0.2 }))
  t.eq(rec.status, "finished")
  local st = steps(dir, "azul-1")
  t.eq({ st[1].program.exit.how, st[1].program.exit.code, st[1].program.exit.killed }, { "signal", 9, "SIGKILL" })
end)

test("another model: refused (the mock never sees it) or, with model_policy rewrite, sent as the participant's", function()
  local s = mock.start({})
  local dir = t.tmpdir()
  local ok, rec, log = play(dir, s, fake("prog", "other_model", nil, { FAKE_TRACE = "TRACE" }), "azul")
  if not ok then s:close(); error(rec, 0) end
  t.eq(rec.status, "finished", "the program acts anyway")
  t.eq(#log, 0, "no request for another model reached the server")
  local st = steps(dir, "azul-1")
  t.eq({ st[1].program.refused, st[1].program.other_model }, { 1, 1 })
  local calls = records.read(dir .. "/programs/azul-1/seat1/calls.jsonl")
  t.eq({ calls[1].refused, calls[1].model_asked }, { "model", "other-model" })
  -- rewrite
  local dir2 = t.tmpdir()
  s:script({})
  local ok2, rec2, log2 = play(dir2, s, fake("prog", "other_model", { model_policy = "rewrite" }), "azul")
  s:close()
  if not ok2 then error(rec2, 0) end
  t.ok(#log2 > 0)
  for _, l in ipairs(log2) do t.eq(json.decode(l.body).model, "m") end
end)

test("the run's budget binds the program: the call past --max-calls is refused in the provider's form, the match not recorded", function()
  local s = mock.start({})
  local dir = t.tmpdir()
  local mf = models_file(dir, s.url)
  budget.new({ ["max-calls"] = 3 }, require("tabula.models").resolve("m", mf), dir)
  local entry = fake("prog", "spend", nil, { FAKE_CALLS = "5", FAKE_TRACE = "TRACE" })
  local ok, err = pcall(match.play, arena(dir, { entry, RANDOM, HEURISTIC }, { "azul" }, mf),
    { id = "azul-1", game = "azul", seats = { "prog", "random", "heuristic" }, setup_seed = 3 })
  local log = s:log()
  s:close()
  budget.active = nil
  t.eq(ok, false)
  t.ok(budget.is_refusal(err), "a budget stop: " .. tostring(type(err) == "table" and err.message or err))
  t.eq(#log, 3, "the server saw the 3 calls the budget allows")
  local trace = fs.read(dir .. "/programs/azul-1/seat1/workspace/TRACE")
  t.contains(trace, "model m -> 400")
end)

test("the participants file: a program harness plays through tools, its fields checked, its configuration in the identity", function()
  local dir = t.tmpdir()
  local mf = models_file(dir, "http://127.0.0.1:9")
  local a = participants.normalize(fake("p", "play"), "test", mf)
  t.eq(a.manifest.harness.protocol, "tools")
  t.eq(a.manifest.harness.program.wire, "openai-chat")
  t.eq(#a.manifest.harness.program.config_sha256, 16)
  t.ok(a.manifest.prompt_sha256["program/instruction.txt"], "the instruction template is hashed")
  local b = participants.normalize(fake("p", "exit"), "test", mf)
  t.ok(a.id ~= b.id, "another configuration is another participant")
  t.raises(function() participants.normalize({ name = "p", model = "m", harness = { program = "no-such-program" } }, "test", mf) end,
    "unknown agent program 'no-such-program'")
  t.raises(function() participants.normalize({ name = "p", model = "m", harness = { session = "native" } }, "test", mf) end,
    "harness option session is for an agent program")
  t.raises(function() participants.normalize(fake("p", "play", { session = "forever" }), "test", mf) end, "native or fresh")
  t.raises(function() participants.normalize(fake("p", "play", { decision_timeout = 0 }), "test", mf) end, "decision_timeout")
  t.raises(function() participants.normalize({ name = "p", model = "m", harness = { program = { command = FAKE,
    env = { OPENAI_API_KEY = "x" } } } }, "test", mf) end, "a key is never given to a program")
  t.raises(function() participants.normalize({ name = "p", model = "m", harness = { program = { command = FAKE }, protocol = "text" } }, "test", mf) end,
    "plays through tools")
  -- a known program: on a wire it speaks; one that cannot resume refuses a native session
  t.raises(function() participants.normalize({ name = "p", model = "m", harness = { program = "codex" } }, "test", mf) end,
    "agent program codex does not speak openai-chat")
  t.eq(participants.normalize({ name = "p", model = "g", harness = { program = "gemini-cli" } }, "test", mf).manifest.harness.program.name, "gemini-cli")
  t.raises(function() participants.normalize({ name = "p", model = "g", harness = { program = "gemini-cli", session = "native" } }, "test", mf) end,
    "agent program gemini-cli cannot resume its own session")
end)

test("tabula run scenarios/dece: two program participants and a built-in play to the end; the key in no file, no program's environment", function()
  local s = mock.start({})
  local dir = t.tmpdir()
  local mf = models_file(dir, s.url, "TABULA_FAKE_PROVIDER_KEY")
  local key = "sk-test-" .. string.rep("7", 24)
  local parts = { participants = {
    fake("prog-a", "play", nil, { FAKE_TRACE = "TRACE" }), fake("prog-b", "play", { session = "native" }, { FAKE_TRACE = "TRACE" }),
    RANDOM } }
  fs.write_atomic(dir .. "/parts.json", json.encode(parts))
  -- one match (a schedule of its own: a block would be three matches of the same launches)
  fs.write_atomic(dir .. "/sched.json", json.encode({ matches = { { id = "azul-001", game = "azul",
    seats = { "prog-a", "prog-b", "random" }, setup_seed = 4 } } }))
  local out = t.sh(string.format("TABULA_FAKE_PROVIDER_KEY=%s %s run scenarios/dece --participants %s --models %s --games azul "
    .. "--schedule %s --max-cost 5 --no-html --quiet --out %s", key, t.quote(t.tabula_bin()), t.quote(dir .. "/parts.json"),
    t.quote(mf), t.quote(dir .. "/sched.json"), t.quote(dir .. "/run")))
  local log = s:log()
  s:close()
  t.contains(out, "rc=0", out)
  local ms = records.read(dir .. "/run/matches.jsonl")
  t.eq(#ms, 1)
  local per = {}
  for _, m in ipairs(ms) do
    t.eq(m.status, "finished")
    for seat, name in ipairs(m.seats) do per[name] = (per[name] or 0) + m.calls[seat] end
  end
  t.ok(per["prog-a"] > 0 and per["prog-b"] > 0, "both programs acted")
  -- every model call the server saw came through the proxy with the real key, never the seat's token
  t.ok(#log > 0)
  for _, l in ipairs(log) do t.contains(l.headers or "", key) end
  -- the key: in no file of the run and in no program's environment
  local found = t.sh("grep -rl " .. t.quote(key) .. " " .. t.quote(dir .. "/run") .. " || true")
  t.eq(found, "rc=0\n", "files holding the key: " .. found)
  local envs = t.sh("cat " .. t.quote(dir .. "/run/programs") .. "/*/seat*/workspace/TRACE.env")
  t.contains(envs, "TABULA_API_KEY=")
  t.ok(not envs:find(key, 1, true), "the key is in no program's environment")
  -- the native session: the later launches are told to resume
  local tr = t.sh("cat " .. t.quote(dir .. "/run/programs") .. "/*/seat*/workspace/TRACE")
  t.contains(tr, "resume=1")
  -- tabula show: a match's transcript and what each program asked its model
  local rc, shown = t.tabula("show", dir .. "/run", "azul-001")
  t.eq(rc, 0, shown)
  t.contains(shown, "### agent program of seat")
  t.contains(shown, "=== program call 1 (decision ")
  t.contains(shown, "Which action?")
  -- --max-cost: the programs' calls stop at the budget (exit 4), what was spent within it
  local s2 = mock.start({})
  local mf2 = models_file(dir, s2.url, "TABULA_FAKE_PROVIDER_KEY")
  fs.write_atomic(dir .. "/one.json", json.encode({ matches = { { id = "azul-b", game = "azul", seats = { "prog-a", "prog-b", "random" },
    setup_seed = 9 } } }))
  local out2 = t.sh(string.format("TABULA_FAKE_PROVIDER_KEY=%s %s run scenarios/dece --participants %s --models %s --games azul "
    .. "--schedule %s --max-cost 0.003 --no-html --quiet --out %s", key, t.quote(t.tabula_bin()), t.quote(dir .. "/parts.json"),
    t.quote(mf2), t.quote(dir .. "/one.json"), t.quote(dir .. "/run2")))
  local log2 = s2:log()
  s2:close()
  t.contains(out2, "rc=4", out2)
  local spent = 0
  for _, l in ipairs(records.read(dir .. "/run2/spend.jsonl")) do spent = spent + l.cost end
  t.ok(spent > 0 and spent <= 0.003, "spent within the budget: " .. spent)
  t.eq(#records.read(dir .. "/run2/spend.jsonl"), #log2, "every call the server saw is counted")
end)

test("XiangqiBench's agent-CLI arm: --program solves a case through the tools over MCP; tabula compare names the arm", function()
  local dir = t.tmpdir()
  local case = { id = "mate1", fen = "3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1", first_winning_move = "b1b9", win_in_plies = 1,
    category = "forced_mate" }
  fs.write_atomic(dir .. "/cases.jsonl", json.canonical(case) .. "\n")
  local mf = models_file(dir, "http://127.0.0.1:9")
  fs.write_atomic(dir .. "/fake.json", json.encode({ command = FAKE, env = { FAKE_MODE = "xiangqi", FAKE_MOVES = "i0i1,b1b9",
    FAKE_TRACE = "TRACE" } }))
  local rc, out = t.tabula("run", "scenarios/xiangqibench", "--cases", dir .. "/cases.jsonl", "--setting", "sighted",
    "--trials", "1", "--models", mf, "--model", "m", "--program", dir .. "/fake.json", "--program-timeout", "60",
    "--quiet", "--out", dir .. "/run")
  t.eq(rc, 0, out)
  local rec = records.read(dir .. "/run/trials.jsonl")[1]
  t.eq({ rec.status, rec.reason, rec.protocol }, { "success", "win_mate", "tools" }, json.canonical(rec))
  t.eq(rec.program.launches, 1)
  local trace = fs.read(dir .. "/run/programs/mate1_sighted_1/seat0/workspace/TRACE")
  t.contains(trace, "move i0i1 -> ")   -- no piece there: refused, the program goes on
  t.contains(trace, "move b1b9 -> The trial mate1/sighted/1 is over: success (win_mate).")
  -- the text arm on the same case, then tabula compare: the agent-program arm by name
  local rc2, out2 = t.tabula("run", "scenarios/xiangqibench", "--cases", dir .. "/cases.jsonl", "--setting", "sighted",
    "--trials", "1", "--model", "engine", "--quiet", "--out", dir .. "/text")
  t.eq(rc2, 0, out2)
  local rc3, cmp = t.tabula("compare", dir .. "/run", dir .. "/text")
  t.eq(rc3, 0, cmp)
  t.contains(cmp, "agent program fake")
end)

return T
