-- games.go.gnugo — GNU Go over GTP (through tabula.engine's supervised GTP
-- engine: errors and restarts as for the other engines) on normalized problems.
--
--   local gnugo = require "games.go.gnugo"
--   local e = gnugo.start({ level = 10 })             -- /usr/games/gnugo --mode gtp
--   gnugo.setup(e, p)                                  -- board size, stones (loadsgf)
--   gnugo.genmove(e, "black")                          -- "dd" | "pass" | "resign"
--   gnugo.restricted_genmove(e, "black", {"dd", "ee"}) -- one of them, or "pass"
--   gnugo.owl_attack(e, "dd") / gnugo.owl_defend(e, "dd")  -> code (0 no, 1 yes, 2/3 ko), point|nil
--   gnugo.dragon_status(e, "dd")                       -> "alive"|"critical"|"dead"|"unknown", attack, defence
--   gnugo.play(e, "black", "dd") -> true | false (GNU Go refuses the move); gnugo.undo(e)
--   gnugo.color(e, "dd")                               -> "black" | "white" | nil (empty)
-- Points are SGF; GTP coordinates are converted here.
local engine = require "tabula.engine"
local go = require "games.go"
local sgf = require "games.go.sgf"

local M = {}

M.PATH = "/usr/games/gnugo"

function M.start(opts)
  opts = opts or {}
  return engine.gtp({ name = "gnugo", argv = { opts.path or M.PATH, "--mode", "gtp", "--level", tostring(opts.level or 10) },
    timeout = opts.timeout or 60 })
end

local function cmd(e, text)
  local r, err = e:command(text)
  if not r then error({ infra = true, message = "gnugo: " .. text .. ": " .. tostring(err) }, 0) end
  return r
end

-- setup(e, p): the problem's position, loaded from an SGF file written for it
function M.setup(e, p)
  e.size = p.size
  local props = { { "GM", { "1" } }, { "FF", { "4" } }, { "SZ", { tostring(p.size) } } }
  if #p.stones.black > 0 then props[#props + 1] = { "AB", p.stones.black } end
  if #p.stones.white > 0 then props[#props + 1] = { "AW", p.stones.white } end
  props[#props + 1] = { "PL", { p.to_play == "white" and "W" or "B" } }
  local path = os.tmpname() .. ".sgf"
  local f = assert(io.open(path, "w"))
  f:write(sgf.write(sgf.node(props)))
  f:close()
  local ok, r = pcall(cmd, e, "loadsgf " .. path)
  os.remove(path)
  if not ok then error(r, 0) end
  return r
end

local function to_sgf(e, v)
  v = v:match("^%s*(%S+)") or ""
  local l = v:lower()
  if l == "pass" or l == "resign" then return l end
  return go.from_gtp(v, e.size or 19) or v
end

function M.genmove(e, color) return to_sgf(e, cmd(e, "genmove " .. color)) end

function M.restricted_genmove(e, color, pts)
  local g = {}
  for i, pt in ipairs(pts) do g[i] = go.to_gtp(pt, e.size or 19) end
  return to_sgf(e, cmd(e, "restricted_genmove " .. color .. " " .. table.concat(g, " ")))
end

local function owl(e, what, pt)
  local r = cmd(e, what .. " " .. go.to_gtp(pt, e.size or 19))
  local code, where = r:match("^(%d)%s*(%S*)")
  code = tonumber(code) or 0
  return code, (where and where ~= "" and where:upper() ~= "PASS") and go.from_gtp(where, e.size or 19) or nil
end

function M.owl_attack(e, pt) return owl(e, "owl_attack", pt) end
function M.owl_defend(e, pt) return owl(e, "owl_defend", pt) end

-- play(e, color, pt) -> true, or false when GNU Go refuses the move (illegal)
function M.play(e, color, pt)
  return e:command("play " .. color .. " " .. go.to_gtp(pt, e.size or 19)) ~= nil
end

function M.undo(e) cmd(e, "undo") end

function M.color(e, pt)
  local c = cmd(e, "color " .. go.to_gtp(pt, e.size or 19)):match("%a+")
  return (c == "black" or c == "white") and c or nil
end

function M.dragon_status(e, pt)
  local r = cmd(e, "dragon_status " .. go.to_gtp(pt, e.size or 19))
  local status, a, d = r:match("^(%a+)%s*(%S*)%s*(%S*)")
  local function conv(v) return v and v ~= "" and v:upper() ~= "PASS" and go.from_gtp(v, e.size or 19) or nil end
  return status or "unknown", conv(a), conv(d)
end

return M
