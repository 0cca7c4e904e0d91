-- The local life-and-death solver (src/gosolve.c, games.go.solve), the
-- generated suite (games/go/suite.jsonl: checks, proofs, byte-for-byte
-- regeneration) and the solver against the reference answers of shared problems.
local t = require "tabula.testing"
local go = require "games.go"
local solve = require "games.go.solve"
local json = require "tabula.json"
local fs = require "tabula.fs"
local test, T = t.suite()

-- black's corner group with a three-point eye space on the top edge
local ROWS = {
  "...XO..",
  "XXXXO..",
  "OOOOO..",
  ".......",
  ".......",
  ".......",
  ".......",
}

local function corner(to_move)
  local g = go.from_rows(ROWS, to_move)
  local p = { size = 7, stones = g:stones(), to_play = to_move, tree = {}, correct = {} }
  local q = { attacker = "white", defender = "black", target = "ab", allowed = { "aa", "ba", "ca" }, nodes = 100000, depth = 20 }
  return g, p, q
end

test("solver: a three-point eye lives with the vital point and dies without it", function()
  local g, p, q = corner("black")
  local res, depth = solve.position(g, q)
  t.eq(res, "win"); t.eq(depth, 1)                    -- black plays ba: two eyes
  local r = solve.first_moves(p, q)
  t.eq(r.correct, { "ba" })
  t.eq(r.status, "solved")
  g, p = corner("white")
  t.eq((solve.position(g, q)), "win")                 -- white takes the vital point and kills
  t.eq(solve.first_moves(p, q).correct, { "ba" })
  -- once black has two eyes the target is unconditionally alive: nothing to search
  g = go.from_rows(ROWS, "white"); g:play("ba", "black")
  t.eq(solve.status(g, q), "defender")
  -- a captured target is the attacker's win
  local h = go.from_rows({ "XO.", "...", "..." }, "white")
  local hq = { attacker = "white", target = "aa", allowed = { "ab" } }
  t.eq(solve.status(h, hq), nil)
  t.ok(h:play("ab"))
  t.eq(solve.status(h, hq), "attacker")
end)

test("solver: a node budget too small gives unknown, never a wrong answer", function()
  local g, _, q = corner("white")
  q.nodes = 3
  t.eq((solve.position(g, q)), "unknown")
end)

