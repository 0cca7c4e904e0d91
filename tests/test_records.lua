-- Records and their index: a damaged or missing record can never hide behind
-- the index. A line whose bytes changed is named with its real line number and
-- its trial runs again; a deleted line re-runs exactly that trial; every
-- reader says how many lines it skipped; an index out of step is rebuilt.
-- slow: runs killed and resumed over damaged records files (left out by make check)
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local cjson = require "tabula.c.json"
local test, T = t.suite()

local q, tabula = t.quote, t.tabula

-- lines(path) -> the file's lines (without newlines)
local function lines(path)
  local out = {}
  for l in (fs.read(path) or ""):gmatch("([^\n]*)\n") do out[#out + 1] = l end
  return out
end

local function write_lines(path, ls)
  local f = assert(io.open(path, "wb"))
  f:write(table.concat(ls, "\n"), "\n")
  f:close()
end

-- one XiangqiBench run of 30 trials (the built-in engine plays: no network), copied per test
local base
local function run30()
  if not base then
    base = t.tmpdir() .. "/xb"
    local rc, out = tabula("run", "scenarios/xiangqibench.lua", "--limit", "15", "--trials", "2", "--quiet", "--out", base)
    assert(rc == 0, out)
  end
  local dir = t.tmpdir() .. "/run"
  assert(t.sh("cp -a " .. q(base) .. " " .. q(dir)):match("rc=0\n$"))
  return dir
end

local function id_of(line) return json.decode(line, { keys = { "trial_id" } }).trial_id end

-- change one byte of line n (same length): keeping it valid JSON, or not
local function corrupt(path, n, keep_json)
  local ls = lines(path)
  local l = ls[n]
  if keep_json then
    local at = assert(l:find('"status":"', 1, true)) + #'"status":"'
    l = l:sub(1, at - 1) .. (l:sub(at, at) == "x" and "y" or "x") .. l:sub(at + 1)   -- "success" -> "xuccess"
  else
    l = "[" .. l:sub(2)
  end
  assert(#l == #ls[n])
  ls[n] = l
  write_lines(path, ls)
end

for _, keep in ipairs({ false, true }) do
  local kind = keep and "still valid JSON" or "no longer JSON"
  test("a byte changed inside record 10 (" .. kind .. "): resume re-runs exactly that trial, naming line 10", function()
    local dir = run30()
    local path = dir .. "/trials.jsonl"
    local want = id_of(lines(path)[10])
    corrupt(path, 10, keep)
    local rc, out = tabula("run", "scenarios/xiangqibench.lua", "--limit", "15", "--trials", "2", "--quiet", "--out", dir)
    t.eq(rc, 0, out)
    local after = lines(path)
    t.eq(#after, 31, out)
    t.eq(id_of(after[31]), want)
    t.contains(out, "resuming: 29 of 30 trials already recorded")
    t.contains(out, path .. ": 1 damaged line skipped, at line 10 (")
  end)

  test("a byte changed inside record 10 (" .. kind .. "): report says 1 damaged line skipped, at line 10", function()
    local dir = run30()
    corrupt(dir .. "/trials.jsonl", 10, keep)
    local rc, out = tabula("report", dir, "--no-html")
    t.eq(rc, 0, out)
    t.eq(json.read_file(dir .. "/summary.json").trials, 29)
    t.contains(out, dir .. "/trials.jsonl: 1 damaged line skipped, at line 10 (")
    -- the viewer, compare and show say it too
    rc, out = tabula("report", dir)
    t.eq(rc, 0, out)
    t.contains(out, "1 damaged line skipped, at line 10")
    rc, out = tabula("compare", dir, base)
    t.contains(out, "1 damaged line skipped, at line 10")
    rc, out = tabula("show", dir)
    t.eq(rc, 0, out)
    t.contains(out, "1 damaged line skipped, at line 10")
  end)
end

test("a record line deleted by hand: exactly that trial runs again, no intact one", function()
  local dir = run30()
  local path = dir .. "/trials.jsonl"
  local ls = lines(path)
  local want = id_of(ls[10])
  table.remove(ls, 10)
  write_lines(path, ls)
  local rc, out = tabula("run", "scenarios/xiangqibench.lua", "--limit", "15", "--trials", "2", "--quiet", "--out", dir)
  t.eq(rc, 0, out)
  local after = lines(path)
  t.eq(#after, 30, out)
  t.eq(id_of(after[30]), want)
  t.contains(out, "resuming: 29 of 30 trials already recorded")
  t.contains(out, "trials.jsonl.idx does not match")
  -- the rebuilt index vouches for every line: a second resume runs nothing and says nothing about it
  rc, out = tabula("run", "scenarios/xiangqibench.lua", "--limit", "15", "--trials", "2", "--quiet", "--out", dir)
  t.eq(rc, 0, out)
  t.contains(out, "resuming: 30 of 30")
  t.eq(out:find("does not match", 1, true), nil, out)
  t.eq(#lines(path), 30)
end)

test("a damaged superseded line is reported, and the trial's final record still counts", function()
  local dir = run30()
  local path = dir .. "/trials.jsonl"
  local ls = lines(path)
  -- rewrite the records through the writer: an infrastructure error for the
  -- first trial comes first, superseded by its result further down
  os.remove(path); os.remove(path .. ".idx")
  local w = records.writer(path, { index = true })
  w:write({ trial_id = id_of(ls[1]), status = "error", reason = "error", error = "provider 503" })
  for _, l in ipairs(ls) do w:write(json.decode(l)) end
  w:close()
  corrupt(path, 1, false)
  local rc, out = tabula("report", dir, "--no-html")
  t.eq(rc, 0, out)
  t.eq(json.read_file(dir .. "/summary.json").trials, 30)
  t.contains(out, "1 damaged line skipped, at line 1 (")
end)

test("an index out of step with its file is rebuilt from the file, with a note", function()
  local dir = run30()
  local path = dir .. "/trials.jsonl"
  local idx = lines(path .. ".idx")
  -- entries missing in the middle, and one pointing past the end of the file
  local e = json.decode(idx[30])
  e.b = e.b + 10 ^ 6 // 1
  local stale = { table.unpack(idx, 1, 5) }
  for i = 12, 29 do stale[#stale + 1] = idx[i] end
  stale[#stale + 1] = json.canonical(e)
  write_lines(path .. ".idx", stale)
  local rc, out = tabula("run", "scenarios/xiangqibench.lua", "--limit", "15", "--trials", "2", "--quiet", "--out", dir)
  t.eq(rc, 0, out)
  t.contains(out, path .. ".idx does not match " .. path)
  t.contains(out, "rebuilt it from the records")
  t.contains(out, "resuming: 30 of 30")
  -- every line has its entry again: offset, length and checksum
  local ls, got = lines(path), lines(path .. ".idx")
  t.eq(#got, 30)
  local offset = 0
  for i, l in ipairs(ls) do
    local x = json.decode(got[i])
    t.eq({ x.b, x.n, x.h, x.id }, { offset, #l, cjson.checksum(l), id_of(l) }, "entry " .. i)
    offset = offset + #l + 1
  end
end)

test("each and each_id skip the same damaged lines, named by their line in the file", function()
  local dir = t.tmpdir()
  local p = dir .. "/trials.jsonl"
  local w = records.writer(p, { index = true })
  for i = 1, 6 do w:write({ trial_id = "t" .. i, status = "success", v = string.rep("a", i) }) end
  w:close()
  local ls = lines(p)
  ls[3] = ls[3]:gsub('"v":"aaa"', '"v":"aab"')   -- same length, valid JSON, wrong bytes
  write_lines(p, ls)
  local a, b = {}, {}
  local ia = records.each(p, function(r, n) a[#a + 1] = r.trial_id .. "@" .. n end, { skip_bad = true, quiet = true })
  local ib = records.each_id(p, function(r, n) b[#b + 1] = r.trial_id .. "@" .. n end, { quiet = true })
  t.eq(a, { "t1@1", "t2@2", "t4@4", "t5@5", "t6@6" })
  t.eq(b, a)
  t.eq(ia.bad[1].line, 3); t.eq(ib.bad[1].line, 3)
  t.contains(ia.bad[1].error, "checksum mismatch")
  -- read strictly, it is an error naming the file and the line
  t.raises(function() records.each(p, function() end) end, p .. ":3: damaged record")
end)

return T
