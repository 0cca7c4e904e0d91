-- The same selection options everywhere: --ids, --limit and --trials in every
-- scenario where they mean something (one implementation, items.select), and an
-- option a scenario would ignore is refused in one line.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local cli = require "tabula.cli"
local items = require "tabula.items"
local test, T = t.suite()

local run = require("tabula.cmd.run").lib

-- plan(name, args) -> the trials the scenario plans for these command-line options
local function plan(name, args)
  local s = run.load(t.root() .. "/scenarios/" .. name .. ".lua")
  local opts = assert(cli.parse(run.spec(s), args))
  if s.settle_options then s.settle_options(opts) end
  return (s.plan(opts))
end

local function ids(trials)
  local out = {}
  for i, tr in ipairs(trials) do out[i] = tr.id end
  return out
end

test("items.select: --ids in the list's order, each must exist, then --limit", function()
  local list = { { id = "a" }, { id = "b" }, { id = "c" }, { id = "d" } }
  t.eq(items.select(list, { ids = { "c", "a" } }), { { id = "a" }, { id = "c" } })
  t.eq(items.select(list, { limit = 2 }), { { id = "a" }, { id = "b" } })
  t.eq(items.select(list, { ids = { "d", "b", "c" }, limit = 2 }), { { id = "b" }, { id = "c" } })
  t.contains(t.raises(function() items.select(list, { ids = { "zz" } }, { what = "puzzle", where = "p.jsonl" }) end),
    "option --ids: no puzzle with id zz in p.jsonl (ids look like a, b, c)")
end)

test("every scenario takes --trials, and --ids and --limit where its items have ids", function()
  for _, name in ipairs({ "xiangqibench", "jianghu108", "tsugo", "chess_puzzles", "chess_understanding" }) do
    local s = run.load(t.root() .. "/scenarios/" .. name .. ".lua")
    local have = {}
    for _, o in ipairs(run.spec(s)) do have[o[1]] = true end
    for _, o in ipairs({ "trials", "ids", "limit" }) do t.ok(have[o], name .. " takes --" .. o) end
  end
end)

local PUZZLES = {
  { PuzzleId = "p1", FEN = "r3k2r/pppn1pp1/3bpn2/7p/3P1P2/2N4q/PPP1B3/R1BQNRK1 w kq - 0 13", Moves = { "e1g2", "f6g4" }, Rating = 1329 },
  { PuzzleId = "p2", FEN = "6k1/5ppp/8/8/8/8/8/RR4K1 b - - 0 1", Moves = { "g8h8", "a1a8" }, Rating = 700 },
  { PuzzleId = "p3", FEN = "6k1/5ppp/8/8/8/8/8/RR4K1 b - - 0 1", Moves = { "g8h8", "b1b8" }, Rating = 900 },
}

test("chess_puzzles: --ids, --limit across files, --trials", function()
  local dir = t.tmpdir()
  local lines = {}
  for i, p in ipairs(PUZZLES) do lines[i] = json.canonical(p) end
  fs.write_atomic(dir .. "/a.jsonl", lines[1] .. "\n" .. lines[2] .. "\n")
  fs.write_atomic(dir .. "/b.jsonl", lines[3] .. "\n")
  local files = dir .. "/a.jsonl," .. dir .. "/b.jsonl"
  t.eq(ids(plan("chess_puzzles", { "--puzzles", files, "--ids", "p3,p1" })), { "p1/1", "p3/1" })
  t.eq(ids(plan("chess_puzzles", { "--puzzles", files, "--limit", "2", "--trials", "2" })), { "p1/1", "p1/2", "p2/1", "p2/2" })
  t.eq(ids(plan("chess_puzzles", { "--puzzles", files, "--ids", "p2,p3", "--limit", "1" })), { "p2/1" })
  t.contains(t.raises(function() plan("chess_puzzles", { "--puzzles", files, "--ids", "p9" }) end), "option --ids: no puzzle with id p9")
end)

test("chess_understanding: --ids are items' positions (or their id), --limit after them", function()
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/fens.txt", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n6k1/5ppp/8/8/8/8/8/RR4K1 b - - 0 1\n")
  local all = ids(plan("chess_understanding", { "--fens", dir .. "/fens.txt" }))
  t.ok(#all >= 5, "several items: " .. #all)
  local picked = ids(plan("chess_understanding", { "--fens", dir .. "/fens.txt", "--ids", "4,2" }))
  t.eq(picked, { all[2], all[4] })
  t.eq(picked[1]:match("^2/"), "2/", "trial ids keep the item's position")
  t.eq(ids(plan("chess_understanding", { "--fens", dir .. "/fens.txt", "--ids", "2,3,4", "--limit", "2", "--trials", "2" })),
    { all[2], (all[2]:gsub("/1$", "/2")), all[3], (all[3]:gsub("/1$", "/2")) })
  t.contains(t.raises(function() plan("chess_understanding", { "--fens", dir .. "/fens.txt", "--ids", "99" }) end),
    "option --ids: no item with id 99")
end)

test("jianghu108: --limit (after --ids) counts the problems evaluated", function()
  local data = t.need_shared("jianghu108") .. "/江湖残局.json"
  local three = ids(plan("jianghu108", { "--data", data, "--limit", "3", "--quiet" }))
  t.eq(#three, 3)
  t.eq(ids(plan("jianghu108", { "--data", data, "--ids", "5,6,7", "--limit", "2", "--quiet" })), { "5/zh/1", "6/zh/1" })
  t.eq(#plan("jianghu108", { "--data", data, "--limit", "2", "--trials", "3", "--quiet" }), 6)
end)

test("an option a scenario would ignore is refused in one line", function()
  t.contains(t.raises(function() plan("jianghu108", { "--image-detail", "high" }) end),
    "option --image-detail: Jianghu108 sends no image without --vision")
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/fens.txt", "6k1/5ppp/8/8/8/8/8/RR4K1 b - - 0 1\n")
  t.contains(t.raises(function() plan("chess_move_selection", { "--fens", dir .. "/fens.txt", "--sample", "5" }) end),
    "option --sample: only with --arena")
  t.contains(t.raises(function() plan("chess_move_selection", { "--fens", dir .. "/fens.txt", "--arena", dir }) end),
    "give --fens FILE or --arena DIR, not both")
  t.eq(#plan("chess_move_selection", { "--fens", dir .. "/fens.txt" }), 1, "the default --sample is no refusal")
end)

return T
