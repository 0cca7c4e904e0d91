-- games.go.problem — SGF and JSON tsumego into one normalized form.
--
--   local problem = require "games.go.problem"
--   local list, dropped = problem.from_sgf(text, { file = "x.sgf", source = "gogameguru", tier = "Easy" })
--   local p = problem.from_json(tbl, meta)            -- sanderland {AB, AW, SZ, C, SOL}
--
-- A problem (what `tabula problems go` writes, one JSON object per line):
--   id, source, file, index, license, size, to_play ("black"|"white"),
--   goal ("live"|"kill"|"ko"|"capture"|"connect"|nil), comment (root text),
--   stones = { black = {sgf...}, white = {...} }, grid = rows from the top (0/1/2),
--   correct = {sgf...} (first moves), correct_gtp, wrong = {sgf...} (refuted first moves),
--   tree = { {color = "B", point = "sgf", correct = bool, comment?, children = {...}}, ... },
--   pv = {"B:sgf", ...} (the main line), depth (its length),
--   convention (how correct moves were marked), region = {x0, y0, x1, y1}, tier, rank
-- Points are SGF ("aa" top-left); games.go converts to GTP.
local sgf = require "games.go.sgf"
local go = require "games.go"

local M = {}

-- comment conventions: which words mark a correct / a wrong node
local function right_mark(c)
  if not c then return nil end
  if c:find("RIGHT", 1, true) then return "RIGHT in C[]" end
  if c:find("^%s*Correct") or c:find("%f[%a]Also correct") or c:find("%f[%a]Correct%f[^%a]") then return "Correct in C[]" end
  if c:find("正解", 1, true) then return "正解 in C[]" end
end

local function wrong_mark(c)
  if not c then return false end
  return c:find("%f[%a]Wrong") or c:find("失败", 1, true) or c:find("%f[%a]Incorrect") or false
end

local function comment(node)
  local c = node.props.C
  return c and table.concat(c, "\n") or nil
end

local function move_of(node)
  for _, col in ipairs { "B", "W" } do
    local v = node.props[col]
    if v then
      local pt = v[1] or ""
      if pt == "" or pt == "tt" then pt = "pass" end
      return col, pt
    end
  end
end

-- side to play from words in a comment
local function side_from_text(c)
  if not c then return nil end
  local l = c:lower()
  if l:find("black to") or c:find("黑先", 1, true) or l:find("black plays") then return "black" end
  if l:find("white to") or c:find("白先", 1, true) or l:find("white plays") then return "white" end
end

local function goal_from_text(c)
  if not c then return nil end
  local l = c:lower()
  if l:find("%f[%a]ko%f[%A]") or c:find("劫", 1, true) then return "ko" end
  if l:find("kill") or c:find("杀", 1, true) or c:find("殺", 1, true) then return "kill" end
  if l:find("live") or l:find("%f[%a]life") or c:find("活", 1, true) then return "live" end
  if l:find("captur") then return "capture" end
  if l:find("connect") then return "connect" end
end

