-- Records that lost what makes them records (issue 46, item 4): with the index
-- (trials.jsonl.idx) missing or rebuilt, a record without its status (or its
-- trial id, or a field the scenario requires) used to count as recorded while
-- the report dropped it. Now the rebuild checks each record, names the damaged
-- line, marks it in the index, and the trial runs again.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local runner = require "tabula.runner"
local test, T = t.suite()

local tabula = t.tabula

-- lines(path) -> the file's lines
local function lines(path)
  local out = {}
  for l in fs.read(path):gmatch("[^\n]+") do out[#out + 1] = l end
  return out
end

-- strip(path, n, field): line n of a JSONL file without that field
local function strip(path, n, field)
  local ls = lines(path)
  local r = json.decode(ls[n])
  r[field] = nil
  ls[n] = json.canonical(r)
  fs.write_or_fail(path, table.concat(ls, "\n") .. "\n")
  return r
end

test("index missing, a record without its status: named with its line, its trial runs again, 12 of 12 in the report", function()
  local dir = t.tmpdir() .. "/run"
  local args = { "run", "examples/checks_mc.lua", "--model", "random", "--limit", "12", "--out", dir, "--quiet" }
  local rc, out = tabula(table.unpack(args))
  t.eq(rc, 0, out)
  local lost = strip(dir .. "/trials.jsonl", 7, "status")
  fs.remove(dir .. "/trials.jsonl.idx")
  rc, out = tabula(table.unpack(args))
  t.eq(rc, 0, out)
  t.contains(out, dir .. "/trials.jsonl: 1 damaged line skipped, at line 7 (the record of trial " .. lost.trial_id
    .. " has no status); a trial with no other record runs again")
  t.contains(out, "(12 trials recorded)")
  local recs = records.read(dir .. "/trials.jsonl")
  t.eq(#recs, 13, "the trial was played again")
  t.eq(recs[13].trial_id, lost.trial_id)
  t.ok(recs[13].status == "success" or recs[13].status == "failure")
  -- the report counts the trial again
  t.contains(fs.read(dir .. "/report.md"), "| all | 12 | 12 |")
  -- the rebuilt index marks the line: read with the index, it is still damaged
  local info = records.each_id(dir .. "/trials.jsonl", function() end, { quiet = true })
  t.eq(#info.bad, 1)
  t.eq(info.bad[1].line, 7)
  t.contains(info.bad[1].error, "has no status")
end)

test("a rebuild run twice: a record the check refused stays refused (its index entry is marked), with or without the check", function()
  local dir = t.tmpdir()
  local path = dir .. "/trials.jsonl"
  local w = records.writer(path)
  w:write({ trial_id = "a", status = "success", case = 1 })
  w:write({ trial_id = "b", status = "success" })          -- lacks the required field `case`
  w:write({ status = "success", case = 3 })                 -- lacks its trial id
  w:write({ trial_id = "d", case = 4 })                     -- lacks its status
  w:close()
  local check = runner.checker("trial_id", { "case" })
  for pass = 1, 2 do
    local seen = {}
    local info = records.each_id(path, function(r) seen[#seen + 1] = r.trial_id end,
      { rebuild = true, quiet = true, check = check, keys = { "case" } })
    t.eq(seen, { "a" }, "pass " .. pass)
    local bad = {}
    for i, b in ipairs(info.bad) do bad[i] = b.line .. ": " .. b.error end
    t.eq(bad, { "2: the record of trial b has no case", "3: the record has no trial_id", "4: the record of trial d has no status" },
      "pass " .. pass)
    t.eq(fs.kind(path .. ".idx"), "file")
  end
  -- the marks are in the index: a reader without the check skips b and d too
  local plain = {}
  records.each_id(path, function(r) plain[#plain + 1] = r.trial_id end, { quiet = true })
  t.eq(plain, { "a" })
end)

test("a scenario's own records (DECE's matches.jsonl): a match record without its status is named and the match played again", function()
  local dir = t.tmpdir()
  local args = { "run", "scenarios/dece", "--games", "azul", "--matches-per-game", "3", "--draws", "20",
    "--workers", "1", "--out", dir .. "/run", "--quiet" }
  -- the default participants (Random, Heuristic, ISMCTS): kept cheap with few simulations
  fs.write_or_fail(dir .. "/parts.json", json.encode({ participants = { { name = "random", player = "random" },
    { name = "heuristic", player = "heuristic" }, { name = "ismcts", player = "ismcts", simulations = 4, steps = 18 } } }))
  args[#args + 1] = "--participants"; args[#args + 1] = dir .. "/parts.json"
  local rc, out = tabula(table.unpack(args))
  t.eq(rc, 0, out)
  local lost = strip(dir .. "/run/matches.jsonl", 2, "status")
  rc, out = tabula(table.unpack(args))
  t.eq(rc, 0, out)
  t.contains(out, "matches.jsonl: 1 damaged line skipped, at line 2 (the record of match_id " .. lost.match_id .. " has no status)")
  local recs = records.read(dir .. "/run/matches.jsonl")
  t.eq(#recs, 4)
  t.eq(recs[4].match_id, lost.match_id)
  t.ok(recs[4].status == "finished" or recs[4].status == "forfeit")
end)

return T
