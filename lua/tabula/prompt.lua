-- tabula.prompt — prompt templates as plain files (prompts/<scenario>/<name>.txt)
-- with {{placeholders}}. The environment only fills placeholders; wording lives
-- in the files. A placeholder without a value is an error naming both.
--
--   local P = prompt.set("xiangqibench" [, dir])
--   P:fill("initial", { board = ..., fen = ... })   -> text (final newline dropped)
--   P:used()                                         -> { ["initial.txt"] = sha256, ... } for run.json
--
-- Provenance: a set reads and hashes every template of its folder when it is
-- made (at a scenario's setup), and fills from those texts only, so run.json
-- names every template the run can use, and an edit during the run changes
-- nothing. The effective files are one table (name -> path, set.files); a
-- change to how templates are found (overrides, overlays) changes that table
-- and goes through M.hash_files like the rest.
local fs = require "tabula.fs"
local host = require "tabula.c.host"
local cli = require "tabula.cli"

local M = {}

local Set = {}
Set.__index = Set

-- folder_files(dir) -> { ["name.txt"] = path } for the templates of a folder
function M.folder_files(dir)
  local files = {}
  for _, name in ipairs(fs.list(dir) or {}) do
    if name:match("%.txt$") and fs.kind(dir .. "/" .. name) == "file" then files[name] = dir .. "/" .. name end
  end
  return files
end

-- hash_files(files) -> hashes, texts: sha256 and text of each template file
-- (name -> path in, name -> value out)
function M.hash_files(files)
  local hashes, texts = {}, {}
  for name, path in pairs(files) do
    local text, err = fs.read(path)
    if not text then cli.fail("prompt template %s cannot be read: %s", name, err) end
    hashes[name], texts[name] = fs.sha256(text), text
  end
  return hashes, texts
end

function M.set(scenario, dir)
  dir = dir or (host.root .. "/prompts/" .. scenario)
  if fs.kind(dir) ~= "dir" then cli.fail("prompt folder %s does not exist", dir) end
  -- the effective files: the folder's templates under any --prompt/--prompt-overlay overrides (tabula.variants)
  local self = setmetatable({ dir = dir, cache = {}, files = require("tabula.variants").apply(M.folder_files(dir), dir) }, Set)
  self.hashes, self.texts = M.hash_files(self.files)
  return self
end

function Set:raw(name)
  local t = self.cache[name]
  if t then return t end
  local text = self.texts[name .. ".txt"]
  if not text then cli.fail("prompt template missing: %s/%s.txt", self.dir, name) end
  t = text:gsub("\n$", "")
  self.cache[name] = t
  return t
end

-- fill(name, values) -> the template with every {{key}} replaced
function Set:fill(name, values)
  local t = self:raw(name)
  return (t:gsub("{{([%w_]+)}}", function(key)
    local v = values[key]
    if v == nil then cli.fail("prompt %s/%s.txt: unknown placeholder {{%s}} (no value for it)", self.dir, name, key) end
    return tostring(v)
  end))
end

-- has(name) -> whether the set has the template
function Set:has(name)
  return self.texts[name .. ".txt"] ~= nil
end

-- used() -> name -> sha256 of every template the set can fill from
function Set:used() return self.hashes end

return M
