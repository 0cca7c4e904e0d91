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

return T
