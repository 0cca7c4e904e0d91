-- Jianghu108: the validator (real file and hand-made broken problems), golden
-- prompts, answer extraction, scripted runs through the mock server with and
-- without the image, and the image itself.
-- slow: the engine player judges every option of the 108 problems; the reference bench script runs (left out by make check)
local t = require "tabula.testing"
local jh = require "games.xiangqi.jianghu"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local test, T = t.suite()

local function data_file() return t.need_shared("jianghu108") .. "/江湖残局.json" end

local function problem(over)
  local p = {
    id = 900, name = "x", source = "y", header = "h",
    circumstance = "在双方最优应对下，本局红方胜",
    Red = "車B1 炮B4 炮B7 帥F2 兵F9",
    Black = "馬A1 卒A2 卒A3 砲A5 士D10 車E5 将E10 士F10 象G6 卒I2 砲I5",
    options = { "A：炮B7 B10+", "B：炮B4 E4+", "C：車B1 E1", "D：兵F9 x F10+", "E：以上选项都不对" },
    correctAnswer = "C",
  }
  for k, v in pairs(over or {}) do p[k] = v end
  return p
end

local function findings_of(p)
  local f, usable = jh.validate({ p })
  local out = {}
  for _, x in ipairs(f) do out[#out + 1] = jh.format_finding(x) end
  return out, usable[p.id]
end

test("the validator on the real file: exactly one finding, not fatal", function()
  local problems = jh.load(data_file())
  t.eq(#problems, 108)
  local f, usable = jh.validate(problems)
  local lines = {}
  for _, x in ipairs(f) do lines[#lines + 1] = jh.format_finding(x) end
  t.eq(lines, { "problem 106 option D: check mark: gives check but has no +" })
  for _, p in ipairs(problems) do t.eq(usable[p.id], true, tostring(p.id)) end
end)

test("the validator command exits 0 on the real file", function()
  local h = io.popen(t.tabula_bin() .. " validate jianghu108 " .. data_file() .. "; echo rc=$?")
  local out = h:read("a"); h:close()
  t.contains(out, "108 problems, 1 findings, 0 fatal; 108 usable")
  t.contains(out, "rc=0")
end)

test("a clean problem has no findings", function()
  local f, ok = findings_of(problem())
  t.eq(f, {})
  t.eq(ok, true)
end)

test("each check on a hand-made broken problem", function()
  local cases = {
    { { Red = "車B1 炮B1 帥F2" }, "problem 900: collision: two pieces on B1 (fatal)" },
    { { Red = "車B1 帥F2 帥E1" }, "problem 900: generals: Red has 2 generals (fatal)" },
    { { Black = "馬A1 士D10 士F10" }, "problem 900: generals: Black has 0 generals (fatal)" },
    { { Red = "車B1 帥F2 将E2", Black = "将E10" }, "problem 900: characters: Red's list uses the other side's character 将 on E2" },
    { { Red = "車B1 帥F2", Black = "将E10 車F5" }, "problem 900: check at start: Red is in check at the start" },
    { { Red = "帥E2", Black = "将E10" }, "problem 900: facing generals: the generals face each other on file e with nothing between them (fatal)" },
    { { Red = "帥A2", Black = "将E10" }, "problem 900: palace: Red general (K) on a1 is outside the palace (fatal)" },
    { { Red = "帥F2 相E5", Black = "将D10" }, "problem 900: elephant points: Red elephant (B) on e4 is not on one of its seven elephant points (fatal)" },
    { { Red = "帥F2 兵B4", Black = "将D10" }, "problem 900: soldiers: Red soldier on b3 could never get there" },
    { { Red = "帥F2 車A1 車B1 車C1", Black = "将D10" }, "problem 900: limits: Red has 3 chariots (at most 2)" },
    { { circumstance = "红方必胜" }, "problem 900: circumstance: circumstance is not one of the two standard sentences (fatal)" },
  }
  for _, c in ipairs(cases) do
    local f = findings_of(problem(c[1]))
    local joined = table.concat(f, "\n")
    t.contains(joined, c[2])
  end
end)

test("option checks: legality (leg, eye, screen, self-check, facing) and marks in both directions", function()
  local base = { Red = "馬C3 相C1 炮B4 車E4 帥F1", Black = "将D10 砲B10 士E9 卒C4 卒B2" }
  local function opt(o, answer)
    local p = problem(base)
    p.options = { "A：" .. o, "B：帥F1 F2", "C：帥F1 E1", "D：炮B4 B5", "E：以上选项都不对" }
    p.correctAnswer = answer or "B"
    return table.concat(findings_of(p), "\n")
  end
  t.contains(opt("馬C3 D5"), "option A: legality: horse leg blocked")
  t.contains(opt("相C1 A3"), "option A: legality: elephant eye blocked")
  t.contains(opt("炮B4 x B10"), "option A: legality: cannon capture needs exactly one screen")
  t.eq(opt("車E4 x C4"):find("option A", 1, true), nil, "a legal capture marked x has no finding")
  t.contains(opt("車E4 C4"), "option A: capture mark: captures a piece but has no x")
  t.contains(opt("車E4 x E5"), "option A: capture mark: marked x but captures nothing")
  t.contains(opt("車E4 F4+"), "option A: check mark: marked + but gives no check")
  t.contains(opt("車E4 D4"), "option A: check mark: gives check but has no +")
  t.contains(opt("車E4 E10"), "option A: legality")
  t.contains(opt("馬C3 D5", "A"), "option A: legality: horse leg blocked (fatal)")
  -- self-check: the chariot shields the general from the cannon
  local sc = problem({ Red = "車F5 帥F1", Black = "将D10 砲F9 卒F7" })
  sc.options = { "A：車F5 E5", "B：帥F1 E1", "C：帥F1 F2", "D：車F5 F6", "E：以上选项都不对" }
  sc.correctAnswer = "B"
  t.contains(table.concat(findings_of(sc), "\n"), "option A: legality: the move leaves its own general in check")
  -- facing generals: the horse is the only piece between them
  local fg = problem({ Red = "馬D5 帥D1", Black = "将D10" })
  fg.options = { "A：馬D5 E7", "B：帥D1 E1", "C：帥D1 D2", "D：帥D1 F1", "E：以上选项都不对" }
  fg.correctAnswer = "B"
  t.contains(table.concat(findings_of(fg), "\n"), "option A: legality: generals would face each other")
end)

test("golden prompts of problem 1 in Chinese and English", function()
  local S = require("tabula.cmd.run").lib.load(t.root() .. "/scenarios/jianghu108.lua")
  local P = require("tabula.prompt").set("jianghu108")
  local p1 = jh.load(data_file())[1]
  local update = require("tabula.c.host").getenv("TABULA_UPDATE_GOLDEN") == "1"
  for _, lang in ipairs({ "zh", "en" }) do
    local text = S.prompt_text(p1, lang, P)
    local path = t.root() .. "/tests/golden/jianghu108/problem1_" .. lang .. ".txt"
    if update then fs.mkdir_p(fs.dirname(path)); fs.write_atomic(path, text) end
    t.eq(text, fs.read(path), path)
    t.eq(text:find(p1.name, 1, true), nil, "the name is never shown")
    t.eq(text:find("bilibili", 1, true), nil, "the source is never shown")
    if lang == "en" then   -- the reference's English names differ by side
      t.contains(text, "Red pieces: Chariot B1, Cannon B4, Cannon B7, General F2, Soldier F9")
      t.contains(text, "Black pieces: Horse A1, Pawn A2, Pawn A3, Catapult A5, Guard D10, Chariot E5, King E10")
    end
  end
end)

test("extraction: boxes, isolated letters, full-width, lowercase, empty", function()
  local cases = {
    { "I think <box>B</box>. No wait, <box>C</box>", "C", "box" },
    { "答案是<box>Ｄ</box>", "D", "box" },
    { "<box> c </box>", "C", "box" },
    { "<BOX>E：以上选项都不对</BOX>", "E", "box" },
    { "The answer is D.", "D", "letter" },
    { "Between A and B, I pick B", "B", "letter" },
    { "选Ｃ", "C", "letter" },
    { "CAB DEB are words; answer: a", nil, "none" },
    { "", nil, "empty" },
    { "   \n ", nil, "empty" },
    { "<box>X</box> then A", "A", "letter" },
  }
  for _, c in ipairs(cases) do
    local l, how = jh.extract(c[1])
    t.eq({ l, how }, { c[2], c[3] }, c[1])
  end
end)

-- a hedge names two letters: no answer, never its first (or last) letter, unless the
-- reference's literal reading is asked for
test("extraction: a hedged answer (<box>A, C</box>, \"A or C\") is no answer", function()
  local cases = {
    { "<box>A, C</box>", nil, "hedged", "C" },
    { "<box>A or C</box>", nil, "hedged", "C" },
    { "<box>B/D</box>", nil, "hedged", "D" },
    { "答案是<box>Ａ、Ｃ</box>", nil, "hedged", "C" },
    { "<box>a, C</box>", nil, "hedged", "C" },
    { "I would say A or C.", nil, "hedged", "C" },
    { "The answer is A或C", nil, "hedged", "C" },
    { "Either B and D", nil, "hedged", "D" },
    { "<box>A, C</box> on reflection <box>C</box>", "C", "box", "C" },
    { "<box>C (the quiet move)</box>", "C", "box", "C" },
    { "<box>C: 炮B7 B10+</box>", "C", "box", "C" },
    { "A looks tempting, but the answer is C", "C", "letter", "C" },
    { "A or C? Neither: E", "E", "letter", "E" },
  }
  for _, c in ipairs(cases) do
    t.eq({ jh.extract(c[1]) }, { c[2], c[3] }, c[1])
    t.eq((jh.extract(c[1], "last-letter")), c[4], c[1] .. " (--hedged last-letter)")
  end
end)

-- the hedge family (issue 43): two letters joined by any short connective, with
-- filler words between, in English or Chinese, inside or outside the answer box,
-- is no answer; a letter after a rejection or an explanation is still the answer
test("extraction: letters joined by a short connective in either language are a hedge, in or out of the box", function()
  local hedges = {
    "选项A和选项C都可以",
    "选项A和选项C都可以。",
    "我觉得选项B或者选项D",
    "答案是A还是C，难以决定",
    "A与C都对",
    "A跟C都可以",
    "答案：A以及C",
    "选A或选C",
    "Options A and C both work",
    "option A and/or option C",
    "I'd pick A or maybe C",
    "either A or else C",
    "A as well as C",
    "A (or perhaps C)",
    "A + C",
    "<box>选项A和选项C都可以</box>",
    "<box>A和C</box>",
    "<box>Ａ或Ｃ</box>",
    "<box>A and/or C</box>",
    "<box>option B or option D</box>",
  }
  for _, text in ipairs(hedges) do
    t.eq({ jh.extract(text) }, { nil, "hedged" }, text)
  end
  local answers = {
    { "选项A不行，选项C可以", "C" },
    { "A看似可行，但答案是C", "C" },
    { "Not A; the answer is C", "C" },
    { "A fails, so C", "C" },
    { "A loses the chariot. C wins", "C" },
    { "A or C? Neither: E", "E" },
    { "A。C", "C" },
    { "<box>C</box> (A and C looked alike)", "C" },
    { "选项A和选项C都可以, 但最好是<box>C</box>", "C" },
    { "A or order C", "C" },
  }
  for _, c in ipairs(answers) do
    t.eq((jh.extract(c[1])), c[2], c[1])
  end
end)

local function run_mock(extra, rules)
  local mock = require "tests.mock"
  local s = mock.start(rules)
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return { mock = { provider = "%s", model = "m",
    base_url = %q, optional_key = true, prices = { input = 1, output = 1 } } }]], extra.provider or "openai-chat",
    s.url .. (extra.provider == "gemini" and "/v1beta" or "/v1")))
  local args = { "--model", "mock", "--models", dir .. "/models.lua", "--data", data_file(), "--ids", "1,2,3,106",
    "--out", dir .. "/run", "--quiet" }
  for _, a in ipairs(extra.args or {}) do args[#args + 1] = a end
  local ok, err = pcall(t.run_scenario, "scenarios/jianghu108.lua", args)
  if not ok then s:close(); error(err, 0) end
  local recs = records.read(dir .. "/run/trials.jsonl")
  local log = s:log()
  s:close()
  return recs, log, dir
end

test("a scripted run through the mock server scores a known set of answers", function()
  local problems = jh.load(data_file())
  local answers = {}
  for _, p in ipairs(problems) do answers[tostring(p.id)] = p.correctAnswer end
  -- problem 1 right in a box, 2 wrong, 3 right as a bare letter, 106 without an answer
  local rules = {
    { match = "車B1 炮B4 炮B7 帥F2 兵F9", reply = "<box>" .. answers["1"] .. "</box>" },
    { match = problems[2].Red, reply = "<box>" .. (answers["2"] == "A" and "B" or "A") .. "</box>" },
    { match = problems[3].Red, reply = "I choose " .. answers["3"] .. "." },
    { reply = "I cannot tell." },
  }
  local recs = run_mock({}, rules)
  t.eq(#recs, 4)
  local by = {}
  for _, r in ipairs(recs) do by[tostring(r.problem_id)] = r end
  t.eq({ by["1"].correct, by["1"].extraction }, { true, "box" })
  t.eq({ by["2"].correct, by["2"].extraction }, { false, "box" })
  t.eq({ by["3"].correct, by["3"].extraction }, { true, "letter" })
  t.eq({ by["106"].correct, by["106"].extraction, by["106"].reason }, { false, "none", "no_answer" })
  t.eq(by["106"].findings, { "problem 106 option D: check mark: gives check but has no +" })
  t.eq(by["1"].reply, "<box>" .. answers["1"] .. "</box>")
end)

test("the reference's run defaults: thinking on with 131072 output tokens; --no-think sends no limit", function()
  local _, log = run_mock({ args = { "--ids", "1" } }, { { reply = "<box>C</box>" } })
  t.contains(log[1].body, 'tokens":131072')
  t.contains(log[1].body, '"enable_thinking":true')
  _, log = run_mock({ args = { "--ids", "1", "--no-think" } }, { { reply = "<box>C</box>" } })
  t.eq(log[1].body:find("tokens\":", 1, true), nil)
  t.contains(log[1].body, '"enable_thinking":false')
  _, log = run_mock({ args = { "--ids", "1", "--max-tokens", "8000" } }, { { reply = "<box>C</box>" } })
  t.contains(log[1].body, 'tokens":8000')
end)

test("with --vision the image reaches the server in the provider's format", function()
  for _, provider in ipairs({ "openai", "openai-chat", "gemini" }) do
    local recs, log = run_mock({ provider = provider, args = { "--vision", "--ids", "1", "--image-detail", "high" } },
      { { reply = "<box>C</box>" } })
    t.eq(#recs, 1)
    t.ok(recs[1].image_sha256, "the record names the image")
    local body = log[1].body
    if provider == "openai" then
      t.contains(body, '"detail":"high"')
      t.contains(body, '"image_url":"data:image/png;base64,iVBORw0KGgo')
    elseif provider == "openai-chat" then
      t.contains(body, '"detail":"high"')
      t.contains(body, '"url":"data:image/png;base64,iVBORw0KGgo')
    else
      t.contains(body, '"inline_data":{"data":"iVBORw0KGgo')
    end
    t.contains(body, "红方棋子：車B1 炮B4 炮B7 帥F2 兵F9")
  end
end)

test("the picture: size, a red piece's disc, the river text, an arrow's colour", function()
  local image = require "tabula.c.image"
  local p = jh.load(data_file())[1]
  local png = assert(jh.image(p))
  t.eq(png:sub(1, 8), "\137PNG\r\n\26\n")
  local px = assert(image.load_png(png))
  t.eq({ px:size() }, { 792, 870 })
  local g = image.geometry({ width = 792, height = 870 })
  local function at(file, rank, dx, dy)   -- file 0..8, rank 0..9 (Red's back rank 0)
    return px:pixel(math.floor(g.x0 + file * g.cell + (dx or 0) + 0.5), math.floor(g.y0 + (9 - rank) * g.cell + (dy or 0) + 0.5))
  end
  -- the Red general on F2 (file 5, rank 1): the disc's red ring
  local r, gg, b = at(5, 1, g.radius - 1, 0)
  t.ok(r > 150 and gg < 80 and b < 80, string.format("red ring, got %d,%d,%d", r, gg, b))
  -- inside the disc, away from the character: the light wood colour
  r, gg, b = at(5, 1, 0, g.radius * 0.9)
  t.ok(r > 200 and gg > 180, string.format("disc, got %d,%d,%d", r, gg, b))
  -- the river: between ranks 4 and 5, some dark text pixels under 楚河 (files b-c)
  local dark = 0
  for x = math.floor(g.x0 + 1.3 * g.cell), math.floor(g.x0 + 2.7 * g.cell) do
    for y = math.floor(g.y0 + 4.2 * g.cell), math.floor(g.y0 + 4.8 * g.cell) do
      local rr, g2, b2 = px:pixel(x, y)
      if rr < 100 and g2 < 100 and b2 < 100 then dark = dark + 1 end
    end
  end
  t.ok(dark > 100, "river text drawn (" .. dark .. " dark pixels)")
  -- arrow B (blue) from B4 to E4 curves below the rank: somewhere between C and D, a blue pixel
  local blue = 0
  for x = math.floor(g.x0 + 2 * g.cell), math.floor(g.x0 + 3 * g.cell) do
    for y = math.floor(g.y0 + 6 * g.cell), math.floor(g.y0 + 6.6 * g.cell) do
      local rr, g2, b2 = px:pixel(x, y)
      if b2 > 150 and rr < 100 then blue = blue + 1 end
    end
  end
  t.ok(blue > 30, "arrow B is blue (" .. blue .. " blue pixels)")
end)

-- the distance from (x, y) to an arrow's shaft, sampled on its own here
local function shaft_distance(a, x, y)
  local best = math.huge
  local px, py
  for k = 0, 400 do
    local t = k / 400
    local u = 1 - t
    local qx = u * u * a.sx + 2 * u * t * a.cx + t * t * a.ex
    local qy = u * u * a.sy + 2 * u * t * a.cy + t * t * a.ey
    if px then
      local vx, vy = qx - px, qy - py
      local l2 = vx * vx + vy * vy
      local s = l2 > 0 and math.max(0, math.min(1, ((x - px) * vx + (y - py) * vy) / l2)) or 0
      best = math.min(best, math.sqrt((x - px - s * vx) ^ 2 + (y - py - s * vy) ^ 2))
    end
    px, py = qx, qy
  end
  return best
end

test("the option letters on all 108 boards: off the pieces and each other, nearest to their own arrows and their own pieces", function()
  local image = require "tabula.c.image"
  local problems = jh.load(data_file())
  local g = image.geometry({ width = 792, height = 870 })
  local bad, shared = {}, 0
  for _, p in ipairs(problems) do
    local pic = jh.picture(p)
    local paths, half = image.layout(pic)
    t.eq(#paths, 4, "four arrows in problem " .. p.id)
    local starts = {}
    for _, a in ipairs(pic.arrows) do starts[a.from] = (starts[a.from] or 0) + 1 end
    for _, n in pairs(starts) do if n > 1 then shared = shared + 1; break end end
    for i, a in ipairs(paths) do
      local letter = pic.arrows[i].label
      local function box_dist(x, y)
        local dx, dy = math.max(0, math.abs(x - a.lx) - half), math.max(0, math.abs(y - a.ly) - half)
        return math.sqrt(dx * dx + dy * dy)
      end
      for _, pc in ipairs(pic.pieces) do
        local f, r = pc.square:byte(1) - 96, tonumber(pc.square:sub(2))
        local x, y = g.x0 + (f - 1) * g.cell, g.y0 + (9 - r) * g.cell
        if box_dist(x, y) < g.radius + 1.5 then
          bad[#bad + 1] = string.format("problem %s: %s over the piece on %s", p.id, letter, pc.square)
        end
      end
      local own = shaft_distance(a, a.lx, a.ly)
      for j, b in ipairs(paths) do
        if j ~= i then
          if math.abs(a.lx - b.lx) < 2 * half and math.abs(a.ly - b.ly) < 2 * half then
            bad[#bad + 1] = string.format("problem %s: %s and %s overlap", p.id, letter, pic.arrows[j].label)
          end
          if shaft_distance(b, a.lx, a.ly) <= own then
            bad[#bad + 1] = string.format("problem %s: %s is as near to arrow %s as to its own", p.id, letter, pic.arrows[j].label)
          end
        end
      end
      -- next to its own start: within two and a half cells of the moving piece
      local f, r = pic.arrows[i].from:byte(1) - 96, tonumber(pic.arrows[i].from:sub(2))
      local x, y = g.x0 + (f - 1) * g.cell, g.y0 + (9 - r) * g.cell
      local to_own = math.sqrt((a.lx - x) ^ 2 + (a.ly - y) ^ 2)
      if to_own > 2.5 * g.cell then
        bad[#bad + 1] = string.format("problem %s: %s is far from its piece", p.id, letter)
      end
      -- and nearer its own arrow's start than any other piece (problem 40's C once sat
      -- under a soldier with no arrow, 71's B beside the Black general)
      for _, pc in ipairs(pic.pieces) do
        if pc.square ~= pic.arrows[i].from then
          local pf, pr = pc.square:byte(1) - 96, tonumber(pc.square:sub(2))
          local px, py = g.x0 + (pf - 1) * g.cell, g.y0 + (9 - pr) * g.cell
          if math.sqrt((a.lx - px) ^ 2 + (a.ly - py) ^ 2) < to_own - 0.5 then
            bad[#bad + 1] = string.format("problem %s: %s is nearer the piece on %s than its own on %s", p.id, letter, pc.square, pic.arrows[i].from)
          end
        end
      end
    end
  end
  t.eq(shared, 87, "problems where several options start from one piece")
  t.eq(bad, {})
end)

test("the picture has the cannon and soldier position marks", function()
  local image = require "tabula.c.image"
  local px = assert(image.load_png(assert(image.render_xiangqi({ width = 792, height = 870, pieces = {}, arrows = {} }))))
  local g = image.geometry({ width = 792, height = 870 })
  local function dark_near(file, rank, sx, sy)   -- a mark's corner pixel in one quadrant
    local x = g.x0 + file * g.cell + sx * (g.cell * 0.07 + g.cell * 0.08)
    local y = g.y0 + (9 - rank) * g.cell + sy * g.cell * 0.07
    local r = px:pixel(math.floor(x + 0.5), math.floor(y + 0.5))
    return r < 120
  end
  -- cannon points b3/h3 and b8/h8 (files 1, 7; ranks 2, 7): marks in all four quadrants
  for _, pt in ipairs({ { 1, 2 }, { 7, 2 }, { 1, 7 }, { 7, 7 } }) do
    for _, q in ipairs({ { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } }) do
      t.ok(dark_near(pt[1], pt[2], q[1], q[2]), string.format("mark at %d,%d quadrant %d,%d", pt[1], pt[2], q[1], q[2]))
    end
  end
  -- soldier points on the edge have marks only on the inner side
  t.ok(dark_near(0, 3, 1, 1), "mark right of a4")
  t.ok(not dark_near(0, 3, -1, 1), "no mark left of a4")
  -- an ordinary point (c2) has none
  t.ok(not dark_near(2, 1, 1, 1), "no mark at c2")
end)

test("the engine player's E rule per circumstance", function()
  local player = require "scenarios.jianghu108.engine"
  -- win: E only when the search's own move is elsewhere and clearly better
  t.eq({ player.decide("win", { A = 100, B = 300, C = -50 }, { move = "a0a1", score = 300 + player.WIN_MARGIN }) },
    { "E", "the search's own move is clearly better than every option" })
  t.eq((player.decide("win", { A = 100, B = 300 }, { move = "a0a1", score = 300 + player.WIN_MARGIN - 1 })), "B")
  t.eq((player.decide("win", { A = 100, B = 300 }, { move = "b0b1", letter = "B", score = 2000 })), "B", "its move is an option")
  t.eq((player.decide("win", { A = -900, B = -400 }, { move = "b0b1", letter = "B", score = -400 })), "B", "no E for a low score alone")
  -- draw: E only when every option loses by force and the search's move is elsewhere
  t.eq({ player.decide("draw", { A = -29990, B = -29995 }, { move = "a0a1", score = 0 }) }, { "E", "every option loses by force" })
  t.eq((player.decide("draw", { A = -29990, B = -500 }, { move = "a0a1", score = 0 })), "B")
  t.eq((player.decide("draw", { A = -29990, B = -29995 }, { move = "a0a2", letter = "A", score = -29990 })), "A")
  t.eq((player.decide("draw", {}, { score = 0 })), "E", "no legal option")
end)

test("the engine player judges every option: right on most of a sample the old mate-or-E rule missed", function()
  local path = t.need_shared("jianghu108") .. "/江湖残局.json"
  local player = require "scenarios.jianghu108.engine"
  local jh = require "games.xiangqi.jianghu"
  -- won problems without a short mate (the old player answered E), drawn ones
  -- whose options all lose but one, and two whose answer is E
  local sample = { [7] = true, [11] = true, [24] = true, [100] = true, [42] = true, [5] = true }
  local right, seen = 0, 0
  for _, p in ipairs(jh.load(path)) do
    if sample[p.id] then
      seen = seen + 1
      local letter, detail = player.choose(p)
      t.ok(detail.rule ~= nil)
      if letter == p.correctAnswer then right = right + 1 end
    end
  end
  t.eq(seen, 6)
  t.ok(right >= 5, right .. " of 6 right")
end)

-- The built-in player's published figure comes from the same run as Fairy-Stockfish's:
-- bench/jianghu108_reference.sh ends with one line giving both (here on two problems)
test("bench/jianghu108_reference.sh prints the built-in player's figure beside Fairy-Stockfish's from one run", function()
  local data = data_file()
  t.need_program("/usr/games/fairy-stockfish")
  local d = json.read_file(data)
  local dir = t.tmpdir()
  local two = { problems = { d.problems[1], d.problems[2] } }
  fs.write_atomic(dir .. "/two.json", json.encode(two))
  local player = require "scenarios.jianghu108.engine"
  local right = 0
  for _, p in ipairs(jh.load(dir .. "/two.json")) do if player.choose(p) == p.correctAnswer then right = right + 1 end end
  local out = t.sh(string.format("cd %q && DATA=%q TABULA=%q bench/jianghu108_reference.sh 4", t.root(), dir .. "/two.json", t.tabula_bin()))
  t.contains(out, "rc=0")
  local mine, ref = out:match("built%-in player: (%d+)/2; fairy%-stockfish depth 4: (%d+)/2 %(same run%)")
  t.ok(mine, "the summary line: " .. out)
  t.eq(tonumber(mine), right, "the built-in figure is the player's own answers")
  t.ok(tonumber(ref) <= 2)
end)

return T
