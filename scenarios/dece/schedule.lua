-- scenarios/dece/schedule.lua — seat-balanced schedules from a seed, and matched studies.
--
-- balanced{ names, games, matches_per_game, players = 3, seed } -> schedule: per game, blocks of
-- k matches (k participants); in a block, match j gives seat s to π[(j + o_s) mod k] with a
-- random permutation π and distinct random offsets o, so every participant plays every seat
-- exactly once per block and never twice in a match. matches_per_game must be a multiple of
-- k: then each participant appears equally often in each game and in each seat.
-- Setup seeds are drawn from the same seed and stored in the schedule.
--
-- baseline_cohort{ ... }: the paper's baseline cohorts (below).
--
-- matched{ games, focal = {A, B, ...}, anchors = {X, Y}, scenarios, players = 3, seed } ->
-- schedule: a scenario fixes the game, the setup seed and the focal seat; it has one match per
-- focal configuration, the other seats filled by the anchors in a fixed order, so the compared
-- configurations never meet.
local kit = require "games.kit"

local M = {}

local function setup_seed(rand) return rand(2147483646) end

function M.balanced(o)
  local k, n = #o.names, o.players or 3
  if k < n then error(string.format("%d participants cannot fill %d seats", k, n), 0) end
  if o.matches_per_game % k ~= 0 then
    error(string.format("--matches-per-game %d is not a multiple of the %d participants (needed for seat balance)", o.matches_per_game, k), 0)
  end
  local rand = kit.generator(o.seed or 1)
  local matches = {}
  for _, game in ipairs(o.games) do
    local number = 0
    for _ = 1, o.matches_per_game // k do
      local perm = kit.shuffle({ table.unpack(o.names) }, rand)
      local offs = {}
      for i = 0, k - 1 do offs[i + 1] = i end
      kit.shuffle(offs, rand)
      for j = 0, k - 1 do
        number = number + 1
        local seats = {}
        for s = 1, n do seats[s] = perm[(j + offs[s]) % k + 1] end
        matches[#matches + 1] = { id = string.format("%s-%03d", game, number), game = game, seats = seats,
                                  setup_seed = setup_seed(rand) }
      end
    end
  end
  return { kind = "balanced", seed = o.seed or 1, players = n, participants = o.names, matches = matches }
end

function M.matched(o)
  local n = o.players or 3
  if #o.anchors ~= n - 1 then error(string.format("a matched study needs %d anchors", n - 1), 0) end
  local rand = kit.generator(o.seed or 1)
  local matches = {}
  for _, game in ipairs(o.games) do
    for sc = 1, o.scenarios do
      local focal_seat = (sc - 1) % n + 1
      local seed = setup_seed(rand)
      local scenario = string.format("%s-s%03d", game, sc)
      for fi, f in ipairs(o.focal) do
        local seats, a = {}, 0
        for s = 1, n do
          if s == focal_seat then seats[s] = f else a = a + 1; seats[s] = o.anchors[a] end
        end
        matches[#matches + 1] = { id = string.format("%s-%d", scenario, fi), game = game, seats = seats, setup_seed = seed,
                                  scenario = scenario, focal_seat = focal_seat }
      end
    end
  end
  local names = {}
  for _, f in ipairs(o.focal) do names[#names + 1] = f end
  for _, a in ipairs(o.anchors) do names[#names + 1] = a end
  return { kind = "matched", seed = o.seed or 1, players = n, participants = names, matches = matches }
end

-- baseline_cohort{ games, baselines = {Random, Heuristic, ISMCTS, ...}, opponents = {LLM
-- configurations}, matches_per_game = 6, players = 3, seed } -> schedule: the seed paper's
-- baseline cohorts (4.1, D.8): per game, matches_per_game scenarios, each a setup seed, a focal
-- seat (every seat equally often: twice in six three-player matches) and players − 1 opponents
-- (each opponent equally often: once per game with 12 opponents and six matches); every
-- baseline plays each scenario in the focal seat, so the cohorts differ only in the baseline.
-- matches_per_game must be a multiple of players, and matches_per_game · (players − 1) a
-- multiple of the number of opponents.
function M.baseline_cohort(o)
  local n, per = o.players or 3, o.matches_per_game or 6
  local k = #o.opponents
  if #o.baselines == 0 then error("a baseline cohort needs baselines", 0) end
  if k < n - 1 then error(string.format("a baseline cohort needs at least %d opponents", n - 1), 0) end
  if per % n ~= 0 then error(string.format("baseline cohort: %d matches per game do not give each of %d seats equally often", per, n), 0) end
  if per * (n - 1) % k ~= 0 then
    error(string.format("baseline cohort: %d matches per game give %d opponent places, not a multiple of the %d opponents", per, per * (n - 1), k), 0)
  end
  local rand = kit.generator(o.seed or 1)
  local matches = {}
  for _, game in ipairs(o.games) do
    local pool = {}
    for _ = 1, per * (n - 1) // k do
      for _, x in ipairs(kit.shuffle({ table.unpack(o.opponents) }, rand)) do pool[#pool + 1] = x end
    end
    local seats_order = {}
    for j = 1, per do seats_order[j] = (j - 1) % n + 1 end
    kit.shuffle(seats_order, rand)
    for j = 1, per do
      local focal_seat, seed = seats_order[j], setup_seed(rand)
      local scenario = string.format("%s-b%03d", game, j)
      for _, b in ipairs(o.baselines) do
        local seats, a = {}, (j - 1) * (n - 1)
        for s = 1, n do
          if s == focal_seat then seats[s] = b else a = a + 1; seats[s] = pool[a] end
        end
        matches[#matches + 1] = { id = string.format("%s-%s", scenario, b), game = game, seats = seats, setup_seed = seed,
                                  scenario = scenario, focal_seat = focal_seat, cohort = b }
      end
    end
  end
  local names = {}
  for _, b in ipairs(o.baselines) do names[#names + 1] = b end
  for _, x in ipairs(o.opponents) do names[#names + 1] = x end
  return { kind = "baseline", seed = o.seed or 1, players = n, participants = names, baselines = o.baselines, matches = matches }
end

-- balance(schedule) -> { [game] = { [name] = { appearances, seats = {per seat} } } }
function M.balance(schedule)
  local r = {}
  for _, m in ipairs(schedule.matches) do
    r[m.game] = r[m.game] or {}
    for s, nme in ipairs(m.seats) do
      local e = r[m.game][nme] or { appearances = 0, seats = {} }
      e.appearances = e.appearances + 1
      e.seats[s] = (e.seats[s] or 0) + 1
      r[m.game][nme] = e
    end
  end
  return r
end

-- check(schedule, names) -> nil | message: the shape a schedule file must have
function M.check(schedule, known)
  if type(schedule) ~= "table" or type(schedule.matches) ~= "table" then return "a schedule needs a \"matches\" list" end
  local ids = {}
  for i, m in ipairs(schedule.matches) do
    local where = string.format("match %d", i)
    if type(m.id) ~= "string" then return where .. " has no string \"id\"" end
    if ids[m.id] then return "match id " .. m.id .. " appears twice" end
    ids[m.id] = true
    if type(m.game) ~= "string" then return m.id .. " has no \"game\"" end
    if type(m.seats) ~= "table" or #m.seats < 2 then return m.id .. " needs \"seats\" (participant names, 2 or more)" end
    for _, nme in ipairs(m.seats) do if not known[nme] then return m.id .. ": unknown participant " .. tostring(nme) end end
    if math.type(m.setup_seed) ~= "integer" then return m.id .. " needs an integer \"setup_seed\"" end
  end
  return nil
end

return M
