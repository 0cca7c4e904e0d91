-- games.azul — Azul (Plan B Games, 2017 rulebook, 2–4 players) against the game
-- interface of games/README.md. Choices where the rulebook leaves room: games/azul/RULES.md.
local kit = require "games.kit"

local G = {
  name = "azul", title = "Azul", players = { min = 2, max = 4 },
  annotations = { engine = 0, spatial = 2, sequencing = 1, coupling = 2, hidden = 0, scoring = 1 },
  rules_file = "games/azul/rules.md",
}

local COLOURS = { "blue", "yellow", "red", "black", "white" }
local CODE = { blue = 1, yellow = 2, red = 3, black = 4, white = 5 }
local FACTORIES = { [2] = 5, [3] = 7, [4] = 9 }
local FLOOR = { -1, -1, -2, -2, -2, -3, -3 }
G.COLOURS, G.FLOOR = COLOURS, FLOOR

-- the colour printed on the wall at row r, column c (the standard coloured side)
local function wall_colour(r, c) return (c - r) % 5 + 1 end
-- the column of colour k in row r
local function wall_column(r, k) return (k - 1 + r - 1) % 5 + 1 end
G.wall_colour, G.wall_column = wall_colour, wall_column

local function zeros() return { 0, 0, 0, 0, 0 } end

local function draw_tile(s)
  local total = 0
  for k = 1, 5 do total = total + s.bag[k] end
  if total == 0 then                       -- refill the bag from the lid
    for k = 1, 5 do s.bag[k], s.lid[k] = s.lid[k], 0; total = total + s.bag[k] end
    if total == 0 then return nil end
  end
  local x = kit.rand(s, total)
  for k = 1, 5 do
    if x <= s.bag[k] then s.bag[k] = s.bag[k] - 1; return k end
    x = x - s.bag[k]
  end
end

local function fill_factories(s)
  for f = 1, #s.factories do
    local fac = zeros()
    for _ = 1, 4 do
      local k = draw_tile(s)
      if not k then break end
      fac[k] = fac[k] + 1
    end
    s.factories[f] = fac
  end
  s.centre = zeros()
  s.marker_in_centre = true
end

function G.setup(n, seed)
  if not FACTORIES[n] then error("Azul is for 2 to 4 players, not " .. tostring(n), 2) end
  local s = { n = n, rng = kit.seed_state(seed), bag = { 20, 20, 20, 20, 20 }, lid = zeros(),
              factories = {}, centre = zeros(), marker_in_centre = true, turn = 1, first = 1,
              round = 1, over = false, players = {} }
  for f = 1, FACTORIES[n] do s.factories[f] = zeros() end
  for i = 1, n do
    local walls = {}
    for r = 1, 5 do walls[r] = zeros() end
    s.players[i] = { score = 0, lines = { { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } },  -- {colour, count}
                     wall = walls, floor = {}, marker = false }
  end
  fill_factories(s)
  return s
end

function G.is_terminal(s) return s.over end
function G.current_seats(s) if s.over then return {} end return { s.turn } end

-- can_place(p, line, k): pattern line `line` of player p accepts colour k
local function can_place(p, line, k)
  local l = p.lines[line]
  if l[2] >= line then return false end
  if l[2] > 0 and l[1] ~= k then return false end
  return p.wall[line][wall_column(line, k)] == 0
end

