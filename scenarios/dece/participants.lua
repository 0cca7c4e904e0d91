-- scenarios/dece/participants.lua — who plays: named configurations read from a
-- participants file (JSON), each identified by the hash of its manifest.
--
--   { "participants": [
--       { "name": "random", "player": "random" },
--       { "name": "heuristic", "player": "heuristic", "epsilon": 0.1 },
--       { "name": "ismcts", "player": "ismcts", "simulations": 1024, "steps": 18 },
--       { "name": "ismcts-30s", "player": "ismcts", "simulations": 1024, "time_target": 30 },
--       { "name": "gpt-json", "model": "openai:gpt-5.5",
--         "harness": { "prompts": "prompts/dece", "format": "json", "legal_actions": true,
--                      "tools": ["rules", "state", "simulate"], "max_tools": 3,
--                      "memory": "full" | "none" | "last:5" | "notes",
--                      "retries": 0, "fallback": "none" | "random" | "heuristic",
--                      "protocol": "text" | "tools" },
--         "sampling": { "temperature": 0.2, "max_tokens": 4000, "reasoning_effort": "low" },
--         "budget": { "max_output_tokens": 200000, "max_cost": 2.0 } } ] }
--
-- The manifest is the entry with every default filled in, the model's resolved provider
-- settings and price table (frozen into the run), and the sha256 of each prompt file the
-- harness reads; its sha256 (first 16 hex digits) is the participant's identity.
-- Harness protocol "tools" (scenarios/dece/tools.lua): the action and the queries as native
-- tool calls, with the prompt folder's tools/ templates (hashed too); it is recorded only
-- when given, so a text harness keeps its identity. Model "mcp": the seat of an agent program
-- under tabula mcp dece (its decisions arrive through the MCP server); it takes protocol tools.
local json = require "tabula.json"
local fs = require "tabula.fs"
local cli = require "tabula.cli"
local models = require "tabula.models"
local host = require "tabula.c.host"

local M = {}

M.BUILTIN = { random = true, heuristic = true, ismcts = true }

M.HARNESS_DEFAULTS = { prompts = "prompts/dece", format = "text", legal_actions = true, tools = {},
  max_tools = 3, memory = "none", retries = 0, fallback = "none" }

M.DEFAULT = {
  { name = "random", player = "random" },
  { name = "heuristic", player = "heuristic", epsilon = 0.1 },
  { name = "ismcts", player = "ismcts", simulations = 1024, steps = 18 },
}

local TOOLS = { rules = true, state = true, simulate = true }
local FORMATS = { text = true, json = true }
local FALLBACKS = { none = true, random = true, heuristic = true }

local function check_harness(h, where)
  for k in pairs(h) do
    if M.HARNESS_DEFAULTS[k] == nil and k ~= "protocol" then
      cli.fail("%s: unknown harness option '%s' (valid: prompts, format, legal_actions, tools, max_tools, memory, retries, fallback, protocol)", where, k)
    end
  end
  local out = {}
  for k, v in pairs(M.HARNESS_DEFAULTS) do out[k] = h[k] == nil and v or h[k] end
  if h.protocol ~= nil and h.protocol ~= "text" and h.protocol ~= "tools" then
    cli.fail("%s: harness protocol must be text or tools, not %s", where, tostring(h.protocol))
  end
  out.protocol = h.protocol == "tools" and "tools" or nil   -- the text harness's manifest is unchanged
  if not FORMATS[out.format] then cli.fail("%s: harness format must be text or json, not %s", where, tostring(out.format)) end
  if type(out.legal_actions) ~= "boolean" then cli.fail("%s: harness legal_actions must be true or false", where) end
  if type(out.tools) ~= "table" then cli.fail("%s: harness tools must be a list", where) end
  for _, tl in ipairs(out.tools) do
    if not TOOLS[tl] then cli.fail("%s: unknown tool '%s' (valid: rules, state, simulate)", where, tostring(tl)) end
  end
  local m = out.memory
  if not (m == "none" or m == "full" or m == "notes" or (type(m) == "string" and m:match("^last:%d+$"))) then
    cli.fail("%s: harness memory must be none, full, notes or last:N, not %s", where, tostring(m))
  end
  if math.type(out.retries) ~= "integer" or out.retries < 0 then cli.fail("%s: harness retries must be an integer >= 0", where) end
  if not FALLBACKS[out.fallback] then cli.fail("%s: harness fallback must be none, random or heuristic", where) end
  return out
