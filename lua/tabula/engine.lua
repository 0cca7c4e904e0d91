-- tabula.engine — external engines as child processes (argv only, no shell),
-- read through the event loop so that many games can wait on engines at once.
--
--   local e = engine.start{ name = "fairy-stockfish", argv = {"/usr/games/fairy-stockfish"},
--                           timeout = 10 }
--   e:uci{ UCI_Variant = "xiangqi", Threads = 1, Hash = 16 }   -- handshake + options + isready
--   e:send("position fen ..."); local lines = e:read_until("^bestmove", 30)
--   e:close()
--
-- A dead or silent engine raises an infrastructure error (see engine.is_failure):
-- { infra = true, engine = name, last_command = ..., message = ... } — never a
-- player's loss. Restarting is the caller's choice (start again).
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
    name = spec.name or spec.argv[1], argv = spec.argv, proc = p, buffer = "",
    timeout = spec.timeout or 30, id = {},
  }, Engine)
end

function Engine:send(line)
  self.last_command = line
  local ok, err = self.proc:write(line .. "\n")
  if not ok then fail(self, "cannot be written to: " .. err) end
end

-- read_line([timeout]) -> the next line of output
function Engine:read_line(timeout)
  local deadline = loop.now() + (timeout or self.timeout)
  while true do
    local nl = self.buffer:find("\n", 1, true)
    if nl then
      local line = self.buffer:sub(1, nl - 1):gsub("\r$", "")
      self.buffer = self.buffer:sub(nl + 1)
      return line
    end
    local data, err = self.proc:read()
    if data == nil then fail(self, "read failed: " .. tostring(err)) end
    if data == "" then
      local _, how, code = self.proc:reap(true)
      fail(self, string.format("died (%s %s)", tostring(how), tostring(code)))
    end
    if data then
      self.buffer = self.buffer .. data
    else
      local left = deadline - loop.now()
      if left <= 0 or not loop.await_fd(self.proc:fd(), "r", left) then
        -- one last look: the data may have come with the timer
        local late = self.proc:read()
        if late and late ~= "" then self.buffer = self.buffer .. late
        else
          self:kill()
          fail(self, string.format("did not answer within %gs", timeout or self.timeout))
        end
      end
    end
  end
end

-- read_until(pattern [, timeout]) -> all lines up to and including the first matching one
function Engine:read_until(pattern, timeout)
  local deadline = loop.now() + (timeout or self.timeout)
  local lines = {}
  while true do
    local line = self:read_line(math.max(0.001, deadline - loop.now()))
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

return M
