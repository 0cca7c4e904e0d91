-- Files and records: sha256 vectors, atomic writes, JSONL torn-line recovery
-- (including a writer killed mid-stream), directory listing.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local records = require "tabula.records"
local json = require "tabula.json"
local test, T = t.suite()

local function tmpdir()
  local d = os.tmpname(); os.remove(d)
  assert(fs.mkdir_p(d .. "/a/b"))
  return d
end

test("sha256 of the FIPS 180-4 vectors", function()
  t.eq(fs.sha256(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
  t.eq(fs.sha256("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  t.eq(fs.sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  t.eq(fs.sha256(string.rep("a", 1000000)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  local d = tmpdir()
  fs.write_atomic(d .. "/f", string.rep("a", 1000000))
  t.eq(fs.sha256_file(d .. "/f"), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
end)

test("the reference XiangqiBench cases have their published sha256", function()
  local dir = t.need_shared("xiangqibench")
  t.eq(fs.sha256_file(dir .. "/cases.jsonl"), "3cb4e29148f82cb6d9a881e28336676549225cfe86dd8fb947ccf580f1633d42")
end)

test("mkdir_p, atomic write, list and errors that name the path", function()
  local d = tmpdir()
  t.eq(fs.kind(d .. "/a/b"), "dir")
  assert(fs.write_atomic(d .. "/a/x.txt", "one"))
  assert(fs.write_atomic(d .. "/a/x.txt", "two"))
  t.eq(fs.read(d .. "/a/x.txt"), "two")
  t.eq(fs.list(d .. "/a"), { "b", "x.txt" })          -- no temp file left behind
  local data, err = fs.read(d .. "/missing")
  t.eq(data, nil)
  t.contains(err, d .. "/missing")
  local ok, err2 = fs.mkdir_p(d .. "/a/x.txt/c")
  t.eq(ok, nil)
  t.contains(err2, "Not a directory")
end)

test("a torn last line is skipped on read and cut off when appending", function()
  local d = tmpdir()
  local path = d .. "/trials.jsonl"
  local w = records.writer(path)
  w:write({ id = 1, text = "帥" })
  w:write({ id = 2 })
  w:close()
  local f = io.open(path, "a"); f:write('{"id": 3, "tex'); f:close()   -- a crash mid-write
  local recs, info = records.read(path)
  t.eq(#recs, 2)
  t.eq(info.torn, true)
  t.eq(info.torn_bytes, 14)
  local w2, torn = records.writer(path)
  t.eq(torn, 14)
  w2:write({ id = 3 })
  w2:close()
  recs, info = records.read(path)
  t.eq({ recs[1].id, recs[2].id, recs[3].id, recs[1].text }, { 1, 2, 3, "帥" })
  t.eq(info.torn, false)
end)

test("a broken line in the middle is an error naming file and line", function()
  local d = tmpdir()
  fs.write_atomic(d .. "/r.jsonl", '{"a":1}\n{"a":\n{"a":3}\n')
  local msg = t.raises(function() records.read(d .. "/r.jsonl") end)
  t.contains(msg, d .. "/r.jsonl:2: invalid JSON record")
  local recs, info = records.read(d .. "/r.jsonl", { skip_bad = true })
  t.eq(#recs, 2)
  t.eq(info.bad[1].line, 2)
end)

test("records written by a process killed mid-stream read back intact", function()
  local proc = require "tabula.c.proc"
  local loop = require "tabula.loop"
  local d = tmpdir()
  local path = d .. "/stream.jsonl"
  local script = d .. "/writer.lua"
  -- big records so that a kill often lands inside a write
  fs.write_atomic(script, [[
local records = require "tabula.records"
local w = records.writer(arg[1])
local pad = string.rep("汉界", 3000)
for i = 1, 1000000 do w:write({ i = i, pad = pad }) end
]])
  local p = assert(proc.spawn({ t.tabula_bin(), script, path }, "inherit"))
  -- wait until some records are on disk, then kill without warning
  for _ = 1, 2000 do
    loop.sleep(0.005)
    local text = fs.read(path)
    if text and select(2, text:gsub("\n", "")) >= 50 then break end
  end
  p:kill(9)
  local exited, how = p:reap(true)
  t.eq({ exited, how }, { true, "signal" })
  local recs, info = records.read(path)
  t.ok(#recs >= 50, "at least 50 records were written before the kill")
  for i, r in ipairs(recs) do
    if r.i ~= i or #r.pad ~= 18000 then error("record " .. i .. " is damaged") end
  end
  -- whatever was cut off is reported, and the next writer continues cleanly
  local w, torn = records.writer(path)
  t.eq(torn, info.torn_bytes)
  w:write({ i = #recs + 1, pad = "" })
  w:close()
  local again = records.read(path)
  t.eq(#again, #recs + 1)
end)

return T
