-- bench/http_client.lua — N chat-completion calls through the full model layer
-- (agent -> provider -> libcurl multi) against the mock server, C at a time.
--   tabula bench/http_client.lua URL N C
local loop = require "tabula.loop"
local agent = require "tabula.agent"
local url, n, c = arg[1], tonumber(arg[2]), tonumber(arg[3])
loop.run(function()
  local a = agent.new({ name = "bench", provider = "openai", base_url = url .. "/v1", model = "bench",
    max_in_flight = c }, { no_cache = true, max_attempts = 1 })
  local conv = { { role = "user", content = "Your move? The board is the start position." } }
  local ok, started = 0, loop.now()
  local items = {}
  for i = 1, n do items[i] = i end
  loop.map(items, c, function(i)
    local r = a:reply(conv, { sample = i })
    if r and r.text == "ok" then ok = ok + 1 end
  end)
  local secs = loop.now() - started
  io.write(string.format("tabula: %d/%d calls ok in %.2fs, %.0f calls/s\n", ok, n, secs, n / secs))
end)
