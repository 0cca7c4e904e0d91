-- libcurl and cairo are opened on first use (src/dynlib.c), not at start: a
-- command that makes no request and draws nothing never loads them.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local test, T = t.suite()

local probe = [[
local function loaded(name)
  local f = assert(io.open("/proc/self/maps")); local s = f:read("a"); f:close()
  return s:find(name, 1, true) and "yes" or "no"
end
io.write("start curl=", loaded("libcurl"), " cairo=", loaded("libcairo"), "\n")
local png = assert(require("tabula.image").xiangqi(require("tabula.c.xiangqi").new(), {}))
io.write("drawn ", png:sub(2, 4), " curl=", loaded("libcurl"), " cairo=", loaded("libcairo"), "\n")
local req = assert(require("tabula.c.http").request { url = "http://127.0.0.1:1/", timeout = 1 })
req:cancel()
io.write("requested curl=", loaded("libcurl"), "\n")
]]

test("libcurl and cairo: not loaded at start, loaded by the first picture and request", function()
  if not fs.kind("/proc/self/maps") then t.skip("needs /proc/self/maps") end
  local script = os.tmpname() .. ".lua"
  assert(fs.write_atomic(script, probe))
  local out = t.sh(string.format("%s %s", t.tabula_bin(), script))
  os.remove(script)
  t.contains(out, "start curl=no cairo=no\n")
  t.contains(out, "drawn PNG curl=no cairo=yes\n")
  t.contains(out, "requested curl=yes\n")
  t.contains(out, "rc=0")
end)

test("tabula version opens neither libcurl nor cairo", function()
  local out = t.sh(string.format("LD_DEBUG=files %s version", t.tabula_bin()))
  t.contains(out, "libcurl 7")        -- the version it was built against
  t.contains(out, "file=libc.so")     -- LD_DEBUG works here, so the absence below means something
  t.ok(not out:find("file=libcurl", 1, true), "libcurl was loaded:\n" .. out)
  t.ok(not out:find("file=libcairo", 1, true), "cairo was loaded")
end)

test("a tabula process collects garbage in generational mode (set in main.c)", function()
  local script = os.tmpname() .. ".lua"
  assert(fs.write_atomic(script, 'io.write("mode was ", collectgarbage("incremental"), "\\n")'))
  local out = t.sh(string.format("%s %s", t.tabula_bin(), script))
  os.remove(script)
  t.contains(out, "mode was generational\n")
end)

return T
