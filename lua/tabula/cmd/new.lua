-- tabula new NAME [--game xiangqi|chess|go|none] [--dir DIR] — a new scenario that
-- runs at once: scenarios/NAME.lua, prompts/NAME/question.txt, its items
-- (data/NAME.jsonl, unless the game's suite is used) and tests/test_NAME.lua,
-- from the templates in lua/tabula/scaffold/.
local cli = require "tabula.cli"
local fs = require "tabula.fs"
local host = require "tabula.c.host"

local M = {}

M.GAMES = { "xiangqi", "chess", "go", "none" }

local function template(name)
  return fs.read_or_fail(host.root .. "/lua/tabula/scaffold/" .. name, "scaffold template")
end

local function fill(text, name) return (text:gsub("{{name}}", name)) end

-- create(name, game, dir) -> list of the files written
function M.create(name, game, dir)
  if not name or not name:match("^[%a_][%w_]*$") then
    cli.fail("new: give a NAME of letters, digits and _ (a Lua module name), got '%s'", tostring(name))
  end
  local files = {
    { "scenarios/" .. name .. ".lua", game .. ".lua.tmpl" },
    { "prompts/" .. name .. "/question.txt", game .. ".question.txt" },
    { "tests/test_" .. name .. ".lua", "test.lua.tmpl" },
  }
  if fs.kind(host.root .. "/lua/tabula/scaffold/" .. game .. ".items.jsonl") == "file" then
    files[#files + 1] = { "scenarios/data/" .. name .. ".jsonl", game .. ".items.jsonl" }
  end
  for _, f in ipairs(files) do
    if fs.exists(fs.join(dir, f[1])) then cli.fail("new: %s exists already; nothing was written", fs.join(dir, f[1])) end
  end
  local written = {}
  for _, f in ipairs(files) do
    local path = fs.join(dir, f[1])
    fs.mkdir_p(fs.dirname(path))
    local ok, err = fs.write_atomic(path, fill(template(f[2]), name))
    if not ok then cli.fail("new: %s", err) end
    written[#written + 1] = path
  end
  return written
end

return {
  summary = "make a new scenario that runs at once: tabula new NAME [--game xiangqi|chess|go|none]",
  usage = "NAME [--game xiangqi|chess|go|none] [--dir DIR]",
  options = {
    { "game", "string", "none", "the game the scenario asks about", choices = M.GAMES },
    { "dir", "string", ".", "where to create scenarios/, prompts/ and tests/" },
  },
  main = function(opts, args)
    if #args > 1 then cli.fail("new: unexpected argument '%s'", args[2]) end
    local written = M.create(args[1], opts.game, opts.dir)
    for _, p in ipairs(written) do io.write("wrote ", p, "\n") end
    local scen = fs.join(opts.dir, "scenarios/" .. args[1] .. ".lua")
    io.write(string.format("next: tabula run %s --dry-run; tabula run %s; tabula test %s\n", scen, scen,
      fs.join(opts.dir, "tests/test_" .. args[1] .. ".lua")))
    return 0
  end,
  lib = M,
}
