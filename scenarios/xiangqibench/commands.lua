-- scenarios.xiangqibench.commands — the XiangqiBench REPL grammar, read as the
-- official harness reads it (floatai/xiangqibench 0.1.0, harness/protocol.py):
--
--  * the command is in the last fenced block of the reply, of any language
--    (```bash, ```text, ``` …), on its first line that is neither empty nor a
--    `#` comment; with no block, or no such line, the reply has no command;
--  * a leading `$` (a shell prompt) and a leading `chess` (the engine-style
--    program name) are dropped; the first word, in any case, is the command;
--  * the official aliases: sim = simulate; board, view = view_board; moves,
--    get_legal_moves = legal_moves; get_history = history; draw, offer_draw
--    and accept_draw (refused: draws are disabled);
--  * `move` takes its first word only, lowercased: `move h2e2` is a move,
--    `move h2 e2` is the malformed move "h2" (not four characters), `move
--    h2-e2` is malformed too; any other word is an unknown command;
--  * `simulate` takes its words as plies, unchecked here (the referee stops a
--    line at its first illegal ply); extra words after view_board, legal_moves,
--    history and resign are ignored.
local M = {}

M.ALIASES = {
  move = "move", simulate = "simulate", sim = "simulate", view_board = "view_board", board = "view_board",
  view = "view_board", legal_moves = "legal_moves", get_legal_moves = "legal_moves", moves = "legal_moves",
  history = "history", get_history = "history", resign = "resign", offer_draw = "offer_draw", draw = "offer_draw",
  accept_draw = "accept_draw", think = "think",
}

-- iccs(tok) -> "h2e2" for a token of four ICCS characters (file a-i, rank
-- 0-9, twice; any case), else nil (the tools arm's move check)
function M.iccs(tok)
  if type(tok) ~= "string" then return nil end
  local m = tok:lower()
  if m:match("^[a-i][0-9][a-i][0-9]$") then return m end
  return nil
end

-- last_block(text) -> the body of the last fenced block, or nil: a block is
-- ``` + an optional tag without ` or newline + a newline + the shortest body
-- up to the next ```; blocks are found left to right without overlap, a
-- ``` that opens no block being skipped by one character (the official
-- pattern's search)
function M.last_block(text)
  local found
  local pos = 1
  while true do
    local s = text:find("```", pos, true)
    if not s then break end
    local tag_end = s + 3
    while tag_end <= #text do
      local ch = text:sub(tag_end, tag_end)
      if ch == "\n" or ch == "`" then break end
      tag_end = tag_end + 1
    end
    local close = text:sub(tag_end, tag_end) == "\n" and text:find("```", tag_end + 1, true)
    if close then
      found = text:sub(tag_end + 1, close - 1)
      pos = close + 3
    else
      pos = s + 1
    end
  end
  return found
end

local function strip(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end

-- command_line(text) -> the command line of a reply, or nil
function M.command_line(text)
  local body = M.last_block(text or "")
  if not body then return nil end
  for line in (body .. "\n"):gmatch("([^\n]*)\n") do
    local s = strip(line)
    if s ~= "" and s:sub(1, 1) ~= "#" then return s end
  end
  return nil
end

-- parse(reply_text) -> cmd | nil (no command)
-- cmd = { name = "move"|"simulate"|"view_board"|"legal_moves"|"history"|"resign"|
--   "think"|"offer_draw"|"accept_draw", raw = the command line, ... } (move:
--   .move, lowercased; simulate: .moves, the words as written; think: .arg),
--   { name = "unknown", raw = ... } for a word this REPL does not know, or
--   { name = "malformed", command = "move", raw = ..., why = ... } for a move
--   that is not four characters.
function M.parse(text)
  local raw = M.command_line(text)
  if not raw then return nil end
  local cmdline = raw
  if cmdline:sub(1, 1) == "$" then cmdline = strip(cmdline:sub(2)) end
  local words = {}
  for w in cmdline:gmatch("%S+") do words[#words + 1] = w end
  if words[1] and words[1]:lower() == "chess" then table.remove(words, 1) end
  if #words == 0 then return nil end   -- "$" or "chess" alone: no command
  local verb = words[1]:lower()
  local name = M.ALIASES[verb]
  if not name then return { name = "unknown", raw = raw, word = words[1] } end
  if name == "move" then
    local m = (words[2] or ""):lower()
    if #m ~= 4 then
      return { name = "malformed", command = "move", raw = raw,
        why = string.format("bad move format '%s': a move is 4 characters in ICCS coordinates (like h2e2)", m) }
    end
    return { name = "move", move = m, raw = raw }
  elseif name == "simulate" then
    local moves = {}
    for i = 2, #words do moves[#moves + 1] = words[i] end
    return { name = "simulate", moves = moves, raw = raw }
  elseif name == "think" then
    -- everything after the command word
    local after = table.concat(words, " ", 2)
    return { name = "think", arg = strip(after), raw = raw }
  end
  return { name = name, raw = raw }
end

return M
