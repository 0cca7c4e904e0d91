-- tests/batch_scenario.lua — a tiny multi-turn scenario for the batch tests
-- (tests/test_batch.lua): each trial asks the model --turns times, each
-- question after the model's answer to the one before, and records the replies.
local S = { name = "batchy", summary = "a multi-turn scenario for the batch tests" }

S.options = {
  { "turns", "int", 2, "questions per trial", min = 1 },
  { "lag", "number", 0, "seconds the first trial waits before its first question" },
}

function S.plan(opts)
  local trials = {}
  for i = 1, opts.trials do trials[i] = { id = string.format("q%03d", i), index = i } end
  return trials, {}
end

function S.play(trial, env)
  local conv, texts, cost = {}, {}, 0
  if trial.index == 1 and env.opts.lag > 0 then require("tabula.loop").sleep(env.opts.lag) end
  for turn = 1, env.opts.turns do
    conv[#conv + 1] = { role = "user", content = string.format("trial %s turn %d", trial.id, turn) }
    local reply, err = env.agent:reply(conv, { sample = 0 })
    if not reply then return nil, err end
    conv[#conv + 1] = require("tabula.agent").assistant(reply)
    texts[turn] = reply.text
    cost = cost + (reply.cost or 0)
  end
  return { trial_id = trial.id, status = "success", reason = "answered", replies = texts, cost = cost }
end

return S
