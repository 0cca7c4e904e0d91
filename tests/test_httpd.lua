-- tabula.httpd over loopback, spoken to in raw bytes (tabula.c.sock): bodies
-- by Content-Length and chunked, two requests on one kept-alive connection,
-- 413 and 400, a streamed (chunked) reply, and a client that disconnects in
-- the middle of a stream while the server carries on.
local t = require "tabula.testing"
local httpd = require "tabula.httpd"
local sock = require "tabula.c.sock"
local proc = require "tabula.c.proc"
local loop = require "tabula.loop"
local http = require "tabula.http"
local fs = require "tabula.fs"
local test, T = t.suite()

-- an echo server: answers with method, path, query, a header and the body
local function echo_server(opts)
  local seen = {}
  local server = assert(httpd.serve(opts or { host = "127.0.0.1", port = 0 }, function(req, res)
    seen[#seen + 1] = req
    res:status(200, { ["Content-Type"] = "text/plain" })
    res:finish(string.format("%s %s q=%s x=%s body=%s", req.method, req.path, tostring(req.query),
      tostring(req.headers["x-thing"]), req.body))
  end))
  return server, seen
end

-- a raw client connection
local Client = {}
Client.__index = Client

local function connect(port)
  local fd = assert(sock.connect_tcp("127.0.0.1", port))
  return setmetatable({ fd = fd, buf = "" }, Client)
end

function Client:send(data)
  local pos = 1
  while pos <= #data do
    local n = sock.send(self.fd, data:sub(pos))
    if n == false then assert(loop.await_fd(self.fd, "w", 5)) else pos = pos + assert(n) end
  end
end

-- read(pred, limit) -> what arrived, once pred(buffer) is true, or the server closed, or limit seconds passed
function Client:read(pred, limit)
  local stop = loop.now() + (limit or 5)
  while not pred(self.buf) do
    local left = stop - loop.now()
    if left <= 0 then break end
    if loop.await_fd(self.fd, "r", left) then
      local d = proc.read_fd(self.fd)
      if d == "" or d == nil then self.eof = true; break end
      if d then self.buf = self.buf .. d end
    end
  end
  return self.buf
end

-- one whole reply with a Content-Length, taken off the buffer
function Client:reply(limit)
  local text = self:read(function(b)
    local head = b:find("\r\n\r\n", 1, true)
    if not head then return false end
    local n = tonumber(b:sub(1, head):match("[Cc]ontent%-[Ll]ength: (%d+)")) or 0
    return #b >= head + 3 + n
  end, limit)
  local head = text:find("\r\n\r\n", 1, true)
  if not head then return nil end
  local n = tonumber(text:sub(1, head):match("[Cc]ontent%-[Ll]ength: (%d+)")) or 0
  local status = tonumber(text:match("^HTTP/1%.1 (%d+)"))
  local body = text:sub(head + 4, head + 3 + n)
  self.buf = text:sub(head + 4 + n)
  return { status = status, head = text:sub(1, head + 1), body = body }
end

function Client:close() sock.close(self.fd) end

test("a body by Content-Length, the query and a header (case-insensitive) reach the handler", function()
  local server, seen = echo_server()
  local c = connect(server.port)
  c:send("POST /v1/things?alt=sse&k=2 HTTP/1.1\r\nHost: x\r\nX-THING: yes\r\nContent-Length: 11\r\n\r\nhello world")
  local r = c:reply()
  t.eq(r.status, 200)
  t.eq(r.body, "POST /v1/things q=alt=sse&k=2 x=yes body=hello world")
  t.eq(seen[1].headers["x-thing"], "yes")
  c:close()
  server:close()
end)

test("a chunked request body is joined (chunk extensions and trailers skipped)", function()
  local server = echo_server()
  local c = connect(server.port)
  c:send("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n1;ext=1\r\n \r\nA\r\n0123456789\r\n0\r\nX-Trailer: 1\r\n\r\n")
  local r = c:reply()
  t.eq(r.status, 200)
  t.eq(r.body, "POST /c q=nil x=nil body=hello 0123456789")
  c:close()
  server:close()
end)

test("keep-alive: two requests on one connection, sent together, are answered in order on it", function()
  local server, seen = echo_server()
  local c = connect(server.port)
  c:send("GET /one HTTP/1.1\r\nHost: x\r\n\r\nPOST /two HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
  local r1 = c:reply()
  local r2 = c:reply()
  t.eq(r1.body, "GET /one q=nil x=nil body=")
  t.eq(r2.body, "POST /two q=nil x=nil body=abc")
  t.ok(not r1.head:lower():find("connection: close", 1, true))
  -- still open: a third request on the same connection
  c:send("GET /three HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
  local r3 = c:reply()
  t.eq(r3.body, "GET /three q=nil x=nil body=")
  t.contains(r3.head:lower(), "connection: close")
  c:read(function() return false end, 2)
  t.ok(c.eof, "the server closes after Connection: close")
  t.eq(#seen, 3)
  c:close()
  server:close()
end)

test("413: a body over max_body, and a head over max_header; the handler never runs", function()
  local server, seen = echo_server({ port = 0, max_body = 100, max_header = 512 })
  local c = connect(server.port)
  c:send("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n")
  local r = c:reply()
  t.eq(r.status, 413)
  c:close()
  local c2 = connect(server.port)
  c2:send("POST /big HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n" .. string.rep("a", 64) .. "\r\n40\r\n")
  t.eq(c2:reply().status, 413)
  c2:close()
  local c3 = connect(server.port)
  c3:send("GET /h HTTP/1.1\r\nX-Long: " .. string.rep("b", 600) .. "\r\n\r\n")
  t.eq(c3:reply().status, 413)
  c3:close()
  t.eq(#seen, 0)
  server:close()
end)

test("400 in one line: a malformed request line, a bad header, a bad Content-Length, a bad chunk size", function()
  local server, seen = echo_server()
  for _, raw in ipairs({
    "HELLO\r\n\r\n",
    "GET /x HTTP/1.1\r\nno colon here\r\n\r\n",
    "POST /x HTTP/1.1\r\nContent-Length: 1x\r\n\r\n",
    "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    "GET x HTTP/1.1\r\n\r\n",
  }) do
    local c = connect(server.port)
    c:send(raw)
    local r = c:reply()
    t.eq(r and r.status, 400, raw)
    local line = r.body
    t.ok(line:sub(-1) == "\n" and not line:sub(1, -2):find("\n"), "one line: " .. line)
    c:read(function() return false end, 2)
    t.ok(c.eof, "closed after a 400: " .. raw)
    c:close()
  end
  t.eq(#seen, 0)
  server:close()
end)

test("a chunked reply streams as it is written, and libcurl reads it whole", function()
  local server = assert(httpd.serve({ port = 0 }, function(_, res)
    res:status(200, { ["Content-Type"] = "text/event-stream" })
    for i = 1, 3 do res:write("data: " .. i .. "\n\n"); loop.sleep(0.01) end
    res:finish()
  end))
  local pieces = {}
  local r = assert(http.request({ url = "http://127.0.0.1:" .. server.port .. "/s", timeout = 10,
    on_chunk = function(d) pieces[#pieces + 1] = d end }))
  t.eq(r.status, 200)
  t.eq(table.concat(pieces), "data: 1\n\ndata: 2\n\ndata: 3\n\n")
  t.ok(#pieces >= 2, "arrived in pieces")
  server:close()
end)

test("a client gone mid-stream: the handler's write returns false, the server serves the next request", function()
  local wrote_after, handler_ended = nil, false
  local server = assert(httpd.serve({ port = 0 }, function(req, res)
    if req.path == "/ping" then res:finish("pong"); return end
    res:status(200, { ["Content-Type"] = "text/event-stream" })
    local ok = true
    for _ = 1, 400 do   -- ~20 MB if nobody stops it
      ok = res:write(string.rep("x", 50000) .. "\n")
      if not ok then break end
      loop.sleep(0.001)
    end
    wrote_after = ok
    handler_ended = true
  end))
  local c = connect(server.port)
  c:send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
  c:read(function(b) return #b > 1000 end)
  t.ok(#c.buf > 1000, "the stream started")
  c:close()
  local stop = loop.now() + 10
  while not handler_ended and loop.now() < stop do loop.sleep(0.01) end
  t.ok(handler_ended, "the handler saw the client go")
  t.eq(wrote_after, false)
  local c2 = connect(server.port)
  c2:send("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")
  t.eq(c2:reply().body, "pong")
  c2:close()
  server:close()
end)

test("a handler that fails before answering gets a 500; the server stays up", function()
  local server = assert(httpd.serve({ port = 0, on_error = function() end }, function(req, res)
    if req.path == "/bad" then error("boom") end
    res:finish("fine")
  end))
  local c = connect(server.port)
  c:send("GET /bad HTTP/1.1\r\nHost: x\r\n\r\n")
  t.eq(c:reply().status, 500)
  c:close()
  local c2 = connect(server.port)
  c2:send("GET /good HTTP/1.1\r\nHost: x\r\n\r\n")
  t.eq(c2:reply().body, "fine")
  c2:close()
  server:close()
end)

test("a client that stops reading does not hold up the server: other connections are served meanwhile", function()
  local released = loop.future()
  local stalled_wrote
  local server = assert(httpd.serve({ port = 0, write_timeout = 30 }, function(req, res)
    if req.path == "/ping" then res:finish("pong"); return end
    res:status(200, { ["Content-Type"] = "text/plain" })
    local block = string.rep("y", 65536)
    for _ = 1, 1024 do   -- 64 MB: far more than the socket buffers hold
      if not res:write(block) then break end
    end
    stalled_wrote = true
    released:set()
  end))
  local c = connect(server.port)
  c:send("GET /flood HTTP/1.1\r\nHost: x\r\n\r\n")   -- and never read
  loop.sleep(0.2)
  t.ok(not stalled_wrote, "the flood cannot have been written to a client that reads nothing")
  for _ = 1, 3 do
    local c2 = connect(server.port)
    c2:send("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")
    local r = c2:reply(5)
    t.eq(r and r.body, "pong")
    c2:close()
  end
  c:close()   -- the stalled handler now sees its client gone
  released:await()
  server:close()
end)

-- a fresh tabula (SIGPIPE as by default: it has started no child) writes
-- with proc.write_fd to a loopback peer that has closed: the write fails,
-- the process is not killed by SIGPIPE (tabula.c.sock ignores it)
test("writing to a closed loopback peer fails with EPIPE instead of killing tabula", function()
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/pipe.lua", [[
local sock = require "tabula.c.sock"
local proc = require "tabula.c.proc"
local fd, port = assert(sock.listen_tcp("127.0.0.1", 0))
local c = assert(sock.connect_tcp("127.0.0.1", port))
local s
repeat s = sock.accept(fd) until s
sock.close(c)
for _ = 1, 1000 do
  local ok, err = proc.write_fd(s, string.rep("x", 1000))
  if not ok then print("write failed: " .. err); os.exit(0) end
end
print("every write succeeded")
]])
  local p = assert(proc.spawn({ t.tabula_bin(), dir .. "/pipe.lua" }, "stdout"))
  local out = ""
  local stop = loop.now() + 20
  while loop.now() < stop do
    local done = p:reap(false)
    local d = p:read()
    if d and d ~= "" then out = out .. d end
    if done then break end
    loop.sleep(0.02)
  end
  local done, how, code = p:reap(true)
  t.ok(done)
  t.eq({ how, code }, { "exit", 0 }, "killed by a signal? output: " .. out)
  t.contains(out, "write failed: Broken pipe")
end)

return T
