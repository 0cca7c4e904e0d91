-- tests/mcp_client.lua — a Model Context Protocol client for the tests: starts
-- `tabula mcp ARGS...` as a child process and speaks JSON-RPC 2.0 to it over
-- its stdin and stdout, one message a line (its stderr goes to a file). Every
-- wait is bounded: a server that does not answer in time fails the test.
local t = require "tabula.testing"
local proc = require "tabula.c.proc"
local loop = require "tabula.loop"
local json = require "tabula.json"
local fs = require "tabula.fs"

local M = {}

M.LIMIT = 60   -- seconds any answer may take (a safety net, not a speed check)

local Client = {}
Client.__index = Client

-- start(args) -> client: `tabula mcp ARGS...`
function M.start(args)
  local err = os.tmpname()
  local argv = { "/bin/sh", "-c", 'exec "$0" mcp "$@" 2>' .. err, t.tabula_bin() }
  for _, a in ipairs(args) do argv[#argv + 1] = a end
  local p = assert(proc.spawn(argv, "null"))
  return setmetatable({ p = p, err = err, buf = "", next_id = 0, notes = {}, lines = {} }, Client)
end

-- M.CASE: a mate in one for Red (b1b9), the case the MCP tests play
M.CASE = { id = "mate1", fen = "3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1", first_winning_move = "b1b9", win_in_plies = 1,
  category = "forced_mate" }

-- start_case(dir [, extra]) -> client: `tabula mcp xiangqibench` on M.CASE alone
-- (written to dir/cases.jsonl), sighted, one trial, the run in dir/run
function M.start_case(dir, extra)
  local fs = require "tabula.fs"
  fs.write_atomic(dir .. "/cases.jsonl", json.canonical(M.CASE) .. "\n")
  local args = { "xiangqibench", "--cases", dir .. "/cases.jsonl", "--setting", "sighted", "--trials", "1", "--out", dir .. "/run" }
  for _, a in ipairs(extra or {}) do args[#args + 1] = a end
  return M.start(args)
end

-- send(msg | raw line)
function Client:send(msg)
  local line = type(msg) == "string" and msg or json.canonical(msg)
  assert(self.p:write(line .. "\n"))
end

-- recv() -> the next message from the server (decoded), or nil at its end of output
function Client:recv()
  while true do
    local nl = self.buf:find("\n", 1, true)
    if nl then
      local line = self.buf:sub(1, nl - 1)
      self.buf = self.buf:sub(nl + 1)
      self.lines[#self.lines + 1] = line
      local msg = json.decode(line)
      if msg == nil then error("the server wrote a line that is not JSON: " .. line .. "\n" .. self:stderr(), 2) end
      return msg
    end
    if not loop.await_fd(self.p:fd(), "r", M.LIMIT) then
      error(string.format("no answer from tabula mcp within %gs\n%s", M.LIMIT, self:stderr()), 2)
    end
    local d = self.p:read()
    if d == "" then return nil end
    if d then self.buf = self.buf .. d end
  end
end

-- request(method [, params]) -> the response to it (notifications on the way are kept in client.notes)
function Client:request(method, params)
  self.next_id = self.next_id + 1
  local id = self.next_id
  self:send({ jsonrpc = "2.0", id = id, method = method, params = params })
  return self:response(id)
end

function Client:response(id)
  while true do
    local msg = self:recv()
    if not msg then error("tabula mcp ended before answering request " .. tostring(id) .. "\n" .. self:stderr(), 2) end
    if msg.id == id then return msg end
    if msg.id == nil then self.notes[#self.notes + 1] = msg
    else error("an answer to another request: " .. json.canonical(msg), 2) end
  end
end

function Client:notify(method, params) self:send({ jsonrpc = "2.0", method = method, params = params }) end

-- initialize() -> the initialize result (and the initialized notification sent)
function Client:initialize(version)
  local r = self:request("initialize", { protocolVersion = version or "2025-11-25", capabilities = json.object(),
    clientInfo = { name = "tabula-test-client", version = "1" } })
  assert(r.result, "initialize failed: " .. json.canonical(r))
  self:notify("notifications/initialized")
  return r.result
end

-- call(name [, arguments]) -> the tools/call response (result or error)
function Client:call(name, arguments)
  return self:request("tools/call", { name = name, arguments = arguments or json.object() })
end

-- text(response) -> the text of a tools/call result, and its isError
function M.text(r)
  assert(r.result, "not a result: " .. json.canonical(r))
  local out = {}
  for _, c in ipairs(r.result.content) do out[#out + 1] = c.text end
  return table.concat(out, "\n"), r.result.isError
end

function Client:stderr() return fs.read(self.err) or "" end

-- close() -> exit code, stderr: closes the server's stdin and waits for it to end
function Client:close()
  self.p:close_input()
  local stop = loop.now() + M.LIMIT
  while true do
    local done, how, code = self.p:reap(false)
    if done then
      self.rc = how == "signal" and 128 + code or code
      break
    end
    if loop.now() > stop then self.p:kill(9); self.p:reap(true); error("tabula mcp did not end after its input closed\n" .. self:stderr(), 2) end
    loop.sleep(0.02)
  end
  return self.rc, self:stderr()
end

return M
