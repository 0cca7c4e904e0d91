-- games.svgkit.memo: the card and tile drawings kept across the frames of a match
-- are the drawings made afresh (a memo key that leaves out something the drawing
-- shows would draw a stale card): a match of each game drawn with and without it.
local t = require "tabula.testing"
local K = require "games.svgkit"
local kit = require "games.kit"
local rt = require "games.rules_test"
local test, T = t.suite()

test("svgkit.memo: made once per key, again for another key, not kept for a nil key", function()
  local made = 0
  local f = K.memo(function(x) made = made + 1; return "<" .. x .. ">" end, function(x) return x ~= "skip" and x or nil end)
  t.eq(f("a"), "<a>"); t.eq(f("a"), "<a>"); t.eq(made, 1)
  t.eq(f("b"), "<b>"); t.eq(made, 2)
  f("skip"); f("skip"); t.eq(made, 4)
  t.eq(K.counts({ red = 2 }, { "red", "blue" }), "2,")
end)

for _, name in ipairs({ "century", "splendor", "carcassonne" }) do
  test("svgkit.memo: " .. name .. "'s frames of a random match are the same drawn with and without the memo", function()
    local G = require("games." .. name)
    local rand = kit.generator(7)
    local frames = 0
    rt.play(G, 3, 11, function(_, _, legal) return legal[rand(#legal)].id end, function(state)
      if frames >= 120 then return end
      local seat = G.current_seats(state)[1]
      local obs = G.observation(state, seat)
      local kept = G.svg(obs)
      K.memo_off = true
      local fresh = G.svg(obs)
      K.memo_off = nil
      t.eq(kept, fresh, name .. " frame " .. frames)
      frames = frames + 1
    end)
    t.ok(frames >= 40, "frames drawn: " .. frames)
  end)
end

return T
