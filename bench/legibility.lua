-- bench/legibility.lua — the Eurogames' pictures at their largest observed states: for
-- each game, N seeded playouts (alternately uniform random and heuristic, ε = 0.1, three
-- seats) keep the states where some part of the observation is at its largest (a list's
-- length, a map's spread, a name's length, a number's digits: tabula.view.legibility's
-- sweep); each is drawn from seat 1's observation and as the spectator, laid out as the
-- report does and checked in headless Chromium at 1400 px (nothing outside the picture's
-- box, no text under 11 px, no text over another). With them, --sample N (default 40) states
-- drawn uniformly from all those measured. Prints per game the states measured
-- and checked, the largest drawing, and the problems found (the first few of each kind).
-- Run: nice -n 10 tabula bench/legibility.lua [--playouts 300] [--games azul,brass] [--players 3] [--seed 1] [--sample 40]
--   [--keep DIR] (the test pages are left in DIR)
local loop = require "tabula.loop"
local chromium = require "tabula.chromium"
local L = require "tabula.view.legibility"
local fs = require "tabula.fs"

local TEN = { "azul", "splendor", "century", "7wonders", "carcassonne", "arknova", "brass", "burgundy", "harmonies", "wingspan" }
local opts = { playouts = 300, games = TEN, players = 3, seed = 1, sample = 40 }
local k = 1
while arg[k] do
  local a, v = arg[k], arg[k + 1]
  if a == "--playouts" then opts.playouts = assert(tonumber(v), "--playouts N")
  elseif a == "--players" then opts.players = assert(tonumber(v), "--players N")
  elseif a == "--seed" then opts.seed = assert(math.tointeger(tonumber(v)), "--seed N")
  elseif a == "--keep" then opts.keep = v
  elseif a == "--sample" then opts.sample = assert(math.tointeger(tonumber(v)), "--sample N")
  elseif a == "--games" then
    opts.games = {}
    for g in v:gmatch("[^,]+") do opts.games[#opts.games + 1] = g end
  else error("unknown option " .. a .. " (--playouts N --games a,b --players N --seed N --sample N --keep DIR)", 0) end
  k = k + 2
end

local function first(list, m)
  local out = {}
  for i = 1, math.min(m, #list) do out[i] = list[i] end
  return table.concat(out, "; ") .. (#list > m and string.format("; … (%d in all)", #list) or "")
end

loop.run(function()
  local b, why = chromium.start()
  if not b then print("no Chromium: " .. tostring(why)); return end
  local dir = opts.keep or (function() local d = os.tmpname(); os.remove(d); return d end)()
  fs.mkdir_p(dir)
  local t_all = os.clock()
  local w_all = loop.now()
  print(string.format("legibility: %d playouts a game, %d seats, seed %d, window %d x %d", opts.playouts, opts.players, opts.seed, L.WIDTH, L.HEIGHT))
  local total = 0
  for _, g in ipairs(opts.games) do
    local G = require("games." .. g)
    local t0 = os.clock()
    local kept, measured = L.sweep(G, { playouts = opts.playouts, players = opts.players, seed = opts.seed, sample = opts.sample })
    local t1 = os.clock()
    local pics, size, sampled = {}, { chars = 0 }, 0
    for _, c in ipairs(kept) do
      if c.why[1] == "(sampled)" then sampled = sampled + 1 end
      local mine, pub = L.views(G, c.state)
      local tag = string.format("%s playout %d step %d", g, c.playout, c.step)
      pics[#pics + 1] = { id = tag .. " seat 1", svg = mine, why = c.why }
      pics[#pics + 1] = { id = tag .. " spectator", svg = pub, why = c.why }
      for _, s in ipairs({ mine, pub }) do
        if #s > size.chars then
          local w, h = s:match('viewBox="0 0 ([%d.]+) ([%d.]+)"')
          local _, texts = s:gsub("<text", "")
          size = { chars = #s, w = w, h = h, texts = texts, tag = tag }
        end
      end
    end
    local t2, w2 = os.clock(), loop.now()
    local gdir = dir .. "/" .. g
    fs.mkdir_p(gdir)
    local res = L.check(b, gdir, pics, { overlap = true })
    local bad, outside, small, overlap = 0, {}, {}, {}
    for i, r in ipairs(res) do
      if L.problems(r) > 0 then bad = bad + 1 end
      for _, x in ipairs(r.outside) do outside[#outside + 1] = x .. " (" .. pics[i].id .. ")" end
      for _, x in ipairs(r.small) do small[#small + 1] = x .. " (" .. pics[i].id .. ")" end
      for _, x in ipairs(r.overlap) do overlap[#overlap + 1] = x .. " (" .. pics[i].id .. ")" end
    end
    total = total + bad
    print(string.format("%-12s %d states measured, %d kept (%d largest in some part, %d sampled), %d pictures checked, %d with problems; largest drawing %d chars, %s x %s, %d texts (%s); "
      .. "play+measure %.1f s, draw %.1f s, check in Chromium %.1f s",
      g, measured, #kept, #kept - sampled, sampled, #pics, bad, size.chars, tostring(size.w), tostring(size.h), size.texts or 0, tostring(size.tag),
      t1 - t0, t2 - t1, loop.now() - w2))
    if #outside > 0 then print("    outside: " .. first(outside, 4)) end
    if #small > 0 then print("    under 11 px: " .. first(small, 4)) end
    if #overlap > 0 then print("    text over text: " .. first(overlap, 4)) end
    if not opts.keep then fs.remove_tree(gdir) end
  end
  b:close()
  if not opts.keep then fs.remove_tree(dir) end
  print(string.format("legibility: %d pictures with problems in all; %.0f s of CPU in this process, %.0f s on the clock",
    total, os.clock() - t_all, loop.now() - w_all))
end)
