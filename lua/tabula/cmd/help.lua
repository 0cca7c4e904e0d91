-- tabula help — lists the commands.
local commands = require "tabula.commands"

return {
  summary = "list the commands",
  main = function()
    io.write("usage: tabula <command> [options]   or   tabula path/to/script.lua [args]\n\ncommands:\n")
    for _, name in ipairs(commands.names()) do
      local ok, cmd = pcall(require, "tabula.cmd." .. name)
      io.write(string.format("  %-10s %s\n", name, ok and cmd.summary or "(fails to load)"))
    end
    io.write("\n'tabula <command> --help' shows a command's options.\n")
    return 0
  end,
}
