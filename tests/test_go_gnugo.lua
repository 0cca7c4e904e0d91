-- Differential test of the Go rules against GNU Go over GTP: random games on
-- 9x9 (captures and ko happen); after every move the stones agree with
-- list_stones and legality agrees with is_legal on sampled points.
local t = require "tabula.testing"
local go = require "games.go"
local engine = require "tabula.engine"
local test, T = t.suite()

local function sorted_gtp(list, size)
  local out = {}
  for _, pt in ipairs(list) do out[#out + 1] = go.to_gtp(pt, size) end
  table.sort(out)
  return out
end

local function words(s)
  local out = {}
  for w in s:gmatch("%S+") do out[#out + 1] = w:upper() end
  table.sort(out)
  return out
end

test("go: random games agree with GNU Go (stones after every move, legality)", function()
  t.need_program("/usr/games/gnugo")
  local e = engine.gtp({ name = "gnugo", argv = { "/usr/games/gnugo", "--mode", "gtp", "--level", "0" } })
  local size, seed = 9, 12345
  local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n + 1 end
  local moves_checked, captures = 0, 0
  for _ = 1, 2 do
    assert(e:command("boardsize " .. size)); assert(e:command("clear_board"))
    local g = go.new(size)
    for _ = 1, 90 do
      local color = g:to_move()
      local legal = g:legal_moves(color)
      -- sampled legality agreement, including occupied and illegal points
      for _ = 1, 3 do
        local pt = go.xy_sgf(rand(size) - 1, rand(size) - 1)
        local ours = g:is_legal(pt) and "1" or "0"
        t.eq(e:command("is_legal " .. color .. " " .. go.to_gtp(pt, size)), ours, "is_legal " .. pt)
      end
      if #legal == 0 then break end
      local pt = legal[rand(#legal)]
      t.ok(g:play(pt))
      assert(e:command("play " .. color .. " " .. go.to_gtp(pt, size)))
      local st = g:stones()
      t.eq(words(e:command("list_stones black")), sorted_gtp(st.black, size), "black stones")
      t.eq(words(e:command("list_stones white")), sorted_gtp(st.white, size), "white stones")
      moves_checked = moves_checked + 1
    end
    local b, w = g:captures()
    captures = captures + b + w
  end
  e:close()
  t.ok(moves_checked >= 150, "games were played")
  t.ok(captures > 0, "captures happened")
end)

test("gnugo: setup from a problem, restricted_genmove, owl and dragon status", function()
  t.need_program("/usr/games/gnugo")
  local gnugo = require "games.go.gnugo"
  local problem = require "games.go.problem"
  local p = problem.from_sgf("(;SZ[19]AB[eb][fb][bc][cc][dc][be]AW[da][ab][bb][cb][db]PL[B])")[1]
  local e = gnugo.start({ level = 1 })
  gnugo.setup(e, p)
  t.eq(words(e:command("list_stones white")), sorted_gtp(p.stones.white, 19))
  local options = { "ba", "ca", "aa", "ea" }
  local m = gnugo.restricted_genmove(e, "black", options)
  local found = false
  for _, o in ipairs(options) do found = found or o == m end
  t.ok(found, "restricted_genmove chose one of the options: " .. tostring(m))
  local code, where = gnugo.owl_attack(e, "bb")
  t.ok(code >= 0 and code <= 3)
  if code > 0 then t.ok(where and #where == 2) end
  local status = gnugo.dragon_status(e, "bb")
  t.ok(status == "alive" or status == "critical" or status == "dead" or status == "unknown", status)
  local g = gnugo.genmove(e, "black")
  t.ok(g == "pass" or g == "resign" or (g:match("^%l%l$") and not p.stones.black[g]), "genmove: " .. g)
  e:close()
end)

test("gnugo: every problem of the shipped suite loads and GNU Go answers genmove on it", function()
  t.need_program("/usr/games/gnugo")
  local gnugo = require "games.go.gnugo"
  local json = require "tabula.json"
  local e = gnugo.start({ level = 0 })
  local n = 0
  for line in require("tabula.fs").read(t.root() .. "/games/go/suite.jsonl"):gmatch("[^\n]+") do
    local p = json.decode(line)
    gnugo.setup(e, p)
    t.eq(words(e:command("list_stones black")), sorted_gtp(p.stones.black, 19), p.id)
    local m = gnugo.genmove(e, p.to_play)
    t.ok(m == "pass" or m == "resign" or m:match("^%l%l$"), p.id .. ": " .. m)
    n = n + 1
  end
  e:close()
  t.ok(n >= 20)
end)

return T
