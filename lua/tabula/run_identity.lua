-- tabula.run_identity — what must match for a run directory to be continued:
-- the scenario, the model, the options that change results, the scenario
-- file's sha256 and the sha256 of every prompt template (run.json's
-- setup.prompts). A continuation with a difference is refused with one line
-- naming each difference and both values, unless --accept-changes is given:
-- then the differences are recorded in run.json (accepted_changes). A
-- different scenario or model is never accepted (it is another run).
-- A larger --trials is no difference: the run is extended (the trials already
-- recorded are kept, the new ones added; trial ids carry their index, so the
-- first k trials of a case are the same trials at any --trials), and run.json
-- lists the extensions (extended). A smaller --trials is a change.
local json = require "tabula.json"

local M = {}

local function show(v)
  if v == nil then return "unset" end
  if type(v) == "table" then return json.canonical(v) end
  return tostring(v)
end

local PRICES = { prices = true, prices_from = true, batch_prices = true, batch_price_factor = true }

local function short(h) return type(h) == "string" and h:sub(1, 12) or show(h) end

local function sorted_keys(a, b)
  local seen, keys = {}, {}
  for _, t in ipairs({ a or {}, b or {} }) do
    for k in pairs(t) do if not seen[k] then seen[k] = true; keys[#keys + 1] = k end end
  end
  table.sort(keys, function(x, y) return tostring(x) < tostring(y) end)
  return keys
end

-- differences(old, new) -> fatal, changes: lists of one-line descriptions
-- (old and new are run.json tables; a field the old run did not record is not compared)
function M.differences(old, new)
  local fatal, changes = {}, {}
  if old.scenario ~= nil and old.scenario ~= new.scenario then
    fatal[#fatal + 1] = string.format("scenario: %s in the run, %s now", show(old.scenario), show(new.scenario))
  end
  if old.model ~= nil and json.canonical(old.model) ~= json.canonical(new.model) then
    for _, k in ipairs(sorted_keys(old.model, new.model)) do
      local a, b = (old.model or {})[k], (new.model or {})[k]
      -- prices say what calls cost, not which model answers (tabula.prices
      -- updates its table): each call's cost is recorded when it is made
      if json.canonical(a) ~= json.canonical(b) and not PRICES[k] then
        fatal[#fatal + 1] = string.format("model %s: %s in the run, %s now", k, show(a), show(b))
      end
    end
  end
  -- a scenario's own identity (DECE: the participants' manifests and the schedule)
  if old.identity ~= nil and json.canonical(old.identity) ~= json.canonical(new.identity) then
    fatal[#fatal + 1] = "participants or schedule differ"
  end
  if old.scenario_sha256 ~= nil and old.scenario_sha256 ~= new.scenario_sha256 then
    changes[#changes + 1] = string.format("scenario file %s changed (sha256 %s in the run, %s now)",
      show(new.scenario_file), short(old.scenario_sha256), short(new.scenario_sha256))
  end
  local oo, no = old.options_identity, new.options_identity
  if oo ~= nil then
    for _, k in ipairs(sorted_keys(oo, no)) do
      local a, b = oo[k], (no or {})[k]
      local extended = k == "trials" and type(a) == "number" and type(b) == "number" and b > a
      if not extended and json.canonical(a) ~= json.canonical(b) then
        changes[#changes + 1] = string.format("option --%s: %s in the run, %s now", k, show(a), show(b))
      end
    end
  end
  local op, np = (old.setup or {}).prompts, (new.setup or {}).prompts
  if type(op) == "table" and next(op) then   -- runs recorded before templates were hashed have none
    for _, k in ipairs(sorted_keys(op, np)) do
      local a, b = op[k], (np or {})[k]
      if a ~= b then
        changes[#changes + 1] = a == nil and string.format("prompt template %s added (sha256 %s)", k, short(b))
          or b == nil and string.format("prompt template %s removed (sha256 %s in the run)", k, short(a))
          or string.format("prompt template %s changed (sha256 %s in the run, %s now)", k, short(a), short(b))
      end
    end
  end
  return fatal, changes
end

-- check(dir, old, new, accept) -> nil | message: refuses (message) or, with
-- accept, records the accepted changes in new.accepted_changes
function M.check(dir, old, new, accept)
  local fatal, changes = M.differences(old, new)
  new.accepted_changes = old.accepted_changes
  new.extended = old.extended
  local a, b = (old.options_identity or {}).trials, (new.options_identity or {}).trials
  if #fatal == 0 and type(a) == "number" and type(b) == "number" and b > a then
    local list = {}
    for i, e in ipairs(old.extended or {}) do list[i] = e end
    list[#list + 1] = { at = os.date("!%Y-%m-%dT%H:%M:%SZ"), trials_from = a, trials_to = b }
    new.extended = list
  end
  if #fatal > 0 then
    return string.format("%s holds a different run (%s); use another --out to start a new one", dir,
      table.concat(fatal, "; "))
  end
  if #changes == 0 then return nil end
  if not accept then
    return string.format("%s holds a run made with something else (%s); use another --out, or --accept-changes to continue it anyway",
      dir, table.concat(changes, "; "))
  end
  local list = {}
  for i, c in ipairs(old.accepted_changes or {}) do list[i] = c end
  list[#list + 1] = { at = os.date("!%Y-%m-%dT%H:%M:%SZ"), changes = changes }
  new.accepted_changes = list
  return nil
end

return M
