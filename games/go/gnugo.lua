-- games.go.gnugo — GNU Go over GTP (through tabula.engine's supervised GTP
-- engine: errors and restarts as for the other engines) on normalized problems.
--
--   local gnugo = require "games.go.gnugo"
--   local e = gnugo.start({ level = 10 })             -- /usr/games/gnugo --mode gtp
--   gnugo.setup(e, p [, attacker])                     -- board size, stones (loadsgf), framed for the attacker
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

-- failures are infrastructure errors that name GNU Go and the command
local Failure = { __tostring = function(x) return x.message end }
local function fail(text, why)
  error(setmetatable({ infra = true, engine = "gnugo", message = "gnugo: " .. text .. ": " .. why }, Failure), 0)
end
M.fail = fail

-- message(err) -> the text of an error raised here or by tabula.engine
function M.message(err)
  if type(err) == "table" then return tostring(err.message or err) end
  return tostring(err)
end

local function cmd(e, text)
  local r, err = e:command(text)
  if not r then fail(text, tostring(err)) end
  return r
end

-- setup(e, p [, attacker]): the problem's position, loaded from an SGF file
-- written for it; with attacker ("black"/"white"), inside a tsumego frame
-- (games.go.frame: the attacker's wall closing the region, the rest filled)
function M.setup(e, p, attacker)
  if attacker then p = require("games.go.frame").apply(p, attacker) end
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

local function to_sgf(e, v, text)
  local w = v:match("^%s*(%S+)") or ""
  local l = w:lower()
  if l == "pass" or l == "resign" then return l end
  local pt = go.from_gtp(w, e.size or 19)
  if not pt then fail(text, string.format("answered %q, not a move", v:sub(1, 60))) end
  return pt
end

function M.genmove(e, color)
  local text = "genmove " .. color
  return to_sgf(e, cmd(e, text), text)
end

function M.restricted_genmove(e, color, pts)
  local g = {}
  for i, pt in ipairs(pts) do g[i] = go.to_gtp(pt, e.size or 19) end
  local text = "restricted_genmove " .. color .. " " .. table.concat(g, " ")
  return to_sgf(e, cmd(e, text), text)
end

-- owl answers "0", or a code 1-3 and a point (or PASS); anything else is garbage
local function owl(e, what, pt)
  local text = what .. " " .. go.to_gtp(pt, e.size or 19)
  local r = cmd(e, text)
  local code, where = r:match("^%s*(%d)%s*(%S*)%s*$")
  if not code then fail(text, string.format("answered %q, not an owl result", r:sub(1, 60))) end
  code = tonumber(code)
  if where == "" or where:upper() == "PASS" then return code, nil end
  local at = go.from_gtp(where, e.size or 19)
  if not at then fail(text, string.format("answered %q, not an owl result", r:sub(1, 60))) end
  return code, at
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
