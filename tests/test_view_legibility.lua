-- The Eurogames' pictures can be read in the report (tabula.view.legibility): for each of
-- the ten games, the largest states of a seeded sweep of playouts, drawn from seat 1's
-- observation and as the spectator, lie inside their box with no text under 11 px and no
-- text over another at 1400 px; and each defect the long sweep (bench/legibility.lua)
-- found stays fixed, each on a state that showed it.
-- slow: five playouts of each of the ten Eurogames, their largest states drawn and checked in headless Chromium (the 300-playout sweep is bench/legibility.lua)
local t = require "tabula.testing"
local L = require "tabula.view.legibility"
local test, T = t.suite()

local TEN = { "azul", "splendor", "century", "7wonders", "carcassonne", "arknova", "brass", "burgundy", "harmonies", "wingspan" }

-- check(pictures) -> the results of the check with the overlap rule, one per picture
local function check(pictures) return L.check(t.browser(), t.tmpdir(), pictures, { overlap = true }) end

-- views(G, o) -> seat 1's view of observation o and the spectator's, the seats named
local function views(G, o)
  local mine, pub = {}, {}
  for k, v in pairs(o) do mine[k], pub[k] = v, v end
  mine.names = { table.unpack(L.NAMES, 1, o.n) }
  pub.names, pub.spectator = mine.names, true
  return { { id = G.name .. " seat 1", svg = G.svg(mine) }, { id = G.name .. " spectator", svg = G.svg(pub) } }
end

local function clean(res, what)
  for _, r in ipairs(res) do
    t.eq(r.outside, {}, (what or r.pic) .. ": outside the picture's box")
    t.eq(r.small, {}, (what or r.pic) .. ": text under 11 px")
    t.eq(r.overlap, {}, (what or r.pic) .. ": text over text")
  end
end

