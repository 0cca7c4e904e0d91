-- tabula.items — a scenario's items from a JSONL, JSON or CSV file, with the
-- usual selection options and one-line errors naming the file and item.
--
--   local items = require "tabula.items"
--   S.options = items.OPTIONS                          -- --items, --ids, --limit, --split
--   local list, data = items.load(opts.items or default, opts, {
--     require = { "fen", "answer" },                   -- fields every item must have
--     check = function(it) return ok, why end,         -- optional validation
--     prepare = function(it) return it2 or nil end })  -- optional: transform, or nil to leave out
--   -- list[i].id is a string (from the item's "id", else its position, 1-based)
--   -- data = { items = path, items_sha256, n_items } for run.json
--
-- --split NAME keeps the items whose "split" field is NAME, or, when NAME is a
-- file, the items whose ids it lists (one per line or comma-separated).
-- --ids keeps the listed ids (each must exist); --limit keeps the first N.
local fs = require "tabula.fs"
local json = require "tabula.json"
local cli = require "tabula.cli"

local M = {}

M.OPTIONS = {
  { "items", "string", nil, "items file: JSONL, JSON (a list) or CSV with a header" },
  { "ids", "list", nil, "item ids to keep" },
  { "limit", "int", nil, "at most this many items" },
  { "split", "string", nil, "keep the items of this split (their \"split\" field), or the ids listed in this file" },
}

-- csv(text, path) -> list of rows (tables keyed by the header), lines
function M.csv(text, path)
  local rows, line, pos, n = {}, 1, 1, #text
  local function row()
    local fields, start_line = {}, line
    while true do
      local f
      if text:sub(pos, pos) == '"' then
        local buf = {}
        pos = pos + 1
        while true do
          local q = text:find('"', pos, true)
          if not q then cli.fail("%s:%d: unterminated quoted field", path, start_line) end
          local piece = text:sub(pos, q - 1)
          buf[#buf + 1] = piece
          line = line + select(2, piece:gsub("\n", ""))
          if text:sub(q + 1, q + 1) == '"' then buf[#buf + 1] = '"'; pos = q + 2
          else pos = q + 1; break end
        end
        f = table.concat(buf)
      else
        local e = text:find("[,\r\n]", pos) or n + 1
        f = text:sub(pos, e - 1)
        pos = e
      end
      fields[#fields + 1] = f
      local c = text:sub(pos, pos)
      if c == "," then pos = pos + 1
      else
        if c == "\r" then pos = pos + 1 end
        if text:sub(pos, pos) == "\n" then pos = pos + 1 end
        line = line + 1
        return fields, start_line
      end
    end
  end
  local header = pos <= n and row() or {}
  while pos <= n do
    local fields, at = row()
    if not (#fields == 1 and fields[1] == "") then
      if #fields ~= #header then
        cli.fail("%s:%d: %d fields, the header has %d", path, at, #fields, #header)
      end
      local r = {}
      for i, h in ipairs(header) do r[h] = fields[i] end
      rows[#rows + 1] = { item = r, where = at }
    end
  end
  return rows
end

-- read(path) -> list of { item = table, where = line number or position }
function M.read(path)
  local text = fs.read_or_fail(path, "items")
  local kind = path:lower():match("%.(%w+)$")
  if kind == "csv" then return M.csv(text, path) end
  local out = {}
  if kind == "json" then
    local list, err = json.decode(text, { lenient = true })
    if list == nil then cli.fail("%s: %s", path, err) end
    if type(list) ~= "table" then cli.fail("%s: want a JSON list of items", path) end
    if list.items and type(list.items) == "table" then list = list.items end
    for i, it in ipairs(list) do out[i] = { item = it, where = i } end
    return out
  end
  local lineno = 0
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do
    lineno = lineno + 1
    if line:match("%S") then
      local it, err = json.decode(line, { lenient = true })
      if it == nil then cli.fail("%s:%d: invalid JSON: %s", path, lineno, err) end
      out[#out + 1] = { item = it, where = lineno }
    end
  end
  return out
end

local function id_set(list)
  local s = {}
  for _, id in ipairs(list) do s[id] = true end
  return s
end

-- select(list, opts [, spec]) -> the entries --ids names (each must exist; in
-- the list's order), then the first --limit of them. Any scenario's list:
-- spec = { id = fn(entry) -> id (default entry.id), what = "item", where = "path",
-- after = " (after --split)" }. The options are items.SELECT (or items.OPTIONS).
function M.select(list, opts, spec)
  spec = spec or {}
  local id_of = spec.id or function(e) return e.id end
  local keep = list
  if opts.ids then
    local set, out, have = id_set(opts.ids), {}, {}
    for _, e in ipairs(keep) do
      local id = tostring(id_of(e))
      if set[id] then out[#out + 1] = e; have[id] = true end
    end
    for _, id in ipairs(opts.ids) do
      if not have[id] then
        local some = {}
        for i = 1, math.min(3, #list) do some[i] = tostring(id_of(list[i])) end
        cli.fail("option --ids: no %s with id %s in %s%s%s", spec.what or "item", id, spec.where or "the data",
          spec.after or "", #some > 0 and (" (ids look like " .. table.concat(some, ", ") .. ")") or "")
      end
    end
    keep = out
  end
  if opts.limit and #keep > opts.limit then
    local out = {}
    for i = 1, opts.limit do out[i] = keep[i] end
    keep = out
  end
  return keep
end

-- SELECT: the options select reads, for a scenario that has its own data option
M.SELECT = {
  { "ids", "list", nil, "ids to keep (a,b,c)" },
  { "limit", "int", nil, "at most this many (after --ids)", min = 1 },
}

-- load(path, opts [, spec]) -> items, data
function M.load(path, opts, spec)
  opts, spec = opts or {}, spec or {}
  if not path then cli.fail("no items: give --items FILE") end
  local kind = path:lower():match("%.(%w+)$")
  local what = kind == "csv" and "row" or (kind == "json" and "item" or "line")
  local all, seen = {}, {}
  for i, e in ipairs(M.read(path)) do
    local it = e.item
    local where = string.format("%s:%s %d", path, what, e.where)
    if type(it) ~= "table" or (#it > 0 and next(it, #it) == nil) then cli.fail("%s: an item must be an object", where) end
    if it.id == nil then it.id = tostring(i) else it.id = tostring(it.id) end
    if spec.prepare then it = spec.prepare(it) end
    if it == nil then goto next end
    if seen[it.id] then cli.fail("%s: duplicate id %s (first at %s)", where, it.id, seen[it.id]) end
    seen[it.id] = where
    for _, f in ipairs(spec.require or {}) do
      if it[f] == nil or it[f] == "" then cli.fail("%s: item %s has no \"%s\"", where, it.id, f) end
    end
    if spec.check then
      local ok, why = spec.check(it)
      if not ok then cli.fail("%s: item %s: %s", where, it.id, tostring(why)) end
    end
    all[#all + 1] = it
    ::next::
  end
  local data = { items = path, items_sha256 = fs.sha256_file(path), n_items_in_file = #all }
  local keep = all
  if opts.split then
    local by_file = fs.kind(opts.split) == "file"
    local ids = by_file and {} or nil
    if by_file then
      for id in fs.read_or_fail(opts.split, "split"):gmatch("[^%s,]+") do ids[#ids + 1] = id end
      data.split, data.split_sha256 = opts.split, fs.sha256_file(opts.split)
    else
      data.split = opts.split
    end
    local set, out, names = ids and id_set(ids), {}, {}
    for _, it in ipairs(keep) do
      if it.split ~= nil then names[tostring(it.split)] = true end
      if (set and set[it.id]) or (not set and tostring(it.split) == opts.split) then out[#out + 1] = it end
    end
    if not by_file and #out == 0 then
      local list = {}
      for k in pairs(names) do list[#list + 1] = k end
      table.sort(list)
      cli.fail("option --split: no item of %s is in split '%s' (%s)", path,
        opts.split, #list > 0 and ("splits: " .. table.concat(list, ", ")) or "its items have no \"split\" field, and no such file")
    end
    keep = out
  end
  keep = M.select(keep, opts, { where = path, after = opts.split and " (after --split)" or nil })
  data.n_items = #keep
  return keep, data
end

return M
