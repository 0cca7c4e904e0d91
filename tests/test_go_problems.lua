-- Tsumego problems: transforms (8 symmetries x colour inversion), renderings,
-- `tabula problems go` with its data card and `tabula validate tsumego`.
local t = require "tabula.testing"
local go = require "games.go"
local problem = require "games.go.problem"
local transform = require "games.go.transform"
local render = require "games.go.render"
local checks = require "games.go.checks"
local json = require "tabula.json"
local fs = require "tabula.fs"
local test, T = t.suite()

-- a Go Game Guru-style problem written here: black to live in the corner
local SGF = [[(;GM[1]FF[4]SZ[19]AB[qn][rn][sn][pn][oo][op][oq][pr][qr]AW[po][qo][ro][so][pp][pq][qq][rr][rq]C[Black to play and live.]
(;B[rs];W[qs]C[Wrong])(;B[sp];W[sq];B[rp]C[Correct])(;B[rp];W[sp]C[Wrong]))]]

local function sample()
  local list, errs = problem.from_sgf(SGF, { file = "hand.sgf", source = "hand" })
  t.eq(errs, {})
  return list[1]
end

test("problems: a hand-made problem converts with its correct set, goal and main line", function()
  local p = sample()
  t.eq(p.to_play, "black")
  t.eq(p.goal, "live")
  t.eq(p.correct, { "sp" })
  t.eq(p.wrong, { "rp", "rs" })
  t.eq(p.pv, { "B:sp", "W:sq", "B:rp" })
  t.eq(p.correct_gtp, { "T4" })
  t.eq(checks.check(p), {})
end)

