-- A DECE match resumed mid-game keeps every call of its transcript (issue 46,
-- item 2): a match killed in the middle continues from its event log without
-- asking again what the log holds, so the calls made before each kill are not
-- made again; their transcript must still show them. The calls are journalled
-- as they return (RUN/transcripts/open/), and a match that continues its log
-- carries the calls of its earlier attempts into its transcript line.
-- slow: a DECE match killed twice mid-game against the mock server (left out by make check)
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local transcripts = require "tabula.transcripts"
local proc = require "tabula.c.proc"
local child = require "tests.child"
local test, T = t.suite()

local DECE = t.root() .. "/scenarios/dece"

-- a models.lua naming the mock server m (priced)
local function mock_models(dir, url)
  fs.write_atomic(dir .. "/models.lua", string.format([[return { m = { provider = "openai", model = "m",
    base_url = %q, optional_key = true, prices = { input = 2, cached = 1, output = 10 } } }]], url .. "/v1"))
  return dir .. "/models.lua"
end

local function parts_file(dir)
  fs.write_atomic(dir .. "/parts.json", json.encode({ participants = {
    { name = "llm", model = "m", harness = { fallback = "random" } },
    { name = "random", player = "random" }, { name = "heuristic", player = "heuristic" } } }))
  return dir .. "/parts.json"
end

