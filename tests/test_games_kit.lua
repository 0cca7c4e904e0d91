-- The shared kit of the multi-player games and the rules checks every game uses,
-- exercised on a small game with simultaneous choices and a hidden deck (Goofspiel).
local t = require "tabula.testing"
local kit = require "games.kit"
local rt = require "games.rules_test"
local test, T = t.suite()

-- Goofspiel with 4 cards: a shuffled prize deck (hidden order), every seat bids a card at
-- the same time, the highest single bid takes the prize (ties: nobody).
local G = { name = "goofspiel", players = { min = 2, max = 3 } }
function G.setup(n, seed)
  local s = { n = n, rng = kit.seed_state(seed), hands = {}, pending = {}, score = {}, prizes = { 1, 2, 3, 4 } }
  for i = 1, n do s.hands[i] = { 1, 2, 3, 4 }; s.score[i] = 0; s.pending[i] = 0 end
  kit.shuffle(s.prizes, function(k) return kit.rand(s, k) end)
  return s
end
function G.is_terminal(s) return #s.prizes == 0 end
function G.current_seats(s)
  local r = {}
  if G.is_terminal(s) then return r end
  for i = 1, s.n do if s.pending[i] == 0 then r[#r + 1] = i end end
  return r
end
function G.legal_actions(s, seat)
  local r = {}
  for _, c in ipairs(s.hands[seat]) do r[#r + 1] = { id = "bid:" .. c, label = "bid card " .. c } end
  return r
end
function G.apply(s, seat, id)
  local c = tonumber(id:match("^bid:(%d)$") or "")
  local at
  for i, x in ipairs(s.hands[seat]) do if x == c then at = i end end
  if not at or s.pending[seat] ~= 0 or G.is_terminal(s) then return nil, "not a legal bid" end
  table.remove(s.hands[seat], at)
  s.pending[seat] = c
  for i = 1, s.n do if s.pending[i] == 0 then return true end end
  local best, who = 0, nil
  for i = 1, s.n do
    if s.pending[i] > best then best, who = s.pending[i], i elseif s.pending[i] == best then who = nil end
  end
  local prize = table.remove(s.prizes)
  if who then s.score[who] = s.score[who] + prize end
  for i = 1, s.n do s.pending[i] = 0 end
  return true
end
function G.observation(s, seat)
  return { seat = seat, n = s.n, scores = kit.copy(s.score), hand = kit.copy(s.hands[seat]),
           prize = s.prizes[#s.prizes], prizes_left = #s.prizes }
end
function G.render(o) return ("seat %d, prize %s, hand %s"):format(o.seat, tostring(o.prize), table.concat(o.hand, ",")) end
function G.ranking(s) return { ranks = kit.ranks(s.score), scores = kit.copy(s.score) } end
function G.heuristic(_, _, id) return -tonumber(id:sub(5)) end
function G.determinize(s, _, rand)
  local d = kit.copy(s)
  local top = table.remove(d.prizes)     -- the face-up prize stays; the rest is reshuffled
  kit.shuffle(d.prizes, rand)
  d.prizes[#d.prizes + 1] = top
  return d
end

test("kit: the generator is seeded, uniform in range and survives serialization", function()
  local a, b = G.setup(3, 42), G.setup(3, 42)
  t.eq(a, b)
  local seen = {}
  for _ = 1, 600 do local x = kit.rand(a, 6); seen[x] = (seen[x] or 0) + 1 end
  for v = 1, 6 do t.ok(seen[v] and seen[v] > 60, "value " .. v .. " drawn often enough") end
  t.eq(seen[0], nil); t.eq(seen[7], nil)
  local back = kit.deserialize(kit.serialize(a))
  t.eq(kit.rand(back, 1000000), kit.rand(a, 1000000), "a deserialized generator continues the same sequence")
  t.ok(kit.serialize(G.setup(3, 43)) ~= kit.serialize(G.setup(3, 42)), "another seed, another deck")
end)

test("kit: a reseeded copy keeps the state, changes only the generator and leaves the original alone", function()
  local s = { n = 2, rng = kit.seed_state(5), deck = { 3, 1, 2 } }
  local d = kit.reseeded(s, kit.generator(9))
  t.eq(d.deck, s.deck); t.eq(s.rng, kit.seed_state(5))
  t.ok(d.rng ~= s.rng and d.deck ~= s.deck)
end)

test("kit: competition ranks with ties and lexicographic tie-breaks", function()
  t.eq(kit.ranks({ 10, 20, 20 }), { 3, 1, 1 })
  t.eq(kit.ranks({ 5, 7, 5 }), { 2, 1, 2 })
  t.eq(kit.ranks({ { 30, -4 }, { 30, -2 }, { 12, 0 } }), { 2, 1, 3 })
end)

test("rules_test: playouts of a simultaneous-choice game pass every check", function()
  local inv = function(s)
    local total = 0
    for i = 1, s.n do total = total + #s.hands[i] + (s.pending[i] > 0 and 1 or 0) end
    t.eq(total, s.n * #s.prizes, "cards in hands match prizes left")
  end
  local r = rt.playouts(G, { games = 40, seed = 3, invariant = inv })
  t.eq(r.matches, 40)
  t.ok(r.steps >= 40 * 4, "every match has four rounds")
end)

test("rules_test: a leaking observation and a broken replay are caught", function()
  local leaky = setmetatable({ observation = function(s, seat)
    local o = G.observation(s, seat); o.deck = kit.copy(s.prizes); return o end }, { __index = G })
  t.raises(function() rt.playouts(leaky, { games = 5, seed = 1 }) end, "sees a difference in hidden parts")
  local calls = 0     -- a game that depends on something outside its state cannot replay
  local outside = setmetatable({ apply = function(s, seat, id)
    local ok, err = G.apply(s, seat, id)
    if ok then calls = calls + 1; s.calls = calls end
    return ok, err end }, { __index = G })
  t.raises(function() rt.playouts(outside, { games = 1, seed = 1 }) end, "replaying the actions gives a different state")
  local greedy = setmetatable({ apply = function(s, seat, id)
    if id == "no-such-action" then s.score[seat] = 99; return nil end
    return G.apply(s, seat, id) end }, { __index = G })
  t.raises(function() rt.playouts(greedy, { games = 1, seed = 1 }) end, "illegal id was accepted")
end)

return T
