-- Go rules core (src/go.c through tabula.c.go and games.go): captures, ko,
-- superko, suicide, eyes, Benson, coordinates, undo, playouts.
local t = require "tabula.testing"
local go = require "games.go"
local test, T = t.suite()

test("go: a single stone and a group are captured", function()
  local g = go.from_rows({
    ".X...",
    "XO...",
    ".X...",
    ".....",
    ".....",
  }, "black")
  t.ok(g:play("cb"))
  t.eq(g:get("bb"), nil)
  t.eq({ g:captures() }, { 1, 0 })
  -- a two-stone white group on the edge
  g = go.from_rows({ ".OOX.", ".XX..", ".....", ".....", "....." }, "black")
  local stones, libs = g:group("ba")
  t.eq(stones, { "ba", "ca" }); t.eq(libs, { "aa" })
  t.ok(g:play("aa"))
  t.eq(g:stones().white, {})
  t.eq({ g:captures() }, { 2, 0 })
end)

test("go: suicide is illegal unless allowed; capturing is not suicide", function()
  local rows = { ".X...", "X....", ".....", ".....", "....." }
  local g = go.from_rows(rows, "white")
  t.eq({ g:is_legal("aa") }, { false, "suicide" })
  t.eq({ g:play("aa") }, { nil, "suicide" })
  g = go.from_rows(rows, "white", { suicide = true })
  t.ok(g:play("aa"))
  t.eq(g:get("aa"), nil)
  t.eq({ g:captures() }, { 1, 0 })       -- black gets the suicided stone
  -- a move without liberties that captures is legal
  g = go.from_rows({ ".OX..", "OX...", "X....", ".....", "....." }, "black")
  t.ok(g:is_legal("aa"))                 -- captures both white stones
  t.ok(g:play("aa"))
  t.eq(g:stones().white, {})
end)

test("go: simple ko forbids the immediate recapture only", function()
  local g = go.from_rows({
    ".XO..",
    "XO.O.",
    ".XO..",
    ".....",
    ".....",
  }, "black")
  t.ok(g:play("cb"))                       -- black takes the white stone at bb
  t.eq(g:get("bb"), nil)
  t.eq(g:ko(), "bb")
  t.eq({ g:is_legal("bb") }, { false, "ko" })
  t.ok(g:play("ee"))                       -- white threat elsewhere
  t.ok(g:play("ed"))                       -- black answers
  t.eq(g:ko(), nil)
  t.ok(g:play("bb"))                       -- now white may retake
  t.eq(g:get("cb"), nil)
  t.eq(g:ko(), "cb")
end)

test("go: positional superko forbids recreating an earlier position", function()
  -- a ko capture, then two passes (which clear the simple-ko ban): the retake
  -- would recreate the position before the capture
  local rows = { ".XO..", "XO.O.", ".XO..", ".....", "....." }
  local plain = go.from_rows(rows, "black")
  local sk = go.from_rows(rows, "black", { superko = true })
  for _, g in ipairs { plain, sk } do
    t.ok(g:play("cb")); t.ok(g:play("pass")); t.ok(g:play("pass"))
  end
  -- white to move again after black's pass; passing cleared the ko. Retaking at bb
  -- gives the position before black's capture, which superko forbids.
  t.ok(plain:is_legal("bb", "white"))
  t.eq({ sk:is_legal("bb", "white") }, { false, "superko" })
  -- undo brings back the capture's position exactly
  local h = sk:hash()
  t.ok(sk:play("ee", "white")); t.ok(sk:undo())
  t.eq(sk:hash(), h)
end)

