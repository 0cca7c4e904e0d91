-- scenarios/xiangqibench — XiangqiBench: can an LLM agent convert a won
-- Xiangqi endgame into checkmate against an engine defender, through a REPL?
-- (../shared/specs/xiangqibench.md)
--
--   tabula run scenarios/xiangqibench                        # engine player, own suite
--   tabula run scenarios/xiangqibench --model openai:gpt-5.5 --setting sighted,restricted
--   tabula run scenarios/xiangqibench --cases ../shared/data/xiangqibench/cases.jsonl \
--       --defender fairy-stockfish --defender-depth 18 --out runs/ref
--   tabula report runs/ref
--
-- Choices where the spec is silent (each is an option):
--  * The ply cap counts both sides' moves (--max-plies 40): after the 40th ply
--    without a result the trial ends with turn_cap.
--  * The REPL is refereed as the official harness referees it (floatai/
--    xiangqibench 0.1.0, harness/harness.py, actions.py, runner.py): an action
--    is a reply that carries a command; the invalid actions are failed moves
--    (illegal, or not four characters) and unknown commands, and the third in
--    one turn forfeits (--rejected, reason rejected_limit; illegal_move_limit
--    when the third is also the third illegal move in a row, --illegal). A
--    disabled command, a query over its budget, an empty think and a draw offer
--    are answered ("refused") but are not invalid. After --actions (8) actions
--    a move (or resign) is still played; any other command then forfeits
--    (action_limit). Replies without a command count toward --no-command (5
--    in one turn), and a turn takes at most --actions + --no-command model
--    calls (13): past that the trial is lost with call_cap (the official
--    action_budget_exhausted). With no command in the reply's text, a command
--    in the reply's reasoning counts (as the official runner reads it).
--  * The six official mode names are accepted for --setting (sighted,
--    restricted, S = full, S-NT = no-queries, R-T = no-refresh, R = neither,
--    and the official repl-* setting names); records name both, and the
--    official termination reason beside ours (official_reason).
--  * Feedback matches the official in what it tells the agent: the material
--    line counts R 9, C 4.5, N 4, A 2, B 2, P 1 (a soldier is 1 on either side
--    of the river), and the position after your move occurring for the second
--    time is announced (the third ends the game).
--  * Remaining differences from the official package: our own suite is not
--    the paper's cases unless --cases names them; the default defender is the
--    built-in search, not Pikafish (reports say so and mark the run
--    non-standard); feedback and prompts are in our own words (the same
--    facts, not the same bytes); --illegal (three illegal moves in a row) is
--    ours, and with the standard budgets it never ends a trial the official
--    rule would not (it only names the ending illegal_move_limit); the scorer
--    orders a cell's trials by trial index where the official one orders by
--    start time (the same order for a run planned and run in order); a run
--    holds one model, so rows are per setting; the tools arm (--protocol
--    tools) has no official counterpart.
--  * Feedback on an illegal move lists the legal moves in the settings that
--    refresh the state each ply (sighted, full, no-queries).
--  * The ablation arms keep the board and FEN in the first message in every
--    arm; refresh adds the legal moves there and the full state after each ply.
--  * The official defender, --defender pikafish:PATH [--defender-nnue FILE]:
--    Threads 1, Hash 256, `ucinewgame` and the current position only, depth
--    18; its moves are ICCS as written (Pikafish's ranks are 0-9). A move that
--    is not legal (a position it rejects) is played by the rule-search
--    fallback; an engine that dies stops the run with one line unless
--    --defender-fallback (then the run is non-standard). Each record holds
--    the defender (backend, engine path and id, network and its sha256, depth,
--    threads, hash) and each defender move its backend.
--  * Other engine defenders (fairy-stockfish, uci:PATH) keep their own
--    behaviour: the fallback (on unless --no-defender-fallback) also answers
--    when the engine dies mid-game, the move recorded with backend "fallback"
--    and the reason; with --no-defender-fallback the trial is an
--    infrastructure error instead.
--  * The engine player (the embedded default) plays the built-in mate search's
--    move (node budget --engine-nodes), else the built-in search's best move.
--  * --protocol tools: the REPL's commands as native tool calls (tools.lua), with
--    the same referee and budgets: each call is one action; several calls in
--    one reply run in order and the calls after the one that ends the turn are
--    not executed (tabula.tools); a reply without a call counts toward
--    --no-command. The protocol is an option, so it is part of the run's
--    identity, and each record names it; built-in players answer in the text
--    REPL's form in either arm.
--  * Built-in defender: the built-in search with --defender-nodes (default
--    300000) or --defender-depth; it prefers the longest resistance. It sees
--    the game's history and scores a repetition by the referee's rule, so it
--    never chooses a perpetual check that loses. An engine defender gets the
--    trial's start position and every move since (`position fen ... moves ...`),
--    except Pikafish (the official: the position only).
local xq = require "games.xiangqi"
local commands = require "scenarios.xiangqibench.commands"
local xq_tools = require "scenarios.xiangqibench.tools"
local tools = require "tabula.tools"
local records = require "tabula.records"
local fs = require "tabula.fs"
local json = require "tabula.json"
local cli = require "tabula.cli"
local prompt = require "tabula.prompt"
local host = require "tabula.c.host"

local S = {
  name = "xiangqibench",
  summary = "XiangqiBench: checkmate from won Xiangqi endgames through a REPL",
}

-- Each setting names its system prompt and first message. Sighted has the
-- won-endgame prompt; Restricted the paper's generic blindfold prompt (never
-- shown the board, the standard opening's pieces, no won-endgame framing),
-- while its first message still shows the board once, as in the paper; the
-- ablation arms share one endgame prompt whose observation and command
-- paragraphs vary.
S.SETTINGS = {
  sighted    = { prompt = "system", initial = "initial", refresh = true, queries = true },
  restricted = { prompt = "restricted_system", initial = "initial_restricted", refresh = false, queries = false },
  full       = { prompt = "ablation_system", initial = "initial", refresh = true, queries = true },
  ["no-queries"] = { prompt = "ablation_system", initial = "initial", refresh = true, queries = false },
  ["no-refresh"] = { prompt = "ablation_system", initial = "initial", refresh = false, queries = true },
  neither    = { prompt = "ablation_system", initial = "initial", refresh = false, queries = false },
}

S.REASONS = {
  win = { win_mate = true, win_no_moves = true, defender_perpetual_check = true },
  failure = { loss_mate = true, resignation = true, turn_cap = true, illegal_move_limit = true,
    action_limit = true, rejected_limit = true, no_command_limit = true, repetition_draw = true,
    attacker_perpetual_check = true, call_cap = true },
}

-- the official mode names (and setting names) -> ours, and ours -> the official mode
S.MODE_ALIASES = { S = "full", ["S-NT"] = "no-queries", ["R-T"] = "no-refresh", R = "neither", blind = "restricted",
  blindfold = "restricted", ["repl-sighted"] = "sighted", ["repl-blind"] = "restricted", ["repl-abl-S"] = "full",
  ["repl-abl-S-NT"] = "no-queries", ["repl-abl-R-T"] = "no-refresh", ["repl-abl-R"] = "neither" }
S.OFFICIAL_MODE = { sighted = "sighted", restricted = "restricted", full = "S", ["no-queries"] = "S-NT",
  ["no-refresh"] = "R-T", neither = "R" }

-- our ending -> the official harness's termination reason (scenarios.xiangqibench.report)
S.OFFICIAL_REASON = require("scenarios.xiangqibench.report").OFFICIAL_REASON

S.options = {
  { "cases", "string", nil, "cases JSONL in the reference format (default: the project's suite)" },
  { "split", "string", nil, "file of case ids to keep (one per line)" },
  { "ids", "list", nil, "case ids to keep" },
  { "limit", "int", nil, "at most this many cases" },
  { "setting", "list", { "sighted" }, "settings: sighted, restricted, full, no-queries, no-refresh, neither (or the official S, S-NT, R-T, R)" },
  { "defender", "string", "builtin", "builtin, pikafish:/path/to/pikafish, fairy-stockfish, or uci:/path/to/engine" },
  { "defender-nnue", "string", nil, "Pikafish's network file (its EvalFile)" },
  { "defender-depth", "int", nil, "defender search depth (engines default to 18)" },
  { "defender-nodes", "int", nil, "defender node budget (built-in default 300000)" },
  { "defender-fallback", "bool", nil, "let the rule-based fallback answer when the engine dies (Pikafish: off, the run stops; other engines: on)" },
  { "defender-timeout", "number", 120, "seconds the defender engine may take for one move", min = 0.001 },
  { "max-plies", "int", 40, "game length cap in plies (both sides)" },
  { "actions", "int", 8, "actions per turn" },
  { "view-budget", "int", 1, "view_board uses per turn" },
  { "simulate-budget", "int", 1, "simulate uses per turn" },
  { "simulate-max", "int", 8, "longest simulated line in plies" },
  { "rejected", "int", 3, "invalid actions (failed moves, unknown commands) per turn before forfeit" },
  { "illegal", "int", 3, "illegal moves in a row before forfeit" },
  { "no-command", "int", 5, "replies in a turn without a command before forfeit" },
  { "engine-nodes", "int", 4000000, "the engine player's mate-search node budget" },
  { "engine-search-nodes", "int", 300000, "the engine player's search budget when no mate is found" },
  { "prompts", "string", nil, "prompt folder (default prompts/xiangqibench)" },
  { "protocol", "string", "text", "how the agent acts: text (commands in a fenced block of the reply) or tools (the commands as native tool calls)" },
  { "program", "string", nil, "an agent program solves the cases for the model (the agent-CLI arm: codex, opencode, qwen-code, claude-code, gemini-cli, or a JSON file {\"command\": [...], \"env\": {...}}); it plays through the tools arm's tools over MCP, its model calls metered by tabula's proxy" },
  { "program-timeout", "number", 1200, "seconds one launch of the agent program may run (then it is stopped; its reply counts as one without a command, and it is launched again)" },
}

-- ---- cases ----

local function default_cases() return host.root .. "/games/xiangqi/suite.jsonl" end

function S.load_cases(opts)
  local path = fs.need(opts.cases or default_cases(), "option --cases")
  local recs, info = records.read(path, { lenient = true })
  local keep
  if opts.split then
    keep = {}
    for id in fs.read_or_fail(opts.split, "split"):gmatch("[^%s,]+") do keep[id] = true end
  end
  if opts.ids then
    keep = keep or {}
    local only = {}
    for _, id in ipairs(opts.ids) do only[id] = true end
    if opts.split then for id in pairs(keep) do if not only[id] then keep[id] = nil end end else keep = only end
  end
  local out = {}
  for i, c in ipairs(recs) do
    local at = string.format("%s:%d", path, info.lines[i])
    if type(c) ~= "table" or getmetatable(c) == json.array_mt then cli.fail("%s: a case must be a JSON object", at) end
    if type(c.id) ~= "string" or type(c.fen) ~= "string" then
      cli.fail("%s: case %d has no id or fen", at, i)
    end
    local b, err = xq.new(c.fen)
    if not b then cli.fail("%s: case %s: bad FEN: %s", at, c.id, err) end
    if b:side() ~= "red" then cli.fail("%s: case %s: Red must be to move", at, c.id) end
    if not keep or keep[c.id] then out[#out + 1] = c end
  end
  if opts.ids then
    local have = {}
    for _, c in ipairs(out) do have[c.id] = true end
    for _, id in ipairs(opts.ids) do if not have[id] then cli.fail("no case with id %s in %s", id, path) end end
  end
  if opts.limit then
    while #out > opts.limit do table.remove(out) end
  end
  return out, path
end

-- ---- the game ----

local Trial = {}
Trial.__index = Trial

local MATERIAL_ORDER = { "R", "N", "B", "A", "C", "P" }
-- the official material line's nominal values (a soldier is 1 on either side of the river)
S.MATERIAL_VALUES = { R = 9, C = 4.5, N = 4, A = 2, B = 2, P = 1, K = 0 }

-- material(P, b) -> each side's pieces by type (R N B A C P) and the balance
local function material(P, b)
  local c = b:census()
  local function counts(side)
    local parts = {}
    for _, t in ipairs(MATERIAL_ORDER) do parts[#parts + 1] = t .. #(side[t] or {}) end
    return table.concat(parts, " ")
  end
  local function points(side)
    local n = 0
    for t, v in pairs(S.MATERIAL_VALUES) do n = n + v * #(side[t] or {}) end
    return n
  end
  local d = points(c.red) - points(c.black)
  local balance = d == 0 and "even" or string.format("%s +%g", d > 0 and "Red" or "Black", math.abs(d))
  return P:fill("material", { red = counts(c.red), black = counts(c.black), balance = balance })
end

local function move_command(m) return "```bash\nmove " .. m .. "\n```" end

function Trial:fill(name, values)
  if name == "no_tool_call" then return self.tool_prompts:fill(name, values) end
  return self.P:fill(name, values)
end

function Trial:legal_block(b)
  local moves = b:moves()
  return self:fill("legal_block", { count = #moves, moves = table.concat(moves, " ") })
end

function Trial:commands_text()
  local o = self.opts
  return self:fill(self.setting.queries and "commands_queries" or "commands_noqueries",
    { view_budget = o["view-budget"], simulate_budget = o["simulate-budget"], simulate_max = o["simulate-max"] })
end

function Trial:system_prompt()
  local text = self:text_system_prompt()
  return self.tools and xq_tools.system_prompt(text, self.tool_prompts) or text
end

function Trial:text_system_prompt()
  local st, o = self.setting, self.opts
  local budget_vals = { view_budget = o["view-budget"], simulate_budget = o["simulate-budget"], simulate_max = o["simulate-max"] }
  return self:fill(st.prompt, {
    observation = self:fill(st.refresh and "observation_refresh" or "observation_brief", {}),
    commands = self:commands_text(),
    budget_paragraph = self:fill(st.queries and "budget_queries" or "budget_noqueries", budget_vals),
    max_plies = o["max-plies"], action_budget = o.actions, no_command_budget = o["no-command"],
    call_budget = o.actions + o["no-command"],
  })
end

function Trial:initial_message()
  local b = self.board
  return self:fill(self.setting.initial, { board = b:render("chinese"), fen = b:fen(),
    legal_block = self.setting.refresh and self:legal_block(b) or "" })
end

-- the user message after a full ply pair (the agent's move and the defender's reply)
function Trial:after_ply(agent_desc, defender_desc, agent_check, defender_check, agent_seen)
  local b = self.board
  local check = string.format("your move %s; Black's reply %s", agent_check and "gave check" or "did not give check",
    defender_check and "puts your general in check" or "does not give check")
  local v = { agent_move = agent_desc, defender_move = defender_desc, check = check, material = material(self.P, b) }
  -- the position after your move, seen for the second time (or more): the third ends the game
  v.repetition = (agent_seen or 0) >= 2 and ("\n" .. self:fill("repetition_watch", { count = agent_seen })) or ""
  if self.setting.refresh then
    local moves = b:moves()
    v.board, v.fen, v.census = b:render("chinese"), b:fen(), b:census_text()
    v.move_number = b:fen():match("(%d+)%s*$")     -- the FEN's move number: the move Red plays next
    v.count, v.moves = #moves, table.concat(moves, " ")
    return self:fill("after_ply_refresh", v)
  end
  return self:fill("after_ply_brief", v)
end

-- ---- defender ----

function Trial:defend()
  local b, o = self.board, self.opts
  local d = self.defender
  if d.kind == "builtin" then
    local r = xq.search(b, { depth = o["defender-depth"], nodes = (not o["defender-depth"]) and (o["defender-nodes"] or 300000) or nil })
    return { move = r.best, backend = "builtin", score = r.score, mate = r.mate, depth = r.depth, nodes = r.nodes }
  end
  if d.style == "pikafish" then return self:defend_pikafish() end
  local fallback_reason
  local ok, res = pcall(function()
    return d.pool:with(function(e)
      -- the whole game, so that the engine sees repetitions (and the long-check rule)
      local moves = {}
      for i, mv in ipairs(self.rec.moves) do moves[i] = xq.iccs_to_engine(mv.move) end
      return e:go({ fen = self.rec.initial_fen, moves = moves, depth = o["defender-depth"] or ((not o["defender-nodes"]) and 18 or nil),
        nodes = o["defender-nodes"] })
    end)
  end)
  if ok then
    local m = res.bestmove and xq.engine_to_iccs(res.bestmove)
    if m and b:is_legal(m) then
      local line = res.lines[1] or {}
      return { move = m, backend = d.name, score = line.cp, mate = line.mate, depth = line.depth, engine_id = d.id }
    end
    fallback_reason = "engine answered " .. tostring(res.bestmove) .. ", not a legal move here"
    if o["defender-fallback"] == false then
      error({ infra = true, engine = d.name, message = string.format("defender %s %s (--no-defender-fallback)", d.name, fallback_reason) }, 0)
    end
  else
    if o["defender-fallback"] == false then error(res, 0) end
    fallback_reason = type(res) == "table" and res.message or tostring(res)
  end
  if not self.fallback_said then      -- once per trial: the fallback answered, and why
    self.fallback_said = true
    io.stderr:write(string.format("trial %s: the fallback defender answered for %s: %s\n", self.trial.id, d.name,
      (fallback_reason:gsub("%c", "?"))))
  end
  local ranking = xq.defend(b, { horizon = 5 })
  return { move = ranking[1] and ranking[1].move, backend = "fallback", reason = fallback_reason,
    mate_after = ranking[1] and ranking[1].mate_plies }
end

-- the official defender: Pikafish, sent `ucinewgame` and the current position
-- only, at depth 18 (--defender-depth); its moves are ICCS as they are (its
-- ranks run 0-9 like ours, where Fairy-Stockfish's run 1-10). An answer that
-- is not a legal move (a position the engine rejects) is played by the
-- rule-search fallback, as the official defender does; an engine that fails
-- stops the run (a configuration error: one line), unless --defender-fallback
-- lets the fallback answer (the run is then non-standard).
function Trial:defend_pikafish()
  local b, o, d = self.board, self.opts, self.defender
  local ok, res = pcall(function()
    return d.pool:with(function(e) return e:go({ fen = b:fen(), depth = o["defender-depth"] or 18 }) end)
  end)
  local fallback_reason
  if ok then
    local m = res.bestmove
    if m and m:match("^[a-i]%d[a-i]%d$") and b:is_legal(m) then
      local line = res.lines[1] or {}
      return { move = m, backend = "pikafish", score = line.cp, mate = line.mate, depth = line.depth, engine_id = d.id }
    end
    fallback_reason = "engine answered " .. tostring(m) .. ", not a legal move here"
  else
    local why = type(res) == "table" and res.message or tostring(res)
    if not o["defender-fallback"] then
      error({ infra = true, config = true, message = string.format("the defender engine %s failed: %s (--defender-fallback lets the rule search answer instead, and marks the run non-standard)",
        d.path, (why:gsub("%c", " "))) }, 0)
    end
    fallback_reason = "engine failed: " .. why
  end
  local ranking = xq.defend(b, { horizon = 5 })
  return { move = ranking[1] and ranking[1].move, backend = "fallback", reason = fallback_reason,
    mate_after = ranking[1] and ranking[1].mate_plies }
end

-- ---- actions ----

function Trial:record_move(side, m, by, extra)
  local b = self.board
  local before, legal = b:fen(), b:moves()
  local desc = b:describe(m)
  local captured = b:at(m:sub(3, 4))
  local check = b:gives_check(m)
  assert(b:play(m))
  local rec = { ply = b:ply(), side = side, move = m, by = by, fen_before = before, fen_after = b:fen(),
    legal_before = legal, check = check, captured = captured, description = desc }
  for k, v in pairs(extra or {}) do rec[k] = v end
  table.insert(self.rec.moves, rec)
  return rec
end

-- after a ply: did it end the game? -> reason | nil
function Trial:terminal_after(side)
  local b = self.board
  local status, in_check = b:status()
  if status == "no_moves" then
    if side == "red" then return in_check and "win_mate" or "win_no_moves" end
    return "loss_mate"
  end
  local rep = b:repetition()
  if rep then
    self.rec.repetition = rep
    if rep.result == "black_loses" then return "defender_perpetual_check" end
    if rep.result == "red_loses" then return "attacker_perpetual_check" end
    return "repetition_draw"
  end
  if b:ply() >= self.opts["max-plies"] then return "turn_cap" end
  return nil
end

function Trial:simulate(moves)
  local b = self.board:copy()
  local lines, plies = {}, {}
  local outcome, stopped_at = "complete", nil
  for i, m in ipairs(moves) do
    local ok, why = b:is_legal(m)
    if not ok then
      lines[#lines + 1] = string.format("%d. %s: illegal: %s", i, m, why:gsub("^illegal move %S+: ", ""))
      plies[#plies + 1] = { move = m, valid = false, why = why }
      outcome, stopped_at = "illegal", i
      break
    end
    local desc = b:describe(m)
    b:play(m)
    local status, in_check = b:status()
    local n = #b:moves()
    lines[#lines + 1] = string.format("%d. %s: %s; %s; FEN %s; %d legal replies", i, m, desc,
      in_check and "the side to move is in check" or "no check", b:fen(), n)
    plies[#plies + 1] = { move = m, valid = true, check = in_check, fen = b:fen(), legal_replies = n }
    if status == "no_moves" then
      lines[#lines + 1] = string.format("The game would end here: %s has no legal move (%s).",
        b:side() == "red" and "Red" or "Black", in_check and "checkmate" or "no moves")
      outcome, stopped_at = "terminal", i
      break
    end
    if b:repetition() then
      lines[#lines + 1] = "The game would end here: the position occurs for the third time."
      outcome, stopped_at = "terminal", i
      break
    end
    if b:ply() >= self.opts["max-plies"] and i < #moves then
      lines[#lines + 1] = "The game would end here: the ply limit is reached."
      outcome, stopped_at = "cap", i
      break
    end
  end
  local outcome_text = outcome == "complete" and "All plies were legal." or
    outcome == "illegal" and string.format("Stopped at ply %d.", stopped_at) or "Stopped: the game would be over."
  local sim = { requested = moves, length = #moves, plies = plies, outcome = outcome, stopped_at = stopped_at,
    ply = self.board:ply(), turn = self.turn }
  table.insert(self.rec.simulations, sim)
  return self:fill("simulate", { requested = #moves, lines = table.concat(lines, "\n"), outcome = outcome_text }), sim
end

-- ---- the trial ----

function S.new_trial(trial, env)
  local self = setmetatable({ trial = trial, env = env, opts = env.opts, P = env.prompts, tool_prompts = env.tool_prompts,
    setting = S.SETTINGS[trial.setting], defender = env.defender }, Trial)
  self.board = assert(xq.new(trial.case.fen))
  return self
end

function Trial:policy()
  -- the engine player: the shortest forced mate if one is in reach, else the search's move
  local b = self.board
  local left = self.opts["max-plies"] - b:ply()
  local m = xq.mate(b, { plies = math.min(11, left), nodes = self.opts["engine-nodes"] })
  if m.found then return m.pv[1] end
  local r = xq.search(b, { nodes = self.opts["engine-search-nodes"] })
  return r.best
end

-- the commands that end a turn (the action limit never refuses them)
local TURN_ENDING = { move = true, resign = true, accept_draw = true }

-- position_key(fen) -> the board and the side to move
local function position_key(fen) return fen:match("^(%S+%s+%S+)") end

-- seen(fen) -> how often that position has occurred in this trial
function Trial:seen(fen)
  local key, n = position_key(fen), 0
  if position_key(self.rec.initial_fen) == key then n = n + 1 end
  for _, mv in ipairs(self.rec.moves) do if position_key(mv.fen_after) == key then n = n + 1 end end
  return n
end

-- act(cmd, action) -> feedback: one command (parsed from a reply, or a tool
-- call's), against this turn's budgets (self.tb); sets self.reason when the
-- game or the trial ends and self.tb.over when the turn does
function Trial:act(cmd, action)
  local opts, rec, tb = self.opts, self.rec, self.tb
  local feedback
  -- an invalid action, as the official harness counts them: a failed move or an unknown command
  local function invalid(why)
    tb.rejected = tb.rejected + 1
    action.kind, action.reject_reason, action.invalid = "rejected", why, true
    feedback = self:fill("rejected", { why = why, rejected = tb.rejected, rejected_budget = opts.rejected })
    if tb.rejected >= opts.rejected then self.reason = "rejected_limit" end
  end
  -- answered but not an invalid action: a disabled command, a query over its budget, an empty think, a draw
  local function refuse(why)
    action.kind, action.reject_reason = "refused", why
    feedback = self:fill("refused", { why = why })
  end
  if not cmd then
    self.no_cmd_run = self.no_cmd_run + 1
    action.kind = "no_command"
    feedback = self:fill(self.tools and "no_tool_call" or "no_command", { count = self.no_cmd_run, budget = opts["no-command"] })
    if self.no_cmd_run >= opts["no-command"] then self.reason = "no_command_limit" end
    return feedback
  end
  self.no_cmd_run = 0
  action.command = cmd
  local name = cmd.name
  -- past the action limit only a move (or resign) is still played, even a malformed one (then invalid)
  if tb.actions >= opts.actions and not (TURN_ENDING[name] or (name == "malformed" and cmd.command == "move")) then
    action.kind = "over_limit"
    self.reason = "action_limit"
    return nil
  end
  tb.actions = tb.actions + 1
  local queries = self.setting.queries
  if name == "unknown" then
    invalid("unknown command '" .. cmd.raw .. "'")
    feedback = self:fill("rejected_unknown", { command = cmd.raw, rejected = tb.rejected,
      rejected_budget = opts.rejected, commands = self:commands_text() })
  elseif name == "malformed" and cmd.command == "move" then
    self.illegal_run = self.illegal_run + 1
    invalid(cmd.why)
    if self.illegal_run >= opts.illegal then self.reason = "illegal_move_limit" end
  elseif name == "malformed" then
    refuse(cmd.why)
  elseif (name == "view_board" or name == "legal_moves" or name == "simulate") and not queries then
    refuse(name .. " is disabled in this setting")
  elseif name == "offer_draw" or name == "accept_draw" then
    refuse("draws are disabled: the game is played to a result")
  elseif name == "view_board" then
    if tb.views >= opts["view-budget"] then refuse("view_board is over its budget for this turn")
    else
      tb.views = tb.views + 1
      action.kind = "accepted"
      local b = self.board
      feedback = self:fill("view_board", { board = b:render("chinese"), fen = b:fen(),
        side = b:side() == "red" and "Red" or "Black", census = b:census_text() })
    end
  elseif name == "legal_moves" then
    action.kind = "accepted"
    local moves = self.board:moves()
    feedback = self:fill("legal_moves", { count = #moves, moves = table.concat(moves, " ") })
  elseif name == "history" then
    action.kind = "accepted"
    local lines = {}
    for _, mv in ipairs(rec.moves) do
      lines[#lines + 1] = string.format("%d. %s (%s)", mv.ply, mv.description, mv.by == "agent" and "you" or "defender")
    end
    feedback = self:fill("history", { lines = #lines > 0 and table.concat(lines, "\n") or "(no moves yet)" })
  elseif name == "think" then
    if cmd.arg == "" then refuse("think needs some text")
    else action.kind = "accepted"; feedback = self:fill("think", {}) end
  elseif name == "simulate" then
    if tb.sims >= opts["simulate-budget"] then refuse("simulate is over its budget for this turn")
    elseif #cmd.moves == 0 then refuse("simulate needs at least one move")
    else
      tb.sims = tb.sims + 1
      action.kind = "accepted"
      local moves = cmd.moves
      if #moves > opts["simulate-max"] then   -- a longer line is cut to its first simulate-max plies and run
        moves = table.move(moves, 1, opts["simulate-max"], 1, {})
        action.simulate_cut = #cmd.moves
      end
      feedback = self:simulate(moves)
    end
  elseif name == "resign" then
    action.kind = "accepted"
    self.reason = "resignation"
  elseif name == "move" then
    local ok, why = self.board:is_legal(cmd.move)
    if not ok then
      self.illegal_run = self.illegal_run + 1
      tb.rejected = tb.rejected + 1
      action.kind, action.reject_reason, action.invalid = "illegal", why, true
      local legal_suffix = ""
      if self.setting.refresh then
        legal_suffix = " Legal moves: " .. table.concat(self.board:moves(), " ") .. "."
      end
      feedback = self:fill("illegal_move", { why = why:gsub("^illegal move %S+: ", ""), illegal = tb.rejected,
        illegal_budget = opts.rejected, legal_suffix = legal_suffix })
      if self.illegal_run >= opts.illegal then self.reason = "illegal_move_limit"
      elseif tb.rejected >= opts.rejected then self.reason = "rejected_limit" end
    else
      self.illegal_run = 0
      action.kind = "accepted"
      tb.over = true
      local mine = self:record_move("red", cmd.move, "agent")
      if #rec.moves == 1 then rec.first_move = cmd.move end
      self.reason = self:terminal_after("red")
      if not self.reason then
        local agent_seen = self:seen(mine.fen_after)
        local d = self:defend()
        if not d.move then error("the defender found no move in a position with legal moves") end
        local theirs = self:record_move("black", d.move, d.backend, { defender = d })
        table.insert(rec.defender_moves, { ply = theirs.ply, move = d.move, backend = d.backend,
          score = d.score, mate = d.mate, depth = d.depth, reason = d.reason })
        self.reason = self:terminal_after("black")
        if not self.reason then
          feedback = self:after_ply(mine.description, theirs.description, mine.check, theirs.check, agent_seen)
        end
      end
    end
  end
  return feedback
end

-- text_step(reply, action, conv): the text REPL: the command in the reply's last fenced block
function Trial:text_step(reply, action, conv)
  local cmd = commands.parse(reply.text)
  if not cmd and type(reply.reasoning) == "string" then   -- the official runner reads the reasoning then
    cmd = commands.parse(reply.reasoning)
    if cmd then action.command_from = "reasoning" end
  end
  local feedback = self:act(cmd, action)
  action.feedback = feedback
  if feedback and not self.reason then conv[#conv + 1] = { role = "user", content = feedback } end
end

-- tool_step(reply, action, conv): the tools arm: each call of the reply is a
-- command (tabula.tools' rule for several calls); a reply without one counts
-- toward --no-command like a reply without a command block
function Trial:tool_step(reply, action, conv)
  local calls = reply.tool_calls or {}
  if #calls == 0 then
    local feedback = self:act(nil, action)
    action.feedback = feedback
    if feedback and not self.reason then conv[#conv + 1] = { role = "user", content = feedback } end
    return
  end
  local first = true
  local results = tools.answer(calls, function(call)
    local a = action
    if not first then   -- each further call of the reply is its own action in the record
      a = { turn = self.turn, ply = self.board:ply(), call_of = #self.rec.actions }
      table.insert(self.rec.actions, a)
    end
    first = false
    a.tool_call = { id = call.id, name = call.name, arguments = call.raw }
    local feedback = self:act(xq_tools.command(call, self.tool_names), a)
    a.feedback = feedback
    return feedback or "", self.reason ~= nil or self.tb.over, a.kind == "rejected" or a.kind == "illegal" or a.kind == "refused"
  end)
  for _, m in ipairs(results) do conv[#conv + 1] = m end
end

function Trial:play()
  local case, opts = self.trial.case, self.opts
  local rec = {
    trial_id = self.trial.id, case_id = case.id, setting = self.trial.setting, trial_index = self.trial.index,
    official_mode = S.OFFICIAL_MODE[self.trial.setting], defender = self.env.defender_record,
    model = self.env.agent.cfg.name, initial_fen = self.board:fen(), reference_move = case.first_winning_move,
    stored_mate_plies = case.win_in_plies, category = case.category,
    actions = {}, moves = {}, simulations = {}, defender_moves = {},
    usage = { input = 0, cached = 0, output = 0, reasoning = 0 }, cost = 0, calls = 0, cached_calls = 0,
  }
  self.rec = rec
  -- the tools arm; a built-in player answers in the text REPL's form in either arm
  self.tools = opts.protocol == "tools" and not self.env.agent:is_builtin()
  rec.protocol = self.tools and "tools" or "text"   -- what the agent acted through
  local decl
  if self.tools then decl, self.tool_names = xq_tools.declare(self) end
  local conv = { { role = "system", content = self:system_prompt() }, { role = "user", content = self:initial_message() } }
  rec.system_prompt = conv[1].content
  rec.initial_message = conv[2].content
  self.illegal_run, self.no_cmd_run = 0, 0
  self.turn = 0
  local sample = 0
  local ctx = {
    key = self.trial.id,
    board = self.board,   -- kept in the transcript (its FEN) at every call
    legal_actions = nil,
    format = move_command,
    policy = function() return self:policy() end,
    rng = self.env.rng_for(self.trial),
    wrap_human = function(line) return line:find("```", 1, true) and line or ("```bash\n" .. line .. "\n```") end,
    tools = decl,
    instruction = self.env.program_prompts and self.env.program_prompts:fill("instruction", {}),   -- an agent program's first words
  }
  while not self.reason do
    self.turn = self.turn + 1
    self.tb = { actions = 0, rejected = 0, views = 0, sims = 0, calls = 0, over = false }   -- this turn's budgets
    self.no_cmd_run = 0   -- replies without a command are counted per turn
    local call_cap = opts.actions + opts["no-command"]
    while not self.tb.over and not self.reason do
      if self.tb.calls >= call_cap then self.reason = "call_cap"; break end
      ctx.legal_actions = self.board:moves()
      -- the cache key's sample index: repeated trials of one case stay independent
      ctx.sample = (self.trial.index or 1) * 100000 + sample
      local reply, err = self.env.agent:reply(conv, ctx)
      if not reply then return nil, err end
      sample = sample + 1
      rec.calls = rec.calls + 1
      self.tb.calls = self.tb.calls + 1
      if reply.cached then rec.cached_calls = rec.cached_calls + 1 end
      for k in pairs(rec.usage) do rec.usage[k] = rec.usage[k] + ((reply.usage or {})[k] or 0) end
      rec.cost = rec.cost + (reply.cost or 0)
      conv[#conv + 1] = require("tabula.agent").assistant(reply)   -- the text and the provider's reasoning turn
      local action = { turn = self.turn, ply = self.board:ply(), model_text = reply.text, reasoning = reply.reasoning,
        usage = reply.usage, cost = reply.cost, cached = reply.cached, finish = reply.finish }
      table.insert(rec.actions, action)
      if self.tools then self:tool_step(reply, action, conv) else self:text_step(reply, action, conv) end
    end
  end
  local reason = self.reason
  rec.reason = reason
  rec.official_reason = S.OFFICIAL_REASON[reason] or reason
  rec.status = S.REASONS.win[reason] and "success" or "failure"
  rec.success = rec.status == "success"
  rec.plies = self.board:ply()
  rec.final_fen = self.board:fen()
  return rec
end

-- ---- plan, play, summary (used by tabula run) ----

function S.plan(opts)
  if opts.protocol ~= "text" and opts.protocol ~= "tools" then
    cli.fail("option --protocol: want text or tools (got %s)", tostring(opts.protocol))
  end
  if opts.program then
    if cli.given(opts).protocol and opts.protocol ~= "tools" then
      cli.fail("option --program: an agent program acts through the tools arm's tools (drop --protocol %s)", opts.protocol)
    end
    opts.protocol = "tools"
  end
  for i, s in ipairs(opts.setting) do
    s = S.MODE_ALIASES[s] or s
    opts.setting[i] = s
    if not S.SETTINGS[s] then
      cli.fail("option --setting: unknown setting '%s' (sighted, restricted, full, no-queries, no-refresh, neither; or S, S-NT, R-T, R)", s)
    end
  end
  local cases, path = S.load_cases(opts)
  local trials = {}
  for _, setting in ipairs(opts.setting) do
    for _, c in ipairs(cases) do
      for k = 1, opts.trials do
        trials[#trials + 1] = { id = string.format("%s/%s/%d", c.id, setting, k), case = c, setting = setting, index = k }
      end
    end
  end
  local data = { cases = path, cases_sha256 = fs.sha256_file(path), n_cases = #cases }
  if opts.split then data.split, data.split_sha256 = opts.split, fs.sha256_file(opts.split) end
  return trials, data
end

-- setup(opts, env) -> what play() needs that outlives a trial (prompts, defender)
function S.setup(opts, env)
  env.prompts = prompt.set("xiangqibench", opts.prompts)
  local used = {}
  for k, v in pairs(env.prompts:used()) do used[k] = v end
  if opts.protocol == "tools" then   -- the tools arm's own templates (a folder of their own: the text arm's set is unchanged)
    local own = opts.prompts and opts.prompts .. "/tools"
    env.tool_prompts = prompt.set("xiangqibench", own and fs.kind(own) == "dir" and own or (host.root .. "/prompts/xiangqibench/tools"))
    for k, v in pairs(env.tool_prompts:used()) do used["tools/" .. k] = v end
  end
  if opts.program then   -- the agent-CLI arm: the program's instruction (a folder of its own)
    env.program_prompts = prompt.set("xiangqibench", host.root .. "/prompts/xiangqibench/program")
    for k, v in pairs(env.program_prompts:used()) do used["program/" .. k] = v end
  end
  local d = opts.defender
  local engine = require "tabula.engine"
  if opts["defender-nnue"] and not d:match("^pikafish:") then
    cli.fail("option --defender-nnue: only for --defender pikafish:PATH (got --defender %s)", d)
  end
  if d == "builtin" then
    env.defender = { kind = "builtin", name = "builtin" }
    env.defender_record = { backend = "builtin", depth = opts["defender-depth"],
      nodes = (not opts["defender-depth"]) and (opts["defender-nodes"] or 300000) or nil }
  else
    local argv, options, style
    local pikafish = d:match("^pikafish:(.+)$")
    if pikafish then
      fs.need(pikafish, "option --defender pikafish")
      -- the official settings: one thread, Hash 256
      argv, options, style = { pikafish }, { Threads = 1, Hash = 256 }, "pikafish"
      if opts["defender-nnue"] then options.EvalFile = fs.absolute(fs.need(opts["defender-nnue"], "option --defender-nnue")) end
    elseif d == "fairy-stockfish" then
      argv, options = { "/usr/games/fairy-stockfish" }, { UCI_Variant = "xiangqi", Threads = 1, Hash = 64 }
    else
      local path = d:match("^uci:(.+)$")
      if not path then cli.fail("option --defender: want builtin, pikafish:/path, fairy-stockfish or uci:/path (got %s)", d) end
      argv, options = { path }, { Threads = 1, Hash = 64 }
    end
    local name = d
    local timeout = opts["defender-timeout"]
    local probe = engine.uci({ name = name, argv = argv, options = options, timeout = timeout })
    local ok, err = pcall(probe.ensure, probe)
    if not ok then cli.fail("the defender engine cannot start: %s", type(err) == "table" and err.message or tostring(err)) end
    env.defender = { kind = "uci", name = name, id = probe.id and probe.id.name, style = style, path = argv[1],
      pool = engine.pool(function() return engine.uci({ name = name, argv = argv, options = options, timeout = timeout }) end,
        opts.concurrency) }
    probe:close()
    local nnue = options.EvalFile
    env.defender_record = { backend = style or name, engine_path = fs.absolute(argv[1]), engine_id = env.defender.id,
      nnue = nnue, nnue_sha256 = nnue and fs.sha256_file(nnue), depth = opts["defender-depth"] or ((not opts["defender-nodes"]) and 18 or nil),
      nodes = opts["defender-nodes"], threads = options.Threads, hash = options.Hash,
      fallback = style == "pikafish" and (opts["defender-fallback"] and "when the engine dies, and for positions it rejects"
        or "for positions the engine rejects") or (opts["defender-fallback"] ~= false and "when the engine fails" or "none") }
  end
  return {
    prompts = used, protocol = opts.protocol,
    defender = env.defender_record,
  }
end

function S.play(trial, env)
  local t = S.new_trial(trial, env)
  if not env.agent.program then return t:play() end
  -- an agent program (tabula.program): one launch serves the trial; when it ends the
  -- program's call in flight is answered and the program stopped, however the trial ended
  local ok, rec, err = pcall(t.play, t)
  local a = env.agent
  local over = ok and rec and { action = rec.reason, why = rec.reason,
    closing = string.format("The trial %s is over: %s (%s). Stop now.", trial.id, tostring(rec.status), tostring(rec.reason)) }
    or { why = "the trial stopped" }
  pcall(a.end_decision, a, { key = trial.id }, over)
  pcall(a.end_seat, a, trial.id)
  if ok and rec and over.program then rec.program = over.program end
  if ok and rec and over.usage then   -- what the program spent after its last tool call
    for k in pairs(rec.usage) do rec.usage[k] = rec.usage[k] + (over.usage[k] or 0) end
    rec.cost = rec.cost + ((over.program or {}).trailing_cost or 0)
  end
  if not ok then error(rec, 0) end
  return rec, err
end

function S.teardown(env)
  if env.defender and env.defender.pool then env.defender.pool:close() end
end

-- report(dir) writes report.md and summary.json and returns the console summary
function S.report(dir)
  local report = require "scenarios.xiangqibench.report"
  local sm = report.write(dir)
  return report.console(sm)
end

S.view = require "scenarios.xiangqibench.view"

-- tabula mcp xiangqibench: the tools arm, served to an agent program (tabula.mcp)
S.mcp = { options = { protocol = "tools" } }

return S