-- build the move tree under node: comment-only nodes pass through
local function build(node, marks)
  local out = {}
  for _, child in ipairs(node.children) do
    local col, pt = move_of(child)
    local n = child
    if not col then
      -- no move here: its children hang from the parent
      for _, sub in ipairs(build(child, marks)) do out[#out + 1] = sub end
    else
      local c = comment(n)
      local r = right_mark(c)
      local t = { color = col, point = pt, children = build(n, marks) }
      if c and c ~= "" then t.comment = c end
      if r then t.right = true; marks[r] = (marks[r] or 0) + 1 end
      if n.props.TE then t.right = true; marks["TE[]"] = (marks["TE[]"] or 0) + 1 end
      if wrong_mark(c) then t.wrong = true; marks["Wrong in C[]"] = (marks["Wrong in C[]"] or 0) + 1 end
      if n.props.WV then t.wrong = true; marks["WV[]"] = (marks["WV[]"] or 0) + 1 end
      if n.props.BM then t.wrong = true; marks["BM[]"] = (marks["BM[]"] or 0) + 1 end
      out[#out + 1] = t
    end
  end
  return out
end

local function any_right(t)
  if t.right then return true end
  for _, c in ipairs(t.children) do if any_right(c) then return true end end
  return false
end

-- mark each node correct (on a path to a correct leaf) or not
local function mark_correct(list)
  for _, t in ipairs(list) do
    t.correct = any_right(t)
    mark_correct(t.children)
    t.right, t.wrong = nil, nil
  end
end

local function main_line(list)
  local pv = {}
  local cur = list
  while #cur > 0 do
    -- the main line follows the first correct child where there is one
    local pick = cur[1]
    for _, t in ipairs(cur) do if t.correct then pick = t; break end end
    pv[#pv + 1] = pick.color .. ":" .. pick.point
    cur = pick.children
  end
  return pv
end

-- the bounding box of every stone and tree move
local function region_of(p)
  local x0, y0, x1, y1 = math.huge, math.huge, -1, -1
  local function add(pt)
    if pt == "pass" then return end
    local x, y = go.sgf_xy(pt)
    x0, y0, x1, y1 = math.min(x0, x), math.min(y0, y), math.max(x1, x), math.max(y1, y)
  end
  for _, c in ipairs { "black", "white" } do for _, pt in ipairs(p.stones[c]) do add(pt) end end
  local function walk(list) for _, t in ipairs(list) do add(t.point); walk(t.children) end end
  walk(p.tree)
  if x1 < 0 then return nil end
  return { x0, y0, x1, y1 }
end

local function tier_of_rank(rank)
  local n, unit = tostring(rank or ""):lower():match("(%d+)%s*([kd])")
  n = tonumber(n)
  if not n then return nil end
  if unit == "d" then return n >= 5 and "Hard" or "Medium" end
  if n >= 11 then return "Easy" elseif n >= 6 then return "Intermediate" else return "Medium" end
end

local function tier_of_depth(d)
  if d <= 3 then return "Easy" elseif d <= 6 then return "Intermediate" elseif d <= 10 then return "Medium" end
  return "Hard"
end

-- finish a problem: grid, correct set, pv, region, tier
local function finish(p, meta)
  local g = go.position(p.size, p.stones, p.to_play)
  p.grid = g:grid()
  local correct, wrong, seen = {}, {}, {}
  for _, t in ipairs(p.tree) do
    if t.color == (p.to_play == "black" and "B" or "W") and not seen[t.point] then
      seen[t.point] = true
      if t.correct then correct[#correct + 1] = t.point else wrong[#wrong + 1] = t.point end
    end
  end
  table.sort(correct); table.sort(wrong)
  p.correct, p.wrong = correct, wrong
  p.correct_gtp = {}
  for i, pt in ipairs(correct) do p.correct_gtp[i] = go.to_gtp(pt, p.size) end
  p.pv = main_line(p.tree)
  p.depth = #p.pv
  p.region = region_of(p)
  p.rank = meta.rank
  p.tier = meta.tier or tier_of_rank(meta.rank) or tier_of_depth(p.depth)
  p.license = meta.license
  p.source = meta.source
  p.file = meta.file
  return p
end

local function new_problem(size)
  return { size = size, stones = { black = {}, white = {} }, tree = {} }
end

-- setup from AB/AW/AE of one node onto a problem under construction
local function apply_setup(board, node)
  for _, pair in ipairs { { "AB", "black" }, { "AW", "white" }, { "AE", "empty" } } do
    for _, pt in ipairs(sgf.points(node.props[pair[1]])) do board[pt] = pair[2] end
  end
end

local function has_setup(node) return node.props.AB or node.props.AW or node.props.AE end

-- one problem from a setup node (root, or a child of a collection root)
local function from_setup_node(node, size, meta, index, inherited_comment)
  local p = new_problem(size)
  local board = {}
  apply_setup(board, node)
  local texts = {}
  local function add_text(c) if c and c ~= "" then texts[#texts + 1] = c end end
  add_text(inherited_comment); add_text(comment(node))
  -- setup may go on over more nodes before the first move
  while #node.children == 1 and not move_of(node.children[1]) and has_setup(node.children[1]) do
    node = node.children[1]
    apply_setup(board, node)
    add_text(comment(node))
  end
  local x = {}
  for pt, c in pairs(board) do
    local ok = pt:match("^%a%a$") and go.sgf_xy(pt) < size and select(2, go.sgf_xy(pt)) < size
    if c ~= "empty" and ok then x[#x + 1] = { pt, c } end
  end
  table.sort(x, function(a, b) return a[1] < b[1] end)
  for _, e in ipairs(x) do table.insert(p.stones[e[2]], e[1]) end
  local marks = {}
  p.tree = build(node, marks)
  -- a first node holding both the problem comment and the first move (sanderland's SGF)
  if #node.children == 1 and move_of(node.children[1]) then add_text(comment(node.children[1])) end
  local root_text = table.concat(texts, "\n")
  p.comment = root_text ~= "" and root_text or nil
  local pl = node.props.PL and node.props.PL[1]
  local first = p.tree[1] and p.tree[1].color
  if pl then
    local c = pl:upper():sub(1, 1)
    p.to_play = (c == "W" or c == "2") and "white" or "black"      -- FF[1] wrote 1 / 2
    p.side_from = "PL[]"
  elseif first then
    p.to_play = first == "W" and "white" or "black"
    p.side_from = "first move"
  else
    p.to_play = side_from_text(root_text)
    p.side_from = p.to_play and "comment" or nil
  end
  p.goal = goal_from_text(root_text)
  -- convention: marks found, else the main line's first move is the answer
  local names = {}
  for k in pairs(marks) do names[#names + 1] = k end
  table.sort(names)
  local has_right = marks["RIGHT in C[]"] or marks["Correct in C[]"] or marks["正解 in C[]"] or marks["TE[]"]
  if not has_right and #p.tree > 0 then
    -- no correct node marked: the main line (the first line not marked wrong) is the answer
    local t = p.tree[1]
    for _, c in ipairs(p.tree) do if not c.wrong then t = c; break end end
    local n = t
    while n do n.right = true; n = n.children[1] end
    names[#names + 1] = "main line"
  end
  p.convention = #names > 0 and table.concat(names, ", ") or "position only"
  mark_correct(p.tree)
  p.index = index
  p.id = meta.id or ((meta.source or "sgf") .. ":" .. (meta.file or "?") .. (index and ("#" .. index) or ""))
  if meta.to_play and not p.to_play then p.to_play = meta.to_play end
  return finish(p, meta)
end

-- from_sgf(text, meta) -> problems, errors. A collection whose root only holds
-- problems as variations (tasuki's files) gives one problem per variation.
function M.from_sgf(text, meta)
  meta = meta or {}
  local trees, errors = sgf.parse(text, meta.file)
  local out = {}
  for ti, root in ipairs(trees) do
    local size = tonumber((sgf.first(root, "SZ") or "19"):match("%d+")) or 19
    if size < 2 or size > 25 then
      errors[#errors + 1] = string.format("%s: game %d: board size SZ[%s] is not 2..25 (game left out)",
        meta.file or "?", ti, sgf.first(root, "SZ"))
      goto next_tree
    end
    local m = setmetatable({}, { __index = meta })
    local setups = 0
    for _, c in ipairs(root.children) do if has_setup(c) and not move_of(c) then setups = setups + 1 end end
    if not has_setup(root) and setups >= 2 then
      for i, c in ipairs(root.children) do
        if has_setup(c) then
          local p = from_setup_node(c, size, m, i, nil)
          out[#out + 1] = p
        end
      end
    else
      out[#out + 1] = from_setup_node(root, size, m, #trees > 1 and ti or nil, nil)
    end
    ::next_tree::
  end
  return out, errors
end

-- json_problem_error(t) -> why t is not a problem in sanderland's JSON form, or nil
function M.json_problem_error(t)
  if type(t) ~= "table" or getmetatable(t) == require("tabula.json").array_mt then return "want a JSON object with AB, AW, SZ, C, SOL" end
  local size = t.SZ == nil and 19 or tonumber(t.SZ)
  if not size or size ~= math.floor(size) or size < 2 or size > 25 then return "SZ must be a board size 2..25, got " .. tostring(t.SZ) end
  for _, k in ipairs({ "AB", "AW" }) do
    if t[k] ~= nil then
      if type(t[k]) ~= "table" then return k .. " must be a list of points" end
      for i, v in ipairs(t[k]) do if type(v) ~= "string" then return string.format("%s[%d] must be a point such as \"cd\"", k, i) end end
    end
  end
  if t.C ~= nil and type(t.C) ~= "string" then return "C must be a string" end
  if t.SOL ~= nil then
    if type(t.SOL) ~= "table" then return "SOL must be a list of moves" end
    for i, s in ipairs(t.SOL) do
      if type(s) ~= "table" or type(s[1]) ~= "string" or type(s[2]) ~= "string" then
        return string.format("SOL[%d] must be [\"B\" or \"W\", point, comment]", i)
      end
      if s[3] ~= nil and type(s[3]) ~= "string" then return string.format("SOL[%d]'s comment must be a string", i) end
    end
  end
end

-- from_json(t, meta) -> a problem ({AB, AW, SZ, C, SOL = {{"B", "ba", comment, _}, ...}})
function M.from_json(t, meta)
  meta = meta or {}
  local size = tonumber(t.SZ or 19) or 19
  local p = new_problem(size)
  local xs = {}
  for _, pair in ipairs { { "AB", "black" }, { "AW", "white" } } do
    for _, pt in ipairs(sgf.points(t[pair[1]] or {})) do xs[#xs + 1] = { pt, pair[2] } end
  end
  table.sort(xs, function(a, b) return a[1] < b[1] end)
  for _, e in ipairs(xs) do table.insert(p.stones[e[2]], e[1]) end
  p.comment = t.C
  for _, s in ipairs(t.SOL or {}) do
    local node = { color = s[1], point = s[2], correct = true, children = {} }
    if s[3] and s[3] ~= "" then node.comment = s[3] end
    p.tree[#p.tree + 1] = node
  end
  p.to_play = side_from_text(t.C) or (p.tree[1] and (p.tree[1].color == "W" and "white" or "black"))
  p.side_from = side_from_text(t.C) and "comment" or "first move"
  p.goal = goal_from_text(t.C)
  p.convention = "SOL list (JSON)"
  p.id = meta.id or ((meta.source or "json") .. ":" .. (meta.file or "?"))
  return finish(p, meta)
end

M.tier_of_rank = tier_of_rank
M.tier_of_depth = tier_of_depth
M.region_of = region_of
M.main_line = main_line

return M
