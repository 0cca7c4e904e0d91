-- report.html: the SVG boards, escaping, no external references, and the page
-- in a real browser (headless Chromium: the trial list, one board per ply,
-- the transcript, the scrubber, model text shown as text).
local t = require "tabula.testing"
local fs = require "tabula.fs"
local records = require "tabula.records"
local board = require "tabula.view.board"
local html = require "tabula.view.html"
local test, T = t.suite()

local CHROMIUM = "/usr/bin/chromium"
local XQ_START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
local CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

-- a reply that tries to run code in the viewer
local XSS = "<script>document.title='pwned'</script><img src=x onerror=\"document.title='pwned'\"> Let me check a line."

local tmpdir = t.tmpdir

local function count(s, piece)
  local n, i = 0, 1
  while true do
    local a, b = s:find(piece, i, true)
    if not a then return n end
    n, i = n + 1, b + 1
  end
end

-- a small real XiangqiBench run whose replies simulate, play an illegal move,
-- forget the command, carry markup, then mate (case tabula_0001, mate in 3)
local function xiangqi_run()
  local dir = tmpdir()
  local replies = { XSS .. "\n```bash\nsimulate b5c5 d9e8 c5d5\n```", "```bash\nmove a0a1\n```",
    "I am thinking without a command.", "```bash\nmove b5c5\n```", "```bash\nmove c5d5\n```" }
  local f = assert(io.open(dir .. "/replay.jsonl", "w"))
  for _, r in ipairs(replies) do f:write(require("tabula.json").encode({ text = r }), "\n") end
  f:close()
  t.run_scenario("scenarios/xiangqibench.lua", { "--model", "replay:" .. dir .. "/replay.jsonl", "--trials", "1",
    "--ids", "tabula_0001", "--out", dir .. "/run", "--quiet" })
  local h = io.popen(t.tabula_bin() .. " report " .. dir .. "/run 2>&1; echo rc=$?")
  local out = h:read("a"); h:close()
  t.contains(out, "report.html", "tabula report names report.html")
  t.contains(out, "rc=0")
  return dir .. "/run", fs.read(dir .. "/run/report.html")
end

local cached_run, cached_html
local function run_once()
  if not cached_run then cached_run, cached_html = xiangqi_run() end
  return cached_run, cached_html
end

test("view: a Xiangqi board places every piece of the FEN, once each", function()
  local svg = board.svg({ game = "xiangqi", fen = XQ_START, arrows = { { move = "h2e2", kind = "agent" } } })
  t.eq(count(svg, '<use href="#xq-') - 1, 32, "pieces (besides the grid)")
  t.eq(count(svg, 'href="#xq-K"'), 1)
  t.eq(count(svg, 'href="#xq-k"'), 1)
  t.eq(count(svg, 'class="arrow agent"'), 1)
  local svg2 = board.svg({ game = "chess", fen = CHESS_START, arrows = { { move = "e2e4", kind = "defender" }, { move = "z9z9" } } })
  t.eq(count(svg2, '<use href="#ch-') - 1, 32)
  t.eq(count(svg2, 'class="arrow'), 1, "an arrow off the board is left out")
  local defs = board.defs()
  t.contains(defs, 'id="xq-grid"'); t.contains(defs, 'id="ch-grid"'); t.contains(defs, "帥"); t.contains(defs, "♞")
end)

