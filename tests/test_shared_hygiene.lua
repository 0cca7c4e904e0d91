-- The suite without ../shared: a user's clone has no ../shared/data, so every
-- test that needs it must say skipped, and every default that reads it must
-- go through fs.shared_data (which TABULA_SHARED_DATA, and so
-- `tabula test --no-shared`, redirects). This file keeps that so: no code
-- builds the shared path by hand, no test reads it but through
-- testing.need_shared / testing.shared_data, and a scenario whose default
-- data is shared stops in one line, naming the path, when it is absent.
-- Under `tabula test` the code under test never sees the shared data
-- (TABULA_SHARED_DATA points nowhere; the tests read TABULA_TEST_SHARED_DATA
-- and pass paths on), so a test leaning on a default into ../shared fails in
-- every run, not only on a user's machine.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local test, T = t.suite()

-- lua_files(dir) -> every .lua file under dir (relative to the root)
local function lua_files(dir)
  local out = {}
  local function walk(d)
    for _, e in ipairs(fs.list(t.root() .. "/" .. d) or {}) do
      local p = d .. "/" .. e
      local kind = fs.kind(t.root() .. "/" .. p)
      if kind == "dir" then walk(p) elseif p:match("%.lua$") then out[#out + 1] = p end
    end
  end
  walk(dir)
  table.sort(out)
  return out
end

-- offences(text) -> the code lines (not comments) that build the shared path by
-- hand: root .. "/../shared...", or a string that starts as a path into it
local function offences(text)
  local bad, n = {}, 0
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    local code = line:match("^%s*%-%-") and "" or line:gsub("%-%-[^\"']*$", "")
    if code:find('"/../shared', 1, true) or code:find("'/../shared", 1, true)
      or code:find('"../shared', 1, true) or code:find("'../shared", 1, true) then
      bad[#bad + 1] = n .. ": " .. line:gsub("^%s+", "")
    end
  end
  return bad
end

test("no code or test builds the ../shared path by hand (fs.shared_data, testing.need_shared)", function()
  local found, scanned = {}, 0
  for _, dir in ipairs({ "lua", "scenarios", "games", "tests", "examples" }) do
    for _, f in ipairs(lua_files(dir)) do
      if f ~= "lua/tabula/fs.lua" and f ~= "tests/test_shared_hygiene.lua" then
        scanned = scanned + 1
        for _, o in ipairs(offences(fs.read(t.root() .. "/" .. f))) do found[#found + 1] = f .. ":" .. o end
      end
    end
  end
  t.ok(scanned > 150, "the tree was scanned (" .. scanned .. " files)")
  t.eq(found, {}, "paths into ../shared built by hand")
  -- the scan finds what it is for
  t.eq(#offences('local p = host.root .. "/../shared/data/x.json"\n-- "../shared/data" in a comment\n'), 1)
  t.eq(#offences('  src = opts.items or "../shared/data/chessarena/items.jsonl"\n'), 1)
  t.eq(#offences('{ "data", "string", nil, "problem file (default ../shared/data/x.json)" },\n'), 0)
end)

test("fs.shared_data follows TABULA_SHARED_DATA, so --no-shared hides the data from the scenarios' defaults", function()
  local dir = t.tmpdir()
  local bin = t.tabula_bin()
  -- chess_understanding reads its items from the shared data by default: with the
  -- data hidden it stops in one line naming where it looked
  local h = io.popen(string.format("TABULA_SHARED_DATA=%s/none %s run %s/scenarios/chess_understanding.lua --model random "
    .. "--limit 1 --out %s/run --quiet 2>&1; echo rc=$?", dir, bin, t.root(), dir))
  local out = h:read("a"); h:close()
  t.contains(out, "rc=2")
  t.contains(out, dir .. "/none/chessarena/chess_modeling_evaluation.jsonl")
  t.eq(select(2, out:gsub("\n", "")), 2, "one line and the exit status: " .. out)
  t.eq(fs.kind(dir .. "/run/trials.jsonl"), nil, "nothing recorded")
end)

test("under tabula test the code under test does not see ../shared; a test gets it from need_shared", function()
  local host = require "tabula.c.host"
  if not host.getenv("TABULA_TEST_SHARED_DATA") then t.skip("not run by tabula test (it sets the two paths)") end
  t.eq(fs.kind(fs.shared_data()), nil, "fs.shared_data in the code under test: " .. fs.shared_data())
  t.eq(fs.kind(t.need_shared()), "dir")
end)

return T
