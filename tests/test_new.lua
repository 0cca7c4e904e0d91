-- tabula new: the generated scenario runs at once (engine, random, a replayed
-- model) and its generated test passes, for each game; mistakes are one line.
-- slow: generated scenarios are run end to end (left out by make check)
local t = require "tabula.testing"
local fs = require "tabula.fs"
local test, T = t.suite()

local sh = t.sh

test("tabula new NAME --game G: files, a dry run, and the generated test passes", function()
  local d = t.tmpdir()
  local bin = t.tabula_bin()
  for _, g in ipairs({ "xiangqi", "chess", "go", "none" }) do
    local name = "my_" .. g
    local out = sh(string.format("cd %s && %s new %s --game %s", d, bin, name, g))
    t.contains(out, "rc=0")
    t.eq(fs.kind(d .. "/scenarios/" .. name .. ".lua"), "file")
    t.eq(fs.kind(d .. "/prompts/" .. name .. "/question.txt"), "file")
    t.contains(sh(string.format("cd %s && %s run %s --dry-run", d, bin, name)), "no model was called")
    out = sh(string.format("cd %s && %s test tests/test_%s.lua", d, bin, name))
    t.contains(out, "3 passed, 0 failed", g)
  end
  t.contains(sh(string.format("cd %s && %s new my_none", d, bin)), "scenarios/my_none.lua exists already; nothing was written")
  t.contains(sh(string.format("cd %s && %s new 9lives", d, bin)), "give a NAME of letters, digits and _")
  t.contains(sh(string.format("cd %s && %s new x --game shogi", d, bin)), "option --game must be one of xiangqi, chess, go, none")
end)

return T