test("transforms: 8 symmetries x colour inversion keep legality, map the correct set, and invert", function()
  local p = sample()
  local n = 0
  for _, sym in ipairs(transform.SYMMETRIES) do
    for _, inv in ipairs { false, true } do
      local q = transform.apply(p, { symmetry = sym, invert = inv })
      t.eq(checks.check(q), {}, sym)
      t.eq(q.to_play, inv and "white" or "black")
      t.eq(#q.correct, 1)
      t.eq(q.correct[1], transform.point("sp", sym, 19))
      -- the stone pattern around the answer is the same up to colour
      local g, h = go.position(19, p.stones, p.to_play), go.position(19, q.stones, q.to_play)
      t.eq(#g:legal_moves(), #h:legal_moves())
      local back = transform.apply(q, { symmetry = transform.inverse(sym), invert = inv })
      for _, k in ipairs { "stones", "correct", "wrong", "pv", "tree", "region", "grid", "to_play" } do
        t.eq(back[k], p[k], sym .. " " .. k)
      end
      n = n + 1
    end
  end
  t.eq(n, 16)
  -- the symmetries are distinct on an asymmetric point
  local seen = {}
  for _, sym in ipairs(transform.SYMMETRIES) do seen[transform.point("cb", sym, 19)] = true end
  local count = 0
  for _ in pairs(seen) do count = count + 1 end
  t.eq(count, 8)
  t.eq(transform.point("aa", "rot90", 19), "sa")      -- top-left goes to top-right clockwise
  -- relabeling is a bijection
  local r = transform.relabel(19, 7)
  for x = 0, 18 do for y = 0, 18 do
    local pt = go.xy_sgf(x, y)
    t.eq(r.point(r.label(pt)), pt)
  end end
end)

test("renderings: symbolic and grid agree; SVG and PNG boards", function()
  local p = sample()
  local sym = render.symbolic(p)
  t.contains(sym, "Black stones: ")
  t.contains(sym, "Black to play.")
  local grid = render.grid(p)
  -- every black stone of the symbolic list is a 1 at its place in the grid
  local rows = {}
  for line in grid:gmatch("[^\n]+") do rows[#rows + 1] = line end
  for _, pt in ipairs(p.stones.black) do
    local gtp = go.to_gtp(pt, 19)
    t.contains(sym, gtp)
    local x, y = go.sgf_xy(pt)
    local cells = {}
    for v in rows[y + 2]:gmatch("%S+") do cells[#cells + 1] = v end
    t.eq(cells[x + 2], "1", gtp)
  end
  local svg = render.svg(p, { labels = { A = "sp", B = "rp" } })
  t.contains(svg, "<svg")
  local stones = select(2, svg:gsub('<circle[^>]*stroke="#000000"', ""))
  t.eq(stones, #p.stones.black + #p.stones.white)
  t.contains(svg, ">A</text>")
  local whole = render.svg(p, { crop = false })
  t.ok(#whole > #svg, "the whole board is bigger than the crop")
  local png = os.tmpname() .. ".png"
  t.ok(render.png(p, { labels = { A = "sp" }, path = png }))
  local bytes = render.png(p, { labels = { A = "sp" } })
  t.eq(bytes, fs.read(png))
  local img = require("tabula.c.image").load_png(bytes)
  local prims, W, H = render.primitives(p, { labels = { A = "sp" } })
  t.eq({ img:size() }, { W, H })
  local r, g, b = img:pixel(2, 2)
  t.ok(r > 180 and g > 140 and b < 120, "wood in the corner")
  for _, q in ipairs(prims) do
    if q[1] == "circle" and q.fill == "#111111" then
      local r2, g2, b2 = img:pixel(math.floor(q[2]), math.floor(q[3]))
      t.ok(r2 + g2 + b2 < 100, "a black stone is dark")
      break
    end
  end
  os.remove(png)
end)

test("tabula problems go writes problems and a data card; validate tsumego accepts them", function()
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/a.sgf", SGF)
  fs.write_atomic(dir .. "/b.sgf", "(;SZ[19]AB[aa]C[positions only])")
  local cmds = require "tabula.commands"
  local saved = io.write
  io.write = function() end
  local rc = cmds.run("problems", { "go", dir, "--out", dir .. "/p.jsonl" })
  io.write = saved
  t.eq(rc, 0)
  local lines = {}
  for l in fs.read(dir .. "/p.jsonl"):gmatch("[^\n]+") do lines[#lines + 1] = json.decode(l) end
  t.eq(#lines, 1)
  t.eq(lines[1].correct, { "sp" })
  local card = fs.read(dir .. "/p.md")
  t.contains(card, "| kept | 1 |")
  t.contains(card, "| dropped: solution | 1 |")
  local out = {}
  io.write = function(...) for _, v in ipairs { ... } do out[#out + 1] = v end end
  rc = cmds.run("validate", { "tsumego", dir .. "/p.jsonl" })
  io.write = saved
  t.eq(rc, 0)
  t.contains(table.concat(out), "1 problems, 0 findings, 0 fatal; 1 usable")
  -- an --out in a directory that does not exist: one line naming the path, no "wrote"
  out = {}
  io.write = function(...) for _, v in ipairs { ... } do out[#out + 1] = v end end
  local ok, e = pcall(cmds.run, "problems", { "go", dir, "--out", dir .. "/no/such/dir/p.jsonl" })
  io.write = saved
  t.ok(not ok and require("tabula.cli").is_user_error(e), "a user error, not a traceback")
  t.contains(e.message, dir .. "/no/such/dir/p.jsonl")
  t.ok(not table.concat(out):find("wrote"), "nothing claims to have been written")
  os.remove(dir .. "/a.sgf"); os.remove(dir .. "/b.sgf"); os.remove(dir .. "/p.jsonl"); os.remove(dir .. "/p.md"); os.remove(dir)
end)

test("tabula problems go: a bad file never stops the batch; each rejected file is listed with its reason, exit 1", function()
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/a.sgf", SGF)                                    -- good: kept
  fs.write_atomic(dir .. "/torn.sgf", "(;GM[1]SZ[9]AB[cc")                  -- cut off
  fs.write_atomic(dir .. "/huge.sgf", "(;SZ[99]AB[aa];B[bb])")             -- no such board size
  fs.write_atomic(dir .. "/zero.sgf", "(;SZ[0]AB[aa];B[bb])")
  fs.write_atomic(dir .. "/broken.json", '{"AB": ')
  fs.write_atomic(dir .. "/comment.json", '{"C": 5, "SOL": [["B", "bb"]]}')   -- used to be an internal error
  fs.write_atomic(dir .. "/size.json", '{"SZ": 99, "AB": ["aa"], "SOL": [["B", "bb"]]}')
  fs.write_atomic(dir .. "/points.json", '{"AB": [5], "SOL": [[1, 2]]}')
  fs.write_atomic(dir .. "/z.sgf", SGF:gsub("SZ%[19%]", "SZ[19]C[second copy]"))   -- good, after the bad ones
  local args = { dir }
  local malformed = t.shared_data("malformed-sgf")   -- optional: the shared malformed collection
  if malformed then args[#args + 1] = malformed end
  local out = t.sh(string.format("%s problems go %s --out %s/p.jsonl", t.tabula_bin(), table.concat(args, " "), dir))
  t.contains(out, "rc=1")
  t.ok(not out:find("internal error", 1, true) and not out:find("traceback", 1, true), "no traceback: " .. out)
  t.contains(out, "7 of " .. (malformed and 10 or 9) .. " files rejected")
  for _, f in ipairs({ "torn.sgf", "huge.sgf", "zero.sgf", "broken.json", "comment.json", "size.json", "points.json" }) do
    t.contains(out, dir .. "/" .. f .. ":", "rejected with its reason: " .. f)
  end
  t.contains(out, "C must be a string")
  t.contains(out, "board size SZ[99] is not 2..25")
  local kept = 0
  for _ in fs.read(dir .. "/p.jsonl"):gmatch("[^\n]+") do kept = kept + 1 end
  t.eq(kept, 2, "both good files were converted")
  local card = fs.read(dir .. "/p.md")
  t.contains(card, "Rejected files")
  t.contains(card, dir .. "/comment.json")
end)

return T