-- the action id: "<source>:<colour>:<line>" with source f1..f9 or c, line 1..5 or floor
local function parse(id)
  local src, col, dest = id:match("^([fc]%d?):(%a+):(%w+)$")
  if not src then return nil end
  local k = CODE[col]
  if not k then return nil end
  local f = src == "c" and 0 or tonumber(src:sub(2))
  if not f or (src ~= "c" and #src < 2) then return nil end
  local line = dest == "floor" and 0 or tonumber(dest)
  if not line or line < 0 or line > 5 or (dest ~= "floor" and tostring(line) ~= dest) then return nil end
  return f, k, line
end

local function source_counts(s, f) return f == 0 and s.centre or s.factories[f] end

local function label(s, f, k, line)
  local cnt = source_counts(s, f)[k]
  local from = f == 0 and "the centre" or ("factory " .. f)
  local to = line == 0 and "the floor line" or ("pattern line " .. line)
  local extra = (f == 0 and s.marker_in_centre) and " (and the first-player marker)" or ""
  return string.format("take %d %s from %s%s to %s", cnt, COLOURS[k], from, extra, to)
end

function G.legal_actions(s, seat, bare)
  local r = {}
  if s.over or seat ~= s.turn then return r end
  local p = s.players[seat]
  for f = 1, #s.factories + 1 do
    local fi = f <= #s.factories and f or 0
    local src = source_counts(s, fi)
    for k = 1, 5 do
      if src[k] > 0 then
        local name = (fi == 0 and "c" or ("f" .. fi)) .. ":" .. COLOURS[k] .. ":"
        for line = 1, 5 do
          if can_place(p, line, k) then r[#r + 1] = { id = name .. line, label = bare and "" or label(s, fi, k, line) } end
        end
        r[#r + 1] = { id = name .. "floor", label = bare and "" or label(s, fi, k, 0) }
      end
    end
  end
  return r
end

-- wall_points(wall, r, c): points for a tile just placed at (r, c)
local function wall_points(wall, r, c)
  local h, v = 1, 1
  local i = c - 1 while i >= 1 and wall[r][i] == 1 do h = h + 1; i = i - 1 end
  i = c + 1 while i <= 5 and wall[r][i] == 1 do h = h + 1; i = i + 1 end
  i = r - 1 while i >= 1 and wall[i][c] == 1 do v = v + 1; i = i - 1 end
  i = r + 1 while i <= 5 and wall[i][c] == 1 do v = v + 1; i = i + 1 end
  if h == 1 and v == 1 then return 1 end
  return (h > 1 and h or 0) + (v > 1 and v or 0)
end
G.wall_points = wall_points

function G.floor_penalty(count)
  local pen = 0
  for i = 1, math.min(count, 7) do pen = pen + FLOOR[i] end
  return pen
end

-- end_bonus(wall) -> points, complete rows
function G.end_bonus(wall)
  local pts, rows = 0, 0
  for r = 1, 5 do
    local full = true
    for c = 1, 5 do if wall[r][c] == 0 then full = false end end
    if full then pts = pts + 2; rows = rows + 1 end
  end
  for c = 1, 5 do
    local full = true
    for r = 1, 5 do if wall[r][c] == 0 then full = false end end
    if full then pts = pts + 7 end
  end
  for k = 1, 5 do
    local full = true
    for r = 1, 5 do if wall[r][wall_column(r, k)] == 0 then full = false end end
    if full then pts = pts + 10 end
  end
  return pts, rows
end

local function round_empty(s)
  for k = 1, 5 do if s.centre[k] > 0 then return false end end
  for _, fac in ipairs(s.factories) do
    for k = 1, 5 do if fac[k] > 0 then return false end end
  end
  return true
end

-- wall-tiling phase, then the next round or the end
local function end_round(s)
  local row_done = false
  for i = 1, s.n do
    local p = s.players[i]
    for line = 1, 5 do
      local l = p.lines[line]
      if l[2] == line then
        local c = wall_column(line, l[1])
        p.wall[line][c] = 1
        p.score = p.score + wall_points(p.wall, line, c)
        s.lid[l[1]] = s.lid[l[1]] + line - 1
        p.lines[line] = { 0, 0 }
      end
    end
    local count = #p.floor + (p.marker and 1 or 0)
    p.score = math.max(0, p.score + G.floor_penalty(count))
    for _, k in ipairs(p.floor) do s.lid[k] = s.lid[k] + 1 end
    p.floor = {}
    if p.marker then s.first = i; p.marker = false end
    for r = 1, 5 do
      local full = true
      for c = 1, 5 do if p.wall[r][c] == 0 then full = false end end
      if full then row_done = true end
    end
  end
  if row_done then
    for i = 1, s.n do
      local p = s.players[i]
      p.score = p.score + G.end_bonus(p.wall)
    end
    s.over = true
    return
  end
  s.round = s.round + 1
  s.turn = s.first
  fill_factories(s)
end

function G.apply(s, seat, id)
  if s.over or seat ~= s.turn then return nil, "not this seat's turn" end
  local f, k, line = parse(id)
  if not f or f > #s.factories then return nil, "unknown action " .. tostring(id) end
  local src = source_counts(s, f)
  local p = s.players[seat]
  if src[k] == 0 then return nil, "no " .. COLOURS[k] .. " tile there" end
  if line > 0 and not can_place(p, line, k) then return nil, "pattern line " .. line .. " cannot take " .. COLOURS[k] end
  local count = src[k]
  src[k] = 0
  if f == 0 then
    if s.marker_in_centre then
      s.marker_in_centre = false
      -- the marker takes a floor space (the marker itself is not a tile)
      p.marker = true
    end
  else
    for c = 1, 5 do s.centre[c] = s.centre[c] + src[c]; src[c] = 0 end
  end
  if line > 0 then
    local l = p.lines[line]
    local fit = math.min(count, line - l[2])
    l[1], l[2] = k, l[2] + fit
    count = count - fit
  end
  -- with the marker on the floor, seven spaces hold the marker and up to six tiles
  local room = 7 - (p.marker and 1 or 0)
  for _ = 1, count do
    if #p.floor < room then p.floor[#p.floor + 1] = k else s.lid[k] = s.lid[k] + 1 end
  end
  if round_empty(s) then end_round(s) else s.turn = s.turn % s.n + 1 end
  return true
end

function G.ranking(s)
  local keys, scores = {}, {}
  for i = 1, s.n do
    local p = s.players[i]
    local rows = 0
    for r = 1, 5 do
      local full = true
      for c = 1, 5 do if p.wall[r][c] == 0 then full = false end end
      if full then rows = rows + 1 end
    end
    scores[i] = p.score
    keys[i] = { p.score, rows }
  end
  return { ranks = kit.ranks(keys), scores = scores }
end

-- everything in Azul is public but the order of the bag: a seat sees the whole table
-- (bag and lid contents can be counted by anyone, so they are shown)
function G.observation(s, seat)
  local o = { game = "azul", seat = seat, n = s.n, round = s.round, turn = s.turn, over = s.over,
              scores = {}, factories = {}, centre = {}, marker_in_centre = s.marker_in_centre,
              bag = {}, lid = {}, players = {} }
  local function named(counts)
    local t = {}
    for k = 1, 5 do if counts[k] > 0 then t[COLOURS[k]] = counts[k] end end
    return t
  end
  for f, fac in ipairs(s.factories) do o.factories[f] = named(fac) end
  o.centre, o.bag, o.lid = named(s.centre), named(s.bag), named(s.lid)
  for i = 1, s.n do
    local p = s.players[i]
    o.scores[i] = p.score
    local lines, wall, floor = {}, {}, {}
    for line = 1, 5 do
      lines[line] = { capacity = line, colour = p.lines[line][2] > 0 and COLOURS[p.lines[line][1]] or "", count = p.lines[line][2] }
      local row = {}
      for c = 1, 5 do row[c] = p.wall[line][c] == 1 and COLOURS[wall_colour(line, c)] or "" end
      wall[line] = row
    end
    for j, k in ipairs(p.floor) do floor[j] = COLOURS[k] end
    o.players[i] = { score = p.score, lines = lines, wall = wall, floor = floor, first_player_marker = p.marker }
  end
  return o
end

local LETTER = { blue = "B", yellow = "Y", red = "R", black = "K", white = "W" }
local function counts_text(t)
  local parts = {}
  for _, c in ipairs(COLOURS) do if t[c] then parts[#parts + 1] = t[c] .. " " .. c end end
  return #parts > 0 and table.concat(parts, ", ") or "empty"
end

-- G.svg(obs) -> the observation drawn for the viewer (games/azul/svg.lua)
function G.svg(o) return require("games.azul.svg").svg(o) end

function G.render(o)
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  add("Azul, round %d. You are player %d of %d.%s", o.round, o.seat, o.n,
      o.over and " The game is over." or string.format(" Player %d to move.", o.turn))
  for f, fac in ipairs(o.factories) do add("Factory %d: %s", f, counts_text(fac)) end
  add("Centre: %s%s", counts_text(o.centre), o.marker_in_centre and " + first-player marker" or "")
  add("Bag: %s. Lid: %s.", counts_text(o.bag), counts_text(o.lid))
  for i, p in ipairs(o.players) do
    add("")
    add("Player %d%s: score %d%s", i, i == o.seat and " (you)" or "", p.score, p.first_player_marker and ", holds the first-player marker" or "")
    for line = 1, 5 do
      local l = p.lines[line]
      local cells = {}
      for c = 1, 5 do
        local w = p.wall[line][c]
        cells[c] = w ~= "" and LETTER[w] or string.lower(LETTER[COLOURS[wall_colour(line, c)]])
      end
      add("  line %d: %d/%d %-7s | wall %s", line, l.count, line, l.colour ~= "" and l.colour or "-", table.concat(cells, " "))
    end
    add("  floor: %s", #p.floor > 0 and table.concat(p.floor, ", ") or "empty")
  end
  add("")
  add("Wall letters: upper case = tile placed, lower case = empty space for that colour (B blue, Y yellow, R red, K black, W white).")
  return table.concat(out, "\n")
end

-- heuristic: tiles that fit, a completed line and its wall points, minus floor
-- penalties, a small bonus for the first-player marker only when it costs nothing else
function G.heuristic(s, seat, id)
  local f, k, line = parse(id)
  local p = s.players[seat]
  local count = source_counts(s, f)[k]
  local score, overflow = 0, count
  if line > 0 then
    local l = p.lines[line]
    local fit = math.min(count, line - l[2])
    overflow = count - fit
    score = score + fit
    if l[2] + fit == line then
      local c = wall_column(line, k)
      p.wall[line][c] = 1
      score = score + 1 + wall_points(p.wall, line, c)
      p.wall[line][c] = 0
    else
      score = score - 0.5 * (line - l[2] - fit) / line   -- unfinished lines risk waste
    end
  end
  local on_floor = #p.floor + (p.marker and 1 or 0)
  local marker = (f == 0 and s.marker_in_centre) and 1 or 0
  local pen = G.floor_penalty(on_floor + marker + overflow) - G.floor_penalty(on_floor)
  return score + 1.5 * pen + 0.5 * marker
end

-- estimate(state) -> per seat: the score after tiling the complete pattern lines now and
-- paying the floor, plus half a point per tile waiting in an incomplete line (ISMCTS
-- scores simulations cut short with it)
function G.estimate(s)
  local est = {}
  for i = 1, s.n do
    local p = s.players[i]
    local wall = {}
    for r = 1, 5 do wall[r] = { table.unpack(p.wall[r]) } end
    local v = p.score
    for line = 1, 5 do
      local l = p.lines[line]
      if l[2] == line then
        local c = wall_column(line, l[1])
        wall[line][c] = 1
        v = v + wall_points(wall, line, c)
      else
        v = v + 0.5 * l[2]
      end
    end
    est[i] = v + G.floor_penalty(#p.floor + (p.marker and 1 or 0))
  end
  return est
end

-- no hidden holdings: only the future draws from the bag are unknown, and they come
-- from the generator, so a determinization reseeds it
function G.determinize(s, _, rand) return kit.reseeded(s, rand) end

-- tiles of each colour everywhere (bag, lid, factories, centre, lines, walls, floors)
function G.tile_census(s)
  local c = zeros()
  for k = 1, 5 do c[k] = s.bag[k] + s.lid[k] + s.centre[k] end
  for _, fac in ipairs(s.factories) do for k = 1, 5 do c[k] = c[k] + fac[k] end end
  for i = 1, s.n do
    local p = s.players[i]
    for line = 1, 5 do
      local l = p.lines[line]
      if l[2] > 0 then c[l[1]] = c[l[1]] + l[2] end
      for col = 1, 5 do if p.wall[line][col] == 1 then local k = wall_colour(line, col); c[k] = c[k] + 1 end end
    end
    for _, k in ipairs(p.floor) do c[k] = c[k] + 1 end
  end
  return c
end

G.match_work = 23   -- seconds per baseline match with ISMCTS at 1024 simulations (games/README.md)

return G
