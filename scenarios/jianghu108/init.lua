-- scenarios/jianghu108 — Jianghu108: multiple-choice Xiangqi endgame
-- studies, text or vision (../shared/specs/jianghu108.md).
--
--   tabula run scenarios/jianghu108 --data ../shared/data/jianghu108/江湖残局.json --model openai:gpt-5.5
--   tabula run scenarios/jianghu108 --lang en --vision --image-detail high --model gemini:gemini-3.1-pro
--   tabula run scenarios/jianghu108 --dry-run --ids 1          # print the prompt and stop
--
-- Choices where the spec is silent (options where it matters):
--  * The data is not shipped with the project (read it from its own place with
--    --data; the default is ../shared/data/jianghu108/江湖残局.json).
--  * Chinese prompts use the problem's own header up to the sentence that
--    guarantees a legal position; the circumstance sentence, the question and the
--    blocks are our templates (prompts/jianghu108/). English prompts use our own
--    English header, and name pieces in English by side, as the reference's
--    English rendering does: Red General, Advisor, Elephant, Cannon, Soldier;
--    Black King, Guard, Officer, Catapult, Pawn; Horse and Chariot for both.
--  * Extraction: the last <box>…</box> (its first letter A-E; lowercase and
--    full-width letters accepted inside the box); else the last isolated capital
--    A-E (full-width accepted; a lowercase letter outside a box is not an answer,
--    since "a" is an English word); an empty reply is wrong.
--  * A hedged answer is no answer (extraction "hedged", reason no_answer): a last
--    box naming two letters (<box>A, C</box>, <box>A or C</box>) or, outside a box,
--    a last letter joined to the one before by "or", "/", ",", "、", "或", "还是",
--    "and" ("A or C"). The reference script's rule (its README, 4.4) is the letter
--    in the last <box>X</box>, else the last isolated letter, and says nothing of a
--    box with two letters; --hedged last-letter takes that reading literally (a
--    hedged box counts as no box, a hedge outside a box as its last letter).
--  * The validator runs first; its findings go into run.json and every record of
--    the problem, and problems with fatal findings are not evaluated.
--  * Run defaults of the reference script: all problems at once (concurrency
--    108), thinking on (--no-think turns it
--    off) and, in thinking mode, 131072 output tokens unless --max-tokens says
--    otherwise (lower it for a model whose limit is smaller). --think sets the
--    provider's thinking switch (reasoning effort for OpenAI-compatible
--    servers, a thinking budget for Anthropic and Gemini).
--  * The engine player judges every option with the built-in search (mate
--    search and evaluation) and answers E by a rule per circumstance
--    (scenarios/jianghu108/engine.lua; bench/jianghu108_reference.sh).
local jh = require "games.xiangqi.jianghu"
local notation = require "games.xiangqi.notation"
local prompt = require "tabula.prompt"
local fs = require "tabula.fs"
local cli = require "tabula.cli"
local items = require "tabula.items"

local S = {
  name = "jianghu108",
  summary = "Jianghu108: multiple-choice Xiangqi endgame studies (text or vision)",
  defaults = { trials = 1, concurrency = 108 },   -- the reference sends all problems at once
}

S.options = {
  { "data", "string", nil, "problem file (default ../shared/data/jianghu108/江湖残局.json)" },
  { "ids", "list", nil, "problem ids to keep" },
  { "limit", "int", nil, "at most this many problems evaluated (after --ids)", min = 1 },
  { "lang", "string", "zh", "prompt language", choices = { "zh", "en" } },
  { "vision", "bool", false, "attach the rendered board image" },
  { "image-detail", "string", nil, "image detail hint for providers that take one (low, high, auto)" },
  { "think", "bool", true, "the model's thinking on (--think, the reference's default) or off (--no-think)" },
  { "hedged", "string", "no-answer", "a hedged answer (<box>A, C</box>, \"A or C\"): no answer, or the reference's last isolated letter", choices = { "no-answer", "last-letter" } },
  { "dry-run", "bool", false, "print the assembled prompts and exit" },
  { "prompts", "string", nil, "prompt folder (default prompts/jianghu108)" },
}

local EN_NAMES = {
  red = { K = "General", A = "Advisor", B = "Elephant", N = "Horse", R = "Chariot", C = "Cannon", P = "Soldier" },
  black = { K = "King", A = "Guard", B = "Officer", N = "Horse", R = "Chariot", C = "Catapult", P = "Pawn" },
}
S.THINKING_MAX_TOKENS = 131072
local LEGALITY_SENTENCE = "保证初始局面为合法局面。"

function S.data_path(opts)
  local p = opts.data or fs.shared_data("jianghu108/江湖残局.json")
  if fs.kind(p) ~= "file" then
    cli.fail("Jianghu108's problems are not shipped with tabula; give --data FILE (no file at %s)", p)
  end
  return p
end

-- the English rendering of a side's Jianghu piece tokens or move: 炮B7 ->
-- Cannon B7 for Red, 砲A5 -> Catapult A5 for Black
local function english(text, side)
  return (text:gsub("([\xE4-\xE9][\x80-\xBF][\x80-\xBF])([A-I]%d%d?)", function(ch, sq)
    local info = notation.JIANGHU_CHARS[ch]
    return (info and EN_NAMES[side][info[1]] or ch) .. " " .. sq
  end))
end

