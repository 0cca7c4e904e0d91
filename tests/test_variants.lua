-- Prompt overrides (--prompt NAME=FILE, --prompt-overlay DIR) and prompt
-- variants of one run (--variant), with their effective hashes recorded.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local transcripts = require "tabula.transcripts"
local compare = require "tabula.compare"
local test, T = t.suite()

local tmpdir = t.tmpdir

local SCEN = "examples/xiangqi_mate1_mc.lua"
local TERSE = "Which move mates?\n{{board}}\n{{choices}}\nAnswer with a letter.\n"

test("--prompt NAME=FILE replaces one template; its hash is recorded; mistakes are one line", function()
  local d = tmpdir()
  fs.write_atomic(d .. "/terse.txt", TERSE)
  t.run_scenario(SCEN, { "--out", d .. "/run", "--limit", "3", "--quiet", "--workers", "1", "--prompt", "question=" .. d .. "/terse.txt" })
  local tr = assert(transcripts.load(d .. "/run", transcripts.ids(d .. "/run")[1]))
  t.contains(tr.calls[1].messages[1].content, "Which move mates?")
  local meta = json.read_file(d .. "/run/run.json")
  t.eq(meta.setup.prompts["question.txt"], fs.sha256(TERSE), "the effective template's sha256")
  t.raises(function() t.run_scenario(SCEN, { "--out", d .. "/r2", "--prompt", "nope=" .. d .. "/terse.txt" }) end,
    "--prompt nope: ")
  t.raises(function() t.run_scenario(SCEN, { "--out", d .. "/r3", "--prompt", "question=" .. d .. "/missing.txt" }) end,
    "--prompt question: no file " .. d .. "/missing.txt")
  t.raises(function() t.run_scenario(SCEN, { "--out", d .. "/r4", "--prompt", "question" }) end, "is not NAME=FILE")
  fs.mkdir_p(d .. "/overlay")
  fs.write_atomic(d .. "/overlay/question.txt", TERSE)
  t.run_scenario(SCEN, { "--out", d .. "/run5", "--limit", "2", "--quiet", "--workers", "1", "--prompt-overlay", d .. "/overlay" })
  t.eq(json.read_file(d .. "/run5/run.json").setup.prompts["question.txt"], fs.sha256(TERSE))
end)

test("--variant: every trial once per variant, same seeds, records marked; compare RUN@A RUN@B", function()
  local d = tmpdir()
  fs.write_atomic(d .. "/terse.txt", TERSE)
  t.run_scenario(SCEN, { "--out", d .. "/run", "--limit", "6", "--quiet", "--workers", "1", "--model", "random",
    "--variant", "base", "--variant", "terse=question:" .. d .. "/terse.txt" })
  local recs = records.read(d .. "/run/trials.jsonl")
  t.eq(#recs, 12)
  local by = {}
  for _, r in ipairs(recs) do
    t.eq(r.trial_id:match("@(%w+)$"), r.variant)
    by[r.variant] = by[r.variant] or {}
    by[r.variant][r.trial_id:gsub("@%w+$", "")] = r.choice
  end
  t.eq(by.base, by.terse, "the same seeds give the random player the same draws in both variants")
  local tr = transcripts.load(d .. "/run", recs[1].trial_id:gsub("@%w+$", "") .. "@terse")
  t.contains(tr.calls[1].messages[1].content, "Which move mates?")
  local meta = json.read_file(d .. "/run/run.json")
  t.eq(meta.setup.variants.terse.prompts["question.txt"], fs.sha256(TERSE))
  t.ok(meta.setup.variants.base.prompts["question.txt"] ~= fs.sha256(TERSE))
  local c = compare.runs({ d .. "/run@base", d .. "/run@terse" }).comparisons[1]
  t.eq({ c.n, c.diff.value, c.mcnemar.p }, { 6, 0, 1 })
  t.raises(function() t.run_scenario(SCEN, { "--out", d .. "/r2", "--variant", "a", "--variant", "a" }) end, "a is given twice")
end)

test("--variant: the report has one row per variant (console, report.md, summary.json), never the arms pooled", function()
  local d = tmpdir()
  fs.write_atomic(d .. "/terse.txt", TERSE)
  t.run_scenario(SCEN, { "--out", d .. "/run", "--limit", "4", "--quiet", "--workers", "1", "--model", "random",
    "--variant", "base", "--variant", "terse=question:" .. d .. "/terse.txt" })
  local out = t.sh(string.format("%s report %s/run --no-html", t.tabula_bin(), d))
  t.contains(out, "rc=0")
  t.contains(out, "[base] ")
  t.contains(out, "[terse] ")
  t.contains(out, "over 4 trials of 4 items", "each variant's own 4 trials, not the 8 pooled")
  t.ok(not out:find("over 8 trials", 1, true), out)
  local md = fs.read(d .. "/run/report.md")
  t.contains(md, "## Variant base")
  t.contains(md, "## Variant terse")
  local sm = json.read_file(d .. "/run/summary.json")
  t.eq({ sm.variants.base.all.n, sm.variants.terse.all.n }, { 4, 4 })
  -- the variant's own records: ids with its suffix only
  for _, r in ipairs((records.read(d .. "/run/variants/terse/trials.jsonl"))) do t.eq(r.variant, "terse") end
  -- the viewer too: a headline and panels per variant, each over its own 4 trials
  local page = fs.read(d .. "/run/report.html")
  t.contains(page, '<p class="headline">base: 4 trials')
  t.contains(page, '<p class="headline">terse: 4 trials')
  t.ok(not page:find('<p class="headline">8 trials', 1, true), "the arms pooled in the viewer")
  t.contains(page, "base: Success")
  t.contains(page, "terse: Success")
end)

return T