test("go: 'empty' is not a colour that moves: legal_moves, is_legal, is_eye, play refuse it (superko game too)", function()
  local rows = { ".XO..", "XO.O.", ".XO..", ".....", "....." }
  local sk = go.from_rows(rows, "black", { superko = true })
  t.ok(sk:play("cb")); t.ok(sk:play("pass")); t.ok(sk:play("pass"))
  t.raises(function() sk:legal_moves("empty") end, "black or white")
  t.raises(function() sk:is_legal("bb", "empty") end, "black or white")
  t.raises(function() sk:is_eye("aa", "empty") end, "black or white")
  t.raises(function() sk:play("ee", "empty") end, "black or white")
  t.ok(#sk:legal_moves("white") > 0, "the game is unharmed")
end)

test("go: undo restores stones, ko, captures and side to move", function()
  local g = go.from_rows({ ".XO..", "XO.O.", ".XO..", ".....", "....." }, "black")
  local before = tostring(g)
  t.ok(g:play("cb"))
  t.ok(g:undo())
  t.eq(tostring(g), before)
  t.eq(g:to_move(), "black")
  t.eq({ g:captures() }, { 0, 0 })
  t.eq(g:ko(), nil)
end)

test("go: eyes for playouts: own points, at most one enemy diagonal (none on the edge)", function()
  local g = go.from_rows({
    ".X.X.",
    "XX.XX",
    "X.X..",
    ".XO..",
    ".....",
  })
  t.ok(g:is_eye("aa", "black"))
  t.ok(not g:is_eye("aa", "white"))
  t.ok(not g:is_eye("ba", "black"))         -- occupied
  t.ok(not g:is_eye("ca", "black"))         -- an empty neighbour
  t.ok(g:is_eye("bc", "black"))             -- one enemy diagonal (cd) away from the edge
  -- an interior point with two enemy diagonals is a false eye
  g = go.from_rows({ ".....", ".OXO.", ".X.X.", ".OXO.", "....." })
  t.ok(not g:is_eye("cc", "black"))
  g = go.from_rows({ ".....", ".XXO.", ".X.X.", ".XXX.", "....." })
  t.ok(g:is_eye("cc", "black"))
end)

test("go: Benson finds two-eyed groups and rejects one-eyed ones", function()
  local g = go.from_rows({
    ".X.X.....",
    "XXXX.....",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
  })
  t.eq(#g:benson("black"), 6)
  t.eq(#g:benson("white"), 0)
  g = go.from_rows({
    ".X.......",
    "XX.......",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
  })
  t.eq(#g:benson("black"), 0)
  -- a region holding an enemy stone that touches empty non-liberties is not vital
  g = go.from_rows({
    ".X..X....",
    "XXXXX....",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
  })
  t.eq(#g:benson("black"), 7)            -- eyes aa and the two-point ca-da
  -- two separate chains sharing two eyes are both alive
  g = go.from_rows({
    ".XO.O....",
    "X.XOO....",
    "XXX......",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
  })
  t.eq(g:benson("black"), { "ab", "ac", "ba", "bc", "cb", "cc" })
  -- an eye with an inner point that is no liberty is not vital; nor is the open outside
  g = go.from_rows({
    ".X...X.",
    "XX...X.",
    "X....X.",
    "X....X.",
    "XXXXXX.",
    ".......",
    ".......",
  })
  t.eq(#g:benson("black"), 0)
  t.eq(#g:benson("white"), 0)
end)

test("go: coordinates SGF, GTP and numeric agree", function()
  t.eq(go.to_gtp("aa", 19), "A19")
  t.eq(go.to_gtp("oe", 19), "P15")            -- the TsuGO paper's example
  t.eq(go.to_gtp("sa", 19), "T19")
  t.eq(go.from_gtp("T18", 19), "sb")
  t.eq(go.from_gtp("j10", 19), "ij")
  t.eq(go.from_gtp("I5", 19), nil)
  t.eq(go.to_numeric("cb"), { 2, 3 })
  t.eq(go.from_numeric({ 2, 3 }), "cb")
  t.eq(go.parse_point("tt", 19), "pass")
  local g = go.new(19)
  t.eq(g:parse("P15"), "oe"); t.eq(g:parse("tt"), "pass"); t.eq(g:parse("Z1"), nil)
  t.ok(g:play("Q16")); t.eq(g:get("pd"), "black")
  t.raises(function() g:play("zz") end, "not a point")
  local big = go.new(25)
  t.ok(big:play("yy")); t.eq(go.to_gtp("yy", 25), "Z1")
end)

test("go: light playouts end with only eyes left and the same result for a seed", function()
  local g = go.new(9)
  local a = g:playout(11)
  t.eq(tostring(a), tostring(g:playout(11)))
  t.eq(a:passes(), 2)
  -- every empty point is an eye of one side (no side has a legal non-eye move)
  t.eq(#a:legal_moves("black", true) + #a:legal_moves("white", true), 0)
  local w1, m1 = g:playouts(50, 3)
  local w2, m2 = g:playouts(50, 3)
  t.eq({ w1, m1 }, { w2, m2 })
  t.ok(m1 > 50 * 40, "playouts play many moves")
  t.eq(tostring(g), string.rep(".........\n", 9))     -- the game itself is unchanged
end)

return T
