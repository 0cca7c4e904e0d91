-- tabula.terminal — text from outside (model replies, server errors, dataset
-- fields) made safe to print on a terminal: no escape sequence reaches it, so
-- a reply cannot retitle the window (OSC 0/2), write the clipboard (OSC 52),
-- move the cursor or recolour the screen (CSI), or hide what it said.
--
--   terminal.clean(text)   text without control sequences or control characters;
--                          newlines and tabs are kept, CRLF becomes LF, printable
--                          UTF-8 is kept, a byte that is not UTF-8 becomes U+FFFD
local M = {}

local ESC = "\27"

-- strings that run to a terminator: OSC (ESC ]), DCS (ESC P), SOS (ESC X),
-- PM (ESC ^), APC (ESC _); they end at BEL or ST (ESC then backslash), and another ESC
-- cancels them (as terminals do); one pass over the text
local function drop_strings(text)
  local out, pos = {}, 1
  while true do
    local i = text:find("\27[%]PX%^_]", pos)
    if not i then break end
    out[#out + 1] = text:sub(pos, i - 1)
    local e = text:find("[\7\27]", i + 2)
    if not e then pos = #text + 1; break end            -- unterminated: the rest is the sequence's payload
    if text:byte(e) == 7 then pos = e + 1                -- BEL
    elseif text:byte(e + 1) == 92 then pos = e + 2       -- ST: ESC then backslash
    else pos = e end                                     -- another escape: this one is cancelled
  end
  if pos == 1 then return text end
  out[#out + 1] = text:sub(pos)
  return table.concat(out)
end

-- valid_utf8(text) -> text with each byte that does not start a valid UTF-8
-- character replaced by U+FFFD
local function valid_utf8(text)
  if utf8.len(text) then return text end
  local out, pos = {}, 1
  while pos <= #text do
    local ok, bad = utf8.len(text, pos)
    if ok then out[#out + 1] = text:sub(pos); break end
    out[#out + 1] = text:sub(pos, bad - 1)
    out[#out + 1] = "\u{FFFD}"
    pos = bad + 1
  end
  return table.concat(out)
end

-- clean(text) -> what may be printed (non-strings are turned into strings)
function M.clean(text)
  text = tostring(text)
  if not text:find("[\0-\8\11-\31\127-\255]") then return text end   -- plain ASCII: nothing to do
  text = valid_utf8(text)
  text = drop_strings(text)
  text = text:gsub("\27%[[\48-\63]*[\32-\47]*[\64-\126]", "")   -- CSI: parameters, intermediates, final byte
  text = text:gsub("\27[\32-\47]*[\48-\126]", "")                 -- other escapes (ESC 7, ESC (B, ESC c, ...)
  text = text:gsub("\r\n", "\n")
  text = text:gsub("[\0-\8\11-\31\127]", "")                    -- C0 controls but tab and newline, DEL, lone ESC
  text = text:gsub("\xC2[\x80-\x9F]", "")                         -- C1 controls (8-bit CSI, OSC, ...) as UTF-8
  return text
end

-- write(file, ...) : file:write of the cleaned pieces
function M.write(file, ...)
  for i = 1, select("#", ...) do file:write(M.clean((select(i, ...)))) end
end

return M
