-- games.xiangqi.jianghu — Jianghu108 problems: loading, the validator, option
-- moves, answer extraction, and the board picture (../shared/specs/jianghu108.md).
local xq = require "games.xiangqi"
local notation = require "games.xiangqi.notation"
local json = require "tabula.json"
local cli = require "tabula.cli"

local M = {}

M.CIRCUMSTANCE = {
  ["在双方最优应对下，本局红方胜"] = "win",
  ["在双方最优应对下，本局红方无法取胜，为和棋"] = "draw",
}
M.LETTERS = { "A", "B", "C", "D", "E" }

-- load(path) -> problems (a user error naming the file when the shape is wrong)
function M.load(path)
  local d = json.read_file(path)
  if type(d) ~= "table" or type(d.problems) ~= "table" then cli.fail("%s: no \"problems\" list", path) end
  for i, p in ipairs(d.problems) do
    if type(p) ~= "table" or getmetatable(p) == json.array_mt then
      cli.fail("%s: problem %d is not a JSON object", path, i)
    end
    for _, k in ipairs({ "id", "Red", "Black", "options", "correctAnswer", "circumstance", "header" }) do
      if p[k] == nil then cli.fail("%s: problem %d has no \"%s\"", path, i, k) end
    end
    if type(p.id) ~= "string" and math.type(p.id) ~= "integer" then cli.fail("%s: problem %d: \"id\" is not a string or an integer", path, i) end
    for _, k in ipairs({ "Red", "Black", "correctAnswer", "circumstance", "header" }) do
      if type(p[k]) ~= "string" then cli.fail("%s: problem %s: \"%s\" is not a string", path, tostring(p.id), k) end
    end
    if type(p.options) ~= "table" or #p.options ~= 5 then cli.fail("%s: problem %s needs five options", path, tostring(p.id)) end
    for k, o in ipairs(p.options) do
      if type(o) ~= "string" then cli.fail("%s: problem %s: option %d is not a string", path, tostring(p.id), k) end
    end
  end
  return d.problems
end

-- option_text(p, i) -> the option without its "A：" prefix
function M.option_text(p, i)
  local o = p.options[i]
  return (o:gsub("^%s*[A-E]%s*：%s*", ""):gsub("^%s*[A-E]%s*:%s*", ""))
end

local FILES = "abcdefghi"

