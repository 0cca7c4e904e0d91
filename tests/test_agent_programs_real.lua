-- slow: each test runs a real agent program (npm, build/agents) through one or two whole Azul matches, 10-70 s each
-- The real agent programs (tabula.agent_programs, installed by `make
-- agent-programs`) play a DECE seat: each runs headless, configured by its
-- entry's prepare(), against the mock model server in agent mode (the mock
-- plays the model: observe, then act with a legal id, until the match is
-- over) and with `tabula mcp dece` as its stdio MCP server "tabula", so every
-- decision of its seat goes program -> model (the mock) -> MCP tool call ->
-- the match. A program that is not installed is skipped, and so are all of them under the
-- sanitizer build (their processes are not tabula's code).
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local host = require "tabula.c.host"
local AP = require "tabula.agent_programs"
local test, T = t.suite()

local KEY = "tabula-test-key-7f3c9a"   -- the token the program must send (never written to a file)

-- the endpoint each wire's client is given, and the path its requests reach
local WIRE = {
  openai = { base = "/v1", path = "/v1/responses" },
  ["openai-chat"] = { base = "/v1", path = "/v1/chat/completions" },
  anthropic = { base = "", path = "/v1/messages" },
  gemini = { base = "", path = ":streamGenerateContent" },
}

-- play(name, wire [, again]) -> what happened: a whole Azul match (seat 1: the
-- program, over MCP; then Random and Heuristic) with the program driven by the
-- mock; again: the result of an earlier play whose home and workspace are used
-- again, the program resuming its own session there (a new match, in run2)
local function play(name, wire, again)
  local e = assert(AP.get(name))
  if t.sanitized() then
    t.skip("real agent programs run under the plain build only (the sanitizer build checks tabula's MCP side with tests/test_mcp.lua and the fake program)")
  end
  local bin = e.locate()
  if not bin then t.skip(name .. " not installed (make agent-programs)") end
  local mock = require "tests.mock"
  local s = mock.start({ { agent = { ["until"] = "over" } } })
  local dir = again and again.dir or t.tmpdir()
  local out_dir = dir .. (again and "/run2" or "/run")
  fs.write_atomic(dir .. "/parts.json", json.canonical({ participants = json.array({
    { name = "agent", model = "mcp", harness = { protocol = "tools" } },
    { name = "random", player = "random" }, { name = "heuristic", player = "heuristic" } }) }))
  fs.write_atomic(dir .. "/schedule.json", json.canonical({ matches = json.array({
    { id = "azul-a", game = "azul", seats = json.array({ "agent", "random", "heuristic" }), setup_seed = 5 } }) }))
  local ws, home = dir .. "/ws", dir .. "/home"
  fs.mkdir_p(ws); fs.mkdir_p(home)
  local plan = e.prepare({ workspace = ws, home = home, wire = wire, base_url = s.url .. WIRE[wire].base, key = KEY,
    model = "mock-model", prompt = (again and "Next decision. " or "") .. "Play your seat in this game: call observe, then act with a legal action id.",
    resume = again ~= nil, mcp = { command = t.tabula_bin(), args = { "mcp", "dece", "--participants", dir .. "/parts.json",
      "--games", "azul", "--schedule", dir .. "/schedule.json", "--out", out_dir, "--agent-name", name } } })
  AP.write_files(plan)
  -- a clean environment: only PATH beside what prepare() gives (no real HOME, no other key)
  local words = { "cd", t.quote(ws), "&&", "timeout", "-k", "10", "600", "env", "-i",
    t.quote("PATH=" .. (host.getenv("PATH") or "/usr/bin:/bin")) }
  local keys = {}
  for k in pairs(plan.env) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do words[#words + 1] = t.quote(k .. "=" .. plan.env[k]) end
  words[#words + 1] = t.quote(bin)
  for _, a in ipairs(plan.argv) do words[#words + 1] = t.quote(a) end
  local out = t.sh(table.concat(words, " ") .. " </dev/null")
  local log = s:log()
  s:close()
  local leaked = t.sh("grep -rlF " .. t.quote(KEY) .. " " .. t.quote(home) .. " " .. t.quote(ws))
  local recs = fs.kind(out_dir .. "/matches.jsonl") and records.read(out_dir .. "/matches.jsonl") or {}
  return { out = out, log = log, recs = recs, leaked = leaked, dir = dir, wire = wire }
end

-- the checks every program must pass
local function check(name, r)
  local why = "\n--- program output:\n" .. r.out:sub(-3000)
  t.eq(r.out:match("rc=(%d+)\n$"), "0", "the program ended well" .. why)
  t.eq(#r.recs, 1, "the match was recorded" .. why)
  local rec = r.recs[1]
  t.eq({ rec.status, rec.forfeits and #rec.forfeits or 0, rec.invalid[1] }, { "finished", 0, 0 }, "played to the end" .. why)
  t.ok(rec.decisions[1] >= 5, "the program's seat made its decisions: " .. tostring(rec.decisions[1]))
  -- its model requests reached the mock, with the key given by the environment, offering the tabula tools
  local model_calls, acts = 0, 0
  for _, l in ipairs(r.log) do
    if l.path:find(WIRE[r.wire].path, 1, true) then
      model_calls = model_calls + 1
      local hk = l.headers:find(KEY, 1, true) or l.path:find(KEY, 1, true)
      t.ok(hk, "the request carries the key: " .. l.path)
      if l.body:find("act", 1, true) then acts = acts + 1 end
    end
  end
  t.ok(model_calls > rec.decisions[1], string.format("%d model requests for %d decisions", model_calls, rec.decisions[1]))
  t.ok(acts > 0, "the requests offered the act tool")
  t.eq(r.leaked:gsub("\n", " "), "rc=1 ", "the key is in no file under the seat's home or workspace")
end

-- the program resumed its session: the first request of the second launch that
-- offers the act tool carries the first launch's conversation (its first act)
local function check_resumed(r)
  for _, l in ipairs(r.log) do
    if l.path:find(WIRE[r.wire].path, 1, true) and l.body:find("act", 1, true) then
      t.ok(l.body:find("Next decision.", 1, true), "the new prompt in the request")
      t.ok(l.body:find("f1:yellow:1", 1, true), "the first launch's act is in the resumed conversation")
      return
    end
  end
  error("no model request offered the act tool")
end

local function play_and_resume(name, wire)
  local first = play(name, wire)
  check(name, first)
  if not AP.get(name).resume then return end   -- fresh sessions only (its entry says why)
  local second = play(name, wire, first)
  check(name, second)
  check_resumed(second)
end

test("qwen-code plays an Azul seat over MCP against the mock (OpenAI Chat Completions, streamed), then a second match resuming its session", function()
  play_and_resume("qwen-code", "openai-chat")
end)

test("codex plays an Azul seat over MCP against the mock (OpenAI Responses, streamed), then a second match resuming its session", function()
  play_and_resume("codex", "openai")
end)

test("opencode plays an Azul seat over MCP against the mock (OpenAI Chat Completions, streamed), then a second match resuming its session", function()
  play_and_resume("opencode", "openai-chat")
end)

test("gemini-cli plays an Azul seat over MCP against the mock (Gemini, streamed); it takes no resume (see its entry)", function()
  play_and_resume("gemini-cli", "gemini")
end)

test("claude-code plays an Azul seat over MCP against the mock (Anthropic Messages, streamed), then a second match resuming its session", function()
  play_and_resume("claude-code", "anthropic")
end)

-- the other wires a program speaks, one match each (no resume)
for _, pw in ipairs({ { "qwen-code", "anthropic", "Anthropic Messages" }, { "qwen-code", "gemini", "Gemini" },
  { "opencode", "openai", "OpenAI Responses" } }) do
  test(pw[1] .. " plays an Azul seat against the mock over its " .. pw[3] .. " client, streamed", function()
    check(pw[1], play(pw[1], pw[2]))
  end)
end

return T
