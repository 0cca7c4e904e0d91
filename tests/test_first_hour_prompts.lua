-- Prompt placeholders in the first hour (issue 46, item 14): a replacing
-- template (--prompt, --prompt-overlay, a --variant) with a placeholder its
-- template does not get stops the run before the first trial, naming the
-- replacing file; `tabula prompts` lists what each template gets, and
-- docs/PROMPTS.md holds the same lists.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local test, T = t.suite()

local SCEN = "examples/xiangqi_mate1_mc.lua"

local function tabula(args)
  local q = {}
  for i, a in ipairs(args) do q[i] = t.quote(a) end
  local out = t.sh("cd " .. t.root() .. " && " .. t.quote(t.tabula_bin()) .. " " .. table.concat(q, " "))
  return tonumber(out:match("rc=(%d+)\n$")), (out:gsub("rc=%d+\n$", ""))
end

test("a variant's template with an unknown placeholder stops the run before any trial, naming its file", function()
  local d = t.tmpdir()
  local bad = d .. "/bad_question.txt"
  fs.write_atomic(bad, "Which move mates?\n{{board}}\n{{choices}}\n{{no_such_value}}\n")
  local rc, out = tabula({ "run", SCEN, "--model", "random", "--out", d .. "/run", "--limit", "3", "--workers", "1",
    "--variant", "base", "--variant", "bad=question:" .. bad })
  t.eq(rc, 2, out)
  t.eq(select(2, out:gsub("\n", "")), 1, "one line: " .. out)
  t.contains(out, bad, "names the replacing file, not the default template")
  t.contains(out, "{{no_such_value}}")
  t.contains(out, "{{board}}", "says which placeholders the template gets")
  t.eq(fs.kind(d .. "/run/trials.jsonl"), nil, "no trial was played first")
  -- the same through --prompt, and a template using fewer placeholders is fine
  rc, out = tabula({ "run", SCEN, "--model", "random", "--out", d .. "/run2", "--limit", "1", "--workers", "1",
    "--prompt", "question=" .. bad })
  t.eq(rc, 2, out)
  t.contains(out, bad)
  fs.write_atomic(d .. "/short.txt", "{{board}}\n{{choices}}\n")
  rc, out = tabula({ "run", SCEN, "--model", "random", "--out", d .. "/run3", "--limit", "1", "--workers", "1", "--quiet",
    "--prompt", "question=" .. d .. "/short.txt" })
  t.eq(rc, 0, out)
end)

test("a fill that finds no value names the file in effect (the override's)", function()
  local prompt = require "tabula.prompt"
  local variants = require "tabula.variants"
  local d = t.tmpdir()
  fs.mkdir_p(d .. "/set")
  fs.write_atomic(d .. "/set/q.txt", "{{a}} {{b}}\n")
  fs.write_atomic(d .. "/mine.txt", "{{a}}\n")
  variants.configure(variants.parse({ "q=" .. d .. "/mine.txt" }))
  local ok, P = pcall(prompt.set, "x", d .. "/set")
  variants.configure(nil)
  t.ok(ok, tostring(P))
  t.contains(t.raises(function() P:fill("q", {}) end), d .. "/mine.txt: unknown placeholder {{a}}")
end)

test("tabula prompts lists each template's placeholders; docs/PROMPTS.md holds the same lists", function()
  local rc, out = tabula({ "prompts", "xiangqibench" })
  t.eq(rc, 0, out)
  t.contains(out, "prompts/xiangqibench/\n")
  local line = out:match("\n  initial%s+([^\n]*)")
  t.ok(line, out)
  local text = fs.read(t.root() .. "/prompts/xiangqibench/initial.txt")
  for key in text:gmatch("{{([%w_]+)}}") do t.contains(line, "{{" .. key .. "}}") end
  rc, out = tabula({ "prompts", "xiangqibenhc" })
  t.eq(rc, 2, out)
  t.contains(out, "did you mean xiangqibench")
  local all
  rc, all = tabula({ "prompts" })
  t.eq(rc, 0, all)
  local doc = fs.read(t.root() .. "/docs/PROMPTS.md")
  t.contains(doc, all, "docs/PROMPTS.md lists what `tabula prompts` prints (regenerate it when a template changes)")
end)

return T