-- explain(board, move) -> why a pseudo-move is illegal, in the validator's terms
local function explain(board, m)
  local from, to = m:sub(1, 2), m:sub(3, 4)
  local piece = board:at(from)
  if not piece then return "no piece on the origin square" end
  local t = piece:upper()
  local ff, fr = FILES:find(from:sub(1, 1), 1, true) - 1, tonumber(from:sub(2))
  local tf, tr = FILES:find(to:sub(1, 1), 1, true) - 1, tonumber(to:sub(2))
  local df, dr = tf - ff, tr - fr
  local function at(f, r) return board:at(FILES:sub(f + 1, f + 1) .. r) end
  local target = board:at(to)
  if target and M.same_side(target, piece) then return "the target square holds a piece of the same side" end
  if t == "N" and ((math.abs(df) == 1 and math.abs(dr) == 2) or (math.abs(df) == 2 and math.abs(dr) == 1)) then
    local lf, lr = ff, fr
    if math.abs(df) == 2 then lf = ff + df // 2 else lr = fr + dr // 2 end
    if at(lf, lr) then return "horse leg blocked" end
  elseif t == "B" and math.abs(df) == 2 and math.abs(dr) == 2 then
    if at(ff + df // 2, fr + dr // 2) then return "elephant eye blocked" end
    if (piece == "B" and tr > 4) or (piece == "b" and tr < 5) then return "elephant cannot cross the river" end
  elseif t == "C" and (df == 0 or dr == 0) then
    local between = 0
    local sf, sr = df == 0 and 0 or (df > 0 and 1 or -1), dr == 0 and 0 or (dr > 0 and 1 or -1)
    local f, r = ff + sf, fr + sr
    while f ~= tf or r ~= tr do
      if at(f, r) then between = between + 1 end
      f, r = f + sf, r + sr
    end
    if target and between ~= 1 then return "cannon capture needs exactly one screen" end
    if not target and between > 0 then return "cannon blocked" end
  end
  -- the move has the piece's shape: is it the general's safety?
  local legal, why = board:is_legal(m)
  if legal then return nil end
  if why:find("would leave", 1, true) then
    local c = board:copy()
    -- play it without the legality check by rebuilding the position
    local pieces = {}
    for _, p in ipairs(c:pieces()) do
      if p.square ~= from and p.square ~= to then pieces[#pieces + 1] = p end
    end
    pieces[#pieces + 1] = { square = to, piece = piece }
    local after, err = xq.from_pieces(pieces, "black")
    if not after and err and err:find("face each other", 1, true) then return "generals would face each other" end
    return "the move leaves its own general in check"
  end
  return "the piece cannot move like that (" .. why:gsub("^illegal move %S+: ", "") .. ")"
end

function M.same_side(a, b) return (a:match("%u") ~= nil) == (b:match("%u") ~= nil) end

-- validate(problems) -> findings { {id, option, check, message, fatal} }, usable (id -> bool)
function M.validate(problems)
  local findings, usable = {}, {}
  for _, p in ipairs(problems) do
    local id = p.id
    local bad = false
    local function find(option, check, message, fatal)
      findings[#findings + 1] = { id = id, option = option, check = check, message = message, fatal = fatal or false }
      if fatal then bad = true end
    end
    if not M.CIRCUMSTANCE[p.circumstance] then find(nil, "circumstance", "circumstance is not one of the two standard sentences", true) end
    if not (type(p.correctAnswer) == "string" and p.correctAnswer:match("^[A-E]$")) then
      find(nil, "answer", "correctAnswer is not a letter A-E", true)
    end
    local lists = {}
    for _, side in ipairs({ "red", "black" }) do
      local list, err = notation.parse_jianghu_pieces(side == "red" and p.Red or p.Black, side)
      if not list then find(nil, "pieces", err, true); list = {} end
      lists[side] = list
    end
    -- collisions, characters, generals, points, limits, soldiers
    local seen, all = {}, {}
    local counts = { red = {}, black = {} }
    for _, side in ipairs({ "red", "black" }) do
      for _, pc in ipairs(lists[side]) do
        local sq = notation.iccs_square_to_jianghu(pc.square)
        if seen[pc.square] then find(nil, "collision", "two pieces on " .. sq, true) end
        seen[pc.square] = true
        if pc.wrong_side then find(nil, "characters", string.format("%s's list uses the other side's character %s on %s", side == "red" and "Red" or "Black", pc.char, sq)) end
        local t = pc.piece:upper()
        counts[side][t] = (counts[side][t] or 0) + 1
        all[#all + 1] = pc
      end
    end
    local limits = { K = 1, A = 2, B = 2, N = 2, R = 2, C = 2, P = 5 }
    for _, side in ipairs({ "red", "black" }) do
      if (counts[side].K or 0) ~= 1 then
        find(nil, "generals", string.format("%s has %d generals", side == "red" and "Red" or "Black", counts[side].K or 0), true)
      end
      for t, n in pairs(counts[side]) do
        if t ~= "K" and n > limits[t] then
          find(nil, "limits", string.format("%s has %d %ss (at most %d)", side == "red" and "Red" or "Black", n, xq.TYPE_NAME[t], limits[t]))
        end
      end
    end
    local board, err
    if not bad then
      board, err = xq.from_pieces(all, "red")
      if not board then
        local check = err:find("face each other", 1, true) and "facing generals" or err:find("in check", 1, true) and "check at start"
          or err:find("palace", 1, true) and "palace" or err:find("advisor", 1, true) and "palace"
          or err:find("elephant", 1, true) and "elephant points" or "position"
        find(nil, check, err, true)
      end
    end
    if board then
      if board:in_check() then find(nil, "check at start", "Red is in check at the start") end
      for _, f in ipairs(board:soldier_findings()) do find(nil, "soldiers", f) end
      for i = 1, 4 do
        local letter = M.LETTERS[i]
        local text = M.option_text(p, i)
        local m, info = notation.from_jianghu(board, text)
        local is_answer = p.correctAnswer == letter
        if not m then
          find(letter, "option", info, is_answer)
        else
          local piece = board:at(m:sub(1, 2))
          if not piece then
            find(letter, "legality", "no piece on " .. text:match("[A-I]%d+"), is_answer)
          elseif piece:match("%u") == nil then
            find(letter, "legality", "the moving piece is Black's", is_answer)
          elseif piece:upper() ~= info.type then
            find(letter, "piece", string.format("the option names %s but the piece there is a %s", info.char, xq.TYPE_NAME[piece:upper()]))
          end
          if piece and piece:match("%u") then
            local legal = board:is_legal(m)
            if not legal then
              find(letter, "legality", explain(board, m) or "illegal", is_answer)
            else
              local captured = board:at(m:sub(3, 4))
              local check = board:gives_check(m)
              if info.capture_mark and not captured then find(letter, "capture mark", "marked x but captures nothing") end
              if captured and not info.capture_mark then find(letter, "capture mark", "captures a piece but has no x") end
              if captured and captured:upper() == "K" then find(letter, "capture mark", "captures the general") end
              if info.check_mark and not check then find(letter, "check mark", "marked + but gives no check") end
              if check and not info.check_mark then find(letter, "check mark", "gives check but has no +") end
            end
          end
        end
      end
    end
    usable[id] = not bad
  end
  return findings, usable
end

function M.format_finding(f)
  return string.format("problem %s%s: %s: %s%s", tostring(f.id), f.option and (" option " .. f.option) or "",
    f.check, f.message, f.fatal and " (fatal)" or "")
end

-- ---- answers ----

local FULLWIDTH = { ["Ａ"] = "A", ["Ｂ"] = "B", ["Ｃ"] = "C", ["Ｄ"] = "D", ["Ｅ"] = "E",
  ["ａ"] = "A", ["ｂ"] = "B", ["ｃ"] = "C", ["ｄ"] = "D", ["ｅ"] = "E" }

-- What may stand between two letters of a hedge ("A or C", "A/C", "A、C",
-- "选项A和选项C都可以", "option A and/or option C"): a short run made only of
-- connectives, filler words and punctuation, with at least one connective.
-- Words are matched whole (an ASCII word must not run on into letters).
M.HEDGE_MAX = 40        -- bytes between the two letters, at most
local CONNECTIVE = { "or maybe", "or else", "as well as", "and/or", "either", "both", "plus", "nor", "or", "and",
  "/", "|", "&", ",", "+", ";",
  "或者是", "或者", "或是", "或许", "还是", "以及", "要么", "或", "和", "与", "跟", "及", "同", "，", "、", "；", "／", "＆" }
local FILLER = { "options", "option", "choices", "choice", "answers", "answer", "letters", "letter", "maybe",
  "perhaps", "possibly", "also", "either", "too", "both",
  "选项", "答案", "选择", "都可以", "也可以", "可以", "也许", "可能", "选", "项", "也", "都", "行", "对" }

-- hedge_between(s) -> true when s (the text between two different letters) joins them as a hedge
local function hedge_between(s)
  if #s > M.HEDGE_MAX then return false end
  s = s:lower()
  local i, joined = 1, false
  local function word(list, at)
    for _, w in ipairs(list) do
      if s:sub(at, at + #w - 1) == w then
        local tail = s:sub(at + #w, at + #w)
        if not (w:match("%a$") and tail:match("%a")) then return #w end
      end
    end
  end
  while i <= #s do
    local c = s:sub(i, i)
    local n = word(CONNECTIVE, i)
    if n then
      joined = true
      i = i + n
    else
      n = word(FILLER, i)
      if n then i = i + n
      elseif c:match("[%s%(%)%[%]%*\"':%-]") then i = i + 1
      else return false end
    end
  end
  return joined
end

-- isolated(text) -> list of { pos, letter }: capitals A-E with no ASCII letter or digit on
-- either side
local function isolated(text)
  local out = {}
  for pos, l in text:gmatch("()([A-E])") do
    local before = pos > 1 and text:sub(pos - 1, pos - 1) or ""
    local after = text:sub(pos + 1, pos + 1)
    if not before:match("[%w]") and not after:match("[%w]") then out[#out + 1] = { pos, l } end
  end
  return out
end

-- extract(reply [, hedged]) -> letter | nil, how ("box" | "letter" | "hedged" | "none" | "empty")
-- The letter inside the last <box>...</box> (a leading letter may be lowercase; full-width
-- letters count); else the last isolated capital A-E in the text (full-width counts; a
-- lowercase letter outside a box does not, since "a" is an English word). An isolated letter
-- has no ASCII letter or digit on either side.
-- A hedge is no answer (how = "hedged"): a last box naming two different letters
-- ("<box>A, C</box>", "<box>A or C</box>"), or, outside a box, a last letter joined to the
-- letter before it by a short connective (see hedge_between: "A or C", "A/C", "A、C",
-- "选项A和选项C都可以", "option A and/or option C"). With hedged
-- = "last-letter", a hedged box is read like a reply without the format (the last isolated
-- letter of the whole text) and a hedge outside a box gives its last letter.
function M.extract(reply, hedged)
  if reply == nil or reply:match("^%s*$") then return nil, "empty" end
  local lenient = hedged == "last-letter"
  local text = reply:gsub("[\xEF][\xBC][\xA1-\xA5]", FULLWIDTH):gsub("[\xEF][\xBD][\x81-\x85]", FULLWIDTH)
  local last
  for inner in text:gmatch("<[Bb][Oo][Xx]>(.-)</[Bb][Oo][Xx]>") do last = inner end
  if last then
    local named, count = {}, 0
    local function name(l) l = l:upper(); if not named[l] then named[l] = true; count = count + 1 end; return l end
    local l = last:match("^%s*([A-Ea-e])%f[^%w]")
    if l then l = name(l) end
    for _, hit in ipairs(isolated(last)) do l = l or hit[2]; name(hit[2]) end
    if count == 1 then return l, "box" end
    if count > 1 and not lenient then return nil, "hedged" end
  end
  local hits = isolated(text)
  local final, previous = hits[#hits], hits[#hits - 1]
  if not final then return nil, "none" end
  if previous and previous[2] ~= final[2] and not lenient then
    if hedge_between(text:sub(previous[1] + 1, final[1] - 1)) then return nil, "hedged" end
  end
  return final[2], "letter"
end

-- ---- picture ----

M.ARROW_COLOURS = { { 220, 30, 30 }, { 30, 80, 220 }, { 20, 150, 60 }, { 140, 50, 180 } }

-- picture(p [, opts]) -> the table tabula.c.image draws (render_xiangqi) and
-- lays out (layout): the pieces and an arrow with its letter for each of A-D
function M.picture(p, opts)
  opts = opts or {}
  local pieces = {}
  local board = notation.jianghu_board(p.Red, p.Black)
  for _, side in ipairs({ "red", "black" }) do
    local list = notation.parse_jianghu_pieces(side == "red" and p.Red or p.Black, side) or {}
    for _, pc in ipairs(list) do pieces[#pieces + 1] = { square = pc.square, text = pc.char, side = side } end
  end
  local arrows = {}
  for i = 1, 4 do
    local text = M.option_text(p, i)
    local m, info = notation.from_jianghu(board or xq.new(), text)
    if m then
      local target
      if board then target = board:at(m:sub(3, 4)) else target = info.capture_mark end
      arrows[#arrows + 1] = { from = m:sub(1, 2), to = m:sub(3, 4), color = M.ARROW_COLOURS[i], label = M.LETTERS[i],
        capture = target and true or false }
    end
  end
  return { width = 792, height = 870, font = opts.font, files = "ABCDEFGHI", rank_base = 1,
    river = { "楚河", "汉界" }, pieces = pieces, arrows = arrows }
end

-- image(p [, opts]) -> PNG bytes | nil, message: the board with arrows for A-D
function M.image(p, opts)
  return require("tabula.c.image").render_xiangqi(M.picture(p, opts))
end

return M
