-- tabula test: each file in its own process and scratch directory (its TMPDIR),
-- a line per finished file, a failing file's log shown and a passing file's not,
-- the ten slowest files and the closing line last; the temporary files its tests
-- make are gone when the file passed, stay (and are named) when it failed, and a
-- kept one stays always; --quick leaves out the files marked slow; --no-shared
-- makes every shared-data test say skipped.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local test, T = t.suite()

-- a test file that makes a folder with a file in it, a plain temporary file and its
-- .png sibling, a kept folder, and a file through a shell's mktemp; prints a stray
-- line; writes the paths to LIST, and fails when told to
local BODY = [[
local t = require "tabula.testing"
local fs = require "tabula.fs"
local test, T = t.suite()
test("makes temporary things", function()
  local d = t.tmpdir()
  fs.write_atomic(d .. "/inside.txt", "x")
  local f = os.tmpname()
  fs.write_atomic(f .. ".png", "png")
  local k = t.keep(t.tmpdir())
  local h = io.popen("mktemp"); local m = h:read("l"); h:close()
  print("a stray line from inside the test")
  fs.write_atomic(%q, table.concat({ d, f, f .. ".png", k, m }, "\n"))
  t.ok(not %s, "told to fail")
end)
return T
]]

local function run(fail)
  local d = t.tmpdir()
  local list = d .. "/list"
  fs.write_atomic(d .. "/test_tmp.lua", string.format(BODY, list, fail and "true" or "false"))
  local out = t.sh(string.format("env -u TABULA_KEEP_TMP %s test %s/test_tmp.lua", t.tabula_bin(), d))
  local paths = {}
  for p in (fs.read(list) or ""):gmatch("[^\n]+") do paths[#paths + 1] = p end
  t.eq(#paths, 5, "the test wrote its paths: " .. out)
  return out, paths
end

test("tabula test removes its tests' temporary files after a passing run, keeps a kept one, hides stray output", function()
  local out, p = run(false)
  t.ok(out:find("\n1 passed, 0 failed\nrc=0\n$") ~= nil, "the closing line comes last: " .. out)
  t.ok(out:find("^ok   test_tmp +1 passed +[%d.]+ s\n") ~= nil, "a line for the file: " .. out)
  t.ok(not out:find("a stray line", 1, true), "a passing file's output is not shown")
  t.eq(fs.kind(p[1]), nil, "the folder and what is in it")
  t.eq(fs.kind(p[2]), nil, "the temporary file")
  t.eq(fs.kind(p[3]), nil, "the file beside it")
  t.eq(fs.kind(p[4]), "dir", "the kept folder")
  t.eq(fs.kind(p[5]), nil, "the file a program it started made in its TMPDIR")
  t.contains(out, "kept: " .. p[4])
  local scratch = p[4]:match("^(.*/tabula%-test%-%d+)/")
  t.ok(scratch, "the kept folder is in the run's scratch: " .. p[4])
  os.execute("rm -rf '" .. scratch .. "'")
end)

test("tabula test keeps a failing file's temporary files and log, and shows the log", function()
  local out, p = run(true)
  t.ok(out:find("\n0 passed, 1 failed\nrc=1\n$") ~= nil, "the closing line comes last: " .. out)
  t.ok(out:find("^FAIL test_tmp +0 passed, 1 failed") ~= nil, out)
  t.contains(out, "a stray line from inside the test", "a failing file's log is shown")
  t.contains(out, "told to fail")
  t.contains(out, "scratch directories kept under ")
  t.eq(fs.kind(p[1]), "dir")
  t.eq(fs.kind(p[3]), "file")
  t.eq(fs.kind(p[5]), "file")
  local scratch = assert(out:match("scratch directories kept under (%S+)"))
  t.eq(p[1]:sub(1, #scratch), scratch, "the temporary files are in the named scratch")
  os.execute("rm -rf '" .. scratch .. "'")
end)

-- files(dir, specs): writes test files; spec = { name, header, body of one test }
local function files(dir, specs)
  local paths = {}
  for _, s in ipairs(specs) do
    local p = dir .. "/" .. s[1] .. ".lua"
    fs.write_atomic(p, (s[2] or "") .. "local t = require 'tabula.testing'\nlocal test, T = t.suite()\n"
      .. "test('one', function() " .. s[3] .. " end)\nreturn T\n")
    paths[#paths + 1] = p
  end
  return paths
end

test("tabula test: files in parallel, each counted; a file that dies is a failure; the slowest listed", function()
  local d = t.tmpdir()
  local p = files(d, {
    { "test_a", nil, "t.eq(1, 1)" },
    { "test_b", nil, "t.skip('no reason at all')" },
    { "test_c", nil, "os.exit(0)" },   -- leaves before writing its results
    { "test_d", nil, "t.eq(2, 2)" },
  })
  local out = t.sh(string.format("%s test --jobs 3 %s", t.tabula_bin(), table.concat(p, " ")))
  t.ok(out:find("\n2 passed, 1 failed, 1 skipped\nrc=1\n$") ~= nil, out)
  t.contains(out, "skipped: one: no reason at all")
  t.ok(out:find("FAIL test_c +0 passed, 1 failed %(exited 0 without its results%)") ~= nil, out)
  t.contains(out, "the slowest files (4 files in ")
  t.contains(out, "3 at a time")
  for _, n in ipairs({ "test_a", "test_b", "test_c", "test_d" }) do
    t.ok(out:find("\n +[%d.]+ s  " .. n .. "\n") ~= nil, "listed among the slowest: " .. n)
  end
  local scratch = assert(out:match("scratch directories kept under (%S+)"))
  os.execute("rm -rf '" .. scratch .. "'")
end)

test("tabula test --quick leaves out the files marked slow; --no-shared makes shared data absent", function()
  local d = t.tmpdir()
  local p = files(d, {
    { "test_fast", nil, "t.eq(1, 1)" },
    { "test_long", "-- a long one\n-- slow: a property over many playouts\n", "t.eq(1, 1)" },
    { "test_data", nil, "t.need_shared('xiangqibench')" },
  })
  local out = t.sh(string.format("%s test --quick %s", t.tabula_bin(), table.concat(p, " ")))
  t.contains(out, "test_fast")
  t.ok(not out:find("test_long", 1, true), "the slow file is left out: " .. out)
  out = t.sh(string.format("%s test --no-shared %s", t.tabula_bin(), p[3]))
  t.ok(out:find("\n0 passed, 0 failed, 1 skipped\nrc=0\n$") ~= nil, out)
  t.contains(out, "needs ../shared/data/xiangqibench")
end)

return T