-- settle_options(opts): the reference's output limit in thinking mode
function S.settle_options(opts)
  if opts.think and opts["max-tokens"] == nil then opts["max-tokens"] = S.THINKING_MAX_TOKENS end
end

-- prompt_text(p, lang, P) -> the assembled prompt of the four parts
function S.prompt_text(p, lang, P)
  local header
  if lang == "zh" then
    local cut = p.header:find(LEGALITY_SENTENCE, 1, true)
    header = cut and p.header:sub(1, cut + #LEGALITY_SENTENCE - 1) or p.header
  else
    header = P:fill("en_header", {})
  end
  local circ = jh.CIRCUMSTANCE[p.circumstance] or "win"
  local options = {}
  for i = 1, 5 do
    local text = i == 5 and P:fill(lang .. "_none", {}) or jh.option_text(p, i)
    if lang == "en" and i < 5 then text = english(text, "red") end
    options[i] = jh.LETTERS[i] .. (lang == "zh" and "：" or ": ") .. text
  end
  local red, black = p.Red, p.Black
  if lang == "en" then
    red = english(p.Red, "red"):gsub(" (%u%d%d?) ", " %1, ")
    black = english(p.Black, "black"):gsub(" (%u%d%d?) ", " %1, ")
  end
  return P:fill(lang .. "_prompt", {
    header = header, circumstance = P:fill(lang .. "_" .. circ, {}), question = P:fill(lang .. "_question", {}),
    blocks = P:fill(lang .. "_blocks", { red = red, black = black, options = table.concat(options, "\n") }),
  })
end

function S.plan(opts)
  if opts["image-detail"] and not opts.vision then
    cli.fail("option --image-detail: Jianghu108 sends no image without --vision, so it would be ignored")
  end
  local path = S.data_path(opts)
  local problems = jh.load(path)
  local findings, usable = jh.validate(problems)
  S.findings_by_id = {}
  for _, f in ipairs(findings) do
    local id = tostring(f.id)
    S.findings_by_id[id] = S.findings_by_id[id] or {}
    table.insert(S.findings_by_id[id], jh.format_finding(f))
    if not opts.quiet then io.stderr:write("validate: ", jh.format_finding(f), "\n") end
  end
  local trials, skipped, evaluated = {}, {}, {}
  local id_of = function(p) return tostring(p.id) end
  for _, p in ipairs(items.select(problems, { ids = opts.ids }, { id = id_of, what = "problem", where = path })) do
    if usable[p.id] then evaluated[#evaluated + 1] = p else skipped[#skipped + 1] = id_of(p) end
  end
  for _, p in ipairs(items.select(evaluated, { limit = opts.limit })) do
    for k = 1, opts.trials do
      trials[#trials + 1] = { id = string.format("%s/%s%s/%d", id_of(p), opts.lang, opts.vision and "-vision" or "", k),
        problem = p, index = k }
    end
  end
  local data = { problems = path, problems_sha256 = fs.sha256_file(path), n_problems = #problems,
    validation = findings, not_evaluated = skipped }
  return trials, data
end

-- dry_run(trials, opts): print each problem's prompt once, run nothing
function S.dry_run(trials, opts)
  local P = prompt.set("jianghu108", opts.prompts)
  for _, t in ipairs(trials) do
    if t.index == 1 then io.write("---- ", t.id, "\n", S.prompt_text(t.problem, opts.lang, P), "\n") end
  end
  return 0
end

function S.setup(opts, env)
  env.prompts = prompt.set("jianghu108", opts.prompts)
  return { prompts = env.prompts:used() }
end

function S.play(trial, env)
  local p, opts = trial.problem, env.opts
  local text = S.prompt_text(p, opts.lang, env.prompts)
  local content = text
  local image_sha
  if opts.vision then
    local png, err = jh.image(p)
    if not png then error({ infra = true, message = "cannot render problem " .. tostring(p.id) .. ": " .. err }) end
    image_sha = fs.sha256(png)
    content = { { type = "text", text = text }, { type = "image", data = png, mime = "image/png", detail = opts["image-detail"] } }
  end
  local conv = { { role = "user", content = content } }
  local ctx = {
    key = trial.id, sample = trial.index, rng = env.rng_for(trial),
    legal_actions = jh.LETTERS, format = function(l) return "<box>" .. tostring(l) .. "</box>" end,
    policy = function() return (require("scenarios.jianghu108.engine").choose(p)) end,
  }
  local reply, err = env.agent:reply(conv, ctx)
  if not reply then return nil, err end
  local letter, how = jh.extract(reply.text, opts.hedged)
  local correct = letter ~= nil and letter == p.correctAnswer
  return {
    trial_id = trial.id, problem_id = p.id, trial_index = trial.index, lang = opts.lang, vision = opts.vision,
    circumstance = jh.CIRCUMSTANCE[p.circumstance], answer = p.correctAnswer,
    prompt_sha256 = fs.sha256(text), image_sha256 = image_sha,
    reply = reply.text, reasoning = reply.reasoning, finish = reply.finish,
    extracted = letter, extraction = how, correct = correct,
    status = correct and "success" or "failure", reason = correct and "correct" or (letter and "wrong" or "no_answer"),
    usage = reply.usage, cost = reply.cost, cached = reply.cached,
    findings = S.findings_by_id and S.findings_by_id[tostring(p.id)] or nil,
  }
end

function S.report(dir)
  return require("scenarios.jianghu108.report").write(dir)
end

S.view = require "scenarios.jianghu108.view"

return S
