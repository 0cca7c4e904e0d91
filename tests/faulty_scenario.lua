-- tests/faulty_scenario.lua — a tiny scenario for the failure tests
-- (tests/test_failures.lua): each trial asks the model once and records the
-- reply; --bug makes play() fail like a scenario with a bug; --pad adds bytes
-- to every record (to fill a small disk quickly).
local S = { name = "faulty", summary = "a one-call scenario for failure tests" }

S.options = {
  { "bug", "bool", false, "fail inside play() with a runtime error" },
  { "pad", "int", 0, "bytes of padding in every record" },
}

function S.plan(opts)
  local trials = {}
  for i = 1, opts.trials do trials[i] = { id = string.format("t%03d", i), index = i } end
  return trials, {}
end

local function broken(trial) return trial.missing.field end   -- the bug --bug reaches

function S.play(trial, env)
  if env.opts.bug then return broken(trial) end
  local reply, err = env.agent:reply({ { role = "user", content = "trial " .. trial.id } }, { sample = trial.index })
  if not reply then return nil, err end
  return { trial_id = trial.id, status = reply.text:find("win", 1, true) and "success" or "failure",
    reason = "answered", text = reply.text, pad = string.rep("x", env.opts.pad) }
end

return S
