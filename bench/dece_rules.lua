-- bench/dece_rules.lua — the long rules check of the Eurogames beyond what CI runs: thousands
-- of random playouts per game with the game's conservation invariant (the same checks as
-- tests/test_azul.lua and tests/test_splendor.lua, light mode), and playouts per second.
-- Run: tabula bench/dece_rules.lua [PLAYOUTS=2000] [GAMES=azul,splendor]
local rt = require "games.rules_test"

local n = tonumber(arg[1] or "2000")
local INVARIANTS = {
  azul = function(G) return function(s)
    local c = G.tile_census(s)
    for k = 1, 5 do assert(c[k] == 20, "Azul tiles not conserved") end
  end end,
  splendor = function(G) return function(s)
    for k = 1, 6 do
      local total = s.bank[k]
      for i = 1, s.n do total = total + s.players[i].tokens[k] end
      assert(total == (k == 6 and 5 or G.TOKENS[s.n]), "Splendor tokens not conserved")
    end
  end end,
  harmonies = function(G) return function(s)
    local c = G.census(s)
    for k, col in ipairs(G.data.COLOURS) do assert(c[k] == col.count, "Harmonies tokens not conserved") end
  end end,
  wingspan = function(G) return function(s)
    local birds, bonus = G.census(s)
    assert(birds == 170 and bonus == 26, "Wingspan cards not conserved")
  end end,
  brass = function(G) return function(s)
    local c, want = G.census(s), require("games.kit").counts(G.deck_for(s.n))
    for card, k in pairs(want) do assert(c[card] == k, "Brass cards not conserved") end
  end end,
  arknova = function(G) return function(s)
    local n = 0
    for _ in pairs(G.census(s)) do n = n + 1 end
    assert(n == (s.deck_scope == "full" and 192 or 128), "Ark Nova zoo cards not conserved")
  end end,
  burgundy = function(G) return function(s)
    local tiles, goods = G.census(s)
    assert(tiles == #G.data.TILES, "Burgundy tiles not conserved")
    for g = 1, 6 do assert(goods[g] == G.data.GOODS_PER_TYPE, "Burgundy goods not conserved") end
  end end,
}
for g in (arg[2] or "azul,splendor"):gmatch("[^,]+") do
  local G = require("games." .. g)
  local t0 = os.clock()
  local r = rt.playouts(G, { games = n, seed = 99, light = true, invariant = INVARIANTS[g] and INVARIANTS[g](G) })
  local dt = os.clock() - t0
  print(string.format("%-9s %d playouts, %d steps, all invariants held: %.1f s (%.0f playouts/s, %.0f steps/s)",
    g, r.matches, r.steps, dt, r.matches / dt, r.steps / dt))
end