test("solver: an answer that depends on who wins a ko is reported as a ko, not decided", function()
  local rows = {
    "...X...X...OX......",
    "...XOOO.XOOOX......",
    "...XXXXOOXXXX......",
    ".......XXX.........",
  }
  for _ = 5, 19 do rows[#rows + 1] = string.rep(".", 19) end
  local g = go.from_rows(rows, "white")
  local q = { attacker = "black", defender = "white", target = "jb",
              allowed = { "ea", "fa", "ga", "hb", "ia", "ja", "ka" }, nodes = 20000, depth = 15 }
  local gosolve = require("tabula.c.gosolve").new(16)
  q.ko_winner = "white"
  local if_white = gosolve:solve(g, q)
  q.ko_winner = "black"
  local if_black = gosolve:solve(g, q)
  q.ko_winner = nil
  t.eq({ if_white, if_black }, { "win", "loss" })     -- white lives only if it wins the ko
  local res, depth, ko = solve.position(g, q)
  t.eq({ res, depth, ko }, { "unknown", nil, true })
end)

test("solver: df-pn and the first (iterative deepening) search agree on the corner, both colours", function()
  for _, side in ipairs { "black", "white" } do
    local g, _, q = corner(side)
    local dq = {}
    for k, v in pairs(q) do dq[k] = v end
    dq.method = "id"
    local a = { solve.position(g, q) }
    local b = { solve.position(g, dq) }
    t.eq(a[1], b[1], side)
    t.eq(a[1], "win", side)
  end
end)

-- black's corner chain ca-ab-bb-cb has two liberties (aa, ba); black could
-- capture white's da-db (in atari at dc) and reach the open point da
local WALL = { "..XOX..", "XXXOX..", "OOO.X..", ".......", ".......", ".......", "......." }

test("solver: with the outside safe, the attacker's stones outside the moves cannot be captured", function()
  local gosolve = require("tabula.c.gosolve").new(16)
  local g = go.from_rows(WALL, "black")
  local q = { attacker = "white", target = "ca", allowed = { "aa", "ba", "dc" }, nodes = 20000 }
  t.eq((gosolve:solve(g, q)), "win")                  -- dc captures two stones: da is a liberty no one may fill
  q.outside_safe = true
  local res, depth, nodes = gosolve:solve(g, q)
  -- the capture is not considered; the chain's zone holds two adjacent points: dead at once
  t.eq({ res, depth, nodes }, { "loss", 0, 1 })
  q.outside_safe = false
  t.ok(select(3, gosolve:solve(go.from_rows({ "..XO...", "XXXO...", "OOOO...", ".......", ".......", ".......", "......." }, "black"), q)) > 1,
    "without the safe outside the zone test is off")
end)

test("solver: dead shapes with the outside safe: nakade three with the attacker to move, the squared four whoever moves", function()
  local gosolve = require("tabula.c.gosolve").new(16)
  -- black's corner group around a straight three on the edge (aa ba ca); white's wall is anchored
  local g = go.from_rows(ROWS, "white")
  local q = { attacker = "white", target = "ab", allowed = { "aa", "ba", "ca" }, nodes = 20000, outside_safe = true }
  t.eq({ gosolve:solve(g, q) }, { "win", 0, 1 }, "white to move: dead at once (white takes the vital point)")
  local h = go.from_rows(ROWS, "black")
  t.eq({ gosolve:solve(h, q) }, { "win", 1, 1 }, "black to move lives at ba (one ply), not declared dead")
  -- a squared four (aa ba ab bb) inside black's wall: dead even with black to move
  local SQ = { "..XO...", "..XO...", "XXXO...", "OOOO...", ".......", ".......", "......." }
  local s = go.from_rows(SQ, "black")
  local sq = { attacker = "white", target = "ca", allowed = { "aa", "ba", "ab", "bb" }, nodes = 20000, outside_safe = true }
  t.eq({ gosolve:solve(s, sq) }, { "loss", 0, 1 }, "black to move: the squared four is dead")
  -- the same shape with an open outside is searched, not judged by the shape
  sq.outside_safe = false
  t.ok(select(3, gosolve:solve(s, sq)) > 1)
end)

test("solver: several targets, the attacker needing any one of them or all of them", function()
  local gosolve = require("tabula.c.gosolve").new(16)
  -- black: a chain with two one-point eyes (ba, da) and a stone in atari at ad
  local rows = { "X.X.XO.", "XXXXXO.", "OOOOOO.", "XO.....", ".......", ".......", "......." }
  local g = go.from_rows(rows, "white")
  local q = { attacker = "white", target = "aa", targets = { "aa", "ad" }, nodes = 20000,
              allowed = g:legal_moves("white") }
  t.eq((gosolve:solve(g, q)), "win")                  -- any: white captures ad
  q.all = true
  t.eq({ gosolve:solve(g, q) }, { "loss", 0, 1 })     -- all: the two-eyed chain is safe already
  t.eq(solve.status(g, q), "defender")
end)

local function suite_lines()
  local path = t.root() .. "/games/go/suite.jsonl"
  local text = fs.read(path)
  t.ok(text, "games/go/suite.jsonl exists")
  local lines = {}
  for l in text:gmatch("[^\n]+") do lines[#lines + 1] = l end
  return lines
end

test("suite: every problem passes the checks, has a tier, and its answer is proven", function()
  local checks = require "games.go.checks"
  local lines = suite_lines()
  t.ok(#lines >= 20, "the suite has problems")
  local tiers, seen = {}, {}
  for i, l in ipairs(lines) do
    local p = json.decode(l)
    t.eq(checks.check(p), {}, p.id)
    t.ok(not seen[p.id], "unique id " .. p.id); seen[p.id] = true
    tiers[p.tier] = (tiers[p.tier] or 0) + 1
    if i <= 5 then
      t.eq((require("games.go.admit").prove(p, { nodes = 20000 })), "agree", p.id)
    end
  end
  t.ok((tiers.Easy or 0) > 0 and ((tiers.Medium or 0) + (tiers.Hard or 0)) > 0, "more than one tier")
end)

test("suite: regenerating with the documented seed reproduces its first problems byte for byte", function()
  local card = fs.read(t.root() .. "/games/go/SUITE.md")
  local seed = tonumber(card:match("%-%-seed (%d+)"))
  local nodes = tonumber(card:match("%-%-nodes (%d+)"))
  t.ok(seed and nodes, "SUITE.md documents the command")
  local gen = require "games.go.generate"
  local list = gen.run({ count = 2, seed = seed, nodes = nodes })
  local lines = suite_lines()
  for i = 1, 2 do t.eq(json.canonical(list[i]), lines[i], "problem " .. i) end
end)

test("solver: agrees with the reference answers of the Cho Chikun elementary problems it can solve", function()
  local dir = t.need_shared("sanderland-tsumego/cho-elementary-json")
  local collect = require "games.go.collect"
  local admit = require "games.go.admit"
  local counts = { agree = 0, disagree = 0, unknown = 0 }
  for _, f in ipairs(collect.files({ dir })) do
    for _, p in ipairs(collect.load(f)) do
      local v, detail = admit.prove(p, { nodes = 5000 })
      counts[v] = counts[v] + 1
      if v == "disagree" then io.stderr:write("solver disagrees: ", p.id, " ", detail, "\n") end
    end
  end
  t.eq(counts.agree + counts.disagree + counts.unknown, 30)
  t.eq(counts.disagree, 0)
  -- 11 of 30 within 5000 nodes per search when this was written (3 before df-pn, at 20000)
  t.ok(counts.agree >= 8, "the solver proves reference answers (" .. counts.agree .. " of 30 within 5000 nodes)")
end)

test("solver: never contradicts the reference answers of a sample of every shared Go collection", function()
  local data = t.need_shared("gogameguru")
  local root = data:gsub("/gogameguru$", "")
  local collect = require "games.go.collect"
  local checks = require "games.go.checks"
  local admit = require "games.go.admit"
  local folders = {}
  for _, d in ipairs { "gogameguru", "tsumegobench-gp", "kisvadim-goproblems", "sanderland-tsumego" } do
    folders[#folders + 1] = root .. "/" .. d
  end
  local counts, n, sources = { agree = 0, disagree = 0, unknown = 0 }, 0, {}
  for _, f in ipairs(collect.files(folders)) do
    for _, p in ipairs((collect.load(f))) do
      local fatal
      for _, x in ipairs(checks.check(p)) do fatal = fatal or x.fatal end
      if not fatal then
        n = n + 1
        if n % 25 == 1 then                       -- every 25th problem: 33 (1 agree at 3000 nodes when written)
          local v, detail = admit.prove(p, { nodes = 3000 })
          counts[v] = counts[v] + 1
          sources[p.source] = true
          if v == "disagree" then io.stderr:write("solver disagrees: ", p.id, " ", detail, "\n") end
        end
      end
    end
  end
  t.ok(sources.gogameguru and sources["cho-chikun"] and sources.goproblems, "the sample spans the collections")
  t.eq(counts.disagree, 0)
  t.ok(counts.agree >= 1, "the solver proves some of them (" .. counts.agree .. " agree, " .. counts.unknown .. " unknown)")
end)

return T