test("the check: a text outside the box, a small text, two texts over each other and a text half under a shape are each found; a text under a tile is not", function()
  local svg = '<svg class="board x" viewBox="0 0 300 200" width="300" height="200" font-family="DejaVu Sans,sans-serif">'
    .. '<text x="10" y="20" font-size="12">inside</text>'
    .. '<text x="250" y="40" font-size="12">runs past the right edge</text>'
    .. '<text x="10" y="60" font-size="9">tiny</text>'
    .. '<text x="10" y="100" font-size="12">first words</text><text x="30" y="102" font-size="12">second words</text>'
    .. '<text x="150" y="150" font-size="12">6</text><rect x="140" y="130" width="30" height="30" fill="#333"/>'
    .. '<text x="148" y="150" font-size="12" fill="#fff">Cs</text>'
    .. '<text x="10" y="180" font-size="12">half covered</text><rect x="40" y="165" width="60" height="30" fill="#333"/></svg>'
  local res = check({ { id = "made", svg = svg } })
  t.eq(#res, 1)
  t.eq(res[1].outside, { 'text "runs past the right edge"' })
  t.eq(#res[1].small, 1)
  t.contains(res[1].small[1], '"tiny" 9.0 px')
  t.eq(res[1].overlap, { '"first words" over "second words"', '"half covered" partly under a rect' },
    "the pair drawn over each other, the text half under a later rectangle, and not the number under the tile")
  -- the viewer's test's check is the same script without the overlap rule
  t.ok(not L.CHECK:find("OVERLAP = true", 1, true) and L.script({ overlap = true }):find("OVERLAP = true", 1, true), "the rule is optional")
end)

test("sweep: for each of the ten Eurogames, the largest states of 5 seeded playouts pass the check, seat 1's view and the spectator's", function()
  t.need_browser()
  local pictures, kept = {}, {}
  local playouts = 5     -- bench/legibility.lua sweeps hundreds
  for _, g in ipairs(TEN) do
    local G = require("games." .. g)
    local states = L.sweep(G, { playouts = playouts, seed = 3, sample = 2 })
    t.ok(#states >= playouts, g .. ": several largest states kept (" .. #states .. ")")
    kept[g] = #states
    for _, c in ipairs(states) do
      local mine, pub = L.views(G, c.state)
      local tag = string.format("%s playout %d step %d (largest in %s)", g, c.playout, c.step, table.concat(c.why, " ", 1, math.min(3, #c.why)))
      pictures[#pictures + 1] = { id = tag .. ", seat 1", svg = mine }
      pictures[#pictures + 1] = { id = tag .. ", spectator", svg = pub }
    end
  end
  local res = check(pictures)
  t.eq(#res, #pictures, "every picture checked")
  clean(res)
end)

test("sweep: a part's largest state is kept, with the parts it is largest in", function()
  local G = require "games.azul"
  local states = L.sweep(G, { playouts = 4, seed = 5 })
  local best, floor = -1, nil
  for _, c in ipairs(states) do
    for _, why in ipairs(c.why) do if why == ".players[].floor#" then floor = c end end
  end
  t.ok(floor, "the longest floor line has a state")
  -- no state of those playouts has a longer floor line than the kept one
  local kit = require "games.kit"
  for m = 1, 4 do
    local seed = 5 * 100000 + m
    local rand = kit.generator(seed)
    local s = G.setup(3, seed)
    local ism = require "games.ismcts"
    while #G.current_seats(s) > 0 do
      for _, seat in ipairs(G.current_seats(s)) do
        local legal = G.legal_actions(s, seat, true)
        assert(G.apply(s, seat, m % 2 == 0 and ism.heuristic_pick(G, s, seat, legal, rand, 0.1) or legal[rand(#legal)].id))
      end
      for _, p in ipairs(G.observation(s, 1).players) do best = math.max(best, #p.floor) end
    end
  end
  local kept = 0
  for _, p in ipairs(G.observation(floor.state, 1).players) do kept = math.max(kept, #p.floor) end
  t.eq(kept, best, "the kept state's floor line is the longest of the sweep")
end)

-- Splendor: on a reserved card (the small one) the fourth cost gem's number (11 px) was
-- drawn over the card's points
test("splendor: a reserved card with points and four costs shows its points clear of its costs", function()
  local G = require "games.splendor"
  local o = G.observation(G.setup(3, 1), 1)
  local players = {}
  for k, p in ipairs(o.players) do players[k] = p end
  local p1 = {}
  for k, v in pairs(o.players[1]) do p1[k] = v end
  p1.reserved = { { level = 3, points = 3, bonus = "white", cost = { blue = 3, green = 3, red = 5, black = 3 } },
    { level = 2, points = 2, bonus = "red", cost = { white = 2, blue = 3, green = 2, black = 2 } } }
  players[1] = p1
  o.players = players
  local pics = views(G, o)
  t.contains(pics[1].svg, 'class="card reserved"', "the reserved cards are drawn")
  clean(check(pics))
end)

-- Harmonies: the cards' habitat numbers, their point tracks (3/6/10/15) and the boards'
-- space names had no legend
test("harmonies: a legend says what the cards' and boards' numbers and names stand for", function()
  local G = require "games.harmonies"
  local pics = views(G, G.observation(G.setup(3, 1), 1))
  for _, p in ipairs(pics) do
    t.contains(p.svg, "the ringed hex takes the cube", p.id)
    t.contains(p.svg, "spaces a1-e5", p.id)
  end
  clean(check(pics))
end)

-- Carcassonne: the seats stood side by side above the map, by bare name, a long name
-- running toward the next seat's disc; now a line each, named as every other picture names them
test("carcassonne: a line per seat above the map, each named (seat k), (you) only in the seat's own view", function()
  local G = require "games.carcassonne"
  local pics = views(G, G.observation(G.setup(3, 1), 1))
  for _, p in ipairs(pics) do
    for k = 1, 3 do t.contains(p.svg, L.NAMES[k] .. " (seat " .. k .. ")", p.id .. ": seat " .. k) end
  end
  t.contains(pics[1].svg, "(seat 1) (you)")
  t.ok(not pics[2].svg:find("(you)", 1, true), "no (you) for the spectator")
  clean(check(pics))
end)

-- Ark Nova: from the sixth conservation project on, the row of projects ran past the
-- picture's right edge (190 px a project in a 984 px picture)
test("arknova: eight conservation projects are drawn inside the picture", function()
  local G = require "games.arknova"
  local o = G.observation(G.setup(3, 1), 1)
  local projects = {}
  for k = 1, 8 do projects[k] = { id = "p" .. (120 + k), levels = { k % 3, 0, 2 } } end
  o.projects = projects
  local res = check(views(G, o))
  clean(res)
  for _, r in ipairs(res) do t.eq(r.overlap, {}, "the second row of projects stays clear of the first zoo") end
end)

-- Brass: at 52 px a grid step the town names, the spaces' letters and the merchants' two
-- lines (all raised to 11 px) ran over each other; the panel named the seats P1, P2, P3
test("brass: the map's names, spaces and merchants do not run over each other; the panel names each seat", function()
  local G = require "games.brass"
  local pics = views(G, G.observation(G.setup(3, 1), 1))
  clean(check(pics))
  for _, p in ipairs(pics) do
    for k = 1, 3 do t.contains(p.svg, L.NAMES[k] .. " (seat " .. k .. ")", p.id .. ": seat " .. k .. " named") end
  end
  t.ok(pics[1].svg:find("(seat 1) (you)", 1, true) and not pics[2].svg:find("(you)", 1, true), "(you) only in seat 1's own view")
end)

-- Burgundy: the legend of the tiles' marks stood beside the first estate, over the first
-- player's line; a depot's goods (nine of them in the 30-playout sweep) ran on one line
-- into the next depot
test("burgundy: the legend of the tiles' marks is not drawn over a player's line; a depot's many goods stay in their depot", function()
  local G = require "games.burgundy"
  local o = G.observation(G.setup(3, 1), 1)
  local pics = views(G, o)
  clean(check(pics))
  t.contains(pics[1].svg, "Cs castle", "the legend is there")
  local depots = {}
  for k, d in ipairs(o.depots) do depots[k] = d end
  local d1 = {}
  for k, v in pairs(o.depots[1]) do d1[k] = v end
  d1.goods = { 1, 1, 2, 3, 4, 5, 5, 6, 6, 2, 3 }
  depots[1] = d1
  o.depots = depots
  pics = views(G, o)
  clean(check(pics))
  t.contains(pics[1].svg, "goods 1,1,2,3,4<", "the goods' first line")
  t.contains(pics[1].svg, ">5,5,6,6,2<", "the second")
end)

-- Wingspan: a long bird name ran under the next card of its row (slots of 150 px)
test("wingspan: the longest bird name beside another bird stays on its own card", function()
  local G = require "games.wingspan"
  local D = require "games.wingspan.data"
  local s = G.setup(3, 1)
  local o = G.observation(s, 1)
  local long, other
  for _, b in ipairs(D.BIRDS) do
    if not long or #b.name > #long.name then long = b end
  end
  for _, b in ipairs(D.BIRDS) do if b ~= long and #b.name >= 20 then other = b end end
  t.eq(long.name, "Black-Bellied Whistling-Duck")
  local cards, any = {}, nil
  for k, v in pairs(o.cards) do cards[k] = v; any = any or v end
  local function entry(b)
    local c = {}
    for k, v in pairs(any) do c[k] = v end
    c.name = b.name
    return c
  end
  cards.long_one, cards.other_one = entry(long), entry(other)
  o.cards = cards
  local rows = {}
  for _, h in ipairs({ "forest", "grassland", "wetland" }) do
    rows[h] = {}
    for c = 1, 5 do rows[h][c] = { id = c % 2 == 1 and "long_one" or "other_one", eggs = 2, tucked = 3, cache = 12 } end
  end
  local players = {}
  for k, p in ipairs(o.players) do players[k] = p end
  local p1 = {}
  for k, v in pairs(o.players[1]) do p1[k] = v end
  p1.rows = rows
  players[1] = p1
  o.players = players
  clean(check(views(G, o)))
end)

-- 7 Wonders and Wingspan: abbreviations with no legend ("civ · sci · com · mil · won · gld";
-- "R1: … [4/0/0]"; the goals' ids, "nest_birds:bowl") are spelled out
test("7wonders, wingspan: the points by kind and the round goals are spelled out, not abbreviated", function()
  local W7 = require "games.7wonders"
  local pics = views(W7, W7.observation(W7.setup(3, 1), 1))
  for _, p in ipairs(pics) do
    t.contains(p.svg, "points: civilian 0 · science 0 · commercial 0 · military 0 · wonder 0 · guilds 0 · coins", p.id)
    t.ok(not p.svg:find("civ %d+ · sci"), p.id .. ": no abbreviations")
  end
  clean(check(pics))
  local WS = require "games.wingspan"
  local o = WS.observation(WS.setup(3, 1), 1)
  pics = views(WS, o)
  for _, p in ipairs(pics) do
    t.contains(p.svg, "Round goals (green side; once scored, [the points of seat 1/2/3...]):", p.id)
    t.ok(not p.svg:find(">R1: ", 1, true) and not p.svg:find(" R2: ", 1, true), p.id .. ": no R1, R2")
    -- each goal in the prompt's words, never its id ("nest_birds:bowl")
    for r, g in ipairs(o.goals) do
      t.contains(p.svg, "round " .. r .. ": " .. require("games.wingspan.data").goal_words(g.goal), p.id)
      t.ok(not p.svg:find(g.goal, 1, true), p.id .. ": the goal's id " .. g.goal .. " not shown")
    end
  end
  clean(check(pics))
end)

-- Carcassonne: the open positions (the squares a tile may go to next) and the square of the
-- tile just placed lie inside the map's frame (a guard: the frame already took the open
-- positions in; the long sweep found none outside)
test("carcassonne: the open positions and the placed tile's square lie inside the map's frame", function()
  local G = require "games.carcassonne"
  local checked = 0
  for _, c in ipairs(L.sweep(G, { playouts = 10, seed = 4 })) do
    local mine, pub = L.views(G, c.state)
    for _, svg in ipairs({ mine, pub }) do
      local fx, fy, fw, fh = svg:match('<rect x="([%d.-]+)" y="([%d.-]+)" width="([%d.]+)" height="([%d.]+)" fill="#eceff1"')
      fx, fy, fw, fh = tonumber(fx), tonumber(fy), tonumber(fw), tonumber(fh)
      t.ok(fx, "the map's frame")
      for x, y, w, h, cls in svg:gmatch('<rect x="([%d.-]+)" y="([%d.-]+)" width="([%d.]+)" height="([%d.]+)" class="(%a+)"') do
        if cls == "open" or cls == "placed" then
          x, y, w, h = tonumber(x), tonumber(y), tonumber(w), tonumber(h)
          t.ok(x >= fx and y >= fy and x + w <= fx + fw and y + h <= fy + fh,
            string.format("%s square at %s,%s inside the frame %s,%s %sx%s", cls, x, y, fx, fy, fw, fh))
          checked = checked + 1
        end
      end
    end
  end
  t.ok(checked > 100, "squares checked: " .. checked)
end)

-- Century: on a trade card with five or six spices received, the card's number (drawn in
-- the bottom right corner) lay over the last cubes; it is now in the top right corner, the
-- card's kind at the top left
test("century: a card's number stays clear of its cubes and its title, on every merchant card of the deck", function()
  local G = require "games.century"
  local C = require "games.century.cards"
  local SP = { "yellow", "red", "green", "brown" }
  local function spices(a)
    local s = {}
    for k, c in ipairs(SP) do s[c] = a and a[k] or 0 end
    return s
  end
  local o = G.observation(G.setup(3, 1), 1)
  local checked, crowded = 0, 0
  for id, m in ipairs(C.merchants) do
    local card = { id = id, kind = m[1], cost = 0, spices_on = spices() }
    if m[1] == "trade" then card.pays, card.gives = spices(m[2]), spices(m[3])
    elseif m[1] == "produce" then card.gives = spices(m[2])
    else card.upgrades = m[2] end
    local market = { card }
    for k = 2, #o.market do market[k] = o.market[k] end
    o.market = market
    local svg = G.svg(o)
    local g = svg:match('<g class="card market">(.-)</g>')
    t.ok(g, "card " .. id .. " drawn in the market")
    -- the number's box: anchored at its end, 0.6 em a character, from 0.8 em above the baseline
    local x, y, fs, text = g:match('<text x="([%d.]+)" y="([%d.]+)"[^>]* font%-size="([%d.]+)" text%-anchor="end">(#%d+)</text>')
    t.ok(x, "card " .. id .. ": its number")
    x, y, fs = tonumber(x), tonumber(y), tonumber(fs)
    local x0, x1, y0, y1 = x - 0.6 * fs * #text, x, y - 0.8 * fs, y + 0.2 * fs
    local function apart(rx, ry, rw, rh) return rx >= x1 or rx + rw <= x0 or ry >= y1 or ry + rh <= y0 end
    local cubes = 0
    for rx, ry, rw, rh in g:gmatch('<rect x="([%d.]+)" y="([%d.]+)" width="([%d.]+)" height="([%d.]+)" class="spice') do
      cubes = cubes + 1
      t.ok(apart(tonumber(rx), tonumber(ry), tonumber(rw), tonumber(rh)),
        string.format("card %d: a cube at %s,%s under its number %s (%.0f..%.0f, %.0f..%.0f)", id, rx, ry, text, x0, x1, y0, y1))
    end
    -- the title (the card's kind, from its left end) ends before the number begins
    local tx, tfs, anchor = g:match('<text x="([%d.]+)" y="[%d.]+"[^>]* font%-size="([%d.]+)"([^>]*)>' .. m[1] .. '</text>')
    t.ok(tx, "card " .. id .. ": its title")
    t.eq(anchor, "", "card " .. id .. ": the title drawn from its left end")
    t.ok(tonumber(tx) + 0.6 * tonumber(tfs) * #m[1] <= x0, "card " .. id .. ": the title clear of the number")
    if cubes >= 5 then crowded = crowded + 1 end
    checked = checked + 1
  end
  t.eq(checked, #C.merchants)
  t.ok(crowded >= 3, "cards with five or more cubes checked: " .. crowded)
end)

return T
