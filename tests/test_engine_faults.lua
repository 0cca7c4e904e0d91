-- Faulty UCI engines (tests/fake_uci.lua): a NUL byte or an illegal move as
-- bestmove, an engine that never stops talking, lines without end. Each is
-- bounded in time.
local t = require "tabula.testing"
local engine = require "tabula.engine"
local records = require "tabula.records"
local fs = require "tabula.fs"
local loop = require "tabula.loop"
local test, T = t.suite()

local tmpdir = t.tmpdir

-- an executable that starts the fake engine in MODE
local bin_dir
local function fake(mode)
  bin_dir = bin_dir or tmpdir()
  local path = bin_dir .. "/fake-" .. mode
  fs.write_atomic(path, string.format("#!/bin/sh\nexec %s %s/tests/fake_uci.lua %s\n", t.tabula_bin(), t.root(), mode))
  assert(os.execute("chmod +x " .. path))
  return path
end

local FEN = "4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1"

-- run one XiangqiBench trial (random agent) against the fake defender -> rc, out dir, stderr text
local function bench(mode, extra, out)
  out = out or (tmpdir() .. "/run")
  local args = { "run", t.root() .. "/scenarios/xiangqibench.lua", "--model", "random", "--defender", "uci:" .. fake(mode),
    "--limit", "1", "--trials", "1", "--max-plies", "4", "--quiet", "--out", out, "--retries", "0", "--no-transcripts" }
  for _, a in ipairs(extra or {}) do args[#args + 1] = a end
  local d = tmpdir()
  local h = io.popen(string.format("%s %s > %s/out 2> %s/err; echo $?", t.tabula_bin(), table.concat(args, " "), d, d))
  local rc = tonumber(h:read("a")); h:close()
  return rc, out, fs.read(d .. "/err") or ""
end

test("a NUL byte in bestmove: the fallback answers, the record holds it, said once on stderr", function()
  local rc, out, err = bench("nul")
  t.eq(rc, 0, err)
  local recs = records.read(out .. "/trials.jsonl")
  t.eq(#recs, 1)
  t.ok(recs[1].status == "success" or recs[1].status == "failure", "scored")
  local fb = recs[1].defender_moves[1]
  t.eq(fb.backend, "fallback")
  t.contains(fb.reason or recs[1].moves[2].defender.reason, "engine answered h\0x")
  t.ok(utf8.len(fs.read(out .. "/trials.jsonl")), "valid UTF-8")
  local _, n = err:gsub("the fallback defender answered", "")
  t.eq(n, 1, "said once for the trial")
  -- and a resume reads the records back: nothing left to run
  local rc2, _, err2 = bench("nul", {}, out)
  t.eq(rc2, 0, err2)
  t.contains(err2, "resuming: 1 of 1 trials already recorded")
end)

test("--no-defender-fallback: an illegal engine move is an infrastructure error, not scored", function()
  local rc, out, err = bench("illegal", { "--no-defender-fallback" })
  t.eq(rc, 3, err)
  local recs = records.read(out .. "/trials.jsonl")
  t.eq(#recs, 1)
  t.eq(recs[1].status, "error")
  t.contains(recs[1].error, "engine answered a0a9, not a legal move here")
  rc, out = bench("illegal")                        -- with the fallback, the trial is scored
  t.eq(rc, 0)
  t.ok(records.read(out .. "/trials.jsonl")[1].status ~= "error")
end)

local function go(mode, timeout)
  local e = engine.uci({ name = "fake", argv = { fake(mode) }, timeout = timeout or 5 })
  local t0 = loop.now()
  local ok, res = pcall(e.go, e, { fen = FEN, depth = 1 })
  e:close()
  return ok, res, loop.now() - t0
end

test("an engine that never stops talking still times out", function()
  local ok, err, took = go("chatty", 0.5)
  t.eq(ok, false)
  t.ok(engine.is_failure(err))
  t.contains(err.message, "did not answer within 0.5s")
  t.ok(took < 5, "stopped at the deadline, not when the engine fell silent (" .. took .. " s)")
end)

test("engine lines are capped, and long ones are read in linear time", function()
  local ok, err = go("long")
  t.eq(ok, false)
  t.contains(err.message, "sent a line longer than " .. engine.MAX_LINE .. " bytes")
  local ok2, res, took = go("bigline")
  t.ok(ok2, tostring(res))
  t.eq(res.bestmove, "a0a9")
  t.ok(took < 3, "a 900 KB line took " .. took .. " s")
end)

test("--defender-timeout (and ChessArena's --engine-timeout) are options", function()
  local run = require("tabula.cmd.run").lib
  local s = run.load(t.root() .. "/scenarios/xiangqibench.lua")
  local opts = require("tabula.cli").parse(run.spec(s), { "--defender-timeout", "2.5" })
  t.eq(opts["defender-timeout"], 2.5)
  local arena = run.load(t.root() .. "/scenarios/chessarena.lua")
  t.eq(require("tabula.cli").parse(run.spec(arena), { "--engine-timeout", "4" })["engine-timeout"], 4)
  local rc, out = bench("chatty", { "--defender-timeout", "0.3", "--no-defender-fallback" })
  t.eq(rc, 3)
  t.contains(records.read(out .. "/trials.jsonl")[1].error, "did not answer within 0.3s")
end)

return T
