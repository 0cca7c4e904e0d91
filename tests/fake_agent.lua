-- tests/fake_agent.lua — a fake agent program for the tests of tabula.program: run as
-- `tabula tests/fake_agent.lua`, with the environment a program harness gives a command
-- (TABULA_MCP_CONFIG, TABULA_BASE_URL, TABULA_API_KEY, TABULA_MODEL, TABULA_PROMPT,
-- TABULA_RESUME). It starts the MCP server its configuration names, as a real program does,
-- and behaves as FAKE_MODE says:
--   play         observe, one model call (Chat Completions, through the proxy), act with the
--                first legal id, exit
--   twice        as play, then act a second time
--   exit         observe, then exit without acting (status 3)
--   sleep        observe, then wait for ever (the decision limit must stop it)
--   ignore_term  as play, but ignore SIGTERM and stay (the SIGKILL must stop it); its first
--                launch only, later ones play
--   other_model  as play, its model call naming another model (FAKE_OTHER)
--   spend        as play, but FAKE_CALLS model calls before acting (a budget stops it)
--   xiangqi      XiangqiBench: observe, then the moves FAKE_MOVES (b1b9,...) with the move tool
-- It prints what it saw (one line per event) on stdout, which tabula keeps in program.log;
-- FAKE_TRACE (a file) gets the same lines appended, and the environment it was given.
local json = require "tabula.json"
local proc = require "tabula.c.proc"
local loop = require "tabula.loop"
local http = require "tabula.http"
local host = require "tabula.c.host"

local mode = os.getenv("FAKE_MODE") or "play"
local trace = os.getenv("FAKE_TRACE")

local function say(fmt, ...)
  local line = string.format(fmt, ...)
  io.stdout:write(line, "\n"); io.stdout:flush()
  if trace then local f = io.open(trace, "a"); f:write(line, "\n"); f:close() end
end

local cfg = json.decode(assert(io.open(os.getenv("TABULA_MCP_CONFIG"))):read("a")).mcpServers.tabula
local argv = { cfg.command }
for _, a in ipairs(cfg.args) do argv[#argv + 1] = a end

loop.run(function()
  -- ignore_term: only its first launch (a marker in its workspace), so a match stays short
  if mode == "ignore_term" and io.open("IGNORED_ONCE") then mode = "play" end
  if mode == "ignore_term" then io.open("IGNORED_ONCE", "w"):close(); proc.trap() end
  say("env HOME=%s cwd=%s resume=%s", tostring(os.getenv("HOME")), tostring(os.getenv("PWD")), tostring(os.getenv("TABULA_RESUME")))
  if trace then
    local p = io.popen("env")
    local f = io.open(trace .. ".env", "a"); f:write(p:read("a"), "\n--\n"); f:close(); p:close()
  end
  local server = assert(proc.spawn(argv, "null"))
  local buf, id = "", 0
  local function rpc(method, params)
    id = id + 1
    assert(server:write(json.canonical({ jsonrpc = "2.0", id = id, method = method, params = params }) .. "\n"))
    while true do
      local nl = buf:find("\n", 1, true)
      if nl then
        local line = buf:sub(1, nl - 1); buf = buf:sub(nl + 1)
        local m = json.decode(line)
        if m and m.id == id then
          if m.error then say("error %s: %s", method, json.canonical(m.error)); os.exit(6) end
          return m
        end
      else
        loop.await_fd(server:fd(), "r")
        local d = server:read()
        if d == "" then say("server closed"); os.exit(4) end
        if d then buf = buf .. d end
      end
    end
  end
  rpc("initialize", { protocolVersion = "2025-06-18", capabilities = json.object(), clientInfo = { name = "fake", version = "1" } })
  server:write(json.canonical({ jsonrpc = "2.0", method = "notifications/initialized" }) .. "\n")
  local tools = rpc("tools/list", json.object()).result.tools
  local names = {}
  for i, tl in ipairs(tools) do names[i] = tl.name end
  say("tools %s", table.concat(names, ","))
  local obs = rpc("tools/call", { name = "observe", arguments = json.object() }).result.content[1].text
  if os.getenv("FAKE_DUMP") then say("%s", obs) end
  local first = obs:match("Your legal actions %(id: description%):\n(%S-): ")
  say("observed legal %s", tostring(first))
  if mode == "exit" then os.exit(3) end
  if mode == "xiangqi" then   -- XiangqiBench's agent-CLI arm: play FAKE_MOVES (comma-separated) with the move tool
    for m in (os.getenv("FAKE_MOVES") or ""):gmatch("[^,]+") do
      local r = rpc("tools/call", { name = "move", arguments = { move = m } }).result
      say("move %s -> %s%s", m, r.content[1].text:gsub("\n", " "), r.isError and " (error)" or "")
    end
    server:close_input()
    os.exit(0)
  end
  if mode == "sleep" then while true do loop.sleep(1) end end
  local function ask(model)
    local res, code, msg = http.request({ method = "POST", url = os.getenv("TABULA_BASE_URL") .. "/chat/completions",
      headers = { "Content-Type: application/json", "Authorization: Bearer " .. os.getenv("TABULA_API_KEY") },
      body = json.canonical({ model = model, messages = { { role = "user", content = "Which action? " .. tostring(first) } },
        max_tokens = 50 }), timeout = 30 })
    say("model %s -> %s", model, res and tostring(res.status) or (tostring(code) .. " " .. tostring(msg)))
    return res
  end
  local calls = mode == "spend" and tonumber(os.getenv("FAKE_CALLS") or "5") or 1
  for _ = 1, calls do
    local r = ask(mode == "other_model" and (os.getenv("FAKE_OTHER") or "other-model") or os.getenv("TABULA_MODEL"))
    if r and r.status ~= 200 and mode == "spend" then say("refused: %s", r.body); os.exit(5) end
  end
  local r = rpc("tools/call", { name = "act", arguments = { id = first } }).result
  say("act %s -> %s%s", tostring(first), r.content[1].text, r.isError and " (error)" or "")
  if mode == "twice" then
    local r2 = rpc("tools/call", { name = "act", arguments = { id = first } }).result
    say("act again -> %s%s", r2.content[1].text, r2.isError and " (error)" or "")
  end
  if mode == "ignore_term" then
    say("staying")
    while true do loop.sleep(1) end
  end
  server:close_input()
  os.exit(0)
end)
