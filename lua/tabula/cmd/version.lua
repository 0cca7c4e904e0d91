-- tabula version — versions of tabula and of what it is built on.
local host = require "tabula.c.host"

return {
  summary = "print the version of tabula, Lua, lpeg, libcurl and cJSON",
  main = function()
    local v = host.versions()
    local lpeg = require "lpeg"
    io.write(string.format("tabula %s\nlua %s\nlpeg %s\nlibcurl %s\ncjson %s\n",
      v.tabula, (v.lua:gsub("^Lua ", "")), type(lpeg.version) == "function" and lpeg.version() or lpeg.version,
      v.libcurl, v.cjson))
    return 0
  end,
}
