-- tabula repl, tabula -e, tabula -: the library preloaded, results shown, boards drawn.
local t = require "tabula.testing"
local test, T = t.suite()

local sh = t.sh

test("values are shown: boards drawn with their FEN, tables, several results", function()
  local repl = require("tabula.cmd.repl").lib
  local env = repl.env()
  local ok, text = repl.eval("xq.new()", env)
  t.ok(ok)
  t.contains(text, "帥")
  t.contains(text, "FEN rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
  t.eq(select(2, repl.eval("#chess.new():moves(), { a = 1, 'x' }", env)), '20\t{ "x", a = 1 }')
  t.eq({ repl.eval("g = 6 * 7", env) }, { true, "" }, "a statement shows nothing")
  t.eq(select(2, repl.eval("g", env)), "42", "globals persist between chunks")
  local _, _, incomplete = repl.eval("for i = 1, 2 do", env)
  t.ok(incomplete, "an unfinished chunk asks for more")
  t.eq({ repl.eval("error('boom')", env) }, { false, "repl:1: boom" })
end)

test("the binary: -e, - (stdin) and an interactive session", function()
  local bin = t.tabula_bin()
  local out = sh(bin .. " -e '#xq.new():moves()'")
  t.eq(out, "44\nrc=0\n")
  out = sh("printf 'local b = chess.new()\\nprint(#b:moves())\\n' | " .. bin .. " -")
  t.eq(out, "20\nrc=0\n")
  out = sh("printf 'x = 2\\nfor i = 1,\\n 2 do x = x * 10 end\\nx\\n' | " .. bin .. " repl")
  t.contains(out, "> > >> > 200")
  t.contains(sh(bin .. " -e 'error(\"boom\")'"), "tabula: (command line):1: boom\nrc=1")
end)

return T
