-- The tsumego frame (games.go.frame): inside the box nothing changes; outside,
-- the attacker's wall closes the region and the rest is filled with groups
-- that are unconditionally alive, so no side gains outside liberties or eyes.
local t = require "tabula.testing"
local go = require "games.go"
local frame = require "games.go.frame"
local json = require "tabula.json"
local fs = require "tabula.fs"
local test, T = t.suite()

local function suite() return (require("tabula.records").read(t.root() .. "/games/go/suite.jsonl")) end

local function inside(b, pt)
  local x, y = go.sgf_xy(pt)
  return x >= b[1] and x <= b[3] and y >= b[2] and y <= b[4]
end

test("the frame around every suite problem: box untouched, legal, wall of the attacker, frame alive", function()
  for _, p in ipairs(suite()) do
    local g0 = go.position(p.size, p.stones, p.to_play)
    local attacker = go.other(g0:get(p.target))
    local b = frame.box(p)
    local q = frame.apply(p, attacker)
    local g = go.position(p.size, q.stones, p.to_play)
    local orig = {}
    for _, c in ipairs({ "black", "white" }) do for _, pt in ipairs(p.stones[c]) do orig[pt] = c end end
    local alive = {}
    for _, c in ipairs({ "black", "white" }) do for _, pt in ipairs(g:benson(c)) do alive[pt] = true end end
    local n = 0
    for y = 0, p.size - 1 do
      for x = 0, p.size - 1 do
        local pt = go.xy_sgf(x, y)
        local c = g:get(pt)
        if inside(b, pt) then
          t.eq(c, orig[pt], p.id .. ": inside the box " .. pt .. " is unchanged")
        elseif c then
          n = n + 1
          t.ok(alive[pt], p.id .. ": frame stone " .. pt .. " is unconditionally alive")
          local _, libs = g:group(pt)
          t.ok(#libs > 0, p.id .. ": frame chain at " .. pt .. " has a liberty")
        end
        -- the ring just outside the box is the attacker's wall
        local dx = x < b[1] and b[1] - x or x > b[3] and x - b[3] or 0
        local dy = y < b[2] and b[2] - y or y > b[4] and y - b[4] or 0
        if math.max(dx, dy) == 1 then t.eq(c, attacker, p.id .. ": wall at " .. pt) end
      end
    end
    t.ok(n > 100, p.id .. ": the board is filled")
  end
end)

test("no region, no frame", function()
  local p = { size = 9, stones = { black = { "aa" }, white = {} }, to_play = "white" }
  t.eq(frame.stones(p, "white"), { black = { "aa" }, white = {} })
end)

return T
