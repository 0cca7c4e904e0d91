-- tests/mock.lua — start the mock model server (tests/mock_server.c) on a free
-- loopback port for a test, and talk to its control endpoints.
local t = require "tabula.testing"
local proc = require "tabula.c.proc"
local loop = require "tabula.loop"
local http = require "tabula.http"
local json = require "tabula.json"
local fs = require "tabula.fs"
local host = require "tabula.c.host"

local M = {}

function M.binary()
  local p = host.getenv("TABULA_MOCK_SERVER") or (host.root .. "/build/rel/mock_server")
  if not fs.kind(p) then t.skip("the mock server is not built (make builds build/rel/mock_server)") end
  return p
end

local Server = {}
Server.__index = Server

-- start(rules [, args]) -> server with .url ("http://127.0.0.1:PORT")
function M.start(rules, args)
  local bin = M.binary()
  local argv = { bin, "--port", "0" }
  if rules then
    local lines = {}
    for i, r in ipairs(rules) do lines[i] = json.canonical(r) end
    local path = os.tmpname()
    fs.write_atomic(path, table.concat(lines, "\n") .. "\n")
    argv[#argv + 1] = "--script"
    argv[#argv + 1] = path
  end
  for _, a in ipairs(args or {}) do argv[#argv + 1] = a end
  local p = assert(proc.spawn(argv, "inherit"))
  local buf = ""
  while not buf:find("\n") do
    assert(loop.await_fd(p:fd(), "r", 10), "the mock server did not start")
    local d = p:read()
    if d == "" then error("the mock server exited at start") end
    if d then buf = buf .. d end
  end
  local port = assert(tonumber(buf:match("listening on (%d+)")), "unexpected mock output: " .. buf)
  return setmetatable({ proc = p, port = port, url = "http://127.0.0.1:" .. port }, Server)
end

function Server:get(path)
  local res = assert(http.request({ url = self.url .. path, timeout = 10 }))
  return res.body
end

function Server:requests() return json.decode(self:get("/_stats")).requests end

-- stats() -> the counts of /_stats (requests, batch_creates, batches, batch_polls, http, max_active)
function Server:stats() return json.decode(self:get("/_stats")) end

-- batch(settings): the batch APIs' controls: step (the mock seconds a poll
-- advances a batch's clock; 0 freezes it), create_delay_ms (a create answered late)
function Server:batch(settings)
  assert(http.request({ method = "POST", url = self.url .. "/_batch", body = json.canonical(settings), timeout = 10 }))
end

function Server:batch_step(s) self:batch({ step = s }) end

function Server:log()
  local out = {}
  for line in self:get("/_log"):gmatch("[^\n]+") do out[#out + 1] = json.decode(line) end
  return out
end

function Server:script(rules)
  local lines = {}
  for i, r in ipairs(rules) do lines[i] = json.canonical(r) end
  assert(http.request({ method = "POST", url = self.url .. "/_script", body = table.concat(lines, "\n"), timeout = 10 }))
end

function Server:close()
  self.proc:kill(9)
  self.proc:reap(true)
  self.proc:close()
end

return M
