-- tabula.model_settings — fit a run's settings to what the model accepts
-- (tabula.capabilities). A setting the model refuses is dropped or clamped and
-- recorded ({setting, asked, sent, why}); if the user set it explicitly, it is
-- an error before any call. --reasoning-effort and --thinking-budget are mapped
-- onto the family's own switch by the tables in tabula.capabilities.
--
--   local fam = ms.family(cfg)
--   local sent, adjusted, notes = ms.fit(cfg, settings, explicit)
--   sent.thinking = nil | { off = true } | { effort = "high" } | { budget = 8192 } | { level = "low" } | {} (on, the model's default)
local cli = require "tabula.cli"
local caps = require "tabula.capabilities"

local M = {}

-- the option a setting comes from
M.OPTION = { temperature = "temperature", top_p = "top-p", top_k = "top-k", max_tokens = "max-tokens",
  reasoning_effort = "reasoning-effort", thinking_budget = "thinking-budget", think = "think" }

local function matches(fam, model)
  for _, p in ipairs(fam.match or {}) do if model:find(p) then return true end end
  return false
end

local function merged(base, over)
  local c = {}
  for k, v in pairs(base or {}) do c[k] = v end
  for k, v in pairs(over or {}) do c[k] = v end
  return c
end

-- family(cfg) -> the capability row of cfg's model (models-file overrides applied)
function M.family(cfg)
  local model = tostring(cfg.model or ""):gsub("^models/", ""):gsub("^[%w%-]+/", "")   -- vendor/model -> model
  local found, default
  for _, fam in ipairs(caps.families) do
    if fam.provider == cfg.provider then
      if cfg.family and fam.name == cfg.family then found = fam; break end
      if not cfg.family and not found and matches(fam, model) then found = fam end
      if fam.default then default = default or fam end
    end
  end
  if cfg.family and not found then
    local names = {}
    for _, fam in ipairs(caps.families) do if fam.provider == cfg.provider then names[#names + 1] = fam.name end end
    cli.fail("model %s: unknown family '%s' for provider %s (one of %s)", tostring(cfg.name), cfg.family, tostring(cfg.provider),
      table.concat(names, ", "))
  end
  return merged(found or default or { name = tostring(cfg.provider), thinking = "passthrough", sampling = { temperature = { 0, 2 }, top_p = { 0, 1 } }, output = {} },
    cfg.capabilities)
end

local function rank(e)
  for i, x in ipairs(caps.scale) do if x == e then return i end end
  return nil
end

-- nearest(levels, e) -> the family's level nearest to e on the scale (ties go up)
local function nearest(levels, e)
  local r = rank(e) or rank("medium")
  local best, bd
  for _, l in ipairs(levels) do
    local d = math.abs((rank(l) or r) - r)
    if not bd or d < bd or (d == bd and (rank(l) or 0) > (rank(best) or 0)) then best, bd = l, d end
  end
  return best
end

local function effort_of_budget(b)
  for _, row in ipairs(caps.effort_for_budget) do if b <= row[1] then return row[2] end end
  return "max"
end

local function has(list, v)
  for _, x in ipairs(list or {}) do if x == v then return true end end
  return false
end

-- known_ids(provider) -> the model ids the capability table lists for a provider
function M.known_ids(provider)
  local out = {}
  for _, fam in ipairs(caps.families) do
    if fam.provider == provider then for _, id in ipairs(fam.ids or {}) do out[#out + 1] = id end end
  end
  return out
end

-- check_id(cfg) -> nil when cfg's model id is one the table lists for its
-- provider (or a dated snapshot of one: ID-2025-11-01, ID-20251101), or the
-- provider lists none; else the listed id closest to it (or false if none is near)
function M.check_id(cfg)
  local ids = M.known_ids(cfg.provider)
  if #ids == 0 then return nil end
  local model = tostring(cfg.model or ""):gsub("^models/", "")
  for _, id in ipairs(ids) do
    if model == id then return nil end
    local rest = model:sub(#id + 1)
    if model:sub(1, #id) == id and (rest:match("^%-%d%d%d%d%-%d%d%-%d%d$") or rest:match("^%-%d%d%d%d%d%d%d%d$")
      or rest:match("^@%d+$")) then
      return nil
    end
  end
  -- the closest: fewest edits with dots and dashes alike ("4.7" for "4-7"), an
  -- id typed without its suffix ("gemini-3.1-pro" for "gemini-3.1-pro-preview")
  -- counting one; ties: fewest edits as typed, then the shorter id
  local function norm(x) return (x:lower():gsub("[%._]", "-")) end
  local nm = norm(model)
  local best, best_d, best_raw
  for _, id in ipairs(ids) do
    local d = cli.distance(nm, norm(id))
    if #nm >= 3 and norm(id):sub(1, #nm + 1) == nm .. "-" then d = math.min(d, 1) end
    local raw = cli.distance(model, id)
    if not best_d or d < best_d or (d == best_d and (raw < best_raw or (raw == best_raw and #id < #best))) then
      best, best_d, best_raw = id, d, raw
    end
  end
  if best and best_d <= math.max(3, #model // 2) then return best end
  return false
end

-- id_warning(cfg) -> one line when cfg names a model id its provider's table
-- does not list (with the closest it lists), or nil
function M.id_warning(cfg)
  local closest = M.check_id(cfg)
  if closest == nil then return nil end
  return string.format("warning: model %s: '%s' is not a model id tabula knows for %s%s (README, Models; a newer model works as typed)",
    tostring(cfg.name), tostring(cfg.model), tostring(cfg.provider),
    closest and string.format("; the closest known id is '%s'", closest) or "")
end

-- not_found_hint(message, cfg) -> what to add to a "model not found" answer
-- (HTTP 404, not_found, does not exist) about cfg's model: the closest known id, or ""
function M.not_found_hint(message, cfg)
  local m = tostring(message)
  if not (m:find("HTTP 404", 1, true) or m:lower():find("not[ _]found") or m:find("does not exist", 1, true)) then return "" end
  local closest = M.check_id(cfg)
  if not closest then return "" end
  return string.format(" (model id '%s' is not one tabula knows for %s; the closest known id is '%s')", tostring(cfg.model),
    tostring(cfg.provider), closest)
end

-- fit(cfg, settings, explicit) -> sent, adjusted, notes (explicit: set of option names the user gave)
function M.fit(cfg, settings, explicit)
  explicit = explicit or {}
  local fam = M.family(cfg)
  local s, adjusted, notes = {}, require("tabula.json").array(), {}   -- adjusted: a JSON array even when empty
  for k, v in pairs(settings or {}) do s[k] = v end
  local who = string.format("model %s (family %s)", tostring(cfg.name), fam.name)
  -- refuse(setting, asked, sent, why, accepts): dropped/clamped, or an error if the user asked for it
  local function refuse(setting, asked, sent, why, accepts)
    local opt = M.OPTION[setting] or setting
    if explicit[opt] then
      cli.fail("--%s %s: %s %s", opt, tostring(asked), who, accepts or why)
    end
    adjusted[#adjusted + 1] = { setting = opt, asked = asked, sent = sent == nil and "not sent" or sent, why = why }
  end
  -- mapped(setting, asked, sent, why): a documented translation, recorded, never an error
  local function mapped(setting, asked, sent, why)
    adjusted[#adjusted + 1] = { setting = M.OPTION[setting] or setting, asked = asked, sent = sent, why = why }
  end

  -- thinking
  local mode = fam.thinking
  local effort, budget, think = s.reasoning_effort, s.thinking_budget, s.think
  s.reasoning_effort, s.thinking_budget, s.think = nil, nil, nil
  local off = think == false or effort == "none" or budget == 0
  local on = not off and (think == true or effort ~= nil or (budget ~= nil and budget ~= 0))
  local th
  if mode == "passthrough" then
    s.reasoning_effort, s.thinking_budget, s.think = effort, budget, think
  elseif mode == "none" then
    if effort ~= nil then refuse("reasoning_effort", effort, nil, fam.name .. " has no reasoning switch", "has no reasoning: it accepts no --reasoning-effort") end
    if budget ~= nil then refuse("thinking_budget", budget, nil, fam.name .. " has no reasoning switch", "has no reasoning: it accepts no --thinking-budget") end
    if think == true then refuse("think", true, nil, fam.name .. " has no reasoning switch", "has no reasoning: it accepts no --think") end
  elseif off then
    if mode == "effort" and has(fam.efforts, "none") then th = { effort = "none" }   -- off is the lowest effort
    elseif mode == "effort" and has(fam.efforts, "minimal") then th = { effort = "minimal" }
    elseif mode ~= "effort" and (fam.thinking_off or mode == "adaptive") then th = { off = true }   -- adaptive: off by not asking
    else
      local lowest = mode == "level" and { level = fam.efforts[1] } or mode == "effort" and { effort = fam.efforts[1] } or {}
      local what = think == false and "think" or effort ~= nil and "reasoning_effort" or "thinking_budget"
      refuse(what, think == false and false or effort or budget,
        lowest.level and ("thinkingLevel " .. lowest.level) or lowest.effort and ("effort " .. lowest.effort) or "thinking on (the model's default)",
        fam.name .. " cannot turn thinking off", "cannot turn thinking off")
      th = lowest
    end
  elseif on or fam.thinking_default then
    th = {}
    if mode == "budget" then
      local b = budget
      if b == nil and effort ~= nil then
        b = caps.budget_for_effort[effort] or fam.default_budget
        mapped("reasoning_effort", effort, "budget " .. b, fam.name .. " takes a thinking budget (mapped by the table in docs/API.md)")
      end
      b = b or fam.default_budget or fam.dynamic_budget
      local lo, hi = table.unpack(fam.budget or { 0, math.huge })
      if b ~= fam.dynamic_budget and (b < lo or b > hi) then
        local c = math.max(lo, math.min(hi, b))
        refuse("thinking_budget", b, c, string.format("%s takes a thinking budget of %d to %d tokens", fam.name, lo, hi),
          string.format("accepts a thinking budget of %d to %d tokens", lo, hi))
        b = c
      end
      th.budget = b
    else   -- adaptive, effort, level: a point on the effort scale
      local e = effort
      if e == nil and budget ~= nil then
        e = effort_of_budget(budget)
        mapped("thinking_budget", budget, (mode == "level" and "thinkingLevel " or "effort ") .. nearest(fam.efforts or { e }, e),
          fam.name .. " takes " .. (mode == "level" and "a thinking level" or "an effort") .. ", not a budget (mapped by the table in docs/API.md)")
      end
      if e ~= nil and fam.efforts then
        local n = nearest(fam.efforts, e)
        if n ~= e and effort ~= nil then
          mapped("reasoning_effort", effort, n, string.format("%s's levels are %s (nearest taken)", fam.name, table.concat(fam.efforts, ", ")))
        end
        e = n
      end
      if mode == "level" then th.level = e else th.effort = e end
    end
  end
  s.thinking = th
  local thinking_on = th ~= nil and not th.off
  if fam.carry and mode ~= "none" then s.carry_reasoning = true end

  -- sampling
  local accepted = (thinking_on and fam.sampling_thinking) or fam.sampling or {}
  for _, k in ipairs({ "temperature", "top_p", "top_k" }) do
    local v = s[k]
    if v ~= nil then
      local r = accepted[k]
      local while_thinking = thinking_on and fam.sampling_thinking and " while thinking" or ""
      if not r then
        refuse(k, v, nil, string.format("%s refuses %s%s", fam.name, k, while_thinking), "accepts no " .. k .. while_thinking)
        s[k] = nil
      elseif r[1] == r[2] and v ~= r[1] then
        refuse(k, v, nil, string.format("%s takes only the default %s (%g)%s", fam.name, k, r[1], while_thinking),
          string.format("accepts only the default %s %g%s", k, r[1], while_thinking))
        s[k] = nil
      elseif v < r[1] or v > r[2] then
        local c = math.max(r[1], math.min(r[2], v))
        refuse(k, v, c, string.format("%s takes %s from %g to %g%s", fam.name, k, r[1], r[2], while_thinking),
          string.format("accepts %s from %g to %g%s", k, r[1], r[2], while_thinking))
        s[k] = c
      end
    end
  end
  if fam.recommended and fam.recommended.temperature and s.temperature and s.temperature ~= fam.recommended.temperature then
    notes[#notes + 1] = string.format("%s: %s recommends temperature %g; sending %g as asked", tostring(cfg.name), fam.name,
      fam.recommended.temperature, s.temperature)
  end

  -- the output limit
  local max = fam.output and fam.output.max
  if s.max_tokens and max and s.max_tokens > max then
    refuse("max_tokens", s.max_tokens, max, string.format("%s allows at most %d output tokens", fam.name, max),
      string.format("allows at most %d output tokens", max))
    s.max_tokens = max
  end
  -- a budget lies below the output limit (Anthropic: max_tokens > budget_tokens)
  if th and th.budget and fam.provider == "anthropic" then
    local mt = s.max_tokens or 4096
    if mt <= th.budget then
      local raised = math.min(th.budget + 4096, max or math.huge)
      if raised > th.budget then
        mapped("max_tokens", s.max_tokens or "default 4096", raised, "max_tokens must exceed the thinking budget")
        s.max_tokens = raised
      else
        local b = math.max(1024, mt - 1024)
        refuse("thinking_budget", th.budget, b, "the thinking budget must lie below max_tokens", "needs a thinking budget below max_tokens " .. mt)
        th.budget = b
      end
    end
  end
  return s, adjusted, notes, fam
end

-- line(cfg, adjusted) -> the one line printed at the start of a run
function M.line(cfg, adjusted)
  local parts = {}
  for _, a in ipairs(adjusted) do
    parts[#parts + 1] = string.format("--%s %s -> %s (%s)", a.setting, tostring(a.asked), tostring(a.sent), a.why)
  end
  return string.format("settings adjusted for model %s: %s", tostring(cfg.name), table.concat(parts, "; "))
end

-- hint(said, sent) -> what to drop when a 400 names a parameter tabula sent
local PARAMS = { { "temperature", "temperature" }, { "top_p", "top_p" }, { "topP", "top_p" }, { "top_k", "top_k" },
  { "budget_tokens", "thinking_budget" }, { "thinkingBudget", "thinking_budget" }, { "thinkingLevel", "reasoning_effort" },
  { "reasoning", "reasoning_effort" }, { "effort", "reasoning_effort" }, { "thinking", "think" },
  { "max_tokens", "max_tokens" }, { "max_output_tokens", "max_tokens" }, { "maxOutputTokens", "max_tokens" } }
function M.hint(said)
  -- reasoning carried wrongly is not a setting to drop
  for _, w in ipairs({ "signature", "encrypted", "redacted", "not persisted" }) do
    if said:find(w, 1, true) then return "" end
  end
  for _, p in ipairs(PARAMS) do
    if said:find(p[1], 1, true) then
      return string.format(" (the model refused a setting: try without --%s, or describe the model's capabilities in models.lua; see docs/API.md)",
        M.OPTION[p[2]])
    end
  end
  return ""
end

-- cache_share(dir) -> input, cached, written: the run's input tokens, those read
-- from the provider's prompt cache, and those written to it (trials.jsonl usage;
-- written nil when the records do not count writes)
function M.cache_share(dir)
  local records = require "tabula.records"
  local input, cached, written = 0, 0, nil
  for _, r in ipairs((records.read(dir .. "/trials.jsonl", { skip_bad = true }))) do
    local u = type(r.usage) == "table" and r.usage or {}
    input = input + (tonumber(u.input) or 0)
    cached = cached + (tonumber(u.cached) or 0)
    if u.cache_write then written = (written or 0) + (tonumber(u.cache_write) or 0) end
  end
  return input, cached, written
end

-- note_report(dir): report.md's header says which settings were adjusted (from
-- run.json), so that a reader of the numbers sees where the protocol was not
-- followed, and what share of the input the provider's prompt cache served
function M.note_report(dir)
  local fs, json = require "tabula.fs", require "tabula.json"
  if fs.kind(dir .. "/run.json") ~= "file" or fs.kind(dir .. "/report.md") ~= "file" then return end
  local meta = json.decode(fs.read(dir .. "/run.json") or "")
  local adj = type(meta) == "table" and type(meta.settings_adjusted) == "table" and meta.settings_adjusted or {}
  local md = fs.read(dir .. "/report.md") or ""
  if md:find("\n<!-- models -->\n", 1, true) then return end
  local lines = { "", "<!-- models -->" }
  if #adj > 0 then
    lines[#lines + 1] = "settings_adjusted: the model refused these protocol settings; they were changed as shown"
    lines[#lines + 1] = ""
    for _, a in ipairs(adj) do
      lines[#lines + 1] = string.format("- `--%s` asked %s, sent %s: %s", a.setting, tostring(a.asked), tostring(a.sent), a.why)
    end
    lines[#lines + 1] = ""
  end
  local input, cached, written = M.cache_share(dir)
  if cached > 0 or (written or 0) > 0 then
    lines[#lines + 1] = string.format("prompt cache: %.1f%% of %d input tokens read from the cache (%d)%s",
      input > 0 and 100 * cached / input or 0, input, cached, written and string.format(", %d written to it", written) or "")
    lines[#lines + 1] = ""
  end
  if #lines == 2 then return end
  local head, rest = md:match("^([^\n]*\n)(.*)$")
  if not head then head, rest = md .. "\n", "" end
  fs.write_atomic(dir .. "/report.md", head .. table.concat(lines, "\n") .. "\n" .. rest)
end

return M
