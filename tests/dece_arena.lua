-- tests/dece_arena.lua — a DECE arena for tests that play matches directly
-- (scenarios/dece/match.lua): participants normalized, an agent and the prompt
-- sets (the harness's, and its tools/ set for protocol tools) for each model one; a
-- harness program's agent plays through its program (tabula.program), its files in dir.
local t = require "tabula.testing"
local participants = require "scenarios.dece.participants"

local M = {}

-- arena(dir, list, games [, models_file]) -> the arena match.play takes; an entry's
-- own models_file wins over the one given
function M.arena(dir, list, games, models_file)
  local by, agents, prompts = {}, {}, {}
  local prompt, models = require "tabula.prompt", require "tabula.models"
  for _, e in ipairs(list) do
    local mf = e.models_file or models_file
    local p = participants.normalize(e, "test", mf)
    by[p.name] = p
    if p.kind == "model" then
      agents[p.name] = require("tabula.agent").new(models.resolve(p.manifest.model, mf), { cache_dir = dir .. "/cache",
        program = p.manifest.harness.program, run_dir = dir })
      prompts[p.name] = prompt.set("dece")
      if p.manifest.harness.protocol == "tools" then prompts[p.name].tools = prompt.set("dece", t.root() .. "/prompts/dece/tools") end
      if p.manifest.harness.program then prompts[p.name].program = prompt.set("dece", t.root() .. "/prompts/dece/program") end
    end
  end
  local gs = {}
  for _, g in ipairs(games) do gs[g] = require("games." .. g) end
  return { dir = dir, participants = by, agents = agents, prompts = prompts, games = gs }
end

return M
