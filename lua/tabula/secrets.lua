-- tabula.secrets — the values of the API keys in use, and their redaction from
-- any text tabula writes or prints (records, cache, errors, progress lines): a
-- server that echoes a key in its error message must not get it stored.
--
--   secrets.add(value)        remember a key's value (models.key does this)
--   secrets.redact(text)      text with every remembered value replaced by [redacted],
--                             and the credentials of any URL in it (see redact_url)
--   secrets.redact_url(url)   the URL without its user:password@ part and without
--                             the values of key-like query parameters (?key=, &api_key=, ...)
--   secrets.add_url(url)      remember the credentials a URL carries (models.resolve does this)
--   secrets.key_like(name)    whether a field name holds a credential (api_key, token, ...)
--   secrets.scrub(value)      a deep copy with every string redacted (for run.json)
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
M.replace_plain = replace_plain   -- replace_plain(text, needle, by): every plain occurrence (tabula.proxy)

-- key_like(name) -> true when a field or query parameter of this name holds a
-- credential: key, api_key, apikey, x-api-key, token, access_token, secret,
-- client_secret, password, passwd, auth, authorization, bearer, signature
-- (key_env, which names an environment variable, is not one)
function M.key_like(name)
  if type(name) ~= "string" then return false end
  local n = name:lower():gsub("[%-_ ]", "")
  if n == "keyenv" then return false end
  return n:match("key$") ~= nil or n:match("token$") ~= nil or n:find("secret", 1, true) ~= nil
    or n:find("passw", 1, true) ~= nil or n == "auth" or n == "authorization" or n == "bearer"
    or n == "sig" or n == "signature" or n == "credential" or n == "credentials"
end

-- where a URL's user:password or a query value ends (a backslash too: inside a
-- JSON string it begins an escape that must stay whole)
local USERINFO_END = "[/%s@?#\\\"']"
local QUERY = "([?&;])([%w_%-%.]+)=([^&;#%s\\\"']+)"

-- each_userinfo(text, fn): fn(i, j) for the span of the user:password of every
-- "://user:password@" in text (linear: each scan stops at the next "/")
local function each_userinfo(text, fn)
  local start = 1
  while true do
    local i = text:find("://", start, true)
    if not i then return end
    local j = text:find(USERINFO_END, i + 3)
    if j and j > i + 3 and text:byte(j) == 64 then fn(i + 3, j - 1) end   -- 64: '@'
    start = i + 3
  end
end

-- each_url_credential(text, fn): calls fn(value) for the user:password of every
-- URL in text and for the value of every key-like query parameter
local function each_url_credential(text, fn)
  each_userinfo(text, function(i, j) fn(text:sub(i, j)) end)
  for _, name, value in text:gmatch(QUERY) do
    if M.key_like(name) then fn(value) end
  end
end

-- redact_url(text) -> text with URL credentials replaced by [redacted]:
-- scheme://user:pass@host -> scheme://[redacted]@host, ?key=abc -> ?key=[redacted]
function M.redact_url(text)
  if type(text) ~= "string" or not text:find("[@=]") then return text end
  if text:find("://", 1, true) then
    local out, pos = {}, 1
    each_userinfo(text, function(i, j)
      out[#out + 1] = text:sub(pos, i - 1)
      out[#out + 1] = "[redacted]"
      pos = j + 1
    end)
    if pos > 1 then out[#out + 1] = text:sub(pos); text = table.concat(out) end
  end
  if text:find("=", 1, true) then
    text = text:gsub(QUERY, function(sep, name)
      if M.key_like(name) then return sep .. name .. "=[redacted]" end
    end)
  end
  return text
end

-- add_url(url): remember the credentials inside a URL (also each part of
-- user:password), so that a server or library echoing them gets them redacted
function M.add_url(url)
  if type(url) ~= "string" then return end
  each_url_credential(url, function(v)
    M.add(v)
    for part in v:gmatch("[^:]+") do M.add(part) end
  end)
end

-- redact(text) -> text without any remembered value or URL credential;
-- non-strings pass through
function M.redact(text)
  if type(text) ~= "string" then return text end
  for _, v in ipairs(values) do text = replace_plain(text, v, "[redacted]") end
  return M.redact_url(text)
end

-- scrub(value) -> a deep copy of value with every string (keys and values) redacted
function M.scrub(value, seen)
  if type(value) == "string" then return M.redact(value) end
  if type(value) ~= "table" then return value end
  seen = seen or {}
  if seen[value] then return seen[value] end
  local c = setmetatable({}, getmetatable(value))
  seen[value] = c
  for k, v in pairs(value) do c[M.scrub(k, seen)] = M.scrub(v, seen) end
  return c
end

return M