end

-- prompt_hashes(dir) -> { [file] = sha256 } of the prompt folder's .txt files
local function prompt_hashes(dir, tools)
  local path = dir:sub(1, 1) == "/" and dir or (host.root .. "/" .. dir)
  if fs.kind(path) ~= "dir" then cli.fail("prompt folder %s does not exist", dir) end
  local r = {}
  for _, f in ipairs(fs.list(path) or {}) do
    if f:match("%.txt$") then r[f] = fs.sha256(fs.read(path .. "/" .. f)) end
  end
  if tools then   -- the tools protocol's templates, in the folder's tools/
    if fs.kind(path .. "/tools") ~= "dir" then cli.fail("prompt folder %s has no tools/ folder (harness protocol tools)", dir) end
    for f, h in pairs((prompt_hashes(dir .. "/tools"))) do r["tools/" .. f] = h end
  end
  return r, path
end

-- normalize(entry, where, models_file) -> participant { name, kind, manifest, id, ... }
function M.normalize(e, where, models_file)
  if type(e) ~= "table" or type(e.name) ~= "string" or not e.name:match("^[%w_.:@+-]+$") then
    cli.fail("%s: a participant needs a \"name\" (letters, digits, _ . : @ + -)", where)
  end
  where = where .. " (" .. e.name .. ")"
  local man = { name = e.name }
  if e.player then
    if not M.BUILTIN[e.player] then cli.fail("%s: player must be random, heuristic or ismcts, not %s", where, tostring(e.player)) end
    if e.model then cli.fail("%s: give either player or model", where) end
    man.player = e.player
    if e.player == "heuristic" then man.epsilon = e.epsilon or 0.1 end
    if e.player == "ismcts" then
      man.simulations = e.simulations or 1024
      man.steps = e.steps or 18
      man.epsilon = e.epsilon or 0.1
      -- a wall-time target per decision (seconds; the paper's 30) besides the cap: recorded
      -- only when given, so a configuration without one keeps its identity
      if e.time_target ~= nil then
        if type(e.time_target) ~= "number" or e.time_target <= 0 then cli.fail("%s: time_target must be a number of seconds > 0", where) end
        man.time_target = e.time_target
      end
    end
  elseif type(e.model) == "string" then
    local cfg = models.resolve(e.model, models_file)
    man.model = e.model
    man.provider = models.public(cfg)
    man.prices = cfg.prices or json.null
    man.harness = check_harness(e.harness or {}, where)
    man.sampling = e.sampling or json.object()
    man.budget = e.budget or json.object()
    man.prompt_sha256 = prompt_hashes(man.harness.prompts, man.harness.protocol == "tools")
    if cfg.provider == "mcp" and man.harness.protocol ~= "tools" then
      cli.fail("%s: model mcp (an agent program over MCP) plays through tools: give \"harness\": {\"protocol\": \"tools\"}", where)
    end
  else
    cli.fail("%s: a participant needs \"player\" (random, heuristic, ismcts) or \"model\"", where)
  end
  local id = fs.sha256(json.canonical(man)):sub(1, 16)
  return { name = e.name, kind = man.player or "model", manifest = man, id = id }
end

-- load(path | nil, models_file) -> list of participants (the three baselines without a file)
function M.load(path, models_file)
  local list, where = M.DEFAULT, "built-in participants"
  if path then
    local doc = json.read_file(path)
    list = type(doc) == "table" and (doc.participants or doc) or nil
    if type(list) ~= "table" or #list == 0 then cli.fail("%s: want {\"participants\": [ ... ]} with at least one entry", path) end
    where = path
  end
  local out, seen = {}, {}
  for i, e in ipairs(list) do
    local p = M.normalize(e, string.format("%s: participant %d", where, i), models_file)
    if seen[p.name] then cli.fail("%s: participant name %s appears twice", where, p.name) end
    seen[p.name] = true
    out[#out + 1] = p
  end
  return out
end

return M
