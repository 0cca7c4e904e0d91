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
