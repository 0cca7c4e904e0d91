-- scenarios/tsugo/prompts.lua — TsuGO's prompts: the board in each modality,
-- the bounded (K=4) and open templates and their terse answer-only forms
-- (prompts/tsugo/*.txt), and the coordinate frames (standard, relabeled).
--
-- Modalities: symbolic (coordinate lists), grid (0/1/2 matrix with labels),
-- symbolic+grid, visual (the PNG attached), symbolic+visual.
-- Frames: standard = columns A-T without I, rows from the bottom (T18);
-- relabeled = columns A-S with I, rows numbered from the top (the same
-- point T18 is S2 there). Points inside tabula are always standard; a frame
-- only changes what the model reads and writes.
local trees = require "scenarios.tsugo.trees"

local M = {}

M.MODALITIES = { "symbolic", "grid", "symbolic+grid", "visual", "symbolic+visual" }
local STD = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
local WITH_I = "ABCDEFGHIJKLMNOPQRSTUVWXY"

local function xy(p) local c, r = p:match("^(%u)(%d+)$"); return STD:find(c, 1, true), tonumber(r) end

M.FRAMES = {
  standard = {
    letters = STD,
    label = function(p) return p end,
    parse = function(s, size) return trees.point(s, size) end,
    row_label = function(r) return r end,           -- r: row from the bottom
  },
  relabeled = {
    letters = WITH_I,
    label = function(p, size) local x, r = xy(p); return WITH_I:sub(x, x) .. (size + 1 - r) end,
    parse = function(s, size)
      local c, r = (s or ""):upper():match("^%s*(%a)%s*(%d%d?)%s*$")
      local x = c and WITH_I:find(c, 1, true)
      r = tonumber(r)
      if not x or x > size or r < 1 or r > size then return nil end
      return STD:sub(x, x) .. (size + 1 - r)
    end,
    row_label = function(r, size) return size + 1 - r end,
  },
}

function M.frame(name)
  return M.FRAMES[name] or error("unknown coordinate frame " .. tostring(name))
end

-- the frame sentence
local function frame_text(P, fname, size)
  local f = M.frame(fname)
  return P:fill("frame_" .. fname, { first_col = f.letters:sub(1, 1), last_col = f.letters:sub(size, size), size = size })
end

-- sorted display labels: by column, then by displayed row
local function listing(points, f, size)
  local labels = {}
  for i, p in ipairs(points) do labels[i] = f.label(p, size) end
  table.sort(labels, function(a, b)
    local ca, ra = a:match("^(%u)(%d+)$")
    local cb, rb = b:match("^(%u)(%d+)$")
    if ca ~= cb then return ca < cb end
    return tonumber(ra) < tonumber(rb)
  end)
  return #labels > 0 and table.concat(labels, ", ") or "none"
end

-- grid_text(view, frame) -> the matrix with column letters on top and row labels on the left
function M.grid_text(view, fname)
  local f, size = M.frame(fname), view.size
  local cell = {}
  for _, p in ipairs(view.black) do cell[p] = "1" end
  for _, p in ipairs(view.white) do cell[p] = "2" end
  local width = #tostring(size)
  local head = { string.rep(" ", width) }
  for x = 1, size do head[#head + 1] = f.letters:sub(x, x) end
  local lines = { table.concat(head, " ") }
  for r = size, 1, -1 do                          -- top row first
    local row = { string.format("%" .. width .. "d", f.row_label(r, size)) }
    for x = 1, size do row[#row + 1] = cell[STD:sub(x, x) .. r] or "0" end
    lines[#lines + 1] = table.concat(row, " ")
  end
  return table.concat(lines, "\n")
end

-- board_text(P, view, modality, frame) -> the board blocks of a modality
function M.board_text(P, view, modality, fname)
  local f, size = M.frame(fname), view.size
  local ft = frame_text(P, fname, size)
  local blocks = {}
  for part in modality:gmatch("[^+]+") do
    if part == "symbolic" then
      blocks[#blocks + 1] = P:fill("symbolic", { size = size, frame = ft,
        black = listing(view.black, f, size), white = listing(view.white, f, size) })
    elseif part == "grid" then
      blocks[#blocks + 1] = P:fill("grid", { frame = (modality == "grid") and ft or "", grid = M.grid_text(view, fname) })
    elseif part == "visual" then
      blocks[#blocks + 1] = P:fill("visual", { frame = (modality == "visual") and ft or "" })
    else
      error("unknown modality part " .. part)
    end
  end
  for i, b in ipairs(blocks) do blocks[i] = b:gsub(" +\n", "\n"):gsub(" +$", "") end
  return table.concat(blocks, "\n\n")
end

local SIDE = { B = "Black", W = "White" }

-- text(spec) -> the prompt text. spec: P, view, modality, frame ("standard"),
-- options ({ A = point, ..., order } or nil for open), terse (bool)
function M.text(spec)
  local fname = spec.frame or "standard"
  local f, size = M.frame(fname), spec.view.size
  local values = { board = M.board_text(spec.P, spec.view, spec.modality, fname), side = SIDE[spec.view.to_play],
    example = f.label(STD:sub(size, size) .. (size - 1), size) }
  local name
  if spec.options then
    local lines = {}
    for i, l in ipairs({ "A", "B", "C", "D" }) do lines[i] = l .. ". " .. f.label(spec.options[l], size) end
    values.options = table.concat(lines, "\n")
    name = spec.terse and "terse_bounded" or "bounded"
  else
    name = spec.terse and "terse_open" or "open"
  end
  return spec.P:fill(name, values)
end

-- content(spec, png) -> the user message content: text, or text and the picture
function M.content(spec, png)
  local text = M.text(spec)
  if not spec.modality:find("visual", 1, true) then return text, text end
  return { { type = "text", text = text }, { type = "image", data = png, mime = "image/png", detail = spec.detail } }, text
end

return M
