-- tabula.json — JSON over cJSON (see src/l_json.c): decode, encode (always with
-- sorted keys: canonical), json.null, json.array()/json.object() markers, and
-- helpers that name the file in their errors.
local C = require "tabula.c.json"
local fs = require "tabula.fs"

local M = {
  null = C.null,
  array = C.array,
  object = C.object,
  array_mt = C.array_mt,
  object_mt = C.object_mt,
  cjson_version = C.cjson_version,
}

-- decode(text [, {lenient=true}]) -> value | nil, "line L, column C (byte O): ..."
M.decode = C.decode
-- encode(value [, {pretty=true, lenient=true}]) -> text | nil, message
M.encode = C.encode

-- canonical(value) -> compact text with sorted keys and fixed number formatting.
function M.canonical(value)
  local text, err = C.encode(value)
  if not text then error("cannot encode as JSON: " .. err, 2) end
  return text
end


-- read_file(path [, opts]) -> value, or a user error "path: line L, column C ...".
function M.read_file(path, opts)
  local text = fs.read_or_fail(path)
  local v, err = C.decode(text, opts)
  if v == nil and err then require("tabula.cli").fail("invalid JSON in %s: %s", path, err) end
  return v
end

function M.is_null(v) return v == C.null end

return M
