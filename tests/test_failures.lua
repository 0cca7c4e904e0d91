-- Failure handling (issue 12): faulty model servers (tests/mock_server.c
-- faults), a full disk, a second run on one directory, bugs and bad input;
-- each run is small and bounded in time.
-- slow: faulty model servers: timeouts, dropped connections and retries (left out by make check)
local t = require "tabula.testing"
local mock = require "tests.mock"
local agent = require "tabula.agent"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local loop = require "tabula.loop"
local test, T = t.suite()

local SCENARIO = t.root() .. "/tests/faulty_scenario.lua"

local tmpdir = t.tmpdir

local function model_of(s) return "local:" .. s.url .. "/v1:mock" end

-- run the faulty scenario in this process -> ok, rc | error text, out dir
local function run(s, args)
  local out = tmpdir() .. "/run"
  local all = { "--model", model_of(s), "--out", out, "--quiet", "--no-transcripts", "--max-attempts", "2" }
  for _, a in ipairs(args or {}) do all[#all + 1] = a end
  local ok, rc = pcall(t.run_scenario, SCENARIO, all)
  if not ok then rc = type(rc) == "table" and rc.message or tostring(rc) end
  return ok, rc, out
end

-- run a shell command line -> exit status, stdout, stderr
local function sh(cmd)
  local d = tmpdir()
  local h = io.popen(string.format("( %s ) > %s/out 2> %s/err; echo $?", cmd, d, d))
  local rc = tonumber(h:read("a")); h:close()
  return rc, fs.read(d .. "/out") or "", fs.read(d .. "/err") or ""
end

local function lines_of(path)
  local out = {}
  for line in (fs.read(path) or ""):gmatch("[^\n]+") do out[#out + 1] = line end
  return out
end

-- 1. bytes from outside never crash a run, and records stay valid UTF-8 JSON
test("a reply with invalid UTF-8 and \\u0000 is recorded as valid UTF-8 JSON, saying so", function()
  local s = mock.start({ { fault = "bad_bytes" } })
  local ok, rc, out = run(s, { "--trials", "2" })
  t.ok(ok, rc)
  t.eq(rc, 0)
  local files = { out .. "/trials.jsonl" }
  for _, sub in ipairs(fs.list(out .. "/cache") or {}) do
    for _, f in ipairs(fs.list(out .. "/cache/" .. sub) or {}) do files[#files + 1] = out .. "/cache/" .. sub .. "/" .. f end
  end
  t.ok(#files >= 3, "records and two cache files")
  for _, f in ipairs(files) do
    local text = fs.read(f)
    t.ok(utf8.len(text), f .. " is valid UTF-8")
  end
  local recs = records.read(out .. "/trials.jsonl")
  t.eq(#recs, 2)
  t.eq(recs[1].text, "win \u{FFFD}\u{FFFD} and \0 nul")   -- the NUL kept, the two bad bytes replaced
  t.eq(recs[1].replaced_invalid_utf8, 2)
  t.eq(recs[1].status, "success")
  s:close()
end)

test("json: any byte string encodes; \\u0000 decodes; 1e999 is refused", function()
  local text, replaced = json.encode({ s = "a\0b\255", ["k\254"] = 1 })
  t.ok(utf8.len(text), "valid UTF-8")
  t.eq(replaced, 2)
  t.eq(json.decode(text), { s = "a\0b\u{FFFD}", ["k\u{FFFD}"] = 1 })
  t.eq(json.decode('"x\\u0000y"'), "x\0y")
  local v, err = json.decode('{"a": 1e999}')
  t.eq(v, nil)
  t.contains(err, "number out of range")
  t.eq(json.decode("[1e308]")[1], 1e308)
end)

-- 2. one run per directory
test("a second run on a locked directory stops at once, naming the process", function()
  local s = mock.start({ { reply = "win" } })
  local out = tmpdir() .. "/run"
  fs.mkdir_p(out)
  local lock = assert(fs.lock(out .. "/.lock"))       -- as another run would hold it
  local ok, msg = pcall(t.run_scenario, SCENARIO, { "--model", model_of(s), "--out", out, "--quiet", "--trials", "3" })
  t.eq(ok, false)
  msg = msg.message or tostring(msg)
  t.contains(msg, out .. " is in use by another run (process " .. require("tabula.c.proc").getpid())
  t.eq(s:requests(), 0, "no trial ran")
  t.eq(fs.kind(out .. "/trials.jsonl"), nil)
  lock:unlock()
  local ok2, rc = pcall(t.run_scenario, SCENARIO, { "--model", model_of(s), "--out", out, "--quiet", "--trials", "3" })
  t.ok(ok2, tostring(rc))
  t.eq(#records.read(out .. "/trials.jsonl"), 3)
  s:close()
end)

-- 3. a full disk (a file size limit: writes fail with EFBIG)
test("a full disk stops the run with one line, earlier records intact; cache failures reported once", function()
  t.need_program("/bin/bash")
  local s = mock.start({ { reply = "win" } })
  local out = tmpdir() .. "/run"
  fs.mkdir_p(out)
  fs.write_atomic(out .. "/cache", "not a directory")   -- the cache cannot be written
  local rc, _, err = sh(string.format("/bin/bash -c \"trap '' XFSZ; ulimit -f 6; exec %s run %s --model %s --out %s --trials 40 --pad 600 --concurrency 1 --quiet --no-transcripts\"",
    t.tabula_bin(), SCENARIO, model_of(s), out))
  t.ok(rc ~= 0, "non-zero exit")
  t.ok(not err:find("internal error", 1, true) and not err:find("traceback", 1, true), err)
  t.contains(err, "tabula: " .. out .. "/trials.jsonl: cannot append record: File too large")
  local _, n = err:gsub("the response cache cannot be written", "")
  t.eq(n, 1, "the cache failure is reported once")
  local recs, info = records.read(out .. "/trials.jsonl", { skip_bad = true })
  t.ok(#recs >= 3 and #recs < 40, #recs .. " records")
  t.eq(#info.bad, 0)
  s:close()
end)

-- 4. configuration errors stop the run
test("401 stops the run: no more requests, nothing recorded as error, one line", function()
  for _, code in ipairs({ "401", "403", "404", "400" }) do
    local s = mock.start({ { fault = code } })
    local ok, msg, out = run(s, { "--trials", "30", "--concurrency", "4", "--retries", "2" })
    t.eq(ok, false, code)
    t.contains(msg, "configuration error, the run stopped: model " .. model_of(s) .. " at " .. s.url
      .. "/v1/chat/completions: HTTP " .. code .. ": mock fault " .. code)
    t.ok(not msg:find("\n"), "one line")
    t.ok(s:requests() <= 4, code .. ": " .. s:requests() .. " requests (at most the trials in flight)")
    t.eq(#records.read(out .. "/trials.jsonl"), 0, "no trial recorded as error")
    s:close()
  end
end)

-- 5. timeouts: a stream that trickles forever is cut by the call's deadline
test("the call deadline is enforced while a reply streams in", function()
  local s = mock.start({ { fault = "trickle" } })
  local a = agent.new({ name = "m", provider = "openai", base_url = s.url .. "/v1", model = "m" },
    { stream = true, idle_timeout = 5, time_budget = 0.6, max_attempts = 3, backoff = 0.01 })
  local t0 = loop.now()
  local r, err = a:reply({ { role = "user", content = "hi" } })
  t.eq(r, nil)
  t.ok(loop.now() - t0 < 3, "stopped near the deadline, not after the 10 s trickle")
  t.contains(err.message, "deadline of 0.6s")
  s:close()
end)

test("run options: request and idle timeouts, call deadline, in-flight and reply limits reach the agent", function()
  local run_cmd = require("tabula.cmd.run").lib
  local s = run_cmd.load(SCENARIO)
  local opts = require("tabula.cli").parse(run_cmd.spec(s), { "--request-timeout", "7", "--idle-timeout", "8",
    "--call-deadline", "9", "--concurrency", "100", "--max-reply-bytes", "1000" })
  t.eq(require("tabula.failures").agent_options(opts),
    { timeout = 7, idle_timeout = 8, time_budget = 9, max_in_flight = 100, max_reply_bytes = 1000 })
  t.raises(function() require("tabula.cli").parse(run_cmd.spec(s), { "--max-in-flight", "0" }) end,
    "option --max-in-flight must be at least 1")
end)

-- 8. in-flight limit: the run's concurrency, not a hidden 64
test("requests in flight per model follow --concurrency (and --max-in-flight)", function()
  local s = mock.start({ { reply = "win", delay_ms = 300 } })
  local ok, rc = run(s, { "--trials", "80", "--concurrency", "80" })
  t.ok(ok, rc)
  t.eq(json.decode(s:get("/_stats")).max_active, 80)
  s:close()
  s = mock.start({ { reply = "win", delay_ms = 100 } })
  ok, rc = run(s, { "--trials", "12", "--concurrency", "12", "--max-in-flight", "3" })
  t.ok(ok, rc)
  t.eq(json.decode(s:get("/_stats")).max_active, 3)
  s:close()
end)

-- 9. the server's words, and malformed replies as infrastructure errors
test("error bodies are shown with --stream and in 200 replies; non-text content is malformed", function()
  local cfg = function(s) return { name = "m", provider = "openai", base_url = s.url .. "/v1", model = "m" } end
  local fast = { max_attempts = 2, backoff = 0.01 }
  local s = mock.start({ { fault = "401" } })
  local a = agent.new(cfg(s), { stream = true, max_attempts = 2, backoff = 0.01 })
  local _, err = a:reply({ { role = "user", content = "hi" } })
  t.contains(err.message, "HTTP 401: mock fault 401")
  t.eq(err.config, true)
  s:close()
  s = mock.start({ { fault = "error200" } })
  _, err = agent.new(cfg(s), fast):reply({ { role = "user", content = "hi" } })
  t.contains(err.message, "the model is overloaded, mock says")
  t.eq(err.kind, "malformed")
  s:close()
  local base = { openai = "/v1", ["openai-chat"] = "/v1", anthropic = "/v1", gemini = "/v1beta" }
  for provider, path in pairs(base) do
    for _, f in ipairs({ "null_content", "number_content" }) do
      s = mock.start({ { fault = f } })
      local r
      r, err = agent.new({ name = "m", provider = provider, base_url = s.url .. path, model = "m" }, fast)
        :reply({ { role = "user", content = "hi" } })
      t.eq(r, nil, provider .. " " .. f)
      t.eq(err.kind, "malformed", provider .. " " .. f)
      t.contains(err.message, provider == "gemini" and "holds no text" or "not text", provider .. " " .. f .. ": the content is named")
      t.eq(s:requests(), 2, "retried")
      s:close()
    end
  end
end)

-- 10. reply size limit
test("a reply past --max-reply-bytes is an infrastructure error, not retried", function()
  local s = mock.start({ { fault = "big" } })
  local a = agent.new({ name = "m", provider = "openai", base_url = s.url .. "/v1", model = "m" },
    { max_attempts = 3, backoff = 0.01, max_reply_bytes = 100000 })
  local r, err = a:reply({ { role = "user", content = "hi" } })
  t.eq(r, nil)
  t.eq({ err.infra, err.kind }, { true, "too_large" })
  t.contains(err.message, "larger than 100000 bytes")
  t.eq(s:requests(), 1)
  s:close()
end)

-- 11. a bug in scenario code: the scenario's file:line first
test("a runtime error in a scenario shows the scenario's file:line on the first line", function()
  local s = mock.start({ { reply = "win" } })
  local rc, _, err = sh(string.format("%s run %s --model %s --out %s --bug --quiet --trials 1",
    t.tabula_bin(), SCENARIO, model_of(s), tmpdir() .. "/run"))
  t.ok(rc ~= 0)
  local first = err:match("^[^\n]*")
  t.contains(first, "tabula: bug in the scenario at ")
  local n = 0
  for line in fs.read(SCENARIO):gmatch("[^\n]*\n") do
    n = n + 1
    if line:find("trial.missing.field", 1, true) then break end
  end
  t.contains(first, "faulty_scenario.lua:" .. n .. " ")
  t.ok(not first:find("internal error", 1, true))
  s:close()
end)

-- 12. keys echoed by a server are redacted everywhere
test("a key echoed in an error message is redacted from records and output", function()
  local s500 = mock.start({ { fault = "500", echo_auth = true } })
  local s401 = mock.start({ { fault = "401", echo_auth = true } })
  local dir = tmpdir()
  local secret = "sk-echo-" .. string.rep("Q9x", 10)
  fs.write_atomic(dir .. "/models.lua", string.format([[return {
    m500 = { provider = "openai", model = "x", base_url = %q, key_env = "TABULA_ECHO_KEY" },
    m401 = { provider = "openai", model = "x", base_url = %q, key_env = "TABULA_ECHO_KEY" } }]],
    s500.url .. "/v1", s401.url .. "/v1"))
  local base = string.format("cd %s && TABULA_ECHO_KEY=%s %s run %s --models %s/models.lua --retries 0 --max-attempts 1 --no-transcripts --trials 2",
    dir, secret, t.tabula_bin(), SCENARIO, dir)
  -- a 500 that echoes the key: recorded as an error; a 401: the run stops with one line
  local rc, out, err = sh(base .. " --model m500 --out " .. dir .. "/r500")
  t.eq(rc, 3, "infrastructure errors, not scored")
  local rc2, out2, err2 = sh(base .. " --model m401 --out " .. dir .. "/r401")
  t.ok(rc2 ~= 0)
  t.contains(err2, "HTTP 401: mock fault 401: bad key in Authorization: Bearer [redacted]")
  local texts = { out, err, out2, err2 }
  local function scan(p)
    for _, name in ipairs(fs.list(p) or {}) do
      local f = p .. "/" .. name
      if fs.kind(f) == "dir" then scan(f) elseif name ~= "models.lua" then texts[#texts + 1] = fs.read(f) end
    end
  end
  scan(dir)
  local recorded = fs.read(dir .. "/r500/trials.jsonl") or ""
  t.contains(recorded, "Bearer [redacted]")
  for _, text in ipairs(texts) do
    t.ok(not text:find(secret, 1, true), "the key leaked: " .. text:sub(1, 200))
  end
  s500:close(); s401:close()
end)


-- 11. bad input: one line naming the file and the line or item, never a stack trace
test("bad input everywhere gives one line naming the place", function()
  local d = tmpdir()
  local function file(name, text) fs.write_atomic(d .. "/" .. name, text); return d .. "/" .. name end
  local good_case = '{"id": "c1", "fen": "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"}'
  local P = '"id": 1, "Red": "K", "Black": "k", "correctAnswer": "A", "circumstance": "x", "header": "h"'
  local problems = function(body) return '{"problems": [' .. body .. ']}' end
  local xb, jh, cp = "scenarios/xiangqibench.lua", "scenarios/jianghu108.lua", "scenarios/chess_puzzles.lua"
  local cases = {
    { { "run", xb, "--cases", file("null.jsonl", good_case .. "\nnull\n") }, "null.jsonl:2: a case must be a JSON object" },
    { { "run", xb, "--cases", file("arr.jsonl", "\n[1, 2]\n") }, "arr.jsonl:2: a case must be a JSON object" },
    { { "run", xb, "--cases", file("inf.jsonl", '{"id": "c", "fen": "x", "n": 1e999}\n' .. good_case .. "\n") },
      "inf.jsonl:1: invalid JSON record: line 1, column 30 (byte 29): number out of range" },
    { { "run", jh, "--data", file("p1.json", problems("5")) }, "p1.json: problem 1 is not a JSON object" },
    { { "run", jh, "--data", file("p2.json", problems("{" .. P .. ', "options": [1, 2, 3, 4, 5]}')) },
      "p2.json: problem 1: option 1 is not a string" },
    { { "run", jh, "--data", file("p3.json", problems('{"id": 1, "Red": 5, "Black": "k", "options": [], "correctAnswer": "A", "circumstance": "x", "header": "h"}')) },
      "p3.json: problem 1: \"Red\" is not a string" },
    { { "run", cp, "--puzzles", file("z1.jsonl", "null\n") }, "z1.jsonl:1: a puzzle must be a JSON object" },
    { { "run", cp, "--puzzles", file("z2.jsonl", '{"PuzzleId": "a", "FEN": "8/8/8/8/8/8/8/K6k w - - 0 1", "Rating": 900}\n') },
      "z2.jsonl:1: \"Moves\" must list at least two moves" },
    { { "run", cp, "--puzzles", file("z3.jsonl", '{"PuzzleId": "a", "FEN": "8/8/8/8/8/8/8/K6k w - - 0 1", "Moves": ["a1a2", "h1h8"], "Rating": 900}\n') },
      "z3.jsonl:1: puzzle a: move 2 (h1h8) is not legal" },
    { { "perft", "chess", "startpos", "11" }, "perft: depth 11 is out of range for chess (0..10)" },
    { { "run", xb, "--model", "replay:" .. file("r.jsonl", '{"text": "move a"}\nnull\n') }, "r.jsonl:2: a replay line must be a JSON object" },
    { { "run", xb, "--trials", "-5" }, "option --trials must be at least 1, got '-5'" },
    { { "run", xb, "--concurrency", "0" }, "option --concurrency must be at least 1, got '0'" },
    { { "run", xb, "--temperature", "1e999" }, "option --temperature expects a finite number, got '1e999'" },
  }
  for i, c in ipairs(cases) do
    local args = {}
    for k, a in ipairs(c[1]) do args[k] = "'" .. a .. "'" end
    if c[1][1] == "run" then args[#args + 1] = string.format("--out %s/out-%d --quiet", d, i) end
    local rc, _, err = sh(string.format("cd %s && %s %s", t.root(), t.tabula_bin(), table.concat(args, " ")))
    t.ok(rc ~= 0, c[2])
    t.eq(err:sub(1, 8), "tabula: ", err)
    t.contains(err, c[2])
    t.eq(select(2, err:gsub("\n", "")), 1, "one line: " .. err)
  end
end)

return T
