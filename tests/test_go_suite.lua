-- The shipped Go suite (games/go/suite.jsonl) holds in the full local game:
-- every problem's allowed moves cover its whole local region (occupied points
-- included, so a point freed by a capture can be played again), and re-solved
-- there, its correct set is exactly the key and every other listed move fails.
-- (games.go.admit.recheck; all 150 problems take about 7 s of CPU). And the
-- proof holds on the board the model sees: no attacker chain of the wall can be
-- brought near atari by moves outside the area (games.go.generate.wall_faults).
-- slow: every shipped problem is re-solved in the full local game (left out by make check)
local t = require "tabula.testing"
local admit = require "games.go.admit"
local gen = require "games.go.generate"
local test, T = t.suite()

local function suite() return (require("tabula.records").read(t.root() .. "/games/go/suite.jsonl")) end

local function set(list) local s = {} for _, v in ipairs(list or {}) do s[v] = true end return s end

test("every suite problem's allowed moves are its full local region, occupied points included", function()
  for _, p in ipairs(suite()) do
    local allowed = set(p.allowed)
    for pt in pairs(admit.full_region(p)) do
      t.ok(allowed[pt], string.format("%s: %s is in the local region but not allowed", p.id, pt))
    end
  end
end)

test("no suite problem's attacker wall is capturable from outside the area", function()
  local bad = {}
  for _, p in ipairs(suite()) do
    for _, f in ipairs(gen.wall_faults(p)) do bad[#bad + 1] = p.id .. ": " .. f end
  end
  t.eq(bad, {})
end)

-- the suite's problem tabula-go-0028 before issue 43: White's ac+bc, cut off
-- from the band, has 3 liberties, ad and bd outside the area; a Black stone at
-- ad or bd (outside the area) changed the answer
test("wall_faults finds a wall chain with few liberties outside the area (the old tabula-go-0028)", function()
  local p = { size = 19, to_play = "black", target = "bb",
    stones = { black = { "bb", "cb", "cc", "dc", "eb", "fa", "fb" },
               white = { "aa", "ac", "bc", "cd", "db", "dd", "ec", "ed", "fc", "ga", "gb", "gc" } },
    allowed = { "aa", "ab", "ba", "bb", "ca", "cb", "cc", "da", "db", "dc", "ea", "eb", "fa", "fb" } }
  local faults = gen.wall_faults(p)
  t.ok(#faults >= 1, "a fault")
  t.contains(table.concat(faults, "; "), "attacker chain ac+bc has 2 liberties outside the area (ad bd)")
  -- the same position with the band closed (White at ad and bd join ac+bc to cd and the rest): no fault there
  local closed = { size = 19, to_play = "black", target = "bb", allowed = p.allowed,
    stones = { black = p.stones.black, white = { "aa", "ac", "ad", "bc", "bd", "cd", "db", "dd", "ec", "ed", "fc", "ga", "gb", "gc" } } }
  local rest = gen.wall_faults(closed)
  t.ok(not table.concat(rest, "; "):find("ac+", 1, true), table.concat(rest, "; "))
end)

test("the suite: at least 150 problems in all four tiers, tiers following the documented rule", function()
  local list, tiers = suite(), {}
  t.ok(#list >= 150, #list .. " problems")
  for _, p in ipairs(list) do
    tiers[p.tier] = (tiers[p.tier] or 0) + 1
    t.eq(p.tier, gen.tier_of(p.depth, p.branching), p.id .. ": tier from depth " .. p.depth .. " and branching " .. p.branching)
  end
  for _, name in ipairs({ "Easy", "Intermediate", "Medium", "Hard" }) do t.ok((tiers[name] or 0) > 0, name) end
end)

test("every suite problem re-solved in the full local game: the key is exactly the proven set, every other move fails", function()
  -- every problem; the sanitizer build every third (the same searches, t.sanitized)
  local list, step = suite(), t.sanitized() and 3 or 1
  for i = 1, #list, step do t.eq(admit.recheck(list[i]), {}, list[i].id) end
end)

test("recheck finds a wrong key and an unlisted failing move", function()
  local p = suite()[1]
  local bad = {}
  for k, v in pairs(p) do bad[k] = v end
  bad.correct = { p.wrong[1] }
  bad.wrong = { table.unpack(p.wrong, 2) }
  local faults = admit.recheck(bad)
  t.ok(#faults >= 2, table.concat(faults, "; "))
end)

test("near copies: a shared-style problem turned, recoloured and with a stone changed is found, a different one is not", function()
  local p = suite()[1]
  local index = gen.near_index()
  gen.near_add(index, p.stones, 19, "original")
  local transform = require "games.go.transform"
  local q = transform.apply(p, { symmetry = "rot90", invert = true })
  table.remove(q.stones.black, 1)                             -- one stone fewer
  local id, d = gen.near_copy(index, q.stones, 19)
  t.eq({ id, d }, { "original", 1 })
  -- far from it: every stone moved off
  local other = gen.near_index()
  gen.near_add(other, { black = { "aa", "ba", "ca", "da" }, white = { "ab", "bb", "cb", "db" } }, 19, "other")
  t.eq(gen.near_copy(other, p.stones, 19), nil)
end)

return T
