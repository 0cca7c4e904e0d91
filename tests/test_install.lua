-- make install / uninstall: the installed tabula finds its files under
-- PREFIX/share/tabula and scenarios by name from any directory.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local test, T = t.suite()

local sh = t.sh

test("make install DESTDIR=... PREFIX=...; run by name from elsewhere; make uninstall", function()
  t.need_program("/usr/bin/make")
  local d = t.tmpdir()
  local bin = t.tabula_bin()
  local make = string.format("make -s -C %s -o %s BIN=%s PREFIX=/opt/tb DESTDIR=%s", t.root(), bin, bin, d)
  t.contains(sh(make .. " install"), "rc=0")
  local installed = d .. "/opt/tb/bin/tabula"
  t.eq(fs.kind(installed), "file")
  t.eq(fs.kind(d .. "/opt/tb/share/tabula/scenarios/xiangqibench/init.lua"), "file")
  local out = sh(string.format("cd / && env -u TABULA_ROOT %s run xiangqibench --dry-run --limit 1", installed))
  t.contains(out, "no model was called")
  t.contains(sh(string.format("cd / && env -u TABULA_ROOT %s -e 'kit.number(\"Answer: 7\")'", installed)), "7\nrc=0")
  t.contains(sh(make .. " uninstall"), "rc=0")
  t.eq(fs.kind(installed), nil)
  t.eq(fs.kind(d .. "/opt/tb/share/tabula"), nil)
end)

return T
