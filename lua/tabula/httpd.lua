-- tabula.httpd — a small HTTP/1.1 server on the event loop, for servers inside
-- tabula that programs it starts talk to over loopback (the metering proxy of
-- agent programs, tabula.proxy).
--
--   local server = assert(httpd.serve({ host = "127.0.0.1", port = 0 }, function(req, res)
--     -- req = { method, target, path, query (text after "?", or nil), headers (lower-case names),
--     --         body, version }
--     res:status(200, { ["Content-Type"] = "text/event-stream" })
--     res:write("data: 1\n\n")          -- chunked transfer: sent as it is written
--     res:finish()                      -- or res:finish(body): a whole reply with Content-Length
--   end))
--   server.port; server:close()
--
-- Options: max_header (bytes of the request line and headers, 64 KiB), max_body
-- (32 MiB; a longer body is answered 413 and the connection closed), idle (seconds
-- a kept-alive connection may wait for its next request, 120), read_timeout
-- (seconds a started request may take to arrive, 60), write_timeout (seconds a
-- peer may leave a reply unread before it counts as gone, 300).
-- Requests: Content-Length and chunked bodies, keep-alive (HTTP/1.1 unless
-- "Connection: close"; HTTP/1.0 with "Connection: keep-alive"), Expect:
-- 100-continue. A malformed request is answered 400 with one line of text and
-- the connection closed. Each request's handler runs in a loop task of its own;
-- one that fails before answering gets a 500. A peer that disconnects mid-reply
-- makes res:write return false (and later writes do nothing), and res:gone()
-- true: the handler ends as it sees fit, the server carries on. Writes never block the loop
-- (tabula.c.sock's send; a peer that stops reading waits in await_fd).
local sock = require "tabula.c.sock"
local proc = require "tabula.c.proc"
local loop = require "tabula.loop"

local M = {}

M.MAX_HEADER = 64 * 1024
M.MAX_BODY = 32 * 1024 * 1024
M.IDLE = 120
M.READ_TIMEOUT = 60
M.WRITE_TIMEOUT = 300

local REASONS = {
  [100] = "Continue", [200] = "OK", [201] = "Created", [204] = "No Content", [400] = "Bad Request",
  [401] = "Unauthorized", [402] = "Payment Required", [403] = "Forbidden", [404] = "Not Found",
  [405] = "Method Not Allowed", [408] = "Request Timeout", [409] = "Conflict", [413] = "Content Too Large",
  [429] = "Too Many Requests", [500] = "Internal Server Error", [501] = "Not Implemented", [502] = "Bad Gateway",
  [503] = "Service Unavailable", [504] = "Gateway Timeout",
}

-- ---- one connection ----

local Conn = {}
Conn.__index = Conn

-- send(data) -> true | false (the peer is gone or stopped reading past write_timeout)
function Conn:send(data)
  if self.gone then return false end
  local pos = 1
  while pos <= #data do
    local n = sock.send(self.fd, pos == 1 and data or data:sub(pos))
    if n == false then
      if not loop.await_fd(self.fd, "w", self.server.write_timeout) then self.gone = true; return false end
    elseif not n then
      self.gone = true
      return false
    else
      pos = pos + n
    end
  end
  return true
end

-- fill(timeout) -> true when more bytes arrived, false at end of file, a
-- timeout or an error
function Conn:fill(timeout)
  while true do
    local data = proc.read_fd(self.fd)
    if data == "" or data == nil then return false end
    if data then self.buf = self.buf .. data; return true end
    if not loop.await_fd(self.fd, "r", timeout) then return false end
  end
end

-- a request that cannot be read: answered with status and one line, then closed
local function Refusal(status, line) return { refusal = true, status = status, line = line } end

-- read_line(limit, timeout) -> a line without its CRLF | nil, refusal (nil at end of file)
function Conn:read_line(limit, timeout)
  while true do
    local nl = self.buf:find("\n", 1, true)
    if nl then
      local line = self.buf:sub(1, nl - 1):gsub("\r$", "")
      self.buf = self.buf:sub(nl + 1)
      return line
    end
    if #self.buf > limit then return nil, Refusal(413, "the request head is larger than " .. limit .. " bytes") end
    if not self:fill(timeout) then return nil, nil end
  end
end

-- read_bytes(n, timeout) -> n bytes | nil (the peer went away)
function Conn:read_bytes(n, timeout)
  while #self.buf < n do
    if not self:fill(timeout) then return nil end
  end
  local out = self.buf:sub(1, n)
  self.buf = self.buf:sub(n + 1)
  return out
end

-- read_head() -> req | nil (the peer closed between requests) | nil, refusal
function Conn:read_head()
  local s = self.server
  local line, refused
  repeat   -- a client may send empty lines between requests (RFC 9112 2.2)
    line, refused = self:read_line(s.max_header, self.served > 0 and s.idle or s.read_timeout)
    if not line then return nil, refused end
  until line ~= ""
  local method, target, major, minor = line:match("^(%u+) (%S+) HTTP/(%d)%.(%d)$")
  if not method then return nil, Refusal(400, "malformed request line") end
  if major ~= "1" then return nil, Refusal(400, "unsupported HTTP version " .. major .. "." .. minor) end
  local req = { method = method, target = target, version = "1." .. minor, headers = {} }
  local size = #line
  while true do
    local h
    h, refused = self:read_line(s.max_header - size, s.read_timeout)
    if not h then return nil, refused or Refusal(400, "the request head ended early") end
    size = size + #h + 2
    if size > s.max_header then return nil, Refusal(413, "the request head is larger than " .. s.max_header .. " bytes") end
    if h == "" then break end
    local name, value = h:match("^([!#$%%&'*+%-.^_`|~%w]+):[ \t]*(.-)[ \t]*$")
    if not name then return nil, Refusal(400, "malformed header line") end
    name = name:lower()
    local old = req.headers[name]
    req.headers[name] = old and (old .. ", " .. value) or value
  end
  req.path, req.query = target:match("^([^?#]*)%??([^#]*)")
  if not req.path or req.path:sub(1, 1) ~= "/" then return nil, Refusal(400, "the request target is not a path") end
  if req.query == "" then req.query = nil end
  return req
end

-- read_body(req) -> true | nil, refusal | nil (the peer went away)
function Conn:read_body(req)
  local s, h = self.server, req.headers
  local te, cl = h["transfer-encoding"], h["content-length"]
  if te and cl then return nil, Refusal(400, "both Transfer-Encoding and Content-Length") end
  local continue = (h["expect"] or ""):lower() == "100-continue" and req.version == "1.1"
  if te then
    if te:lower() ~= "chunked" then return nil, Refusal(501, "unsupported transfer encoding " .. te) end
    if continue and not self:send("HTTP/1.1 100 Continue\r\n\r\n") then return nil end
    local parts, total = {}, 0
    while true do
      local line, refused = self:read_line(1024, s.read_timeout)
      if not line then return nil, refused end
      local hex = line:match("^(%x+)[ \t]*;?.*$")
      if not hex or #hex > 8 then return nil, Refusal(400, "malformed chunk size") end
      local n = tonumber(hex, 16)
      total = total + n
      if total > s.max_body then return nil, Refusal(413, "the request body is larger than " .. s.max_body .. " bytes") end
      if n == 0 then break end
      local data = self:read_bytes(n + 2, s.read_timeout)
      if not data then return nil end
      if data:sub(-2) ~= "\r\n" then return nil, Refusal(400, "a chunk does not end with CRLF") end
      parts[#parts + 1] = data:sub(1, n)
    end
    while true do   -- trailers, up to the empty line
      local line, refused = self:read_line(s.max_header, s.read_timeout)
      if not line then return nil, refused end
      if line == "" then break end
    end
    req.body = table.concat(parts)
  elseif cl then
    if not cl:match("^%d+$") or #cl > 15 then return nil, Refusal(400, "malformed Content-Length") end
    local n = tonumber(cl)
    if n > s.max_body then return nil, Refusal(413, "the request body is larger than " .. s.max_body .. " bytes") end
    if continue and n > 0 and not self:send("HTTP/1.1 100 Continue\r\n\r\n") then return nil end
    local body = self:read_bytes(n, s.read_timeout)
    if not body then return nil end
    req.body = body
  else
    req.body = ""
  end
  return true
end

-- ---- the reply ----

local Res = {}
Res.__index = Res

local function head_of(status, headers, extra)
  local out = { string.format("HTTP/1.1 %d %s\r\n", status, REASONS[status] or "Status") }
  local names = {}
  for k in pairs(headers or {}) do names[#names + 1] = k end
  table.sort(names)
  for _, k in ipairs(names) do
    local lk = k:lower()
    if lk ~= "content-length" and lk ~= "transfer-encoding" and lk ~= "connection" then
      out[#out + 1] = k .. ": " .. tostring(headers[k]) .. "\r\n"
    end
  end
  out[#out + 1] = extra
  out[#out + 1] = "\r\n"
  return table.concat(out)
end

-- res:status(code [, headers]): the status and headers; sent with the first
-- write (chunked) or with finish (Content-Length)
function Res:status(code, headers)
  if self.head_sent then error("the reply's status was already sent", 2) end
  self.code, self.headers = code, headers
end

-- res:write(chunk) -> true | false (the peer is gone): a piece of a chunked reply
function Res:write(chunk)
  if self.finished then error("the reply is finished", 2) end
  local c = self.conn
  if not self.head_sent then
    self.head_sent, self.chunked = true, true
    if not c:send(head_of(self.code or 200, self.headers, self.close and "Transfer-Encoding: chunked\r\nConnection: close\r\n"
      or "Transfer-Encoding: chunked\r\n")) then return false end
  end
  if chunk == nil or #chunk == 0 then return not c.gone end
  return c:send(string.format("%x\r\n", #chunk) .. chunk .. "\r\n")
end

-- res:finish([body]) -> true | false (the peer is gone): the end of the reply
function Res:finish(body)
  if self.finished then return not self.conn.gone end
  local c = self.conn
  if self.chunked then
    if body and #body > 0 then self:write(body) end
    self.finished = true
    return c:send("0\r\n\r\n")
  end
  self.finished, self.head_sent = true, true
  body = body or ""
  local extra = "Content-Length: " .. #body .. "\r\n" .. (self.close and "Connection: close\r\n" or "")
  return c:send(head_of(self.code or 200, self.headers, extra) .. (self.method == "HEAD" and "" or body))
end

-- gone() -> true once the peer has disconnected: a write failed, or the
-- connection reads as closed now (bytes of a next request that came early
-- are kept for it)
function Res:gone()
  local c = self.conn
  if not c.gone then
    local data = proc.read_fd(c.fd)
    if data == "" or data == nil then c.gone = true
    elseif data then c.buf = c.buf .. data end
  end
  return c.gone == true
end

function Conn:refuse(r)
  self:send(head_of(r.status, { ["Content-Type"] = "text/plain" },
    "Content-Length: " .. (#r.line + 1) .. "\r\nConnection: close\r\n") .. r.line .. "\n")
end

-- serve(): the requests of one connection, one after another
function Conn:serve()
  local s = self.server
  while not s.closed do
    local req, refused = self:read_head()
    if req then
      local ok
      ok, refused = self:read_body(req)
      if not ok and not refused then break end
    end
    if refused then self:refuse(refused); break end
    if not req then break end
    local conn_h = (req.headers["connection"] or ""):lower()
    local keep = (req.version == "1.1" and not conn_h:find("close", 1, true))
      or (req.version == "1.0" and conn_h:find("keep-alive", 1, true) ~= nil)
    local res = setmetatable({ conn = self, close = not keep, method = req.method }, Res)
    local task = loop.spawn(function() return s.handler(req, res) end)
    self.task_of_request = task
    local ok, err = pcall(task.await, task)
    self.task_of_request = nil
    if not ok then
      if err == loop.Cancelled then break end
      if s.on_error then s.on_error(err, req) else io.stderr:write("httpd: a handler failed: ", tostring(err), "\n") end
      if not res.head_sent then
        res.close, keep = true, false
        res:status(500, { ["Content-Type"] = "text/plain" })
        res:finish("internal error\n")
      end
      break
    end
    if not res.finished then res:finish() end
    self.served = self.served + 1
    if not keep or self.gone or (res.chunked and not res.finished) then break end
  end
end

-- ---- the server ----

local Server = {}
Server.__index = Server

local function run_conn(server, fd)
  local c = setmetatable({ server = server, fd = fd, buf = "", served = 0 }, Conn)
  server.conns[c] = true
  local ok, err = pcall(c.serve, c)
  server.conns[c] = nil
  sock.close(fd)
  if not ok and err ~= loop.Cancelled then error(err, 0) end
end

local function accept_loop(server)
  while not server.closed do
    local fd, err = sock.accept(server.fd)
    if fd then
      local task
      task = loop.spawn(function()
        run_conn(server, fd)
        server.tasks[task] = nil
      end)
      server.tasks[task] = true
    elseif fd == false then
      loop.await_fd(server.fd, "r")
    else   -- EMFILE and the like: wait a little rather than spin
      io.stderr:write("httpd: accept: ", tostring(err), "\n")
      loop.sleep(0.1)
    end
  end
end

-- serve(opts, handler) -> server | nil, message. Must be called inside a loop task.
function M.serve(opts, handler)
  opts = opts or {}
  local fd, port = sock.listen_tcp(opts.host or "127.0.0.1", opts.port or 0)
  if not fd then return nil, "cannot listen on " .. (opts.host or "127.0.0.1") .. ":" .. tostring(opts.port or 0) .. ": " .. tostring(port) end
  local server = setmetatable({ fd = fd, port = port, host = opts.host or "127.0.0.1", handler = handler,
    max_header = opts.max_header or M.MAX_HEADER, max_body = opts.max_body or M.MAX_BODY,
    idle = opts.idle or M.IDLE, read_timeout = opts.read_timeout or M.READ_TIMEOUT,
    write_timeout = opts.write_timeout or M.WRITE_TIMEOUT, on_error = opts.on_error,
    conns = {}, tasks = {} }, Server)
  server.acceptor = loop.spawn(accept_loop, server)
  return server
end

-- close(): stop listening, end every connection and the handlers running
function Server:close()
  if self.closed then return end
  self.closed = true
  loop.cancel(self.acceptor)
  for c in pairs(self.conns) do
    if c.task_of_request then loop.cancel(c.task_of_request) end
  end
  for task in pairs(self.tasks) do loop.cancel(task) end
  sock.close(self.fd)
end

return M
