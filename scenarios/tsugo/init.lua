-- scenarios/tsugo — TsuGO: Go life-and-death problems in five input
-- modalities, with four options or an open answer, robustness transforms, the
-- reasoning turned into process search trees (SearchE, TokenE), and MCTS/UCT
-- and GNU Go references (../shared/specs/tsugo.md).
--
--   tabula run scenarios/tsugo                               # offline: engine player, own suite
--   tabula run scenarios/tsugo --model openai:gpt-5.5 --modality symbolic,grid,visual --extractor gemini:gemini-2.5-pro
--   tabula run scenarios/tsugo --problems gogameguru.jsonl --candidates open --transform rot180,flip_h,colour
--   tabula run scenarios/tsugo --robustness --transform rot180,flip_h,colour --temperature 0 --model M
--   tabula report RUN
--
-- Choices where the spec is silent (the modules under scenarios/tsugo/ say more):
--  * Each problem is one reference trial (MCTS open and restricted, GNU Go)
--    plus one trial per modality x candidate setting x transform x trial index.
--  * Options (K=4) are built once per problem in the original frame by the
--    paper's rule (options.lua) from the reference tree's wrong first moves,
--    the local solver's refuted first moves (--solver-distractor-nodes), the
--    open-root MCTS proposals and GNU Go's move, then mapped through each
--    transform; the option sets go into run.json. They are prepared in
--    parallel with a progress line and kept in a cache keyed by each problem's
--    content (scenarios/tsugo/prepare.lua; --prepared-cache), so a second run
--    over the same problems, and each worker process, reads them.
--  * Trees are extracted from responses to symbolic prompts without a
--    transform (the paper computes process metrics on Symbolic input);
--    responses whose reasoning is hidden (reasoning tokens billed, none shown)
--    are summary-only: scored, but left out of the process metrics.
--  * ITT: the output tokens the provider reports when the whole output is
--    visible, output minus hidden reasoning tokens when it is not, and
--    ceil(bytes / 4) of the visible text for built-in players (no usage).
--  * The built-in `engine` player reads the presented problem with the local
--    solver (--engine-nodes, 200000 nodes split over the moves it tries), and
--    with MCTS (--engine-playouts, 1000) when the solver gives up, and writes
--    its reading as a narrative (scenarios/tsugo/player.lua);
--    `random` picks an option or a local legal point.
--  * Process metrics need a real extraction: the built-in extractor reads
--    only the built-in engine player's narrative; a model run without
--    --extractor MODEL records no trees and its report says "process
--    metrics: not computed (no extractor)". CCER is the correct branch's
--    rank among the candidates, so SCR stays on 0-100 (metrics.lua).
--  * GNU Go (the reference, the K=4 proposals, the closed loop) reads the
--    problem inside a tsumego frame (games/go/frame.lua; --gnugo-frame). GNU
--    Go dying or answering garbage is an infrastructure error of that
--    reference, named in the record and the report, never a scored miss.
--  * --closed-loop (scenarios/tsugo/closed_loop.lua): the opponent answers
--    from the local solver where it decides, framed GNU Go otherwise; a line
--    is solved only when the goal is reached on the board (target captured
--    for a kill, unconditionally alive for a live problem) after a first move
--    the problem's answers accept: after a rejected one, reaching the goal
--    means the unproven opponent erred, recorded as first_move_rejected.
--  * Accuracy intervals: 95% Wilson per cell.
--  * Defaults follow the paper: temperature 0.7, up to 32768 output tokens.
--    --robustness is the paper's robustness protocol (K=4 only, whatever
--    --candidates says: its probe asks for an option letter): 10 problems stratified
--    by tier with the seed (scenarios/tsugo/problems.lua, stratified), the
--    terse answer-only prompts at temperature 0, the original presentation and
--    rot180, flip_h (horizontal mirror) and colour inversion (unless
--    --transform names others); accuracy against the transformed answer and
--    consistency mapped back are in the report.
local json = require "tabula.json"
local fs = require "tabula.fs"
local cli = require "tabula.cli"
local prompt = require "tabula.prompt"
local host = require "tabula.c.host"
local models = require "tabula.models"
local agent = require "tabula.agent"
local go = require "games.go"
local gnugo = require "games.go.gnugo"
local trees = require "scenarios.tsugo.trees"
local tm = require "scenarios.tsugo.metrics"
local tp = require "scenarios.tsugo.prompts"
local answers = require "scenarios.tsugo.answers"
local options = require "scenarios.tsugo.options"
local transforms = require "scenarios.tsugo.transforms"
local mcts = require "scenarios.tsugo.mcts"
local refs = require "scenarios.tsugo.references"
local player = require "scenarios.tsugo.player"
local extract = require "scenarios.tsugo.extract"
local replay = require "scenarios.tsugo.replay"
local problems = require "scenarios.tsugo.problems"
local closed_loop = require "scenarios.tsugo.closed_loop"
local prepare = require "scenarios.tsugo.prepare"

