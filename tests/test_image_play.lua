-- Board pictures from any position (tabula.image, tabula render xiangqi|chess)
-- and tabula play for any scenario (a trial by id or prefix, --out, everything
-- the model would get shown to the person).
local t = require "tabula.testing"
local fs = require "tabula.fs"
local records = require "tabula.records"
local image = require "tabula.image"
local test, T = t.suite()

local sh = t.sh

test("image.xiangqi draws any position with arrows; chess_svg is a standalone SVG", function()
  local xq = require "games.xiangqi"
  local png = assert(image.xiangqi(xq.new(), { "h2e2", { move = "b0c2", label = "X" } }))
  t.eq(png:sub(1, 4), "\137PNG")
  local pix = assert(require("tabula.c.image").load_png(png))
  local w, h = pix:size()
  t.ok(w > 300 and h > 300, "a board-sized picture")
  t.eq(select(2, image.xiangqi(xq.new(), { "z9z9" })), "arrow 'z9z9' is not an ICCS move")
  local svg = image.chess_svg("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", { "e2e4" })
  t.contains(svg, '<svg xmlns="http://www.w3.org/2000/svg"')
  t.ok(svg:find("<defs", 1, true) or svg:find("<symbol", 1, true), "the symbols it uses are inside")
  local d = t.tmpdir()
  local bin = t.tabula_bin()
  t.contains(sh(string.format("%s render chess --fen '8/8/8/8/8/8/8/K6k w - - 0 1' --arrows a1a2 --out %s/c.svg", bin, d)), "rc=0")
  t.contains(fs.read(d .. "/c.svg"), "<svg")
  t.contains(sh(string.format("%s render chess --fen 'nonsense' --out %s/x.svg", bin, d)), "render: bad FEN")
  t.contains(sh(string.format("%s render xiangqi --arrows h2e2 --out %s/x.png", bin, d)), "rc=0")
  t.eq(fs.read(d .. "/x.png"):sub(2, 4), "PNG")
end)

test("tabula play: a trial by id prefix, --out respected, the whole first request shown", function()
  local d = t.tmpdir()
  local bin = t.tabula_bin()
  local out = sh(string.format("printf 'Answer: A\\n' | %s play %s/examples/checks_mc.lua --case tabula_0002 --out %s/p",
    bin, t.root(), d))
  t.contains(out, "--- user")
  t.contains(out, "Which of these moves puts Black's general in check?")
  local recs = records.read(d .. "/p/trials.jsonl")
  t.eq(#recs, 1)
  t.eq(recs[1].trial_id, "tabula_0002/1")
  out = sh(string.format("printf 'resign\\n' | %s play xiangqibench --case tabula_0003 --out %s/x", bin, d))
  t.contains(out, "--- system")
  t.contains(out, "You are playing Xiangqi")
  t.eq(records.read(d .. "/x/trials.jsonl")[1].reason, "resignation")
  t.contains(sh(string.format("%s play xiangqibench --case nope --out %s/y < /dev/null", bin, d)), "no trial nope (trial ids look like")
end)

return T
