-- tabula.http — HTTP from Lua tasks over libcurl's multi interface (src/http.c).
--
--   local res, code, msg = http.request{ method = "POST", url = ..., headers = {"A: b"},
--     body = "...", connect_timeout = 10, timeout = 600, idle_timeout = 120,
--     max_bytes = 8388608,                  -- a longer body fails with code "too_large"
--     on_chunk = function(data) ... end }   -- on_chunk streams the body as it arrives
--   res = { status = 200, headers = { ["content-type"] = ... }, body = "...", seconds = 0.12,
--           raw_headers = "HTTP/1.1 200 OK\r\n..." }   -- headers is made when first read
--
-- Transport failures are values: nil, curl's error code, message. Proxies come
-- from the usual environment variables (http_proxy, https_proxy, no_proxy), as
-- libcurl reads them.
local C = require "tabula.c.http"
local loop = require "tabula.loop"

local M = {}

-- a streamed body: on_chunk for every piece until the transfer finishes
local function read_stream(req, done, stream, on_chunk)
  while true do
    loop.await_token(stream)
    local data, finished = req:chunk()
    if #data > 0 then on_chunk(data) end
    if finished then break end
  end
  loop.forget(done)
end

function M.request(opts)
  local req, err = C.request(opts)     -- it reads the fields above; on_chunk means stream
  if not req then return nil, -1, err end
  local done, stream = req:tokens()
  local ok, e
  if opts.on_chunk then
    ok, e = pcall(read_stream, req, done, stream, opts.on_chunk)
  else
    ok, e = pcall(loop.await_token, done)
  end
  if not ok then
    req:cancel()
    loop.forget(done); loop.forget(stream)
    error(e, 0)
  end
  loop.forget(stream)
  local res, code, msg = req:result()
  req:cancel()
  if not res then return nil, code, msg end
  return res
end

M.in_flight = C.in_flight

return M
