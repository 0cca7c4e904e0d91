-- tabula.chromium — one headless Chromium kept running and driven over the
-- DevTools protocol on a pipe (--remote-debugging-pipe: the browser reads
-- commands on its fd 3 and writes answers and events on its fd 4, each message
-- a JSON object ended by a NUL byte). The viewer tests open every page of a
-- test file in the one browser instead of starting Chromium per page, and the
-- report benches time a page's load in it.
--
--   local chromium = require "tabula.chromium"
--   local b = chromium.start({ profile = dir })        -- nil, why: no browser
--   local page = b:open("file:///.../report.html#x", { width = 1400, height = 1000 })
--   page:wait("document.getElementById('selftest-result')")
--   local dom = page:dom(); page:screenshot(dir .. "/a.png"); page:close()
--   b:close()
--
-- page.console lists what the page logged (console calls, uncaught errors),
-- each as "level: text". Every wait has a deadline (a browser that stops
-- answering is an error naming the command), never a sleep standing in for an
-- event. Must be called from a task of tabula.loop.
local loop = require "tabula.loop"
local json = require "tabula.json"
local fs = require "tabula.fs"

local M = {}
M.PATH = "/usr/bin/chromium"
M.DEADLINE = 120   -- seconds for one command or wait: a guard against a browser gone silent

local Browser, Page = {}, {}
Browser.__index, Page.__index = Browser, Page