local S = {
  name = "tsugo",
  summary = "TsuGO: Go life-and-death problems, five modalities, process search trees, SearchE/TokenE",
  defaults = { trials = 1, temperature = 0.7, ["max-tokens"] = 32768 },
}

S.options = {
  { "problems", "string", nil, "normalized problems, JSONL (default: the own suite games/go/suite.jsonl)" },
  { "ids", "list", nil, "problem ids to keep" },
  { "limit", "int", nil, "at most this many problems (after --ids and --tier)" },
  { "tier", "list", nil, "tiers to keep (Easy, Intermediate, Medium, Hard)" },
  { "modality", "list", { "symbolic" }, "symbolic, grid, symbolic+grid, visual, symbolic+visual (several at once)" },
  { "candidates", "list", { "4", "open" }, "4 (four options A-D) and/or open" },
  { "transform", "list", {}, "also run under: " .. table.concat(transforms.NAMES, ", ", 2) },
  { "robustness", "bool", false, "the paper's robustness protocol (K=4 only): a sample of --robustness-sample problems stratified by tier (Easy/Medium/Hard) with the seed, the terse answer-only prompts at temperature 0, and (unless --transform is given) the transforms rot180, flip_h, colour" },
  { "robustness-sample", "int", 10, "with --robustness: problems in the stratified sample (0: all the selected problems; --ids: exactly those)" },
  { "extractor", "string", "builtin", "model that turns reasoning into trees (builtin: the engine narrative's own reader)" },
  { "references", "bool", true, "run the MCTS and GNU Go references (one trial per problem)" },
  { "mcts-playouts", "int", 200, "playouts of the MCTS/UCT reference" },
  { "solver-distractor-nodes", "int", 5000, "node budget per first move of the local solver's refutations for the K=4 distractor pool (0: none; the suite's own proven wrong moves are used as they are)" },
  { "engine-nodes", "int", 200000, "node budget of the built-in engine player's solver, split over the first moves it tries (0: MCTS only)" },
  { "engine-playouts", "int", 1000, "playouts of the built-in engine player's MCTS when its solver gives up" },
  { "gnugo", "string", "/usr/games/gnugo", "GNU Go binary (none: no GNU Go)" },
  { "gnugo-frame", "bool", true, "put a tsumego frame around the problem before asking GNU Go (games/go/frame.lua)" },
  { "prepared-cache", "string", nil, "folder where each problem's prepared K=4 options and solver refutations are kept, so a later run does not prepare them again (default: TMPDIR/tabula-tsugo-prepared)" },
  { "closed-loop", "bool", false, "play on after the first move against the reference tree's defence (GNU Go off the tree) until the goal is decided" },
  { "image-detail", "string", nil, "image detail hint for providers that take one (low, high, auto)" },
  { "dry-run", "bool", false, "print the assembled prompts and exit" },
  { "prompts", "string", nil, "prompt folder (default prompts/tsugo)" },
}

