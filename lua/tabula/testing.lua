-- tabula.testing — what test files use. A test file returns a list of
-- { name, fn } pairs; `tabula test` runs each fn inside the event loop.
--
--   local t = require "tabula.testing"
--   local test, T = t.suite()
--   test("json: integers round-trip", function() t.eq(json.decode("1"), 1) end)
--   return T
local M = {}

M.SKIP = setmetatable({}, { __tostring = function() return "skip" end })

function M.suite()
  local T = {}
  return function(name, fn) T[#T + 1] = { name, fn } end, T
end

-- skip(reason): stop this test and count it as skipped, with the reason shown.
function M.skip(reason)
  error(setmetatable({ reason = reason }, { __index = M.SKIP, __tostring = function() return "skipped: " .. reason end }), 0)
end

function M.is_skip(e) return type(e) == "table" and getmetatable(e) and getmetatable(e).__index == M.SKIP end

local function show(v, depth)
  depth = depth or 0
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) ~= "table" or depth > 3 then return tostring(v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local parts = {}
  for _, k in ipairs(keys) do
    parts[#parts + 1] = (math.type(k) == "integer" and "" or (tostring(k) .. "=")) .. show(v[k], depth + 1)
    if #parts > 20 then parts[#parts + 1] = "..."; break end
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end
M.show = show

local function deep_eq(a, b, path)
  if a == b then return true end
  if type(a) ~= "table" or type(b) ~= "table" then
    if type(a) == "number" and type(b) == "number" and a ~= a and b ~= b then return true end
    return false, path
  end
  for k, v in pairs(a) do
    local ok, where = deep_eq(v, b[k], path .. "." .. tostring(k))
    if not ok then return false, where end
  end
  for k in pairs(b) do
    if a[k] == nil then return false, path .. "." .. tostring(k) end
  end
  return true
end

function M.eq(got, want, msg)
  local ok, where = deep_eq(got, want, "")
  if not ok then
    error(string.format("%sexpected %s\n     got %s%s", msg and (msg .. ": ") or "",
      show(want), show(got), (where and where ~= "") and ("\n  (first difference at " .. where .. ")") or ""), 2)
  end
end

function M.ok(v, msg)
  if not v then error(msg or "expected a true value", 2) end
  return v
end

function M.near(got, want, tol, msg)
  if type(got) ~= "number" or math.abs(got - want) > (tol or 1e-9) then
    error(string.format("%sexpected %s (±%g), got %s", msg and (msg .. ": ") or "", tostring(want), tol or 1e-9, tostring(got)), 2)
  end
end

-- raises(fn, pattern): fn must raise an error whose text matches pattern (plain find).
function M.raises(fn, pattern, msg)
  local ok, err = pcall(fn)
  if ok then error((msg and (msg .. ": ") or "") .. "expected an error, got none", 2) end
  local text = type(err) == "table" and (err.message or tostring(err)) or tostring(err)
  if pattern and not text:find(pattern, 1, true) then
    error(string.format("%serror %q does not contain %q", msg and (msg .. ": ") or "", text, pattern), 2)
  end
  return text
end

-- contains(text, piece): plain substring check with a readable failure.
function M.contains(text, piece, msg)
  if type(text) ~= "string" or not text:find(piece, 1, true) then
    error(string.format("%sexpected %s to contain %q", msg and (msg .. ": ") or "", show(text), piece), 2)
  end
end

-- keep(path) -> path: the test run leaves path (made by os.tmpname or tmpdir) in
-- place at its end; `tabula test` names it after the file's line.
local kept = {}
function M.keep(path) kept[#kept + 1] = path; return path end

-- kept() -> the paths kept so far
function M.kept() return { table.unpack(kept) } end

-- tmpdir() -> the path of a new empty directory under the system's temporary folder.
function M.tmpdir()
  local d = os.tmpname(); os.remove(d)
  require("tabula.fs").mkdir_p(d)
  return d
end

-- Where the shared public data lives (../shared/data from the project root), or nil.
function M.shared_data(sub)
  local fs = require "tabula.fs"
  -- under `tabula test` the code under test does not see the shared data; the tests do
  local base = require("tabula.c.host").getenv("TABULA_TEST_SHARED_DATA")
  local p = base and (sub and (base .. "/" .. sub) or base) or fs.shared_data(sub)
  if fs.kind(p) then return p end
  return nil
end

-- need_shared(sub): the path, or skip the test saying what is missing.
function M.need_shared(sub)
  local p = M.shared_data(sub)
  if not p then M.skip("needs ../shared/data/" .. (sub or "") .. " (not present on this machine)") end
  return p
end

-- need_program(path): skip when an external program is not installed.
function M.need_program(path)
  local fs = require "tabula.fs"
  if not fs.kind(path) then M.skip(path .. " is not installed (run make deps)") end
  return path
end

-- need_browser(): skips the test when Chromium is not installed, and in the sanitizer
-- build: a test that drives Chromium spends its time in Chromium, which is not tabula's
-- code; the pages are built by tabula (and so sanitized) in the report tests, and the
-- plain build runs every browser test
function M.need_browser()
  local chromium = require "tabula.chromium"
  M.need_program(chromium.PATH)
  if M.sanitized() then M.skip("Chromium's checks run in the plain build (make test); the sanitizer build checks tabula's side") end
  return chromium.PATH
end

-- browser() -> the test file's one headless Chromium (tabula.chromium),
-- started on first use and shared by the file's tests (its profile is in the
-- file's scratch directory); the test is skipped when Chromium is not installed,
-- and in the sanitizer build (need_browser).
local the_browser
function M.browser()
  local chromium = require "tabula.chromium"
  M.need_browser()
  if not the_browser or the_browser.closed then
    local why
    the_browser, why = chromium.start()
    if not the_browser then error("cannot start Chromium: " .. tostring(why)) end
  end
  return the_browser
end

function M.root() return require("tabula.c.host").root end

-- run_scenario(path, args) -> rc, out: tabula run, in this process, with the
-- console summary kept out of the test output
function M.run_scenario(path, args)
  local run = require("tabula.cmd.run").lib
  local s = run.load(path:sub(1, 1) == "/" and path or (M.root() .. "/" .. path))
  local opts = assert(require("tabula.cli").parse(run.spec(s), args))
  local saved = io.write
  io.write = function() end
  local ok, rc, out = pcall(run.execute, s, opts)
  io.write = saved
  if not ok then error(rc, 0) end
  return rc, out
end

-- sh(cmd) -> what a shell command printed (stdout and stderr), then "rc=N\n"
function M.sh(cmd)
  local h = io.popen(cmd .. " 2>&1; echo rc=$?")
  local out = h:read("a"); h:close()
  return out
end

-- tabula_bin(): the binary under test.
function M.tabula_bin()
  return require("tabula.c.host").exe or (M.root() .. "/tabula")
end

-- sanitized() -> whether this is the AddressSanitizer/UBSan build (make test SANITIZE=1). That
-- run is for memory errors: a test whose cost is many searches of the same C code (a
-- solver over a sample) may take a smaller sample there, the same paths and the same
-- assertions; the plain build runs the whole sample.
function M.sanitized()
  return M.tabula_bin():find("/build/san/", 1, true) ~= nil
end

-- quote(s) -> s as one single-quoted shell word
function M.quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- tabula(...) -> exit code, what the binary under test printed (stdout and stderr)
function M.tabula(...)
  local args = {}
  for i, a in ipairs({ ... }) do args[i] = M.quote(a) end
  local out = M.sh(M.quote(M.tabula_bin()) .. " " .. table.concat(args, " "))
  return tonumber(out:match("rc=(%d+)\n$")), out
end

return M
