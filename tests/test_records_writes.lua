-- Checked writes: a report that cannot be written stops with one line naming
-- the file and a non-zero exit, never a "wrote report.md" with nothing written.
-- Tests run as root, where a chmod does not stop a write; two ways that do:
-- a file in the way that no write can replace (summary.json as a directory:
-- the rename onto it fails for anyone), and a read-only tmpfs mount (when this
-- process may mount one; skipped otherwise, saying why).
local t = require "tabula.testing"
local fs = require "tabula.fs"
local test, T = t.suite()

local q, tabula = t.quote, t.tabula

local function xb_run(dir)
  local rc, out = tabula("run", "scenarios/xiangqibench.lua", "--limit", "2", "--trials", "1", "--quiet", "--out", dir)
  assert(rc == 0, out)
end

test("report --no-html: summary.json that cannot be replaced stops the report, naming it", function()
  local dir = t.tmpdir() .. "/run"
  xb_run(dir)
  os.remove(dir .. "/summary.json")
  fs.mkdir_p(dir .. "/summary.json/in-the-way")
  for _, args in ipairs({ { "--no-html" }, {} }) do
    local rc, out = tabula("report", dir, table.unpack(args))
    t.eq(rc, 2, out)
    t.contains(out, "cannot write " .. dir .. "/summary.json: ")
    t.eq(out:find("wrote", 1, true), nil, out)
    t.eq(out:find("traceback", 1, true), nil, out)
  end
end)

test("report --no-html on a read-only file system: one line naming the file, non-zero exit", function()
  local dir = t.tmpdir()
  local mnt = dir .. "/ro"
  fs.mkdir_p(mnt)
  local mounted = t.sh("mount -t tmpfs -o size=16m tmpfs " .. q(mnt))
  if not mounted:match("rc=0\n$") then t.skip("cannot mount a tmpfs (needs root): " .. mounted) end
  local ok, err = pcall(function()
    xb_run(mnt .. "/run")
    os.remove(mnt .. "/run/report.md"); os.remove(mnt .. "/run/summary.json")
    local ro = t.sh("mount -o remount,ro " .. q(mnt))
    if not ro:match("rc=0\n$") then t.skip("cannot remount the tmpfs read-only: " .. ro) end
    local rc, out = tabula("report", mnt .. "/run", "--no-html")
    t.eq(rc, 2, out)
    t.contains(out, "cannot write " .. mnt .. "/run/summary.json: Read-only file system")
    t.eq(out:find("wrote", 1, true), nil, out)
    t.eq(fs.kind(mnt .. "/run/report.md"), nil)
  end)
  t.sh("umount " .. q(mnt))
  if not ok then error(err, 0) end
end)

return T
