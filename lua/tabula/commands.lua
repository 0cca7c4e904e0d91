-- tabula.commands — finds and runs the commands in lua/tabula/cmd/.
-- A command module returns { summary = "...", options = {...}, usage = "...", main = fn(opts, args) }.
local cli = require "tabula.cli"
local fs = require "tabula.fs"
local host = require "tabula.c.host"

local M = {}

function M.dir() return host.root .. "/lua/tabula/cmd" end

function M.names()
  local names = {}
  for _, f in ipairs(fs.list(M.dir()) or {}) do
    local n = f:match("^([%w_]+)%.lua$")
    if n then names[#names + 1] = n end
  end
  return names
end

function M.load(name)
  if not name:match("^[%w_]+$") or fs.kind(M.dir() .. "/" .. name .. ".lua") ~= "file" then
    local hint = cli.suggest(name, M.names())
    cli.fail("unknown command '%s'%s (commands: %s; see 'tabula help')", name,
      hint and string.format("; did you mean '%s'?", hint) or "", table.concat(M.names(), ", "))
  end
  return require("tabula.cmd." .. name)
end

function M.run(name, args)
  local cmd = M.load(name)
  if cmd.raw_args then return cmd.main(nil, args) or 0 end   -- the command parses its own options
  local opts, rest = cli.parse(cmd.options or {}, args, {
    program = "tabula " .. name, usage = cmd.usage, summary = cmd.summary })
  if opts == nil then return 0 end       -- --help was printed
  return cmd.main(opts, rest) or 0
end

return M
