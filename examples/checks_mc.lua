-- examples/checks_mc.lua — which of four Xiangqi moves gives check? The
-- scenario contract written out in full (docs/SCENARIOS.md walks through it).
--   tabula run examples/checks_mc.lua [--model random] [--trials 3] [--limit 10]
local xq = require "games.xiangqi"
local items = require "tabula.items"
local choice = require "tabula.choice"
local kit = require "tabula.scenario"

local S = { name = "checks_mc", summary = "Xiangqi: pick the move that gives check", defaults = { trials = 1 } }
S.options = items.OPTIONS   -- --items, --ids, --limit, --split

-- keep positions with a checking move and three quiet ones
local function usable(it)
  local b, checks = xq.new(it.fen), 0
  if not b then return nil end
  for _, m in ipairs(b:moves()) do if b:gives_check(m) then checks = checks + 1 end end
  if checks > 0 and #b:moves() - checks >= 3 then return it end
end

function S.plan(opts)
  local path = opts.items or kit.here(S, "../games/xiangqi/suite.jsonl")
  local list, data = items.load(path, opts, { require = { "fen" }, prepare = usable })
  local trials = {}
  for _, it in ipairs(list) do
    for k = 1, opts.trials do trials[#trials + 1] = { id = it.id .. "/" .. k, item = it, index = k } end
  end
  return trials, data
end

function S.setup(opts, env)
  env.prompts = kit.prompts(S, opts)   -- prompts/checks_mc/ beside this file
  return { prompts = env.prompts:used() }
end

function S.play(trial, env)
  local b, rng = assert(xq.new(trial.item.fen)), env.rng_for(trial)
  local checks, quiet = {}, {}
  for _, m in ipairs(b:moves()) do table.insert(b:gives_check(m) and checks or quiet, m) end
  local options = { checks[rng(#checks)] }
  while #options < 4 do options[#options + 1] = table.remove(quiet, rng(#quiet)) end
  local q = choice.shuffle(options, 1, rng)
  local text = env.prompts:fill("question", { board = b:render("chinese"), choices = choice.render(q) })
  local ctx = { key = trial.id, sample = trial.index, rng = rng, board = b, legal_actions = q.letters,
    policy = function() return q.answer end, format = function(l) return "Answer: " .. l end }
  local reply, err = env.agent:reply({ { role = "user", content = text } }, ctx)
  if not reply then return nil, err end   -- an infrastructure error: re-queued, never scored
  local given = choice.extract(reply.text, #q.options)
  return { trial_id = trial.id, item_id = trial.item.id, choice = given, answer_letter = q.answer,
    status = given == q.answer and "success" or "failure",
    reason = given and (given == q.answer and "correct" or "wrong") or "no_answer",
    reply = reply.text, usage = reply.usage, cost = reply.cost }
end

function S.report(dir) return kit.question_report(dir, S.summary) end

return S
