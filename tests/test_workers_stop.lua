-- How a run stops early: a model server that cannot be reached at all stops
-- it at once (one line naming the URL), and Ctrl-C (SIGINT) says what is
-- recorded, kills the workers, writes report.html of the recorded trials and
-- exits 130.
-- slow: runs interrupted by signals and dying servers, with worker processes (left out by make check)
local t = require "tabula.testing"
local fs = require "tabula.fs"
local records = require "tabula.records"
local proc = require "tabula.c.proc"
local child = require "tests.child"
local test, T = t.suite()

local SCEN = t.root() .. "/tests/faulty_scenario.lua"   -- one model call per trial

test("a refused connection on the first calls stops the run with one line naming the URL", function()
  local dir = t.tmpdir()
  -- --max-attempts 2 --retries 0 keep the run short even where it would retry (before this was fixed)
  local rc, out = child.run({ "run", SCEN, "--model", "local:http://127.0.0.1:1/v1:x", "--trials", "20",
    "--max-attempts", "2", "--retries", "0", "--out", dir .. "/run", "--quiet" }, 120)
  t.eq(rc, 2, out)
  local lines = {}
  for l in out:gmatch("[^\n]+") do lines[#lines + 1] = l end
  t.eq(#lines, 1, out)
  t.contains(lines[1], "configuration error, the run stopped: model local:http://127.0.0.1:1/v1:x at http://127.0.0.1:1/v1/chat/completions")
  t.eq(fs.kind(dir .. "/run/trials.jsonl") and #(records.read(dir .. "/run/trials.jsonl")) or 0, 0)
end)

test("later in a run a refused connection stays transient (the server answered before)", function()
  local agent = require "tabula.agent"
  local mock = require "tests.mock"
  local s = mock.start()
  local a = agent.new({ name = "m", provider = "openai", base_url = s.url .. "/v1", model = "m" },
    { max_attempts = 1, backoff = 0.01 })
  t.ok((a:reply({ { role = "user", content = "hello" } })))
  s:close()   -- the server goes away: now the connection is refused
  local reply, err = a:reply({ { role = "user", content = "again" } })
  t.eq(reply, nil)
  t.eq(err.kind, "transport")
  t.ok(not err.config, "a refused connection after a reply is not a configuration error")
end)

-- interrupt(sig): a run with two workers gets sig once a few trials are
-- recorded; it must say what is recorded, exit 128 + sig with its workers
-- killed, and the same command must finish the run with no duplicate
local function interrupt(sig)
  local mock = require "tests.mock"
  local s = mock.start(nil, { "--delay-ms", "100" })
  local dir = t.tmpdir()
  local args = { "run", SCEN, "--model", "local:" .. s.url .. "/v1:m", "--trials", "40", "--concurrency", "2",
    "--workers", "2", "--out", dir .. "/run", "--quiet" }
  local c = child.start(args)
  local function n_recorded()
    return fs.kind(dir .. "/run/trials.jsonl") and #(records.read(dir .. "/run/trials.jsonl")) or 0
  end
  child.until_true(function() return n_recorded() >= 3 end, 30, "three records")
  local workers = child.children(c.pid)
  t.eq(#workers, 2)
  proc.signal(c.pid, sig)
  local rc, out = c:finish(30)
  t.eq(rc, 128 + sig, out)
  local n = n_recorded()
  t.ok(n < 40)
  t.contains(out, string.format("interrupted: %d of 40 trials recorded; run the same command to continue", n))
  -- report.html of what is recorded, saying so
  t.contains(out, "wrote " .. dir .. "/run/report.html (the trials recorded so far)")
  t.contains(fs.read(dir .. "/run/report.html"), "Written when the run was interrupted, at ")
  t.contains(fs.read(dir .. "/run/report.html"), string.format(": %d of 40 trials recorded.", n))
  -- a SIGKILL is delivered asynchronously: on a loaded machine a worker may still be
  -- running for a moment after the parent exited (bounded wait, then it must be gone)
  for _, pid in ipairs(workers) do
    local ok = pcall(child.until_true, function() return not child.alive(pid) end, 3, "worker " .. pid .. " to die")
    t.ok(ok, "worker " .. pid .. " outlived the interrupt")
  end
  rc, out = child.run(args, 60)
  t.eq(rc, 0, out)
  local ids = {}
  for _, r in ipairs((records.read(dir .. "/run/trials.jsonl"))) do
    t.eq(ids[r.trial_id], nil, "a duplicate record")
    ids[r.trial_id] = true
  end
  t.eq(n_recorded(), 40)
  -- the run's end replaced the interrupted page
  t.ok(not fs.read(dir .. "/run/report.html"):find("interrupted", 1, true), "a stale report.html")
  s:close()
end

test("Ctrl-C: 'interrupted: N of M trials recorded', exit 130, workers killed; the same command continues", function()
  interrupt(2)    -- SIGINT
end)

test("SIGTERM: the same line, exit 143, workers killed", function()
  interrupt(15)
end)

test("a run refused before its trials began (a different run in --out) leaves no worker processes behind", function()
  local dir = t.tmpdir()
  local function go(n)
    return t.run_scenario("examples/checks_mc.lua", { "--model", "random", "--limit", tostring(n), "--out", dir .. "/run",
      "--quiet", "--workers", "2" })
  end
  t.eq(go(2), 0)
  local before = #child.children(proc.getpid())
  t.raises(function() go(3) end, "holds")
  local ok = pcall(child.until_true, function() return #child.children(proc.getpid()) <= before end, 5, "the workers to go")
  t.ok(ok, "worker processes outlived the refused run")
end)

return T
