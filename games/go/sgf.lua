-- games.go.sgf — SGF FF[1]-FF[4]: parse a collection into game trees, write
-- it back. parse -> write -> parse is the identity on the trees.
--
--   local sgf = require "games.go.sgf"
--   local trees, errors = sgf.parse(text, "file.sgf")
--   -- trees: list of root nodes; a node is
--   --   { ids = {"FF", "AB", ...}   property order as first seen
--   --     props = { AB = {"aa", "bb:cc"}, C = {"text"} }   values, repeats merged
--   --     children = { node, ... }, pos = byte offset in the text }
--   -- errors: list of "file:line:col: message"; a malformed game tree (or
--   -- variation) is dropped and the intact ones around it are kept.
--   sgf.write(trees) -> text
--   sgf.points(values) -> expanded SGF points ("aa:cc" compressed lists)
--   sgf.first(node, id) -> the first value of a property or nil
--
-- Text is converted to UTF-8 when the root names another charset in CA[]
-- (gb2312, ...), or when it is not valid UTF-8 (then GB18030 is tried).
local iconv = require "tabula.c.iconv"

local M = {}

-- property identifiers of FF[4] (used to spot "ABAWC[..]": values left out)
local KNOWN = {}
for id in ([[AB AE AN AP AR AS AW B BL BM BR BT C CA CP CR DD DM DO DT EV FF FG GB GC GM GN GW HA HO IT KM KO LB LN MA MN N OB ON OT OW PB PC PL PM PW RE RO RU SL SO SQ ST SZ TB TE TM TR TW UC US V VW W WL WR WT]]):gmatch("%u+") do
  KNOWN[id] = true
end

-- split "ABAWC" into known identifiers, or nil
local function split_known(id)
  if #id <= 2 then return nil end
  local function go(s)
    if s == "" then return {} end
    for n = 2, 1, -1 do
      local head = s:sub(1, n)
      if #head == n and KNOWN[head] then
        local rest = go(s:sub(n + 1))
        if rest then table.insert(rest, 1, head); return rest end
      end
    end
  end
  local parts = go(id)
  if parts and #parts >= 2 then return parts end
end

local Parser = {}
Parser.__index = Parser

local function fail(msg) error({ sgf = msg }, 0) end

