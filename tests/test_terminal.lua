-- Text from outside never drives the terminal: tabula show, the progress lines
-- and tabula play print model text and data without control sequences (window
-- title OSC, clipboard OSC 52, CSI), keeping newlines, tabs and UTF-8.
local t = require "tabula.testing"
local terminal = require "tabula.terminal"
local fs = require "tabula.fs"
local json = require "tabula.json"
local test, T = t.suite()

local EVIL = "\27]0;PWNED\7hi \27]52;c;ZXZpbA==\27\\there\27[2J\27[1;31mred\27[0m\r\nok\tdone \xC2\x9B6n\27P+q\27\\ \27c\8\127 帥♟é"

-- no_controls(text, what): no ESC, BEL, CR, backspace, DEL or C1 control in text
local function no_controls(text, what)
  t.ok(not text:find("[\27\7\r\8\127]"), what .. ": a control character got through: " .. string.format("%q", text))
  t.ok(not text:find("\xC2[\x80-\x9F]"), what .. ": a C1 control got through")
  t.ok(not text:find("PWNED", 1, true) and not text:find("ZXZpbA", 1, true), what .. ": an OSC payload got through")
end

test("clean: OSC, OSC 52, CSI, DCS, 8-bit CSI and C0 controls go; text, newlines, tabs, UTF-8 stay", function()
  local out = terminal.clean(EVIL)
  t.eq(out, "hi therered\nok\tdone 6n  帥♟é")
  no_controls(out, "clean")
  t.eq(terminal.clean("plain text\nline two\t."), "plain text\nline two\t.")
  t.eq(terminal.clean("a\xFFb"), "a\u{FFFD}b")                        -- not UTF-8: replaced, not passed raw
  t.eq(terminal.clean("cut \27]0;no end"), "cut ")                     -- an unterminated OSC is dropped whole
  t.eq(terminal.clean(42), "42")
end)

-- a run whose model (a replay) answers with control sequences, and whose case
-- id carries some too
local function evil_run()
  local dir = t.tmpdir()
  local cases = fs.read(t.root() .. "/games/xiangqi/suite.jsonl")
  local first = json.decode(cases:match("[^\n]+"))
  first.id = "case\27]2;TITLE\7x"
  fs.write_atomic(dir .. "/cases.jsonl", json.encode(first) .. "\n")
  local lines = {}
  for i = 1, 12 do lines[i] = json.encode({ text = EVIL }) end
  fs.write_atomic(dir .. "/replay.jsonl", table.concat(lines, "\n") .. "\n")
  local bin = t.tabula_bin()
  local out = t.sh(string.format("cd %s && %s run xiangqibench --cases cases.jsonl --trials 1 --model replay:replay.jsonl --out run --verbose",
    dir, bin))
  t.contains(out, "rc=0")
  return dir, out
end

test("tabula show and the progress lines strip what a model wrote to drive the terminal", function()
  local dir, progress = evil_run()
  no_controls(progress, "progress lines")
  t.contains(progress, "casex/sighted/1 failure")
  local bin = t.tabula_bin()
  local list = t.sh(string.format("%s show %s/run", bin, dir))
  no_controls(list, "tabula show RUN")
  t.contains(list, "casex/sighted/1")
  local shown = t.sh(string.format("%s show %s/run case", bin, dir))
  t.contains(shown, "rc=0")
  no_controls(shown, "tabula show RUN TRIAL")
  t.contains(shown, "hi therered\nok\tdone")
  t.contains(shown, "帥♟é")
end)

test("tabula play: what the human is shown carries no control sequence", function()
  local dir = t.tmpdir()
  fs.mkdir_p(dir .. "/prompts")
  for _, f in ipairs(fs.list(t.root() .. "/prompts/xiangqibench")) do
    local text = fs.kind(t.root() .. "/prompts/xiangqibench/" .. f) == "file" and fs.read(t.root() .. "/prompts/xiangqibench/" .. f)
    if text and f:match("^system") then text = "\27]0;PWNED\7\27[2J" .. text end
    if text then fs.write_atomic(dir .. "/prompts/" .. f, text) end   -- the files (tools/ is the tools arm's)
  end
  local out = t.sh(string.format("cd %s && printf 'quit\\n' | %s play xiangqibench --case tabula_0001 --prompts prompts --out run",
    dir, t.tabula_bin()))
  t.contains(out, "--- system")
  no_controls(out, "tabula play")
end)

return T
