-- report.html: the SVG boards, escaping, no external references, and the page
-- in a real browser (headless Chromium: the trial list, one board per ply,
-- the transcript, the scrubber, model text shown as text).
-- slow: every report page is opened in headless Chromium (one browser for the file) after real runs of each scenario (left out by make check)
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
    t.ok(not tag:find("%ssrc%s*=") or tag:find('%ssrc="data:image/png;base64,'), "a src attribute: " .. tag)
    for v in tag:gmatch('%shref="([^"]*)"') do t.eq(v:sub(1, 1), "#", "href in " .. tag) end
  end
  t.ok(tags > 100, "the page was scanned")
  for v in page:gmatch("url%(([^)]*)%)") do t.eq(v:sub(1, 1), "#", "url(" .. v .. ")") end
end)

-- The pages open in the file's one headless Chromium (testing.browser, driven
-- over the DevTools protocol), not a browser per page.
-- open_page(url [, w, h]) -> a page of w x h (1400 x 1000) that has loaded url
local function open_page(url, w, h) return t.browser():open(url, { width = w or 1400, height = h or 1000 }) end

-- selftest_dom(url) -> the document once the viewer's self-test has written its
-- result, and what the page logged (console calls, uncaught errors)
local function selftest_dom(url)
  local page = open_page(url)
  page:wait("!!document.getElementById('selftest-result')")
  local dom, console = page:dom(), page.console
  page:close()
  return dom, console
end

-- screenshot(url, png, w, h): a PNG of the page as it loaded
local function screenshot(url, png, w, h)
  local page = open_page(url, w, h)
  page:screenshot(png)
  page:close()
end

local function unescape(s)
  return (s:gsub("&lt;", "<"):gsub("&gt;", ">"):gsub("&quot;", '"'):gsub("&amp;", "&"))
end

