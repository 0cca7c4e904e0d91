-- tabula list — the scenarios tabula run finds by name, with their one-line
-- summaries: those beside the current directory (./scenarios) first, then
-- tabula's own (under its root: the repository, or PREFIX/share/tabula when
-- installed). A scenario is scenarios/NAME.lua or scenarios/NAME/init.lua.
local fs = require "tabula.fs"
local host = require "tabula.c.host"

local M = {}

-- places() -> { { dir, label } ... }: where scenarios are looked for, in the
-- order tabula run's find searches them (a place listed once)
function M.places()
  local here, root = fs.absolute("scenarios"), host.root .. "/scenarios"
  local out = {}
  if fs.kind("scenarios") == "dir" and here ~= fs.absolute(root) then out[#out + 1] = { dir = "./scenarios", label = "here" } end
  out[#out + 1] = { dir = root, label = "tabula" }
  return out
end

-- scenarios() -> list of { name, path, place } (a name found in two places: the first)
function M.scenarios()
  local out, seen = {}, {}
  for _, place in ipairs(M.places()) do
    local names = fs.list(place.dir) or {}
    table.sort(names)
    for _, n in ipairs(names) do
      local p = place.dir .. "/" .. n
      local name, path = n:match("^(.+)%.lua$"), p
      if not name and fs.kind(p) == "dir" and fs.kind(p .. "/init.lua") == "file" then name, path = n, p .. "/init.lua" end
      if name and fs.kind(path) == "file" and not seen[name] then
        seen[name] = true
        out[#out + 1] = { name = name, path = path, place = place.label }
      end
    end
  end
  return out
end

-- names() -> the scenario names, for "did you mean"
function M.names()
  local out = {}
  for _, s in ipairs(M.scenarios()) do out[#out + 1] = s.name end
  return out
end

-- summary(path) -> the scenario's summary, else its header's first comment line
function M.summary(path)
  local ok, s = pcall(function() return require("tabula.cmd.run").lib.load(path) end)
  if ok and type(s) == "table" and type(s.summary) == "string" then return s.summary end
  local text = fs.read(path) or ""
  local first = text:match("^%-%-%s*([^\n]+)")
  if first then return (first:gsub("^%S+%.lua%s*[—-]+%s*", "")) end
  return ok and "" or "(does not load: " .. tostring(type(s) == "table" and s.message or s):match("^[^\n]*") .. ")"
end

return {
  summary = "list the scenarios tabula run finds by name, with their summaries",
  options = {},
  main = function()
    local list = M.scenarios()
    local width = 8
    for _, s in ipairs(list) do width = math.max(width, #s.name) end
    local last
    for _, s in ipairs(list) do
      if s.place ~= last then
        io.write(s.place == "here" and "scenarios beside this directory (./scenarios):\n"
          or string.format("tabula's scenarios (%s/scenarios):\n", host.root))
        last = s.place
      end
      io.write(string.format("  %-" .. width .. "s  %s\n", s.name, require("tabula.terminal").clean(M.summary(s.path))))
    end
    io.write("run one with: tabula run NAME [options]   (its options: tabula run NAME --help)\n")
    return 0
  end,
  lib = M,
}
