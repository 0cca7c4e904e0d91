-- The shipped Go suite (games/go/suite.jsonl) holds in the full local game:
-- every problem's allowed moves cover its whole local region (occupied points
-- included, so a point freed by a capture can be played again), and re-solved
-- there, its correct set is exactly the key and every other listed move fails.
local t = require "tabula.testing"
local go = require "games.go"
local solve = require "games.go.solve"
local json = require "tabula.json"
local fs = require "tabula.fs"
local test, T = t.suite()

local function suite() return (require("tabula.records").read(t.root() .. "/games/go/suite.jsonl")) end

local function set(list) local s = {} for _, v in ipairs(list or {}) do s[v] = true end return s end

-- full_region(p) -> the local region the problem is played in: its allowed
-- points, every defender stone and every attacker chain inside them (all of
-- whose liberties are allowed points); only the attacker's outer wall is out
local function full_region(p)
  local g = go.position(p.size, p.stones, p.to_play)
  local allowed, out = set(p.allowed), {}
  local attacker = go.other(g:get(p.target))
  for pt in pairs(allowed) do out[pt] = true end
  for _, c in ipairs({ "black", "white" }) do
    for _, pt in ipairs(p.stones[c]) do
      local inside = true
      if c == attacker then
        local _, libs = g:group(pt)
        for _, l in ipairs(libs) do if not allowed[l] then inside = false end end
      end
      if inside then out[pt] = true end
    end
  end
  return out
end

test("every suite problem's allowed moves are its full local region, occupied points included", function()
  for _, p in ipairs(suite()) do
    local allowed = set(p.allowed)
    for pt in pairs(full_region(p)) do
      t.ok(allowed[pt], string.format("%s: %s is in the local region but not allowed", p.id, pt))
    end
  end
end)

test("every suite problem re-solved in the full local game: the key is exactly the proven set, every other move fails", function()
  for _, p in ipairs(suite()) do
    local full = {}
    for pt in pairs(full_region(p)) do full[#full + 1] = pt end
    table.sort(full)
    local q = assert(solve.query({ size = p.size, stones = p.stones, to_play = p.to_play, target = p.target,
      allowed = full, goal = p.goal }, { nodes = 20000, depth = 21 }))
    q.method = "id"
    local r = solve.first_moves(p, q)
    t.eq(r.status, "solved", p.id .. ": every first move decided")
    local got = {}
    for _, c in ipairs(r.correct) do got[#got + 1] = c end
    table.sort(got)
    local want = {}
    for _, c in ipairs(p.correct) do want[#want + 1] = c end
    table.sort(want)
    t.eq(got, want, p.id .. ": the key")
    local wrong, result = set(p.wrong), {}
    for _, m in ipairs(r.moves) do result[m.move] = m.result end
    for w in pairs(wrong) do t.eq(result[w], "loss", p.id .. ": listed wrong move " .. w) end
    for mv, res in pairs(result) do
      if res == "loss" then t.ok(wrong[mv], p.id .. ": failing move " .. mv .. " is listed as wrong") end
    end
  end
end)

return T
