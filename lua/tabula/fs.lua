-- tabula.fs — files and directories (over tabula.c.fs), plus path helpers.
local C = require "tabula.c.fs"

local M = {}
for k, v in pairs(C) do M[k] = v end

function M.join(...)
  local parts = { ... }
  local out = table.concat(parts, "/")
  return (out:gsub("/+", "/"))
end

function M.dirname(path)
  return path:match("^(.*)/[^/]*$") or "."
end

function M.basename(path)
  return path:match("([^/]*)$")
end

function M.exists(path) return C.kind(path) ~= nil end

-- read_or_fail(path, what): the file's contents, or a user error naming it.
function M.read_or_fail(path, what)
  local data, err = C.read(path)
  if not data then require("tabula.cli").fail("%s%s", what and (what .. ": ") or "", err) end
  return data
end

-- write_or_fail(path, data, what): writes the file atomically, or stops with a user error
-- naming it (a missing directory, a full disk) — never a silent "wrote" with nothing written.
function M.write_or_fail(path, data, what)
  local ok, err = C.write_atomic(path, data)
  if not ok then require("tabula.cli").fail("%s%s", what and (what .. ": ") or "", err) end
  return true
end

return M
