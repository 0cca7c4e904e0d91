-- games.century — Century: Spice Road (Plan B Games 2017, 2–5 players) against the game
-- interface of games/README.md. Choices where the rulebook leaves room: games/century/RULES.md.
local kit = require "games.kit"
local DATA = require "games.century.cards"

local G = {
  name = "century", title = "Century: Spice Road", players = { min = 2, max = 5 },
  annotations = { engine = 2, spatial = 0, sequencing = 2, coupling = 1, hidden = 0, scoring = 1 },
  rules_file = "games/century/rules.md",
}

local SPICES = { "yellow", "red", "green", "brown" }
local CODE = { yellow = 1, red = 2, green = 3, brown = 4 }
local VALUE = { 1, 2, 3, 4 }
local MERCHANTS, POINTS = DATA.merchants, DATA.points
local START_SPICES = { { 3, 0, 0, 0 }, { 4, 0, 0, 0 }, { 4, 0, 0, 0 }, { 3, 1, 0, 0 }, { 3, 1, 0, 0 } }
local LIMIT = 10
G.MERCHANTS, G.POINTS, G.SPICES = MERCHANTS, POINTS, SPICES

-- the number of point cards that ends the game (after the round)
function G.threshold(n) return n <= 3 and 6 or 5 end

local function draw(s, deck)
  if #deck == 0 then return nil end
  return table.remove(deck, kit.rand(s, #deck))
end

function G.setup(n, seed)
  if type(n) ~= "number" or n < 2 or n > 5 then error("Century: Spice Road is for 2 to 5 players, not " .. tostring(n), 2) end
  local s = { n = n, rng = kit.seed_state(seed), turn = 1, phase = "main", over = false, final_round = false,
              turns = 0, passes = 0, deck = {}, market = {}, point_deck = {}, point_row = {},
              gold = 2 * n, silver = 2 * n, players = {}, left = 0, done_up = 0, pay_pos = 0, pay_next = 0 }
  for id = 3, #MERCHANTS do s.deck[#s.deck + 1] = id end
  for id = 1, #POINTS do s.point_deck[#s.point_deck + 1] = id end
  for _ = 1, 6 do s.market[#s.market + 1] = { card = draw(s, s.deck), spices = { 0, 0, 0, 0 } } end
  for _ = 1, 5 do s.point_row[#s.point_row + 1] = draw(s, s.point_deck) end
  for i = 1, n do
    s.players[i] = { spices = kit.copy(START_SPICES[i]), hand = { 1, 2 }, played = {}, points = {}, gold = 0, silver = 0 }
  end
  return s
end

function G.is_terminal(s) return s.over end
function G.current_seats(s) if s.over then return {} end return { s.turn } end
function G.counts_decision(s) return s.phase == "main" end

local function total(v) return v[1] + v[2] + v[3] + v[4] end
local function covers(have, need)
  for k = 1, 4 do if have[k] < need[k] then return false end end
  return true
end
local function value(v) local x = 0 for k = 1, 4 do x = x + VALUE[k] * v[k] end return x end

local function spice_text(v)
  local parts = {}
  for k = 1, 4 do if v[k] > 0 then parts[#parts + 1] = v[k] .. " " .. SPICES[k] end end
  return #parts > 0 and table.concat(parts, ", ") or "nothing"
end
G.spice_text = spice_text

local function merchant_text(id)
  local c = MERCHANTS[id]
  if c[1] == "produce" then return string.format("card %d (produce %s)", id, spice_text(c[2])) end
  if c[1] == "upgrade" then return string.format("card %d (upgrade %d times)", id, c[2]) end
  return string.format("card %d (trade %s for %s)", id, spice_text(c[2]), spice_text(c[3]))
end
local function point_text(id)
  return string.format("point card %d (%d points for %s)", id, POINTS[id][1], spice_text(POINTS[id][2]))
end

-- trade_times(p, card) -> how many times the trade card can be used at once
local function trade_times(p, c)
  local t = math.huge
  for k = 1, 4 do if c[2][k] > 0 then t = math.min(t, p.spices[k] // c[2][k]) end end
  return t
end

local function coin_for(s, pos)
  if pos == 1 then return s.gold > 0 and "gold" or s.silver > 0 and "silver" or nil end
  if pos == 2 and s.gold > 0 and s.silver > 0 then return "silver" end
  return nil
end

local function main_actions(s, p, bare)
  local r = {}
  local function text(f, ...) if bare then return "" end return f(...) end
  for _, id in ipairs(p.hand) do
    local c = MERCHANTS[id]
    if c[1] == "produce" then
      r[#r + 1] = { id = "play:" .. id, label = text(function() return "play " .. merchant_text(id) end) }
    elseif c[1] == "upgrade" then
      if p.spices[1] + p.spices[2] + p.spices[3] > 0 then
        r[#r + 1] = { id = "play:" .. id, label = text(function() return "play " .. merchant_text(id) .. " (then choose the spices one at a time)" end) }
      end
    else
      for t = 1, trade_times(p, c) do
        r[#r + 1] = { id = "trade:" .. id .. ":" .. t, label = text(function()
          return string.format("play %s %d time%s", merchant_text(id), t, t == 1 and "" or "s") end) }
      end
    end
  end
  local held = total(p.spices)
  for pos, m in ipairs(s.market) do
    if pos - 1 <= held then
      r[#r + 1] = { id = "acquire:" .. pos, label = text(function()
        local extra = total(m.spices) > 0 and (", taking the " .. spice_text(m.spices) .. " on it") or ""
        return string.format("acquire %s at position %d, paying %d spice%s onto the cards before it%s",
          merchant_text(m.card), pos, pos - 1, pos == 2 and "" or "s", extra) end) }
    end
  end
  for pos, id in ipairs(s.point_row) do
    if covers(p.spices, POINTS[id][2]) then
      r[#r + 1] = { id = "claim:" .. pos, label = text(function()
        local coin = coin_for(s, pos)
        return "claim " .. point_text(id) .. (coin and (" and a " .. coin .. " coin") or "") end) }
    end
  end
  if #p.played > 0 then
    r[#r + 1] = { id = "rest", label = text(function() return string.format("rest: take your %d played card%s back", #p.played, #p.played == 1 and "" or "s") end) }
  end
  if #r == 0 then r[1] = { id = "pass", label = "pass (no other action is possible)" } end
  return r
end

function G.legal_actions(s, seat, bare)
  if s.over or seat ~= s.turn then return {} end
  local p = s.players[seat]
  if s.phase == "main" then return main_actions(s, p, bare) end
  local r = {}
  if s.phase == "upgrade" then
    for k = 1, 3 do
      if p.spices[k] > 0 then
        r[#r + 1] = { id = "up:" .. SPICES[k], label = string.format("upgrade 1 %s to %s (%d upgrade%s left after this)",
          SPICES[k], SPICES[k + 1], s.left - 1, s.left - 1 == 1 and "" or "s") }
      end
    end
    r[#r + 1] = { id = "stop", label = "stop upgrading" }
  elseif s.phase == "pay" then
    for k = 1, 4 do
      if p.spices[k] > 0 then
        r[#r + 1] = { id = "pay:" .. SPICES[k], label = string.format("put 1 %s on the card at position %d (%d more to pay after this)",
          SPICES[k], s.pay_next, s.pay_pos - s.pay_next - 1) }
      end
    end
  else   -- discard
    for k = 1, 4 do
      if p.spices[k] > 0 then
        r[#r + 1] = { id = "discard:" .. SPICES[k], label = string.format("discard 1 %s (%d more to discard after this)", SPICES[k], total(p.spices) - LIMIT - 1) }
      end
    end
  end
  return r
end

local function remove(list, x)
  for j, y in ipairs(list) do if y == x then table.remove(list, j); return true end end
  return false
end

-- end of a turn: the caravan limit, then the end-of-game check and the next seat
local function finish_turn(s, seat)
  local p = s.players[seat]
  if total(p.spices) > LIMIT then s.phase = "discard"; return end
  s.phase = "main"
  if #p.points >= G.threshold(s.n) then s.final_round = true end
  s.turns = s.turns + 1
  if s.final_round and seat == s.n then s.over = true; return end
  s.turn = seat % s.n + 1
end

local function take_card(s, p, pos)
  local m = table.remove(s.market, pos)
  p.hand[#p.hand + 1] = m.card
  for k = 1, 4 do p.spices[k] = p.spices[k] + m.spices[k] end
  local id = draw(s, s.deck)
  if id then s.market[#s.market + 1] = { card = id, spices = { 0, 0, 0, 0 } } end
end

local function legal_id(s, seat, id)
  for _, a in ipairs(G.legal_actions(s, seat, true)) do if a.id == id then return true end end
  return false
end

function G.apply(s, seat, id)
  if s.over or seat ~= s.turn then return nil, "not this seat's turn" end
  if type(id) ~= "string" or not legal_id(s, seat, id) then return nil, "not a legal action: " .. tostring(id) end
  local p = s.players[seat]
  local verb, a, b = id:match("^(%w+):?([^:]*):?(.*)$")
  if verb == "pass" then s.passes = s.passes + 1 elseif s.phase == "main" then s.passes = 0 end
  if s.passes >= s.n then s.turns = s.turns + 1; s.over = true; return true end
  if verb == "play" then
    local cid = tonumber(a)
    local c = MERCHANTS[cid]
    remove(p.hand, cid); p.played[#p.played + 1] = cid
    if c[1] == "produce" then
      for k = 1, 4 do p.spices[k] = p.spices[k] + c[2][k] end
    else
      s.phase, s.left, s.done_up = "upgrade", c[2], 0
      return true
    end
  elseif verb == "trade" then
    local cid, t = tonumber(a), tonumber(b)
    local c = MERCHANTS[cid]
    remove(p.hand, cid); p.played[#p.played + 1] = cid
    for k = 1, 4 do p.spices[k] = p.spices[k] + t * (c[3][k] - c[2][k]) end
  elseif verb == "up" then
    local k = CODE[a]
    p.spices[k] = p.spices[k] - 1; p.spices[k + 1] = p.spices[k + 1] + 1
    s.left, s.done_up = s.left - 1, s.done_up + 1
    if s.left > 0 and p.spices[1] + p.spices[2] + p.spices[3] > 0 then return true end
    s.left = 0
  elseif verb == "stop" then
    s.left = 0
  elseif verb == "acquire" then
    local pos = tonumber(a)
    if pos > 1 then s.phase, s.pay_pos, s.pay_next = "pay", pos, 1; return true end
    take_card(s, p, 1)
  elseif verb == "pay" then
    local k = CODE[a]
    p.spices[k] = p.spices[k] - 1
    local m = s.market[s.pay_next]
    m.spices[k] = m.spices[k] + 1
    s.pay_next = s.pay_next + 1
    if s.pay_next < s.pay_pos then return true end
    take_card(s, p, s.pay_pos)
    s.pay_pos, s.pay_next = 0, 0
  elseif verb == "claim" then
    local pos = tonumber(a)
    local pid = table.remove(s.point_row, pos)
    for k = 1, 4 do p.spices[k] = p.spices[k] - POINTS[pid][2][k] end
    p.points[#p.points + 1] = pid
    local coin = coin_for(s, pos)
    if coin then s[coin] = s[coin] - 1; p[coin] = p[coin] + 1 end
    local nid = draw(s, s.point_deck)
    if nid then s.point_row[#s.point_row + 1] = nid end
  elseif verb == "rest" then
    for _, cid in ipairs(p.played) do p.hand[#p.hand + 1] = cid end
    p.played = {}
    table.sort(p.hand)
  elseif verb == "discard" then
    local k = CODE[a]
    p.spices[k] = p.spices[k] - 1
  end
  finish_turn(s, seat)
  return true
end

-- score(p): point cards, 3 per gold coin, 1 per silver coin, 1 per spice that is not yellow
local function score(p)
  local x = 3 * p.gold + p.silver + p.spices[2] + p.spices[3] + p.spices[4]
  for _, id in ipairs(p.points) do x = x + POINTS[id][1] end
  return x
end
G.score = score

-- ranking: score, then the later seat in turn order wins a tie (the rulebook's tie-break)
function G.ranking(s)
  local keys, scores = {}, {}
  for i = 1, s.n do
    scores[i] = score(s.players[i])
    keys[i] = { scores[i], i }
  end
  return { ranks = kit.ranks(keys), scores = scores }
end

local function spice_view(v)
  local t = {}
  for k = 1, 4 do t[SPICES[k]] = v[k] end
  return t
end
local function merchant_view(id)
  local c = MERCHANTS[id]
  local o = { id = id, kind = c[1] }
  if c[1] == "produce" then o.gives = spice_view(c[2])
  elseif c[1] == "upgrade" then o.upgrades = c[2]
  else o.pays, o.gives = spice_view(c[2]), spice_view(c[3]) end
  return o
end

-- everything is public but the order of the two decks (merchant hands are public here)
function G.observation(s, seat)
  local o = { game = "century", seat = seat, n = s.n, turn = s.turn, phase = s.phase, over = s.over,
              final_round = s.final_round, end_at = G.threshold(s.n), scores = {}, market = {}, point_row = {},
              merchant_deck = #s.deck, point_deck = #s.point_deck, gold_left = s.gold, silver_left = s.silver,
              players = {} }
  if s.phase == "upgrade" then o.upgrades_left = s.left end
  if s.phase == "pay" then o.acquiring = s.pay_pos; o.paying_onto = s.pay_next end
  for pos, m in ipairs(s.market) do
    local v = merchant_view(m.card)
    v.cost = pos - 1; v.spices_on = spice_view(m.spices)
    o.market[pos] = v
  end
  for pos, id in ipairs(s.point_row) do
    o.point_row[pos] = { id = id, points = POINTS[id][1], needs = spice_view(POINTS[id][2]), coin = coin_for(s, pos) }
  end
  for i = 1, s.n do
    local p = s.players[i]
    o.scores[i] = score(p)
    local hand, played, pts = {}, {}, {}
    for j, id in ipairs(p.hand) do hand[j] = merchant_view(id) end
    for j, id in ipairs(p.played) do played[j] = merchant_view(id) end
    for j, id in ipairs(p.points) do pts[j] = { id = id, points = POINTS[id][1] } end
    o.players[i] = { spices = spice_view(p.spices), hand = hand, played = played, point_cards = pts,
                     gold = p.gold, silver = p.silver, score = o.scores[i] }
  end
  return o
end

local function view_spices(t)
  local parts = {}
  for _, k in ipairs(SPICES) do if (t[k] or 0) > 0 then parts[#parts + 1] = t[k] .. " " .. k end end
  return #parts > 0 and table.concat(parts, ", ") or "nothing"
end
local function view_merchant(c)
  if c.kind == "produce" then return string.format("#%d produce %s", c.id, view_spices(c.gives)) end
  if c.kind == "upgrade" then return string.format("#%d upgrade %d", c.id, c.upgrades) end
  return string.format("#%d trade %s -> %s", c.id, view_spices(c.pays), view_spices(c.gives))
end
local function view_list(list)
  local parts = {}
  for j, c in ipairs(list) do parts[j] = view_merchant(c) end
  return #parts > 0 and table.concat(parts, "; ") or "none"
end

-- G.svg(obs) -> the observation drawn for the viewer (games/century/svg.lua)
function G.svg(o) return require("games.century.svg").svg(o) end

function G.render(o)
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  local doing = { main = "move", upgrade = "choose upgrades (" .. tostring(o.upgrades_left) .. " left)",
                  pay = "pay for the card at position " .. tostring(o.acquiring), discard = "discard down to 10 spices" }
  add("Century: Spice Road. You are player %d of %d.%s%s", o.seat, o.n,
      o.over and " The game is over." or string.format(" Player %d to %s.", o.turn, doing[o.phase]),
      o.final_round and " Final round (someone has " .. o.end_at .. " point cards)." or "")
  add("Merchant market (deck: %d left); position N costs N-1 spices:", o.merchant_deck)
  for pos, c in ipairs(o.market) do
    local on = view_spices(c.spices_on)
    add("  %d. %s%s", pos, view_merchant(c), on ~= "nothing" and (" [spices on it: " .. on .. "]") or "")
  end
  add("Point cards (deck: %d left; coins left: %d gold, %d silver):", o.point_deck, o.gold_left, o.silver_left)
  for pos, c in ipairs(o.point_row) do
    add("  %d. #%d %d points for %s%s", pos, c.id, c.points, view_spices(c.needs), c.coin and (" + " .. c.coin .. " coin") or "")
  end
  for i, p in ipairs(o.players) do
    add("")
    add("Player %d%s: score %d, %d point card%s, %d gold, %d silver", i, i == o.seat and " (you)" or "", p.score,
        #p.point_cards, #p.point_cards == 1 and "" or "s", p.gold, p.silver)
    add("  caravan: %s", view_spices(p.spices))
    add("  hand: %s", view_list(p.hand))
    add("  played: %s", view_list(p.played))
  end
  return table.concat(out, "\n")
end

-- the value of a merchant card to a caravan: what one use gains in spice value
local function card_worth(id)
  local c = MERCHANTS[id]
  if c[1] == "produce" then return value(c[2]) end
  if c[1] == "upgrade" then return 1.5 * c[2] end
  return value(c[3]) - value(c[2])
end

-- heuristic: claim the most points, then gain the most spice value, acquire good cards
-- cheaply, rest when little is left to play, pay and discard the cheapest spices
local function rate(s, p, id)
  local verb, a, b = id:match("^(%w+):?([^:]*):?(.*)$")
  local held = total(p.spices)
  if verb == "claim" then
    local pid = s.point_row[tonumber(a)]
    local coin = coin_for(s, tonumber(a))
    return 50 + POINTS[pid][1] + (coin == "gold" and 3 or coin == "silver" and 1 or 0)
  elseif verb == "play" then
    local c = MERCHANTS[tonumber(a)]
    if c[1] == "produce" then return value(c[2]) - math.max(0, held + total(c[2]) - LIMIT) * 2 end
    return 1.5 * c[2]
  elseif verb == "trade" then
    local c, t = MERCHANTS[tonumber(a)], tonumber(b)
    return 0.5 + t * (value(c[3]) - value(c[2])) - math.max(0, held + t * (total(c[3]) - total(c[2])) - LIMIT) * 2
  elseif verb == "acquire" then
    local pos = tonumber(a)
    local m = s.market[pos]
    return 1 + 0.8 * card_worth(m.card) + value(m.spices) - 1.2 * (pos - 1)
  elseif verb == "rest" then
    return 0.7 * #p.played - 0.5 * #p.hand
  elseif verb == "up" then
    return 1 + CODE[a] * 0.1
  elseif verb == "stop" then
    return 0
  elseif verb == "pay" or verb == "discard" then
    return -VALUE[CODE[a]]
  end
  return -10
end

function G.heuristic(s, seat, id) return rate(s, s.players[seat], id) end

-- estimate(state) -> per seat: the score plus a part of the caravan's value and of the cards
function G.estimate(s)
  local est = {}
  for i = 1, s.n do
    local p = s.players[i]
    est[i] = score(p) + 0.3 * value(p.spices) + 0.5 * (#p.hand + #p.played)
  end
  return est
end

-- nothing is hidden but the deck orders: the decks are sets drawn from by the generator, so a
-- copy with the generator reseeded is a determinization
function G.determinize(s, _, rand) return kit.reseeded(s, rand) end

G.match_work = 28   -- seconds per baseline match with ISMCTS at 1024 simulations (games/README.md)

return G
