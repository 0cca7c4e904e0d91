-- tabula test [files...] — runs Lua test files (default: tests/*.lua under the
-- project root). Each file returns a list of { name, fn }.
--
-- Every file runs in a process of its own (`--jobs` at a time, one per core by
-- default), in a scratch directory of its own that is its TMPDIR (os.tmpname,
-- testing.tmpdir, the programs it starts and their temporary files all land
-- there), with its output in a log. A line is printed as each file finishes
-- (name, counts, seconds); a failing file's log follows its line, a passing
-- file's log is not shown. The run ends with the ten slowest files and then
-- the closing line "N passed, N failed[, N skipped]"; it exits non-zero on any
-- failure. A file's scratch directory is removed when it passed, and kept
-- (and named) when it failed, or always with --keep-tmp / TABULA_KEEP_TMP;
-- testing.keep(path) keeps one path of a passing file (a folder of screenshots).
--
-- A file whose header (its leading comment lines) holds a line "-- slow: WHY"
-- is left out by --quick (`make check`), the tier for the inner loop.
-- The code under test never sees ../shared/data (TABULA_SHARED_DATA points
-- nowhere): a test gets it from testing.need_shared and passes it on, so a
-- default that reads it cannot pass here and fail for a user without it.
-- --no-shared runs as a user without ../shared has it: every test that needs
-- the shared data must then say skipped.
local fs = require "tabula.fs"
local loop = require "tabula.loop"
local testing = require "tabula.testing"
local host = require "tabula.c.host"
local json = require "tabula.json"

local function default_files()
  local dir = host.root .. "/tests"
  local files = {}
  for _, f in ipairs(fs.list(dir) or {}) do
    if f:match("^test_.*%.lua$") then files[#files + 1] = dir .. "/" .. f end
  end
  table.sort(files)
  return files
end

-- header(path) -> the leading comment lines of a file, as one text
local function header(path)
  local f = io.open(path, "r")
  if not f then return "" end
  local lines = {}
  for line in f:lines() do
    if not line:match("^%-%-") then break end
    lines[#lines + 1] = line
  end
  f:close()
  return table.concat(lines, "\n")
end

-- slow_reason(path) -> the file's "-- slow: WHY" reason, or nil
local function slow_reason(path)
  return header(path):match("%-%- slow: ([^\n]+)")
end

local function short_name(path) return path:match("([^/]+)%.lua$") or path end

-- run_file(path, opts, counts): the tests of one file, in this process
local function run_file(path, opts, counts)
  local chunk, err = loadfile(path)
  if not chunk then
    counts.failed = counts.failed + 1
    io.write("FAIL ", path, ": cannot load: ", err, "\n")
    return
  end
  local ok, list = xpcall(chunk, debug.traceback)
  if not ok or type(list) ~= "table" then
    counts.failed = counts.failed + 1
    io.write("FAIL ", path, ": ", ok and "the file must return a list of {name, fn}" or list, "\n")
    return
  end
  local short = short_name(path)
  for _, t in ipairs(list) do
    local name, fn = t[1], t[2]
    if not opts.only or (short .. ": " .. name):find(opts.only, 1, true) then
      local started, wall = os.clock(), loop.now()
      local okt, e = xpcall(function() return loop.run(fn) end, function(e)
        if testing.is_skip(e) then return e end
        if type(e) == "table" and e.traceback then return tostring(e.message or e) .. e.traceback end
        local text = tostring(e)
        if text:find("stack traceback:", 1, true) then return text end   -- from a task already
        return debug.traceback(text, 2)
      end)
      if okt then
        counts.passed = counts.passed + 1
        if opts.verbose then
          io.write(string.format("ok   %s: %s (%.2f s, %.2f s cpu)\n", short, name, loop.now() - wall, os.clock() - started))
        end
      elseif testing.is_skip(e) then
        counts.skipped = counts.skipped + 1
        counts.skips[#counts.skips + 1] = name .. ": " .. e.reason
        io.write("SKIP ", short, ": ", name, ": ", e.reason, "\n")
      else
        counts.failed = counts.failed + 1
        counts.fails[#counts.fails + 1] = name
        io.write("FAIL ", short, ": ", name, "\n", tostring(e), "\n\n")
      end
      io.stdout:flush()
    end
  end
end

-- child(opts, path): one file in this process; its counts go to opts.child as JSON
local function child(opts, path)
  local counts = { passed = 0, failed = 0, skipped = 0, skips = {}, fails = {} }
  run_file(path, opts, counts)
  counts.kept = testing.kept()
  counts.cpu = os.clock()
  io.stdout:flush()
  local f = assert(io.open(opts.child, "w"))
  f:write((json.encode(counts))); f:close()
  return counts.failed == 0 and 0 or 1
end

local quote = testing.quote

-- the times of the last run, so that the longest files start first
local function times_path() return host.root .. "/build/test-times.json" end

local function load_times()
  local text = fs.read(times_path())
  local ok, t = pcall(json.decode, text or "")
  return ok and type(t) == "table" and t or {}
end

-- the order files start in: longest first by the last run's times, else the
-- "-- slow" files first, then the larger files
local function schedule(files)
  local times = load_times()
  local key = {}
  for _, f in ipairs(files) do
    local t = times[short_name(f)]
    if not t then
      local size = 0
      local h = io.open(f, "r")
      if h then size = h:seek("end") or 0; h:close() end
      t = (slow_reason(f) and 1000 or 0) + size / 1e5
    end
    key[f] = t
  end
  local order = { table.unpack(files) }
  table.sort(order, function(a, b) if key[a] ~= key[b] then return key[a] > key[b] end return a < b end)
  return order
end

local function fmt_counts(r)
  local parts = { string.format("%d passed", r.passed) }
  if r.failed > 0 then parts[#parts + 1] = string.format("%d failed", r.failed) end
  if r.skipped > 0 then parts[#parts + 1] = string.format("%d skipped", r.skipped) end
  return table.concat(parts, ", ")
end

-- parent(opts, files): every file in a child process, jobs at a time
local function parent(opts, files)
  local jobs = opts.jobs or require("tabula.workers").cores()
  local keep_all = opts["keep-tmp"] or host.getenv("TABULA_KEEP_TMP")
  local base = (host.getenv("TMPDIR") or "/tmp") .. "/tabula-test-" .. require("tabula.c.proc").getpid()
  fs.remove_tree(base)   -- a left-over of a run with the same pid
  assert(fs.mkdir_p(base))
  local self = host.exe or (host.root .. "/tabula")
  local total = { passed = 0, failed = 0, skipped = 0 }
  local timings, failed_files = {}, {}
  local proc = require "tabula.c.proc"
  local started_all = loop.now()
  local width = 0
  for _, f in ipairs(files) do width = math.max(width, #short_name(f)) end

  local function run_one(path)
    local name = short_name(path)
    local dir = base .. "/" .. name
    assert(fs.mkdir_p(dir .. "/tmp"))
    local log, result = dir .. "/log", dir .. "/result.json"
    local argv = { quote(self), "test", "--child", quote(result) }
    if opts.only then argv[#argv + 1] = "--only"; argv[#argv + 1] = quote(opts.only) end
    if opts.verbose then argv[#argv + 1] = "--verbose" end
    argv[#argv + 1] = quote(path)
    local env = "TMPDIR=" .. quote(dir .. "/tmp")
    -- the shared data is hidden from the code under test (fs.shared_data finds nothing):
    -- a test reaches it only through testing.need_shared / testing.shared_data, which
    -- read TABULA_TEST_SHARED_DATA, and passes the path on explicitly; so a test that
    -- leans on a default into ../shared fails here rather than on a user's machine.
    -- --no-shared hides it from the tests too: they must say skipped.
    local real = fs.shared_data()
    env = env .. " TABULA_SHARED_DATA=" .. quote(dir .. "/no-shared-data")
      .. " TABULA_TEST_SHARED_DATA=" .. quote(opts["no-shared"] and (dir .. "/no-shared-data") or fs.absolute(real))
    local cmd = "cd " .. quote(host.root) .. " && " .. env .. " exec " .. table.concat(argv, " ")
      .. " </dev/null >" .. quote(log) .. " 2>&1"
    local t0 = loop.now()
    local p = assert(proc.spawn({ "/bin/sh", "-c", cmd }, "null", { owned = true }))
    local how, code
    while true do
      local done, h, c = p:reap(false)
      if done then how, code = h, c; break end
      loop.sleep(0.05)
    end
    proc.signal(-p:pid(), 9)   -- what the file started and left running (servers, browsers)
    local secs = loop.now() - t0
    local r
    local text = fs.read(result)
    if text then r = json.decode(text) end
    if not r then
      r = { passed = 0, failed = 1, skipped = 0, skips = {}, fails = {},
        crashed = how == "signal" and ("killed by signal " .. code) or ("exited " .. tostring(code) .. " without its results") }
    end
    total.passed = total.passed + r.passed
    total.failed = total.failed + r.failed
    total.skipped = total.skipped + r.skipped
    if opts.only and r.passed + r.failed + r.skipped == 0 and not r.crashed then
      fs.remove_tree(dir)   -- no test of this file matched --only
      return
    end
    timings[#timings + 1] = { name = name, secs = secs, ours = path:sub(1, #host.root + 7) == host.root .. "/tests/" }
    local status = r.failed > 0 and "FAIL" or "ok  "
    io.write(string.format("%s %-" .. width .. "s  %-34s %7.1f s\n", status, name,
      fmt_counts(r) .. (r.crashed and (" (" .. r.crashed .. ")") or ""), secs))
    for _, s in ipairs(r.skips or {}) do io.write("       skipped: ", s, "\n") end
    if r.failed > 0 then
      failed_files[#failed_files + 1] = name
      local l = fs.read(log) or ""
      io.write("---- ", name, " log (", log, ")\n", l, l:sub(-1) == "\n" and "" or "\n", "---- end of ", name, "\n")
    elseif opts.verbose then
      io.write(fs.read(log) or "")
    end
    io.stdout:flush()
    if r.failed == 0 and not keep_all then
      -- a passing file's scratch goes, but the paths it kept (testing.keep)
      local kept = r.kept or {}
      if #kept == 0 then
        fs.remove_tree(dir)
      else
        for _, k in ipairs(kept) do io.write("       kept: ", k, "\n") end
        local gone = { log, result }
        for _, e in ipairs(fs.list(dir .. "/tmp") or {}) do
          local p, held = dir .. "/tmp/" .. e, false
          for _, k in ipairs(kept) do
            if k == p or k:sub(1, #p + 1) == p .. "/" then held = true end
          end
          if not held then gone[#gone + 1] = p end
        end
        fs.remove_tree(table.unpack(gone))
      end
    end
  end

  loop.run(function()
    loop.map(schedule(files), jobs, run_one)
  end)

  -- remember the times (a partial run updates only its files)
  if not opts.only then
    local times = load_times()
    for _, t in ipairs(timings) do
      if t.ours then times[t.name] = math.floor(t.secs * 10 + 0.5) / 10 end   -- the project's tests/ only
    end
    fs.mkdir_p(host.root .. "/build")
    pcall(fs.write_atomic, times_path(), (json.encode(times)))
  end

  table.sort(timings, function(a, b) return a.secs > b.secs end)
  if #timings > 1 then
    io.write(string.format("the slowest files (%d files in %.1f s wall, %d at a time):\n",
      #timings, loop.now() - started_all, jobs))
    for i = 1, math.min(10, #timings) do
      io.write(string.format("  %7.1f s  %s\n", timings[i].secs, timings[i].name))
    end
  end
  if #failed_files > 0 then io.write("failed files: ", table.concat(failed_files, ", "), "\n") end
  if keep_all or #failed_files > 0 then
    io.write("scratch directories kept under ", base, "\n")
  else
    -- keep what a passing file asked to keep; remove the rest
    local left = fs.list(base) or {}
    if #left == 0 then fs.remove(base) end
  end
  local line = string.format("%d passed, %d failed", total.passed, total.failed)
  if total.skipped > 0 then line = line .. string.format(", %d skipped", total.skipped) end
  io.write(line, "\n")
  return total.failed == 0 and 0 or 1
end

return {
  summary = "run the Lua test files, each in its own process, and print 'N passed, N failed'",
  usage = "[options] [files...]",
  options = {
    { "verbose", "bool", false, "print every passing test and every file's log" },
    { "only", "string", nil, "run only tests whose 'file: name' contains this text" },
    { "jobs", "int", nil, "how many files run at once (default: the number of cores)", min = 1 },
    { "quick", "bool", false, "leave out the files marked '-- slow:' in their header (make check)" },
    { "no-shared", "bool", false, "run as without ../shared/data: the tests that need it must say skipped" },
    { "keep-tmp", "bool", false, "keep every file's scratch directory and log" },
    { "child", "string", nil, "(internal) run one file in this process; write its counts to this path", hidden = true },
  },
  main = function(opts, files)
    if opts.child then return child(opts, files[1]) end
    if #files == 0 then files = default_files() end
    for i, f in ipairs(files) do
      files[i] = fs.absolute(f)
      if not fs.kind(files[i]) then require("tabula.cli").fail("test: no such file: %s", f) end
    end
    if opts.quick then
      local keep = {}
      for _, f in ipairs(files) do if not slow_reason(f) then keep[#keep + 1] = f end end
      files = keep
    end
    return parent(opts, files)
  end,
}
