-- tests/child.lua — tabula as a child process, for tests that signal it, look
-- at its worker processes or must not wait for it forever. Every wait here is
-- bounded: a child still running past its limit fails the test (and is killed).
local t = require "tabula.testing"
local proc = require "tabula.c.proc"
local loop = require "tabula.loop"
local fs = require "tabula.fs"

local M = {}

local Child = {}
Child.__index = Child

-- start(args) -> child { pid, out }: `tabula ARGS...` with stdout and stderr
-- in one file (exec, so that pid is tabula's own)
function M.start(args)
  local out = os.tmpname()
  local argv = { "/bin/sh", "-c", 'exec "$0" "$@" >' .. out .. " 2>&1", t.tabula_bin() }
  for _, a in ipairs(args) do argv[#argv + 1] = a end
  local p = assert(proc.spawn(argv, "null"))
  return setmetatable({ p = p, pid = p:pid(), out = out }, Child)
end

-- wait(limit) -> exit code (128 + signal when killed by one), or nil if it
-- still runs after limit seconds
function Child:wait(limit)
  local stop = loop.now() + limit
  while true do
    local done, how, code = self.p:reap(false)
    if done then
      self.rc = how == "signal" and 128 + code or code
      return self.rc
    end
    if loop.now() > stop then return nil end
    loop.sleep(0.02)
  end
end

-- finish(limit) -> exit code, output: the test fails if it does not end in time
function Child:finish(limit)
  local rc = self:wait(limit)
  if not rc then
    self.p:kill(9); self.p:reap(true)
    error(string.format("tabula did not end within %gs:\n%s", limit, self:output()), 2)
  end
  return rc, self:output()
end

function Child:output() return fs.read(self.out) or "" end

-- run(args [, limit]) -> exit code, output
function M.run(args, limit)
  return M.start(args):finish(limit or 120)
end

-- alive(pid): the process exists and is not a zombie
function M.alive(pid)
  local f = io.open("/proc/" .. math.tointeger(pid) .. "/stat")
  local stat = f and f:read("a")
  if f then f:close() end
  local s = stat and stat:match("%) (%a)")
  return s ~= nil and s ~= "Z" and s ~= "X"
end

-- children(pid) -> the pids whose parent is pid
function M.children(pid)
  local out = {}
  local p = io.popen("ps -o pid= --ppid " .. math.tointeger(pid))
  for line in p:lines() do out[#out + 1] = tonumber(line) end
  p:close()
  return out
end

-- until_true(fn, limit, what): wait (bounded) until fn() is true
function M.until_true(fn, limit, what)
  local stop = loop.now() + limit
  while not fn() do
    if loop.now() > stop then error("timed out after " .. limit .. "s waiting for " .. what, 2) end
    loop.sleep(0.02)
  end
end

return M
