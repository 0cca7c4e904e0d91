-- XiangqiBench's --protocol tools arm over the mock, as each provider
-- (streamed and not): the REPL's commands as native tools, the same referee
-- and budgets as the text arm, the reasoning carried across tool turns, the
-- tool traffic in the transcripts, the protocol in the run's identity, and
-- `tabula compare` of the text and tools arms.
local t = require "tabula.testing"
local mock = require "tests.mock"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local transcripts = require "tabula.transcripts"
local test, T = t.suite()

local F = require "tests.families"

local CASE = { id = "mate1", fen = "3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1", first_winning_move = "b1b9", win_in_plies = 1, category = "forced_mate" }

local TOOL_RULES = {
  { match = "The game begins", tool_calls = { { name = "think", arguments = { text = "the chariot mates on b9" } } },
    reasoning = "The chariot on b1 can reach b9." },
  { match = "Noted.", tool_calls = { { name = "move", arguments = { move = "b1b9" } } }, reasoning = "Mate now." },
}
local TEXT_RULES = {
  { match = "The game begins", reply = "```bash\nthink the chariot mates on b9\n```", reasoning = "The chariot on b1 can reach b9." },
  { match = "Noted.", reply = "```bash\nmove b1b9\n```", reasoning = "Mate now." },
}

local function setup(s)
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/cases.jsonl", json.canonical(CASE) .. "\n")
  return dir, F.models_file(dir, s)
end

