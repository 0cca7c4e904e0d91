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

-- placeholders(text) -> the sorted names of the {{placeholders}} of a template text
function M.placeholders(text)
  local seen, out = {}, {}
  for key in tostring(text):gmatch("{{([%w_]+)}}") do
    if not seen[key] then seen[key] = true; out[#out + 1] = key end
  end
  table.sort(out)
  return out
end

-- check_overrides(dir, defaults, files, texts): a template that replaces one of
-- the folder's (--prompt, --prompt-overlay, --variant) may use the placeholders
-- the folder's own template of that name gets, and no other: checked when the
-- set is made (at the scenario's setup, for every variant, before any call),
-- naming the replacing file
function M.check_overrides(dir, defaults, files, texts)
  local names = {}
  for name in pairs(files) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    local path = files[name]
    if defaults[name] and path ~= defaults[name] then
      local default_text = fs.read(defaults[name]) or ""
      local gets = {}
      for _, key in ipairs(M.placeholders(default_text)) do gets[key] = true end
      for _, key in ipairs(M.placeholders(texts[name])) do
        if not gets[key] then
          local list = M.placeholders(default_text)
          for i, k in ipairs(list) do list[i] = "{{" .. k .. "}}" end
          cli.fail("prompt %s (replacing %s/%s): unknown placeholder {{%s}}; template %s gets %s (tabula prompts lists them)",
            path, dir, name, key, (name:gsub("%.txt$", "")), #list > 0 and table.concat(list, ", ") or "no placeholders")
        end
      end
    end
  end
end

function M.set(scenario, dir)
  dir = dir or (host.root .. "/prompts/" .. scenario)
  if fs.kind(dir) ~= "dir" then cli.fail("prompt folder %s does not exist", dir) end
  -- the effective files: the folder's templates under any --prompt/--prompt-overlay overrides (tabula.variants)
  local defaults = M.folder_files(dir)
  local self = setmetatable({ dir = dir, cache = {}, files = require("tabula.variants").apply(defaults, dir) }, Set)
  self.hashes, self.texts = M.hash_files(self.files)
  M.check_overrides(dir, defaults, self.files, self.texts)
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
    if v == nil then
      local file = self.files[name .. ".txt"] or (self.dir .. "/" .. name .. ".txt")   -- the file in effect (an override's own)
      cli.fail("prompt %s: unknown placeholder {{%s}} (no value for it)", file, key)
    end
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
