-- tabula.view.legibility — whether the games' pictures (G.svg) can be read in the
-- report: a test page laying the pictures out as a match view does (report.css, a
-- .tv with the picture in its board pane beside a transcript), and the in-page check
-- run on it in Chromium, at 1400 px. The one place for the rules, shared by the
-- viewer's tests and bench/legibility.lua:
--   * nothing of a picture lies outside the picture's own box, and the picture
--     itself ends inside the window;
--   * no text reads under 11 px (its font size times the scale the page draws the
--     picture at);
--   * (with the overlap rule) no text is drawn over another text, and no text lies
--     partly under a painted shape drawn after it (a long name under the next card);
--     a shape laid over a whole text (a tile on a space's number) hides it on purpose.
-- CHECK is the first two rules alone, as tests/test_view_dece.lua's check has them.
--
--   local L = require "tabula.view.legibility"
--   local html = L.page({ { id = "azul end", svg = G.svg(o) }, ... })
--   local res = L.check(browser, dir, pictures, { overlap = true })
--   -- res[k] = { pic = id, outside = {...}, small = {...}, overlap = {...} }, as pictures
local fs = require "tabula.fs"
local json = require "tabula.json"

local M = {}

M.WIDTH, M.HEIGHT = 1400, 1000    -- the window the report is read in
M.MIN_PX = 11                     -- the smallest text a person reads in a picture
M.PER_PAGE = 40                   -- pictures per test page (pages stay a few MB)

-- the script's body: for each [data-pic] element of the page, what lies outside its
-- picture's box and which texts read under MIN_PX; with overlap, also the pairs of
-- texts drawn over each other (their boxes cross by more than 2 px each way)
local BODY = [[
  var out = [];
  // hidden(p, q, x, y): at page point x, y, a painted shape drawn over the lower of
  // texts p and q hides that text whole (a tile laid on a space's number); a shape
  // hiding only part of it (the next card over a long name) hides nothing
  function hidden(p, q, x, y) {
    window.scrollTo(0, Math.max(0, y - innerHeight / 2));
    var stack = document.elementsFromPoint(x - scrollX, y - scrollY), top = null, shapes = [];
    for (var k = 0; k < stack.length; k++) {
      var e = stack[k];
      var which = (e === p || p.contains(e)) ? p : (e === q || q.contains(e)) ? q : null;
      if (which) {
        if (!top) { top = which; continue; }
        if (which === top) continue;
        var lo = which.getBoundingClientRect();
        return shapes.some(function (s) {
          var b = s.getBoundingClientRect();
          return b.left <= lo.left + 0.5 && b.right >= lo.right - 0.5 && b.top <= lo.top + 0.5 && b.bottom >= lo.bottom - 0.5;
        });
      }
      if (top && /^(rect|polygon|path|circle|ellipse)$/.test(e.tagName)) shapes.push(e);
    }
    return false;
  }
  document.querySelectorAll('[data-pic]').forEach(function (d) {
    var svg = d.querySelector('.fboard > svg'), box = svg.getBoundingClientRect(), scale = box.width / svg.viewBox.baseVal.width;
    var r = { pic: d.getAttribute('data-pic'), outside: [], small: [], overlap: [] }, texts = [], shapes = [];
    if (box.right > document.documentElement.clientWidth + 0.5) r.outside.push('the picture: right edge at ' + Math.round(box.right));
    svg.querySelectorAll('*').forEach(function (el) {
      if (/^(title|g|tspan|defs)$/.test(el.tagName)) return;
      var b = el.getBoundingClientRect();
      if (!b.width && !b.height) return;
      if (b.left < box.left - 0.5 || b.top < box.top - 0.5 || b.right > box.right + 0.5 || b.bottom > box.bottom + 0.5)
        r.outside.push(el.tagName + ' "' + (el.textContent || '').slice(0, 30) + '"');
      if (el.tagName === 'text') {
        var px = parseFloat(getComputedStyle(el).fontSize) * scale;
        if (px < MIN - 0.05) r.small.push('"' + el.textContent.slice(0, 30) + '" ' + px.toFixed(1) + ' px');
        texts.push({ b: { left: b.left + scrollX, right: b.right + scrollX, top: b.top + scrollY, bottom: b.bottom + scrollY }, s: el.textContent, el: el });
      } else if (OVERLAP && /^(rect|polygon|path|circle|ellipse)$/.test(el.tagName)) {
        var st = getComputedStyle(el);
        if (st.fill !== 'none' && parseFloat(st.opacity) >= 0.5 && parseFloat(st.fillOpacity) >= 0.5)
          shapes.push({ b: { left: b.left + scrollX, right: b.right + scrollX, top: b.top + scrollY, bottom: b.bottom + scrollY },
            at: texts.length, tag: el.tagName });
      }
    });
    if (OVERLAP) {
      // two texts whose boxes cross, unless a painted shape lies between them there
      // (a tile laid over a space's number hides the number: nothing is overprinted)
      for (var i = 0; i < texts.length; i++) for (var j = i + 1; j < texts.length; j++) {
        var a = texts[i].b, c = texts[j].b;
        var w = Math.min(a.right, c.right) - Math.max(a.left, c.left), h = Math.min(a.bottom, c.bottom) - Math.max(a.top, c.top);
        if (w > 2 && h > 2 && !hidden(texts[i].el, texts[j].el, Math.max(a.left, c.left) + w / 2, Math.max(a.top, c.top) + h / 2))
          r.overlap.push('"' + texts[i].s.slice(0, 30) + '" over "' + texts[j].s.slice(0, 30) + '"');
      }
      // a text partly under a painted shape drawn after it (a long name under the next
      // card); a shape laid over the whole text hides it on purpose (a tile on a number)
      shapes.forEach(function (sh) {
        var b = sh.b;
        for (var i = 0; i < sh.at; i++) {
          var a = texts[i].b, l = a.left, t = a.top, rr = a.right, bb = a.bottom;
          var w = Math.min(rr, b.right) - Math.max(l, b.left), h = Math.min(bb, b.bottom) - Math.max(t, b.top);
          if (w > 2 && h > 2 && !(b.left <= l + 0.5 && b.right >= rr - 0.5 && b.top <= t + 0.5 && b.bottom >= bb - 0.5))
            r.overlap.push('"' + texts[i].s.slice(0, 30) + '" partly under a ' + sh.tag);
        }
      });
    }
    out.push(r);
  });
  return JSON.stringify(out);
]]

-- script(opts) -> the JavaScript expression of the check (its value: the results as
-- JSON); opts.overlap adds the overlap rule
function M.script(opts)
  opts = opts or {}
  return "(function () { var MIN = " .. M.MIN_PX .. ", OVERLAP = " .. (opts.overlap and "true" or "false") .. ";\n"
    .. BODY .. "})()"
end

-- the check with the two rules of the viewer's test (outside, small)
M.CHECK = M.script()

local function esc(s) return (tostring(s):gsub("[&<>\"']", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" })) end

-- page(pictures [, css]) -> a test page holding each picture ({ id = , svg = }) as the
-- report lays a match view out: the picture in its board pane beside a transcript, in a
-- .tv of #view, styled by report.css (css: its text; default the file's)
function M.page(pictures, css)
  css = css or fs.read(require("tabula.c.host").root .. "/lua/tabula/view/report.css")
  local body = {}
  for k, p in ipairs(pictures) do
    body[k] = string.format('<div class="tv" data-pic="%s"><div class="cols"><div class="boardpane"><figure class="frame cur">'
      .. '<div class="fboard">%s</div></figure></div><div class="transcript"><div class="msg">a reply</div></div></div></div>',
      esc(p.id), p.svg)
  end
  return '<!doctype html><html><head><meta charset="utf-8"><style>' .. css .. '</style></head><body><section id="view">'
    .. table.concat(body) .. "</section></body></html>"
end

-- check(browser, dir, pictures [, opts]) -> the results, one per picture in order
-- ({ pic, outside, small, overlap }): the pictures laid out on test pages written
-- into dir (PER_PAGE a page), each opened at WIDTH x HEIGHT in browser (tabula.chromium)
-- and checked; opts.overlap adds the overlap rule
function M.check(browser, dir, pictures, opts)
  local css = fs.read(require("tabula.c.host").root .. "/lua/tabula/view/report.css")
  local res, script = {}, M.script(opts)
  for first = 1, #pictures, M.PER_PAGE do
    local part = { table.unpack(pictures, first, math.min(#pictures, first + M.PER_PAGE - 1)) }
    local path = string.format("%s/pictures-%d.html", dir, first)
    assert(fs.write_atomic(path, M.page(part, css)))
    local p = browser:open("file://" .. path, { width = M.WIDTH, height = M.HEIGHT })
    local ok, got = pcall(p.eval, p, script)
    p:close()
    if not ok then error(got, 0) end
    got = json.decode(got)
    assert(#got == #part, "a result for every picture")
    for _, r in ipairs(got) do res[#res + 1] = r end
  end
  return res
end

-- problems(r) -> how many problems one result lists
function M.problems(r) return #r.outside + #r.small + #(r.overlap or {}) end

-- ---------------------------------------------------------------------------
-- The largest states a game reaches: a sweep of seeded playouts keeps, for every
-- part of the observation that can grow (a list's length, the spread of a list of
-- placed things in x and in y, a table's number of keys, a text's length, a number's
-- digits, and all the lists' lengths together), the first state where it reached its largest value. A
-- drawing runs out of its box where some one part of it is at its largest (a long
-- hand, a wide map, a long name), not where the drawing is longest overall, so each
-- part's largest state is checked. Measured on seat 1's observation (cheap; drawing
-- every state would cost tens of times more).

-- the names the report gives the seats (participants' names, some long)
M.NAMES = { "heuristic-epsilon-0.1", "ismcts-1024x18", "anthropic:claude-opus-4.7", "random", "openai:gpt-5.5-high" }

-- a key that names one of many like it (a card id, a location): folded into "*"
local function folded(k) return type(k) ~= "string" or not k:match("^[%a_]+$") or #k > 24 end

-- measures(o) -> { [part] = value }: how large each part of observation o is
function M.measures(o)
  local acc, total = {}, 0
  local function put(k, v) if not acc[k] or v > acc[k] then acc[k] = v end end
  local function walk(v, path)
    local t = type(v)
    if t == "string" then put(path .. "$", utf8.len(v) or #v)
    elseif t == "number" then put(path .. "9", #string.format("%.0f", v))
    elseif t == "table" then
      if #v > 0 or next(v) == nil then
        put(path .. "#", #v)
        total = total + #v
        local x0, x1, y0, y1
        for _, e in ipairs(v) do
          if type(e) == "table" and type(e.x) == "number" and type(e.y) == "number" then
            x0, x1 = math.min(x0 or e.x, e.x), math.max(x1 or e.x, e.x)
            y0, y1 = math.min(y0 or e.y, e.y), math.max(y1 or e.y, e.y)
          end
          walk(e, path .. "[]")
        end
        if x0 then put(path .. "<x>", x1 - x0); put(path .. "<y>", y1 - y0) end
      else
        local keys = 0
        for k, e in pairs(v) do keys = keys + 1; walk(e, path .. "." .. (folded(k) and "*" or k)) end
        put(path .. "{}", keys)
      end
    end
  end
  walk(o, "")
  acc["(all lists)"] = total
  return acc
end

-- playout(G, seed, heuristic, each): one seeded match of 3 seats (opts.players) played
-- to its end by uniform random choices or by the heuristic (ε = 0.1); each(state, step)
-- after every step
local function playout(G, seed, heuristic, players, each)
  local kit, ismcts = require "games.kit", require "games.ismcts"
  local rand = kit.generator(seed)
  local s, step = G.setup(players, seed), 0
  while #G.current_seats(s) > 0 and step < 5000 do
    for _, seat in ipairs(G.current_seats(s)) do
      local legal = G.legal_actions(s, seat, true)
      local id = heuristic and ismcts.heuristic_pick(G, s, seat, legal, rand, 0.1) or legal[rand(#legal)].id
      assert(G.apply(s, seat, id))
    end
    step = step + 1
    each(s, step)
  end
end

-- sweep(G, opts) -> the kept states, a list of { state = , why = { parts }, playout = , step = },
-- and the number of states measured. opts.playouts (default 300), opts.seed (default 1),
-- opts.players (default 3); playouts alternate uniform random and heuristic play.
-- opts.sample (default 0) adds that many states drawn uniformly from all the states
-- measured (seeded reservoir sampling; why = { "(sampled)" }): a defect that needs two
-- parts together (a card with four costs and points) need not show at any part's largest
function M.sweep(G, opts)
  opts = opts or {}
  local kit = require "games.kit"
  local best, kept, measured = {}, {}, 0
  local sample, pick = {}, kit.generator((opts.seed or 1) * 7 + 3)
  for m = 1, opts.playouts or 300 do
    local seed = (opts.seed or 1) * 100000 + m
    playout(G, seed, m % 2 == 0, opts.players or 3, function(s, step)
      measured = measured + 1
      local k = opts.sample or 0
      if k > 0 then
        local slot = measured <= k and measured or pick(measured)
        if slot <= k then sample[slot] = { state = kit.copy(s), playout = m, step = step, why = { "(sampled)" } } end
      end
      local copy
      for part, v in pairs(M.measures(G.observation(s, 1))) do
        local b = best[part]
        if not b or v > b.value then
          if not copy then
            copy = { state = kit.copy(s), playout = m, step = step }
            kept[#kept + 1] = copy
          end
          best[part] = { value = v, at = copy }
        end
      end
    end)
  end
  -- the states still largest in some part, each with the parts it is largest in
  local why = {}
  for part, b in pairs(best) do
    why[b.at] = why[b.at] or {}
    table.insert(why[b.at], part)
  end
  local out, seen = {}, {}
  for _, c in ipairs(kept) do
    if why[c] then
      table.sort(why[c])
      c.why = why[c]
      out[#out + 1] = c
      seen[c.playout .. ":" .. c.step] = true
    end
  end
  table.sort(sample, function(a, b) return a.playout < b.playout or (a.playout == b.playout and a.step < b.step) end)
  for _, c in ipairs(sample) do
    if not seen[c.playout .. ":" .. c.step] then out[#out + 1] = c end
  end
  return out, measured
end

-- views(G, state) -> the two drawings the report makes of a state: seat 1's own view
-- (its observation, the seats named) and the spectator's public view built from it
-- (as scenarios/dece/view.lua does: seat 1's panel as seat 2 sees it, no private holdings)
function M.views(G, state)
  local n = state.n or #G.current_seats(state)
  local names = { table.unpack(M.NAMES, 1, math.max(n, 1)) }
  local o = G.observation(state, 1)
  local mine, pub = {}, {}
  for k, v in pairs(o) do mine[k], pub[k] = v, v end
  mine.names = names
  local other = n > 1 and G.observation(state, 2)
  if type(o.players) == "table" and other and type(other.players) == "table" and other.players[1] then
    local players = {}
    for k, x in ipairs(o.players) do players[k] = x end
    players[1] = other.players[1]
    pub.players = players
  end
  pub.spectator, pub.names = true, names
  return G.svg(mine), G.svg(pub)
end

return M
