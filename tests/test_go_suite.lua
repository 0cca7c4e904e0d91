-- The shipped Go suite (games/go/suite.jsonl) holds in the full local game:
-- every problem's allowed moves cover its whole local region (occupied points
-- included, so a point freed by a capture can be played again), and re-solved
-- there, its correct set is exactly the key and every other listed move fails.
-- (games.go.admit.recheck; all 150 problems take about 7 s of CPU).
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
  for _, p in ipairs(suite()) do t.eq(admit.recheck(p), {}, p.id) end
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
