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

-- absolute(path) -> the path from the root directory (relative ones are taken
-- from the working directory), so that it still names the file from elsewhere
local cwd
function M.absolute(path)
  if path:sub(1, 1) == "/" then return path end
  if not cwd then
    cwd = os.getenv("PWD")
    if not cwd or cwd:sub(1, 1) ~= "/" or C.kind(cwd .. "/" .. path) ~= C.kind(path) then
      local h = io.popen("pwd -P")
      cwd = h and h:read("l")
      if h then h:close() end
    end
    cwd = cwd or "."
  end
  path = path:gsub("^%./", "")
  while path:sub(1, 2) == "./" do path = path:sub(3) end
  return cwd .. "/" .. path
end

function M.exists(path) return C.kind(path) ~= nil end

-- read_or_fail(path, what): the file's contents, or a user error naming it.
function M.read_or_fail(path, what)
  local data, err = C.read(path)
  if not data then require("tabula.cli").fail("%s%s", what and (what .. ": ") or "", err) end
  return data
end

-- need(path, what [, kind]): stops with a user error naming the path unless it
-- is a file (or of `kind`, e.g. "dir"): a data option pointing nowhere is one
-- line, never an empty run.
function M.need(path, what, kind)
  kind = kind or "file"
  if C.kind(path) ~= kind then
    require("tabula.cli").fail("%s%s %s", what and (what .. ": ") or "",
      C.kind(path) and ("not a " .. (kind == "dir" and "directory" or kind) .. ":") or ("no " .. (kind == "dir" and "directory" or kind)), path)
  end
  return path
end

-- write_or_fail(path, data, what): writes the file atomically, or stops with a user error
-- naming it (a missing directory, a full disk) — never a silent "wrote" with nothing written.
function M.write_or_fail(path, data, what)
  local ok, err = C.write_atomic(path, data)
  if not ok then require("tabula.cli").fail("%s%s", what and (what .. ": ") or "", err) end
  return true
end

-- remove_tree(path, ...): each path and everything under it, as `rm -rf`
-- does (a symbolic link is removed, never followed) -> true, or nil when a path
-- could not be removed
function M.remove_tree(...)
  local q = {}
  for i, p in ipairs({ ... }) do q[i] = "'" .. p:gsub("'", "'\\''") .. "'" end
  if #q == 0 then return true end
  return os.execute("rm -rf -- " .. table.concat(q, " ")) == true or nil
end

-- shared_data(rel) -> the path of rel in the shared public data: the folder
-- TABULA_SHARED_DATA names, else ../shared/data beside the project (it may not
-- exist: a user's machine need not have it). Every default that reads the
-- shared data goes through here, so that `tabula test --no-shared` can hide it
-- (tests/test_shared_hygiene.lua keeps it so).
function M.shared_data(rel)
  local host = require "tabula.c.host"
  local base = host.getenv("TABULA_SHARED_DATA") or (host.root .. "/../shared/data")
  return rel and (base .. "/" .. rel) or base
end

return M
