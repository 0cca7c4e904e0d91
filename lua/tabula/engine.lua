-- tabula.engine — external engines as child processes (argv only, no shell),
-- read through the event loop so that many games can wait on engines at once.
-- The C side (src/proc.c) starts the process and owns the pipes; this file
-- speaks the protocols.
--
-- Low level:
--   local e = engine.start{ name = "fairy-stockfish", argv = {"/usr/games/fairy-stockfish"}, timeout = 10 }
--   e:uci{ UCI_Variant = "xiangqi", Threads = 1, Hash = 16 }   -- handshake + options + isready
--   e:send("position fen ..."); local lines = e:read_until("^bestmove", 30)
-- Supervised (restart on the next request after a failure):
--   local u = engine.uci{ name=, argv=, options = {...}, timeout = 30 }
--   u:go{ fen = ..., moves = {...}, depth = 12 | nodes = N | movetime = ms, multipv = 3 }
--     -> { bestmove = "h2e2", lines = { [1] = { depth, cp | mate, pv = {...} }, ... } }
--   local g = engine.gtp{ name = "gnugo", argv = {"/usr/games/gnugo", "--mode", "gtp"} }
--   g:command("genmove black") -> "D4" | nil, "engine error text"
--   local pool = engine.pool(function() return engine.uci{...} end, 4); pool:with(function(e) ... end)
--
-- A dead or silent engine raises an infrastructure error (see engine.is_failure):
-- { infra = true, engine = name, last_command = ..., message = ... } — never a
-- player's loss, and never silently replaced by another backend.
local proc = require "tabula.c.proc"
local loop = require "tabula.loop"

local M = {}

local Failure = {}
Failure.__index = Failure
Failure.__tostring = function(e) return e.message end

function M.is_failure(e) return getmetatable(e) == Failure end

local Engine = {}
Engine.__index = Engine

local function fail(self, what)
  error(setmetatable({
    infra = true, engine = self.name, last_command = self.last_command,
    message = string.format("engine %s %s (last command: %s)", self.name, what, self.last_command or "none"),
  }, Failure), 0)
end

-- start{ name, argv, timeout } -> engine; a missing binary is a clear error
function M.start(spec)
  local p, err = proc.spawn(spec.argv, spec.stderr or "null")
  if not p then
    error(setmetatable({ infra = true, engine = spec.name or spec.argv[1], message = err }, Failure), 0)
  end
  return setmetatable({
    name = spec.name or spec.argv[1], argv = spec.argv, proc = p, buffer = "", pos = 1, partial = {}, partial_len = 0,
    timeout = spec.timeout or 30, id = {},
  }, Engine)
end

function Engine:send(line)
  self.last_command = line
  local ok, err = self.proc:write(line .. "\n")
  if not ok then fail(self, "cannot be written to: " .. err) end
end

-- the longest line an engine may send (a longer one is a failure: no engine
-- line is that long, and an unbounded one would take all memory)
M.MAX_LINE = 1024 * 1024