-- key(messages) -> one string for a conversation as sent (role and text of each
-- message; the system prompt, sent apart as the Responses API's instructions, left out)
local function key(messages)
  local out = {}
  for _, m in ipairs(messages) do
    local c = m.content
    if type(c) == "table" then
      local parts = {}
      for _, p in ipairs(c) do parts[#parts + 1] = p.text or "" end
      c = table.concat(parts)
    end
    if m.role ~= "system" then out[#out + 1] = tostring(m.role) .. "\0" .. tostring(c) end
  end
  return table.concat(out, "\1")
end

-- open_logs(dir) -> how many match event logs have no end (a match killed mid-game)
local function open_logs(dir)
  local n = 0
  for _, f in ipairs(fs.kind(dir .. "/matches") and fs.list(dir .. "/matches") or {}) do
    local evs = records.read(dir .. "/matches/" .. f, { skip_bad = true })
    if #evs > 1 and evs[#evs].k ~= "end" then n = n + 1 end
  end
  return n
end

-- an agent whose reply echoes the last message
local function echo()
  return { reply = function(_, conv)
    return { text = "re: " .. conv[#conv].content, usage = { input = 3, output = 2 }, cost = 0.5 }
  end }
end

test("a journalled trial: an attempt killed, one failed, one finished; its transcript holds every call in order", function()
  local dir = t.tmpdir()
  local function attempt(rec, n, from)
    local tr = rec:trial("m-1")
    local a = tr:wrap(echo(), "p")
    local conv = { { role = "system", content = "rules" } }
    for i = from, from + n - 1 do
      conv[#conv + 1] = { role = "user", content = "decision " .. i }
      local r = a:reply(conv)
      conv[#conv + 1] = { role = "assistant", content = r.text }
    end
    return tr
  end
  local rec1 = transcripts.recorder(dir, { resumes = true })
  local tr1 = attempt(rec1, 2, 1)
  tr1.journal:close()   -- killed: no line for this attempt
  t.eq(transcripts.ids(dir), { "m-1" }, "the journal is a transcript before any line")
  local shown = assert(transcripts.load(dir, "m-1"))
  t.eq({ shown.status, #shown.calls }, { "interrupted", 2 })
  local rec2 = transcripts.recorder(dir, { resumes = true })
  attempt(rec2, 1, 3):finish("error", "the server went away")
  t.eq(#assert(transcripts.load(dir, "m-1")).calls, 3, "the failed attempt carries the killed one's calls")
  attempt(rec2, 2, 4):finish("finished")
  rec2:close()
  local tr = assert(transcripts.load(dir, "m-1"))
  t.eq({ tr.status, #tr.calls, tr.carried }, { "finished", 5, 3 })
  for i, c in ipairs(tr.calls) do
    t.eq(c.messages[#c.messages].content, "decision " .. i, "call " .. i)
    t.eq(c.reply.text, "re: decision " .. i)
    t.eq(c.participant, "p")
  end
  t.eq(#tr.calls[2].messages, 4, "a call keeps its attempt's conversation")
  t.eq(tr.calls[3].messages, { { role = "system", content = "rules" }, { role = "user", content = "decision 3" } },
    "each attempt's conversation starts afresh (its memory is the match's)")
  t.eq(transcripts.summary(tr).calls, 5)
  t.eq(#fs.list(dir .. "/transcripts/open"), 0, "the journal is removed once the trial finished")
  -- a run whose trials start again (they replay their calls from the cache) keeps its last attempt only
  local d2 = t.tmpdir()
  local r = transcripts.recorder(d2)
  attempt(r, 2, 1):finish("error")
  attempt(r, 3, 1):finish("finished")
  r:close()
  t.eq(#assert(transcripts.load(d2, "m-1")).calls, 3)
  t.eq(fs.kind(d2 .. "/transcripts/open"), nil, "no journal")
end)

test("a DECE match killed mid-game twice, then finished: its transcript holds every call the server saw", function()
  local mock = require "tests.mock"
  local s = mock.start({ { reply = "ACTION: nothing-legal", usage = { input = 10, output = 5 } } }, { "--delay-ms", "20" })
  local dir = t.tmpdir()
  local run = dir .. "/run"
  local args = { "run", DECE, "--participants", parts_file(dir), "--models", mock_models(dir, s.url), "--games", "azul",
    "--matches-per-game", "3", "--concurrency", "1", "--out", run, "--quiet" }
  -- two kills in the first match (an azul match asks the model seat about 20 times)
  for k, at in ipairs({ 6, 13 }) do
    local c = child.start(args)
    child.until_true(function() return s:requests() >= at end, 60, at .. " requests (kill " .. k .. ")")
    proc.signal(c.pid, 9)
    c:finish(30)
    t.eq(open_logs(run), 1, "kill " .. k .. " left a match in the middle of its game")
  end
  local rc, out = child.run(args, 120)
  t.eq(rc, 0, out)
  t.eq(open_logs(run), 0)
  local recs = records.read(run .. "/matches.jsonl")
  t.eq(#recs, 3)
  local resumed = 0
  for _, r in ipairs(recs) do resumed = resumed + (r.resumed_steps and 1 or 0) end
  t.eq(resumed, 1, "one match continued from its event log")

  -- what the server saw, as conversations
  local seen, distinct = {}, 0
  for _, l in ipairs(s:log()) do
    local body = l.body and json.decode(l.body)
    if body and body.input then
      local k = key(body.input)
      if not seen[k] then seen[k] = true; distinct = distinct + 1 end
    end
  end
  local requests = s:requests()
  s:close()
  t.ok(distinct >= 20, distinct .. " distinct requests")

  -- the transcripts: every conversation the server saw, each paid call once
  local shown, paid, calls = {}, 0, 0
  local transcript_calls = {}
  for _, r in ipairs(recs) do
    local tr = assert(transcripts.load(run, r.match_id))
    transcript_calls[r.match_id] = #tr.calls
    for _, c in ipairs(tr.calls) do
      shown[key(c.messages)] = true
      calls = calls + 1
      if c.reply and not c.reply.cached then paid = paid + 1 end
    end
  end
  local missing = 0
  for k in pairs(seen) do if not shown[k] then missing = missing + 1 end end
  t.eq(missing, 0, string.format("of the %d conversations the server saw, %d are missing from the transcripts (%d calls shown)",
    distinct, missing, calls))
  t.ok(paid <= requests, string.format("%d paid calls shown for %d requests", paid, requests))
  -- and every call the spend journal counted as answered
  local settled = 0
  for _, l in ipairs(records.read(run .. "/spend.jsonl")) do
    if not l.unsettled and not l.from_cache then settled = settled + l.calls end
  end
  -- (a kill between a reply's settling and its journal line leaves it to the cache: shown as replayed)
  t.ok(paid >= settled - 2, string.format("%d paid calls shown, %d answered calls in spend.jsonl", paid, settled))
  t.eq(fs.kind(run .. "/transcripts/open") == "dir" and #fs.list(run .. "/transcripts/open") or 0, 0,
    "no call journal is left once every match is finished")

  -- tabula show RUN MATCH shows them all
  for _, r in ipairs(recs) do
    local text = t.sh(t.tabula_bin() .. " show " .. t.quote(run) .. " " .. r.match_id)
    t.contains(text, string.format("### participant llm (%d calls)", transcript_calls[r.match_id]))
    local recorded = 0
    for _, n in ipairs(r.calls) do recorded = recorded + n end
    t.ok(transcript_calls[r.match_id] >= recorded, string.format("%s: %d calls in its transcript, %d in its record",
      r.match_id, transcript_calls[r.match_id], recorded))
  end
end)

return T
