-- examples/chess_legal_count.lua — how many legal moves does the side to move
-- have? A free-answer question per position; the truth comes from tabula's
-- chess rules. Items: a CSV of id,fen (examples/data/chess_positions.csv).
--
--   tabula run examples/chess_legal_count.lua                   # engine player: the ceiling
--   tabula run examples/chess_legal_count.lua --model random     # guesses 0..2n: chance level
--   tabula run examples/chess_legal_count.lua --items my.csv --model openai:gpt-5.5
local kit = require "tabula.scenario"
local chess = require "games.chess"

local function count(item) return #assert(chess.new(item.fen)):moves() end

return kit.question {
  name = "chess_legal_count",
  summary = "chess: count the legal moves of the side to move",
  items = "data/chess_positions.csv",
  require = { "fen" },
  check = function(item) return chess.new(item.fen) end,
  board = function(item) return chess.new(item.fen) end,
  values = function(item)
    local g = chess.new(item.fen)
    return { board = g:render(), fen = item.fen, side = g:side() == "white" and "White" or "Black" }
  end,
  answer = count,
  candidates = function(item)
    local list = {}
    for i = 0, 2 * count(item) do list[#list + 1] = i end
    return list
  end,
  format = function(n) return "Answer: " .. tostring(n) end,
  score = function(item, text)
    local given = kit.number(text)
    return given == count(item), { given = given, truth = count(item) }
  end,
  group = function(item) return count(item) <= 20 and "up to 20 moves" or "more than 20 moves" end,
}
