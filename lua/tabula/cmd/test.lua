-- tabula test [files...] — runs Lua test files (default: tests/*.lua under the
-- project root). Each file returns a list of { name, fn }. Ends with the line
-- "N passed, N failed[, N skipped]"; exits non-zero on any failure. The temporary
-- files and folders the tests make (os.tmpname, testing.tmpdir) are removed at the
-- end when every test passed, unless TABULA_KEEP_TMP is set or testing.keep(path)
-- kept one (a folder of screenshots the run names).
local fs = require "tabula.fs"
local loop = require "tabula.loop"
local testing = require "tabula.testing"
local host = require "tabula.c.host"

local function default_files()
  local dir = host.root .. "/tests"
  local files = {}
  for _, f in ipairs(fs.list(dir) or {}) do
    if f:match("^test_.*%.lua$") then files[#files + 1] = dir .. "/" .. f end
  end
  return files
end

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
  local short = path:match("([^/]+)%.lua$")
  for _, t in ipairs(list) do
    local name, fn = t[1], t[2]
    if not opts.only or (short .. ": " .. name):find(opts.only, 1, true) then
      local started = os.clock()
      local okt, e = xpcall(function() return loop.run(fn) end, function(e)
        if testing.is_skip(e) then return e end
        if type(e) == "table" and e.traceback then return tostring(e.message or e) .. e.traceback end
        local text = tostring(e)
        if text:find("stack traceback:", 1, true) then return text end   -- from a task already
        return debug.traceback(text, 2)
      end)
      if okt then
        counts.passed = counts.passed + 1
        if opts.verbose then io.write(string.format("ok   %s: %s (%.2fs cpu)\n", short, name, os.clock() - started)) end
      elseif testing.is_skip(e) then
        counts.skipped = counts.skipped + 1
        io.write("SKIP ", short, ": ", name, ": ", e.reason, "\n")
      else
        counts.failed = counts.failed + 1
        io.write("FAIL ", short, ": ", name, "\n", tostring(e), "\n\n")
      end
      io.stdout:flush()
    end
  end
end

return {
  summary = "run the Lua test files and print 'N passed, N failed'",
  usage = "[options] [files...]",
  options = {
    { "verbose", "bool", false, "print every passing test" },
    { "only", "string", nil, "run only tests whose 'file: name' contains this text" },
  },
  main = function(opts, files)
    if #files == 0 then files = default_files() end
    local counts = { passed = 0, failed = 0, skipped = 0 }
    local made, tmpname = {}, os.tmpname
    os.tmpname = function() local p = tmpname(); made[#made + 1] = p; return p end
    for _, f in ipairs(files) do run_file(f, opts, counts) end
    os.tmpname = tmpname
    testing.remove_temporary(made, counts.failed > 0 or host.getenv("TABULA_KEEP_TMP"))
    local line = string.format("%d passed, %d failed", counts.passed, counts.failed)
    if counts.skipped > 0 then line = line .. string.format(", %d skipped", counts.skipped) end
    io.write(line, "\n")
    return counts.failed == 0 and 0 or 1
  end,
}
