-- Real agent programs from npm (make agent-programs) as DECE participants through tabula's own
-- harness (tabula.program): `tabula run scenarios/dece` launches each program for each of its
-- decisions, gives it its seat over `tabula mcp_seat` and its model through the metering proxy;
-- the mock model server in agent mode plays the model behind each program (observe, act with a
-- legal id, done). A program that is not installed is skipped, saying so; under the sanitizer
-- build the real programs are skipped too (their processes are not tabula's code; the fake
-- program of tests/test_program.lua covers tabula's side under ASan).
-- slow: every decision launches a real program (Node or a native binary): 3-15 s each, about 20 a seat
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local AP = require "tabula.agent_programs"
local mock = require "tests.mock"
local test, T = t.suite()

local KEY_ENV, KEY = "TABULA_REAL_PROGRAM_KEY", "sk-real-" .. string.rep("5", 28)

local function need(name)
  if t.sanitized() then
    t.skip("real agent programs run under the plain build only (the sanitizer build checks tabula's side with the fake program)")
  end
  if not AP.get(name).locate() then t.skip(name .. " not installed (make agent-programs PROGRAMS=" .. name .. ")") end
end

-- run(seats) -> the run directory, the mock's log, what tabula printed: one Azul match of the
-- given participants entries (a program's model on the wire its program speaks)
local function run(entries, game)
  game = game or "azul"
  local s = mock.start({ { agent = {} } })
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return {
    resp = { provider = "openai", model = "gpt-5-mini", base_url = %q, key_env = %q, prices = { input = 0.25, cached = 0.025, output = 2 } },
    chat = { provider = "openai-chat", model = "mock-chat", base_url = %q, key_env = %q, prices = { input = 1, output = 4 } },
    anth = { provider = "anthropic", model = "claude-sonnet-4-6", base_url = %q, key_env = %q, prices = { input = 3, cached = 0.3, output = 15 } } }]],
    s.url .. "/v1", KEY_ENV, s.url .. "/v1", KEY_ENV, s.url .. "/v1", KEY_ENV))
  local seats = {}
  for i, e in ipairs(entries) do seats[i] = e.name end
  fs.write_atomic(dir .. "/parts.json", json.encode({ participants = entries }))
  fs.write_atomic(dir .. "/schedule.json", json.encode({ matches = { { id = "match-r", game = game, seats = seats, setup_seed = 5 } } }))
  local out = t.sh(string.format("%s=%s %s run scenarios/dece --participants %s --models %s --games %s --schedule %s --quiet --out %s",
    KEY_ENV, KEY, t.quote(t.tabula_bin()), t.quote(dir .. "/parts.json"), t.quote(dir .. "/models.lua"), game,
    t.quote(dir .. "/schedule.json"), t.quote(dir .. "/run")))
  local log = s:log()
  s:close()
  return dir .. "/run", log, out
end

-- the checks for each program seat of a finished match
local function check(rdir, log, out, names)
  t.contains(out, "rc=0", out)
  local m = records.read(rdir .. "/matches.jsonl")[1]
  t.eq({ m.status, #m.forfeits }, { "finished", 0 }, json.canonical(m.failures))
  local calls, spent = 0, 0
  for seat, name in ipairs(m.seats) do
    if names[name] then
      t.eq(m.calls[seat], m.turns[seat], name .. ": one act reached the harness per choice")
      t.ok(m.decisions[seat] >= 10, name .. " decisions: " .. m.decisions[seat])
      t.ok((m.usage[seat].input or 0) > 0, name .. ": its model calls counted")
      local c = records.read(string.format("%s/programs/match-r/seat%d/calls.jsonl", rdir, seat))
      t.ok(#c >= m.turns[seat], string.format("%s: %d model calls journalled for %d choices", name, #c, m.turns[seat]))
      calls = calls + #c
    end
  end
  for _, l in ipairs(records.read(rdir .. "/spend.jsonl")) do spent = spent + 1 end
  -- every model request the server saw came through the proxy with the key, and is counted
  t.eq(#log, calls, "the server saw the programs' calls, no more")
  t.eq(spent, calls, "spend.jsonl counts each")
  for _, l in ipairs(log) do t.ok((l.headers or ""):find(KEY, 1, true), "the request carries the key: " .. l.path) end
  -- the key: in no file of the run (workspaces and homes included)
  t.eq(t.sh("grep -rlF " .. t.quote(KEY) .. " " .. t.quote(rdir) .. " || true"), "rc=0\n", "files holding the key")
  local rc, shown = t.tabula("show", rdir, "match-r")
  t.eq(rc, 0, shown)
  t.contains(shown, "=== program call 1 (decision 1")
  return m
end

test("codex and claude-code play an Azul match against each other and Random, each decision a launch, metered by the proxy", function()
  need("codex"); need("claude-code")
  local rdir, log, out = run({
    { name = "codex", model = "resp", harness = { program = "codex", decision_timeout = 300 } },
    { name = "claude", model = "anth", harness = { program = "claude-code", decision_timeout = 300 } },
    { name = "random", player = "random" } })
  local m = check(rdir, log, out, { codex = true, claude = true })
  -- the wire each spoke
  local paths = {}
  for _, l in ipairs(log) do paths[l.path] = true end
  t.ok(paths["/v1/responses"] and paths["/v1/messages"], "Responses and Messages requests")
  io.write(string.format("  codex: %d decisions, %.1f s; claude-code: %d decisions, %.1f s\n", m.decisions[1], m.seconds[1], m.decisions[2], m.seconds[2]))
end)

test("codex (native session) plays a 7 Wonders seat beside the fake program and Random: the build CI installs", function()
  need("codex")
  local rdir, log, out = run({
    { name = "codex", model = "resp", harness = { program = "codex", session = "native", decision_timeout = 300 } },
    { name = "fake", model = "chat", harness = { program = { command = { t.tabula_bin(), t.root() .. "/tests/fake_agent.lua" },
      env = { FAKE_MODE = "play" } } } },
    { name = "random", player = "random" } }, "7wonders")
  local m = check(rdir, log, out, { codex = true, fake = true })
  io.write(string.format("  codex: %d decisions, %.1f s\n", m.decisions[1], m.seconds[1]))
end)

return T
