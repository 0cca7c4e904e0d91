-- games.rules_test — the rules checks every multi-player game's tests call (see
-- games/README.md): random playouts with invariants, legal-action well-formedness,
-- refusal of illegal ids, serialization and copy round trips at every step, the
-- hidden-information check, well-formed rankings, and determinism by replay.
local t = require "tabula.testing"
local kit = require "games.kit"
local json = require "tabula.json"

local M = {}

local function fail(G, where, msg, ...)
  error(string.format("%s: %s: " .. msg, G.name, where, ...), 0)
end

-- check_actions(G, state, seat, where) -> the legal list, after checking its shape
local function check_actions(G, state, seat, where)
  local acts = G.legal_actions(state, seat)
  if type(acts) ~= "table" or #acts == 0 then fail(G, where, "seat %d must choose but has no legal action", seat) end
  local seen = {}
  for _, a in ipairs(acts) do
    if type(a.id) ~= "string" or a.id == "" or a.id:find("%s") then fail(G, where, "bad action id %s", t.show(a.id)) end
    if type(a.label) ~= "string" or a.label == "" then fail(G, where, "action %s has no label", a.id) end
    if seen[a.id] then fail(G, where, "action id %s listed twice", a.id) end
    seen[a.id] = true
  end
  return acts
end

-- same_observation(G, a, b, seat): seat sees the same in states a and b
function M.same_observation(G, a, b, seat, msg)
  t.eq(G.observation(a, seat), G.observation(b, seat), msg or ("observation of seat " .. seat))
end

-- count_actions(G, state, seat [, pattern]) -> how many legal ids (matching the Lua pattern)
function M.count_actions(G, state, seat, pattern)
  local n = 0
  for _, a in ipairs(G.legal_actions(state, seat)) do
    if not pattern or a.id:find(pattern) then n = n + 1 end
  end
  return n
end

local function ids(list)
  local r = {}
  for i, a in ipairs(list) do r[i] = a.id end
  return r
end

-- hidden_check(G, state, rand): for every seat, a copy determinized from that seat's
-- view leaves the state untouched and gives the seat the same observation and the
-- same legal action ids.
function M.hidden_check(G, state, rand, where)
  where = where or "hidden-information check"
  local before = kit.serialize(state)
  for seat = 1, state.n or #G.ranking(state).ranks do
    local det = G.determinize(state, seat, rand)
    if kit.serialize(state) ~= before then fail(G, where, "determinize changed the original state") end
    t.eq(G.observation(det, seat), G.observation(state, seat), G.name .. ": " .. where .. ": seat " .. seat .. " sees a difference in hidden parts")
    if not G.is_terminal(state) then
      for _, s in ipairs(G.current_seats(state)) do
        if s == seat then
          t.eq(ids(G.legal_actions(det, seat)), ids(G.legal_actions(state, seat)), G.name .. ": " .. where .. ": legal actions depend on hidden parts")
        end
      end
    end
  end
end

