-- scenarios/tsugo/prompts.lua — TsuGO's prompts: the board in each modality,
-- the bounded (K=4) and open templates and their terse answer-only forms
-- (prompts/tsugo/*.txt), and the coordinate frames (standard, relabeled).
--
-- Modalities: symbolic (coordinate lists), grid (0/1/2 matrix with labels),
-- symbolic+grid, visual (the PNG attached), symbolic+visual.
-- Frames: standard = columns A-T without I, rows from the bottom (T18);
-- "relabeled:SEED" = the seeded coordinate relabeling of games.go.transform
-- (column letters and row numbers shuffled with SEED, listed in the prompt).
-- Points inside tabula are always standard; a frame only changes what the
-- model reads and writes (label: standard GTP -> shown; parse: shown ->
-- standard GTP, so predictions map back).
local go = require "games.go"
local gt = require "games.go.transform"
local trees = require "scenarios.tsugo.trees"

local M = {}

M.MODALITIES = { "symbolic", "grid", "symbolic+grid", "visual", "symbolic+visual" }
local STD = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

local STANDARD = {
  name = "standard",
  label = function(p) return p end,
  parse = function(s, size) return trees.point(s, size) end,
  cols = function(size) local out = {} for x = 1, size do out[x] = STD:sub(x, x) end return out end,
  rows = function(size) local out = {} for i = 1, size do out[i] = tostring(size + 1 - i) end return out end,   -- top first
  sentence = function(P, size)
    return P:fill("frame_standard", { first_col = "A", last_col = STD:sub(size, size), size = size })
  end,
}

local function relabeled(seed)
  local by_size = {}
  local function R(size) by_size[size] = by_size[size] or gt.relabel(size, seed); return by_size[size] end
  return {
    name = "relabeled:" .. seed,
    label = function(p, size) return R(size).label(go.from_gtp(p, size)) end,
    parse = function(s, size)
      local c, r = (s or ""):upper():match("^%s*(%a)%s*(%d%d?)%s*$")
      local pt = c and R(size).point(c .. tonumber(r))
      return pt and go.to_gtp(pt, size) or nil
    end,
    cols = function(size) return R(size).cols end,
    rows = function(size) return R(size).rows end,
    sentence = function(P, size)
      return P:fill("frame_relabeled", { cols = table.concat(R(size).cols, " "), rows = table.concat(R(size).rows, " "), size = size })
    end,
  }
end

local frames = { standard = STANDARD }

-- frame(name) -> the frame: "standard" or "relabeled:SEED"
function M.frame(name)
  if frames[name] then return frames[name] end
  local seed = tostring(name):match("^relabeled:(%d+)$")
  if not seed then error("unknown coordinate frame " .. tostring(name)) end
  frames[name] = relabeled(math.tointeger(tonumber(seed)))
  return frames[name]
end

-- the frame sentence
local function frame_text(P, fname, size) return M.frame(fname).sentence(P, size) end

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

-- grid_text(view, frame) -> the matrix with column labels on top and row labels on the left
function M.grid_text(view, fname)
  local f, size = M.frame(fname), view.size
  local cell = {}
  for _, p in ipairs(view.black) do cell[p] = "1" end
  for _, p in ipairs(view.white) do cell[p] = "2" end
  local width = #tostring(size)
  local head = { string.rep(" ", width) }
  for _, c in ipairs(f.cols(size)) do head[#head + 1] = c end
  local lines = { table.concat(head, " ") }
  for i, label in ipairs(f.rows(size)) do          -- top row first
    local r = size + 1 - i                          -- standard row number
    local row = { string.format("%" .. width .. "s", label) }
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
