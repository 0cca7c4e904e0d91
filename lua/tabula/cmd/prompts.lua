-- tabula prompts [NAME|DIR ...] — the prompt templates of a folder and the
-- placeholders each gets: prompts/NAME/ (a scenario's folder, with its
-- subfolders such as tools/), or any folder of templates; without an argument,
-- every folder under prompts/. A template that replaces one (--prompt,
-- --prompt-overlay, --variant, tabula.variants) may use the placeholders of the
-- template it replaces and no other; this is the list to write it from
-- (docs/PROMPTS.md holds the same lists).
local cli = require "tabula.cli"
local fs = require "tabula.fs"
local host = require "tabula.c.host"
local prompt = require "tabula.prompt"

local M = {}

-- folders(dir) -> dir and each subfolder holding templates, sorted
local function folders(dir, out)
  out = out or {}
  out[#out + 1] = dir
  local subs = {}
  for _, f in ipairs(fs.list(dir) or {}) do
    if fs.kind(dir .. "/" .. f) == "dir" then subs[#subs + 1] = f end
  end
  table.sort(subs)
  for _, f in ipairs(subs) do folders(dir .. "/" .. f, out) end
  return out
end

-- listing(dir, label) -> the text: a heading per folder, a line per template
function M.listing(dir, label)
  local lines = {}
  for _, d in ipairs(folders(dir)) do
    local files = prompt.folder_files(d)
    local names = {}
    for name in pairs(files) do names[#names + 1] = name end
    table.sort(names)
    if #names > 0 then
      lines[#lines + 1] = string.format("%s%s/", label, d:sub(#dir + 1))
      for _, name in ipairs(names) do
        local keys = prompt.placeholders(fs.read(files[name]) or "")
        for i, k in ipairs(keys) do keys[i] = "{{" .. k .. "}}" end
        lines[#lines + 1] = string.format("  %-28s %s", (name:gsub("%.txt$", "")), #keys > 0 and table.concat(keys, " ") or "(none)")
      end
    end
  end
  return table.concat(lines, "\n") .. (#lines > 0 and "\n" or "")
end

-- resolve(arg) -> folder, label: a folder name under prompts/, or a path
function M.resolve(arg)
  local shipped = host.root .. "/prompts/" .. arg
  if arg:match("^[%w_]+$") and fs.kind(shipped) == "dir" then return shipped, "prompts/" .. arg end
  if fs.kind(arg) == "dir" then return arg, arg end
  local names = {}
  for _, f in ipairs(fs.list(host.root .. "/prompts") or {}) do
    if fs.kind(host.root .. "/prompts/" .. f) == "dir" then names[#names + 1] = f end
  end
  table.sort(names)
  cli.fail("prompts: no prompt folder '%s'%s (folders: %s, or a path to one)", arg, cli.did_you_mean(arg, names), table.concat(names, ", "))
end

function M.main(_, args)
  if #args == 0 then
    local names = {}
    for _, f in ipairs(fs.list(host.root .. "/prompts") or {}) do
      if fs.kind(host.root .. "/prompts/" .. f) == "dir" then names[#names + 1] = f end
    end
    table.sort(names)
    args = names
  end
  for _, a in ipairs(args) do io.write(M.listing(M.resolve(a))) end
  return 0
end

return {
  summary = "the prompt templates of a folder and the placeholders each gets (an override may use those)",
  usage = "[NAME|DIR ...]",
  options = {},
  main = M.main,
  lib = M,
}
