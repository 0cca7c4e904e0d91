-- tabula.view.frames — the frames of a long trial view (a DECE match: hundreds of
-- drawings, each a few kilobytes, most of it the same as the frame before) kept
-- compact in report.html and drawn in the browser when the user goes there.
--
-- A drawing is cut into tokens (M.CUTS: an SVG at each tag, a text after each line end);
-- every distinct token is kept once per page in a dictionary (the page's
-- <script id="frame-tokens">); a frame is a list of operations against the frame
-- before it in the same stream: a token id (n >= 0) puts that token; a negative
-- n followed by d copies -n tokens of the frame before, starting d tokens after
-- the current output position (0: the same place). So a frame costs what changed
-- in it, whatever the drawing's size, and report.js (frames()) rebuilds frame i
-- from frame i - 1 when the user steps there.
local json = require "tabula.json"

local M = {}

-- new_dict() -> the page's token dictionary
function M.new_dict() return { id = {}, list = {} } end

local function id_of(dict, s)
  local i = dict.id[s]
  if not i then i = #dict.list; dict.list[i + 1] = s; dict.id[s] = i end
  return i
end

-- the places a text of each kind is cut at: an SVG before each '<' and after each '>' (a
-- tag and the text inside it are two tokens: the same words recur at other places, the
-- same tags with other words), a text observation after each line end, comma and
-- semicolon (the lists it holds), a caption after each space
M.CUTS = { svg = "()<", text = "[\n,;]()", words = " ()" }
M.SVG_AFTER_TAG = true

-- tokens(dict, s, kind) -> the ids of s cut into tokens (M.CUTS)
function M.tokens(dict, s, kind)
  local out, at = {}, 1
  local function put(j)
    if j > at then out[#out + 1] = id_of(dict, s:sub(at, j - 1)) end
    at = j
  end
  if kind == "svg" and M.SVG_AFTER_TAG then
    for lt, gt in s:gmatch("()<[^>]*>()") do put(lt); put(gt) end
  else
    for pos in s:gmatch(M.CUTS[kind]) do put(pos) end
  end
  if at <= #s then out[#out + 1] = id_of(dict, s:sub(at)) end
  return out
end

-- ops(a, b) -> the operations that make id list b from the list a before it.
-- Greedy: at each place of b, the longest run of a that matches there (tried at
-- the place the last copy ended first, then at up to 8 places holding that token);
-- runs shorter than 2 tokens are put as ids.
function M.ops(a, b)
  local where = {}
  for i = #a, 1, -1 do
    local v = a[i]
    local w = where[v]
    if not w then where[v] = { i } elseif #w < 8 then w[#w + 1] = i end
  end
  local out, j, nxt = {}, 1, 1
  local nb, na = #b, #a
  while j <= nb do
    local best, blen = nil, 0
    local function try(p)
      local len = 0
      while p + len <= na and j + len <= nb and a[p + len] == b[j + len] do len = len + 1 end
      if len > blen then best, blen = p, len end
    end
    if nxt <= na and a[nxt] == b[j] then try(nxt) end
    if blen < 4 then for _, p in ipairs(where[b[j]] or {}) do try(p) end end
    if blen >= 2 then
      out[#out + 1] = -blen
      out[#out + 1] = best - j            -- the copy's start relative to the output position
      j, nxt = j + blen, best + blen
    else
      out[#out + 1] = b[j]
      j = j + 1
      if blen == 1 then nxt = best + 1 end
    end
  end
  return out
end

-- stream(dict, texts, kind) -> the ops of each text after the one before (the first
-- after nothing): { {ops}, ... }; a nil text is an empty frame
function M.stream(dict, texts, kind, n)
  local out, prev = {}, {}
  for i = 1, n do
    local ids = texts[i] and M.tokens(dict, texts[i], kind) or {}
    out[i] = M.ops(prev, ids)
    prev = ids
  end
  return out
end

-- script_json(v) -> v as JSON safe inside a <script> element
function M.script_json(v)
  return (json.encode(v):gsub("</", "<\\/"):gsub("<!%-%-", "\\u003c!--"))
end

-- ints(list) -> a JSON array of integers, written directly (the encoder would take
-- an empty list for an object)
local function ints(list)
  local s = {}
  for i, x in ipairs(list) do s[i] = string.format("%d", x) end
  return "[" .. table.concat(s, ",") .. "]"
end

-- data(dict, frames) -> the JSON of a trial view's frames: { n, svg, text, labels, tips },
-- each a stream of ops: frames[i] = { svg =, text =, label =, tip = } (tip: the action id,
-- which a pointer over the caption shows)
function M.data(dict, frames)
  local n = #frames
  local st = { svg = {}, text = {}, labels = {}, tips = {} }
  for i, f in ipairs(frames) do st.svg[i], st.text[i], st.labels[i], st.tips[i] = f.svg, f.text, f.label, f.tip end
  local function ser(texts, kind)
    local parts = {}
    for i, o in ipairs(M.stream(dict, texts, kind, n)) do parts[i] = ints(o) end
    return "[" .. table.concat(parts, ",") .. "]"
  end
  return '{"n":' .. n .. ',"svg":' .. ser(st.svg, "svg") .. ',"text":' .. ser(st.text, "text")
    .. ',"labels":' .. ser(st.labels, "words") .. ',"tips":' .. ser(st.tips, "words") .. "}"
end

-- dict_json(dict) -> the dictionary as JSON for the page
function M.dict_json(dict)
  if #dict.list == 0 then return "[]" end
  return M.script_json(dict.list)
end

return M
