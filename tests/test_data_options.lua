-- Every scenario's data options: a file or folder that is not there is one line
-- naming it and a non-zero exit, and no run directory is left behind.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local test, T = t.suite()

-- run(dir, args) -> output, rc: `tabula run ARGS` from the directory dir
local function run(dir, args)
  local out = t.sh("cd " .. dir .. " && " .. t.tabula_bin() .. " run " .. args .. " --quiet")
  local rc = tonumber(out:match("rc=(%d+)\n$"))
  return out:gsub("rc=%d+\n$", ""), rc
end

-- refused(args, named): the run stops with one line naming `named`, exits non-zero, makes no run directory
local function refused(args, named)
  local d = t.tmpdir()
  local out, rc = run(d, args)
  t.ok(rc ~= 0, args .. ": exit status " .. tostring(rc) .. ", output: " .. out)
  t.contains(out, named, args)
  local lines = select(2, out:gsub("\n", ""))
  t.eq(lines, 1, args .. ": one line, got: " .. out)
  t.contains(out, "tabula: ", args)
  t.eq(fs.list(d), {}, args .. ": the directory it ran in stays empty")
end

local MISSING = {
  { "xiangqibench --cases /nope/cases.jsonl", "/nope/cases.jsonl" },
  { "xiangqibench --split /nope/split.txt", "/nope/split.txt" },
  { "xiangqibench --prompts /nope/prompts", "/nope/prompts" },
  { "chess_move_selection --arena /nope", "/nope" },
  { "chess_move_selection --fens /nope/fens.txt", "/nope/fens.txt" },
  { "chess_puzzles --puzzles /nope/p.jsonl", "/nope/p.jsonl" },
  { "chess_understanding --items /nope/items.jsonl", "/nope/items.jsonl" },
  { "chess_understanding --fens /nope/fens.txt", "/nope/fens.txt" },
  { "jianghu108 --data /nope/problems.json", "/nope/problems.json" },
  { "tsugo --problems /nope/problems.jsonl", "/nope/problems.jsonl" },
  { "dece --participants /nope/participants.json", "/nope/participants.json" },
  { "dece --schedule /nope/schedule.json", "/nope/schedule.json" },
}

for _, c in ipairs(MISSING) do
  test("missing data: " .. c[1], function() refused(c[1], c[2]) end)
end

test("an arena folder without games, and data that plans nothing, are refused the same way", function()
  local d = t.tmpdir()
  refused("chess_move_selection --arena " .. d, d .. "/games.jsonl")
  fs.write_atomic(d .. "/empty.jsonl", "")
  refused("xiangqibench --cases " .. d .. "/empty.jsonl", "planned no trials")
end)

return T
