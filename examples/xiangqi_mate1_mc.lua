-- examples/xiangqi_mate1_mc.lua — Xiangqi mate in one as a multiple-choice
-- question: which of four moves checkmates? Positions: the project's suite
-- cases that mate in 3 plies, played along their solution to the last move.
-- Three distractors are legal non-mating moves, fixed per item; the option
-- order is shuffled per trial with the run's seed.
--
--   tabula run examples/xiangqi_mate1_mc.lua                      # engine player: the ceiling
--   tabula run examples/xiangqi_mate1_mc.lua --model random --trials 4   # chance level
--   tabula run examples/xiangqi_mate1_mc.lua --dry-run             # the first question
local kit = require "tabula.scenario"
local xq = require "games.xiangqi"
local metrics = require "tabula.metrics"
local fs = require "tabula.fs"

-- the position before the mating move
local function position(item)
  local b = assert(xq.new(item.fen))
  b:play(item.solution_line[1])
  b:play(item.solution_line[2])
  return b
end

local function mates(b, m)
  local c = b:copy()
  c:play(m)
  return c:status() == "no_moves"
end

return kit.question {
  name = "xiangqi_mate1_mc",
  summary = "Xiangqi mate in one: pick the checkmating move among four",
  items = "../games/xiangqi/suite.jsonl",
  require = { "fen", "solution_line" },
  prepare = function(item) if item.win_in_plies == 3 then return item end end,
  board = position,
  values = function(item)
    local b = position(item)
    return { board = b:render("chinese"), fen = b:fen() }
  end,
  choices = function(item)
    local b = position(item)
    local others = {}
    for _, m in ipairs(b:moves()) do if not mates(b, m) then others[#others + 1] = m end end
    local pick = metrics.rng(tonumber(fs.sha256(item.id):sub(1, 12), 16))
    local options = { item.solution_line[3] }
    while #options < 4 and #others > 0 do
      options[#options + 1] = table.remove(others, pick(#others))
    end
    return options, 1
  end,
}
