-- tabula mcp in the first hour (issue 46, item 13): a client line is read in
-- pieces joined once (no quadratic re-copying), up to a size limit; a longer
-- one is answered with a JSON-RPC error and not kept; arguments that fail
-- validation come back as tool errors (isError, the 2025-11-25 rule), so a
-- model can correct itself and the trial goes on.
local t = require "tabula.testing"
local client = require "tests.mcp_client"
local mcp = require "tabula.mcp"
local fs = require "tabula.fs"
local json = require "tabula.json"
local test, T = t.suite()

local start = client.start_case

test("the line reader: lines split across chunks, CR LF, and a line over the limit dropped with its size", function()
  local lines, long = {}, {}
  local feed = mcp.line_reader(function(l) lines[#lines + 1] = l end, function(n) long[#long + 1] = n end, 10)
  feed("ab")
  feed("c\r\nde")
  feed("f\n\n  \nxyz")
  feed(string.rep("q", 8))
  feed("\n0123456789")
  feed("\n")
  t.eq(lines, { "abc", "def", "0123456789" })
  t.eq(long, { 11 }, "xyz and eight q: 11 bytes, one over the limit")
  lines, long = {}, {}
  feed = mcp.line_reader(function(l) lines[#lines + 1] = l end, function(n) long[#long + 1] = n end, 10)
  feed("0123456789A")
  feed("BC\nok\n")
  t.eq(long, { 13 })
  t.eq(lines, { "ok" })
end)

test("a line far over the limit is not kept: memory stays bounded while it streams in", function()
  local got = 0
  local feed = mcp.line_reader(function() end, function(n) got = n end, 1024 * 1024)
  local chunk = string.rep("x", 65536)
  collectgarbage()
  local before = collectgarbage("count")
  local peak = 0
  for i = 1, 512 do   -- 32 MB
    feed(chunk)
    if i % 64 == 0 then collectgarbage(); peak = math.max(peak, collectgarbage("count") - before) end
  end
  feed("\n")
  t.eq(got, 512 * 65536)
  t.ok(peak < 4 * 1024, string.format("held %.0f KB while 32 MB streamed in", peak))
end)

test("a message over --max-message-bytes: a JSON-RPC error, and the session goes on", function()
  local dir = t.tmpdir()
  local c = start(dir, { "--max-message-bytes", "2000" })
  c:initialize()
  c:send(json.canonical({ jsonrpc = "2.0", id = 99, method = "ping", params = { pad = string.rep("x", 5000) } }))
  local r = c:recv()
  t.eq(r.error and r.error.code, -32600, json.canonical(r))
  t.contains(r.error.message, "more than the 2000")
  t.eq(c:request("ping").result, {}, "the next message is read")
  c:close()
end)

test("the default limit: a 6 MB line is refused without being parsed", function()
  local dir = t.tmpdir()
  local c = start(dir)
  c:initialize()
  c:send(string.rep("y", 6 * 1024 * 1024))
  local r = c:recv()
  t.eq(r.error and r.error.code, -32600, json.canonical(r))
  t.contains(r.error.message, "bytes")
  t.eq(c:request("ping").result, {})
  c:close()
end)

test("arguments that fail validation are tool errors the model can correct; the trial goes on", function()
  local dir = t.tmpdir()
  local c = start(dir)
  c:initialize()
  local r = c:request("tools/call", { name = "move", arguments = json.array({ 1 }) })
  t.ok(r.result, "a result, not a protocol error: " .. json.canonical(r))
  local text, is_error = client.text(r)
  t.eq(is_error, true)
  t.contains(text, "must be a JSON object")
  text, is_error = client.text(c:call("move", json.object()))
  t.eq(is_error, true)
  t.contains(text, "\"move\" is required")
  text, is_error = client.text(c:call("move", { move = 7 }))
  t.eq(is_error, true)
  t.contains(text, "must be of type string")
  t.eq(c:call("teleport").error.code, -32602, "an unknown tool stays a protocol error")
  text, is_error = client.text(c:call("move", { move = "b1b9" }))
  t.eq(is_error, false, "the trial was not forfeited: " .. text)
  c:close()
  local recs = require("tabula.records").read(dir .. "/run/trials.jsonl")
  t.eq(#recs, 1)
  t.eq(recs[1].status, "success")
end)

return T
