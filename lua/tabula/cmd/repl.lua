-- tabula repl — Lua with the tabula library preloaded; expression results are
-- shown (boards drawn, tables as JSON-like text). Also:
--   tabula -e 'code'   run code (its results shown)      tabula - < file.lua   run stdin
-- Preloaded globals: xq (games.xiangqi), chess (games.chess), json, fs, metrics,
-- loop, records, items, choice, kit (tabula.scenario), transcripts, compare.
-- Every chunk runs inside the event loop, so loop.sleep and engines work.
local cli = require "tabula.cli"
local loop = require "tabula.loop"

local M = {}

M.PRELOAD = { xq = "games.xiangqi", chess = "games.chess", json = "tabula.json", fs = "tabula.fs",
  metrics = "tabula.metrics", loop = "tabula.loop", records = "tabula.records", items = "tabula.items",
  choice = "tabula.choice", kit = "tabula.scenario", transcripts = "tabula.transcripts", compare = "tabula.compare" }

-- env() -> the globals chunks run with (the real globals plus the preloaded modules)
function M.env()
  local e = setmetatable({}, { __index = _G })
  for k, mod in pairs(M.PRELOAD) do
    local ok, m = pcall(require, mod)
    if ok then e[k] = m end
  end
  return e
end

-- show(v) -> readable text of a value: boards drawn, tables in braces
function M.show(v, depth)
  depth = depth or 0
  local t = type(v)
  if t == "string" then return depth == 0 and v or string.format("%q", v) end
  if t == "userdata" then
    local ok, fen = pcall(function() return v:fen() end)
    if ok and type(fen) == "string" then
      local rok, text = pcall(function() return v:render() end)
      return (rok and text and (text .. "\n") or "") .. "FEN " .. fen
    end
    return tostring(v)
  end
  if t ~= "table" then return tostring(v) end
  if depth > 3 then return "{...}" end
  local keys, parts = {}, {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) == type(b) and (type(a) == "number" or type(a) == "string") then return a < b end
    return type(a) < type(b)
  end)
  for i, k in ipairs(keys) do
    if i > 40 then parts[#parts + 1] = "..."; break end
    local key = (math.type(k) == "integer" and k == i) and "" or (tostring(k) .. " = ")
    parts[#parts + 1] = key .. M.show(v[k], depth + 1)
  end
  return "{ " .. table.concat(parts, ", ") .. " }"
end

-- eval(code, env [, name]) -> ok, text: runs code (as an expression first), the results shown
function M.eval(code, env, name)
  local chunk = load("return " .. code, name or "=repl", "t", env)
  local err
  if not chunk then chunk, err = load(code, name or "=repl", "t", env) end
  if not chunk then return false, err, err:find("<eof>$") ~= nil end
  local res
  local function go() res = table.pack(chunk()) end
  local ok, e
  if loop.current() then ok, e = pcall(go) else ok, e = pcall(loop.run, go) end   -- already in a task (tests)
  if not ok then return false, cli.is_user_error(e) and e.message or (tostring(e):match("^[^\n]*")) end
  local out = {}
  for i = 1, res.n do out[i] = M.show(res[i]) end
  return true, table.concat(out, "\t")
end

local function interactive(env)
  io.write(string.format("tabula %s: Lua with %s preloaded; Ctrl-D ends\n", require("tabula.c.host").version or "",
    "xq, chess, json, fs, metrics, loop, records, items, choice, kit, transcripts, compare"))
  local buf = ""
  while true do
    io.write(buf == "" and "> " or ">> ")
    io.flush()
    local line = io.read("l")
    if not line then io.write("\n"); return 0 end
    buf = buf == "" and line or (buf .. "\n" .. line)
    local ok, text, incomplete = M.eval(buf, env)
    if not ok and incomplete then goto continue end
    if text ~= "" then io.write(text, "\n") end
    buf = ""
    ::continue::
  end
end

function M.main(args)
  if args[1] == "--help" or args[1] == "-h" then
    io.write(cli.help_text({}, { program = "tabula", usage = "repl | -e CODE | - < FILE",
      summary = "Lua with the tabula library preloaded: tabula repl (interactive), tabula -e CODE, tabula - (read a script from stdin)" }))
    return 0
  end
  local env = M.env()
  if args[1] == "-e" then
    if not args[2] then cli.fail("-e needs code: tabula -e 'print(1 + 1)'") end
    local ok, text = M.eval(args[2], env, "=(command line)")
    if text ~= "" then (ok and io.stdout or io.stderr):write(ok and "" or "tabula: ", text, "\n") end
    return ok and 0 or 1
  elseif args[1] == "-" then
    local ok, text = M.eval(io.read("a"), env, "=stdin")
    if not ok then io.stderr:write("tabula: ", text, "\n"); return 1 end
    return 0
  elseif args[1] then
    cli.fail("repl: unexpected argument '%s' (tabula repl, tabula -e CODE, tabula - < FILE)", args[1])
  end
  return interactive(env)
end

return {
  summary = "Lua with the tabula library preloaded (also tabula -e CODE, tabula - for stdin)",
  raw_args = true,
  main = function(_, args) return M.main(args) end,
  lib = M,
}
