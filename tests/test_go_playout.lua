-- Light playouts (src/go.c go_playout): from many seeds and start positions
-- they end in legal terminal positions with only eyes left, the incremental
-- chains and liberties they keep agree with a board rebuilt from the stones,
-- and a seed always gives the same playout.
local t = require "tabula.testing"
local go = require "games.go"
local test, T = t.suite()

-- the playout's final board against one rebuilt from its stones alone
local function same_as_rebuilt(a, size, opts, what)
  local stones = a:stones()
  local r = go.position(size, stones, a:to_move(), opts)
  t.eq(r:hash(), a:hash(), what .. ": the Zobrist key is the one of its stones")
  for _, c in ipairs { "black", "white" } do
    t.eq(a:legal_moves(c), r:legal_moves(c), what .. ": " .. c .. "'s legal moves (atari and suicide tests)")
    for _, p in ipairs(stones[c]) do
      local chain, libs = a:group(p)
      t.ok(#libs >= 1, what .. ": the chain at " .. p .. " has a liberty")
      t.eq(#chain, #(r:group(p)), what .. ": the chain at " .. p)
    end
  end
end

test("go: playouts end with both sides passing, only eyes left, the same result for a seed", function()
  local starts = {
    { name = "empty 9x9", g = go.new(9) },
    { name = "9x9 with stones", g = go.from_rows({
      ".........",
      "..X...O..",
      ".X.X.....",
      "..X..O.O.",
      ".....OXO.",
      "..X...O..",
      ".........",
      ".O.....X.",
      ".........",
    }, "white") },
    { name = "7x7", g = go.new(7) },
  }
  local outcomes = {}
  for _, s in ipairs(starts) do
    local size = s.g:size()
    for seed = 1, 25 do
      local what = s.name .. " seed " .. seed
      local a = s.g:playout(seed)
      t.eq(tostring(s.g:playout(seed)), tostring(a), what .. ": deterministic")
      t.eq(a:passes(), 2, what .. ": ended by two passes")
      t.eq(#a:legal_moves("black", true) + #a:legal_moves("white", true), 0, what .. ": no move left but own eyes")
      for _, c in ipairs { "black", "white" } do
        for _, p in ipairs(a:legal_moves(c)) do t.ok(a:is_eye(p, c), what .. ": " .. p .. " is " .. c .. "'s eye") end
      end
      same_as_rebuilt(a, size, nil, what)
      outcomes[tostring(a)] = true
    end
  end
  local distinct = 0
  for _ in pairs(outcomes) do distinct = distinct + 1 end
  t.ok(distinct > 60, "seeds give different playouts (" .. distinct .. " distinct of 75)")
end)

test("go: playouts with suicide allowed keep consistent chains (they end by the move limit)", function()
  local opts = { suicide = true }
  local g = go.new(7, opts)
  for seed = 1, 10 do
    local a = g:playout(seed, 200)
    same_as_rebuilt(a, 7, opts, "suicide seed " .. seed)
  end
end)

test("go: many playouts: the same totals for a seed, different for another", function()
  local g = go.new(9)
  local w1, m1 = g:playouts(200, 5)
  local w2, m2 = g:playouts(200, 5)
  t.eq({ w1, m1 }, { w2, m2 })
  local w3, m3 = g:playouts(200, 6)
  t.ok(w3 ~= w1 or m3 ~= m1, "another seed, other playouts")
  t.ok(m1 > 200 * 60 and m1 < 200 * 243, "moves per playout in range: " .. m1 / 200)
end)

return T
