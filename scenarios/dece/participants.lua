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
-- Harness "program": an agent program launched by tabula plays for the model (tabula.program):
--         "harness": { "program": "codex" | "opencode" | "qwen-code" | "claude-code" | "gemini-cli"
--                                 | { "command": ["prog", "{prompt}", ...], "env": {...} },
--                      "session": "fresh" | "native", "decision_timeout": 1200, "grace": 10,
--                      "model_policy": "refuse" | "rewrite", ... the tools harness's options }
-- It plays through tools (its seat's MCP tools); its instruction is the prompt folder's
-- program/ templates (hashed); the hash of the configuration it is given is in the manifest.
local json = require "tabula.json"
local fs = require "tabula.fs"
local cli = require "tabula.cli"
local models = require "tabula.models"
local host = require "tabula.c.host"

local M = {}

M.BUILTIN = { random = true, heuristic = true, ismcts = true }

M.HARNESS_DEFAULTS = { prompts = "prompts/dece", format = "text", legal_actions = true, tools = {},
  max_tools = 3, memory = "none", retries = 0, fallback = "none" }

-- the participants of a run without --participants: sized so that the default run (the ten
-- games, one block of three matches each) takes a few minutes on two cores (README.md); the
-- paper's ISMCTS (1024 simulations of 18 steps, the default of an "ismcts" entry that gives
-- none) is one participants file away
M.DEFAULT = {
  { name = "random", player = "random" },
  { name = "heuristic", player = "heuristic", epsilon = 0.1 },
  { name = "ismcts", player = "ismcts", simulations = 32, steps = 18 },
}

local TOOLS = { rules = true, state = true, simulate = true }
local FORMATS = { text = true, json = true }
local FALLBACKS = { none = true, random = true, heuristic = true }

-- the largest values a built-in player takes: beyond them a match would not end
-- in any useful time (the paper's ISMCTS: 1024 simulations of 18 steps, 30 s)
M.MAX_SIMULATIONS, M.MAX_STEPS, M.MAX_TIME_TARGET = 1000000, 10000, 3600

-- the fields each built-in player takes
local PLAYER_FIELDS = {
  random = { name = true, player = true },
  heuristic = { name = true, player = true, epsilon = true },
  ismcts = { name = true, player = true, epsilon = true, simulations = true, steps = true, time_target = true },
}

-- shown(v) -> v as the file wrote it, for an error line
local function shown(v)
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) == "table" then return "a " .. (#v > 0 and "list" or "table") end
  return tostring(v)
end

-- check_epsilon(v, where) -> the exploration rate: a number in [0, 1], 0.1 when absent
local function check_epsilon(v, where)
  if v == nil then return 0.1 end
  if type(v) ~= "number" or not (v >= 0 and v <= 1) then
    cli.fail("%s: epsilon must be a number from 0 to 1, not %s", where, shown(v))
  end
  return v
end

-- check_count(v, default, field, max, where) -> a whole number from 1 to max
local function check_count(v, default, field, max, where)
  if v == nil then return default end
  local n = type(v) == "number" and math.tointeger(v) or nil
  if not n or n < 1 or n > max then
    cli.fail("%s: %s must be a whole number from 1 to %d, not %s", where, field, max, shown(v))
  end
  return n
end

-- the sampling settings a model participant takes (as the run's --temperature,
-- --top-p, --max-tokens, --reasoning-effort, --thinking-budget), and its budget per match
local SAMPLING = { temperature = "number", top_p = "number", max_tokens = "count", reasoning_effort = "string",
  thinking_budget = "tokens" }
local BUDGET = { max_output_tokens = "count", max_cost = "amount" }

local function sorted_keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out)
  return table.concat(out, ", ")
end

-- check_fields(t, kinds, what, where): a table of known fields, each of its kind
local function check_fields(t, kinds, what, where)
  if type(t) ~= "table" or (next(t) ~= nil and #t > 0) then cli.fail("%s: %s must be an object {...}", where, what) end
  for k, v in pairs(t) do
    local kind = kinds[k]
    if not kind then cli.fail("%s: unknown %s field '%s' (valid: %s)", where, what, tostring(k), sorted_keys(kinds)) end
    local ok
    if kind == "number" then ok = type(v) == "number" and v == v and v > -math.huge and v < math.huge
    elseif kind == "string" then ok = type(v) == "string" and v ~= ""
    elseif kind == "count" then ok = math.type(v) == "integer" or (type(v) == "number" and math.tointeger(v) ~= nil); ok = ok and v >= 1
    elseif kind == "tokens" then ok = (type(v) == "number" and math.tointeger(v) ~= nil) and v >= 0
    elseif kind == "amount" then ok = type(v) == "number" and v >= 0 and v < math.huge end
    if not ok then
      local want = ({ number = "a number", string = "a text", count = "a whole number >= 1", tokens = "a whole number >= 0",
        amount = "a number >= 0" })[kind]
      cli.fail("%s: %s.%s must be %s, not %s", where, what, k, want, shown(v))
    end
  end
end

-- the fields of a harness "program" (an agent program plays for the model: tabula.program)
local PROGRAM_FIELDS = { program = true, session = true, decision_timeout = true, grace = true, model_policy = true }

local function check_harness(h, where, cfg)
  for k in pairs(h) do
    if M.HARNESS_DEFAULTS[k] == nil and k ~= "protocol" and not PROGRAM_FIELDS[k] then
      cli.fail("%s: unknown harness option '%s' (valid: prompts, format, legal_actions, tools, max_tools, memory, retries, fallback, protocol; for an agent program: program, session, decision_timeout, grace, model_policy)", where, k)
    end
  end
  if h.program == nil then
    for k in pairs(PROGRAM_FIELDS) do
      if h[k] ~= nil then cli.fail("%s: harness option %s is for an agent program (give \"program\")", where, k) end
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
  if h.program ~= nil then
    if h.protocol == "text" then cli.fail("%s: an agent program plays through tools (its seat's MCP tools): drop protocol text", where) end
    if cfg.provider == "builtin" or cfg.provider == "mcp" then cli.fail("%s: an agent program needs a model served over HTTP, not %s", where, tostring(cfg.name)) end
    out.protocol = "tools"
    out.program = require("tabula.program").normalize(h, where, cfg)
  end
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

-- normalize(entry, where, models_file [, sampling_defaults]) -> participant { name,
-- kind, manifest, id, sampling_from_run }: sampling_defaults (the run's sampling
-- options, by setting name) fill what a model participant's "sampling" does not
-- set; they are part of its manifest (and identity), and sampling_from_run names them
function M.normalize(e, where, models_file, sampling_defaults)
  if type(e) ~= "table" or type(e.name) ~= "string" or not e.name:match("^[%w_.:@+-]+$") then
    cli.fail("%s: a participant needs a \"name\" (letters, digits, _ . : @ + -)", where)
  end
  where = where .. " (" .. e.name .. ")"
  local man, from_run = { name = e.name }, nil
  -- a null arm's copy (--null-arm): the same configuration under other random streams
  if e.null_of ~= nil then man.null_of, man.seed_salt = e.null_of, 1 end
  if e.player then
    if not M.BUILTIN[e.player] then cli.fail("%s: player must be random, heuristic or ismcts, not %s", where, tostring(e.player)) end
    if e.model then cli.fail("%s: give either player or model", where) end
    man.player = e.player
    for k in pairs(e) do
      if not PLAYER_FIELDS[e.player][k] and k ~= "null_of" then
        local valid = {}
        for f in pairs(PLAYER_FIELDS[e.player]) do valid[#valid + 1] = f end
        table.sort(valid)
        cli.fail("%s: unknown field '%s' for player %s (valid: %s)", where, tostring(k), e.player, table.concat(valid, ", "))
      end
    end
    if e.player == "heuristic" then man.epsilon = check_epsilon(e.epsilon, where) end
    if e.player == "ismcts" then
      man.simulations = check_count(e.simulations, 1024, "simulations", M.MAX_SIMULATIONS, where)
      man.steps = check_count(e.steps, 18, "steps", M.MAX_STEPS, where)
      man.epsilon = check_epsilon(e.epsilon, where)
      -- a wall-time target per decision (seconds; the paper's 30) besides the cap: recorded
      -- only when given, so a configuration without one keeps its identity
      if e.time_target ~= nil then
        if type(e.time_target) ~= "number" or not (e.time_target > 0 and e.time_target <= M.MAX_TIME_TARGET) then
          cli.fail("%s: time_target must be a number of seconds > 0 and at most %d, not %s", where, M.MAX_TIME_TARGET, shown(e.time_target))
        end
        man.time_target = e.time_target
      end
    end
  elseif type(e.model) == "string" then
    local cfg = models.resolve(e.model, models_file)
    man.model = e.model
    man.provider = models.public(cfg)
    man.prices = cfg.prices or json.null
    man.harness = check_harness(e.harness or {}, where, cfg)
    check_fields(e.sampling or {}, SAMPLING, "sampling", where)
    check_fields(e.budget or {}, BUDGET, "budget", where)
    -- the run's sampling options (--temperature, ...) for what the file does not set
    local smp = json.object()
    from_run = {}
    for k, v in pairs(e.sampling or {}) do smp[k] = (SAMPLING[k] == "count" or SAMPLING[k] == "tokens") and math.tointeger(v) or v end
    for k, v in pairs(sampling_defaults or {}) do
      if smp[k] == nil then smp[k], from_run[k] = v, true end
    end
    man.sampling = smp
    man.budget = e.budget or json.object()
    man.prompt_sha256 = prompt_hashes(man.harness.prompts, man.harness.protocol == "tools")
    if man.harness.program then   -- the program's instruction, in the folder's program/
      local dir = man.harness.prompts
      local path = dir:sub(1, 1) == "/" and dir or (host.root .. "/" .. dir)
      if fs.kind(path .. "/program") ~= "dir" then cli.fail("prompt folder %s has no program/ folder (harness program)", dir) end
      for f, hsh in pairs((prompt_hashes(dir .. "/program"))) do man.prompt_sha256["program/" .. f] = hsh end
    end
    if cfg.provider == "mcp" and man.harness.protocol ~= "tools" then
      cli.fail("%s: model mcp (an agent program over MCP) plays through tools: give \"harness\": {\"protocol\": \"tools\"}", where)
    end
  else
    cli.fail("%s: a participant needs \"player\" (random, heuristic, ismcts) or \"model\"", where)
  end
  local id = fs.sha256(json.canonical(man)):sub(1, 16)
  return { name = e.name, kind = man.player or "model", manifest = man, id = id, sampling_from_run = from_run }
end

-- load(path | nil, models_file [, sampling_defaults [, null_arms]]) -> list of participants (the
-- three baselines without a file); null_arms: names of participants entered a second time as
-- NAME+null, the same configuration under other random streams (its manifest says null_of, so
-- it is another identity): the robustness appendix's noise floor (issue 48)
function M.load(path, models_file, sampling_defaults, null_arms)
  local list, where = M.DEFAULT, "built-in participants"
  if path then
    local doc = json.read_file(path)
    list = type(doc) == "table" and (doc.participants or doc) or nil
    if type(list) ~= "table" or #list == 0 then cli.fail("%s: want {\"participants\": [ ... ]} with at least one entry", path) end
    where = path
  end
  local out, seen = {}, {}
  if null_arms and #null_arms > 0 then
    local copy = {}
    for i, e in ipairs(list) do copy[i] = e end
    for _, nm in ipairs(null_arms) do
      local orig
      for _, e in ipairs(list) do if type(e) == "table" and e.name == nm then orig = e end end
      if not orig then cli.fail("--null-arm %s: no participant of that name (%s)", nm, where) end
      local e = {}
      for k, v in pairs(orig) do e[k] = v end
      e.name, e.null_of = nm .. "+null", nm
      copy[#copy + 1] = e
    end
    list = copy
  end
  for i, e in ipairs(list) do
    local p = M.normalize(e, string.format("%s: participant %d", where, i), models_file, sampling_defaults)
    if seen[p.name] then cli.fail("%s: participant name %s appears twice", where, p.name) end
    seen[p.name] = true
    out[#out + 1] = p
  end
  return out
end

return M
