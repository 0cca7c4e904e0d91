-- games.go.collect — problem files (SGF collections, sanderland JSON) into
-- normalized problems, with what the source says about tier and license
-- taken from the folder names of ../shared/data (see its README).
local problem = require "games.go.problem"
local json = require "tabula.json"
local fs = require "tabula.fs"

local M = {}

-- what each known collection is: matched against the path
M.SOURCES = {
  { "gogameguru/easy", source = "gogameguru", tier = "Easy", license = "CC BY-NC-SA 4.0" },
  { "gogameguru/intermediate", source = "gogameguru", tier = "Intermediate", license = "CC BY-NC-SA 4.0" },
  { "gogameguru/hard", source = "gogameguru", tier = "Hard", license = "CC BY-NC-SA 4.0" },
  { "gogameguru", source = "gogameguru", license = "CC BY-NC-SA 4.0" },
  { "tsumegobench%-gp", source = "goproblems", license = "goproblems.com, by the named authors" },
  { "cho%-chikun%-elementary", source = "cho-chikun", tier = "Easy", license = "copyrighted book: local evaluation only" },
  { "cho%-chikun%-advanced", source = "cho-chikun", tier = "Hard", license = "copyrighted book: local evaluation only" },
  { "cho%-elementary", source = "cho-chikun", tier = "Easy", license = "copyrighted book: local evaluation only" },
  { "misc%-json", source = "cho-chikun", tier = "Hard", license = "copyrighted book: local evaluation only" },
  { "go%-seigen", source = "go-seigen", license = "copyrighted book: local evaluation only" },
  { "xuanxuan", source = "xuanxuan-qijing", license = "public domain" },
  { "xxqj", source = "xuanxuan-qijing", license = "public domain" },
  { "hatsuyoron", source = "igo-hatsuyoron", license = "public domain" },
  { "gokyo", source = "gokyo-shumyo", license = "public domain" },
}

local function meta_for(path)
  for _, s in ipairs(M.SOURCES) do
    if path:find(s[1]) then return { source = s.source, tier = s.tier, license = s.license } end
  end
  return { source = (path:match("([^/]+)/[^/]+$") or "local"), license = "unknown" }
end

-- goproblems ranks from a manifest.json beside the files
local manifests = {}
local function rank_of(path)
  local dir, base = path:match("^(.*)/([^/]+)$")
  if not dir then return nil end
  if manifests[dir] == nil then
    manifests[dir] = false
    local text = fs.read(dir .. "/manifest.json")
    local m = text and json.decode(text)
    if type(m) == "table" and type(m.problems) == "table" then
      local ranks = {}
      for _, e in ipairs(m.problems) do ranks[tostring(e.id)] = e.rank end
      manifests[dir] = ranks
    end
  end
  local id = base:match("(%d+)%.sgf$")
  return manifests[dir] and id and manifests[dir][id] or nil
end

-- files(args) -> sorted list of problem files under the given files/folders
function M.files(args)
  local out = {}
  local function add(p)
    local kind = fs.kind(p)
    if kind == "dir" then
      for _, n in ipairs(fs.list(p) or {}) do add(p .. "/" .. n) end
    elseif kind == "file" and (p:match("%.sgf$") or (p:match("%.json$") and not p:match("manifest%.json$"))) then
      out[#out + 1] = p
    elseif not kind then
      require("tabula.cli").fail("no such file or folder: %s", p)
    end
  end
  for _, a in ipairs(args) do add(a) end
  table.sort(out)
  return out
end

-- load(path) -> problems, errors (a file's problems, each with source metadata)
function M.load(path)
  local text = fs.read(path)
  if not text then return {}, { path .. ": cannot be read" } end
  local meta = meta_for(path)
  meta.file = path:match("([^/]+/[^/]+)$") or path
  meta.rank = rank_of(path)
  if path:match("%.json$") then
    local t, err = json.decode(text)
    if t == nil then return {}, { path .. ": invalid JSON: " .. tostring(err) } end
    local bad = problem.json_problem_error(t)
    if bad then return {}, { path .. ": " .. bad } end
    meta.id = meta.source .. ":" .. meta.file
    return { problem.from_json(t, meta) }, {}
  end
  local list, errs = problem.from_sgf(text, meta)
  for _, p in ipairs(list) do
    p.id = meta.source .. ":" .. meta.file .. (p.index and ("#" .. p.index) or "")
  end
  return list, errs
end

-- the Go folders of ../shared/data (its README)
M.SHARED = { "gogameguru", "tsumegobench-gp", "kisvadim-goproblems", "sanderland-tsumego", "tasuki2sgf" }

-- shared(data [, names]) -> the problems under the named folders of data (a
-- list or a comma-separated string; default M.SHARED), file by file, without
-- those a fatal check (games.go.checks) rules out
function M.shared(data, names)
  if type(names) == "string" and names ~= "" then
    local list = {}
    for d in names:gmatch("[^,]+") do list[#list + 1] = d end
    names = list
  elseif type(names) ~= "table" then
    names = M.SHARED
  end
  local folders = {}
  for _, d in ipairs(names) do folders[#folders + 1] = data .. "/" .. d end
  local checks = require "games.go.checks"
  local out = {}
  for _, f in ipairs(M.files(folders)) do
    for _, p in ipairs((M.load(f))) do
      if not checks.fatal(p) then out[#out + 1] = p end
    end
  end
  return out
end

return M
