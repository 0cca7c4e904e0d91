-- The project's own XiangqiBench suite (games/xiangqi/suite.jsonl): what its
-- data card promises holds.
local t = require "tabula.testing"
local xq = require "games.xiangqi"
local admit = require "games.xiangqi.admit"
local records = require "tabula.records"
local test, T = t.suite()

local function suite() return records.read(t.root() .. "/games/xiangqi/suite.jsonl") end

test("130 cases, Red to move, distances 3-11, threat races the majority, no duplicates", function()
  local cases = suite()
  t.eq(#cases, 130)
  local by_dist, cats, seen, ids = {}, {}, {}, {}
  for _, c in ipairs(cases) do
    local b = assert(xq.new(c.fen))
    t.eq(b:side(), "red", c.id)
    t.eq(b:in_check(), false, c.id)
    t.eq(#b:moves(), c.legal_move_count, c.id .. " legal_move_count")
    by_dist[c.win_in_plies] = (by_dist[c.win_in_plies] or 0) + 1
    cats[c.category] = (cats[c.category] or 0) + 1
    local key = admit.identity(c.fen)
    t.eq(seen[key], nil, c.id .. " duplicates " .. tostring(seen[key]))
    seen[key] = c.id
    t.eq(ids[c.id], nil)
    ids[c.id] = true
  end
  t.eq(by_dist, { [3] = 18, [5] = 28, [7] = 34, [9] = 28, [11] = 22 })
  t.ok(cats.threatmate_race > cats.forced_mate, "threat races are the majority")
  t.eq(cats.threatmate_race + cats.forced_mate, 130)
end)

test("every stored solution line is legal and ends in mate at the stored length", function()
  for _, c in ipairs(suite()) do
    local b = xq.new(c.fen)
    t.eq(#c.solution_line, c.win_in_plies, c.id)
    t.eq(c.solution_line[1], c.first_winning_move, c.id)
    for _, m in ipairs(c.solution_line) do t.ok(b:play(m), c.id .. " " .. m) end
    t.eq((b:status()), "no_moves", c.id)
  end
end)

test("a sample of the proofs and categories re-checked by the mate search", function()
  for i, c in ipairs(suite()) do
    if i % 10 == 1 then
      local b = xq.new(c.fen)
      local short = c.win_in_plies > 1 and xq.mate(b, { plies = c.win_in_plies - 2, nodes = 3000000 })
      if short then t.eq(short.found, false, c.id .. ": no shorter mate") end
      local r = xq.mate(b, { plies = c.win_in_plies, nodes = 3000000 })
      t.eq({ r.found, r.plies }, { true, c.win_in_plies }, c.id)
      local black = xq.new((c.fen:gsub(" w ", " b ")))
      local th = xq.mate(black, { plies = 3, nodes = 200000 })
      if c.category == "threatmate_race" and c.defender_threat_in_plies <= 3 then
        t.eq(th.plies, c.defender_threat_in_plies, c.id .. " threat")
      elseif c.category == "forced_mate" then
        t.eq(th.found, false, c.id .. ": no threat")
      end
    end
  end
end)

return T
