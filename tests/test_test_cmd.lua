-- tabula test: the temporary files and folders its tests make are gone when every
-- test passed, stay (and are named) when one failed, and a kept one stays always.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local test, T = t.suite()

-- a test file that makes a folder with a file in it, a plain temporary file and its
-- .png sibling, and a kept folder, writes their paths to LIST, and fails when FAIL is set
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
  fs.write_atomic(%q, table.concat({ d, f, f .. ".png", k }, "\n"))
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
  t.eq(#paths, 4, "the test wrote its paths: " .. out)
  return out, paths
end

test("tabula test removes its tests' temporary files after a passing run, keeps a kept one", function()
  local out, p = run(false)
  t.contains(out, "1 passed, 0 failed")
  t.eq(fs.kind(p[1]), nil, "the folder and what is in it")
  t.eq(fs.kind(p[2]), nil, "the temporary file")
  t.eq(fs.kind(p[3]), nil, "the file beside it")
  t.eq(fs.kind(p[4]), "dir", "the kept folder")
  os.execute("rm -rf '" .. p[4] .. "'")
end)

test("tabula test keeps its tests' temporary files after a failing run, and says so", function()
  local out, p = run(true)
  t.contains(out, "0 passed, 1 failed")
  t.contains(out, "temporary files kept: ")
  t.eq(fs.kind(p[1]), "dir")
  t.eq(fs.kind(p[3]), "file")
  os.execute(string.format("rm -rf '%s' '%s' '%s' '%s'", p[1], p[2], p[3], p[4]))
end)

return T