-- read_line([timeout]) -> the next line of output. (shown: the timeout to name
-- in the error, when it differs from the time left; deadline: an absolute one
-- that holds over many lines, as read_until's.) Reads in linear time:
-- each byte is searched once, a line is joined once; the deadline holds even
-- for an engine that never stops talking.
function Engine:read_line(timeout, shown, deadline)
  deadline = deadline or (loop.now() + (timeout or self.timeout))
  while true do
    local buf, pos = self.buffer, self.pos
    if pos <= #buf then
      local nl = buf:find("\n", pos, true)
      if nl then
        self.pos = nl + 1
        local line = buf:sub(pos, nl - 1)
        if #self.partial > 0 then
          self.partial[#self.partial + 1] = line
          line = table.concat(self.partial)
          self.partial, self.partial_len = {}, 0
        end
        if #line > M.MAX_LINE then self:kill(); fail(self, string.format("sent a line longer than %d bytes", M.MAX_LINE)) end
        return (line:gsub("\r$", ""))
      end
      self.partial[#self.partial + 1] = pos == 1 and buf or buf:sub(pos)
      self.partial_len = self.partial_len + #buf - pos + 1
      self.buffer, self.pos = "", 1
      if self.partial_len > M.MAX_LINE then
        self:kill()
        fail(self, string.format("sent a line longer than %d bytes", M.MAX_LINE))
      end
    end
    if loop.now() >= deadline then
      self:kill()
      fail(self, string.format("did not answer within %gs", shown or timeout or self.timeout))
    end
    local data, err = self.proc:read()
    if data == nil then fail(self, "read failed: " .. tostring(err)) end
    if data == "" then
      local _, how, code = self.proc:reap(true)
      fail(self, string.format("died (%s %s)", tostring(how), tostring(code)))
    end
    if data then
      self.buffer, self.pos = data, 1
    elseif not loop.await_fd(self.proc:fd(), "r", math.max(0, deadline - loop.now())) then
      -- one last look: the data may have come with the timer
      local late = self.proc:read()
      if late and late ~= "" then self.buffer, self.pos = late, 1
      else
        self:kill()
        fail(self, string.format("did not answer within %gs", shown or timeout or self.timeout))
      end
    end
  end
end

-- read_until(pattern [, timeout]) -> all lines up to and including the first matching one
function Engine:read_until(pattern, timeout)
  local deadline = loop.now() + (timeout or self.timeout)
  local lines = {}
  while true do
    local line = self:read_line(nil, timeout or self.timeout, deadline)
    lines[#lines + 1] = line
    if line:find(pattern) then return lines, line end
  end
end

-- uci(options): "uci" handshake, then setoption for each option (sorted), then isready
function Engine:uci(options)
  self:send("uci")
  for _, line in ipairs(self:read_until("^uciok")) do
    local k, v = line:match("^id (%w+) (.*)$")
    if k then self.id[k] = v end
  end
  local names = {}
  for k in pairs(options or {}) do names[#names + 1] = k end
  table.sort(names)
  self.options = {}
  for _, k in ipairs(names) do
    self:send(string.format("setoption name %s value %s", k, tostring(options[k])))
    self.options[k] = options[k]
  end
  self:ready()
  return self.id
end

function Engine:ready()
  self:send("isready")
  self:read_until("^readyok")
end

function Engine:kill()
  self.proc:kill(9)
  self.proc:reap(true)
end

function Engine:close()
  pcall(self.send, self, "quit")
  self.proc:close_input()
  self.proc:close()
end

-- perft_divide(position_command, depth) -> { move = count, ... }, total  (Stockfish-family "go perft")
function Engine:perft_divide(position, depth)
  self:send(position)
  self:send("go perft " .. depth)
  local lines = self:read_until("^Nodes searched")
  local out, total = {}, nil
  for _, line in ipairs(lines) do
    local m, n = line:match("^(%w+): (%d+)$")
    if m then out[m] = tonumber(n) end
    local t = line:match("^Nodes searched: (%d+)")
    if t then total = tonumber(t) end
  end
  return out, total
end

-- ---- supervision: one process per supervisor, started on the first request
-- and again after a failure ----

local function supervised(mt)
  return function(spec)
    return setmetatable({ spec = spec, name = spec.name or spec.argv[1], restarts = 0, starts = 0 }, mt)
  end
end

local function ensure(self)
  if self.e then return self.e end
  local e = M.start({ name = self.name, argv = self.spec.argv, timeout = self.spec.timeout or 30,
    stderr = self.spec.stderr })
  if self.handshake then
    local ok, err = pcall(self.handshake, self, e)
    if not ok then pcall(e.kill, e); error(err, 0) end
  end
  self.starts = self.starts + 1
  if self.starts > 1 then self.restarts = self.restarts + 1 end
  self.e = e
  return e
end

-- call fn(e) with the running engine; on an infrastructure failure the process
-- is dropped (the next request starts a fresh one) and the error raised
local function request(self, fn)
  local e = self:ensure()
  local res = table.pack(pcall(fn, e))
  if not res[1] then
    if M.is_failure(res[2]) then pcall(e.kill, e); self.e = nil end
    error(res[2], 0)
  end
  return table.unpack(res, 2, res.n)
end

-- ---- UCI ----

local Uci = { ensure = ensure, request = request }
Uci.__index = Uci

-- uci{ name, argv, options, timeout, start_timeout } -> a supervised UCI engine
M.uci = supervised(Uci)

function Uci:handshake(e)
  local saved = e.timeout
  e.timeout = self.spec.start_timeout or 10
  e:uci(self.spec.options)
  e.timeout = saved
  self.id = e.id
end

-- describe() -> what a record needs: id name, options, restarts
function Uci:describe()
  return { name = self.name, id = self.id and self.id.name, options = self.spec.options, restarts = self.restarts }
end

local function parse_info(line)
  local info = {}
  info.depth = tonumber(line:match(" depth (%d+)"))
  info.multipv = tonumber(line:match(" multipv (%d+)")) or 1
  local cp = line:match(" score cp (%-?%d+)")
  local mate = line:match(" score mate (%-?%d+)")
  info.cp, info.mate = tonumber(cp), tonumber(mate)
  info.nodes = tonumber(line:match(" nodes (%d+)"))
  local pv = line:match(" pv (.*)$")
  if pv then
    info.pv = {}
    for m in pv:gmatch("%S+") do info.pv[#info.pv + 1] = m end
  end
  return info
end

-- go{ fen, moves, depth | nodes | movetime, multipv, new_game } -> result
function Uci:go(req)
  return self:request(function(e)
    if req.new_game ~= false then e:send("ucinewgame") end
    if req.multipv then e:send("setoption name MultiPV value " .. req.multipv) end
    e:ready()
    local pos = "position " .. (req.fen and ("fen " .. req.fen) or "startpos")
    if req.moves and #req.moves > 0 then pos = pos .. " moves " .. table.concat(req.moves, " ") end
    e:send(pos)
    local limit = req.depth and ("depth " .. req.depth) or req.nodes and ("nodes " .. req.nodes)
      or req.movetime and ("movetime " .. req.movetime) or "depth 10"
    e:send("go " .. limit)
    local lines, last = e:read_until("^bestmove", req.timeout)
    local result = { lines = {}, bestmove = last:match("^bestmove (%S+)"), ponder = last:match(" ponder (%S+)") }
    for _, line in ipairs(lines) do
      if line:match("^info .* pv ") and not line:match(" lowerbound") and not line:match(" upperbound") then
        local info = parse_info(line)
        result.lines[info.multipv] = info
      end
    end
    if req.multipv then e:send("setoption name MultiPV value 1") end
    if result.bestmove == "(none)" then result.bestmove = nil end
    return result
  end)
end

function Uci:close()
  if self.e then self.e:close(); self.e = nil end
end

-- ---- GTP ----

local Gtp = { ensure = ensure, request = request }
Gtp.__index = Gtp

-- gtp{ name, argv, timeout } -> a supervised GTP engine
M.gtp = supervised(Gtp)

-- command(text) -> response | nil, error text (the engine's own "? ..." answer).
-- A dead or silent engine raises the infrastructure error instead.
function Gtp:command(text)
  return self:request(function(e)
    e:send(text)
    local lines = {}
    while true do
      local line = e:read_line()
      if line == "" and #lines > 0 then break end
      if line ~= "" then lines[#lines + 1] = line end
    end
    local body = table.concat(lines, "\n")
    local status, rest = body:match("^([=?])%d*%s?(.*)$")
    if status == "=" then return rest end
    return nil, rest or body
  end)
end

function Gtp:close()
  if self.e then pcall(self.e.send, self.e, "quit"); self.e:close(); self.e = nil end
end

-- ---- pool ----

local Pool = {}
Pool.__index = Pool

-- pool(make, size): up to size engines made by make(), lent one at a time
function M.pool(make, size)
  return setmetatable({ make = make, size = size, idle = {}, made = 0, waiting = {} }, Pool)
end

function Pool:acquire()
  if #self.idle > 0 then return table.remove(self.idle) end
  if self.made < self.size then
    self.made = self.made + 1
    return self.make()
  end
  local f = loop.future()
  self.waiting[#self.waiting + 1] = f
  return f:await()
end

function Pool:release(e)
  if #self.waiting > 0 then
    table.remove(self.waiting, 1):set(e)
  else
    self.idle[#self.idle + 1] = e
  end
end

-- with(fn): fn(engine) with an engine of the pool, returned afterwards even on error
function Pool:with(fn)
  local e = self:acquire()
  local ok, res = pcall(fn, e)
  self:release(e)
  if not ok then error(res, 0) end
  return res
end

function Pool:close()
  for _, e in ipairs(self.idle) do e:close() end
  self.idle = {}
end

return M
