-- Transcripts: what each trial sent and received is stored compactly (shared
-- texts once, conversations as deltas) and read back exactly; tabula show.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local transcripts = require "tabula.transcripts"
local test, T = t.suite()

local tmpdir = t.tmpdir

-- a fake agent answering "reply N" with some usage
local function fake_agent()
  local n = 0
  return { cfg = { name = "fake" }, reply = function(_, conv)
    n = n + 1
    return { text = "reply " .. n .. " to " .. #conv, reasoning = n == 1 and "because" or nil, finish = "stop",
      usage = { input = 10 * #conv, output = 3, reasoning = 1 }, cost = 0.5, cached = false }
  end }
end

local SYSTEM = ("You are a careful player. "):rep(20)   -- long: stored once

test("a trial's requests and replies read back exactly; shared texts are stored once", function()
  local dir = tmpdir()
  local rec = transcripts.recorder(dir)
  local sent = {}
  for k = 1, 2 do
    local tr = rec:trial("case" .. k)
    local a = tr:wrap(fake_agent())
    t.eq(a.cfg.name, "fake", "other fields pass through")
    local conv = { { role = "system", content = SYSTEM }, { role = "user", content = "start " .. k } }
    local snapshots = {}
    for i = 1, 3 do
      local copy = {}
      for j, m in ipairs(conv) do copy[j] = m end
      snapshots[i] = copy
      local r = a:reply(conv, { sample = i, fen = "9/9/9/9/9/9/9/9/9/4K4 w" })
      conv[#conv + 1] = { role = "assistant", content = r.text }
      conv[#conv + 1] = { role = "user", content = "next " .. i }
    end
    -- a request that is not a continuation (a new short conversation)
    local fresh = { { role = "user", content = { { type = "text", text = "look" }, { type = "image", data = "\137PNG fake", mime = "image/png" } } } }
    a:reply(fresh, {})
    snapshots[4] = fresh
    tr:finish("success")
    sent[k] = snapshots
  end
  rec:close()
  local texts = records.read(dir .. "/transcripts/texts.jsonl")
  t.eq(#texts, 1, "the system prompt is stored once for both trials")
  t.eq(texts[1].text, SYSTEM)
  local lines = records.read(dir .. "/transcripts/trials.jsonl")
  t.eq(#lines[1].calls[2].add, 1, "the second call stores only the new user message")
  t.eq(lines[1].calls[2].keep, 3)
  for k = 1, 2 do
    local tr = assert(transcripts.load(dir, "case" .. k))
    t.eq(#tr.calls, 4)
    for i = 1, 3 do t.eq(tr.calls[i].messages, sent[k][i], "call " .. i .. " of case" .. k) end
    local img = tr.calls[4].messages[1].content[2]
    t.eq(img.type, "image")
    t.eq(fs.read(img.file), "\137PNG fake", "the image is kept as a file")
    t.eq(tr.calls[1].reply.reasoning, "because")
    t.eq(tr.calls[2].reply.text, "reply 2 to 4")
    t.eq(tr.calls[1].fen, "9/9/9/9/9/9/9/9/9/4K4 w")
    t.eq(transcripts.summary(tr), { calls = 4, input = 10 * (2 + 4 + 6 + 1), output = 12, reasoning = 4, cost = 2 })
  end
  t.eq(transcripts.ids(dir), { "case1", "case2" })
  local missing, why = transcripts.load(dir, "nope")
  t.eq(missing, nil)
  t.contains(why, "no transcript for trial nope")
end)

test("a continued run reads none of the stored texts; a text stored again reads back the same", function()
  local dir = tmpdir()
  local function session(id)
    local rec = transcripts.recorder(dir)
    local tr = rec:trial(id)
    tr:wrap(fake_agent()):reply({ { role = "system", content = SYSTEM }, { role = "user", content = "go" } }, {})
    tr:finish("success")
    rec:close()
  end
  session("a")
  -- texts.jsonl made unreadable: a continued run must not need it to start and record
  local p = dir .. "/transcripts/texts.jsonl"
  local kept = fs.read(p)
  fs.write_atomic(p, kept .. "not json\n")
  session("b")
  local lines = {}
  for line in fs.read(p):gmatch("[^\n]+") do lines[#lines + 1] = line end
  t.eq(#lines, 3, "the first session's text, the damaged line, the text once more for the second session")
  t.eq(lines[1], lines[3])
  for _, id in ipairs({ "a", "b" }) do
    local tr = assert(transcripts.load(dir, id))
    t.eq(tr.calls[1].messages[1].content, SYSTEM, "trial " .. id)
  end
end)

test("a re-run trial's last attempt is the one read back", function()
  local dir = tmpdir()
  local rec = transcripts.recorder(dir)
  local tr = rec:trial("x")
  tr:wrap(fake_agent()):reply({ { role = "user", content = "first" } }, {})
  tr:finish("error", "network down")
  rec:close()
  rec = transcripts.recorder(dir)   -- a resumed run
  tr = rec:trial("x")
  tr:wrap(fake_agent()):reply({ { role = "user", content = "second" } }, {})
  tr:finish("success")
  rec:close()
  local got = assert(transcripts.load(dir, "x"))
  t.eq(got.status, "success")
  t.eq(got.calls[1].messages[1].content, "second")
end)

test("a run records transcripts over HTTP (reasoning, usage); show lists and prints them; --no-transcripts", function()
  local mock = require "tests.mock"
  local s = mock.start({ { match = "The game begins", reply = "```bash\nmove b1b9\n```", reasoning = "the chariot mates",
    usage = { input = 500, output = 20, reasoning = 7 } } })
  local dir = tmpdir()
  fs.write_atomic(dir .. "/cases.jsonl", json.canonical({ id = "mate1", fen = "3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1",
    win_in_plies = 1 }) .. "\n")
  fs.write_atomic(dir .. "/models.lua", string.format([[return { mock = { provider = "openai", model = "m",
    base_url = %q, key_env = "TABULA_NO_KEY", optional_key = true } }]], s.url .. "/v1"))
  local common = { "--model", "mock", "--models", dir .. "/models.lua", "--cases", dir .. "/cases.jsonl", "--trials", "1",
    "--setting", "restricted", "--quiet" }
  local args = { "--out", dir .. "/run" }
  for _, a in ipairs(common) do args[#args + 1] = a end
  t.run_scenario("scenarios/xiangqibench.lua", args)
  local r = records.read(dir .. "/run/trials.jsonl")[1]
  t.eq(r.reason, "win_mate")
  local tr = assert(transcripts.load(dir .. "/run", r.trial_id))
  t.eq(#tr.calls, r.calls)
  t.eq(tr.calls[1].messages[1].content, r.system_prompt)
  t.eq(tr.calls[1].messages[2].content, r.initial_message)
  t.eq(tr.calls[1].reply.reasoning, "the chariot mates")
  t.eq(tr.calls[1].reply.usage.reasoning, 7)
  t.eq(tr.calls[1].fen, "3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1", "the board before the call")
  local show = require("tabula.cmd.show").lib
  local list = show.list(dir .. "/run")
  t.contains(list, "mate1/restricted/1")
  t.contains(list, "win_mate")
  local text = show.render(tr)
  t.contains(text, "--- reasoning\n  | the chariot mates")
  t.contains(text, "tokens in 500, out 20, reasoning 7")
  t.contains(text, "將", "the board is drawn")
  t.eq(show.find(dir .. "/run", "mate1/r"), "mate1/restricted/1", "a prefix finds the trial")
  t.raises(function() show.find(dir .. "/run", "zzz") end, "no transcript for a trial zzz")
  args = { "--out", dir .. "/run2", "--no-transcripts" }
  for _, a in ipairs(common) do args[#args + 1] = a end
  t.run_scenario("scenarios/xiangqibench.lua", args)
  s:close()
  t.eq(fs.kind(dir .. "/run2/transcripts"), nil)
  t.eq(#records.read(dir .. "/run2/trials.jsonl"), 1)
end)

return T