-- start(opts) -> browser | nil, why. opts.path (default M.PATH), opts.profile
-- (the --user-data-dir; default a folder under TMPDIR, removed by close),
-- opts.args (more command-line switches)
function M.start(opts)
  opts = opts or {}
  local path = opts.path or M.PATH
  if fs.kind(path) ~= "file" then return nil, path .. ": no such program" end
  local profile, own = opts.profile, false
  if not profile then
    profile = os.tmpname(); os.remove(profile); own = true
  end
  assert(fs.mkdir_p(profile))
  local argv = { path, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
    "--user-data-dir=" .. profile, "--no-first-run", "--no-default-browser-check", "--mute-audio",
    "--hide-scrollbars", "--disable-extensions", "--disable-background-networking" }
  for _, a in ipairs(opts.args or {}) do argv[#argv + 1] = a end
  argv[#argv + 1] = "about:blank"
  local p, err = require("tabula.c.proc").spawn(argv, "null", { protocol = true, owned = true })
  if not p then return nil, err end
  local b = setmetatable({ p = p, profile = own and profile or nil, next_id = 0, buf = "", answers = {},
    events = {}, closed = false }, Browser)
  local ok, e = pcall(b.call, b, "Browser.getVersion")
  if not ok then b:close(); return nil, "chromium did not answer: " .. tostring(e) end
  b.version = e.product
  return b
end

-- read_messages(b, timeout): waits for what the browser writes and files each
-- message: an answer by its id, an event in its session's queue
local function read_messages(b, timeout)
  local data, err = b.p:read()
  if data == nil then error("chromium: reading its pipe: " .. tostring(err), 0) end
  if data == "" then b.closed = true; error("chromium: the browser closed its pipe (it died?)", 0) end
  if data == false then
    loop.await_fd(b.p:fd(), "r", timeout)
    return
  end
  b.buf = b.buf .. data
  while true do
    local z = b.buf:find("\0", 1, true)
    if not z then break end
    local text = b.buf:sub(1, z - 1)
    b.buf = b.buf:sub(z + 1)
    local ok, msg = pcall(json.decode, text)
    if ok and type(msg) == "table" then
      if msg.id then
        b.answers[msg.id] = msg
      else
        local q = b.events[msg.sessionId or ""]
        if not q then q = {}; b.events[msg.sessionId or ""] = q end
        q[#q + 1] = msg
        local page = b.pages and b.pages[msg.sessionId or ""]
        if page then page:on_event(msg) end
      end
    end
  end
end

-- b:call(method [, params [, session]]) -> the result; a protocol error is raised
function Browser:call(method, params, session)
  if self.closed then error("chromium: the browser is closed", 0) end
  self.next_id = self.next_id + 1
  local id = self.next_id
  local msg = { id = id, method = method, params = params or json.object() }
  if session then msg.sessionId = session end
  local ok, err = self.p:write(json.encode(msg) .. "\0")
  if not ok then self.closed = true; error("chromium: " .. method .. ": " .. tostring(err), 0) end
  local deadline = loop.now() + M.DEADLINE
  while not self.answers[id] do
    local left = deadline - loop.now()
    if left <= 0 then error(string.format("chromium: no answer to %s in %d s", method, M.DEADLINE), 0) end
    read_messages(self, left)
  end
  local a = self.answers[id]
  self.answers[id] = nil
  if a.error then error(string.format("chromium: %s: %s", method, tostring(a.error.message)), 0) end
  return a.result or {}
end

-- b:open(url [, opts]) -> page: a new tab of opts.width x opts.height (default
-- 1400 x 1000) that has loaded url (its load event fired)
function Browser:open(url, opts)
  opts = opts or {}
  local target = self:call("Target.createTarget", { url = "about:blank" }).targetId
  local session = self:call("Target.attachToTarget", { targetId = target, flatten = true }).sessionId
  local page = setmetatable({ b = self, target = target, session = session, console = {}, loaded = false }, Page)
  self.pages = self.pages or {}
  self.pages[session] = page
  self:call("Page.enable", nil, session)
  self:call("Runtime.enable", nil, session)
  self:call("Emulation.setDeviceMetricsOverride", { width = opts.width or 1400, height = opts.height or 1000,
    deviceScaleFactor = 1, mobile = false }, session)
  page:go(url)
  return page
end

-- b:close(): the browser quits (and its own profile folder goes)
function Browser:close()
  if not self.closed then
    pcall(function()
      self.next_id = self.next_id + 1
      self.p:write(json.encode({ id = self.next_id, method = "Browser.close", params = json.object() }) .. "\0")
    end)
    self.closed = true
  end
  local deadline = loop.now() + 10
  while not self.p:reap(false) and loop.now() < deadline do loop.sleep(0.05) end
  if not self.p:reap(false) then self.p:kill(); self.p:reap(true) end
  if self.profile then fs.remove_tree(self.profile) end
end

function Page:on_event(msg)
  local m, p = msg.method, msg.params or {}
  if m == "Page.loadEventFired" then
    self.loaded = true
  elseif m == "Runtime.consoleAPICalled" then
    local parts = {}
    for _, a in ipairs(p.args or {}) do parts[#parts + 1] = tostring(a.value or a.description or a.type) end
    self.console[#self.console + 1] = tostring(p.type) .. ": " .. table.concat(parts, " ")
  elseif m == "Runtime.exceptionThrown" then
    local d = p.exceptionDetails or {}
    local text = d.exception and (d.exception.description or d.exception.value) or d.text
    self.console[#self.console + 1] = "exception: " .. tostring(text)
  end
end

-- page:go(url): navigates and waits for the load event
function Page:go(url)
  self.loaded = false
  local r = self.b:call("Page.navigate", { url = url }, self.session)
  if r.errorText then error("chromium: cannot open " .. url .. ": " .. r.errorText, 0) end
  local deadline = loop.now() + M.DEADLINE
  while not self.loaded do
    local left = deadline - loop.now()
    if left <= 0 then error("chromium: " .. url .. " did not load in " .. M.DEADLINE .. " s", 0) end
    read_messages(self.b, left)
  end
end

-- page:eval(expr) -> its value (a promise is awaited; null and undefined are nil);
-- a thrown error is raised
function Page:eval(expr)
  local r = self.b:call("Runtime.evaluate", { expression = expr, returnByValue = true, awaitPromise = true }, self.session)
  if r.exceptionDetails then
    local d = r.exceptionDetails
    error("chromium: " .. (d.exception and (d.exception.description or tostring(d.exception.value)) or d.text or "error"), 0)
  end
  local v = r.result and r.result.value
  if json.is_null(v) then return nil end
  return v
end

-- page:wait(expr [, deadline]) -> its value once truthy (checked every 50 ms;
-- an error naming expr after the deadline, default M.DEADLINE s)
function Page:wait(expr, deadline)
  local stop = loop.now() + (deadline or M.DEADLINE)
  while true do
    local v = self:eval(expr)
    if v then return v end
    if loop.now() > stop then error("chromium: waited in vain for " .. expr, 0) end
    loop.sleep(0.05)
  end
end

-- page:dom() -> the document's HTML as it stands (what --dump-dom prints)
function Page:dom()
  return self:eval("document.documentElement.outerHTML")
end

-- page:screenshot(path [, full]): a PNG of the viewport (full: the whole page)
function Page:screenshot(path, full)
  local r = self.b:call("Page.captureScreenshot", { format = "png", captureBeyondViewport = full and true or false },
    self.session)
  fs.write_atomic(path, require("tabula.base64").decode(r.data))
end

function Page:close()
  pcall(self.b.call, self.b, "Target.closeTarget", { targetId = self.target })
  if self.b.pages then self.b.pages[self.session] = nil end
end

return M
