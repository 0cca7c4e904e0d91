-- tabula mcp_seat SOCKET — the stdio MCP server an agent program starts for its seat
-- (tabula.program): it connects to the running match's seat socket and relays the
-- program's MCP messages both ways, byte for byte, until either side closes. The
-- match holds the seat's state and answers; this process holds nothing and knows no key.
local sock = require "tabula.c.sock"
local proc = require "tabula.c.proc"
local loop = require "tabula.loop"

local function pump(from, to, close_to)
  while true do
    loop.await_fd(from, "r")
    local d = proc.read_fd(from)
    if d == "" or d == nil then break end
    if d then
      local ok = proc.write_fd(to, d)
      if not ok then break end
    end
  end
  close_to()
end

return {
  summary = "the stdio MCP server of an agent program's seat (started by the program; relays to the running match)",
  usage = "tabula mcp_seat SOCKET",
  options = {},
  main = function(_, args)
    local path = args[1]
    if not path or args[2] then
      io.stderr:write("usage: tabula mcp_seat SOCKET (an agent program's seat; tabula writes this into the program's configuration)\n")
      return 2
    end
    local fd, err = sock.connect_unix(path)
    if not fd then
      io.stderr:write(string.format("tabula mcp_seat: cannot reach the match at %s: %s (the seat's decision is over, or its run has stopped)\n", path, err))
      return 1
    end
    loop.run(function()
      local g = loop.group()
      local done = false
      -- the program's messages to the match; its stdin closing ends the session
      g:spawn(function() pump(0, fd, function() sock.shutdown(fd) end); done = true end)
      -- the match's answers to the program; the match closing ends this process
      g:spawn(function() pump(fd, 1, function() os.exit(0) end) end)
      g:wait()
      return done
    end)
    return 0
  end,
}
