-- tabula.base64 — standard base64 (RFC 4648) for images in provider requests.
local M = {}

local ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
local ENC = {}
for i = 0, 63 do ENC[i] = ALPHA:sub(i + 1, i + 1) end

function M.encode(s)
  local out, n = {}, #s
  for i = 1, n - 2, 3 do
    local a, b, c = s:byte(i, i + 2)
    local v = a << 16 | b << 8 | c
    out[#out + 1] = ENC[v >> 18] .. ENC[(v >> 12) & 63] .. ENC[(v >> 6) & 63] .. ENC[v & 63]
  end
  local rest = n % 3
  if rest == 1 then
    local v = s:byte(n) << 16
    out[#out + 1] = ENC[v >> 18] .. ENC[(v >> 12) & 63] .. "=="
  elseif rest == 2 then
    local a, b = s:byte(n - 1, n)
    local v = a << 16 | b << 8
    out[#out + 1] = ENC[v >> 18] .. ENC[(v >> 12) & 63] .. ENC[(v >> 6) & 63] .. "="
  end
  return table.concat(out)
end

local DEC = {}
for i = 0, 63 do DEC[ALPHA:byte(i + 1)] = i end

function M.decode(s)
  s = s:gsub("[^%w%+/]", "")
  local out = {}
  for i = 1, #s, 4 do
    local a, b, c, d = DEC[s:byte(i)], DEC[s:byte(i + 1) or 61], DEC[s:byte(i + 2) or 61], DEC[s:byte(i + 3) or 61]
    local v = (a or 0) << 18 | (b or 0) << 12 | (c or 0) << 6 | (d or 0)
    out[#out + 1] = string.char(v >> 16)
    if c then out[#out + 1] = string.char((v >> 8) & 255) end
    if d then out[#out + 1] = string.char(v & 255) end
  end
  return table.concat(out)
end

return M
