-- SGF (games.go.sgf) and problem conversion (games.go.problem): syntax,
-- charsets, malformed input, round trips, and every shared Go file with the
-- problems and correct moves found per marking convention.
-- slow: converts the shared SGF collections (left out by make check)
local t = require "tabula.testing"
local sgf = require "games.go.sgf"
local problem = require "games.go.problem"
local go = require "games.go"
local json = require "tabula.json"
local fs = require "tabula.fs"
local test, T = t.suite()

local function read(p) local f = assert(io.open(p, "rb")); local s = f:read("a"); f:close(); return s end

test("sgf: escapes, soft breaks, compressed lists, repeated and unknown properties", function()
  local text = "(;FF[4]SZ[9]AB[aa:bb]AW[cc]AW[dd]XY[kept]C[a \\] b\\\\ c\\\nd]\n;B[ee];W[tt](;B[]N[x])(;B[ff]))"
  local trees, errs = sgf.parse(text, "t.sgf")
  t.eq(#errs, 0)
  local r = trees[1]
  t.eq(r.props.AW, { "cc", "dd" })
  t.eq(sgf.points(r.props.AB), { "aa", "ab", "ba", "bb" })
  t.eq(r.props.XY, { "kept" })
  t.eq(r.props.C[1], "a ] b\\ cd")
  t.eq(#r.children[1].children[1].children, 2)
  local w = sgf.write(trees)
  local again = sgf.parse(w)
  t.eq(sgf.write(again), w)
  t.eq(again[1].props.C[1], "a ] b\\ cd")
  -- FF[3] long lower-case names keep their capitals
  local old = sgf.parse("(;AddBlack[aa]PLayer[W])")
  t.eq(old[1].props.AB, { "aa" }); t.eq(old[1].props.PL, { "W" })
end)

test("sgf: malformed input gives line and column, and the intact games are kept", function()
  local trees, errs = sgf.parse("(;FF[4]C[ok])\n(;B[aa]C[never closed)\n", "m.sgf")
  t.eq(#trees, 1)
  t.eq(#errs, 1)
  t.contains(errs[1], "m.sgf:2:9: value opened here is never closed")
  trees, errs = sgf.parse("(;FF[4])(B[aa])(;C[x])", "m.sgf")
  t.eq(#trees, 2); t.contains(errs[1], "m.sgf:1:10: a game tree must start with ';'")
  local dir = t.need_shared("malformed-sgf")
  local text = read(dir .. "/mango314-hatsuyoron-collection.sgf")
  local list, perrs = problem.from_sgf(text, { file = "hatsuyoron.sgf" })
  t.eq(#perrs, 2)
  t.contains(perrs[1], "hatsuyoron.sgf:2:3: property AB has no value (read as 'ABAWC')")
  t.contains(perrs[2], "hatsuyoron.sgf:3:3:")
  -- every other variation of the collection is a problem, in order
  local variations = select(2, text:gsub("%(;", "")) - 1
  t.eq(#list, variations - 2)
  t.contains(list[1].comment, "problem 3")
end)

test("sgf: CA[gb2312] text becomes UTF-8, and the file says so when written", function()
  local dir = t.need_shared("kisvadim-goproblems/go-seigen-tsumego-dojo-vol1-sample")
  local trees = sgf.parse(read(dir .. "/001.sgf"), "001.sgf")
  t.eq(trees[1].charset, "GB18030")
  local last = trees[1]
  while last.children[1] do last = last.children[1] end
  t.eq(last.props.C[1], "正解图")
  t.contains(sgf.write(trees), "CA[UTF-8]")
  -- repeated AB in the root are merged
  t.eq(#trees[1].props.AB, 10)
end)

-- every shared Go file, converted once
local shared
local FOLDERS = require("games.go.collect").SHARED
local function load_shared()
  if shared then return shared end
  local base = t.need_shared("gogameguru"):gsub("/gogameguru$", "")
  shared = { problems = {}, files = 0, texts = {} }
  local function walk(dir, rel)
    for _, name in ipairs(fs.list(dir) or {}) do
      local p, r = dir .. "/" .. name, rel .. "/" .. name
      if fs.kind(p) == "dir" then walk(p, r)
      elseif name:match("%.sgf$") then
        shared.files = shared.files + 1
        local text = read(p)
        shared.texts[r] = text
        local list, errs = problem.from_sgf(text, { file = r })
        t.eq(errs, {}, r)
        for _, pr in ipairs(list) do pr.folder = rel; shared.problems[#shared.problems + 1] = pr end
      elseif name:match("^Prob.*%.json$") or name:match("multi%-solution%.json$") then
        shared.files = shared.files + 1
        local pr = problem.from_json(json.decode(read(p)), { file = r })
        pr.folder = rel
        shared.problems[#shared.problems + 1] = pr
      end
    end
  end
  for _, f in ipairs(FOLDERS) do walk(base .. "/" .. f, f) end
  return shared
end

test("sgf: every shared Go file parses; problems and correct moves per convention", function()
  local s = load_shared()
  local by = {}
  for _, p in ipairs(s.problems) do
    local c = by[p.convention] or { problems = 0, correct = 0 }
    by[p.convention] = c
    c.problems = c.problems + 1
    c.correct = c.correct + #p.correct
    if p.convention ~= "position only" then t.ok(#p.correct >= 1, p.id .. " has a correct move") end
    t.ok(p.to_play or p.convention == "position only", p.id .. " has a side to play")
  end
  local function count(pattern)
    local n = 0
    for _, p in ipairs(s.problems) do if p.folder:find(pattern) then n = n + 1 end end
    return n
  end
  -- the README's counts per folder
  t.eq(count("^gogameguru"), 422)               -- 3 x 140 weekly problems + 2 in other/
  t.eq(count("^tsumegobench%-gp"), 20)
  t.eq(count("^kisvadim"), 417)
  t.eq(count("^sanderland.*json"), 31)
  t.eq(count("^sanderland.*sgf"), 30)
  t.eq(count("^tasuki2sgf"), 183 + 347 + 520)
  -- conventions: goproblems RIGHT, Go Game Guru Correct, Cho Correct./Wrong./WV, main line, JSON SOL
  t.eq(by["RIGHT in C[]"].problems, 20)
  t.eq(by["SOL list (JSON)"].problems, 31)
  t.eq(by["Correct in C[], WV[], Wrong in C[]"].problems, 60)
  t.ok(by["main line"].problems >= 347 + 30, "Xuanxuan Qijing and sanderland SGF use the main line")
  t.eq(by["position only"].problems, 183 + 347 + 520)
  t.ok(by["Correct in C[]"].problems >= 420)
  t.ok(by["Correct in C[]"].correct > by["Correct in C[]"].problems, "some Go Game Guru problems have alternatives")
  local multi
  for _, p in ipairs(s.problems) do if p.file:find("multi%-solution") then multi = p end end
  t.eq(multi.correct, { "ca", "ea", "ec", "ga" })
end)

test("sgf: every shared file round-trips (parse, write, parse, write)", function()
  local s = load_shared()
  for name, text in pairs(s.texts) do
    local trees = sgf.parse(text, name)
    local w = sgf.write(trees)
    t.eq(sgf.write((sgf.parse(w, name))), w, name)
  end
end)

test("problems: every correct first move of every shared problem is legal for the side to play", function()
  local s = load_shared()
  local checked = 0
  for _, p in ipairs(s.problems) do
    local g = go.position(p.size, p.stones, p.to_play)
    for _, pt in ipairs(p.correct) do
      t.eq(g:get(pt), nil, p.id .. " " .. pt .. " is empty")
      t.ok(g:is_legal(pt), p.id .. " " .. pt .. " is legal")
      checked = checked + 1
    end
  end
  t.ok(checked > 900)
end)

return T
