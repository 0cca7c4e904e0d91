-- scenarios/tsugo/trees.lua — TsuGO's process search trees: decoding an
-- extractor's JSON, structural validation and repair, and the derived
-- structure the metrics read (children, depth, owner candidate).
--
-- A node of the extractor schema (prompts/tsugo/tree_schema.json):
--   { id, label, type = "root"|"move"|"judgment", parent, side = "B"|"W",
--     move_pos = "T14", polarity = "win"|"lose"|"other" }
--
-- validate(nodes, opts) -> tree | nil, log. The rules, in order:
--  rejected (the whole tree; nothing is guessed):
--   * a node that is not an object, has no integer id, or an unknown type;
--   * two nodes with the same id;
--   * no root, or more than one;
--   * a parent that does not exist or does not come before its child (ids are
--     the order of appearance, so a parent always has a smaller id) — a reply
--     is never moved under another parent;
--   * a judgment with children (a judgment ends a branch);
--   * more than M.MAX_NODES nodes or a branch deeper than M.MAX_DEPTH moves
--     (a bound on what an extractor's reply can make the report draw).
--  repaired (each repair is one line in log.repairs):
--   * nodes listed out of id order are put in id order (ids are the time order);
--   * a judgment directly under the root is dropped (it ends no move branch);
--   * a move without a side gets the side its place implies: the side to play
--     under the root, the other side under a move;
--   * a move whose move_pos is missing takes the point from a label like "B:T14";
--     a point that cannot be read stays unknown (the replay calls it impossible);
--   * a polarity other than win / lose / other becomes other (an unclear
--     branch is never turned into a win or a loss);
--   * with opts.text (the response): a first-level candidate that the response
--     never names is dropped with its subtree — an extraction may not add a
--     candidate only implied by the answer key. Named means an explicit
--     reference outside the closing answer line ("answer is X"): its point as
--     a whole token, or under K=4 its letter as "option A", "A)", "(A)", "A."
--     or "A:" (capital letter; the article "a" never counts). The text is
--     read once, so the check is linear in text and candidates;
--   * the same move (side and point) repeated under the same parent is merged
--     into its first occurrence; the repeat's children move with it;
--   * a move left as a leaf (an unclosed branch) gets an `other` judgment.
--  The valid tree is renumbered 0..n-1 in order of appearance (an added
--  closing judgment comes right after the move it closes); `src` keeps the
--  extractor's id.
local json = require "tabula.json"
local go = require "games.go"

local M = {}

-- point(text [, size]) -> "T14" (normalized), or nil when text is not a point
-- of a size x size board (letters A-T without I, rows 1..size from the bottom)
function M.point(text, size)
  size = size or 19
  if type(text) ~= "string" then return nil end
  local sgf = go.from_gtp((text:gsub("^%s+", ""):gsub("%s+$", "")), size)
  if not sgf or sgf == "pass" then return nil end
  return go.to_gtp(sgf, size)
end

local SIDES = { b = "B", black = "B", w = "W", white = "W" }
function M.side(text)
  return type(text) == "string" and SIDES[text:lower():gsub("%s", "")] or nil
end
function M.other(side) return side == "B" and "W" or "B" end

-- decode(text) -> nodes | nil, why: the node list from an extractor's output
-- (a bare JSON object, or one inside a ``` fence or surrounded by prose)
function M.decode(text)
  if type(text) ~= "string" or text == "" then return nil, "the extractor returned nothing" end
  local body = text:match("```%w*%s*\n(.-)\n%s*```") or text
  local first, last = body:find("{", 1, true), nil
  for i = #body, 1, -1 do if body:sub(i, i) == "}" then last = i; break end end
  if not first or not last or last < first then return nil, "no JSON object in the extractor's output" end
  local d, err = json.decode(body:sub(first, last), { lenient = true })
  if not d then return nil, "the extractor's JSON is invalid: " .. err end
  if type(d) ~= "table" or type(d.nodes) ~= "table" then return nil, "the extractor's JSON has no \"nodes\" list" end
  return d.nodes
end

local function null(v) return v == nil or v == json.null end

local function reject(log, fmt, ...)
  log.rejected = string.format(fmt, ...)
  return nil, log
end

M.MAX_NODES, M.MAX_DEPTH = 5000, 400

-- named(text) -> set of what the text names explicitly, outside its answer
-- lines: points ("S17" = true, upper case) and option letters ("letter:A" = true)
function M.named(text)
  local set = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    if not line:lower():find("answer%s+is") then
      for tok in line:gmatch("%f[%w]([A-Ta-t]%d%d?)%f[%W]") do set[tok:upper()] = true end
      for l in line:gmatch("[Oo]ption%s+([A-D])%f[%W]") do set["letter:" .. l] = true end
      for l in line:gmatch("%(([A-D])%)") do set["letter:" .. l] = true end
      for l in line:gmatch("%f[%w]([A-D])[%)%.:]") do set["letter:" .. l] = true end
    end
  end
  return set
end

-- validate(nodes, opts) -> tree, log | nil, log
-- opts: size (19), to_play ("B"/"W"), text (the response, for the candidate
-- check), options ({ A = "S17", ... } under K=4)
function M.validate(nodes, opts)
  opts = opts or {}
  local log = { repairs = {} }
  local function repair(fmt, ...) log.repairs[#log.repairs + 1] = string.format(fmt, ...) end
  if type(nodes) ~= "table" then return reject(log, "the nodes are not a list") end
  -- read every node
  local list, seen = {}, {}
  for k, n in ipairs(nodes) do
    if type(n) ~= "table" then return reject(log, "node #%d is not an object", k) end
    local id = math.tointeger(n.id)
    if not id then return reject(log, "node #%d has no integer id", k) end
    if seen[id] then return reject(log, "two nodes have id %d", id) end
    seen[id] = true
    if not (n.type == "root" or n.type == "move" or n.type == "judgment") then
      return reject(log, "node %d has type %s (root, move or judgment)", id, tostring(n.type))
    end
    local parent = nil
    if not null(n.parent) then
      parent = math.tointeger(n.parent)
      if not parent then return reject(log, "node %d has parent %s (not an id)", id, tostring(n.parent)) end
    end
    list[#list + 1] = { src = id, type = n.type, parent = parent, raw = n, order = k }
  end
  local sorted = true
  for i = 2, #list do if list[i].src < list[i - 1].src then sorted = false end end
  if not sorted then
    table.sort(list, function(a, b) return a.src < b.src end)
    repair("nodes were listed out of id order; put in id order")
  end
  -- the root
  local root
  for _, n in ipairs(list) do
    if n.type == "root" then
      if root then return reject(log, "two roots (nodes %d and %d)", root.src, n.src) end
      root = n
    end
  end
  if not root then return reject(log, "no root node") end
  if root.parent then return reject(log, "the root (node %d) has a parent", root.src) end
  -- parents exist and come first; judgments have no children
  local by = {}
  for _, n in ipairs(list) do
    if n ~= root then
      if not n.parent then return reject(log, "node %d has no parent", n.src) end
      local p = by[n.parent]
      if not p then
        if seen[n.parent] then return reject(log, "node %d comes before its parent %d", n.src, n.parent) end
        return reject(log, "node %d has parent %d, which does not exist", n.src, n.parent)
      end
      if p.type == "judgment" then return reject(log, "node %d is a judgment with children (node %d)", p.src, n.src) end
    end
    by[n.src] = n
  end
  if #list > M.MAX_NODES then return reject(log, "the tree has %d nodes (at most %d)", #list, M.MAX_NODES) end
  local depth = {}
  for _, n in ipairs(list) do
    depth[n.src] = n.parent and depth[n.parent] + 1 or 0
    if depth[n.src] > M.MAX_DEPTH then return reject(log, "node %d lies %d levels deep (at most %d)", n.src, depth[n.src], M.MAX_DEPTH) end
  end
  -- field repairs, top-down (parents are earlier)
  local dropped = {}
  for _, n in ipairs(list) do
    local p = n.parent and by[n.parent]
    if p and dropped[p.src] then
      dropped[n.src] = true
    elseif n.type == "root" then
      n.label = type(n.raw.label) == "string" and n.raw.label or nil
    elseif n.type == "judgment" then
      if p == root then
        dropped[n.src] = true
        repair("dropped judgment %d directly under the root", n.src)
      else
        local pol = type(n.raw.polarity) == "string" and n.raw.polarity:lower() or nil
        if pol == "win" or pol == "lose" or pol == "other" then n.polarity = pol
        else
          n.polarity = "other"
          repair("judgment %d: polarity %s read as other", n.src, tostring(n.raw.polarity))
        end
        n.label = type(n.raw.label) == "string" and n.raw.label or n.polarity
      end
    elseif n.type == "move" then
      n.side = M.side(n.raw.side)
      local label = type(n.raw.label) == "string" and n.raw.label or nil
      if not n.side then
        local from_label = label and M.side(label:match("^(%a+)%s*:"))
        if from_label then n.side = from_label
        elseif p == root then n.side = opts.to_play
        elseif p.side then n.side = M.other(p.side) end
        repair("move %d: no side given; %s", n.src, n.side and ("set to " .. n.side) or "left unknown")
      end
      local text = n.raw.move_pos
      if null(text) and label then
        text = label:match(":%s*(%w+)%s*$")
        if text then repair("move %d: point taken from its label %s", n.src, label) end
      end
      n.pos = M.point(text, opts.size)
      if not n.pos then repair("move %d: point %s cannot be read; left unknown", n.src, tostring(text)) end
      n.label = (n.side or "?") .. ":" .. (n.pos or "?")
    end
  end
  -- candidates the response never names
  if opts.text then
    local letter_of = {}
    for l, pos in pairs(opts.options or {}) do letter_of[pos] = l end
    local named = M.named(opts.text)
    for _, n in ipairs(list) do
      if n.type == "move" and n.parent == root.src and not dropped[n.src] and n.pos then
        local l = letter_of[n.pos]
        if not named[n.pos] and not (l and named["letter:" .. l]) then
          dropped[n.src] = true
          repair("dropped candidate %d (%s): the response never names it", n.src, n.pos)
        end
      end
    end
    for _, n in ipairs(list) do
      if n.parent and dropped[n.parent] then dropped[n.src] = true end
    end
  end
  -- merge repeated moves under the same parent
  local alias, first = {}, {}
  local kept = {}
  for _, n in ipairs(list) do
    if not dropped[n.src] then
      if n.parent then n.parent = alias[n.parent] or n.parent end
      local key = n.type == "move" and n.pos and n.side and (n.parent .. ":" .. n.side .. ":" .. n.pos)
      if key and first[key] then
        alias[n.src] = first[key]
        repair("move %d repeats move %d (%s) under the same parent; merged", n.src, first[key], n.label)
      else
        if key then first[key] = n.src end
        kept[#kept + 1] = n
      end
    end
  end
  -- close unclosed branches, and renumber in order of appearance
  local has_child = {}
  for _, n in ipairs(kept) do if n.parent then has_child[n.parent] = true end end
  local out, newid = {}, {}
  for _, n in ipairs(kept) do
    local node = { id = #out, src = n.src, type = n.type, label = n.label or "initial position",
      parent = n.parent and newid[n.parent], side = n.side, pos = n.pos, polarity = n.polarity }
    newid[n.src] = node.id
    out[#out + 1] = node
    if n.type == "move" and not has_child[n.src] then
      repair("move %d (%s) ends without a judgment; closed with other", n.src, n.label)
      out[#out + 1] = { id = #out, type = "judgment", label = "unclosed", parent = node.id, polarity = "other", synthetic = true }
    end
  end
  return M.index({ nodes = out }), log
end

-- index(tree) -> tree with children, depth and owner (first-level candidate id) per node
function M.index(tree)
  local nodes = tree.nodes
  local children = {}
  for _, n in ipairs(nodes) do children[n.id] = {} end
  for _, n in ipairs(nodes) do
    if n.parent then
      table.insert(children[n.parent], n.id)
      local p = nodes[n.parent + 1]
      n.depth = p.depth + 1
      n.owner = p.type == "root" and n.id or p.owner
    else
      n.depth = 0
    end
  end
  tree.children = children
  tree.root = nodes[1]
  return tree
end

-- candidates(tree) -> the first-level move nodes, in order of appearance
function M.candidates(tree)
  local out = {}
  for _, id in ipairs(tree.children[tree.root.id]) do out[#out + 1] = tree.nodes[id + 1] end
  return out
end

-- to_schema(tree) -> the node list in the extractor schema (for records and the viewer)
function M.to_schema(tree)
  local out = json.array()
  for _, n in ipairs(tree.nodes) do
    out[#out + 1] = { id = n.id, label = n.label, type = n.type, parent = n.parent or json.null,
      side = n.side, move_pos = n.pos, polarity = n.polarity, synthetic = n.synthetic }
  end
  return out
end

-- from_schema(list) -> tree (a list written by to_schema, read back from a record)
function M.from_schema(list)
  local nodes = {}
  for _, n in ipairs(list) do
    nodes[#nodes + 1] = { id = n.id, label = n.label, type = n.type, parent = (not null(n.parent)) and n.parent or nil,
      side = n.side, pos = n.move_pos, polarity = n.polarity, synthetic = n.synthetic }
  end
  return M.index({ nodes = nodes })
end

return M
