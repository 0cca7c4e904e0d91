-- TsuGO process trees: decoding an extractor's output, every validation rule
-- (rejections) and every repair on hand-written trees, and the built-in
-- narrative written and extracted back.
local t = require "tabula.testing"
local json = require "tabula.json"
local trees = require "scenarios.tsugo.trees"
local narrative = require "scenarios.tsugo.narrative"
local test, T = t.suite()

local function root() return { id = 0, label = "start", type = "root", parent = json.null } end
local function mv(id, parent, side, pos) return { id = id, type = "move", parent = parent, side = side, move_pos = pos, label = (side or "?") .. ":" .. (pos or "?") } end
local function jd(id, parent, pol) return { id = id, type = "judgment", parent = parent, polarity = pol, label = pol } end

-- shape(tree) -> compact "id:parent:label" list
local function shape(tree)
  local out = {}
  for _, n in ipairs(tree.nodes) do
    out[#out + 1] = string.format("%d:%s:%s", n.id, n.parent and tostring(n.parent) or "-", n.type == "judgment" and n.polarity or n.label)
  end
  return table.concat(out, " ")
end

test("points: both cases, I skipped, off-board refused", function()
  t.eq(trees.point("t18"), "T18")
  t.eq(trees.point(" P15 "), "P15")
  t.eq(trees.point("I5"), nil)
  t.eq(trees.point("U3"), nil)
  t.eq(trees.point("A20"), nil)
  t.eq(trees.point("A0"), nil)
  t.eq(trees.point("J9", 9), "J9")
  t.eq(trees.point("K9", 9), nil)
end)

test("decode: bare, fenced, with prose; bad JSON and missing nodes named", function()
  t.eq(#trees.decode('{"nodes":[{"id":0,"type":"root","parent":null}]}'), 1)
  t.eq(#trees.decode('Here:\n```json\n{"nodes":[{"id":0,"type":"root","parent":null},{"id":1}]}\n```\n'), 2)
  t.eq(#trees.decode('The tree is {"nodes":[]} as asked.'), 0)
  local _, why = trees.decode('{"nodes":[{"id":0,')
  t.contains(why, "no JSON object")
  _, why = trees.decode('{"nodes":[{"id":0,]}')
  t.contains(why, "invalid")
  _, why = trees.decode('{"tree":[]}')
  t.contains(why, "no \"nodes\" list")
  _, why = trees.decode("")
  t.contains(why, "nothing")
end)

test("a well-formed tree passes untouched", function()
  local tree, log = trees.validate({ root(), mv(1, 0, "B", "S17"), mv(2, 1, "W", "R18"), jd(3, 2, "win"),
    mv(4, 0, "B", "R18"), jd(5, 4, "lose") })
  t.eq(log.repairs, {})
  t.eq(shape(tree), "0:-:start 1:0:B:S17 2:1:W:R18 3:2:win 4:0:B:R18 5:4:lose")
  t.eq(tree.nodes[3].owner, 1)
  t.eq(tree.nodes[6].owner, 4)
  t.eq(tree.nodes[4].depth, 3)
end)

test("rejections: each structural rule", function()
  local cases = {
    { { root(), "x" }, "node #2 is not an object" },
    { { root(), { type = "move", parent = 0 } }, "node #2 has no integer id" },
    { { root(), { id = 1, type = "answer", parent = 0 } }, "node 1 has type answer" },
    { { root(), mv(1, 0, "B", "S17"), mv(1, 0, "B", "R18") }, "two nodes have id 1" },
    { { mv(1, 0, "B", "S17") }, "no root node" },
    { { root(), { id = 1, type = "root", parent = json.null } }, "two roots (nodes 0 and 1)" },
    { { { id = 0, type = "root", parent = 5 }, mv(5, 0, "B", "S17") }, "the root (node 0) has a parent" },
    { { root(), mv(1, 7, "B", "S17") }, "node 1 has parent 7, which does not exist" },
    { { root(), mv(1, 2, "W", "S17"), mv(2, 0, "B", "R18") }, "node 1 comes before its parent 2" },
    { { root(), { id = 1, type = "move", side = "B", move_pos = "S17" } }, "node 1 has no parent" },
    { { root(), mv(1, 0, "B", "S17"), jd(2, 1, "win"), mv(3, 2, "W", "R18") }, "node 2 is a judgment with children (node 3)" },
    { { root(), mv(1, "x", "B", "S17") }, "node 1 has parent x (not an id)" },
  }
  for _, c in ipairs(cases) do
    local tree, log = trees.validate(c[1])
    t.eq(tree, nil, c[2])
    t.contains(log.rejected, c[2])
  end
  local _, log = trees.validate("nodes")
  t.contains(log.rejected, "not a list")
end)

test("repair: out-of-order listing is put in id order", function()
  local tree, log = trees.validate({ mv(1, 0, "B", "S17"), root(), jd(2, 1, "win") })
  t.eq(log.repairs, { "nodes were listed out of id order; put in id order" })
  t.eq(shape(tree), "0:-:start 1:0:B:S17 2:1:win")
end)

test("repair: a judgment under the root is dropped", function()
  local tree, log = trees.validate({ root(), jd(1, 0, "win"), mv(2, 0, "B", "S17"), jd(3, 2, "win") })
  t.eq(log.repairs, { "dropped judgment 1 directly under the root" })
  t.eq(shape(tree), "0:-:start 1:0:B:S17 2:1:win")
  t.eq(tree.nodes[2].src, 2, "the extractor's id is kept as src")
end)

test("repair: missing sides from the label, the side to play, alternation", function()
  local a = mv(1, 0, nil, "S17")
  a.label = "S17"
  local b = mv(2, 1, nil, "R18")
  b.label = "R18"
  local c = mv(3, 2, nil, "T17")
  c.label = "W:T17"
  local tree, log = trees.validate({ root(), a, b, c, jd(4, 3, "win") }, { to_play = "W" })
  t.eq(log.repairs, { "move 1: no side given; set to W", "move 2: no side given; set to B", "move 3: no side given; set to W" })
  t.eq(shape(tree), "0:-:start 1:0:W:S17 2:1:B:R18 3:2:W:T17 4:3:win")
  local _, log2 = trees.validate({ root(), mv(1, 0, nil, "S17"), jd(2, 1, "win") })
  t.eq(log2.repairs, { "move 1: no side given; left unknown" })
end)

test("repair: point from the label; unreadable points stay unknown", function()
  local a = mv(1, 0, "B", nil)
  a.label = "B:s17"
  local tree, log = trees.validate({ root(), a, mv(2, 1, "W", "Z99"), jd(3, 2, "lose") })
  t.eq(log.repairs, { "move 1: point taken from its label B:s17", "move 2: point Z99 cannot be read; left unknown" })
  t.eq(shape(tree), "0:-:start 1:0:B:S17 2:1:W:? 3:2:lose")
end)

test("repair: an unknown polarity becomes other, never win or lose", function()
  local tree, log = trees.validate({ root(), mv(1, 0, "B", "S17"), jd(2, 1, "seki?"), mv(3, 0, "B", "R18"), jd(4, 3, "LOSE") })
  t.eq(log.repairs, { "judgment 2: polarity seki? read as other" })
  t.eq(tree.nodes[3].polarity, "other")
  t.eq(tree.nodes[5].polarity, "lose")
end)

test("repair: a candidate the response never names is dropped with its subtree", function()
  local nodes = { root(), mv(1, 0, "B", "S17"), jd(2, 1, "win"), mv(3, 0, "B", "Q18"), mv(4, 3, "W", "S17"), jd(5, 4, "lose"),
    mv(6, 0, "B", "R18"), jd(7, 6, "lose") }
  local text = "S17 lives. Option C fails."
  local tree, log = trees.validate(nodes, { text = text, options = { A = "S17", B = "Q18", C = "R18" } })
  t.eq(log.repairs, { "dropped candidate 3 (Q18): the response never names it" })
  t.eq(shape(tree), "0:-:start 1:0:B:S17 2:1:win 3:0:B:R18 4:3:lose")
  -- named by coordinate in lower case counts; a point inside a longer token does not
  local _, log2 = trees.validate({ root(), mv(1, 0, "B", "S17"), jd(2, 1, "win") }, { text = "black s17 works" })
  t.eq(log2.repairs, {})
  local _, log3 = trees.validate({ root(), mv(1, 0, "B", "S17"), jd(2, 1, "win") }, { text = "see S175" })
  t.eq(#log3.repairs, 1)
end)

test("the candidate guard: the article 'a' and the answer line never name an option; explicit references do", function()
  local opts4 = { A = "S17", B = "Q18", C = "R18", D = "T19" }
  local function kept(text)
    local tree = assert(trees.validate({ root(), mv(1, 0, "B", "S17"), jd(2, 1, "win") }, { text = text, options = opts4 }))
    return #trees.candidates(tree) == 1
  end
  t.eq(kept("Black has a clear way to live here: a hane, then a throw-in.\nanswer is A"), false,
    "'a' as an article and the closing answer line imply, they do not name")
  t.eq(kept("I would pick a move.\nThe answer is A."), false)
  for _, text in ipairs({ "Option A lives.", "option A lives", "A) lives", "(A) lives", "A. lives", "A: lives", "s17 lives" }) do
    t.eq(kept(text .. "\nanswer is A"), true, text)
  end
  t.eq(kept("Option B and (C) both fail.\nanswer is A"), false, "other letters do not name A")
  -- the point in the answer line alone does not name it either (open setting)
  local tree = assert(trees.validate({ root(), mv(1, 0, "B", "S17"), jd(2, 1, "win") }, { text = "Hard problem.\nanswer is S17" }))
  t.eq(#trees.candidates(tree), 0)
end)

test("the candidate guard reads the text once, however many candidates", function()
  local nodes, parts = { root() }, {}
  local cols = "ABCDEFGHJKLMNOPQRST"
  local id = 1
  for x = 1, 19 do
    for y = 1, 19 do
      local pos = cols:sub(x, x) .. y
      nodes[#nodes + 1] = mv(id, 0, "B", pos); nodes[#nodes + 1] = jd(id + 1, id, "lose"); id = id + 2
      if (x + y) % 2 == 0 then parts[#parts + 1] = pos .. " fails." end
    end
  end
  local calls, named = 0, trees.named
  trees.named = function(text) calls = calls + 1; return named(text) end
  local ok, tree = pcall(trees.validate, nodes, { text = table.concat(parts, " ") })
  trees.named = named
  t.ok(ok, tostring(tree))
  t.eq(calls, 1, "one pass over the response")
  t.eq(#trees.candidates(tree), #parts)
end)

test("bounds: too many nodes or too deep a chain is rejected, never drawn", function()
  local deep = { root() }
  for i = 1, trees.MAX_DEPTH + 1 do deep[#deep + 1] = mv(i, i - 1, i % 2 == 1 and "B" or "W", "S17") end
  local tree, log = trees.validate(deep)
  t.eq(tree, nil)
  t.contains(log.rejected, "levels deep")
  local wide = { root() }
  for i = 1, trees.MAX_NODES do wide[#wide + 1] = mv(i, 0, "B", "S17") end
  tree, log = trees.validate(wide)
  t.eq(tree, nil)
  t.contains(log.rejected, "nodes (at most")
  local ok = { root() }
  for i = 1, trees.MAX_DEPTH do ok[#ok + 1] = mv(i, i - 1, i % 2 == 1 and "B" or "W", "S17") end
  t.ok(trees.validate(ok), "a chain at the bound is kept")
end)

test("repair: a repeated move under the same parent is merged, its children follow", function()
  local nodes = { root(), mv(1, 0, "B", "S17"), mv(2, 1, "W", "R18"), jd(3, 2, "lose"),
    mv(4, 0, "B", "Q18"), jd(5, 4, "lose"),
    mv(6, 0, "B", "S17"), mv(7, 6, "W", "T18"), jd(8, 7, "win"),
    mv(9, 4, "W", "R18"), jd(10, 9, "other") }   -- same point, another parent: a new node
  local tree, log = trees.validate(nodes)
  t.eq(log.repairs, { "move 6 repeats move 1 (B:S17) under the same parent; merged" })
  t.eq(shape(tree), "0:-:start 1:0:B:S17 2:1:W:R18 3:2:lose 4:0:B:Q18 5:4:lose 6:1:W:T18 7:6:win 8:4:W:R18 9:8:other")
  t.eq(tree.nodes[7].owner, 1)
end)

test("repair: unclosed branches get an other judgment right after them", function()
  local tree, log = trees.validate({ root(), mv(1, 0, "B", "S17"), mv(2, 1, "W", "R18"), mv(3, 0, "B", "Q18"), jd(4, 3, "lose") })
  t.eq(log.repairs, { "move 2 (W:R18) ends without a judgment; closed with other" })
  t.eq(shape(tree), "0:-:start 1:0:B:S17 2:1:W:R18 3:2:other 4:0:B:Q18 5:4:lose")
  t.eq(tree.nodes[4].synthetic, true)
  -- the only-root tree is valid and empty
  local empty, log2 = trees.validate({ root() })
  t.eq({ #empty.nodes, #log2.repairs }, { 1, 0 })
end)

test("schema round trip keeps the tree", function()
  local tree = trees.validate({ root(), mv(1, 0, "B", "S17"), jd(2, 1, "win") })
  local back = trees.from_schema(json.decode(json.encode(trees.to_schema(tree))))
  t.eq(shape(back), shape(tree))
  t.eq(back.nodes[3].owner, 1)
end)

test("narrative: written, extracted back to the same tree, unread candidates closed", function()
  local text = narrative.write({ to_play = "W", answer = "B", conclusion = "R18 kills.",
    candidates = {
      { letter = "A", pos = "S17", lines = { { moves = { "S17", "R18" }, result = "lose", why = "Black lives" } } },
      { letter = "B", pos = "R18", lines = { { moves = { "R18", "S17", "S18" }, result = "win", why = "Black dies" },
                                             { moves = { "R18", "T17", "S17" }, result = "win" } } },
      { letter = "C", pos = "Q18", lines = {} },
    } })
  t.contains(text, "Candidate B: W R18.\n  Line: W R18, B S17, W S18 -> win (Black dies).")
  t.contains(text, "Candidate C: W Q18 (not read further).")
  t.contains(text, "\nanswer is B")
  local tree, log = trees.validate(narrative.extract(text), { to_play = "W" })
  t.eq(log.repairs, { "move 11 (W:Q18) ends without a judgment; closed with other" })
  t.eq(shape(tree), "0:-:initial position 1:0:W:S17 2:1:B:R18 3:2:lose 4:0:W:R18 5:4:B:S17 6:5:W:S18 7:6:win "
    .. "8:4:B:T17 9:8:W:S17 10:9:win 11:0:W:Q18 12:11:other")
end)

return T
