-- tabula mcp: a scenario's trials over the Model Context Protocol on stdio,
-- played by the test client (tests/mcp_client.lua): initialize and version
-- negotiation, tools/list, tools/call, the errors the specification names, a
-- full XiangqiBench trial and a queue of two, and the run they leave (run
-- directory, trials.jsonl, transcripts of the tool traffic, report).
local t = require "tabula.testing"
local client = require "tests.mcp_client"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local transcripts = require "tabula.transcripts"
local test, T = t.suite()

local start = client.start_case

test("the protocol: initialize, errors before and after it, tools/list, unknown tools and methods", function()
  local dir = t.tmpdir()
  local c = start(dir)
  local r = c:request("tools/list")
  t.eq(r.error.code, -32600, "a request before initialize")
  local init = c:initialize("2099-01-01")
  t.eq(init.protocolVersion, "2025-11-25", "an unknown version: the server's newest")
  t.eq(init.capabilities.tools.listChanged, true)
  t.eq(init.serverInfo.name, "tabula")
  c:send("{not json")
  t.eq(c:recv().error.code, -32700)
  c:send("[1, 2]")
  t.eq(c:recv().error.code, -32600, "a batch")
  t.eq(c:request("resources/list").error.code, -32601)
  t.eq(c:request("ping").result, {})
  local list = c:request("tools/list").result.tools
  local names = {}
  for i, tool in ipairs(list) do names[i] = tool.name; t.eq(tool.inputSchema.type, "object", tool.name) end
  t.eq(names, { "move", "resign", "view_board", "legal_moves", "history", "simulate", "think", "observe" })
  t.eq(list[1].inputSchema.required, { "move" })
  local bad = c:call("teleport")
  t.eq({ bad.error.code, bad.error.message }, { -32602, "Unknown tool: teleport" })
  -- arguments that are not an object: a tool error the model can read (the 2025-11-25 rule)
  bad = c:request("tools/call", { name = "move", arguments = json.array({ 1 }) })
  t.eq(bad.error, nil)
  t.eq(bad.result.isError, true)
  t.contains(bad.result.content[1].text, "Invalid arguments for move")
  local obs = client.text(c:call("observe"))
  t.contains(obs, "You are playing Xiangqi (Chinese chess) as Red")
  t.contains(obs, "How to act. Act by calling the tools you are given")
  t.contains(obs, "FEN: 3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1")
  local rc, err = c:close()
  t.eq(rc ~= 0, true, "the client left mid-trial: the run stops")
  t.contains(err, "the client closed the connection during trial mate1/sighted/1; it is not recorded")
  t.eq(#records.read(dir .. "/run/trials.jsonl"), 0, "nothing recorded")
  -- an older revision is answered in kind
  c = start(t.tmpdir())
  t.eq(c:initialize("2025-06-18").protocolVersion, "2025-06-18")
  c:close()
end)

test("a full XiangqiBench trial played through tabula mcp: the referee's answers, the record, the transcript", function()
  local dir = t.tmpdir()
  local c = start(dir, { "--agent-name", "test-agent" })
  c:initialize()
  local text, is_error = client.text(c:call("think", { text = "the chariot mates on b9" }))
  t.eq({ text, is_error }, { "Noted. Continue with a command.", false })
  text, is_error = client.text(c:call("move", { move = "b1" }))
  t.eq(is_error, true, "a rejected action is a tool error")
  t.contains(text, "'b1' is not a move in ICCS coordinates (like h2e2) (1 of 3 invalid actions this turn)")
  text = client.text(c:call("legal_moves"))
  t.contains(text, "b1b9")
  text, is_error = client.text(c:call("move", { move = "b1b9" }))
  t.eq(is_error, false)
  t.contains(text, "The trial mate1/sighted/1 is over: success (win_mate).")
  t.contains(text, "No trial is left: the run is complete (records in " .. dir .. "/run)")
  text, is_error = client.text(c:call("resign"))
  t.eq(is_error, true, "after the run, a call is a tool error")
  local rc, err = c:close()
  t.eq(rc, 0, err)
  -- stdout carried only protocol messages
  for _, line in ipairs(c.lines) do t.eq(json.decode(line).jsonrpc, "2.0", line) end
  local recs = records.read(dir .. "/run/trials.jsonl")
  t.eq(#recs, 1)
  local rec = recs[1]
  t.eq({ rec.reason, rec.status, rec.model, rec.protocol, rec.calls }, { "win_mate", "success", "test-agent", "tools", 4 })
  local kinds = {}
  for i, a in ipairs(rec.actions) do kinds[i] = a.kind .. ":" .. a.command.name end
  t.eq(kinds, { "accepted:think", "rejected:malformed", "accepted:legal_moves", "accepted:move" })
  local meta = json.read_file(dir .. "/run/run.json")
  t.eq({ meta.model.provider, meta.model.name, meta.options.protocol }, { "mcp", "test-agent", "tools" })
  -- the transcript: the tool traffic, as any model's
  local tr = assert(transcripts.load(dir .. "/run", "mate1/sighted/1"))
  t.eq(#tr.calls, 4)
  t.eq(tr.calls[1].reply.tool_calls[1].name, "think")
  local msgs = tr.calls[4].messages
  t.eq({ msgs[#msgs].role, msgs[#msgs].name }, { "tool", "legal_moves" })
  t.eq(tr.calls[4].reply.tool_calls[1].arguments, '{"move":"b1b9"}')
  t.ok(fs.kind(dir .. "/run/report.md") == "file", "scored and reported like any run")
  t.contains(fs.read(dir .. "/run/report.md"), "test-agent")
end)

test("a queue of trials: the call that ends one answers with the next one's start; the tool list is announced changed", function()
  local dir = t.tmpdir()
  local c = start(dir, { "--setting", "sighted,restricted" })
  c:initialize()
  local text = client.text(c:call("move", { move = "b1b9" }))
  t.contains(text, "The trial mate1/sighted/1 is over: success (win_mate).")
  t.contains(text, "The next trial begins.\n\nTrial mate1/restricted/1.")
  t.contains(text, "blindfolded")
  t.eq(c.notes[1] and c.notes[1].method, nil, "not yet")
  local r = c:request("tools/list")
  t.eq(#r.result.tools, 5, "restricted: move, resign, history, think, observe")
  t.eq(c.notes[1].method, "notifications/tools/list_changed")
  text = client.text(c:call("resign"))
  t.contains(text, "The trial mate1/restricted/1 is over: failure (resignation).")
  t.contains(text, "No trial is left")
  t.eq(c:close(), 0)
  local recs = records.read(dir .. "/run/trials.jsonl")
  t.eq(#recs, 2)
  t.eq({ recs[1].reason, recs[2].reason }, { "win_mate", "resignation" })
end)

test("what tabula mcp refuses, in one line, before it serves anything", function()
  for _, case in ipairs({ { { "tsugo" }, "mcp: scenario tsugo has no tools arm to serve over MCP" },
    { { "xiangqibench", "--model", "engine" }, "mcp: the agent is the MCP client (--model is not taken" },
    { { "xiangqibench", "--dry-run" }, "mcp: --dry-run is tabula run's" } }) do
    local args = { "mcp" }
    for _, a in ipairs(case[1]) do args[#args + 1] = a end
    local rc, out = t.tabula(table.unpack(args))
    t.eq(rc, 2, out)
    t.contains(out, "tabula: " .. case[2])
    t.eq(select(2, out:gsub("\n", "")), 2, "one line (and the exit code): " .. out)
  end
end)

return T
