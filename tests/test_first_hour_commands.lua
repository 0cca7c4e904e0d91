-- The first hour with the commands (issue 46, item 11 and the small ones of
-- item 16): every command loads and answers --help with its usage and exit 0;
-- `tabula models` runs; no option's help says "(repeatable)" twice.
local t = require "tabula.testing"
local commands = require "tabula.commands"
local cli = require "tabula.cli"
local test, T = t.suite()

test("every command loads and its --help prints its usage and exits 0", function()
  local names = commands.names()
  t.ok(#names >= 15, "the commands were found")
  for _, name in ipairs(names) do
    local ok, cmd = pcall(require, "tabula.cmd." .. name)
    t.ok(ok, "tabula " .. name .. " loads: " .. tostring(cmd))
    t.ok(type(cmd.summary) == "string" and cmd.summary ~= "", name .. " has a summary")
    local rc, out = t.tabula(name, "--help")
    t.eq(rc, 0, "tabula " .. name .. " --help exits 0: " .. out)
    t.contains(out, "usage: tabula", "tabula " .. name .. " --help prints its usage")
    t.ok(not out:find("internal error", 1, true), name .. ": " .. out)
  end
end)

test("tabula models lists the presets and says whether each key is set", function()
  local rc, out = t.tabula("models")
  t.eq(rc, 0, out)
  t.contains(out, "anthropic:MODEL")
  t.contains(out, "gemini:MODEL")
end)

test("a repeatable option's help says (repeatable) once", function()
  local run = require("tabula.cmd.run").lib
  local s = run.load(t.root() .. "/scenarios/dece")
  local text = cli.help_text(run.spec(s), { program = "tabula run" })
  t.contains(text, "(repeatable)")
  t.ok(not text:find("(repeatable) (repeatable)", 1, true), text)
  t.ok(not text:find("(repeatable)%s*%(repeatable%)"), text)
end)
return T
