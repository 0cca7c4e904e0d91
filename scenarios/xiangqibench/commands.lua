-- scenarios.xiangqibench.commands — the XiangqiBench REPL grammar (lpeg).
--
-- Tolerant where models vary: command names in any case, "view-board" for
-- view_board, extra spaces, a move written "move(h2e2)", "move: h2e2",
-- "move h2-e2" or "H2E2"; simulate moves separated by spaces or commas.
-- Strict where it matters: a move must be four ICCS characters (file a-i, rank
-- 0-9, twice); anything else is malformed, and legality is checked by the rules.
-- The command is read from the last fenced block tagged bash (also sh, shell or
-- no tag); with no such block the reply has no command.
local parse = require "tabula.parse"
local lpeg = require "lpeg"
local P, R, S, C, Ct, Cc = lpeg.P, lpeg.R, lpeg.S, lpeg.C, lpeg.Ct, lpeg.Cc

local M = {}

M.FENCE_LANGS = { bash = true, sh = true, shell = true, [""] = true }

local sp = S" \t"^0
local sp1 = S" \t"^1
local function word(w)    -- case-insensitive keyword
  local p = P(true)
  for ch in w:gmatch(".") do
    local lo, up = ch:lower(), ch:upper()
    p = p * (lo == up and P(ch) or S(lo .. up))
  end
  return p
end

local file = R("ai", "AI")
local rank = R"09"
local square = C(file * rank)
local move_tok = (square * sp * P"-"^-1 * sp * square) / function(a, b) return (a .. b):lower() end
local any_tok = C((1 - S" \t,()\r\n")^1)
local open = sp * (P"(" + P":")^-1 * sp
local close = sp * P")"^-1 * sp

local name = word"view_board" * Cc"view_board" + word"view-board" * Cc"view_board" + word"viewboard" * Cc"view_board"
  + word"legal_moves" * Cc"legal_moves" + word"legal-moves" * Cc"legal_moves"
  + word"simulate" * Cc"simulate" + word"history" * Cc"history" + word"resign" * Cc"resign"
  + word"think" * Cc"think" + word"move" * Cc"move"

local function tokens(s)
  local out = {}
  for tok in s:gmatch("[^%s,()]+") do out[#out + 1] = tok end
  return out
end

-- normalise one move token: "h2e2", "H2-E2" -> "h2e2"; anything else -> nil
function M.iccs(tok)
  local m = (move_tok * -1):match(tok)
  return m
end

local line = sp * name * C(P(1)^0)

-- parse(reply_text) -> cmd | nil
-- cmd = { name = "move"|..., arg = "...", moves = {...}, raw = "first line" } or
--       { name = "unknown", raw = ... } for a command this REPL does not know,
--       { name = "malformed", command = ..., why = ... } for a known one used wrongly.
function M.parse(text)
  local body = parse.last_block(text or "", M.FENCE_LANGS)
  if not body then return nil end
  body = parse.trim(body)
  if body == "" then return { name = "malformed", why = "the command block is empty", raw = "" } end
  local first = body:match("^[^\n]*")
  local cmd, rest = line:match(body)
  -- the keyword must stand alone: "moves" or "movement" are not "move"
  if cmd and rest:match("^[%w_]") then cmd = nil end
  if not cmd then return { name = "unknown", raw = first } end
  local arg = parse.trim((rest:gsub("^%s*[:(]?", ""):gsub("%)%s*$", "")))
  if cmd == "think" then
    local t = parse.trim(rest)
    return { name = "think", arg = t, raw = first }
  end
  if cmd == "move" then
    local toks = tokens(arg:gsub("^%s*%(", ""))
    local joined = table.concat(toks, "")
    local m = M.iccs(#toks == 1 and toks[1] or joined)
    if #toks == 0 then return { name = "malformed", command = "move", why = "move needs a move like h2e2", raw = first } end
    if not m then
      return { name = "malformed", command = "move", raw = first,
        why = string.format("'%s' is not a move in ICCS coordinates (like h2e2)", table.concat(toks, " ")) }
    end
    return { name = "move", move = m, raw = first }
  end
  if cmd == "simulate" then
    local moves = {}
    for _, tok in ipairs(tokens(arg)) do
      local m = M.iccs(tok)
      if not m then
        return { name = "malformed", command = "simulate", raw = first,
          why = string.format("'%s' is not a move in ICCS coordinates (like h2e2)", tok) }
      end
      moves[#moves + 1] = m
    end
    if #moves == 0 then return { name = "malformed", command = "simulate", why = "simulate needs at least one move", raw = first } end
    return { name = "simulate", moves = moves, raw = first }
  end
  if arg ~= "" then
    return { name = "malformed", command = cmd, raw = first, why = cmd .. " takes no arguments" }
  end
  return { name = cmd, raw = first }
end

return M
