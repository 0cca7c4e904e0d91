-- scenarios.jianghu108.engine — the built-in player of Jianghu108: every option
-- is judged with the built-in search, and E ("none of the above") is answered by
-- a rule per circumstance.
--
--   local choice, detail = require("scenarios.jianghu108.engine").choose(problem)
--
-- How an option is judged: the position after its move is searched (alpha-beta
-- with mate scores, NODES nodes), the score taken from Red's side. The start
-- position is searched too (same budget), giving the search's own best move and
-- score. For a won problem a forced-mate search (MATE_PLIES plies) runs first.
--
-- The choice:
--  * win (Red wins with best play):
--    - a forced mate found whose first move is an option: that option;
--    - else, E when the search's own best move is not an option and scores at
--      least WIN_MARGIN centipawns more than every option: the winning move is
--      elsewhere (a win is a large, stable margin; the options that fail to win
--      fall clearly behind it);
--    - else the option with the best score.
--  * draw (Red cannot win):
--    - E when every option loses by force (the search sees Red mated after each)
--      and the search's own best move is none of them: the saving move is elsewhere;
--    - else the option with the best score (the options that lose fall behind).
-- The thresholds are fixed here, not fitted per run; bench/jianghu108_reference.sh
-- prints the accuracy next to a Fairy-Stockfish reference.
local jh = require "games.xiangqi.jianghu"
local notation = require "games.xiangqi.notation"
local xq = require "games.xiangqi"

local M = {}

M.NODES = 200000          -- search budget per position
M.MATE_PLIES = 9          -- forced-mate search depth for won problems
M.MATE_NODES = 1000000    -- and its node budget
M.WIN_MARGIN = 150        -- centipawns: the search's own move ahead of every option
M.MATED = 29000           -- |score| beyond this: a forced mate (xqsearch's mate scores)

-- options(p) -> board, { A = iccs, ... } (legal option moves only), or nil
function M.options(p)
  local board = notation.jianghu_board(p.Red, p.Black)
  if not board then return nil end
  local moves = {}
  for i = 1, 4 do
    local m = notation.from_jianghu(board, jh.option_text(p, i))
    if m and board:is_legal(m) then moves[jh.LETTERS[i]] = m end
  end
  return board, moves
end

-- evaluate(board, moves) -> { letter = score from Red's side }, root search result
function M.evaluate(board, moves, nodes)
  local scores = {}
  for letter, m in pairs(moves) do
    local b = board:copy()
    b:play(m)
    scores[letter] = -xq.search(b, { nodes = nodes or M.NODES }).score
  end
  return scores, xq.search(board, { nodes = nodes or M.NODES })
end

local function best_option(scores)
  local best, best_score
  for _, letter in ipairs({ "A", "B", "C", "D" }) do
    local s = scores[letter]
    if s and (not best_score or s > best_score) then best, best_score = letter, s end
  end
  return best, best_score
end

-- decide(circumstance, scores, root) -> letter, rule: the rule above, given the
-- options' scores ({ A = cp, ... } from Red's side, legal options only) and the
-- start position's search ({ move = the search's own best move, score, letter =
-- the option letter of that move or nil })
function M.decide(circumstance, scores, root)
  local best, best_score = best_option(scores)
  if not best then return "E", "no legal option" end
  local elsewhere = root.move ~= nil and root.letter == nil
  if circumstance == "win" and elsewhere and root.score >= best_score + M.WIN_MARGIN then
    return "E", "the search's own move is clearly better than every option"
  end
  if circumstance ~= "win" and elsewhere and best_score <= -M.MATED then
    return "E", "every option loses by force"
  end
  return best, "best score"
end

-- choose(p) -> letter, detail { circumstance, rule, scores, root_move, root_score }
function M.choose(p)
  local circumstance = jh.CIRCUMSTANCE[p.circumstance]
  local board, moves = M.options(p)
  if not board then return "E", { rule = "no board" } end
  local letter_of = {}
  for letter, m in pairs(moves) do letter_of[m] = letter end
  local detail = { circumstance = circumstance }
  if circumstance == "win" then
    local r = xq.mate(board, { plies = M.MATE_PLIES, nodes = M.MATE_NODES })
    if r.found and letter_of[r.pv[1]] then
      detail.rule, detail.mate_plies = "forced mate", r.plies
      return letter_of[r.pv[1]], detail
    end
  end
  local scores, root = M.evaluate(board, moves)
  detail.scores, detail.root_move, detail.root_score = scores, root.best, root.score
  local letter
  letter, detail.rule = M.decide(circumstance, scores, { move = root.best, score = root.score, letter = letter_of[root.best or ""] })
  return letter, detail
end

return M
