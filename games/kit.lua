-- games.kit — what every multi-player game (games/<name>/, see games/README.md) shares:
-- the match's seeded generator kept inside the state, deep copy, canonical
-- serialization, shuffles, and ranks with ties from scores.
local json = require "tabula.json"

local M = {}

-- splitmix64 step on an integer state -> new state, output
local function step(x)
  x = x + 0x9E3779B97F4A7C15
  local z = x
  z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
  z = (z ~ (z >> 27)) * 0x94D049BB133111EB
  return x, z ~ (z >> 31)
end

-- seed_state(seed) -> the integer a state keeps in state.rng
function M.seed_state(seed)
  if math.type(seed) ~= "integer" then error("seed must be an integer, got " .. tostring(seed), 2) end
  local x = step(seed)
  return x
end

-- rand(state, k) -> uniform integer 1..k drawn from state.rng (which advances)
function M.rand(state, k)
  local x, z = step(state.rng)
  state.rng = x
  return (z >> 1) % k + 1
end

-- generator(seed) -> rand(k): a stand-alone generator (players, ISMCTS, tests)
function M.generator(seed)
  local holder = { rng = M.seed_state(seed) }
  return function(k) return M.rand(holder, k) end
end

-- shuffle(list, rand) in place (Fisher–Yates); rand(k) -> 1..k
function M.shuffle(list, rand)
  for i = #list, 2, -1 do
    local j = rand(i)
    list[i], list[j] = list[j], list[i]
  end
  return list
end

function M.copy(v)
  if type(v) ~= "table" then return v end
  local t = {}
  for k, x in pairs(v) do t[k] = M.copy(x) end
  return t
end

-- reseeded(state, rand) -> a copy whose generator is reseeded from rand(k): the determinization
-- of a game whose only unknowns are its future draws (they all come from the generator)
function M.reseeded(state, rand)
  local d = M.copy(state)
  d.rng = M.seed_state(rand(0x7FFFFFFF))
  return d
end

function M.serialize(state) return json.canonical(state) end

-- deserialize(text) -> state without JSON markers (plain tables)
local function strip(v)
  if type(v) ~= "table" then return v end
  local t = {}
  for k, x in pairs(v) do t[k] = strip(x) end
  return t
end
function M.deserialize(text)
  local v, err = json.decode(text)
  if v == nil then error("cannot read game state: " .. tostring(err), 2) end
  return strip(v)
end

-- ranks(keys) -> competition ranks (1 = best; ties share a rank and the next skips).
-- keys[seat] is a number or a list of numbers compared lexicographically, higher better.
function M.ranks(keys)
  local function key(i)
    local k = keys[i]
    return type(k) == "table" and k or { k }
  end
  local function better(a, b)   -- seat a strictly ahead of seat b
    local ka, kb = key(a), key(b)
    for i = 1, math.max(#ka, #kb) do
      local x, y = ka[i] or 0, kb[i] or 0
      if x ~= y then return x > y end
    end
    return false
  end
  local r = {}
  for i = 1, #keys do
    local ahead = 0
    for j = 1, #keys do if better(j, i) then ahead = ahead + 1 end end
    r[i] = ahead + 1
  end
  return r
end

-- counts(list) -> { [value] = how many }
function M.counts(list)
  local c = {}
  for _, v in ipairs(list) do c[v] = (c[v] or 0) + 1 end
  return c
end

return M
