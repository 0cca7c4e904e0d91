-- scenarios/tsugo/narrative.lua — the built-in player's readable search
-- narrative, and the deterministic extractor that turns it back into the
-- extractor schema's node list (the offline default extractor, "builtin").
--
-- The format, one statement per line:
--   Candidate A: B S17.                      a first-level candidate (letter under K=4)
--     Line: B S17, W R18, B T17 -> win (Black lives).
--                                            a variation from the root and how it ends
--   answer is A
-- A candidate with no Line is left unclosed (validation closes it with other).
-- Lines are merged into a tree in the order they appear: a move repeated under
-- the same parent is the same node, so ids are the order of first appearance.
local json = require "tabula.json"

local M = {}

local NAMES = { B = "Black", W = "White" }

-- write(reading) -> text. reading = { to_play = "B", candidates = { { pos, letter?,
-- lines = { { moves = { "S17", "R18" }, result = "win"|"lose"|"other", why = "..." } } } },
-- conclusion = "...", answer = "A" or "S17", preamble = { "a sentence", ... } (optional) }
-- Only Candidate and Line statements make nodes; the other sentences are prose.
function M.write(r)
  local L = { string.format("%s to play. I read each candidate first move in turn.", NAMES[r.to_play]) }
  for _, s in ipairs(r.preamble or {}) do L[#L + 1] = s end
  L[#L + 1] = ""
  for _, c in ipairs(r.candidates) do
    local head = "Candidate" .. (c.letter and (" " .. c.letter) or "") .. ": " .. r.to_play .. " " .. c.pos
    if #c.lines == 0 then
      L[#L + 1] = head .. " (not read further)."
    else
      L[#L + 1] = head .. "."
      for _, line in ipairs(c.lines) do
        local side, parts = r.to_play, {}
        for _, m in ipairs(line.moves) do
          parts[#parts + 1] = side .. " " .. m
          side = side == "B" and "W" or "B"
        end
        L[#L + 1] = string.format("  Line: %s -> %s%s.", table.concat(parts, ", "), line.result,
          line.why and (" (" .. line.why .. ")") or "")
      end
    end
  end
  L[#L + 1] = ""
  if r.conclusion then L[#L + 1] = r.conclusion end
  L[#L + 1] = "answer is " .. r.answer
  return table.concat(L, "\n")
end

-- extract(text) -> nodes (extractor schema), in the order the text introduces them
function M.extract(text)
  local nodes = { { id = 0, label = "initial position", type = "root", parent = json.null } }
  local child = {}                              -- "parent:side:pos" -> id
  local function move(parent, side, pos)
    local key = parent .. ":" .. side .. ":" .. pos
    if not child[key] then
      local id = #nodes
      nodes[#nodes + 1] = { id = id, label = side .. ":" .. pos, type = "move", parent = parent, side = side, move_pos = pos }
      child[key] = id
    end
    return child[key]
  end
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local cand = line:match("^%s*Candidate[^:]*:%s*(.*)$")
    local moves, result = line:match("^%s*Line:%s*(.-)%s*%->%s*(%a+)")
    if cand then
      local side, pos = cand:match("^([BW])%s+(%u%d%d?)")
      if side then move(0, side, pos) end
    elseif moves then
      local parent = 0
      for side, pos in moves:gmatch("([BW])%s+(%u%d%d?)") do parent = move(parent, side, pos) end
      if parent ~= 0 then
        nodes[#nodes + 1] = { id = #nodes, label = result, type = "judgment", parent = parent, polarity = result }
      end
    end
  end
  return nodes
end

return M
