-- DECE's harness protocol "tools": the action by id through a native `act`
-- call and the queries (rules, state, simulate) as tools, over the mock; the
-- manifest (protocol recorded only when tools, so text harnesses keep their
-- identity); and a DECE seat played by an agent program through tabula mcp.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local participants = require "scenarios.dece.participants"
local match = require "scenarios.dece.match"
local client = require "tests.mcp_client"
local test, T = t.suite()

local function models_file(dir, url)
  fs.write_atomic(dir .. "/models.lua", string.format([[return { m = { provider = "openai-chat", model = "m",
    base_url = %q, optional_key = true, prices = { input = 2, cached = 1, output = 10 } } }]], url .. "/v1"))
  return dir .. "/models.lua"
end

local arena = require("tests.dece_arena").arena

local RANDOM, HEURISTIC = { name = "random", player = "random" }, { name = "heuristic", player = "heuristic" }

test("a model participant through tools over the mock: a query, then act; an illegal act is an invalid answer", function()
  local mock = require "tests.mock"
  local s = mock.start({
    { match = "Decision 1 ", tool_calls = { { name = "rules" } }, times = 1 },
    { match = "Splendor", tool_calls = { { name = "act", arguments = { id = "take:white,blue,green" } }, { name = "rules" } }, times = 1 },
    { tool_calls = { { name = "act", arguments = { id = "buy:everything" } } } } })
  local dir = t.tmpdir()
  local mf = models_file(dir, s.url)
  local list = { { name = "llm", model = "m", harness = { protocol = "tools", tools = { "rules", "state" } } }, RANDOM, HEURISTIC }
  local ok, rec = pcall(match.play, arena(dir, list, { "splendor" }, mf),
    { id = "splendor-1", game = "splendor", seats = { "llm", "random", "heuristic" }, setup_seed = 3 })
  local log = s:log()
  s:close()
  if not ok then error(rec, 0) end
  t.eq({ rec.status, rec.forfeits, rec.decisions[1], rec.invalid[1], rec.tools[1] }, { "forfeit", { 1 }, 2, 1, 1 })
  t.eq(rec.failures[1].why, "'buy:everything' is not a legal action id")
  t.eq(#log, 3)
  local b1, b2 = json.decode(log[1].body), json.decode(log[2].body)
  local names = {}
  for i, tool in ipairs(b1.tools) do names[i] = tool["function"].name end
  t.eq(names, { "act", "rules", "state" }, "act and the harness's queries, in order")
  t.contains(b1.messages[1].content, "Answer by calling the tool act")
  t.contains(b1.messages[2].content, "take:white,blue,green: take 1 white, 1 blue and 1 green")
  t.eq(b2.messages[#b2.messages].role, "tool")
  t.contains(b2.messages[#b2.messages].content, "Splendor", "the rules as the tool's result")
  -- the call after act was not executed, and the events log keeps the answer as text
  local ev = records.read(dir .. "/matches/splendor-1.jsonl")
  t.eq(ev[2].choices[1].action, "take:white,blue,green")
  t.contains(ev[2].choices[1].reply, "ACTION: take:white,blue,green")
end)

test("memory with the tools protocol keeps the decision as text: a thinking model's next request is taken", function()
  local mock = require "tests.mock"
  local s = mock.start({
    { match = "Decision 1 ", tool_calls = { { name = "act", arguments = { id = "take:white,blue,green" } } }, reasoning = "Three gems.", times = 1 },
    { tool_calls = { { name = "act", arguments = { id = "buy:everything" } } }, reasoning = "Greedy." } })
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return { c = { provider = "anthropic", model = "claude-opus-4-7",
    base_url = %q, optional_key = true } }]], s.url .. "/v1"))
  local list = { { name = "llm", model = "c", harness = { protocol = "tools", memory = "full" } }, RANDOM, HEURISTIC }
  local ok, rec = pcall(match.play, arena(dir, list, { "splendor" }, dir .. "/models.lua"),
    { id = "splendor-1", game = "splendor", seats = { "llm", "random", "heuristic" }, setup_seed = 3 })
  local log = s:log()
  s:close()
  if not ok then error(rec, 0) end
  t.eq({ rec.status, rec.decisions[1] }, { "forfeit", 2 }, "decision 2 was answered (not refused by the service)")
  t.eq(rec.failures[1].why, "'buy:everything' is not a legal action id")
  local b2 = json.decode(log[2].body)
  t.eq(b2.messages[2].content, "ACTION: take:white,blue,green", "the memory holds the decision as text, no unanswered tool_use")
end)

test("the manifest: protocol recorded only when tools (a text harness keeps its identity); model mcp only under tabula mcp", function()
  local dir = t.tmpdir()
  local mf = models_file(dir, "http://127.0.0.1:9")
  local plain = participants.normalize({ name = "x", model = "m" }, "test", mf)
  local text = participants.normalize({ name = "x", model = "m", harness = { protocol = "text" } }, "test", mf)
  local tooled = participants.normalize({ name = "x", model = "m", harness = { protocol = "tools" } }, "test", mf)
  t.eq(plain.id, text.id)
  t.ok(plain.id ~= tooled.id, "the tools harness is another configuration")
  t.eq(tooled.manifest.harness.protocol, "tools")
  t.ok(tooled.manifest.prompt_sha256["tools/system.txt"], "the tools templates are hashed")
  t.contains(t.raises(function() participants.normalize({ name = "x", model = "m", harness = { protocol = "smoke" } }, "test", mf) end),
    "harness protocol must be text or tools")
  t.contains(t.raises(function() participants.normalize({ name = "x", model = "mcp" }, "test", mf) end),
    "model mcp: an agent program over MCP plays only under tabula mcp")
end)

-- the legal action ids of an observation's "Your legal actions" block
local function legal_ids(text)
  local block = text:match("Your legal actions %(id: description%):\n(.-)\n\n") or text:match("Your legal actions %(id: description%):\n(.*)$") or ""
  local ids = {}
  for line in block:gmatch("[^\n]+") do ids[#ids + 1] = line:match("^(%S+): ") end
  return ids
end

test("a DECE seat played through tabula mcp: every decision arrives through the server; the matches are recorded", function()
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/parts.json", json.canonical({ participants = json.array({
    { name = "agent", model = "mcp", harness = { protocol = "tools", tools = json.array({ "state" }) } }, RANDOM, HEURISTIC }) }))
  -- a queue of two matches, the agent in another seat in each
  fs.write_atomic(dir .. "/schedule.json", json.canonical({ matches = json.array({
    { id = "azul-a", game = "azul", seats = json.array({ "agent", "random", "heuristic" }), setup_seed = 5 },
    { id = "azul-b", game = "azul", seats = json.array({ "random", "agent", "heuristic" }), setup_seed = 6 } }) }))
  local c = client.start({ "dece", "--participants", dir .. "/parts.json", "--games", "azul", "--schedule", dir .. "/schedule.json",
    "--out", dir .. "/run", "--agent-name", "test-agent" })
  c:initialize()
  local names = {}
  for i, tool in ipairs(c:request("tools/list").result.tools) do names[i] = tool.name end
  t.eq(names, { "act", "state", "observe" })
  local text = client.text(c:call("observe"))
  t.contains(text, "You are playing Azul")
  local decisions, queried, next_trial = 0, false, 0
  while not text:find("No trial is left", 1, true) do
    if text:find("The trial azul-a is over", 1, true) then next_trial = next_trial + 1 end
    if not queried then   -- one query (not an action) before the first act
      queried = true
      t.contains(client.text(c:call("state")), "(you)")
    end
    local ids = legal_ids(text)
    t.ok(#ids > 0, "legal ids in: " .. text:sub(-400))
    decisions = decisions + 1
    local err
    text, err = client.text(c:call("act", { id = ids[1] }))
    t.eq(err, false, text)
    t.ok(decisions < 2000, "the matches end")
  end
  t.eq(next_trial, 1, "the call that ended the first match answered with the second's start")
  t.eq(c:close(), 0)
  local recs = records.read(dir .. "/run/matches.jsonl")
  t.eq(#recs, 2)
  local total = 0
  for _, r in ipairs(recs) do
    t.eq(r.status, "finished")
    for seat, name in ipairs(r.seats) do if name == "agent" then total = total + r.decisions[seat] end end
  end
  t.eq(total, decisions, "each act was one of the seat's decisions")
  t.eq(json.read_file(dir .. "/run/run.json").participants.agent.manifest.provider.provider, "mcp")
end)

return T
