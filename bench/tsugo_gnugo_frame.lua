-- GNU Go as TsuGO's guided reference with and without the tsumego frame
-- (games.go.frame): on each problem, the owl reader's answer (owl_attack for a
-- kill, owl_defend for a live problem, on the group the local solver picks)
-- on the open board and on the framed board; prints how often it answers at
-- all and how often the answer is an accepted first move.
--   ./tabula bench/tsugo_gnugo_frame.lua [FILE.jsonl | DIR ...] [--every K]
-- FILE.jsonl: normalized problems (default games/go/suite.jsonl); DIR: SGF
-- folders read as `tabula problems go` does (e.g. ../shared/data/gogameguru).
local fs = require "tabula.fs"
local engine = require "tabula.engine"
local gnugo = require "games.go.gnugo"
local collect = require "games.go.collect"
local checks = require "games.go.checks"
local mcts = require "scenarios.tsugo.mcts"
local refs = require "scenarios.tsugo.references"
local problems = require "scenarios.tsugo.problems"

local every, inputs = 1, {}
local i = 1
while arg[i] do
  if arg[i] == "--every" then every = tonumber(arg[i + 1]); i = i + 2
  else inputs[#inputs + 1] = arg[i]; i = i + 1 end
end
if #inputs == 0 then inputs = { "games/go/suite.jsonl" } end

local list = {}
for _, input in ipairs(inputs) do
  if input:match("%.jsonl$") then
    for _, p in ipairs((problems.load(input))) do list[#list + 1] = p end
  else
    for _, f in ipairs(collect.files({ input })) do
      for _, p in ipairs((collect.load(f))) do
        if not checks.fatal(p) and not problems.check(p) then list[#list + 1] = p end
      end
    end
  end
end
if not fs.kind(gnugo.PATH) then io.write("no GNU Go at ", gnugo.PATH, "\n"); return end

local loop = require "tabula.loop"
loop.run(function()
  local pool = engine.pool(function() return gnugo.start({ level = 10 }) end, 1)
  local res = { open = { answered = 0, correct = 0 }, framed = { answered = 0, correct = 0 } }
  local n, errors = 0, 0
  for k, p in ipairs(list) do
    if (k - 1) % every == 0 then
      local s = mcts.setting(p)
      if s.target then
        n = n + 1
        local accepted = {}
        for _, c in ipairs(p.correct) do accepted[c] = true end
        for _, mode in ipairs({ "open", "framed" }) do
          local ok, g = pcall(pool.with, pool, function(e) return refs.gnugo(e, p, s, nil, mode == "framed") end)
          if not ok then errors = errors + 1
          elseif g.open then
            res[mode].answered = res[mode].answered + 1
            if accepted[g.open] then res[mode].correct = res[mode].correct + 1 end
          end
        end
      end
    end
  end
  pool:close()
  for _, mode in ipairs({ "open", "framed" }) do
    local r = res[mode]
    io.write(string.format("GNU Go %-6s board: answers %d of %d problems (%.1f%%), accepted answer %d (%.1f%%)\n", mode, r.answered, n,
      100 * r.answered / math.max(1, n), r.correct, 100 * r.correct / math.max(1, n)))
  end
  if errors > 0 then io.write(string.format("%d GNU Go calls failed (infrastructure errors)\n", errors)) end
end)
