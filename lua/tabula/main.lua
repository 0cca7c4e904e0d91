-- tabula.main — the Lua entry point. `tabula <cmd> ...` runs lua/tabula/cmd/<cmd>.lua;
-- `tabula path/to/script.lua args...` runs a script. Errors raised with cli.fail
-- are shown as one line; anything else is a bug and gets a traceback (from C).
local cli = require "tabula.cli"
local commands = require "tabula.commands"

local function run_script(path, args)
  local chunk, err = loadfile(path)
  if not chunk then cli.fail("%s", err) end
  arg = { [0] = path, table.unpack(args) }
  local rc = chunk(table.unpack(args))
  return math.type(rc) == "integer" and rc or 0
end

-- os.tmpname honours TMPDIR (Lua's own always uses /tmp), so that a caller that
-- gives tabula a temporary folder (`tabula test` gives each test file its own)
-- finds every temporary file of this process there. The name is made unique by
-- the process id, a count and a random part, and the file is created empty, as
-- Lua's own does.
do
  local dir = os.getenv("TMPDIR")
  if dir and dir ~= "" and dir ~= "/tmp" and dir:sub(1, 1) == "/" then
    local pid = require("tabula.c.proc").getpid()
    local n = 0
    local rng = math.random
    os.tmpname = function()
      while true do
        n = n + 1
        local p = string.format("%s/lua_%d_%d_%06x", dir, pid, n, rng(0, 0xffffff))
        local probe = io.open(p, "r")
        if probe then probe:close() else
          local f = io.open(p, "w")
          if not f then error("cannot create a temporary file in TMPDIR " .. dir, 2) end
          f:close()
          return p
        end
      end
    end
  end
end

return function(argv)
  local name = argv[1]
  local rest = { table.unpack(argv, 2) }
  local ok, rc = xpcall(function()
    if name == nil or name == "-h" or name == "--help" then name = "help" end
    if name == "-e" or name == "-" then return commands.run("repl", argv) end   -- tabula -e CODE, tabula - < FILE
    if name:match("%.lua$") or name:find("/", 1, true) then
      return run_script(name, rest)
    end
    return commands.run(name, rest)
  end, function(e)
    if cli.is_user_error(e) then return e end
    return debug.traceback(tostring(e), 2)
  end)
  if ok then return rc or 0 end
  if cli.is_user_error(rc) then
    io.stderr:write("tabula: ", require("tabula.terminal").clean(rc.message), "\n")   -- may quote outside text
    return rc.status or 2
  end
  io.stderr:write("tabula: internal error: ", rc, "\n")
  return 1
end
