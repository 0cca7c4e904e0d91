-- Scale: worker processes write the same records as one process; shards
-- merge into the unsharded run; reading a run's ids streams.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local proc = require "tabula.c.proc"
local loop = require "tabula.loop"
local test, T = t.suite()

local tmpdir = t.tmpdir

-- records by trial id, without the fields that measure time
local TIMING = { seconds = true, elapsed = true, started = true, finished = true }
local function strip(v)
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do
    if not TIMING[k] then out[k] = strip(x) end
  end
  return out
end
local function by_id(dir)
  local out, n = {}, 0
  for _, r in ipairs((records.read(dir .. "/trials.jsonl"))) do
    out[r.trial_id] = strip(r); n = n + 1
  end
  return out, n
end

-- tabula ARGS... as a child process -> exit code, stdout..stderr
local function tabula(args)
  local out = os.tmpname()
  local argv = { "/bin/sh", "-c", '"$0" "$@" >' .. out .. " 2>&1", t.tabula_bin() }
  for _, a in ipairs(args) do argv[#argv + 1] = a end
  local p = assert(proc.spawn(argv, "null"))
  local code
  while true do
    local done, _, c = p:reap(false)
    if done then code = c; break end
    loop.sleep(0.02)
  end
  local text = fs.read(out) or ""
  os.remove(out)
  return code, text
end

local XB = { "--limit", "3", "--trials", "2", "--quiet", "--concurrency", "4", "--defender-nodes", "3000" }   -- a small defender: these tests compare runs, not play
local function xb(extra)
  local args = { "run", "scenarios/xiangqibench.lua" }
  for _, a in ipairs(XB) do args[#args + 1] = a end
  for _, a in ipairs(extra) do args[#args + 1] = a end
  return tabula(args)
end

test("workers: two worker processes record exactly what one process records", function()
  local d1, d2 = tmpdir(), tmpdir()
  local rc1 = xb({ "--workers", "1", "--out", d1 })
  local rc2, out2 = xb({ "--workers", "2", "--out", d2 })
  t.eq(rc1, 0); t.eq(rc2, 0, out2)
  local a, na = by_id(d1)
  local b, nb = by_id(d2)
  t.eq(na, 6); t.eq(nb, 6)
  t.eq(b, a)
  -- the workers record the conversations too
  local tr = require "tabula.transcripts"
  local ids1, ids2 = tr.ids(d1), tr.ids(d2)
  table.sort(ids1); table.sort(ids2)
  t.eq(#ids1, 6); t.eq(ids2, ids1)
  t.eq(#tr.load(d2, ids1[1]).calls, #tr.load(d1, ids1[1]).calls)
end)

test("workers: a worker that dies mid-trial is replaced and the trial re-queued", function()
  local dir = tmpdir()
  local marker = dir .. "/died-once"
  local scen = dir .. "/dies.lua"
  fs.write_atomic(scen, string.format([[
local S = { name = "dies", summary = "a worker dies on trial t3, once" }
function S.plan() local ts = {} for i = 1, 6 do ts[i] = { id = "t" .. i } end return ts end
function S.play(trial)
  if trial.id == "t3" and not io.open(%q) then
    io.open(%q, "w"):close()
    os.exit(9)        -- the worker process dies without answering
  end
  return { trial_id = trial.id, status = "success", reason = "ok" }
end
return S
]], marker, marker))
  local rc, out = tabula({ "run", scen, "--workers", "2", "--out", dir .. "/run", "--quiet" })
  t.eq(rc, 0, out)
  t.contains(out, "trial t3: worker")
  local recs, n = by_id(dir .. "/run")
  t.eq(n, 6)
  t.eq(recs.t3.status, "success")
end)

test("shard: three shards merge into the unsharded run, report for report", function()
  local base = tmpdir()
  local shards = {}
  for k = 1, 3 do
    shards[k] = base .. "/s" .. k
    local rc, out = xb({ "--workers", "1", "--shard", k .. "/3", "--out", shards[k] })
    t.eq(rc, 0, out)
  end
  -- a missing shard is named
  local rc, out = tabula({ "merge", base .. "/m", shards[1], shards[3] })
  t.eq(rc, 2); t.contains(out, "shards missing: 2/3")
  -- shards of another run are refused, naming what differs
  local other = base .. "/other"
  xb({ "--workers", "1", "--shard", "2/3", "--seed", "7", "--out", other })
  rc, out = tabula({ "merge", base .. "/m", shards[1], other, shards[3] })
  t.eq(rc, 2); t.contains(out, "option --seed")
  rc, out = tabula({ "merge", base .. "/m", shards[1], shards[2], shards[3] })
  t.eq(rc, 0, out)
  local whole = base .. "/whole"
  t.eq((xb({ "--workers", "1", "--out", whole })), 0)
  local a, na = by_id(whole)
  local b, nb = by_id(base .. "/m")
  t.eq(nb, na); t.eq(b, a)
  t.eq(tabula({ "report", whole }), 0)
  t.eq(tabula({ "report", base .. "/m" }), 0)
  t.eq(json.read_file(base .. "/m/summary.json"), json.read_file(whole .. "/summary.json"))
  local meta = json.read_file(base .. "/m/run.json")
  t.eq(meta.trials_planned, 6)
  t.eq(meta.options.shard, nil)
  -- shards partition the plan: sizes 2/2/2 and no trial in two of them
  local seen = 0
  for k = 1, 3 do local _, n = by_id(shards[k]); t.eq(n, 2); seen = seen + n end
  t.eq(seen, 6)
end)

test("shard: bad values and unshardable scenarios are one-line errors", function()
  local rc, out = xb({ "--shard", "4/3", "--out", tmpdir() })
  t.eq(rc, 2); t.contains(out, "--shard: '4/3' is not K/N")
  rc, out = tabula({ "run", "scenarios/chessarena.lua", "--shard", "1/2", "--arena", tmpdir(), "--players", "random,random" })
  t.eq(rc, 2); t.contains(out, "cannot be split")
end)

test("records: each streams lines, keeps only the asked keys, and reports a torn tail", function()
  local dir = tmpdir()
  local p = dir .. "/r.jsonl"
  fs.write_atomic(p, '{"trial_id":"a","status":"success","big":[1,2,3]}\n{"trial_id":"b","status":"error"}\n{"trial_id":"c"')
  local got = {}
  local info = records.each(p, function(r) got[#got + 1] = r end, { keys = { "trial_id", "status" } })
  t.eq(got, { { trial_id = "a", status = "success" }, { trial_id = "b", status = "error" } })
  t.ok(info.torn); t.eq(info.torn_bytes, 15)
end)

test("records: lines longer than a read block, one ending at a block's end, and a torn tail", function()
  local dir = tmpdir()
  local p = dir .. "/r.jsonl"
  local function rec(id, len)   -- a record line of exactly len bytes with its newline
    local head = '{"trial_id":"' .. id .. '","pad":"'
    return head .. string.rep("x", len - #head - 3) .. '"}\n'
  end
  local block = 1 << 20
  local text = rec("a", block) .. rec("b", 2 * block + 12345) .. rec("c", 40) .. "\n" .. rec("d", 50):sub(1, 20)
  fs.write_atomic(p, text)
  local got = {}
  local info = records.each(p, function(r, lineno) got[#got + 1] = r.trial_id .. ":" .. #r.pad .. "@" .. lineno end)
  t.eq(got, { "a:" .. (block - 26) .. "@1", "b:" .. (2 * block + 12345 - 26) .. "@2", "c:14@3" })
  t.ok(info.torn); t.eq(info.torn_bytes, 20)
  -- a damaged line: skipped and named with skip_bad, else a one-line error naming the file and line
  fs.write_atomic(p, rec("a", 60) .. '{"trial_id":"b",}\n' .. rec("c", 60))
  got = {}
  info = records.each(p, function(r, lineno) got[#got + 1] = r.trial_id .. "@" .. lineno end, { skip_bad = true })
  t.eq(got, { "a@1", "c@3" }); t.eq(#info.bad, 1); t.eq(info.bad[1].line, 2)
  t.contains(info.bad[1].error, "line 1, column 17")
  t.raises(function() records.each(p, function() end) end, p .. ":2: invalid JSON record")
end)

-- the resampling as it was written in Lua, to check the C version against
local function lua_bootstrap(values, draws, seed)
  local metrics = require "tabula.metrics"
  local n = #values
  local rng = metrics.rng(seed)
  local means = {}
  for d = 1, draws do
    local s = 0
    for _ = 1, n do s = s + values[rng(n)] end
    means[d] = s / n
  end
  table.sort(means)
  local function q(p) return means[math.max(1, math.min(draws, math.floor(p * draws + 0.5)))] end
  return q(0.025), q(0.975)
end

test("bootstrap: the C resampling gives exactly the Lua reference's interval", function()
  local metrics = require "tabula.metrics"
  local rng = metrics.rng(3)
  for _, case in ipairs({ { 1, 4000, 7 }, { 5, 4000, 20260101 }, { 130, 4000, 20260101 }, { 37, 999, 1 } }) do
    local n, draws, seed = case[1], case[2], case[3]
    local xs = {}
    for i = 1, n do xs[i] = (rng(1000) - 1) / 999 end
    local lo, hi = metrics.bootstrap_mean(xs, draws, seed)
    local rlo, rhi = lua_bootstrap(xs, draws, seed)
    t.eq(lo, rlo, "lo n=" .. n); t.eq(hi, rhi, "hi n=" .. n)
  end
  t.eq({ metrics.bootstrap_mean({}, 10, 1) }, {})
end)

test("records: each_id reads the index and the records past it; a stale or broken index falls back", function()
  local dir = tmpdir()
  local p = dir .. "/trials.jsonl"
  local w = records.writer(p, { index = true })
  w:write({ trial_id = "a", status = "success", big = { 1, 2, 3 } })
  w:write({ trial_id = "b", status = "error" })
  w:close()
  -- a record written without the index (a crash between the two writes), then a torn line
  local f = io.open(p, "ab"); f:write('{"status":"failure","trial_id":"c"}\n{"trial_id":"d"'); f:close()
  local got = {}
  local info = records.each_id(p, function(r) got[#got + 1] = r.trial_id .. "=" .. r.status end)
  t.eq(got, { "a=success", "b=error", "c=failure" })
  t.ok(info.torn)
  -- an index that does not start at the beginning of the file is not trusted
  fs.write_atomic(p .. ".idx", '{"b":10,"e":20,"id":"x","s":"success"}\n')
  got = {}
  records.each_id(p, function(r) got[#got + 1] = r.trial_id end)
  t.eq(got, { "a", "b", "c" })
  -- no index at all: the records themselves
  os.remove(p .. ".idx")
  got = {}
  records.each_id(p, function(r) got[#got + 1] = r.trial_id end)
  t.eq(got, { "a", "b", "c" })
end)

test("report: streamed XiangqiBench summary equals the in-memory one, superseded errors dropped", function()
  local report = require "scenarios.xiangqibench.report"
  local dir = tmpdir()
  local rc = xb({ "--workers", "1", "--out", dir, "--model", "random", "--setting", "sighted,restricted" })
  t.eq(rc, 0)
  -- an error that a later result supersedes, and one that stays
  local f = io.open(dir .. "/trials.jsonl", "rb"); local text = f:read("a"); f:close()
  local first = json.decode(text:match("^[^\n]+"))
  local lines = { json.canonical({ trial_id = first.trial_id, status = "error", reason = "error", error = "x" }) }
  f = io.open(dir .. "/trials.jsonl", "wb")
  f:write(lines[1], "\n", text, json.canonical({ trial_id = "zz", status = "error", reason = "error", error = "y" }), "\n")
  f:close()
  os.remove(dir .. "/trials.jsonl.idx")
  local meta = json.read_file(dir .. "/run.json")
  local want = report.compute(records.read(dir .. "/trials.jsonl"), meta)
  local got = report.write(dir)
  t.eq(json.canonical(got), json.canonical(want))
  t.eq(got.errors, 1)
  t.eq(got.trials, 12)
end)

return T
