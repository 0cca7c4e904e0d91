-- TsuGO prompts and answers: golden prompts for every modality and candidate
-- setting (and the terse and relabeled forms), answer extraction (last valid
-- answer wins, both coordinate conventions, frames), the K=4 distractor rule
-- and the option-order permutation.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local prompt = require "tabula.prompt"
local tp = require "scenarios.tsugo.prompts"
local answers = require "scenarios.tsugo.answers"
local options = require "scenarios.tsugo.options"
local metrics = require "tabula.metrics"
local test, T = t.suite()

-- a top-right corner problem: White to kill
local VIEW = { size = 19, to_play = "W",
  black = { "Q18", "R17", "S17", "Q17", "T16", "S16" },
  white = { "P18", "P17", "Q16", "R16", "R15", "S15", "T15" } }
local OPTS = { A = "S18", B = "R18", C = "T17", D = "S19", order = { "S18", "R18", "T17", "S19" } }

local function golden(name, text)
  local path = t.root() .. "/tests/golden/tsugo/" .. name .. ".txt"
  if require("tabula.c.host").getenv("TABULA_UPDATE_GOLDEN") == "1" then
    fs.mkdir_p(fs.dirname(path)); fs.write_atomic(path, text)
  end
  t.eq(text, fs.read(path), path)
end

test("golden prompts: every modality, bounded and open", function()
  local P = prompt.set("tsugo")
  for _, m in ipairs(tp.MODALITIES) do
    for _, setting in ipairs({ "k4", "open" }) do
      local spec = { P = P, view = VIEW, modality = m, options = setting == "k4" and OPTS or nil }
      local text = tp.text(spec)
      golden(m:gsub("%+", "_") .. "_" .. setting, text)
      t.eq(text:find("{{", 1, true), nil)
      t.contains(text, "White to play")
      local content = tp.content(spec, "PNG")
      if m:find("visual", 1, true) then
        t.eq({ content[1].text, content[2].type, content[2].data }, { text, "image", "PNG" })
      else
        t.eq(content, text)
      end
    end
  end
end)

test("golden prompts: terse forms and the relabeled frame", function()
  local P = prompt.set("tsugo")
  golden("terse_k4", tp.text({ P = P, view = VIEW, modality = "symbolic", options = OPTS, terse = true }))
  golden("terse_open", tp.text({ P = P, view = VIEW, modality = "symbolic", terse = true }))
  local text = tp.text({ P = P, view = VIEW, modality = "symbolic+grid", options = OPTS, frame = "relabeled:7" })
  golden("relabeled_k4", text)
  local f = tp.frame("relabeled:7")
  local shown = {}
  for i, l in ipairs({ "A", "B", "C", "D" }) do shown[i] = l .. ". " .. f.label(OPTS[l], 19) end
  t.contains(text, table.concat(shown, "\n"))
  t.contains(text, "columns are labelled " .. table.concat(f.cols(19), " ") .. " from left to right")
  t.ok(shown[1] ~= "A. S18", "the options are shown relabeled")
end)

