-- The built-in search: forced-mate proofs on the reference suite, mate scores
-- with distance, longest resistance, determinism, budgets, the fallback defender.
-- slow: the forced-mate search proves every reference case (left out by make check)
local t = require "tabula.testing"
local xq = require "games.xiangqi"
local records = require "tabula.records"
local test, T = t.suite()

local BUDGET = 4000000   -- nodes per proof

test("forced-mate search proves every reference case within the budget", function()
  local dir = t.need_shared("xiangqibench")
  local short = {}
  -- every case; the sanitizer build every third (the same search, t.sanitized)
  local step = t.sanitized() and 3 or 1
  local cases = records.read(dir .. "/cases.jsonl")
  for i = 1, #cases, step do
    local c = cases[i]
    local b = xq.new(c.fen)
    local checks_only = c.verified_by == "solver_proof"
    local r = xq.mate(b, { plies = c.win_in_plies, checks_only = checks_only, nodes = BUDGET })
    if r.stopped then error(string.format("%s: the budget of %d nodes did not suffice", c.id, BUDGET)) end
    t.eq(r.found, true, c.id .. " (" .. c.verified_by .. ")")
    t.ok(r.plies <= c.win_in_plies, c.id .. ": distance no longer than stored")
    t.eq(#r.pv, r.plies, c.id .. ": the line has one move per ply")
    -- replay the line: it must be legal and end with Black unable to move
    local replay = b:copy()
    for _, m in ipairs(r.pv) do t.ok(replay:play(m), c.id .. " line move " .. m) end
    t.eq((replay:status()), "no_moves", c.id .. ": the line ends in mate")
    if checks_only then
      local line = b:copy()
      for i, m in ipairs(r.pv) do
        if i % 2 == 1 then t.ok(line:gives_check(m), c.id .. ": Red's move " .. m .. " gives check") end
        line:play(m)
      end
    end
    if r.plies < c.win_in_plies then short[#short + 1] = c.id end
  end
  -- the stored distances are the study's; a few are longer than the shortest mate
  t.ok(#short < 20, "few cases have a shorter mate than stored: " .. table.concat(short, ","))
end)

test("no mate within a horizon shorter than the proof", function()
  local b = xq.new("2b1ka3/4a4/4b3n/3R1N3/6R2/9/9/3C3C1/1nrpA4/1c2KA3 w - - 0 1")
  local r = xq.mate(b, { plies = 9 })
  t.eq(r.found, false)
  local r2 = xq.mate(b, { plies = 11, nodes = 1000 })
  t.eq(r2.found, nil)
  t.eq(r2.stopped, "budget")
end)

test("alpha-beta reports mate distances for both sides (longest resistance)", function()
  -- Red mates in 3 plies; after the first move Black is mated in 2 plies at best
  local b = xq.new("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1")
  local m = xq.mate(b, { plies = 5 })
  local r = xq.search(b, { depth = 6 })
  t.eq(r.mate, m.plies)
  t.ok(r.score > 29000)
  t.ok(b:play(r.best))
  local r2 = xq.search(b, { depth = 6 })
  t.eq(r2.mate, -(m.plies - 1), "the loser sees the distance")
  -- a mated side has no move and a mate of 0
  local mated = xq.new("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1")
  local r3 = xq.search(mated, { depth = 3 })
  t.eq(r3.best, nil)
  t.ok(r3.score <= -29000)
end)

test("search is deterministic for a fixed depth and respects a node budget", function()
  local b = xq.new()
  local a1 = xq.search(b, { depth = 4 })
  local a2 = xq.search(b, { depth = 4 })
  t.eq({ a1.best, a1.score, a1.nodes }, { a2.best, a2.score, a2.nodes })
  local n = xq.search(b, { nodes = 20000 })
  t.ok(n.nodes <= 20000 + 1, "nodes " .. n.nodes)
  t.ok(n.best ~= nil and b:is_legal(n.best))
  t.eq(n.stopped, true)
  t.eq(b:fen(), xq.START, "the board is left as it was")
end)

test("the fallback defender prefers safety, then the longest mate, then checks, then move order", function()
  local dir = t.need_shared("xiangqibench")
  local cases = records.read(dir .. "/cases.jsonl")
  local checked = 0
  for _, c in ipairs(cases) do
    if c.win_in_plies <= 7 and checked < 5 then
      local b = xq.new(c.fen)
      b:play(c.first_winning_move)
      local ranking = xq.defend(b, { horizon = 5 })
      t.eq(#ranking, #b:moves())
      for i = 2, #ranking do
        local p, q = ranking[i - 1], ranking[i]
        local ps, qs = p.mate_plies == 0, q.mate_plies == 0
        local ordered = (ps and not qs) or (ps == qs and (p.mate_plies > q.mate_plies or (p.mate_plies == q.mate_plies
          and ((p.check and not q.check) or (p.check == q.check and p.move < q.move)))))
        t.ok(ordered, c.id .. ": ranking out of order at " .. i)
      end
      -- each mate distance is exactly what the mate search finds after that move
      local top = ranking[1]
      local after = b:copy(); after:play(top.move)
      local m = xq.mate(after, { plies = 5 })
      t.eq(m.found and m.plies or 0, top.mate_plies)
      checked = checked + 1
    end
  end
  t.eq(checked, 5)
end)

-- Black (a chariot down against two) has checked with every move since the
-- position after a8f8; e8f8 would repeat it: a loss by the long-check rule
-- (a draw in the eyes of a search that scores every repetition as 0)
local REP_FEN = "3k5/r8/9/9/9/9/9/7R1/8R/5K3 b - - 0 1"

test("the search never chooses a repetition where it gave check with every move (the referee's rule)", function()
  local b = xq.new(REP_FEN)
  for _, m in ipairs({ "a8f8", "f0e0", "f8e8", "e0f0" }) do t.ok(b:play(m), m) end
  for _, lim in ipairs({ { depth = 1 }, { depth = 4 }, { nodes = 50000 } }) do
    local r = xq.search(b, lim)
    t.ok(r.best ~= "e8f8", "the losing perpetual check is avoided (" .. t.show(lim) .. ")")
    t.ok(r.score < 0, "Black is still worse: " .. r.score)
  end
  -- after e8f8 Red to move sees Black's perpetual check as its own win
  b:play("e8f8")
  local r = xq.search(b, { depth = 1 })
  t.ok(r.score > 29000, "Red's score after the repetition: " .. r.score)
end)

test("the search still takes a repetition draw where the rule allows it", function()
  -- the same material, but Black's chariot moved without checking: a draw is the best it has
  local b = xq.new(REP_FEN)
  for _, m in ipairs({ "a8a7", "f0e0", "a7a8", "e0f0" }) do t.ok(b:play(m), m) end
  for _, lim in ipairs({ { depth = 1 }, { depth = 4 } }) do
    local r = xq.search(b, lim)
    t.eq(r.best, "a8a7", t.show(lim))
    t.eq(r.score, 0)
  end
end)

return T