test("view: the text panel and HTML helpers escape what they are given", function()
  local svg = board.svg({ game = "text", text = "<script>x</script>\nline 2" })
  t.ok(not svg:find("<script>", 1, true), "no raw markup in a text panel")
  t.contains(svg, "&lt;script&gt;x&lt;/script&gt;")
  t.eq(html.esc([[<a href="x">'&']]), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;")
  t.eq(html.str(html.tag("b", { title = '"' }, "<i>")), '<b title="&quot;">&lt;i&gt;</b>')
end)

test("view: report.html of a XiangqiBench run holds every part, model text escaped", function()
  local dir, page = run_once()
  local recs = records.read(dir .. "/trials.jsonl")
  t.eq(#recs, 1)
  t.eq(count(page, '<tr class="trow'), #recs, "one list row per trial")
  t.eq(count(page, '<template id="tv-'), #recs, "one trial view per trial")
  t.eq(count(page, '<figure class="frame'), #recs[1].moves + 1, "one board per ply, and the start")
  t.eq(count(page, "<script"), 1, "the viewer's own script only")
  t.contains(page, "&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;&lt;img src=x onerror=")
  t.contains(page, 'class="arrow sim"', "the simulated line is drawn")
  t.contains(page, 'class="arrow illegal"', "the illegal move is drawn")
  t.contains(page, '<span class="badge">illegal</span>')
  t.contains(page, '<span class="badge">no command</span>')
  t.contains(page, "pass@k (solid)")
end)

test("view: report.html references nothing outside itself", function()
  local _, page = run_once()
  t.ok(not page:find("https?://"), "no http(s) address")
  t.ok(not page:find("@import", 1, true), "no CSS import")
  -- text is escaped, so every "<" opens one of the page's own elements
  local tags = 0
  for tag in page:gmatch("<%a[^>]*>") do
    tags = tags + 1
    t.ok(not tag:find("%ssrc%s*="), "a src attribute: " .. tag)
    for v in tag:gmatch('%shref="([^"]*)"') do t.eq(v:sub(1, 1), "#", "href in " .. tag) end
  end
  t.ok(tags > 100, "the page was scanned")
  for v in page:gmatch("url%(([^)]*)%)") do t.eq(v:sub(1, 1), "#", "url(" .. v .. ")") end
end)

-- chromium(args, url) -> stdout, stderr
local function chromium(args, url)
  local err = os.tmpname()
  local h = io.popen(string.format("%s --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 %s '%s' 2>%s",
    CHROMIUM, args, url, err))
  local out = h:read("a"); h:close()
  local e = fs.read(err) or ""
  os.remove(err)
  return out, e
end

local function unescape(s)
  return (s:gsub("&lt;", "<"):gsub("&gt;", ">"):gsub("&quot;", '"'):gsub("&amp;", "&"))
end

test("view: in Chromium the trial view has a board per ply, the transcript, a working scrubber and inert model text", function()
  t.need_program(CHROMIUM)
  local dir = run_once()
  local rec = records.read(dir .. "/trials.jsonl")[1]
  local url = "file://" .. dir .. "/report.html#selftest=" .. rec.trial_id:gsub("/", "%%2F")
  local dom, log = chromium("--dump-dom", url)
  t.ok(not log:find(":CONSOLE", 1, true), "console messages: " .. (log:match("[^\n]*:CONSOLE[^\n]*") or ""))
  local res = require("tabula.json").decode(unescape(assert(dom:match('<pre id="selftest%-result">(.-)</pre>'), "the self-test ran")))
  t.eq(res.errors, {}, "script errors")
  t.eq(res.rows, 1, "trial list rows")
  t.ok(res.opened, "the trial view opened")
  local view = assert(dom:match('<section id="view">(.-)</section>'), "the view section")
  t.eq(count(view, '<svg class="board xiangqi"'), #rec.moves + 1, "boards in the open trial view")
  t.eq(res.frames, #rec.moves + 1)
  -- system, first message, and per action the reply and (when given) the feedback
  local want = 2
  for _, a in ipairs(rec.actions) do want = want + 1 + (a.feedback and 1 or 0) end
  t.eq(count(view, 'class="msg '), want, "transcript messages")
  t.eq(fs.kind(dir .. "/transcripts/trials.jsonl"), "file", "the run recorded its transcript")
  t.eq(count(view, "assistant · call "), #rec.actions, "the replies come from the recorded transcript")
  t.contains(view, '<span class="badge">illegal</span>', "the illegal move's reply is marked")
  t.eq(res.key, { before = 0, after = 1, changed = true }, "the right-arrow key moves to the next board")
  t.eq(res.button, { before = 1, after = 2, changed = true }, "the next button moves to the next board")
  t.eq(res.home, 0)
  t.eq(res.filter, { value = rec.status, shown = 1 }, "filtering the list by outcome")
  t.eq(res.search, 1, "searching the list by trial id")
  t.ok(res.latin, "the Latin-letter switch changes the pieces")
  t.ok(res.title_kept, "a reply's script did not run")
  t.eq(res.transcript_imgs, 0, "no element made from a reply")
  t.contains(view, "&lt;script&gt;document.title=")
  t.contains(view, "&lt;img src=x onerror=")
  local png = dir .. "/overview.png"
  chromium(string.format("--hide-scrollbars --window-size=1200,900 --screenshot=%s", png), "file://" .. dir .. "/report.html")
  local data = fs.read(png) or ""
  os.remove(png)
  t.eq(data:sub(2, 4), "PNG", "a screenshot of the overview")
  t.ok(#data > 20000, "the screenshot shows something (" .. #data .. " bytes)")
end)

test("view: tabula compare writes compare.html linking each flipped trial to both trial views", function()
  local dir = tmpdir()
  for _, m in ipairs({ "engine", "random" }) do
    t.run_scenario("scenarios/xiangqibench.lua", { "--model", m, "--trials", "1", "--limit", "2", "--out", dir .. "/" .. m, "--quiet" })
  end
  local h = io.popen(string.format("cd %s && %s compare engine random 2>&1; echo rc=$?", dir, t.tabula_bin()))
  local out = h:read("a"); h:close()
  t.contains(out, "rc=0")
  t.contains(out, "wrote engine/compare.html")
  local page = fs.read(dir .. "/engine/compare.html")
  local res = require("tabula.compare").runs({ dir .. "/engine", dir .. "/random" })
  local flips = res.comparisons[1].flipped.to_failure
  t.ok(#flips > 0, "the random player lost some trial the engine won")
  t.contains(page, string.format("Success in A, failure in B (%d)", #flips))
  for _, id in ipairs(flips) do
    for run, rel in pairs({ engine = "report.html", random = "../random/report.html" }) do
      local href = string.format('href="%s#trial=%s"', rel, id)
      t.ok(page:find(href, 1, true), "a link to the trial view: " .. href)
      t.ok(fs.read(dir .. "/" .. run .. "/report.html"):find('data-id="' .. id .. '"', 1, true), "the linked trial view exists: " .. run)
    end
  end
  t.eq(count(page, "<script"), 1)
end)

test("view: the chess puzzles' report.html plays the puzzle line with the model's moves and the missed solution", function()
  local json = require "tabula.json"
  local dir = tmpdir()
  local fen = "r3k2r/pppn1pp1/3bpn2/7p/3P1P2/2N4q/PPP1B3/R1BQNRK1 w kq - 0 13"
  fs.write_atomic(dir .. "/p.jsonl", json.canonical({ PuzzleId = "p1", FEN = fen, Moves = { "e1g2", "f6g4", "e2g4", "h5g4" }, Rating = 1329 })
    .. "\n" .. json.canonical({ PuzzleId = "p3", FEN = fen, Moves = { "e1g2", "f6g4", "e2g4", "h5g4" }, Rating = 2100 }) .. "\n")
  local ans = function(m) return "<answer><move>" .. m .. "</move></answer>" end
  fs.write_atomic(dir .. "/r.jsonl", json.canonical({ key = "p1/1", text = ans("f6g4") }) .. "\n"
    .. json.canonical({ key = "p1/1", text = ans("h5g4") }) .. "\n" .. json.canonical({ key = "p3/1", text = ans("h3h1") }) .. "\n")
  t.run_scenario("scenarios/chess_puzzles.lua", { "--puzzles", dir .. "/p.jsonl", "--model", "replay:" .. dir .. "/r.jsonl",
    "--out", dir .. "/run", "--quiet" })
  local s = require("tabula.cmd.run").lib.load(t.root() .. "/scenarios/chess_puzzles.lua")
  local page = require("tabula.view").build(dir .. "/run", s)
  t.contains(page, "PSA by band")
  local views = {}
  for id, body in page:gmatch('<template id="tv%-%d+"><div class="tv" data%-trial="([^"]+)"(.-)</template>') do views[id] = body end
  -- p1: start, setup move, f6g4, the reply e2g4, h5g4 (mate)
  t.eq(count(views["p1/1"], '<figure class="frame'), 5)
  t.eq(count(views["p1/1"], 'class="arrow agent"'), 2)
  -- p3: start, setup move, the wrong h3h1 with the solution f6g4 beside it
  t.eq(count(views["p3/1"], '<figure class="frame'), 3)
  t.eq(count(views["p3/1"], 'class="arrow hint"'), 1)
  t.contains(views["p3/1"], '<span class="badge">wrong</span>')
end)

test("view: Jianghu108's trial view draws the problem with the correct and the chosen option", function()
  local data = t.need_shared("jianghu108/江湖残局.json")
  local dir = tmpdir()
  t.run_scenario("scenarios/jianghu108.lua", { "--data", data, "--ids", "1,2", "--out", dir .. "/run", "--quiet" })
  local s = require("tabula.cmd.run").lib.load(t.root() .. "/scenarios/jianghu108.lua")
  local page = require("tabula.view").build(dir .. "/run", s)
  t.contains(page, "letters chosen against correct answers")
  t.contains(page, "accuracy by circumstance and answer")
  local recs = records.read(dir .. "/run/trials.jsonl")
  t.eq(count(page, '<svg class="board xiangqi"'), #recs, "one board per problem")
  local wrong = 0
  for _, r in ipairs(recs) do if r.extracted ~= r.answer and r.extracted ~= "E" then wrong = wrong + 1 end end
  t.eq(count(page, 'class="arrow agent"'), wrong, "the chosen option is drawn when it is wrong")
end)

test("view: the understanding view rings the square and tells right moves from wrong ones", function()
  local tv = require("games.chess.tasks_view").understanding.trial({ fen = CHESS_START, square = "g1", kind = "normal",
    truth = { piece = "N", legal_moves = { "g1f3", "g1h3" } }, answer = { piece = "N", legal_moves = { "g1f3", "g1e2" } },
    reply = "<b>", status = "failure" })
  local svg = board.svg(tv.frames[1].board)
  t.eq(count(svg, 'class="arrow hint"'), 2)
  t.eq(count(svg, 'class="arrow agent"'), 1)
  t.eq(count(svg, 'class="arrow illegal"'), 1)
  t.contains(svg, 'stroke="#2e7d32" stroke-width="3"', "the ring")
  t.eq(tv.messages[1].mark, "wrong")
end)

test("view: a scenario without S.view still gets a page: its records as text, a text panel for the board", function()
  local dir = tmpdir()
  local json = require "tabula.json"
  fs.write_atomic(dir .. "/run.json", json.encode({ scenario = "newgame", model = { name = "m" } }))
  fs.write_atomic(dir .. "/trials.jsonl", json.canonical({ trial_id = "t1", status = "failure", reason = "x", note = "<b>hi</b>" }) .. "\n")
  local page = require("tabula.view").build(dir, { name = "newgame" })
  t.eq(count(page, '<tr class="trow'), 1)
  t.contains(page, '<svg class="board text"')
  t.contains(page, "&lt;b&gt;hi&lt;/b&gt;", "the record, escaped")
end)

test("view: an arena's report.html has the leaderboard, the rating plot and a board per ply of each game", function()
  t.need_program("/usr/games/stockfish")
  local dir = tmpdir() .. "/arena"
  t.run_scenario("scenarios/chessarena.lua", { "--arena", dir, "--players", "random,stockfish:depth=1", "--games", "2",
    "--max-moves", "6", "--quiet" })
  local h = io.popen(t.tabula_bin() .. " report " .. dir .. " 2>&1; echo rc=$?")
  local out = h:read("a"); h:close()
  t.contains(out, "rc=0")
  local page = fs.read(dir .. "/report.html")
  local games = records.read(dir .. "/games.jsonl")
  t.eq(#games, 2)
  t.contains(page, "Leaderboard (Glicko-1")
  t.contains(page, "rating with its 95% band")
  t.eq(count(page, '<tr class="trow'), 2, "one row per game")
  local plies = 0
  for _, g in ipairs(games) do plies = plies + #g.moves + 1 end
  t.eq(count(page, '<figure class="frame'), plies, "a board per ply of every game, and the start")
  if not fs.kind(CHROMIUM) then return end
  local dom, log = chromium("--dump-dom", "file://" .. dir .. "/report.html#selftest=" .. games[2].game_id)
  t.ok(not log:find(":CONSOLE", 1, true), "console messages: " .. (log:match("[^\n]*:CONSOLE[^\n]*") or ""))
  local res = require("tabula.json").decode(unescape(assert(dom:match('<pre id="selftest%-result">(.-)</pre>'))))
  t.eq(res.frames, #games[2].moves + 1)
  t.eq(res.key.changed, true, "the scrubber moves through the game")
  t.eq(res.rows, 2)
  t.eq(res.search, 1, "searching by game id")
  t.eq(res.sorted_desc, { games[2].game_id, games[1].game_id }, "sorting by the first column, descending")
  local want = 0
  for _, g in ipairs(games) do if g.result == res.filter.value then want = want + 1 end end
  t.eq(res.filter.shown, want, "filtering by result")
end)

return T