test("relabeled frames: seeded, one-to-one, read back to the standard point; the grid uses the labels", function()
  local a, b = tp.frame("relabeled:7"), tp.frame("relabeled:8")
  t.eq(tp.frame("relabeled:7"), a, "the same seed gives the same frame")
  local seen, differ = {}, 0
  for x = 1, 19 do
    for r = 1, 19 do
      local p = ("ABCDEFGHJKLMNOPQRST"):sub(x, x) .. r
      local l = a.label(p, 19)
      t.ok(not seen[l], "one label per point: " .. l); seen[l] = true
      t.eq(a.parse(l, 19), p, "read back " .. l)
      t.eq(answers.extract("so the answer is " .. l, { parse = a.parse }).answer, p)
      if b.label(p, 19) ~= l then differ = differ + 1 end
    end
  end
  t.ok(differ > 300, "another seed relabels differently")
  t.eq(a.parse("Z99", 19), nil)
  local lines = {}
  for l in tp.grid_text(VIEW, "relabeled:7"):gmatch("[^\n]+") do lines[#lines + 1] = l end
  t.eq(lines[1], "   " .. table.concat(a.cols(19), " "))
  -- a stone sits under its relabeled coordinates: Q18 is black (1)
  local col, row = a.label("Q18", 19):match("^(%u)(%d+)$")
  local x
  for i, c in ipairs(a.cols(19)) do if c == col then x = i end end
  local r
  for i, l in ipairs(a.rows(19)) do if l == row then r = i end end
  local cells = {}
  for v in lines[r + 1]:gmatch("%S+") do cells[#cells + 1] = v end
  t.eq(cells[x + 1], "1")
  t.eq(tp.frame("standard").rows(19)[1], "19")
end)

test("grid: labels and stones where the symbolic list puts them", function()
  local g = tp.grid_text(VIEW, "standard")
  local lines = {}
  for l in g:gmatch("[^\n]+") do lines[#lines + 1] = l end
  t.eq(lines[1], "   A B C D E F G H J K L M N O P Q R S T")
  t.eq(#lines, 20)
  t.eq(lines[2]:sub(1, 2), "19")
  t.eq(lines[3], "18 0 0 0 0 0 0 0 0 0 0 0 0 0 0 2 1 0 0 0")  -- P18 white, Q18 black
  t.eq(lines[20]:sub(1, 2), " 1")
end)

test("answers: the last valid answer wins; markup and filler skipped", function()
  local cases = {
    { "answer is B", "R18", "B" },
    { "I thought answer is A but no. The answer is **C**.", "T17", "C" },
    { "Answer: option D", "S19", "D" },
    { "answer is S18 (the vital point)", "S18", "A" },
    { "answer is Q15", "Q15", nil, "not_an_option" },
    { "answer is B. Then later: answer is probably unclear", "R18", "B" },
    { "the answer is a hard one", nil, nil, "none" },
    { "no conclusion", nil, nil, "none" },
    { "", nil, nil, "empty" },
  }
  for _, c in ipairs(cases) do
    local r = answers.extract(c[1], { options = OPTS })
    t.eq({ r.answer, r.letter }, { c[2], c[3] }, c[1])
    if c[4] then t.eq(r.how, c[4], c[1]) end
  end
end)

test("answers (open): both conventions, I refused, off-board refused, frames", function()
  t.eq(answers.extract("answer is t18").answer, "T18")
  t.eq(answers.extract("So the answer is [oe].").answer, "P15")
  t.eq(answers.extract("answer is [oe] — wait, answer is R18").answer, "R18")
  t.eq(answers.extract("answer is I5").how, "none")
  t.eq(answers.extract("answer is U3").how, "none")
  t.eq(answers.extract("answer is A").how, "none", "a letter is not a point")
  t.eq(answers.extract("answer is J9", { size = 9 }).answer, "J9")
  local f = tp.frame("relabeled:3")
  t.eq(answers.extract("answer is " .. f.label("T18", 19), { parse = f.parse }).answer, "T18")
end)

test("distractors: pool order, filters, nearest three, fallback to nearby points, seeded shuffle", function()
  local occupied = { R17 = true, S17 = true }
  local spec = {
    canonical = "S18", accepted = { S18 = true, T18 = true }, size = 19, rng = metrics.rng(7),
    usable = function(p)
      if occupied[p] then return false, "occupied" end
      if p == "K10" then return false, "outside the local region" end
      return true
    end,
    sources = {
      { name = "tree", points = { "R18", "T18" } },          -- T18 is an accepted answer
      { name = "mcts", points = { "S19", "R17", "K10", "Q19", "R18" } },
      { name = "gnugo", points = { "T17" } },
    },
  }
  local o, log = options.choose(spec)
  -- kept: R18 (1.00), S19 (1.00), Q19 (2.24), T17 (1.41): the three nearest are R18, S19, T17
  t.eq(log.distractors, { { "R18", "tree" }, { "S19", "mcts" }, { "T17", "gnugo" } })
  t.eq(log.removed, { "T18 (tree): an accepted answer", "R17 (mcts): occupied", "K10 (mcts): outside the local region" })
  local set = {}
  for _, p in ipairs(o.order) do set[p] = true end
  t.eq(set, { S18 = true, R18 = true, S19 = true, T17 = true })
  for i, l in ipairs(options.LETTERS) do t.eq(o[l], o.order[i]) end
  t.eq(options.accepted_count(o, spec.accepted), 1)
  -- the same seed gives the same order
  spec.rng = metrics.rng(7)
  t.eq(options.choose(spec).order, o.order)
  -- with too few proposals the nearby points fill the pool (nearest first)
  spec.sources = { { name = "tree", points = { "Q19" } } }
  spec.rng = metrics.rng(7)
  local o2, log2 = options.choose(spec)
  t.eq(#o2.order, 4)
  t.eq(log2.distractors[1][2], "nearby")
  t.ok(options.distance(log2.distractors[3][1], "S18") <= 1.5, "nearby points at distance 1 or 1.41 come first")
  -- nothing usable: no K=4 form
  spec.usable = function() return false, "occupied" end
  local none, log3 = options.choose(spec)
  t.eq({ none, log3.short }, { nil, true })
end)

test("option-order permutation moves every label and keeps the moves", function()
  local p = options.permuted(OPTS)
  t.eq({ p.A, p.B, p.C, p.D }, { "R18", "T17", "S19", "S18" })
  for _, l in ipairs(options.LETTERS) do t.ok(p[l] ~= OPTS[l]) end
end)

return T
