-- DECE's report.html: the matches' frames kept compact (tabula.view.frames) and deflated
-- (raw DEFLATE by zlib, tabula.c.zlib; the page's inflater checked against the browser's own), drawn in
-- the browser exactly as the game draws them and as from the data left uncompressed, the
-- moves named by the games' own labels (the id on hover), the spectator's public board
-- with the seats named, a seat's own view (its hand) and observation only once that seat
-- is picked; and the ten
-- Eurogames' pictures, at a mid-game and an end-game state, drawn inside their box with no
-- text under 11 px in a 1400 px wide window. One Chromium for the file (testing.browser).
-- slow: every Eurogame is played to a mid-game and an end-game state and drawn in headless Chromium (left out by make check)
local t = require "tabula.testing"
local frames = require "tabula.view.frames"
local records = require "tabula.records"
local json = require "tabula.json"
local fs = require "tabula.fs"
local test, T = t.suite()

local TEN = { "azul", "splendor", "century", "7wonders", "carcassonne", "arknova", "brass", "burgundy", "harmonies", "wingspan" }

test("frames: each frame is rebuilt exactly from the one before, and a frame costs what changed in it", function()
  local dict = frames.new_dict()
  local a = '<svg><g><rect x="1"/><text>one</text></g><g><rect x="2"/></g></svg>'
  local b = '<svg><g><rect x="2"/></g><g><rect x="1"/><text>two</text></g></svg>'
  local ta, tb = frames.tokens(dict, a, "svg"), frames.tokens(dict, b, "svg")
  local function apply(prev, ops)
    local out, k = {}, 1
    while k <= #ops do
      local x = ops[k]
      if x >= 0 then out[#out + 1] = x; k = k + 1
      else
        local from = #out + ops[k + 1]
        for c = 0, -x - 1 do out[#out + 1] = prev[from + c + 1] end
        k = k + 2
      end
    end
    return out
  end
  local function text(ids) local s = {}; for i, v in ipairs(ids) do s[i] = dict.list[v + 1] end; return table.concat(s) end
  t.eq(text(apply(ta, frames.ops(ta, tb))), b, "a moved part and a changed one")
  t.eq(text(apply({}, frames.ops({}, ta))), a, "the first frame")
  -- a long drawing with one token changed: a few operations, not the drawing again
  local parts = {}
  for i = 1, 400 do parts[i] = string.format('<rect x="%d"/>', i) end
  local long = table.concat(parts)
  parts[200] = '<rect x="changed"/>'
  local l1, l2 = frames.tokens(dict, long, "svg"), frames.tokens(dict, table.concat(parts), "svg")
  local ops = frames.ops(l1, l2)
  t.eq(text(apply(l1, ops)), table.concat(parts))
  t.ok(#ops <= 5, "one change, a handful of operations (" .. #ops .. ")")
end)

test("frames in C (src/frames.c): the same tokens, the same dictionary and the same operations as the Lua reference", function()
  -- the Lua cut and diff (frames.lua_tokens, frames.lua_ops) are the reference; the C ones
  -- must give identical ids, dictionary and operations, on made-up texts with the awkward
  -- cases (a '<' never closed, a separator at the end, a token in more than 8 places, the
  -- empty text) and on random lists with long repeated runs
  local made = { "", "plain", "<svg>", "a<b<c>d", "<x>tail<", "<<>>", "x>y<z", '<g><text>1,2;3\n</text></g>',
    "one, two; three\n", "ends with,", "  two  spaces ", string.rep("<r/>", 20) .. "<g>" .. string.rep("<r/>", 3) }
  for _, kind in ipairs({ "svg", "text", "words" }) do
    local dc, dl = frames.new_dict(), frames.new_dict()
    for _, s in ipairs(made) do
      t.eq(frames.tokens(dc, s, kind), frames.lua_tokens(dl, s, kind), kind .. ": " .. s)
    end
    t.eq(dc.list, dl.list, kind .. ": the dictionary")
    local n = 0
    for k, v in pairs(dc.id) do n = n + 1; t.eq(dl.id[k], v, k) end
    t.eq(n, #dl.list)
  end
  local seed = 7
  local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n end
  for round = 1, 300 do
    local a, b = {}, {}
    local alphabet = 1 + rand(round % 3 == 0 and 3 or 40)    -- few ids: many places each
    for i = 1, rand(120) do a[i] = rand(alphabet) end
    -- b: pieces of a (moved, repeated), changed ids and new ones
    while #b < rand(150) do
      if #a > 0 and rand(3) > 0 then
        local from, len = 1 + rand(#a), 1 + rand(12)
        for i = from, math.min(#a, from + len - 1) do b[#b + 1] = a[i] end
      else b[#b + 1] = rand(alphabet + 5) end
    end
    t.eq(frames.ops(a, b), frames.lua_ops(a, b), "round " .. round)
    t.eq(frames.ops(b, a), frames.lua_ops(b, a), "round " .. round .. " reversed")
  end
  t.eq(frames.ops({}, {}), {})
  t.eq(frames.ops({ 5, 5, 5 }, {}), {})
end)

-- a small run of two games (every match's report view is checked)
local run_dir
local function run()
  if run_dir then return run_dir end
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/parts.json", json.encode({ participants = { { name = "random", player = "random" },
    { name = "heuristic-long-name", player = "heuristic" }, { name = "random2", player = "random" } } }))
  t.run_scenario("scenarios/dece.lua", { "--participants", dir .. "/parts.json", "--out", dir .. "/run", "--matches-per-game", "3",
    "--games", "azul,wingspan,7wonders", "--draws", "50", "--quiet" })
  run_dir = dir .. "/run"
  return run_dir
end

local function unescape(s)
  return (s:gsub("&lt;", "<"):gsub("&gt;", ">"):gsub("&quot;", '"'):gsub("&#39;", "'"):gsub("&amp;", "&"))
end

-- the text a drawing shows (what textContent reads)
local function shown(svg)
  return unescape((svg:gsub("<[^>]*>", "")))
end

test("DECE report: the frames are compact and each is drawn in the browser as the game draws it, moves by their labels", function()
  local dir = run()
  local page = fs.read(dir .. "/report.html")
  local V = require "scenarios.dece.view"
  local src = V.load(dir)
  local rec
  for _, r in ipairs(src.recs) do if r.game == "wingspan" then rec = r end end
  local tv = V.trial(rec, nil, src)
  -- the drawings of every match, as the page held them before: the page is far smaller
  local drawn = 0
  for _, r in ipairs(src.recs) do
    for _, f in ipairs(V.trial(r, nil, src).frames) do drawn = drawn + #f.board.svg + #(f.text or "") end
  end
  t.ok(#page * 8 < drawn, string.format("the page (%d bytes) is far smaller than its drawings (%d bytes)", #page, drawn))
  t.ok(not page:find('<figure class="frame" data-i="1"', 1, true), "no frame is drawn into the page")
  -- the labels the model saw, the ids on hover
  local G = require "games.wingspan"
  local state = G.setup(rec.n, rec.setup_seed)
  local first = records.read(dir .. "/matches/" .. rec.match_id .. ".jsonl")[2].choices[1]
  local label
  for _, a in ipairs(G.legal_actions(state, first.seat)) do if a.id == first.action then label = a.label end end
  t.contains(tv.frames[1].label, label, "the first move by its label")
  t.eq(tv.frames[1].tip, first.action)
  -- the spectator's board names every seat and is no seat's own view
  for k, who in ipairs(rec.seats) do t.contains(tv.frames[1].board.svg, who .. " (seat " .. k .. ")") end
  t.ok(not tv.frames[1].board.svg:find("(you)", 1, true), "no seat is 'you' on the spectator's board")
  -- the data is deflated: no frame data or dictionary is left as JSON in the page, and
  -- each game's matches share one dictionary
  t.ok(not page:find('<script type="application/json" class="frames-data"', 1, true), "no frame data left uncompressed")
  local _, packed = page:gsub('<script type="text/plain" class="frames%-data" data%-z="deflate"', "")
  t.eq(packed, #src.recs, "each match's data deflated")
  local _, dicts = page:gsub('<script type="text/plain" class="frame%-tokens" data%-z="deflate" data%-dict="', "")
  t.eq(dicts, 3, "a dictionary per game")
  -- in Chromium: the frames, first to last and back, each the game's drawing
  local p = t.browser():open("file://" .. dir .. "/report.html#trial=" .. rec.match_id, { width = 1400, height = 1000 })
  p:wait("!!document.querySelector('#view .fboard svg')")
  local n = #tv.frames
  for _, k in ipairs({ 0, 1, n // 2, n - 1, 2, n - 2 }) do
    local got = p:eval(string.format([[(function () {
      var r = document.querySelector('#view input[type=range]');
      r.value = %d; r.dispatchEvent(new Event('input'));
      var f = document.querySelector('#view .frame');
      return JSON.stringify({ text: f.querySelector('.fboard svg').textContent, cap: f.querySelector('figcaption').textContent,
        tip: f.querySelector('figcaption').title, obs: f.querySelector('.obs-text pre').textContent });
    })()]], k))
    got = json.decode(got)
    local want = tv.frames[k + 1]
    t.eq(got.text, shown(want.board.svg), "frame " .. k .. ": the drawing's text")
    t.eq(got.cap, want.label, "frame " .. k .. ": the caption")
    t.eq(got.obs, "", "frame " .. k .. ": the deciding seat's observation is not shown in the public view")
    if want.tip then t.eq(got.tip, "action id: " .. want.tip) end
  end
  -- the move list beside the board (no transcript in a match of built-in players): every
  -- frame's caption, the action id on hover, a click goes to that frame
  local moves = json.decode(p:eval([[(function () {
    var li = document.querySelectorAll('#view ol.moves li');
    li[3].click();
    return JSON.stringify({ n: li.length, first: li[0].textContent, tip: li[0].title,
      at: document.querySelector('#view input[type=range]').value, cur: document.querySelectorAll('#view ol.moves li.at').length });
  })()]]))
  t.eq(moves.n, n, "a move per frame")
  t.eq(moves.first, tv.frames[1].label)
  t.eq(moves.tip, "action id: " .. first.action)
  t.eq(moves.at, "3", "a click on a move shows its frame")
  t.eq(moves.cur, 1, "the move shown is marked")
  t.eq(p.console, {}, "nothing logged")
  p:close()
  -- the overview: the overall table first, then one game's panels at a time
  p = t.browser():open("file://" .. dir .. "/report.html", { width = 1400, height = 1000 })
  local ov = json.decode(p:eval([[(function () {
    var shown = function () { return Array.prototype.filter.call(document.querySelectorAll('[data-group]'), function (f) { return !f.hidden; })
      .map(function (f) { return f.getAttribute('data-group'); }); };
    var before = shown(), sel = document.getElementById('panel-group');
    sel.value = sel.options[1].value; sel.dispatchEvent(new Event('change'));
    return JSON.stringify({ first: document.querySelector('#overview .panel figcaption').textContent, before: before, after: shown(),
      options: sel.options.length, games: Array.prototype.map.call(sel.options, function (o) { return o.value; }) });
  })()]]))
  p:close()
  t.contains(ov.first, "Overall", "the overall table leads")
  t.eq(ov.options, 3, "a game per option")
  local a, b = ov.games[1], ov.games[2]
  t.eq(ov.before, { a, a, a }, "one game's panels shown")
  t.eq(ov.after, { b, b, b }, "the selector shows another game's")
  table.sort(ov.games)
  t.eq(ov.games, { "7wonders", "azul", "wingspan" })
  -- the runs index names DECE's leader
  local idx = require("tabula.view.index").describe(dir, "")
  t.ok(idx.leader and idx.leader.text:find("^leader [%w-]+: PWS "), "the leader: " .. tostring(idx.leader and idx.leader.text))
end)

test("deflate: what tabula deflates (zlib), the page's inflater and the browser's own give back byte for byte", function()
  local deflate = { deflate = require("tabula.c.zlib").deflate_raw }
  local base64 = require "tabula.base64"
  local x = 7
  local function rnd() x = (x * 1103515245 + 12345) % 2147483648; return x >> 16 end
  local noise, words, json_ints = {}, {}, {}
  for i = 1, 5000 do noise[i] = string.char(rnd() % 256) end
  for i = 1, 30000 do words[i] = ({ "<rect ", 'x="', "12", '"/>', "Temple", " ", "\n", "é" })[rnd() % 8 + 1] end
  for i = 1, 40000 do json_ints[i] = tostring(rnd() % 3000 - 20) end
  local cases = { "", "a", "ab", string.rep("z", 1000), table.concat(noise), table.concat(words),
    "[" .. table.concat(json_ints, ",") .. "]", string.rep("abc", 40000) .. table.concat(noise) }
  local rows = {}
  for i, c in ipairs(cases) do
    local z = deflate.deflate(c)
    if #c > 1000 and c ~= table.concat(noise) then t.ok(#z * 2 < #c, "case " .. i .. " compresses: " .. #c .. " -> " .. #z) end
    rows[i] = string.format('["%s","%s"]', base64.encode(c), base64.encode(z))
  end
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/z.html", '<!doctype html><html><head><meta charset="utf-8"></head><body><script>var CASES = ['
    .. table.concat(rows, ",") .. "];</script><script>" .. fs.read(t.root() .. "/lua/tabula/view/report.js") .. "</script></body></html>")
  local p = t.browser():open("file://" .. dir .. "/z.html", { width = 800, height = 600 })
  local res = json.decode(p:eval([[(async function () {
    function bytes(b64) { var s = atob(b64), a = new Uint8Array(s.length); for (var i = 0; i < s.length; i++) a[i] = s.charCodeAt(i); return a; }
    function same(a, b) { if (a.length !== b.length) return false; for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false; return true; }
    var out = [];
    for (var k = 0; k < CASES.length; k++) {
      var want = bytes(CASES[k][0]), z = bytes(CASES[k][1]);
      var mine = window.tabulaInflate(z);
      var native = new Uint8Array(await new Response(new Blob([z]).stream().pipeThrough(new DecompressionStream('deflate-raw'))).arrayBuffer());
      out.push({ mine: same(mine, want), native: same(native, want), n: want.length });
    }
    return JSON.stringify(out);
  })()]]))
  p:close()
  t.eq(#res, #cases)
  for i, r in ipairs(res) do
    t.eq(r.n, #cases[i])
    t.ok(r.native, "case " .. i .. ": the browser's DecompressionStream gives back the input")
    t.ok(r.mine, "case " .. i .. ": the page's inflater gives back the input")
  end
end)

-- page_of(dir, recs) -> a report page of the run in dir holding only the matches recs
local function page_of(dir, recs)
  local V = require "scenarios.dece.view"
  local S = { name = "dece", view = { overview = V.overview, row = V.row, trial = V.trial, load = function(d)
    local src = V.load(d)
    src.recs = recs
    return src
  end } }
  return require("tabula.view").build(dir, S)
end

-- DRAWINGS: every frame's drawing of a match view, public and each seat's own, as the page holds them
local DRAWINGS = [[(function () {
  var r = document.querySelector('#view input[type=range]'), sel = document.querySelector('#view select.seat-pick'), out = [];
  for (var v = 0; v < sel.options.length; v++) {
    sel.value = sel.options[v].value; sel.dispatchEvent(new Event('change'));
    for (var k = 0; k <= parseInt(r.max, 10); k++) {
      r.value = k; r.dispatchEvent(new Event('input'));
      var f = document.querySelector('#view .frame');
      out.push([f.querySelector('.fboard').innerHTML + '|' + f.querySelector('figcaption').textContent + '|' + f.querySelector('.obs-text pre').textContent,
        f.querySelector('.fboard svg').textContent]);
    }
  }
  return JSON.stringify(out);
})()]]

test("compressed frames: the page draws every frame of a match, public and each seat's, exactly as from the data left uncompressed", function()
  local dir = run()
  local V = require "scenarios.dece.view"
  local recs = {}
  for _, r in ipairs(V.load(dir).recs) do if r.game == "7wonders" and #recs == 0 then recs[1] = r end end
  t.eq(#recs, 1)
  local out = t.tmpdir()
  local z = page_of(dir, recs)
  frames.COMPRESS = false
  local ok, plain = pcall(page_of, dir, recs)
  frames.COMPRESS = true
  assert(ok, plain)
  -- the frame data and the dictionary: under half the size deflated (and base64-encoded)
  local function data_bytes(page)
    local n = 0
    for body in page:gmatch('<script type="[%w/]+" class="frame[%w-]+"[^>]*>(.-)</script>') do n = n + #body end
    return n
  end
  t.ok(data_bytes(z) * 2 < data_bytes(plain), string.format("deflated, the data is less than half as large (%d bytes against %d)",
    data_bytes(z), data_bytes(plain)))
  t.ok(plain:find('<script type="application/json" class="frames-data"', 1, true), "the plain page holds its data as JSON")
  t.ok(not z:find('<script type="application/json" class="frames-data"', 1, true), "the other holds none as JSON")
  fs.write_atomic(out .. "/z.html", z)
  fs.write_atomic(out .. "/plain.html", plain)
  for _, rec in ipairs(recs) do
    local got = {}
    for _, name in ipairs({ "z", "plain" }) do
      local p = t.browser():open("file://" .. out .. "/" .. name .. ".html#trial=" .. rec.match_id, { width = 1400, height = 1000 })
      p:wait("!!document.querySelector('#view .fboard svg')")
      got[name] = json.decode(p:eval(DRAWINGS))
      t.eq(p.console, {}, name .. ": nothing logged")
      p:close()
    end
    local tv = V.trial(rec, nil, { dir = dir })
    local n = #tv.frames
    t.eq(#got.z, n * (1 + rec.n), rec.match_id .. ": every frame, public and each seat's")
    local diff, wrong = 0, 0
    for i = 1, #got.plain do
      if got.z[i][1] ~= got.plain[i][1] then diff = diff + 1 end
      -- and each is the game's drawing: the public one, then seat 1's, seat 2's…
      local view, f = (i - 1) // n, tv.frames[(i - 1) % n + 1]
      local want = view == 0 and f.board.svg or f.seats[view].svg
      if got.z[i][2] ~= shown(want) then wrong = wrong + 1 end
    end
    t.eq(diff, 0, rec.match_id .. ": frames drawn differently from the deflated data")
    t.eq(wrong, 0, rec.match_id .. ": frames whose text is not the game's drawing's")
  end
end)

test("seat selector: the public view names each seat and shows no hand; seat k's own view (its hand) only once k is picked", function()
  local dir = run()
  local V = require "scenarios.dece.view"
  local G = require "games.7wonders"
  local rec
  for _, r in ipairs(V.load(dir).recs) do if r.game == "7wonders" then rec = r end end
  -- each frame's hands and deciding seat, replayed from the event log
  local state, want = G.setup(rec.n, rec.setup_seed), {}
  local function hands()
    local h = {}
    for k = 1, rec.n do
      h[k] = {}
      for _, c in ipairs(G.observation(state, k).hand or {}) do h[k][#h[k] + 1] = c.name end
    end
    return h
  end
  for _, e in ipairs(records.read(dir .. "/matches/" .. rec.match_id .. ".jsonl")) do
    if e.k == "step" then
      for _, c in ipairs(e.choices) do want[#want + 1] = { hands = hands(), who = c.seat, text = G.render(G.observation(state, c.seat)) } end
      for _, c in ipairs(e.choices) do G.apply(state, c.seat, c.action) end
    end
  end
  want[#want + 1] = { hands = hands(), who = 1, text = G.render(G.observation(state, 1)) }
  local p = t.browser():open("file://" .. dir .. "/report.html#trial=" .. rec.match_id, { width = 1400, height = 1000 })
  p:wait("!!document.querySelector('#view .fboard svg')")
  local function at(k, seat)
    return json.decode(p:eval(string.format([[(function () {
      var sel = document.querySelector('#view select.seat-pick'), r = document.querySelector('#view input[type=range]');
      sel.value = '%d'; sel.dispatchEvent(new Event('change'));
      r.value = %d; r.dispatchEvent(new Event('input'));
      var f = document.querySelector('#view .frame'), svg = f.querySelector('.fboard svg');
      return JSON.stringify({ text: svg.textContent, hand: Array.prototype.map.call(svg.querySelectorAll('g.card.hand > title'),
        function (t) { return t.textContent; }), obs: f.querySelector('.obs-text').hidden ? '(hidden)' : f.querySelector('.obs-text pre').textContent,
        options: sel.options.length });
    })()]], seat, k)))
  end
  local checked, private_seen = 0, 0
  for _, k in ipairs({ 0, 1, 2, #want // 2, #want // 2 + 1, #want - 2, #want - 1 }) do
    local w = want[k + 1]
    local pub = at(k, 0)
    t.eq(pub.options, rec.n + 1, "the public view and one per seat")
    for s, who in ipairs(rec.seats) do t.contains(pub.text, who .. " (seat " .. s .. ")", "frame " .. k .. ": the public view names seat " .. s) end
    t.ok(not pub.text:find("(you)", 1, true), "frame " .. k .. ": no seat is 'you' in the public view")
    t.eq(pub.hand, {}, "frame " .. k .. ": no hand in the public view")
    t.eq(pub.obs, "(hidden)", "frame " .. k .. ": no seat's observation in the public view")
    for s = 1, rec.n do
      local mine = at(k, s)
      t.contains(mine.text, rec.seats[s] .. " (seat " .. s .. ") (you)", "frame " .. k .. ": seat " .. s .. "'s own view")
      local _, yous = mine.text:gsub("%(you%)", "")
      t.eq(yous, 1, "frame " .. k .. ": one seat is 'you'")
      t.eq(#mine.hand, #w.hands[s], string.format("frame %d: seat %d's hand", k, s))
      for j, name in ipairs(w.hands[s]) do t.contains(mine.hand[j] or "", name, string.format("frame %d: seat %d's card %d", k, s, j)) end
      if #w.hands[s] > 0 then private_seen = private_seen + 1 end
      if s == w.who then t.eq(mine.obs, w.text, "frame " .. k .. ": the deciding seat's observation once it is picked")
      else t.eq(mine.obs, "(hidden)", "frame " .. k .. ": seat " .. s .. " did not decide here: no observation shown") end
      checked = checked + 1
    end
  end
  t.ok(private_seen >= 6, "hands were there to show (" .. private_seen .. " seat views with cards in hand)")
  -- back to the public view: the hand is gone again
  t.eq(at(1, 0).hand, {}, "the public view again")
  t.eq(p.console, {}, "nothing logged")
  p:close()
  t.eq(checked, 7 * rec.n)
end)

test("live pages reload themselves while the run goes; the final page does not", function()
  local dir = run()
  local V = require "scenarios.dece.view"
  local S = { name = "dece", view = { overview = V.overview, row = V.row, trial = V.trial, load = function(d)
    local src = V.load(d)
    src.recs = { src.recs[1] }      -- one match is enough here
    return src
  end } }
  local live = require("tabula.view").build(dir, S, { live = { at = "now", every = 7 } })
  t.contains(live, '<body data-reload="7">')
  local final = require("tabula.view").build(dir, S)
  t.ok(not final:find("<body data-reload", 1, true), "the final page stays")
  -- the seats' own views, costly to draw, only on the final page (the live one is made in the run's loop)
  t.ok(not live:find('<select class="seat-pick">', 1, true), "no seat's own view on a live page")
  t.contains(final, '<select class="seat-pick">')
  t.ok(not require("tabula.view").build(dir, S, { live = { at = "now", interrupted = true } }):find("<body data-reload", 1, true),
    "nor the page of an interrupted run")
end)

test("runs index: a row per variant of a run, each with its own success rate", function()
  local dir = t.tmpdir()
  fs.mkdir_p(dir .. "/run")
  fs.write_atomic(dir .. "/run/run.json", json.encode({ scenario = "checks", created = "2026-01-01", setup = { variant_order = { "short", "long" } } }))
  fs.write_atomic(dir .. "/run/trials.jsonl", table.concat({
    json.encode({ trial_id = "c1@short", status = "success" }), json.encode({ trial_id = "c2@short", status = "success" }),
    (json.encode({ trial_id = "c1@long", status = "failure" })) }, "\n") .. "\n")
  local page, runs = require("tabula.view.index").build(dir)
  t.eq(runs, 1, "one run")
  t.contains(page, "<td>run @short</td>")
  t.contains(page, "<td>run @long</td>")
  t.contains(page, '<td data-v="1.0">100.0%', "the short variant's figure alone")
  t.contains(page, '<td data-v="0.0">0.0%', "the long variant's")
end)

test("runs index: an arena's row names its leader by rating with the interval, not a success rate", function()
  local dir = t.tmpdir()
  fs.mkdir_p(dir .. "/arena")
  fs.write_atomic(dir .. "/arena/games.jsonl", json.encode({ game_id = "g1", white = "sf", black = "rnd", result = "1-0" }) .. "\n")
  fs.write_atomic(dir .. "/arena/summary.json", json.encode({ leaderboard = {
    { id = "sf", r = 1712.4, rd = 80, lo = 1555.6, hi = 1869.2 }, { id = "rnd", r = 1287.6, rd = 80, lo = 1130.8, hi = 1444.4 } } }))
  local page, runs = require("tabula.view.index").build(dir)
  t.eq(runs, 1, "one run")
  t.contains(page, "leader sf: rating 1712 [1556, 1869]")
  t.ok(not page:find("rnd: rating", 1, true), "only the leader")
end)

test("verdicts and headlines: ChessArena names winner and loser; usage kept per step is counted", function()
  local V = require "scenarios.chessarena.view"
  local function words(g) return V.trial(g).verdict[1][2] end
  t.eq(words({ white = "gpt", black = "claude", result = "0-1", termination = "checkmate", moves = {} }),
    "claude (Black) beat gpt (White) by checkmate")
  t.eq(words({ white = "gpt", black = "claude", result = "1-0", termination = "forfeit", moves = {} }),
    "gpt (White) beat claude (Black) by forfeit")
  t.eq(words({ white = "gpt", black = "claude", result = "1/2-1/2", termination = "stalemate", moves = {} }),
    "gpt (White) and claude (Black) drew by stalemate")
  local view = require "tabula.view"
  local tokens, cost = view.usage_of({ steps = { { usage = { input = 100, output = 20 }, cost = 0.01 }, { usage = { input = 50, output = 5 }, cost = 0.002 } } })
  t.eq(tokens, 175)
  t.near(cost, 0.012, 1e-9)
  t.eq(view.default_row({ trial_id = "x", usage = { input = 3, output = 4 }, cost = 0.5 }).tokens, 7, "a record's own usage first")
  t.eq(view.usage_of({ trial_id = "y" }), nil, "no usage recorded")
end)

-- playout(G, seed) -> the states at the middle and at the end of a random playout
local function playout(G, seed)
  local x = seed
  local function rand(k) x = (x * 1103515245 + 12345) % 2147483648; return x % k + 1 end
  local function play(limit)
    x = seed
    local s, n = G.setup(3, seed), 0
    while #G.current_seats(s) > 0 and n < limit do
      for _, seat in ipairs(G.current_seats(s)) do
        local legal = G.legal_actions(s, seat, true)
        assert(G.apply(s, seat, legal[rand(#legal)].id))
      end
      n = n + 1
    end
    return s, n
  end
  local last, total = play(math.huge)
  return play(total // 2), last
end

-- in the page: for each picture, what lies outside its box and which texts read under 11 px
-- (tabula.view.legibility: the check the legibility sweep and its tests use too)
local CHECK = require("tabula.view.legibility").CHECK

test("pictures: each of the ten Eurogames, mid-game and at the end, lies inside its box with no text under 11 px at 1400 px", function()
  local dir = t.tmpdir()
  local css = fs.read(t.root() .. "/lua/tabula/view/report.css")
  local body = {}
  for _, g in ipairs(TEN) do
    local G = require("games." .. g)
    local mid, last = playout(G, 11)
    for _, v in ipairs({ { "mid", mid }, { "end", last } }) do
      local o = G.observation(v[2], 1)
      o.spectator, o.names = true, { "heuristic-epsilon-0.1", "ismcts-1024x18", "random" }
      -- as the report lays a trial view out: the picture beside the transcript
      body[#body + 1] = string.format('<div class="tv" data-pic="%s %s"><div class="cols"><div class="boardpane"><figure class="frame cur">'
        .. '<div class="fboard">%s</div></figure></div><div class="transcript"><div class="msg">a reply</div></div></div></div>', g, v[1], G.svg(o))
    end
  end
  local path = dir .. "/pictures.html"
  fs.write_atomic(path, '<!doctype html><html><head><meta charset="utf-8"><style>' .. css .. '</style></head><body><section id="view">'
    .. table.concat(body) .. "</section></body></html>")
  local p = t.browser():open("file://" .. path, { width = 1400, height = 1000 })
  local res = json.decode(p:eval(CHECK))
  p:close()
  t.eq(#res, 2 * #TEN, "every picture checked")
  for _, r in ipairs(res) do
    t.eq(r.outside, {}, r.pic .. ": outside the picture's box")
    t.eq(r.small, {}, r.pic .. ": text under 11 px")
  end
end)

return T
