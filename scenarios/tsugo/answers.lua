-- scenarios/tsugo/answers.lua — reading the answer out of a TsuGO response.
--
-- The rule: every "answer is X" (any case; also "answer: X"; markup such as
-- **, quotes, "option", "move" or "at" before X is skipped) is read in order,
-- and the last one that names a valid answer wins. X is
--  * under K=4: an option letter A-D, or a coordinate that is one of the
--    options (it counts as that option); a coordinate outside the options is
--    recorded but is not an option;
--  * open: a coordinate, in either convention: letters A-T without I with the
--    row from the bottom (T18), or an SGF point in brackets ([oe] = P15).
-- No valid "answer is" → no answer (scored wrong, reason no_answer).
local trees = require "scenarios.tsugo.trees"
local go = require "games.go"

local M = {}

local SKIP = { "option", "move", "at", "play", "point", "the", "black", "white" }

-- the token after one "answer is": strip markup and filler words
local function token_after(s)
  s = s:gsub("^[%s%*_`'\"“”:%(]*", "", 1)
  local changed = true
  while changed do
    changed = false
    for _, w in ipairs(SKIP) do
      local rest = s:match("^" .. w .. "[%s:]+(.*)$") or s:match("^" .. w:sub(1, 1):upper() .. w:sub(2) .. "[%s:]+(.*)$")
      if rest then s = rest:gsub("^[%s%*_`'\"“”:%(]*", "", 1); changed = true end
    end
  end
  return s
end

-- sgf_point("oe", size) -> "P15"
local function sgf_point(pair, size)
  local sgf = go.parse_point(pair, size)
  return sgf and sgf ~= "pass" and go.to_gtp(sgf, size) or nil
end

-- read_one(s, size, parse) -> letter | point | nil, kind ("letter" / "point")
local function read_one(s, size, parse)
  local pair = s:match("^%[(%l%l)%]")
  if pair then
    local p = sgf_point(pair, size)
    if p then return p, "point" end
    return nil
  end
  local col, row = s:match("^(%a)%s?(%d%d?)%f[%D]")
  if col then
    local p = parse(col .. row, size)
    if p then return p, "point" end
    return nil
  end
  local letter = s:match("^(%u)%f[%W]")
  if letter then return letter, "letter" end
  return nil
end

-- extract(text, opts) -> { answer = point or nil, letter = option letter or nil, how, raw }
-- opts: size (19), options ({ A = "S17", ... } under K=4, nil for open),
-- parse (the coordinate frame's reader; standard by default)
function M.extract(text, opts)
  opts = opts or {}
  local size = opts.size or 19
  if type(text) ~= "string" or text:match("^%s*$") then return { how = "empty" } end
  local lower = text:lower()
  local found
  local i = 1
  while true do
    local s, e = lower:find("answer%s*i?s?%s*:?", i)
    if not s then break end
    i = e + 1
    local word = lower:sub(s, e)
    if word:find("is", 7, true) or word:find(":", 7, true) then
      local v, kind = read_one(token_after(text:sub(e + 1, e + 60)), size, opts.parse or trees.point)
      if v then
        if opts.options then
          if kind == "letter" and opts.options[v] then
            found = { letter = v, answer = opts.options[v], how = "letter" }
          elseif kind == "point" then
            local letter
            for l, p in pairs(opts.options) do if p == v then letter = l end end
            found = letter and { letter = letter, answer = v, how = "coordinate" } or { answer = v, how = "not_an_option" }
          end
        elseif kind == "point" then
          found = { answer = v, how = "coordinate" }
        end
      end
    end
  end
  return found or { how = "none" }
end

return M
