-- scenarios/tsugo/problems.lua — reading normalized problems (one JSON object
-- per line, the games.go.problem form written by `tabula problems go`) for
-- TsuGO, the spec's normalization checks, the selection options, and the
-- board picture for the visual modalities.
--
-- Kept only when (the dropped ones are listed with the reason in run.json):
-- the side to play is known, there is at least one correct first move, no
-- point holds two stones, every correct first move is an empty point legal for
-- the side to play, and (spec: not ko-dependent) the goal is not "ko".
local json = require "tabula.json"
local fs = require "tabula.fs"
local cli = require "tabula.cli"
local go = require "games.go"

local M = {}

-- check(p) -> nil | why
function M.check(p)
  if p.to_play ~= "black" and p.to_play ~= "white" then return "the side to play is unknown" end
  if type(p.correct) ~= "table" or #p.correct == 0 then return "no correct first move" end
  if p.goal == "ko" then return "ko-dependent" end
  local seen = {}
  for _, c in ipairs({ "black", "white" }) do
    for _, pt in ipairs(p.stones[c]) do
      if seen[pt] then return "two stones on " .. pt end
      seen[pt] = true
    end
  end
  local g = go.position(p.size, p.stones, p.to_play)
  for _, pt in ipairs(p.correct) do
    if g:get(pt) then return "correct move " .. pt .. " is occupied" end
    if not g:is_legal(pt, p.to_play) then return "correct move " .. pt .. " is illegal for " .. p.to_play end
  end
  return nil
end

-- load(path) -> problems, dropped ({ { id, why } ... })
function M.load(path)
  local text = fs.read(path)
  if not text then cli.fail("no problem file %s (give --problems FILE, made with `tabula problems go`)", path) end
  local list, dropped, n = {}, {}, 0
  for line in text:gmatch("[^\n]+") do
    n = n + 1
    if line:match("%S") then
      local p, err = json.decode(line)
      if type(p) ~= "table" then cli.fail("%s:%d: not a problem: %s", path, n, err or "not an object") end
      p.id = tostring(p.id or ("line" .. n))
      p.size = math.tointeger(p.size) or 19
      p.stones = p.stones or { black = {}, white = {} }
      p.stones.black, p.stones.white = p.stones.black or {}, p.stones.white or {}
      p.tree = p.tree or {}
      local why = M.check(p)
      if why then dropped[#dropped + 1] = { id = p.id, why = why } else list[#list + 1] = p end
    end
  end
  return list, dropped
end

-- select(list, opts) -> the problems kept by --ids, --tier, --limit (in file order)
function M.select(list, opts)
  local keep_id, keep_tier
  if opts.ids then keep_id = {}; for _, id in ipairs(opts.ids) do keep_id[id] = true end end
  if opts.tier then keep_tier = {}; for _, t in ipairs(opts.tier) do keep_tier[t:lower()] = true end end
  local out = {}
  for _, p in ipairs(list) do
    if (not keep_id or keep_id[p.id]) and (not keep_tier or keep_tier[tostring(p.tier):lower()]) then
      if not opts.limit or #out < opts.limit then out[#out + 1] = p end
    end
  end
  if keep_id then
    local have = {}
    for _, p in ipairs(list) do have[p.id] = true end
    for _, id in ipairs(opts.ids) do
      if not have[id] then cli.fail("option --ids: no usable problem with id %s", id) end
    end
  end
  return out
end

-- the paper's robustness strata, in order
M.STRATA = { "Easy", "Medium", "Hard" }

-- stratified(list, n, seed) -> at most n problems stratified by tier (the
-- robustness protocol's sample), in file order. The strata are the tiers of
-- STRATA the list has (all its tiers, in order of first appearance, when it
-- has none of them); the n places go round the strata one at a time, a
-- stratum with no problem left being skipped; inside a stratum the problems
-- are drawn in the order of a shuffle with the seed.
function M.stratified(list, n, seed)
  local by, order = {}, {}
  for _, p in ipairs(list) do
    local t = tostring(p.tier)
    if not by[t] then by[t] = {}; order[#order + 1] = t end
    table.insert(by[t], p)
  end
  local strata = {}
  for _, t in ipairs(M.STRATA) do if by[t] then strata[#strata + 1] = t end end
  if #strata == 0 then strata = order end
  local rng = require("tabula.metrics").rng(seed)
  local pools = {}
  for i, t in ipairs(strata) do
    local pool = {}
    for j, p in ipairs(by[t]) do pool[j] = p end
    for j = #pool, 2, -1 do local k = rng(j); pool[j], pool[k] = pool[k], pool[j] end
    pools[i] = pool
  end
  local chosen, taken, left = {}, {}, true
  while #taken < n and left do
    left = false
    for i = 1, #strata do
      if #taken < n and #pools[i] > 0 then
        local p = table.remove(pools[i], 1)
        chosen[p] = true; taken[#taken + 1] = p
        left = true
      end
    end
  end
  local out = {}
  for _, p in ipairs(list) do if chosen[p] then out[#out + 1] = p end end
  return out
end

-- renderer() -> function(problem, frame) -> PNG bytes, or nil when the Go
-- board picture is not available in this build
function M.renderer()
  local ok, render = pcall(require, "games.go.render")
  if not ok or type(render) ~= "table" or not render.png then return nil end
  return function(p, frame)
    local png, err = render.png(p, { frame = frame })
    if not png then error({ infra = true, message = "cannot draw problem " .. tostring(p.id) .. ": " .. tostring(err) }) end
    return png
  end
end

return M
