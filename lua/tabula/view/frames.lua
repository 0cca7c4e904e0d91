-- tabula.view.frames — the frames of a long trial view (a DECE match: hundreds of
-- drawings, each a few kilobytes, most of it the same as the frame before) kept
-- compact in report.html and drawn in the browser when the user goes there.
--
-- A drawing is cut into tokens (M.CUTS: an SVG at each tag, a text after each line end);
-- every distinct token is kept once in a dictionary (the page's <script
-- class="frame-tokens" data-dict=GROUP>, one per group); a frame is a list of operations against the frame
-- before it in the same stream: a token id (n >= 0) puts that token; a negative
-- n followed by d copies -n tokens of the frame before, starting d tokens after
-- the current output position (0: the same place). So a frame costs what changed
-- in it, whatever the drawing's size, and report.js (built()) rebuilds frame i
-- from frame i - 1 when the user steps there.
--
-- A view with seats (a DECE match) also keeps, per frame, each seat's private drawing
-- (what that seat's own observation shows) as ops against the public drawing of the
-- same frame or against the seat's drawing of the frame before, whichever is shorter,
-- and which seat's observation each frame's text is (who).
--
-- The page holds one dictionary per group of views (a game's matches share their cards'
-- and tiles' words); with M.COMPRESS the dictionaries and each view's data are deflated
-- (raw DEFLATE through zlib, tabula.c.zlib) and base64-encoded, and report.js inflates them
-- when a view opens.
local json = require "tabula.json"
local zlib = require "tabula.c.zlib"
local base64 = require "tabula.base64"

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

-- the cuts src/frames.c makes (tabula.c.frames): an SVG at its tags, the other kinds after
-- these bytes; a kind whose M.CUTS was changed is cut here in Lua
local C = require "tabula.c.frames"
local C_CUTS = { svg = "()<", text = "[\n,;]()", words = " ()" }
local C_SEPS = { text = "\n,;", words = " " }

-- tokens(dict, s, kind) -> the ids of s cut into tokens (M.CUTS)
function M.tokens(dict, s, kind)
  if M.CUTS[kind] == C_CUTS[kind] then
    if kind == "svg" and M.SVG_AFTER_TAG then return C.tokens(dict.id, dict.list, s, "tags") end
    if C_SEPS[kind] then return C.tokens(dict.id, dict.list, s, "after", C_SEPS[kind]) end
  end
  return M.lua_tokens(dict, s, kind)
end

-- lua_tokens(dict, s, kind): tokens written in Lua (the reference the C cut is tested against)
function M.lua_tokens(dict, s, kind)
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

-- index(a) -> where each token of id list a stands (its last 8 places, the latest first:
-- what lua_ops looks runs up in), made once for a list several lists are
-- written against (a frame's public drawing, for each seat's own)
function M.index(a)
  local where = {}
  for i = #a, 1, -1 do
    local v = a[i]
    local w = where[v]
    if not w then where[v] = { i } elseif #w < 8 then w[#w + 1] = i end
  end
  return where
end

-- ops(a, b [, where]) -> the operations that make id list b from the list a before it
-- (where: M.index(a), when the caller has it). Greedy: at each place of b, the longest
-- run of a that matches there (tried at the place the last copy ended first, then at up
-- to 8 places holding that token); runs shorter than 2 tokens are put as ids.
function M.ops(a, b, where)
  if not where and not M.LUA_OPS then return C.ops(a, b) end
  return M.lua_ops(a, b, where)
end

-- lua_ops(a, b [, where]): ops written in Lua (the reference src/frames.c is tested against)
function M.lua_ops(a, b, where)
  where = where or M.index(a)
  local out, j, nxt = {}, 1, 1
  local nb, na = #b, #a
  local best, blen
  local function try(p)
    local len = 0
    while p + len <= na and j + len <= nb and a[p + len] == b[j + len] do len = len + 1 end
    if len > blen then best, blen = p, len end
  end
  local none = {}
  while j <= nb do
    best, blen = nil, 0
    if nxt <= na and a[nxt] == b[j] then try(nxt) end
    if blen < 4 then for _, p in ipairs(where[b[j]] or none) do try(p) end end
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

-- stream(dict, texts, kind, n) -> the ops of each text after the one before (the first
-- after nothing): { {ops}, ... }, and each text's token ids; a nil text is an empty frame
function M.stream(dict, texts, kind, n)
  local out, all, prev = {}, {}, {}
  for i = 1, n do
    local ids = texts[i] and M.tokens(dict, texts[i], kind) or {}
    out[i], all[i] = M.ops(prev, ids), ids
    prev = ids
  end
  return out, all
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

-- data(dict, frames) -> the JSON of a trial view's frames: { n, svg, text, labels, tips
-- [, who, seats] }, each a stream of ops: frames[i] = { svg =, text =, label =, tip =
-- [, who =, seats = { svg of seat 1, ... }] } (tip: the action id, which a pointer over
-- the caption shows; who: the seat whose observation text is, 0 for none). seats[k][i]
-- is { base, ops... }: base 0, ops against the public drawing of frame i; base 1, against
-- seat k's drawing of frame i - 1.
function M.data(dict, frames)
  local n = #frames
  local st = { svg = {}, text = {}, labels = {}, tips = {} }
  for i, f in ipairs(frames) do st.svg[i], st.text[i], st.labels[i], st.tips[i] = f.svg, f.text, f.label, f.tip end
  local public
  local function ser(texts, kind)
    local parts = {}
    local ops, ids = M.stream(dict, texts, kind, n)
    for i, o in ipairs(ops) do parts[i] = ints(o) end
    if kind == "svg" then public = ids end
    return "[" .. table.concat(parts, ",") .. "]"
  end
  local out = { '{"n":', n, ',"svg":', ser(st.svg, "svg"), ',"text":', ser(st.text, "text"),
    ',"labels":', ser(st.labels, "words"), ',"tips":', ser(st.tips, "words") }
  local nseats, any_who = 0, false
  for _, f in ipairs(frames) do nseats = math.max(nseats, #(f.seats or {})); any_who = any_who or f.who ~= nil end
  if any_who then   -- whose observation each frame's text is (shown only while that seat is picked)
    local who = {}
    for i, f in ipairs(frames) do who[i] = f.who or 0 end
    out[#out + 1] = ',"who":' .. ints(who)
  end
  if nseats > 0 then
    out[#out + 1] = ',"seats":['
    for k = 1, nseats do
      local parts, prev = {}, {}
      for i, f in ipairs(frames) do
        local s = f.seats and f.seats[k]
        local ids = s and M.tokens(dict, s, "svg") or {}
        local a = M.ops(public[i], ids)
        if #a > 4 then
          local b = M.ops(prev, ids)
          if #b < #a then table.insert(b, 1, 1); a = b else table.insert(a, 1, 0) end
        else table.insert(a, 1, 0) end
        parts[i] = ints(a)
        prev = ids
      end
      out[#out + 1] = (k > 1 and "," or "") .. "[" .. table.concat(parts, ",") .. "]"
    end
    out[#out + 1] = "]"
  end
  out[#out + 1] = "}"
  return table.concat(out)
end

-- whether the page keeps its frame data deflated (zlib's raw DEFLATE, base64)
M.COMPRESS = true

-- pack(text) -> text deflated and base64-encoded (what report.js's unpack reads back)
function M.pack(text) return base64.encode(zlib.deflate_raw(text)) end

-- element(cls, text [, attrs]) -> the <script> element that holds a view's data or a
-- dictionary in the page: deflated and base64-encoded (data-z="deflate") under M.COMPRESS,
-- else the JSON itself
function M.element(cls, text, attrs)
  if M.COMPRESS then
    return string.format('<script type="text/plain" class="%s" data-z="deflate"%s>%s</script>', cls, attrs or "", M.pack(text))
  end
  return string.format('<script type="application/json" class="%s"%s>%s</script>', cls, attrs or "", text)
end

-- dict_json(dict) -> the dictionary as JSON for the page
function M.dict_json(dict)
  if #dict.list == 0 then return "[]" end
  return M.script_json(dict.list)
end

-- new_dicts() -> the page's dictionaries, one per group of views (a game's matches)
function M.new_dicts() return { by = {}, order = {} } end

-- dict_for(dicts, group) -> the dictionary of group (made the first time)
function M.dict_for(dicts, group)
  group = tostring(group or "")
  local d = dicts.by[group]
  if not d then d = M.new_dict(); dicts.by[group] = d; dicts.order[#dicts.order + 1] = group end
  return d
end

-- dicts_html(dicts, esc) -> the page's <script class="frame-tokens" data-dict=…> elements
function M.dicts_html(dicts, esc)
  local out = {}
  for _, g in ipairs(dicts.order) do
    out[#out + 1] = M.element("frame-tokens", M.dict_json(dicts.by[g]), ' data-dict="' .. esc(g) .. '"')
  end
  return table.concat(out)
end

return M
