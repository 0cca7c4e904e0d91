-- tabula.parse — lpeg grammars for the shapes models write, shared by scenarios.
local lpeg = require "lpeg"
local P, S, C, Cs, Ct = lpeg.P, lpeg.S, lpeg.C, lpeg.Cs, lpeg.Ct

local M = {}

local nl = P"\r"^-1 * P"\n"
local fence = P"```"
local lang = C((1 - S"\r\n`")^0)                       -- the info string after ```
local body = C((1 - (nl * S" \t"^0 * fence))^0)         -- up to a line starting with ```
local block = Ct(fence * lang * nl * body * nl * S" \t"^0 * fence)
local blocks = Ct(((block / function(b) return b end) + 1)^0)

-- fenced_blocks(text) -> list of { lang = "bash", body = "..." } in order
function M.fenced_blocks(text)
  local out = {}
  for _, b in ipairs(blocks:match(text) or {}) do
    out[#out + 1] = { lang = (b[1]:match("^%s*(%S*)") or ""):lower(), body = b[2] }
  end
  return out
end

-- last_block(text, langs) -> body of the last fenced block whose language is
-- one of langs (a set; "" is a block with no language), or nil
function M.last_block(text, langs)
  local found
  for _, b in ipairs(M.fenced_blocks(text)) do
    if langs[b.lang] then found = b.body end
  end
  return found
end

-- trim(s)
function M.trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end

M.lpeg = lpeg
M.Cs = Cs
return M
