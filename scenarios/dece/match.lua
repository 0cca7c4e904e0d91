-- scenarios/dece/match.lua — one match of the DECE arena: setup from the schedule's seed,
-- decisions collected against a frozen state (several seats for a simultaneous choice),
-- every step appended to the match's event log (fsynced) before it is applied, and a
-- killed match resumed from its events: the logged actions are applied again without
-- asking anyone, the models' memories are rebuilt from the logged prompts and replies,
-- and the decision that was in flight is asked again (the response cache replays it if
-- it had finished).
--
-- A damaged event log (a line that is not JSON, or holds what cannot be replayed) stops the
-- run with one line naming the file and line; with --discard-damaged the log is kept beside it
-- as FILE.damaged and the match restarts from its seed, its record saying so (restarted).
--
-- Invalid answers (the reference study's policy: no retries, no fallback): the seat that
-- answers with no legal action forfeits; the match ends there, the forfeiting seats share
-- the last places and the others are ranked by the game's standing at that point.
local records = require "tabula.records"
local fs = require "tabula.fs"
local kit = require "games.kit"
local loop = require "tabula.loop"
local players = require "scenarios.dece.players"
local models = require "tabula.models"
local json = require "tabula.json"
local cli = require "tabula.cli"

local M = {}

local function zero() return players.zero_usage() end

-- the participant's frozen price table, or nil (built-in players cost nothing)
local function prices(p)
  local pr = p.manifest.prices
  if pr == nil or pr == json.null then return nil end
  return pr
end
M.prices = prices

-- per-decision random stream: fixed by the match seed, the seat and the decision index
-- (and a null arm's salt: its copy draws other streams), so a resumed match draws exactly
-- what the first run drew
local function decision_rand(setup_seed, seat, decision, salt)
  return kit.generator(setup_seed * 1000003 + seat * 7919 + decision + (salt or 0) * 104729)
end

-- forfeit_ranking(G, state, forfeits) -> ranks, scores
local function forfeit_ranking(G, state, out)
  local r = G.ranking(state)
  local n = #r.ranks
  local keys = {}
  for i = 1, n do keys[i] = out[i] and { 0, 0 } or { 1, -r.ranks[i] } end
  return kit.ranks(keys), r.scores
end
M.forfeit_ranking = forfeit_ranking

-- set_aside(path) -> where a damaged log is kept (FILE.damaged, FILE.damaged.2, ...)
local function set_aside(path)
  local kept, k = path .. ".damaged", 1
  while fs.kind(kept) do k = k + 1; kept = string.format("%s.damaged.%d", path, k) end
  local ok, err = os.rename(path, kept)
  if not ok then error(cli.user_error(string.format("%s: cannot set the damaged log aside: %s", path, tostring(err))), 0) end
  return kept
end

-- play(arena, m) -> the match record. arena = { dir, participants (by name), agents (by name),
-- prompt sets (by name), games (by name), discard_damaged }; m = a schedule entry.
function M.play(arena, m)
  local path = string.format("%s/matches/%s.jsonl", arena.dir, m.id)
  fs.mkdir_p(arena.dir .. "/matches")
  -- an agent program's seat (tabula.program) is stopped when its match ends, however it ends
  local seats <close> = setmetatable({}, { __close = function()
    for s, nme in ipairs(m.seats) do
      local a = arena.agents and arena.agents[nme]
      if a and a.end_seat then pcall(a.end_seat, a, m.id .. ":" .. s) end
    end
  end })
  local ok, res = pcall(M.play_log, arena, m, path)
  if ok then return res end
  if not (type(res) == "table" and res.damaged) then error(res, 0) end
  local where = string.format("%s:%d: damaged event line (%s)", path, res.line, res.why)
  if not arena.discard_damaged then
    error(cli.user_error(where .. "; run again with --discard-damaged to restart match " .. m.id .. " from its seed"), 0)
  end
  local kept = set_aside(path)
  io.stderr:write(string.format("%s; match %s restarts from its seed (the log is kept as %s)\n", where, m.id, kept))
  local rec = M.play_log(arena, m, path)
  rec.restarted = { line = res.line, why = res.why, kept = kept }
  return rec
end

-- damaged(line, why): raised when the event log cannot be replayed
local function damaged(line, why) error({ damaged = true, line = line, why = why }, 0) end

function M.play_log(arena, m, path)
  local G = arena.games[m.game]
  local n = #m.seats
  local events, info = records.read(path, { skip_bad = true })
  if #info.bad > 0 then damaged(info.bad[1].line, "not JSON: " .. tostring(info.bad[1].error)) end
  local state = G.setup(n, m.setup_seed)
  local ps, ids = {}, {}
  for s, nme in ipairs(m.seats) do ps[s] = arena.participants[nme]; ids[s] = ps[s].id end
  local acc = { decisions = {}, turns = {}, usage = {}, seconds = {}, invalid = {}, fallbacks = {}, tools = {}, calls = {},
                memory = {}, budget = {}, failures = {} }
  for s = 1, n do
    acc.decisions[s], acc.turns[s], acc.usage[s], acc.seconds[s] = 0, 0, zero(), 0
    acc.invalid[s], acc.fallbacks[s], acc.tools[s], acc.calls[s] = 0, 0, 0, 0
    acc.memory[s], acc.budget[s] = {}, { output = 0, cost = 0 }
  end
  local step, out, resumed = 0, {}, 0
  local function account(c)
    local s = c.seat
    acc.turns[s] = acc.turns[s] + 1
    if c.counted then acc.decisions[s] = acc.decisions[s] + 1 end
    for k, v in pairs(c.usage or {}) do acc.usage[s][k] = (acc.usage[s][k] or 0) + v end
    acc.budget[s].output = acc.budget[s].output + ((c.usage or {}).output or 0)
    acc.budget[s].cost = acc.budget[s].cost + models.cost(prices(ps[s]), c.usage or {})
    acc.seconds[s] = acc.seconds[s] + (c.seconds or 0)
    acc.calls[s] = acc.calls[s] + (c.calls or 0)
    acc.tools[s] = acc.tools[s] + (c.tools or 0)
    if c.failure then
      acc.failures[#acc.failures + 1] = { seat = s, kind = c.failure, why = c.why, step = c.step, fallback = c.fallback }
      if c.failure == "invalid" or c.failure == "budget" then acc.invalid[s] = acc.invalid[s] + 1 end
    end
    if c.fallback then acc.fallbacks[s] = acc.fallbacks[s] + 1 end
    if ps[s].kind == "model" and c.prompt then players.remember(acc.memory[s], ps[s].manifest.harness, c.prompt, c.reply, c.turn) end
  end
  -- replay what the log holds
  local writer
  if #events > 0 then
    local head = events[1]
    if type(head) ~= "table" or head.k ~= "setup" or type(head.seats) ~= "table" then
      damaged(info.lines[1], "the first line is not the match's setup")
    end
    if head.setup_seed ~= m.setup_seed or table.concat(head.seats, ",") ~= table.concat(m.seats, ",") then
      damaged(info.lines[1], "it belongs to another match (another seed or seats)")
    end
    for i = 2, #events do
      local e, line = events[i], info.lines[i]
      if type(e) ~= "table" or (e.k ~= "step" and e.k ~= "end") then damaged(line, "not a step of the match") end
      if e.k == "step" then
        if e.step ~= step + 1 or type(e.choices) ~= "table" or #e.choices == 0 then
          damaged(line, string.format("expected step %d with its choices", step + 1))
        end
        if G.is_terminal(state) or next(out) then damaged(line, "a step after the match ended") end
        local want = {}
        for _, seat in ipairs(G.current_seats(state)) do want[seat] = true end
        for _, c in ipairs(e.choices) do
          if type(c) ~= "table" or not want[c.seat] or (c.action ~= nil and type(c.action) ~= "string")
            or (c.usage ~= nil and type(c.usage) ~= "table") then
            damaged(line, "a choice that is not one of a seat to move")
          end
        end
        step = e.step
        local okc, err = pcall(function() for _, c in ipairs(e.choices) do account(c) end end)
        if not okc then damaged(line, tostring(err)) end
        local forfeit = false
        for _, c in ipairs(e.choices) do if not c.action then out[c.seat] = true; forfeit = true end end
        if not forfeit then
          for _, c in ipairs(e.choices) do
            local oka, applied = pcall(G.apply, state, c.seat, c.action)
            if not (oka and applied) then damaged(line, "seat " .. c.seat .. "'s logged action " .. c.action .. " is refused") end
          end
        end
        resumed = resumed + 1
      end
    end
    writer = records.writer(path)
  else
    writer = records.writer(path)
    writer:write({ k = "setup", match = m.id, game = m.game, seats = m.seats, participant_ids = ids, setup_seed = m.setup_seed })
  end
  local started = loop.now()
  while not G.is_terminal(state) and not next(out) do
    step = step + 1
    local seats = G.current_seats(state)
    local choices = {}
    for k, seat in ipairs(seats) do
      local p = ps[seat]
      local legal = G.legal_actions(state, seat)
      local counted = (G.counts_decision == nil) or G.counts_decision(state, seat)
      local t0 = loop.now()
      local res = players.decide(p, { G = G, state = state, seat = seat, legal = legal, decision = step,
        rand = decision_rand(m.setup_seed, seat, step, p.manifest.seed_salt), salt = p.manifest.seed_salt,
        match_id = m.id, memory = acc.memory[seat],
        agent = arena.agents[p.name], P = arena.prompts[p.name], budget_used = acc.budget[seat] })
      choices[k] = { seat = seat, action = res.action, counted = counted, seconds = loop.now() - t0,
        usage = res.usage, calls = res.calls, tools = res.tools, failure = res.failure, why = res.why,
        fallback = res.fallback, prompt = res.prompt, reply = res.reply, step = step, program = res.program,
        turn = (p.kind == "model" and p.manifest.harness.memory ~= "none" and p.manifest.harness.memory ~= "notes") and res.turn or nil }
    end
    writer:write({ k = "step", step = step, choices = choices })
    for _, c in ipairs(choices) do
      account(c)
      if not c.action then out[c.seat] = true end
    end
    if not next(out) then
      for _, c in ipairs(choices) do assert(G.apply(state, c.seat, c.action)) end
    end
  end
  local ranks, scores
  if next(out) then ranks, scores = forfeit_ranking(G, state, out)
  else local r = G.ranking(state); ranks, scores = r.ranks, r.scores end
  writer:write({ k = "end", ranks = ranks, scores = scores })
  writer:close()
  local D = 0
  for s = 1, n do D = D + acc.decisions[s] end
  local forfeits = {}
  for s = 1, n do if out[s] then forfeits[#forfeits + 1] = s end end
  return { match_id = m.id, game = m.game, n = n, seats = m.seats, participant_ids = ids, setup_seed = m.setup_seed,
    scenario = m.scenario, focal_seat = m.focal_seat, status = next(out) and "forfeit" or "finished",
    forfeits = forfeits, ranks = ranks, scores = scores, decisions = acc.decisions, D = D, turns = acc.turns,
    usage = acc.usage, seconds = acc.seconds, invalid = acc.invalid, fallbacks = acc.fallbacks, calls = acc.calls,
    tools = acc.tools, failures = acc.failures, steps = step, resumed_steps = resumed > 0 and resumed or nil,
    wall_seconds = loop.now() - started }
end

return M
