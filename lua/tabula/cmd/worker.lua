-- tabula worker — internal: plays trials for a `tabula run --workers N` parent
-- over the protocol pipes on fd 3 and 4 (see tabula.workers). Not meant to be
-- run by hand.
local loop = require "tabula.loop"
local workers = require "tabula.workers"
local runner = require "tabula.runner"

return {
  summary = "internal: a worker process of `tabula run --workers N`",
  main = function()
    local rc
    loop.run(function()
      rc = workers.serve(function(job)
        local run = require("tabula.cmd.run").lib
        local s = run.load(job.scenario)
        require("tabula.model_settings").quiet = true   -- the parent said what it adjusted
        -- the parent already said what planning finds (data validation, notes):
        -- the plan made again here, to find the trials, says nothing more
        local opts = {}
        for k, v in pairs(job.opts) do opts[k] = v end
        opts.quiet = true
        local env, trials = run.environment(s, opts, job.out)
        local play_trial, close_play = run.player(s, opts, job.out, env)
        local by_id = {}
        for _, t in ipairs(trials) do by_id[t.id] = t end
        local function play(id, sent)
          local trial = sent or by_id[id] or error("worker: no trial " .. tostring(id) .. " in the plan")
          return runner.attempt(play_trial, trial, job.retries, s.path)
        end
        return play, function()
          if s.teardown then s.teardown(env) end
          if close_play then close_play() end
        end
      end)
    end)
    return rc
  end,
}