test("view: in Chromium the trial view has a board per ply, the transcript, a working scrubber and inert model text", function()
  t.need_browser()
  local dir = run_once()
  local rec = records.read(dir .. "/trials.jsonl")[1]
  local url = "file://" .. dir .. "/report.html#selftest=" .. rec.trial_id:gsub("/", "%%2F")
  local dom, console = selftest_dom(url)
  t.eq(console, {}, "console messages")
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
  screenshot("file://" .. dir .. "/report.html", png, 1200, 900)
  local data = fs.read(png) or ""
  os.remove(png)
  t.eq(data:sub(2, 4), "PNG", "a screenshot of the overview")
  t.ok(#data > 20000, "the screenshot shows something (" .. #data .. " bytes)")
end)

test("view: tabula compare writes compare.html linking each flipped trial to both trial views", function()
  local dir = tmpdir()
  for _, m in ipairs({ "engine", "random" }) do
    t.run_scenario("scenarios/xiangqibench.lua", { "--model", m, "--trials", "1", "--limit", "2", "--defender-nodes", "3000",
      "--out", dir .. "/" .. m, "--quiet" })
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
  local tv = require("scenarios.chessarena.tasks_view").understanding.trial({ fen = CHESS_START, square = "g1", kind = "normal",
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
  local dom, console = selftest_dom("file://" .. dir .. "/report.html#selftest=" .. games[2].game_id)
  t.eq(console, {}, "console messages")
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

-- the pages of every scenario in Chromium: the viewer's self-test on one trial
-- (no console or script error, every trial listed, no two labels of a plot
-- overlapping, each frame's board holding what its position holds, the images
-- the model was sent decoded, model text inert), and screenshots of the overview
-- and of that trial view (in $TABULA_SCREENSHOTS, else a temporary folder)
local json = require "tabula.json"
local host = require "tabula.c.host"

local function enc(id) return (id:gsub("/", "%%2F")) end

-- page_test(path, id, recs) -> res: the self-test's findings on trial id of report page path
local function page_test(path, id, recs)
  local dom, console = selftest_dom("file://" .. path .. "#selftest=" .. enc(id))
  t.eq(console, {}, "console messages")
  local found = dom:match('<pre id="selftest%-result">(.-)</pre>')
  assert(found, "the self-test ran on " .. path)
  local res = json.decode(unescape(found))
  t.eq(res.errors, {}, "script errors")
  t.ok(res.opened, "the trial view opened: " .. id)
  t.ok(res.title_kept, "no model text ran as a script")
  t.eq(res.transcript_imgs, 0, "no element made from a reply")
  for _, pl in ipairs(res.plots) do
    t.ok(pl.labels > 0, "the plot has its labels: " .. pl.title)
    t.eq(pl.overlaps, {}, "labels overlapping in the plot '" .. pl.title .. "'")
  end
  if recs then
    local want = {}
    for _, r in ipairs(recs) do want[#want + 1] = r.trial_id or r.match_id or r.game_id end
    local got = res.ids
    table.sort(want); table.sort(got)
    t.eq(got, want, "every trial listed")
  end
  return res
end

local shots
-- screenshots(path, name, id [, trial_only]): the overview and the trial view as PNG files
local function screenshots(path, name, id, trial_only)
  if not shots then
    -- they go with the file's scratch directory; TABULA_SCREENSHOTS=DIR keeps them to look at
    shots = host.getenv("TABULA_SCREENSHOTS") or tmpdir()
    fs.mkdir_p(shots)
    io.stderr:write("view: screenshots in " .. shots .. " (TABULA_SCREENSHOTS=DIR keeps them)\n")
  end
  local views = { { "trial", "#trial=" .. enc(id) } }
  if not trial_only then table.insert(views, 1, { "overview", "" }) end
  for _, v in ipairs(views) do
    local png = string.format("%s/%s-%s.png", shots, name, v[1])
    screenshot("file://" .. path .. v[2], png, 1400, 1000)
    local data = fs.read(png) or ""
    t.eq(data:sub(2, 4), "PNG", "a screenshot: " .. png)
    t.ok(#data > 15000, "the screenshot shows something: " .. png .. " (" .. #data .. " bytes)")
  end
end

local function pieces(fen)
  local n = 0
  for ch in (fen:match("^(%S+)") or ""):gmatch("%a") do n = n + 1 end
  return n
end

test("view pages: a scenario without a view (examples/checks_mc.lua) shows each trial's verdict and its ctx.board, model text inert", function()
  t.need_browser()
  local dir = tmpdir()
  local lines = {}
  for i = 1, 3 do lines[i] = json.canonical({ text = XSS .. "\nAnswer: " .. ({ "A", "B", "C" })[i] }) end
  fs.write_atomic(dir .. "/replay.jsonl", table.concat(lines, "\n") .. "\n")
  t.run_scenario("examples/checks_mc.lua", { "--model", "replay:" .. dir .. "/replay.jsonl", "--limit", "3", "--out", dir .. "/run", "--quiet" })
  t.contains(t.sh(t.tabula_bin() .. " report " .. dir .. "/run"), "rc=0")
  local recs = records.read(dir .. "/run/trials.jsonl")
  t.eq(#recs, 3)
  local rec = recs[1]
  local res = page_test(dir .. "/run/report.html", rec.trial_id, recs)
  t.contains(res.verdict, rec.status, "the verdict's outcome")
  t.contains(res.verdict, "answer " .. tostring(rec.choice), "the parsed answer")
  t.contains(res.verdict, "expected " .. rec.answer_letter, "the expected answer")
  t.contains(res.verdict, "reason " .. rec.reason)
  local fen = require("tabula.transcripts").load_all(dir .. "/run")[rec.trial_id].calls[1].fen
  t.eq(#res.boards, 1, "one position, the one the call recorded")
  t.eq(res.boards[1].cls, "board xiangqi")
  t.eq(res.boards[1].pieces, pieces(fen), "every piece of the recorded position drawn")
  t.ok(res.letters_button, "a Xiangqi board: the Latin-letter switch is there")
  local page = fs.read(dir .. "/run/report.html")
  t.contains(page, "&lt;script&gt;document.title=", "the reply, escaped")
  screenshots(dir .. "/run/report.html", "checks_mc", rec.trial_id)
end)

test("view pages: a `tabula new --game go` scenario runs, and its trial view draws the Go position with every stone", function()
  t.need_browser()
  local dir = tmpdir()
  t.contains(t.sh(string.format("%s new golibs --game go --dir %s", t.tabula_bin(), dir)), "rc=0")
  t.run_scenario(dir .. "/scenarios/golibs.lua", { "--model", "random", "--out", dir .. "/run", "--quiet" })
  t.contains(t.sh(t.tabula_bin() .. " report " .. dir .. "/run"), "rc=0")
  local recs = records.read(dir .. "/run/trials.jsonl")
  local items = {}
  for line in fs.read(dir .. "/scenarios/data/golibs.jsonl"):gmatch("[^\n]+") do local it = json.decode(line); items[it.id] = it end
  local rec = recs[#recs]
  local it = items[rec.item_id]
  local res = page_test(dir .. "/run/report.html", rec.trial_id, recs)
  t.eq(res.boards[1].cls, "board go")
  t.eq(res.boards[1].stones, #it.black + #it.white, "every stone of the position")
  t.contains(res.verdict, "expected " .. tostring(rec.expected))
  t.ok(not res.letters_button, "no Xiangqi board: no Latin-letter switch")
  screenshots(dir .. "/run/report.html", "tabula_new_go", rec.trial_id)
end)

test("view pages: TsuGO draws its problems in SVG (options, accepted answers, chosen move), the closed loop's moves and the images the model saw", function()
  t.need_browser()
  local dir = tmpdir()
  t.run_scenario("scenarios/tsugo.lua", { "--problems", t.root() .. "/tests/data/tsugo/problems.jsonl", "--out", dir .. "/run",
    "--gnugo", "none", "--engine-playouts", "150", "--mcts-playouts", "60", "--quiet", "--model", "engine",
    "--candidates", "4,open", "--modality", "symbolic,visual", "--closed-loop" })
  t.contains(t.sh(t.tabula_bin() .. " report " .. dir .. "/run"), "rc=0")
  local recs = records.read(dir .. "/run/trials.jsonl")
  local problems = {}
  for _, p in ipairs(require("scenarios.tsugo.problems").load(t.root() .. "/tests/data/tsugo/problems.jsonl")) do problems[p.id] = p end
  local rec
  for _, r in ipairs(recs) do if r.modality == "visual" and r.candidates == "4" and r.closed_loop and not rec then rec = r end end
  assert(rec, "a K=4 visual trial with a closed loop")
  local p = problems[rec.problem_id]
  local res = page_test(dir .. "/run/report.html", rec.trial_id, recs)
  local b = res.boards[1]
  t.eq(b.cls, "board go")
  t.eq(b.stones, #p.stones.black + #p.stones.white, "every stone of the problem")
  t.eq(b.options, 4, "the four option letters")
  t.eq(b.accepted, #rec.accepted, "the accepted answers marked")
  t.eq(b.chosen, 1, "the chosen move marked")
  t.eq(#res.boards, 1 + #rec.closed_loop.moves, "the problem, then one board per closed-loop move")
  for k = 2, #res.boards do
    t.eq(res.boards[k].last, rec.closed_loop.moves[k - 1] == "pass" and 0 or 1, "the last move ringed on board " .. k)
  end
  t.ok(#res.sent_images >= 1, "the image the model was sent is in the transcript")
  for _, im in ipairs(res.sent_images) do
    t.ok(im.width > 100, "the image decodes")
    t.eq(im.data, "data:image/png;base64,")
  end
  -- the overview: tiers in their natural order
  local page = fs.read(dir .. "/run/report.html")
  local easy, inter = page:find("<td>Easy</td>", 1, true), page:find("<td>Intermediate</td>", 1, true)
  t.ok(easy and inter and easy < inter, "Easy before Intermediate")
  screenshots(dir .. "/run/report.html", "tsugo", rec.trial_id)
end)

-- dece_counts(G, obs) -> what the drawing of a DECE observation must hold
local DECE_COUNTS = {
  azul = function(o) return { tiles = require("games.azul.svg").tiles(o) } end,
  splendor = function(o)
    local n = 0
    for _, row in ipairs(o.market) do for _, c in ipairs(row) do if not c.empty then n = n + 1 end end end
    return { market = n }
  end,
  century = function(o) return { market = #o.market } end,
  ["7wonders"] = function(o)
    local n = 0
    for _, c in ipairs(o.cities) do n = n + #c.cards end
    return { built = n }
  end,
  carcassonne = function(o) return { tiles = #o.tiles, followers = #o.followers } end,
}

test("view pages: DECE draws each game's board per decision (tiles, cards, followers counted), the text observation beside it", function()
  t.need_browser()
  local dir = tmpdir()
  fs.write_atomic(dir .. "/parts.json", json.encode({ participants = { { name = "random", player = "random" },
    { name = "heuristic", player = "heuristic" }, { name = "random2", player = "random" } } }))
  -- the five games whose boards' parts are counted here (tests/test_view_dece.lua draws all ten)
  -- one match of each (a schedule: a block would be three)
  local ms = {}
  for i, g in ipairs({ "azul", "splendor", "century", "7wonders", "carcassonne" }) do
    ms[i] = { id = g .. "-001", game = g, seats = { "random", "heuristic", "random2" }, setup_seed = 3 }
  end
  fs.write_atomic(dir .. "/sched.json", json.encode({ matches = ms }))
  t.run_scenario("scenarios/dece.lua", { "--participants", dir .. "/parts.json", "--out", dir .. "/run", "--schedule", dir .. "/sched.json",
    "--games", "azul,splendor,century,7wonders,carcassonne", "--draws", "50", "--no-html", "--quiet" })
  -- one page per game with one match on it, which keeps each page small
  local V = require "scenarios.dece.view"
  local all = V.load(dir .. "/run").recs
  local games = {}
  for _, r in ipairs(all) do if not games[r.game] then games[r.game] = r; games[#games + 1] = r.game end end
  t.eq(#games, 5, "a match of each of the five games")
  local path
  for _, game in ipairs(games) do
    local rec = games[game]
    local S = { name = "dece", view = { overview = V.overview, row = V.row, trial = V.trial, load = function(d)
      local src = V.load(d)
      src.recs = { rec }
      return src
    end } }
    path = dir .. "/run/report-" .. game .. ".html"
    fs.write_atomic(path, require("tabula.view").build(dir .. "/run", S))
    local G = require("games." .. game)
    local res = page_test(path, rec.match_id, { rec })
    -- the frames as the view makes them: one per choice, the deciding seat's observation, then the end
    local state, want = G.setup(rec.n, rec.setup_seed), {}
    for _, e in ipairs(records.read(dir .. "/run/matches/" .. rec.match_id .. ".jsonl")) do
      if e.k == "step" then
        for _, c in ipairs(e.choices) do want[#want + 1] = DECE_COUNTS[game](G.observation(state, c.seat)) end
        for _, c in ipairs(e.choices) do G.apply(state, c.seat, c.action) end
      end
    end
    want[#want + 1] = DECE_COUNTS[game](G.observation(state, 1))
    t.eq(#res.boards, #want, game .. ": a board per decision and the end")
    for k, w in ipairs(want) do
      t.eq(res.boards[k].cls, "board " .. game)
      for key, v in pairs(w) do t.eq(res.boards[k][key], v, string.format("%s frame %d: %s", game, k - 1, key)) end
    end
    t.contains(res.verdict, "rank 1", "the verdict names the standings")
    screenshots(path, "dece-" .. game, rec.match_id, game ~= games[1])
  end
  t.ok(fs.read(path):find('<details class="obs-text">', 1, true), "the text observation, folded")
end)

test("view pages: Jianghu108 with vision shows the image the model saw and labels the board A-I, 1-10 as the prompt does", function()
  t.need_browser()
  local data = t.need_shared("jianghu108/江湖残局.json")
  local dir = tmpdir()
  for _, v in ipairs({ { "text", {} }, { "vision", { "--vision" } } }) do
    local a = { "--data", data, "--ids", "1,2", "--model", "random", "--out", dir .. "/" .. v[1], "--quiet" }
    for _, x in ipairs(v[2]) do a[#a + 1] = x end
    t.run_scenario("scenarios/jianghu108.lua", a)
    t.contains(t.sh(t.tabula_bin() .. " report " .. dir .. "/" .. v[1]), "rc=0")
    local recs = records.read(dir .. "/" .. v[1] .. "/trials.jsonl")
    local res = page_test(dir .. "/" .. v[1] .. "/report.html", recs[1].trial_id, recs)
    t.eq(res.boards[1].cls, "board xiangqi")
    t.ok(res.boards[1].pieces > 2, "the problem's pieces")
    t.contains(res.verdict, "expected " .. recs[1].answer)
    if v[1] == "vision" then
      t.eq(#res.sent_images, 1, "the picture the model was sent")
      t.ok(res.sent_images[1].width > 300, "it decodes")
    else
      t.eq(#res.sent_images, 0)
    end
    local page = fs.read(dir .. "/" .. v[1] .. "/report.html")
    t.contains(page, '<use href="#xq-grid-A1"', "the board labelled A-I, 1-10")
    screenshots(dir .. "/" .. v[1] .. "/report.html", "jianghu108-" .. v[1], recs[1].trial_id)
  end
end)

test("view pages: the chess puzzles, understanding and XiangqiBench pages: plots that read, every trial listed, boards drawn", function()
  t.need_browser()
  local dir = tmpdir()
  -- our own positions and puzzles (the shared data need not be there)
  local fen = "r3k2r/pppn1pp1/3bpn2/7p/3P1P2/2N4q/PPP1B3/R1BQNRK1 w kq - 0 13"
  fs.write_atomic(dir .. "/fens.txt", CHESS_START .. "\n" .. fen .. "\n")
  local puzzles = {}
  for i, rating in ipairs({ 1329, 1650, 2100 }) do
    puzzles[i] = json.canonical({ PuzzleId = "p" .. i, FEN = fen, Moves = { "e1g2", "f6g4", "e2g4", "h5g4" }, Rating = rating })
  end
  fs.write_atomic(dir .. "/puzzles.jsonl", table.concat(puzzles, "\n") .. "\n")
  t.run_scenario("scenarios/chess_understanding.lua", { "--fens", dir .. "/fens.txt", "--model", "random", "--limit", "3",
    "--out", dir .. "/und", "--quiet" })
  t.run_scenario("scenarios/chess_puzzles.lua", { "--puzzles", dir .. "/puzzles.jsonl", "--model", "random", "--limit", "3",
    "--out", dir .. "/puz", "--quiet" })
  t.run_scenario("scenarios/xiangqibench.lua", { "--model", "random", "--limit", "2", "--trials", "2", "--defender-nodes", "3000",
    "--out", dir .. "/xq", "--quiet" })
  for _, name in ipairs({ "und", "puz", "xq" }) do
    t.contains(t.sh(t.tabula_bin() .. " report " .. dir .. "/" .. name), "rc=0")
    local recs = records.read(dir .. "/" .. name .. "/trials.jsonl")
    local res = page_test(dir .. "/" .. name .. "/report.html", recs[1].trial_id, recs)
    t.ok(#res.plots + res.empty_plots > 0, name .. ": the overview has its plots")
    t.eq(res.boards[1].cls, name == "xq" and "board xiangqi" or "board chess")
    t.ok(res.boards[1].pieces > 2, name .. ": the pieces are drawn")
    screenshots(dir .. "/" .. name .. "/report.html", ({ und = "chess_understanding", puz = "chess_puzzles", xq = "xiangqibench" })[name],
      recs[1].trial_id)
  end
end)

test("plots: integer axes get integer ticks, labels on their side when many, a sentence instead of a degenerate plot", function()
  local plot = require "tabula.view.plot"
  local groups = {}
  for i = 1, 16 do groups[i] = { label = "symbolic K=4 Intermediate " .. i, values = { { i / 16 } } } end
  local svg = plot.bars({ title = "many", ymax = 1, percent = true, groups = groups })
  local ys = {}
  for y in svg:gmatch('<text class="lbl" x="[%d.]+" y="([%d.]+)" text%-anchor="end" fill="#333">symbolic') do ys[#ys + 1] = tonumber(y) end
  t.eq(#ys, 16, "one label per group, each on its own row")
  for i = 2, #ys do t.ok(ys[i] - ys[i - 1] >= 12, "rows apart") end
  local ticks = {}
  for v in plot.bars({ title = "counts", groups = { { label = "a", values = { { 3 } } }, { label = "b", values = { { 1 } } } } })
      :gmatch('text%-anchor="end" fill="#555">([^<]+)<') do ticks[#ticks + 1] = v end
  t.eq(ticks, { "0", "1", "2", "3" }, "counts: integer ticks")
  local xt = {}
  for v in plot.lines({ title = "games", series = { { name = "a", points = { { 1, 1500 }, { 2, 1510 } } } } })
      :gmatch('text%-anchor="middle" fill="#555">([^<]+)<') do xt[#xt + 1] = v end
  t.eq(xt, { "1", "2" }, "game numbers: no 1.5")
  local yt = {}
  for v in plot.lines({ title = "elo", series = { { name = "a", points = { { 0, 1791.6 }, { 1, 1792.4 } } } } })
      :gmatch('text%-anchor="end" fill="#555">([^<]+)<') do yt[#yt + 1] = v end
  local seen = {}
  for _, v in ipairs(yt) do t.ok(not seen[v], "tick labels tell their values apart: " .. table.concat(yt, " ")); seen[v] = true end
  t.contains(plot.lines({ title = "V(B)", xlabel = "cost", series = { { name = "V", points = { { 0, 1792 }, { 0, 1792 } } } } }),
    'class="plot-empty"', "every x the same: a sentence")
  local names = {}
  for i = 1, 9 do names[i] = "player number " .. i end
  local lg = plot.lines({ title = "legend", series = (function()
    local s = {}
    for i = 1, 9 do s[i] = { name = names[i], points = { { 1, i }, { 2, i + 1 } } } end
    return s
  end)() })
  for _, nm in ipairs(names) do t.contains(lg, ">" .. nm .. "<", "the legend names every series") end
end)

test("view: the Go board in SVG: coordinates on all sides, star points, stones, marks; tabula render go writes it", function()
  local gs = require "games.go.svg"
  local svg = gs.board({ size = 19, stones = { black = { "dd", "pp" }, white = { "dp" } } }, { last = "dp", labels = { A = "cc", B = "qq" },
    accepted = { "cc" }, chosen = "qq" })
  t.eq(count(svg, 'class="stone black"'), 2)
  t.eq(count(svg, 'class="stone white"'), 1)
  t.eq(count(svg, 'class="star"'), 9, "19x19: nine star points")
  t.eq(count(svg, ">T</text>"), 2, "column T above and below")
  t.eq(count(svg, ">I</text>"), 0, "no column I")
  t.eq(count(svg, ">19</text>"), 2, "row 19 left and right")
  t.eq(count(svg, 'class="option"'), 2)
  t.eq(count(svg, 'class="accepted"'), 1)
  t.eq(count(svg, 'class="chosen"'), 1)
  t.eq(count(svg, 'class="last"'), 1)
  t.eq(count(gs.board({ size = 9, stones = { black = {}, white = {} } }), 'class="star"'), 5, "9x9: five star points")
  local pos = gs.from_sgf(gs.sgf({ size = 9, stones = { black = { "cc" }, white = { "dd", "ee" } }, to_play = "white" }))
  t.eq(pos, { size = 9, stones = { black = { "cc" }, white = { "dd", "ee" } }, to_play = "white" }, "a position through its SGF")
  local dir = tmpdir()
  local out = t.sh(string.format("%s render go --size 9 --black C3,D4 --white E5 --last E5 --labels A=C4 --accepted C4 --chosen C4 --out %s/b.svg",
    t.tabula_bin(), dir))
  t.contains(out, "rc=0")
  local file = fs.read(dir .. "/b.svg")
  t.contains(file, 'xmlns="http://www.w3.org/2000/svg"')
  t.eq(count(file, 'class="stone'), 3)
  t.contains(t.sh(string.format("%s render go --size 9 --black Z9 --out %s/x.svg", t.tabula_bin(), dir)), "'Z9' is not a point of a 9x9 board")
end)

test("view: --report-every rewrites report.html during a run, saying how far the run had got", function()
  local dir = tmpdir()
  -- trial 2 waits (on the event loop) until the page has been rewritten, and records what it read
  fs.write_atomic(dir .. "/slow.lua", [[
local loop = require "tabula.loop"
local fs = require "tabula.fs"
local S = { name = "slow", summary = "waits for the live report" }
function S.plan() return { { id = "t1" }, { id = "t2" }, { id = "t3" } } end
function S.play(trial, env)
  local rec = { trial_id = trial.id, status = "success", reason = "done" }
  if trial.id == "t2" and env.opts["report-every"] == 0 then
    rec.note = fs.kind(env.opts.out .. "/report.html") and "a page" or "no page"
  elseif trial.id == "t2" then
    -- until a page counts trial 1 (a first page may come before trial 1 is recorded)
    for _ = 1, 600 do
      local page = fs.read(env.opts.out .. "/report.html")
      rec.note = page and page:match('<p class="live">(.-)</p>') or "no page"
      if rec.note:find("1 of 3", 1, true) then break end
      loop.sleep(0.05)
    end
  end
  return rec
end
return S
]])
  t.run_scenario(dir .. "/slow.lua", { "--out", dir .. "/run", "--report-every", "0.1", "--quiet", "--concurrency", "1", "--workers", "1" })
  local recs = records.read(dir .. "/run/trials.jsonl")
  t.eq(#recs, 3)
  local note = recs[2].note
  t.contains(note, "Written during the run", "the page written while trial 2 was playing")
  t.contains(note, "1 of 3 trials recorded so far", "how far the run had got")
  t.contains(note, "every 0.1 seconds")
  -- --report-every 0: no page during the run
  t.run_scenario(dir .. "/slow.lua", { "--out", dir .. "/run2", "--report-every", "0", "--quiet", "--workers", "1" })
  local recs2 = records.read(dir .. "/run2/trials.jsonl")
  t.eq(#recs2, 3)
  for _, r in ipairs(recs2) do if r.trial_id == "t2" then t.eq(r.note, "no page", "a page written during the run") end end
  -- the page the run's end writes (every run's end writes one), with no note of a live page
  t.eq(fs.kind(dir .. "/run2/report.html"), "file")
  t.ok(not fs.read(dir .. "/run2/report.html"):find('<p class="live">', 1, true), "a live page's note in the final page")
end)

-- a drawing that fails (a bug in a game's picture, met at the end of a paid run) is one line
-- naming the trial and the place, never a traceback; the run's records, report.md and
-- summary.json stand, the trace is kept for whoever mends it, and a mended drawing writes the
-- page and removes the trace
test("view: a drawing that fails is one line naming the trial and its place; the records and report.md stand; the trace is kept", function()
  local dir = t.tmpdir()
  local lines = {}
  for i = 1, 3 do lines[i] = json.canonical({ text = "Answer: " .. ({ "A", "B", "C" })[i] }) end
  fs.write_atomic(dir .. "/replay.jsonl", table.concat(lines, "\n") .. "\n")
  local function scenario(file, extra)
    fs.write_atomic(dir .. "/" .. file, string.format("local S = dofile(%q)\n%s\nreturn S\n", t.root() .. "/examples/checks_mc.lua", extra))
  end
  local BREAK = "local n = 0\nS.view = { trial = function(rec) n = n + 1; if n == 2 then error('the drawing broke') end end }"
  -- the example's prompts beside the scenarios, as the scenario expects them
  t.eq(os.execute("ln -s " .. t.quote(t.root() .. "/examples/prompts") .. " " .. t.quote(dir .. "/prompts")), true)
  scenario("broken.lua", BREAK)
  scenario("broken_plain.lua", BREAK .. "\nS.report = nil")
  local function run(file, out)
    return t.tabula("run", dir .. "/" .. file, "--model", "replay:" .. dir .. "/replay.jsonl", "--limit", "3", "--items",
      t.root() .. "/games/xiangqi/suite.jsonl", "--out", out, "--quiet")
  end
  for _, case in ipairs({ { "broken.lua", dir .. "/run" }, { "broken_plain.lua", dir .. "/plain" } }) do
    local out = case[2]
    local rc, text = run(case[1], out)
    local recs = records.read(out .. "/trials.jsonl")
    t.eq(#recs, 3, case[1] .. ": every trial recorded")
    t.eq(rc, 1, case[1] .. ": " .. text)
    local line = text:match("tabula: report%.html could not be written: [^\n]*")
    t.ok(line, case[1] .. ": one line: " .. text)
    -- the place as Lua names a chunk (a long path shortened from the left)
    t.ok(line:find("drawing " .. recs[2].trial_id .. ": [^:]*" .. case[1]:gsub("%.", "%%.") .. ":3: the drawing broke"), "the trial and the place: " .. line)
    t.contains(line, out .. "/report.html.trace")
    t.ok(not text:find("traceback", 1, true) and not text:find("internal error", 1, true), case[1] .. ": no traceback: " .. text)
    t.contains(fs.read(out .. "/report.html.trace"), "stack traceback", "the trace is kept")
    t.eq(fs.kind(out .. "/report.html"), nil, "no page")
  end
  t.eq(fs.kind(dir .. "/run/report.md"), "file", "report.md is written")
  t.eq(fs.kind(dir .. "/run/summary.json"), "file", "summary.json is written")
  local rc, text = t.tabula("report", dir .. "/run")
  t.eq(rc, 1, text)
  t.contains(text, "tabula: report.html could not be written: drawing ")
  -- mended: the page is written and the trace goes
  scenario("broken.lua", "")
  rc, text = t.tabula("report", dir .. "/run")
  t.eq(rc, 0, text)
  t.eq(fs.kind(dir .. "/run/report.html"), "file")
  t.eq(fs.kind(dir .. "/run/report.html.trace"), nil, "the old trace removed")
end)

test("view: tabula report --index DIR lists the runs under DIR with their scenario, model, trials, success and link", function()
  local dir = tmpdir()
  t.run_scenario("examples/checks_mc.lua", { "--model", "engine", "--limit", "2", "--out", dir .. "/a", "--quiet", "--workers", "1" })
  t.run_scenario("examples/checks_mc.lua", { "--model", "random", "--limit", "3", "--out", dir .. "/deep/b", "--quiet", "--workers", "1" })
  t.contains(t.sh(t.tabula_bin() .. " report " .. dir .. "/a"), "rc=0")
  os.remove(dir .. "/deep/b/report.html")     -- as a run still under way would be
  local out = t.sh(string.format("%s report --index %s", t.tabula_bin(), dir))
  t.contains(out, "rc=0")
  t.contains(out, "(2 runs)")
  local page = fs.read(dir .. "/index.html")
  t.contains(page, "<td>a</td><td>checks_mc</td><td>engine</td>")
  t.contains(page, "<td>deep/b</td><td>checks_mc</td><td>random</td>")
  t.contains(page, "2 of 2", "trials recorded of those planned")
  t.contains(page, "100.0% [34.2%, 100.0%] (n=2)", "the engine's success with its Wilson interval")
  t.contains(page, '<a href="a/report.html">report.html</a>', "a link to the run's report")
  t.contains(page, "no report.html yet")
  t.ok(page:find("<td>deep/b</td>", 1, true) and true, "a run two levels down")
  t.contains(t.sh(string.format("%s report --index %s/nowhere", t.tabula_bin(), dir)), "is not a directory")
end)

return T
