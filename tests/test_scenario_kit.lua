-- The scenario kit: items from JSONL/JSON/CSV with --ids/--limit/--split and
-- one-line errors; multiple choice; the question scenario (the two examples,
-- resume, dry run, template errors); scenarios outside the repository.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local items = require "tabula.items"
local choice = require "tabula.choice"
local kit = require "tabula.scenario"
local metrics = require "tabula.metrics"
local test, T = t.suite()

local tmpdir = t.tmpdir

local function write(path, text) fs.mkdir_p(fs.dirname(path)); assert(fs.write_atomic(path, text)); return path end

test("items: JSONL, JSON and CSV (quotes, commas, newlines) read to the same items", function()
  local d = tmpdir()
  local jl = write(d .. "/a.jsonl", '{"id":"x","q":"a, \\"b\\"\\nc"}\n\n{"id":2,"q":"d"}\n')
  local js = write(d .. "/a.json", '[{"id":"x","q":"a, \\"b\\"\\nc"},{"id":2,"q":"d"}]')
  local csv = write(d .. "/a.csv", 'id,q\r\nx,"a, ""b""\nc"\r\n2,d\n')
  for _, p in ipairs({ jl, js, csv }) do
    local list, data = items.load(p, {})
    t.eq(#list, 2, p)
    t.eq({ list[1].id, list[1].q, list[2].id, list[2].q }, { "x", 'a, "b"\nc', "2", "d" }, p)
    t.eq(data.items_sha256, fs.sha256_file(p))
  end
  local noid = items.load(write(d .. "/n.csv", "q\nfirst\nsecond\n"), {})
  t.eq({ noid[1].id, noid[2].id }, { "1", "2" }, "no id column: the position")
end)

test("items: --ids, --limit, --split (a field or a file of ids), prepare", function()
  local d = tmpdir()
  local lines = {}
  for i = 1, 10 do lines[i] = json.canonical({ id = "i" .. i, split = i <= 6 and "test" or "dev" }) end
  local p = write(d .. "/s.jsonl", table.concat(lines, "\n") .. "\n")
  local function ids(list) local o = {} for i, it in ipairs(list) do o[i] = it.id end return o end
  t.eq(ids(items.load(p, { split = "dev" })), { "i7", "i8", "i9", "i10" })
  t.eq(ids(items.load(p, { split = "test", limit = 2 })), { "i1", "i2" })
  t.eq(ids(items.load(p, { ids = { "i9", "i3" } })), { "i3", "i9" }, "file order")
  local f = write(d .. "/split.txt", "i4\ni2, i8\n")
  local list, data = items.load(p, { split = f })
  t.eq(ids(list), { "i2", "i4", "i8" })
  t.eq(data.split_sha256, fs.sha256_file(f))
  t.eq(ids(items.load(p, {}, { prepare = function(it) if it.id:match("1") then return it end end })), { "i1", "i10" })
end)

test("items: bad input is one line naming the file, the place and the item", function()
  local d = tmpdir()
  local function fails(text, name, opts, spec, want)
    local p = write(d .. "/" .. name, text)
    t.contains(t.raises(function() items.load(p, opts or {}, spec) end), want)
  end
  fails('{"id":1}\n{"id":2,\n', "bad.jsonl", nil, nil, "bad.jsonl:2: invalid JSON")
  fails('{"id":"a","fen":"x"}\n{"id":"b"}\n', "miss.jsonl", nil, { require = { "fen" } }, 'miss.jsonl:line 2: item b has no "fen"')
  fails('{"id":"a"}\n{"id":"a"}\n', "dup.jsonl", nil, nil, "dup.jsonl:line 2: duplicate id a (first at ")
  fails('{"id":"a"}\n', "ids.jsonl", { ids = { "zz" } }, nil, "option --ids: no item with id zz")
  fails('{"id":"a","split":"dev"}\n', "sp.jsonl", { split = "test" }, nil, "no item of " .. d .. "/sp.jsonl is in split 'test' (splits: dev)")
  fails("id,q\na,1,2\n", "c.csv", nil, nil, "c.csv:2: 3 fields, the header has 2")
  fails('{"id":"a","n":1}\n', "chk.jsonl", nil, { check = function(it) return it.n > 1, "n must exceed 1" end },
    "chk.jsonl:line 1: item a: n must exceed 1")
  t.raises(function() items.load(d .. "/none.jsonl", {}) end, "none.jsonl")
end)

test("multiple choice: seeded shuffles keep track of the answer; extraction formats; bias", function()
  local opts = { "right", "w1", "w2", "w3" }
  local seen = {}
  for s = 1, 40 do
    local q = choice.shuffle(opts, 1, metrics.rng(s))
    t.eq(q.options[q.answer:byte() - 64], "right")
    t.eq(choice.shuffle(opts, 1, metrics.rng(s)).order, q.order, "same seed, same order")
    seen[q.answer] = true
  end
  t.eq(seen, { A = true, B = true, C = true, D = true }, "every position is used")
  t.eq(choice.render(choice.shuffle({ "x", "y" }, 2)), "A. x\nB. y")
  local cases = {
    { "Answer: C", "C" }, { "the answer is **B**.", "B" }, { "Final answer: (D)", "D" }, { "\\boxed{A}", "A" },
    { "I think **C**", "C" }, { "Between (A) and (B), I pick (B)", "B" }, { "Let me see.\nB\n", "B" },
    { "Answer: E", nil }, { "A is tempting. Answer: D", "D" }, { "no idea", nil }, { "answer: a", nil },
  }
  for _, c in ipairs(cases) do t.eq(choice.extract(c[1], 4), c[2], c[1]) end
  local b = choice.bias({ { choice = "A", answer = "A" }, { choice = "A", answer = "B" }, { answer = "B" } })
  t.eq(b, { letters = { { letter = "A", chosen = 2, correct = 1, right = 1 }, { letter = "B", chosen = 0, correct = 2, right = 0 } },
    unanswered = 1 })
  t.eq({ kit.number("it is 12, no: Answer: **14**"), kit.number("about 7 or 9"), kit.number("none") }, { 14, 9, nil })
end)

test("the two examples: the engine is the ceiling, random the chance level; reports; resume; dry run", function()
  local d = tmpdir()
  t.run_scenario("examples/xiangqi_mate1_mc.lua", { "--out", d .. "/mc", "--quiet" })
  local sm = json.read_file(d .. "/mc/summary.json")
  t.eq(sm.all.accuracy, 1)
  t.eq(sm.all.items, 18, "the suite's mate-in-3 cases")
  -- in child processes: a run holds its directory's lock until its process ends
  local function child(args) return t.sh(t.tabula_bin() .. " run " .. args) end
  local mc_random = t.root() .. "/examples/xiangqi_mate1_mc.lua --out " .. d .. "/mcr --model random --trials 4 --quiet"
  child(mc_random)
  sm = json.read_file(d .. "/mcr/summary.json")
  t.ok(sm.all.accuracy > 0.05 and sm.all.accuracy < 0.6, "about one in four: " .. sm.all.accuracy)
  t.eq(#sm.letters.letters, 4)
  t.contains(fs.read(d .. "/mcr/report.md"), "| letter | chosen | correct answer | right |")
  local r = records.read(d .. "/mcr/trials.jsonl")[1]
  t.eq(#r.options, 4)
  -- resume: the same --out runs nothing new
  t.contains(child(mc_random), "resuming: 72 of 72 trials already recorded")
  t.eq(#records.read(d .. "/mcr/trials.jsonl"), 72)
  t.run_scenario("examples/chess_legal_count.lua", { "--out", d .. "/lc", "--quiet" })
  sm = json.read_file(d .. "/lc/summary.json")
  t.eq({ sm.all.accuracy, sm.all.items }, { 1, 8 })
  local truth = {}
  for _, rec in ipairs(records.read(d .. "/lc/trials.jsonl")) do truth[rec.item_id] = rec.truth end
  t.eq({ truth.start, truth.kiwipete, truth.endgame, truth.check }, { 20, 48, 14, 0 }, "published perft(1) counts")
  local out = child(t.root() .. "/examples/chess_legal_count.lua --dry-run --limit 1 --out " .. d .. "/dry")
  t.contains(out, "How many legal moves does White have?")
  t.contains(out, "no model was called")
  t.eq(fs.kind(d .. "/dry"), nil, "a dry run writes no run directory")
end)

test("a scenario outside the repository: its folder on package.path, prompts beside it; template errors at setup", function()
  local d = tmpdir()
  write(d .. "/helper.lua", "return { double = function(x) return 2 * tonumber(x) end }")
  write(d .. "/items.csv", "id,x\na,2\nb,5\n")
  write(d .. "/prompts/dbl/question.txt", "Double {{x}}.")
  write(d .. "/dbl.lua", [[
local kit = require "tabula.scenario"
local helper = require "helper"
return kit.question { name = "dbl", summary = "doubling", items = "items.csv",
  values = function(it) return { x = it.x } end, answer = function(it) return helper.double(it.x) end,
  format = function(n) return "Answer: " .. n end,
  score = function(it, text) return kit.number(text) == helper.double(it.x) end }
]])
  t.run_scenario(d .. "/dbl.lua", { "--out", d .. "/run", "--quiet" })
  t.eq(json.read_file(d .. "/run/summary.json").all.accuracy, 1)
  local tr = require("tabula.transcripts").load(d .. "/run", "b/1")
  t.eq(tr.calls[1].messages[1].content, "Double 5.")
  write(d .. "/prompts/dbl/question.txt", "Double {{y}}.")
  t.contains(t.raises(function() t.run_scenario(d .. "/dbl.lua", { "--out", d .. "/run2", "--quiet" }) end),
    "question.txt: unknown placeholder {{y}}")
  t.eq(fs.kind(d .. "/run2/trials.jsonl"), nil, "nothing ran")
  local found = require("tabula.cmd.run").lib.find("xiangqibench")
  t.eq(fs.sha256_file(found), fs.sha256_file(t.root() .. "/scenarios/xiangqibench/init.lua"), "found by name")
  t.ok(require("tabula.cmd.run").lib.find("scenarios/xiangqibench.lua"):match("scenarios/xiangqibench/init%.lua$"), "the older spelling finds the folder")
  t.raises(function() require("tabula.cmd.run").lib.find("no_such_scenario") end, "no scenario no_such_scenario")
end)

return T
