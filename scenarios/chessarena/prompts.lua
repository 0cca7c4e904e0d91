-- scenarios.chessarena.prompts — ChessArena's play-mode prompts (prompts/chessarena/),
-- shared by the arena, move selection and puzzles, which the paper asks through
-- the same templates: Blitz and Standard share one template (the modes differ
-- in budget only), Bullet forbids reasoning, Blindfold is one conversation over
-- the game's moves. Every system prompt carries the strategy text and the
-- six-line rules reminder. Also the paper's sampling defaults.
local chess = require "games.chess"

local M = {}

M.MODES = { bullet = "system_bullet", blitz = "system_play", standard = "system_play", blindfold = "system_blindfold" }

-- the paper's sampling: temperature 0.2, top_p 1, 4096 new tokens (16384 for
-- reasoning models)
M.SAMPLING = { temperature = 0.2, top_p = 1, max_tokens = 4096, max_tokens_reasoning = 16384 }

-- settle(opts): fill unset sampling options with the paper's values; a run that
-- turns reasoning on (--reasoning-effort, --thinking-budget, --think) is a
-- reasoning model's
function M.settle(opts)
  if opts.temperature == nil then opts.temperature = M.SAMPLING.temperature end
  if opts["top-p"] == nil then opts["top-p"] = M.SAMPLING.top_p end
  if opts["max-tokens"] == nil then
    local reasoning = opts["reasoning-effort"] or opts["thinking-budget"] or opts.think
    opts["max-tokens"] = reasoning and M.SAMPLING.max_tokens_reasoning or M.SAMPLING.max_tokens
  end
end

local function colour_name(side) return side == "white" and "White" or "Black" end
M.colour_name = colour_name

local function legal_block(P, moves)
  if not moves then return "" end
  return P:fill("legal_block", { moves = table.concat(moves, " ") }) .. "\n"
end

-- system(P, mode, side [, start_fen]) -> the mode's system prompt
function M.system(P, mode, side, start_fen)
  local v = { colour = colour_name(side), strategy = P:fill("strategy", {}), rules = P:fill("rules", {}) }
  if mode == "blindfold" then
    v.start_note = (start_fen and start_fen ~= chess.START) and (" (here: the position with FEN " .. start_fen .. ")") or ""
  end
  return P:fill(M.MODES[mode], v)
end

-- turn(P, fen, side, history, last_n, legal_moves|nil) -> the user message of
-- Bullet, Blitz and Standard: the FEN and the last moves
function M.turn(P, fen, side, history, last_n, legal_moves)
  local last = {}
  for i = math.max(1, #history - last_n + 1), #history do last[#last + 1] = history[i] end
  return P:fill("turn", { fen = fen, colour = colour_name(side), ply = #history,
    last_moves = #last > 0 and table.concat(last, " ") or "(none)", legal_block = legal_block(P, legal_moves) })
end

-- blind_first(P, side, history, legal_moves|nil) -> Blindfold's first user message
function M.blind_first(P, side, history, legal_moves)
  local opening = #history > 0 and (" Your opponent's last move is " .. history[#history] .. ".") or ""
  return P:fill("blind_first", { colour = colour_name(side), opening = opening, legal_block = legal_block(P, legal_moves) })
end

-- blind_turn(P, move, legal_moves|nil) -> a later Blindfold user message
function M.blind_turn(P, move, legal_moves)
  return P:fill("blind_turn", { move = move, legal_block = legal_block(P, legal_moves) })
end

-- bullet_extra_text(reply) -> true when a reply has text besides the answer
-- block, which Bullet forbids
function M.bullet_extra_text(reply)
  return (reply:gsub("<answer>.-</answer>", "")):match("%S") ~= nil
end

-- answer(u) -> the answer block of a move
function M.answer(u) return "<answer><move>" .. u .. "</move></answer>" end

-- blind_conversation(P, start_fen, history, legal) -> the Blindfold conversation
-- of the side to move after `history` (UCI moves from start_fen): its own moves
-- as answer blocks, the opponent's as user messages, ending with a user
-- message; the legal moves are listed in the last one when `legal`
function M.blind_conversation(P, start_fen, history, legal)
  local g = assert(chess.new(start_fen))
  for _, u in ipairs(history) do assert(g:play(u), "history move " .. u) end
  local side = g:side()
  local first_side = assert(chess.new(start_fen)):side()
  local conv = { { role = "system", content = M.system(P, "blindfold", side, start_fen) } }
  -- the side's first turn comes after 0 plies (it moves first) or 1 ply
  local k = first_side == side and 0 or 1
  local final = legal and g:moves() or nil
  local function legal_at(i) return i == #history and final or nil end
  if k > #history then return conv end
  local seen = {}
  for i = 1, k do seen[i] = history[i] end
  conv[#conv + 1] = { role = "user", content = M.blind_first(P, side, seen, legal_at(k)) }
  for i = k + 1, #history, 2 do
    conv[#conv + 1] = { role = "assistant", content = M.answer(history[i]) }
    if history[i + 1] then
      conv[#conv + 1] = { role = "user", content = M.blind_turn(P, history[i + 1], legal_at(i + 1)) }
    end
  end
  return conv
end

return M
