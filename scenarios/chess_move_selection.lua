-- scenarios/chess_move_selection.lua — ChessArena's move-selection task: choose
-- the best move of a position. Stockfish scores every legal move (MultiPV over
-- all of them); each score becomes a win probability Q. Metrics: legal rate
-- (LR), top rate (TR: the move is among the three best by Q) and move advantage
-- rate MAR = mean over positions of (Q(move) - AWR) / AWR, AWR being the mean Q
-- over the legal moves; an illegal move has Q = 0.
--
--   tabula run scenarios/chess_move_selection.lua --fens positions.txt --model M [--legal]
--   tabula run scenarios/chess_move_selection.lua --arena arenas/main --sample 100 --model M
--
-- The question goes through a ChessArena play mode's own template (--mode,
-- prompts/chessarena/), with or without the legal moves (--legal); Blindfold
-- asks with the real game's moves as the conversation, so it needs --arena.
-- Sampling defaults are the paper's (temperature 0.2, top_p 1, 4096 tokens,
-- 16384 with reasoning on).
--
-- Choices: Q from centipawns by Lichess's logistic fit, 1/(1 + e^(-0.00368208 cp))
-- (--wp lichess; a mate for the mover is 1, against it 0); Stockfish at
-- --engine-depth (default 12), one thread, evaluations cached in the run.
local tasks = require "scenarios.chessarena.tasks"
local chess = require "games.chess"
local records = require "tabula.records"
local prompt = require "tabula.prompt"
local arena_prompts = require "scenarios.chessarena.prompts"
local metrics = require "tabula.metrics"
local engine = require "tabula.engine"
local fs = require "tabula.fs"
local json = require "tabula.json"
local cli = require "tabula.cli"

local S = { name = "chess_move_selection", summary = "chess move selection: LR, TR, MAR", defaults = { trials = 1 } }
S.settle_options = arena_prompts.settle

S.options = {
  { "fens", "string", nil, "FEN list (one per line)" },
  { "arena", "string", nil, "sample positions from this arena's games" },
  { "sample", "int", 100, "positions to sample from the arena" },
  { "mode", "string", "blitz", "the play mode whose template asks", choices = { "bullet", "blitz", "standard", "blindfold" } },
  { "legal", "bool", false, "show the legal moves in the prompt" },
  { "last-moves", "int", 10, "how many recent moves the Bullet/Blitz/Standard prompt shows" },
  { "engine-depth", "int", 12, "Stockfish depth for scoring every move" },
  { "wp", "string", "lichess", "centipawn to win-probability conversion", choices = { "lichess" } },
}