-- audit(path, tests, letter) -> { PASS = , MISSING = , ["OUT-OF-SCOPE"] = }, the test names of
-- the PASS lines, the file's text: checks a game's
-- RULES-AUDIT.md (lines `| <letter><id> | rule | test | status |`): ids once, a rule on every
-- line, a known status, and every PASS naming a test of the suite `tests` (t.suite()'s list);
-- prints the coverage
function M.audit(path, tests, letter)
  local text = assert(io.open(path)):read("a")
  local names = {}
  for _, e in ipairs(tests) do names[e[1]] = true end
  local counts, ids_, passed = { PASS = 0, MISSING = 0, ["OUT-OF-SCOPE"] = 0 }, {}, {}
  for line in text:gmatch("[^\n]+") do
    local id, rule, name, status = line:match("^| *(" .. letter .. "[%w%.%-]+) *| *(.-) *| *(.-) *| *([%u%-]+) *|$")
    if id then
      t.ok(not ids_[id], "rule id " .. id .. " once"); ids_[id] = true
      t.ok(counts[status], id .. ": status " .. status)
      t.ok(rule ~= "", id .. ": a rule")
      counts[status] = counts[status] + 1
      if status == "PASS" then
        local tname = name:match("^`(.*)`$") or name
        t.ok(names[tname], id .. ": no test named " .. tname)
        passed[#passed + 1] = tname
      end
    end
  end
  io.write(string.format("  RULES-AUDIT: %d PASS, %d MISSING, %d OUT-OF-SCOPE\n", counts.PASS, counts.MISSING, counts["OUT-OF-SCOPE"]))
  return counts, passed, text
end

-- drawn(G, steps) -> observation, drawing, state: a three-player game (setup seed 12) after
-- `steps` greedy Heuristic decisions (generator 2), seen and drawn from seat 2
function M.drawn(G, steps)
  local ismcts = require "games.ismcts"
  local rand = kit.generator(2)
  local s = G.setup(3, 12)
  for _ = 1, steps do
    local seat = G.current_seats(s)[1]
    assert(G.apply(s, seat, ismcts.heuristic_pick(G, s, seat, G.legal_actions(s, seat), rand, 0)))
  end
  local o = G.observation(s, 2)
  return o, G.svg(o), s
end

-- mock_match(G, replies, seed) -> the text of the first model call, after one arena match
-- (scenarios/dece) of a model answering from the mock server (tests/mock.lua's reply list:
-- one legal answer, then an illegal one) in seat 1 against Random and Heuristic, checked to
-- end as the reference study's policy says: the illegal answer forfeits, seat 1 last, two
-- decisions of which one invalid, two calls
function M.mock_match(G, replies, seed)
  local mock = require "tests.mock"
  local participants = require "scenarios.dece.participants"
  local match = require "scenarios.dece.match"
  local fs = require "tabula.fs"
  local srv = mock.start(replies)
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return { m = { provider = "openai", model = "m",
    base_url = %q, optional_key = true, prices = { input = 2, cached = 1, output = 10 } } }]], srv.url .. "/v1"))
  local by, agents, prompts = {}, {}, {}
  for _, e in ipairs({ { name = "llm", model = "m", models_file = dir .. "/models.lua" }, { name = "random", player = "random" },
                       { name = "heuristic", player = "heuristic" } }) do
    local pp = participants.normalize(e, "test", e.models_file)
    by[pp.name] = pp
    if pp.kind == "model" then
      agents[pp.name] = require("tabula.agent").new(require("tabula.models").resolve(pp.manifest.model, e.models_file), { cache_dir = dir .. "/cache" })
      prompts[pp.name] = require("tabula.prompt").set("dece")
    end
  end
  local arena = { dir = dir, participants = by, agents = agents, prompts = prompts, games = { [G.name] = G } }
  local ok, rec = pcall(match.play, arena, { id = G.name .. "-1", game = G.name, seats = { "llm", "random", "heuristic" }, setup_seed = seed })
  local log = srv:log()
  srv:close()
  if not ok then error(rec, 0) end
  t.eq(rec.status, "forfeit"); t.eq(rec.forfeits, { 1 }); t.eq(rec.ranks[1], 3)
  t.eq(rec.decisions[1], 2); t.eq(rec.invalid[1], 1)
  t.eq(#log, 2)
  return json.encode(log[1].body and json.decode(log[1].body) or log[1])
end

-- check_ranking(G, state, n)
function M.check_ranking(G, state, n, where)
  local r = G.ranking(state)
  if type(r) ~= "table" or #r.ranks ~= n or #r.scores ~= n then fail(G, where, "ranking needs %d ranks and scores", n) end
  for i = 1, n do
    local better = 0
    for j = 1, n do if r.ranks[j] < r.ranks[i] then better = better + 1 end end
    if r.ranks[i] ~= better + 1 then fail(G, where, "ranks %s are not competition ranks", t.show(r.ranks)) end
  end
  return r
end

-- play(G, n, seed, choose) -> final state, list of {seat, id} in order, steps.
-- choose(state, seat, legal) -> id. Runs `each(state, where)` before every step if given.
function M.play(G, n, seed, choose, each, max_steps)
  local state = G.setup(n, seed)
  local log = {}
  local steps = 0
  while not G.is_terminal(state) do
    steps = steps + 1
    if steps > (max_steps or 2000) then fail(G, "seed " .. seed, "no end after %d steps", steps - 1) end
    if each then each(state, string.format("seed %d step %d", seed, steps)) end
    local seats = G.current_seats(state)
    local picks = {}
    for k, seat in ipairs(seats) do picks[k] = choose(state, seat, G.legal_actions(state, seat)) end
    for k, seat in ipairs(seats) do
      local ok, err = G.apply(state, seat, picks[k])
      if not ok then fail(G, string.format("seed %d step %d", seed, steps), "legal action %s refused: %s", picks[k], tostring(err)) end
      log[#log + 1] = { seat, picks[k] }
    end
  end
  return state, log, steps
end

-- heuristic_wins(G, matches [, max_steps]) -> how many of `matches` three-player matches
-- (seeds 901...) the Heuristic (ε = 0.1) won against two Random seats, its seat rotated
function M.heuristic_wins(G, matches, max_steps)
  local ismcts = require "games.ismcts"
  local rand = kit.generator(41)
  local wins = 0
  for m = 1, matches do
    local hseat = (m - 1) % 3 + 1
    local final = M.play(G, 3, 900 + m, function(st, seat, legal)
      if seat == hseat then return ismcts.heuristic_pick(G, st, seat, legal, rand, 0.1) end
      return legal[rand(#legal)].id
    end, nil, max_steps)
    if G.ranking(final).ranks[hseat] == 1 then wins = wins + 1 end
  end
  return wins
end

-- replay_check(G, n, seed, cut): a match of n seats from seed between Heuristic players
-- (ε = 0.1) replayed from its events gives the same final state, and the state survives
-- a serialization round trip after event number cut (mid-turn, where the game has turns)
function M.replay_check(G, n, seed, cut)
  local ismcts = require "games.ismcts"
  local rand = kit.generator(9)
  local final, log = M.play(G, n, seed, function(st, seat, legal) return ismcts.heuristic_pick(G, st, seat, legal, rand, 0.1) end)
  local again = G.setup(n, seed)
  for i, e in ipairs(log) do
    assert(G.apply(again, e[1], e[2]))
    if i == cut then
      local back = kit.deserialize(kit.serialize(again))
      t.eq(kit.serialize(back), kit.serialize(again))
      again = back
    end
  end
  t.eq(kit.serialize(again), kit.serialize(final))
  t.ok(G.is_terminal(again))
end

-- playouts(G, opts): see games/README.md. opts: players, games, seed, invariant(state, where),
-- max_steps, hidden_every (check hidden information every k steps, default 1), light
-- (only the invariant, legality of the random choices, the ranking and determinism: for
-- the many fast playouts; the full checks then run on fewer games).
-- Returns { matches, steps, decisions } totals.
function M.playouts(G, opts)
  opts = opts or {}
  local counts = {}
  if opts.players then counts = { opts.players } else
    for n = G.players.min, G.players.max do counts[#counts + 1] = n end
  end
  local rand = kit.generator(opts.seed or 1)
  local total = { matches = 0, steps = 0 }
  local every = opts.hidden_every or 1
  for g = 1, opts.games or 100 do
    local n = counts[(g - 1) % #counts + 1]
    local seed = (opts.seed or 1) * 100003 + g
    local function each(state, where)
      if opts.light then
        if opts.invariant then opts.invariant(state, where) end
        total.steps = total.steps + 1
        return
      end
      local seats = G.current_seats(state)
      if #seats == 0 then fail(G, where, "not terminal but no seat to choose") end
      local text = kit.serialize(state)
      local back = kit.deserialize(text)
      if kit.serialize(back) ~= text then fail(G, where, "state does not survive serialization") end
      t.eq(back, state, G.name .. ": " .. where .. ": deserialized state")
      if kit.serialize(kit.copy(state)) ~= text then fail(G, where, "copy differs") end
      for _, seat in ipairs(seats) do
        check_actions(G, state, seat, where)
        local ok = G.apply(state, seat, "no-such-action")
        if ok or kit.serialize(state) ~= text then fail(G, where, "an illegal id was accepted or changed the state") end
        local obs = G.observation(state, seat)
        local enc = json.encode(obs)
        if not enc then fail(G, where, "observation is not JSON-encodable") end
        if type(G.render(obs)) ~= "string" then fail(G, where, "render did not return text") end
      end
      if opts.invariant then opts.invariant(state, where) end
      total.steps = total.steps + 1
      if total.steps % every == 0 then M.hidden_check(G, state, rand, where) end
    end
    local final, log = M.play(G, n, seed, function(_, _, legal) return legal[rand(#legal)].id end, each, opts.max_steps)
    if #G.current_seats(final) ~= 0 then fail(G, "seed " .. seed, "terminal state still lists seats to choose") end
    if opts.invariant then opts.invariant(final, "seed " .. seed .. " end") end
    M.check_ranking(G, final, n, "seed " .. seed)
    -- determinism: the same seed and the same actions give the same match
    local again = G.setup(n, seed)
    for _, e in ipairs(log) do assert(G.apply(again, e[1], e[2])) end
    if kit.serialize(again) ~= kit.serialize(final) then fail(G, "seed " .. seed, "replaying the actions gives a different state") end
    total.matches = total.matches + 1
  end
  return total
end

return M
