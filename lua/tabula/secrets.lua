-- tabula.secrets — the values of the API keys in use, and their redaction from
-- any text tabula writes or prints (records, cache, errors, progress lines): a
-- server that echoes a key in its error message must not get it stored.
--
--   secrets.add(value)        remember a key's value (models.key does this)
--   secrets.redact(text)      text with every remembered value replaced by [redacted]
local M = {}

local values = {}      -- list of the remembered values, longest first

-- add(value): remember a key's value (values shorter than 6 bytes are not
-- secrets worth hunting for, and would redact ordinary words)
function M.add(value)
  if type(value) ~= "string" or #value < 6 then return end
  for _, v in ipairs(values) do if v == value then return end end
  values[#values + 1] = value
  table.sort(values, function(a, b) return #a > #b end)
end

local function replace_plain(text, needle, by)
  local out, pos = {}, 1
  while true do
    local i, j = text:find(needle, pos, true)
    if not i then break end
    out[#out + 1] = text:sub(pos, i - 1)
    out[#out + 1] = by
    pos = j + 1
  end
  if pos == 1 then return text end
  out[#out + 1] = text:sub(pos)
  return table.concat(out)
end

-- redact(text) -> text without any remembered value; non-strings pass through
function M.redact(text)
  if type(text) ~= "string" then return text end
  for _, v in ipairs(values) do text = replace_plain(text, v, "[redacted]") end
  return text
end

return M
