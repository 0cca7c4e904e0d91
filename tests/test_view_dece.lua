-- DECE's report.html: the matches' frames kept compact (tabula.view.frames) and drawn in
-- the browser exactly as the game draws them, the moves named by the games' own labels
-- (the id on hover), the spectator's public board with the seats named; and the ten
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

-- a small run of two games (every match's report view is checked)
local run_dir
local function run()
  if run_dir then return run_dir end
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/parts.json", json.encode({ participants = { { name = "random", player = "random" },
    { name = "heuristic-long-name", player = "heuristic" }, { name = "random2", player = "random" } } }))
  t.run_scenario("scenarios/dece.lua", { "--participants", dir .. "/parts.json", "--out", dir .. "/run", "--matches-per-game", "3",
    "--games", "azul,wingspan", "--draws", "50", "--quiet" })
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
  -- the spectator's board names the seats and is no seat's own view
  t.contains(tv.frames[1].board.svg, rec.seats[1] .. " (seat 1)")
  t.ok(not tv.frames[1].board.svg:find("(you)", 1, true), "no seat is 'you' on the spectator's board")
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
    t.eq(got.obs, want.text or "", "frame " .. k .. ": the deciding seat's observation")
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
      options: sel.options.length });
  })()]]))
  p:close()
  t.contains(ov.first, "Overall", "the overall table leads")
  t.eq(ov.options, 2, "a game per option")
  t.eq(ov.before, { "azul", "azul", "azul" }, "one game's panels shown")
  t.eq(ov.after, { "wingspan", "wingspan", "wingspan" }, "the selector shows another game's")
  -- the runs index names DECE's leader
  local idx = require("tabula.view.index").describe(dir, "")
  t.ok(idx.leader and idx.leader.text:find("^leader [%w-]+: PWS "), "the leader: " .. tostring(idx.leader and idx.leader.text))
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
  t.ok(not require("tabula.view").build(dir, S):find("<body data-reload", 1, true), "the final page stays")
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
local CHECK = [[(function () {
  var out = [];
  document.querySelectorAll('[data-pic]').forEach(function (d) {
    var svg = d.querySelector('.fboard > svg'), box = svg.getBoundingClientRect(), scale = box.width / svg.viewBox.baseVal.width;
    var r = { pic: d.getAttribute('data-pic'), outside: [], small: [] };
    if (box.right > document.documentElement.clientWidth + 0.5) r.outside.push('the picture: right edge at ' + Math.round(box.right));
    svg.querySelectorAll('*').forEach(function (el) {
      if (/^(title|g|tspan|defs)$/.test(el.tagName)) return;
      var b = el.getBoundingClientRect();
      if (!b.width && !b.height) return;
      if (b.left < box.left - 0.5 || b.top < box.top - 0.5 || b.right > box.right + 0.5 || b.bottom > box.bottom + 0.5)
        r.outside.push(el.tagName + ' "' + (el.textContent || '').slice(0, 30) + '"');
      if (el.tagName === 'text') {
        var px = parseFloat(getComputedStyle(el).fontSize) * scale;
        if (px < 10.95) r.small.push('"' + el.textContent.slice(0, 30) + '" ' + px.toFixed(1) + ' px');
      }
    });
    out.push(r);
  });
  return JSON.stringify(out);
})()]]

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