-- options that change how the run goes, not its results (not part of its identity)
S.how = { ["prepared-cache"] = true }

local SIDE = { black = "B", white = "W" }

local function check_opts(opts)
  for _, m in ipairs(opts.modality) do
    local ok = false
    for _, v in ipairs(tp.MODALITIES) do if v == m then ok = true end end
    if not ok then cli.fail("option --modality: unknown modality '%s' (valid: %s)", m, table.concat(tp.MODALITIES, ", ")) end
    if m:find("visual", 1, true) and not problems.renderer() then
      cli.fail("option --modality %s needs the Go board renderer, which this build does not have", m)
    end
  end
  for _, c in ipairs(opts.candidates) do
    if c ~= "4" and c ~= "open" then cli.fail("option --candidates: '%s' is not 4 or open", c) end
  end
  for _, t in ipairs(opts.transform) do
    if not transforms.valid(t) or t == "identity" then
      cli.fail("option --transform: unknown transform '%s' (valid: %s)", t, table.concat(transforms.NAMES, ", ", 2))
    end
  end
end

local gnugo_pool = prepare.gnugo_pool

function S.plan(opts)
  check_opts(opts)
  local path = opts.problems or (host.root .. "/games/go/suite.jsonl")
  local list, dropped = problems.load(path)
  list = problems.select(list, opts)
  local sample
  if opts.robustness then
    -- the paper's probe asks for an option letter: K=4 only
    opts.candidates = { "4" }
    if #opts.transform == 0 then opts.transform = { "rot180", "flip_h", "colour" } end
    if opts["robustness-sample"] > 0 and not opts.ids then
      list = problems.stratified(list, opts["robustness-sample"], opts.seed)
      sample = {}
      for i, p in ipairs(list) do sample[i] = p.id end
    end
  end
  local pool = gnugo_pool(opts)
  S.gnugo = pool
  local trials, option_sets, option_logs = {}, {}, {}
  local want4 = false
  for _, c in ipairs(opts.candidates) do if c == "4" then want4 = true end end
  local tlist = { "identity" }
  for _, t in ipairs(opts.transform) do tlist[#tlist + 1] = t end
  local seeds = {}
  for _, p in ipairs(list) do seeds[p.id] = opts.seed * 1000003 + tonumber(fs.sha256(p.id):sub(1, 8), 16) end
  -- each problem's K=4 options, prepared once and kept (scenarios/tsugo/prepare.lua)
  option_sets, option_logs = prepare.all(list, seeds, opts, pool)
  for _, p in ipairs(list) do
    local seed, o = seeds[p.id], option_sets[p.id]
    if opts.references then
      trials[#trials + 1] = { id = p.id .. "/reference", kind = "reference", problem = p, options = o, seed = seed, index = 1 }
    end
    for _, m in ipairs(opts.modality) do
      for _, c in ipairs(opts.candidates) do
        if c == "open" or o then
          for _, t in ipairs(tlist) do
            -- the picture is drawn with the standard labels: no relabeled visual prompts
            if not (t == "options" and c == "open") and not (t == "relabel" and m:find("visual", 1, true)) then
              for k = 1, opts.trials do
                trials[#trials + 1] = { id = table.concat({ p.id, m, c == "4" and "k4" or "open", t, k }, "/"), kind = "model",
                  problem = p, modality = m, candidates = c, transform = t, options = c == "4" and o or nil, index = k, seed = seed }
              end
            end
          end
        end
      end
    end
  end
  local data = { problems = path, problems_sha256 = fs.sha256_file(path), n_problems = #list, dropped = dropped, robustness_sample = sample,
    options = {}, option_logs = {} }
  for id, o in pairs(option_sets) do data.options[id] = o.order end
  for id, l in pairs(option_logs) do data.option_logs[id] = l end
  if want4 then
    for _, p in ipairs(list) do
      if not option_sets[p.id] then io.stderr:write("tsugo: problem ", p.id, " has no K=4 form (fewer than three usable distractors)\n") end
    end
  end
  return trials, data
end

-- presented(trial, P) -> q (transformed problem), spec for prompts, options in GTP of q
local function presented(trial)
  local p = trial.problem
  local q = transforms.apply(p, trial.transform, trial.seed)
  local f = transforms.point_map(trial.transform, p.size)
  local view = { size = q.size, to_play = SIDE[q.to_play], black = {}, white = {} }
  for _, c in ipairs({ "black", "white" }) do
    for i, pt in ipairs(q.stones[c]) do view[c][i] = go.to_gtp(pt, q.size) end
  end
  local o_sgf, o_gtp
  if trial.options then
    o_sgf = { order = {} }
    for i, l in ipairs(options.LETTERS) do o_sgf.order[i] = f(trial.options[l]) end
    if trial.transform == "options" then o_sgf = options.permuted(o_sgf) end
    o_gtp = { order = {} }
    for i, l in ipairs(options.LETTERS) do
      o_sgf[l] = o_sgf.order[i]
      o_gtp[l] = go.to_gtp(o_sgf[l], q.size)
      o_gtp.order[i] = o_gtp[l]
    end
  end
  return q, view, o_sgf, o_gtp
end

local function prompt_spec(trial, opts, P, view, o_gtp, q)
  return { P = P, view = view, modality = trial.modality, options = o_gtp, terse = opts.robustness,
    frame = q.frame, detail = opts["image-detail"] }
end

function S.dry_run(trials, opts)
  local P = prompt.set("tsugo", opts.prompts)
  for _, t in ipairs(trials) do
    if t.kind == "model" and t.index == 1 then
      local q, view, _, o_gtp = presented(t)
      io.write("---- ", t.id, "\n", tp.text(prompt_spec(t, opts, P, view, o_gtp, q)), "\n")
    end
  end
  return 0
end

function S.setup(opts, env)
  env.prompts = prompt.set("tsugo", opts.prompts)
  if opts.robustness and env.agent.settings then env.agent:adjust({ temperature = 0 }) end
  if opts.extractor == "builtin" then
    -- the built-in extractor reads only the built-in engine player's narrative:
    -- any other reply would give a root-only tree and fabricated process metrics
    local cfg = env.agent and env.agent.cfg or {}
    if cfg.provider == "builtin" and cfg.player == "engine" then env.extractor = "builtin"
    else
      env.extractor = nil
      io.stderr:write(string.format("tsugo: process metrics: not computed (no extractor): the built-in extractor reads only the engine player's narrative; give --extractor MODEL to build trees from %s's replies\n",
        tostring(cfg.name)))
    end
  else
    local cfg = models.resolve(opts.extractor, opts.models)
    if cfg.provider ~= "builtin" and not models.key(cfg) and not cfg.optional_key then
      cli.fail("extractor %s needs the environment variable %s", cfg.name, cfg.key_env)
    end
    env.extractor = agent.new(cfg, { cache_dir = (opts.out or "runs") .. "/cache", no_cache = opts["no-cache"],
      settings = { temperature = 0 }, max_attempts = opts["max-attempts"] })
  end
  env.gnugo = S.gnugo
  local gnugo_version
  if env.gnugo then gnugo_version = env.gnugo:with(function(e) return e:command("version") end) end
  return { prompts = env.prompts:used(), extractor = env.extractor and opts.extractor or "none (process metrics not computed)", gnugo = gnugo_version and ("GNU Go " .. gnugo_version) or "not used",
    guided_reference = "GNU Go (owl reader) in the role the paper gives KataGo" }
end

function S.teardown(env)
  if env.gnugo then env.gnugo:close() end
end

-- itt(reply, visible) -> tokens, source, summary_only
local function itt_of(reply, visible)
  local u = reply.usage or {}
  local hidden = (u.reasoning or 0) > 0 and not (type(reply.reasoning) == "string" and reply.reasoning ~= "")
  if hidden then return math.max(0, (u.output or 0) - u.reasoning), "output minus hidden reasoning", true end
  if (u.output or 0) > 0 then return u.output, "usage.output", false end
  return math.ceil(#visible / 4), "estimate (bytes/4)", false
end

local function reference_trial(trial, env)
  local p, opts = trial.problem, env.opts
  local accepted = {}
  for _, c in ipairs(p.correct) do accepted[c] = true end
  local r = refs.mcts_both(p, trial.options and trial.options.order, trial.seed, opts["mcts-playouts"])
  local function pack(x)
    if not x then return nil end
    local m = mcts.root_metrics(x, accepted)
    m.searche = tm.searche(m.swr, m.sfh, m.scr)
    return { top = x.top and go.to_gtp(x.top, p.size), correct = accepted[x.top] == true, metrics = m }
  end
  local rec = { trial_id = trial.id, kind = "reference", problem_id = p.id, tier = p.tier, status = "success", reason = "reference",
    mcts_open = pack(r.open), mcts_restricted = pack(r.restricted) }
  if env.gnugo then
    local s = mcts.setting(p)
    local ok, g = pcall(env.gnugo.with, env.gnugo, function(e)
      return refs.gnugo(e, p, s, trial.options and trial.options.order, opts["gnugo-frame"])
    end)
    if not ok then
      -- an infrastructure error for this reference: named, never a scored miss
      rec.gnugo = { error = gnugo.message(g) }
      io.stderr:write("tsugo: ", trial.id, ": GNU Go reference not scored: ", rec.gnugo.error, "\n")
    else
      rec.gnugo = { open = g.open and go.to_gtp(g.open, p.size), correct = accepted[g.open] == true,
        restricted = g.restricted and go.to_gtp(g.restricted, p.size), framed = opts["gnugo-frame"] }
      if trial.options then rec.gnugo.restricted_correct = accepted[g.restricted] == true end
      rec.agreement = rec.gnugo.correct
    end
  end
  return rec
end

function S.play(trial, env)
  if trial.kind == "reference" then return reference_trial(trial, env) end
  local opts, p = env.opts, trial.problem
  local q, view, o_sgf, o_gtp = presented(trial)
  local frame = tp.frame(q.frame)
  local spec = prompt_spec(trial, opts, env.prompts, view, o_gtp, q)
  local png
  if trial.modality:find("visual", 1, true) then png = problems.renderer()(q, frame) end
  local content, text = tp.content(spec, png)
  local legal = {}
  if o_gtp then legal = options.LETTERS
  else
    local g = go.position(q.size, q.stones, q.to_play)
    for _, pt in ipairs(mcts.local_points(q)) do
      if g:is_legal(pt) then legal[#legal + 1] = frame.label(go.to_gtp(pt, q.size), q.size) end
    end
  end
  local show = player.show_for(q.size, frame)
  local function context(position, opts4, legal_here)
    return {
      key = trial.id, sample = trial.index, rng = env.rng_for(trial), legal_actions = legal_here,
      format = function(a) return type(a) == "table" and a.text or ("answer is " .. tostring(a)) end,
      policy = function()
        return { text = player.reading(position, { options = opts4, show = show, playouts = opts["engine-playouts"], nodes = opts["engine-nodes"],
          seed = trial.seed + trial.index }) }
      end,
    }
  end
  local conv = { { role = "user", content = content } }
  local reply, err = env.agent:reply(conv, context(q, o_sgf, legal))
  if not reply then return nil, err end
  local got = answers.extract(reply.text, { size = q.size, options = o_gtp, parse = frame.parse })
  local accepted_q, accepted_gtp = {}, {}
  for _, c in ipairs(q.correct) do accepted_q[c] = true; accepted_gtp[go.to_gtp(c, q.size)] = true end
  local chosen = got.answer and go.from_gtp(got.answer, q.size)
  local inside = (not o_gtp) or got.letter ~= nil
  local correct = chosen ~= nil and inside and accepted_q[chosen] == true
  local back = chosen and transforms.point_map(trial.transform, p.size, true)(chosen)
  local visible = extract.visible(reply)
  local itt, itt_source, summary_only = itt_of(reply, visible)
  local rec = {
    trial_id = trial.id, kind = "model", problem_id = p.id, tier = p.tier, modality = trial.modality,
    candidates = trial.candidates, transform = trial.transform, trial_index = trial.index, frame = q.frame,
    to_play = q.to_play, options = o_gtp and o_gtp.order or nil,
    accepted_options = o_gtp and options.accepted_count(o_gtp, accepted_gtp) or nil,
    accepted = (function() local a = {} for i, c in ipairs(q.correct) do a[i] = go.to_gtp(c, q.size) end return a end)(),
    prompt_sha256 = fs.sha256(text), image_sha256 = png and fs.sha256(png) or nil,
    reply = reply.text, reasoning = reply.reasoning, finish = reply.finish,
    answer = got.answer, letter = got.letter, extraction = got.how,
    answer_original = back and go.to_gtp(back, p.size) or nil,
    correct = correct, status = correct and "success" or "failure",
    reason = correct and "correct" or (got.answer and (inside and "wrong" or "not_an_option") or "no_answer"),
    itt = itt, itt_source = itt_source, summary_only = summary_only or nil,
    usage = reply.usage, cost = reply.cost, cached = reply.cached,
  }
  if opts["closed-loop"] then
    local turns = 0
    local cl, cerr = closed_loop.run({ q = q, first = chosen, frame = frame, P = env.prompts, gnugo = env.gnugo, seed = trial.seed,
      say = function(turn_text, position)
        conv[#conv + 1] = agent.assistant(reply)
        conv[#conv + 1] = { role = "user", content = turn_text }
        turns = turns + 1
        local here = {}
        local g = go.position(position.size, position.stones, position.to_play)
        for _, pt in ipairs(mcts.local_points(position)) do
          if g:is_legal(pt) then here[#here + 1] = frame.label(go.to_gtp(pt, q.size), q.size) end
        end
        local r, e = env.agent:reply(conv, context(position, nil, here))
        if r then
          reply = r
          for k in pairs(rec.usage or {}) do rec.usage[k] = rec.usage[k] + ((r.usage or {})[k] or 0) end
          rec.cost = (rec.cost or 0) + (r.cost or 0)
        end
        return r, e
      end })
    if not cl then return nil, cerr end
    rec.closed_loop = cl
  end
  -- the process tree: symbolic input, no transform
  if trial.modality == "symbolic" and trial.transform == "identity" and not summary_only and env.extractor then
    local res, xerr = extract.run({ text = visible, to_play = SIDE[q.to_play], size = q.size,
      options = o_gtp and { A = o_gtp.A, B = o_gtp.B, C = o_gtp.C, D = o_gtp.D } or nil,
      extractor = env.extractor, prompts = env.prompts, key = trial.id .. "/extract", sample = trial.index })
    if not res then return nil, xerr end
    rec.extractor, rec.tree_repairs, rec.tree_rejected = res.extractor, res.repairs, res.rejected
    if res.tree then
      rec.tree = trees.to_schema(res.tree)
      rec.metrics = tm.for_record(tm.tree_metrics(res.tree, accepted_gtp, itt))
      local rp = replay.run(res.tree, q)
      for _, n in ipairs(rec.tree) do n.replay, n.impossible = rp.labels[n.id], rp.impossible[n.id] end
      rec.replay = { moves = rp.moves, impossible = rp.impossible_count, refutations = rp.refutations }
    end
  end
  return rec
end

function S.report(dir)
  return require("scenarios.tsugo.report").write(dir)
end

S.view = require "scenarios.tsugo.view"

return S