local function fen_list(opts)
  local fens = {}
  -- an option that would be ignored is refused
  if opts.fens and opts.arena then cli.fail("give --fens FILE or --arena DIR, not both") end
  if opts.fens and cli.given(opts).sample then
    cli.fail("option --sample: only with --arena (--fens asks every position of the file)")
  end
  if opts.fens then
    for line in fs.read_or_fail(opts.fens, "fens"):gmatch("[^\n]+") do
      if line:match("%S") then
        local g, err = chess.new(line)
        if not g then cli.fail("%s: bad FEN '%s': %s", opts.fens, line, err) end
        if #g:moves() > 0 then fens[#fens + 1] = { fen = line } end
      end
    end
    return fens, opts.fens
  end
  if not opts.arena then cli.fail("give --fens FILE or --arena DIR") end
  fs.need(opts.arena, "option --arena", "dir")
  local games = records.read(fs.need(opts.arena .. "/games.jsonl", "option --arena"), { skip_bad = true })
  local all = {}
  for _, g in ipairs(games) do
    local b = assert(chess.new(g.start_fen))
    for i, u in ipairs(g.moves) do
      if b:status() == "ongoing" then
        all[#all + 1] = { fen = b:fen(), start = g.start_fen, history = table.move(g.moves, 1, i - 1, 1, {}) }
      end
      b:play(u)
    end
  end
  local rng = metrics.rng(opts.seed)
  for _ = 1, math.min(opts.sample, #all) do fens[#fens + 1] = table.remove(all, rng(#all)) end
  return fens, opts.arena .. "/games.jsonl"
end

function S.plan(opts)
  local fens, src = fen_list(opts)
  local trials = {}
  if opts.mode == "blindfold" and opts.fens then cli.fail("--mode blindfold needs --arena: Blindfold asks with the real game's moves") end
  for i, pos in ipairs(fens) do
    for k = 1, opts.trials do
      trials[#trials + 1] = { id = string.format("%d/%d", i, k), fen = pos.fen, start = pos.start, history = pos.history, index = k }
    end
  end
  return trials, { positions = src, n_positions = #fens }
end

function S.setup(opts, env)
  env.prompts = prompt.set("chessarena", opts.prompts)
  env.evals = {}
  env.pool = engine.pool(function()
    return engine.uci({ name = "stockfish", argv = { "/usr/games/stockfish" }, options = { Threads = 1, Hash = 32 }, timeout = 300 })
  end, math.max(1, opts.concurrency))
  return { prompts = env.prompts:used(), engine = { depth = opts["engine-depth"], wp = opts.wp } }
end

function S.teardown(env) if env.pool then env.pool:close() end end

-- q_of(fen) -> move -> Q for every legal move
function S.q_of(env, fen)
  if env.evals[fen] then return env.evals[fen] end
  local g = assert(chess.new(fen))
  local n = #g:moves()
  local r = env.pool:with(function(e) return e:go({ fen = fen, depth = env.opts["engine-depth"], multipv = n }) end)
  local wp = tasks.WP[env.opts.wp]
  local q = {}
  for _, line in pairs(r.lines) do
    if line.pv and line.pv[1] then q[line.pv[1]] = wp(line.cp or 0, line.mate) end
  end
  for _, u in ipairs(g:moves()) do q[u] = q[u] or 0 end
  env.evals[fen] = q
  return q
end

function S.play(trial, env)
  local P, opts = env.prompts, env.opts
  local g = assert(chess.new(trial.fen))
  local q = S.q_of(env, trial.fen)
  local conv
  if opts.mode == "blindfold" then
    conv = arena_prompts.blind_conversation(P, trial.start, trial.history, opts.legal)
  else
    conv = { { role = "system", content = arena_prompts.system(P, opts.mode, g:side()) },
      { role = "user", content = arena_prompts.turn(P, trial.fen, g:side(), trial.history or {}, opts["last-moves"],
        opts.legal and g:moves() or nil) } }
  end
  local best
  for m, v in pairs(q) do if not best or v > q[best] or (v == q[best] and m < best) then best = m end end
  local ctx = { key = trial.id, sample = trial.index, rng = env.rng_for(trial), legal_actions = g:moves(),
    policy = function() return best end, format = function(u) return "<answer><move>" .. u .. "</move></answer>" end }
  local reply, err = env.agent:reply(conv, ctx)
  if not reply then return nil, err end
  local choice, kind, why
  if opts.mode == "bullet" and arena_prompts.bullet_extra_text(reply.text) then
    kind, why = "forbidden", "the reply has text besides the answer block (bullet allows the move only)"
  else
    choice, kind, why = chess.extract_move(g, reply.text)
  end
  return { trial_id = trial.id, fen = trial.fen, mode = opts.mode, legal_shown = opts.legal, choice = choice, error_kind = kind, error = why, q = q,
    q_choice = choice and q[choice] or 0, reply = reply.text, legal = choice ~= nil,
    status = choice and "success" or "failure", usage = reply.usage, cost = reply.cost }
end

function S.report(dir)
  local recs = records.read(dir .. "/trials.jsonl", { skip_bad = true })
  local items = {}
  for _, r in ipairs(recs) do if r.q then items[#items + 1] = { q = r.q, choice = r.choice } end end
  local sm = tasks.score_selection(items)
  fs.write_or_fail(dir .. "/summary.json", json.encode(sm, { pretty = true }) .. "\n")
  local text = string.format("# Chess move selection\n\n%d positions: LR %.1f%%, TR %.1f%%, MAR %+.3f\n", sm.n,
    100 * (sm.lr or 0), 100 * (sm.tr or 0), sm.mar or 0)
  fs.write_or_fail(dir .. "/report.md", text)
  return text
end

S.view = require("scenarios.chessarena.tasks_view").selection

return S