local function run(fam, mf, dir, out, extra)
  local args = { "--model", fam, "--models", mf, "--cases", dir .. "/cases.jsonl", "--setting", "sighted,restricted",
    "--trials", "1", "--out", out, "--quiet" }
  for _, a in ipairs(extra or {}) do args[#args + 1] = a end
  return t.run_scenario("scenarios/xiangqibench", args)
end

-- the tool result the second request sends back (the think call's), per provider
local function think_result(fam, body)
  local p = F.FAMILIES[fam].provider
  if p == "anthropic" then return body.messages[#body.messages].content[1].content
  elseif p == "openai" then return body.input[#body.input].output
  elseif p == "gemini" then return body.contents[#body.contents].parts[1].functionResponse.response.result end
  return body.messages[#body.messages].content
end

test("--protocol tools over the mock as each provider, streamed and not: mate through tool calls, reasoning carried, no 400", function()
  local s = mock.start(TOOL_RULES)
  local dir, mf = setup(s)
  for _, r in ipairs({ { "claude" }, { "gpt" }, { "gemini" }, { "open" }, { "claude", true }, { "gpt", true }, { "gemini", true }, { "open", true } }) do
    local fam, stream = r[1], r[2]
    s:script(TOOL_RULES)
    local out = dir .. "/run-" .. fam .. (stream and "-stream" or "")
    run(fam, mf, dir, out, { "--protocol", "tools", stream and "--stream" or "--no-stream" })
    local recs = records.read(out .. "/trials.jsonl")
    t.eq(#recs, 2, fam)
    for _, rec in ipairs(recs) do
      t.eq({ rec.reason, rec.calls, rec.protocol }, { "win_mate", 2, "tools" }, fam .. " " .. rec.setting)
      t.eq(rec.actions[1].tool_call.name, "think")
      t.eq({ rec.actions[1].command.name, rec.actions[2].command.name, rec.actions[2].command.move }, { "think", "move", "b1b9" })
      t.eq(rec.actions[1].reasoning, "The chariot on b1 can reach b9.", fam .. ": reasoning recorded")
    end
    local b = F.bodies(s)
    t.eq(#b, 4, fam .. ": two trials of two calls, none refused")
    local carrying, tooled, answered = 0, 0, 0
    for _, body in ipairs(b) do
      if F.carried(fam, body) then carrying = carrying + 1 end
      if body.tools then tooled = tooled + 1 end
      local ok, text = pcall(think_result, fam, body)
      if ok and text == "Noted. Continue with a command." then answered = answered + 1 end
    end
    t.eq(answered, 2, fam .. ": each trial's second call sends the think call's result")
    t.eq(tooled, 4, "every request declares the tools")
    t.eq(carrying, fam == "open" and 0 or 2, fam .. ": each trial's second call carries the first's reasoning")
    -- the system prompt: How to act says tools; the restricted setting declares no queries
    local tools_of = {}
    for _, body in ipairs(b) do
      local list = body.tools[1].functionDeclarations or body.tools
      local names = {}
      for _, d in ipairs(list) do names[#names + 1] = d.name or d["function"].name end
      tools_of[#names] = true
    end
    t.ok(tools_of[7] and tools_of[4], fam .. ": sighted has seven tools, restricted four")
    -- the transcript keeps the tool traffic
    local tr = assert(transcripts.load(out, recs[1].trial_id))
    local second = tr.calls[2].messages
    t.eq(second[#second].role, "tool")
    t.eq(second[#second].content, "Noted. Continue with a command.")
    t.eq(second[#second - 1].tool_calls[1].name, "think")
    t.eq(tr.calls[2].reply.tool_calls[1].name, "move")
  end
  -- tabula show prints the tool traffic
  local rc, shown = t.tabula("show", dir .. "/run-claude", "mate1/sighted/1")
  t.eq(rc, 0, shown)
  t.contains(shown, "--- tool think ")
  t.contains(shown, "Noted. Continue with a command.")
  t.contains(shown, '[tool call ')
  t.contains(shown, ' move {"move":"b1b9"}]')
  -- resumed from scratch (the records gone), every call is replayed from the cache: the same tool turns
  local before = s:requests()
  os.remove(dir .. "/run-claude/trials.jsonl"); os.remove(dir .. "/run-claude/trials.jsonl.idx")
  run("claude", mf, dir, dir .. "/run-claude", { "--protocol", "tools", "--no-stream" })
  t.eq(s:requests(), before, "no request sent again")
  local again = records.read(dir .. "/run-claude/trials.jsonl")
  t.eq({ #again, again[1].reason, again[1].cached_calls }, { 2, "win_mate", 2 })
  s:close()
end)

test("the tools arm keeps the text arm's referee: budgets, rejections, a disabled query, no call, and the parallel rule", function()
  local s = mock.start({
    { match = "The game begins", tool_calls = { { name = "teleport" }, { name = "move", arguments = { move = "b1" } } } },
    { match = "unknown command", reply = "I think so." },
    { match = "No tool call found", tool_calls = { { name = "history" }, { name = "move", arguments = { move = "e0f0" } }, { name = "resign" } } },
    { match = "Black's reply", tool_calls = { { name = "view_board" }, { name = "resign" } } },
  })
  local dir, mf = setup(s)
  local out = dir .. "/run"
  run("open", mf, dir, out, { "--protocol", "tools", "--setting", "restricted" })
  local rec = records.read(out .. "/trials.jsonl")[1]
  local kinds = {}
  for i, a in ipairs(rec.actions) do kinds[i] = a.kind .. ":" .. (a.command and a.command.name or "-") end
  t.eq(kinds, { "rejected:unknown", "rejected:malformed", "no_command:-", "accepted:history", "accepted:move",
    "refused:view_board", "accepted:resign" })
  t.eq(rec.actions[2].reject_reason, "'b1' is not a move in ICCS coordinates (like h2e2)")
  t.eq(rec.actions[6].reject_reason, "view_board is disabled in this setting")
  t.eq(rec.reason, "resignation", "the resign after the move was not executed; the next turn's was")
  t.eq(#rec.moves, 2, "e0f0 and the defender's reply")
  -- what the model was answered for the call after the move
  local all = F.bodies(s)
  t.eq(#all, 4)
  local msgs = all[4].messages
  t.eq(msgs[#msgs].content, require("tabula.tools").NOT_RUN)
  t.contains(msgs[#msgs - 1].content, "Black's reply")
  s:close()
end)

test("the protocol is part of the run's identity; tabula compare pairs the text and tools arms", function()
  local s = mock.start(TEXT_RULES)
  local dir, mf = setup(s)
  run("claude", mf, dir, dir .. "/text", { "--protocol", "text" })
  s:script(TOOL_RULES)
  run("claude", mf, dir, dir .. "/tools", { "--protocol", "tools" })
  -- continued with the other protocol (another process: this one holds the run's lock)
  local rc0, refused = t.tabula("run", "xiangqibench", "--model", "claude", "--models", mf, "--cases", dir .. "/cases.jsonl",
    "--setting", "sighted,restricted", "--trials", "1", "--out", dir .. "/text", "--quiet", "--protocol", "tools")
  t.ok(rc0 ~= 0, refused)
  t.contains(refused, "option --protocol: text in the run, tools now")
  t.eq(json.read_file(dir .. "/tools/run.json").setup.protocol, "tools")
  local rc, out = t.tabula("compare", dir .. "/text", dir .. "/tools")
  t.eq(rc, 0, out)
  t.contains(out, "| run | scenario | model | protocol | trials |")
  t.contains(out, "| " .. dir .. "/text | xiangqibench | claude | text | 2 |")
  t.contains(out, "| " .. dir .. "/tools | xiangqibench | claude | tools | 2 |")
  t.contains(out, "2 paired trials")
  t.eq(t.raises(function() run("claude", mf, dir, dir .. "/bad", { "--protocol", "smoke" }) end):match("want text or tools") ~= nil, true)
  s:close()
end)

return T