-- line and column of a byte position (binary search over the line starts)
function Parser:where(pos)
  pos = pos or self.pos
  local starts = self.starts
  if not starts then
    starts = { 1 }
    for nl in self.text:gmatch("\n()") do starts[#starts + 1] = nl end
    self.starts = starts
  end
  local lo, hi = 1, #starts
  while lo < hi do
    local mid = (lo + hi + 1) // 2
    if starts[mid] <= pos then lo = mid else hi = mid - 1 end
  end
  return lo, pos - starts[lo] + 1
end

function Parser:err(msg, pos)
  local line, col = self:where(pos)
  return string.format("%s:%d:%d: %s", self.name, line, col, msg)
end

function Parser:skip_ws()
  self.pos = self.text:find("[^%s]", self.pos) or (#self.text + 1)
end

function Parser:peek() return self.text:sub(self.pos, self.pos) end

-- a value "[...]" with escapes; returns the raw text with escapes resolved
function Parser:value()
  local text, i = self.text, self.pos + 1
  local parts = {}
  while true do
    local j = text:find("[%]\\]", i)
    if not j then fail({ "value opened here is never closed", self.pos }) end
    parts[#parts + 1] = text:sub(i, j - 1)
    if text:sub(j, j) == "]" then self.pos = j + 1; break end
    -- an escape: "\\\n" is a soft line break (removed), else the next char itself
    local nxt = text:sub(j + 1, j + 1)
    if nxt == "\n" then i = j + 2
    elseif nxt == "\r" then i = j + 2; if text:sub(i, i) == "\n" then i = i + 1 end
    else parts[#parts + 1] = nxt; i = j + 2 end
  end
  return table.concat(parts)
end

function Parser:node()
  local node = { ids = {}, props = {}, children = {}, pos = self.pos }
  self.pos = self.pos + 1                                 -- the ';'
  while true do
    self:skip_ws()
    local s, e, id = self.text:find("^(%a+)", self.pos)
    if not s then break end
    local at = self.pos
    if id:find("%l") then
      -- FF[3] allowed lower-case letters in identifiers (e.g. "AddBlack"); keep the capitals
      local caps = id:gsub("%l", "")
      if caps == "" then fail({ "property name '" .. id .. "' has no capital letters", at }) end
      id = caps
    end
    self.pos = e + 1
    self:skip_ws()
    if self:peek() ~= "[" then
      local parts = split_known(id)
      if parts then
        fail({ string.format("property %s has no value (read as '%s')", parts[1], id), at })
      end
      fail({ string.format("property %s has no value", id), at })
    end
    local parts = split_known(id)
    if parts and not KNOWN[id] then
      fail({ string.format("property %s has no value (read as '%s')", parts[1], id), at })
    end
    local values = node.props[id]
    if not values then values = {}; node.props[id] = values; node.ids[#node.ids + 1] = id end
    while self:peek() == "[" do
      values[#values + 1] = self:value()
      self:skip_ws()
    end
  end
  return node
end

-- a game tree "( ; node ; node (...) (...) )"; returns its first node
function Parser:tree(errors)
  local open = self.pos
  self.pos = self.pos + 1                                 -- the '('
  self:skip_ws()
  if self:peek() ~= ";" then fail({ "a game tree must start with ';'", self.pos }) end
  local first, last
  while self:peek() == ";" do
    local n = self:node()
    if last then last.children[1] = n else first = n end
    last = n
    self:skip_ws()
  end
  while self:peek() == "(" do
    local ok, child = self:guarded(errors)
    if ok then last.children[#last.children + 1] = child end
    self:skip_ws()
  end
  if self:peek() ~= ")" then
    if self.pos > #self.text then fail({ "game tree opened here is never closed", open }) end
    fail({ string.format("unexpected '%s' in a game tree", self:peek()), self.pos })
  end
  self.pos = self.pos + 1
  return first
end

-- skip to just after the ')' that closes the tree opened at `open`, honouring values
function Parser:skip_tree(open)
  local text, i, depth = self.text, open, 0
  while i <= #text do
    local c = text:sub(i, i)
    if c == "[" then
      local j = i + 1
      while true do
        local k = text:find("[%]\\]", j)
        if not k then self.pos = #text + 1; return end
        if text:sub(k, k) == "\\" then j = k + 2 else i = k; break end
      end
    elseif c == "(" then depth = depth + 1
    elseif c == ")" then
      depth = depth - 1
      if depth == 0 then self.pos = i + 1; return end
    end
    i = i + 1
  end
  self.pos = #text + 1
end

-- parse a tree; on a syntax error record it, skip the tree and return false
function Parser:guarded(errors)
  local open = self.pos
  local ok, res = pcall(self.tree, self, errors)
  if ok then return true, res end
  if type(res) ~= "table" or not res.sgf then error(res, 0) end
  errors[#errors + 1] = self:err(res.sgf[1], res.sgf[2])
  self:skip_tree(open)
  return false
end

local function valid_utf8(s) return utf8.len(s) ~= nil end

local TEXT_IDS = { C = true, GN = true, N = true, PB = true, PW = true, EV = true, SO = true,
  GC = true, AN = true, US = true, CP = true, RO = true, PC = true, ON = true, BT = true, WT = true, DT = true, LB = true }

-- convert every value of a tree to UTF-8 from charset
local function convert_tree(node, charset, errors, name)
  for _, id in ipairs(node.ids) do
    local vs = node.props[id]
    for i, v in ipairs(vs) do
      if not v:find("^[%z\1-\127]*$") then
        local out, err = iconv.convert(v, charset)
        if out then vs[i] = out
        else errors[#errors + 1] = string.format("%s: %s (property %s kept as is)", name, err, id) end
      end
    end
  end
  for _, c in ipairs(node.children) do convert_tree(c, charset, errors, name) end
end

local function tree_valid_utf8(node)
  for _, id in ipairs(node.ids) do
    for _, v in ipairs(node.props[id]) do if not valid_utf8(v) then return false end end
  end
  for _, c in ipairs(node.children) do if not tree_valid_utf8(c) then return false end end
  return true
end

-- parse(text [, name]) -> trees, errors
function M.parse(text, name)
  local p = setmetatable({ text = text, pos = 1, name = name or "sgf" }, Parser)
  if text:sub(1, 3) == "\239\187\191" then p.pos = 4 end   -- UTF-8 byte order mark
  local trees, errors = {}, {}
  while true do
    local s = text:find("(", p.pos, true)
    if not s then break end
    local junk = text:sub(p.pos, s - 1)
    if junk:find("[;%[%]]") and #trees > 0 then
      errors[#errors + 1] = p:err("text outside any game tree is ignored", p.pos)
    end
    p.pos = s
    local ok, t = p:guarded(errors)
    if ok then trees[#trees + 1] = t end
  end
  if #trees == 0 and #errors == 0 then errors[1] = p:err("no game tree found", 1) end
  for _, t in ipairs(trees) do
    local ca = t.props.CA and t.props.CA[1]:upper()
    if ca == "UTF8" or ca == "US-ASCII" or ca == "ASCII" then ca = "UTF-8" end
    if ca == "GB2312" or ca == "GBK" then ca = "GB18030" end      -- supersets many files need
    local latin = ca == "ISO-8859-1" or ca == "LATIN1"
    local from
    if ca and ca ~= "UTF-8" and not (latin and tree_valid_utf8(t)) then
      from = ca
    elseif not tree_valid_utf8(t) then
      -- no charset named (or UTF-8 named wrongly): Chinese files are the usual case
      from = latin and "ISO-8859-1" or "GB18030"
    end
    if from then
      convert_tree(t, from, errors, p.name)
      t.charset = from                  -- what the file was in; the tree is UTF-8 now
      if t.props.CA then t.props.CA = { "UTF-8" } end
    end
  end
  return trees, errors
end

function M.first(node, id)
  local v = node.props[id]
  return v and v[1]
end

-- expand compressed point lists: "aa:cc" is the rectangle from aa to cc
function M.points(values)
  local out = {}
  for _, v in ipairs(values or {}) do
    local a, b = v:match("^(%a%a):(%a%a)$")
    if a then
      local x1, y1, x2, y2 = a:byte(1), a:byte(2), b:byte(1), b:byte(2)
      if x1 > x2 then x1, x2 = x2, x1 end
      if y1 > y2 then y1, y2 = y2, y1 end
      for x = x1, x2 do
        for y = y1, y2 do out[#out + 1] = string.char(x, y) end
      end
    elseif v ~= "" then
      out[#out + 1] = v
    end
  end
  return out
end

local function escape(v) return (v:gsub("[%]\\]", "\\%0")) end

local function write_node(node, out)
  out[#out + 1] = ";"
  for _, id in ipairs(node.ids) do
    out[#out + 1] = id
    for _, v in ipairs(node.props[id]) do out[#out + 1] = "[" .. escape(v) .. "]" end
    if TEXT_IDS[id] then out[#out + 1] = "\n" end
  end
end

local function write_tree(node, out)
  out[#out + 1] = "("
  while true do
    write_node(node, out)
    if #node.children == 1 then node = node.children[1]
    else
      for _, c in ipairs(node.children) do out[#out + 1] = "\n"; write_tree(c, out) end
      break
    end
  end
  out[#out + 1] = ")"
end

-- write(trees | tree) -> text (UTF-8; a CA[] property is written as found)
function M.write(trees)
  if trees.ids then trees = { trees } end
  local out = {}
  for _, t in ipairs(trees) do write_tree(t, out); out[#out + 1] = "\n" end
  return table.concat(out)
end

-- new_node({ {id, {values}}, ... }) -> a node
function M.node(list)
  local n = { ids = {}, props = {}, children = {} }
  for _, pv in ipairs(list or {}) do
    n.ids[#n.ids + 1] = pv[1]
    n.props[pv[1]] = pv[2]
  end
  return n
end

return M
