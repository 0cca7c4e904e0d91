-- tabula.prompt — prompt templates as plain files (prompts/<scenario>/<name>.txt)
-- with {{placeholders}}. The environment only fills placeholders; wording lives
-- in the files. A placeholder without a value is an error naming both.
--
--   local P = prompt.set("xiangqibench" [, dir])
--   P:fill("initial", { board = ..., fen = ... })   -> text (final newline dropped)
--   P:used()                                         -> { ["initial.txt"] = sha256, ... } for run.json
local fs = require "tabula.fs"
local host = require "tabula.c.host"
local cli = require "tabula.cli"

local M = {}

local Set = {}
Set.__index = Set

function M.set(scenario, dir)
  dir = dir or (host.root .. "/prompts/" .. scenario)
  if fs.kind(dir) ~= "dir" then cli.fail("prompt folder %s does not exist", dir) end
  return setmetatable({ dir = dir, cache = {}, hashes = {} }, Set)
end

function Set:raw(name)
  local t = self.cache[name]
  if t then return t end
  local path = self.dir .. "/" .. name .. ".txt"
  local text, err = fs.read(path)
  if not text then cli.fail("prompt template missing: %s", err) end
  self.hashes[name .. ".txt"] = fs.sha256(text)
  t = text:gsub("\n$", "")
  self.cache[name] = t
  return t
end

-- fill(name, values) -> the template with every {{key}} replaced
function Set:fill(name, values)
  local t = self:raw(name)
  return (t:gsub("{{([%w_]+)}}", function(key)
    local v = values[key]
    if v == nil then error(string.format("prompt %s/%s.txt: no value for {{%s}}", self.dir, name, key), 0) end
    return tostring(v)
  end))
end

function Set:used() return self.hashes end

return M
