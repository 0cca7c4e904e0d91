-- tabula.variants — prompt overrides and prompt variants of a run.
--
--   --prompt NAME=FILE      use FILE instead of the template NAME (.txt optional); repeatable
--   --prompt-overlay DIR    templates in DIR replace the defaults of the same name;
--                           the others fall back to the default folder
--   --variant NAME[=SPEC]   a variant axis: every trial is played once per variant,
--                           on the same cases and seeds, with trial ids ID@NAME.
--                           SPEC is an overlay folder, or TEMPLATE:FILE pairs joined
--                           by "+"; a NAME alone is the defaults. Repeatable.
-- Overrides apply to every prompt set the scenario makes (tabula.prompt asks
-- M.apply for the effective files); the effective sha256 of every template is
-- what run.json records under setup.prompts (per variant with --variant).
-- `tabula compare RUN@a RUN@b` compares two variants of one run.
local fs = require "tabula.fs"
local cli = require "tabula.cli"
local json = require "tabula.json"

local M = {}

M.OPTIONS = {
  { "prompt", "multi", nil, "NAME=FILE: use FILE for the prompt template NAME" },
  { "prompt-overlay", "string", nil, "folder of templates that replace the defaults of the same name" },
  { "variant", "multi", nil, "NAME[=DIR or TEMPLATE:FILE+...]: play every trial once per variant" },
}

-- the overrides in force: { overlay = dir or nil, files = { ["name.txt"] = path } }
M.active = { files = {} }

local function txt(name) return name:match("%.txt$") and name or (name .. ".txt") end

-- parse(prompts, overlay [, what]) -> overrides: checks that every file and folder exists
function M.parse(prompts, overlay, what)
  what = what or "--prompt"
  local o = { files = {}, overlay = overlay }
  if overlay and fs.kind(overlay) ~= "dir" then cli.fail("%s: the overlay folder %s does not exist", what, overlay) end
  for _, p in ipairs(prompts or {}) do
    local name, file = p:match("^([^=:]+)[=:](.+)$")
    if not name then cli.fail("%s: '%s' is not NAME=FILE", what, p) end
    if fs.kind(file) ~= "file" then cli.fail("%s %s: no file %s", what, name, file) end
    o.files[txt(name)] = file
  end
  return o
end

-- configure(o): the overrides the next prompt sets use
function M.configure(o) M.active = o or { files = {} } end

local function names(files)
  local list = {}
  for k in pairs(files) do list[#list + 1] = (k:gsub("%.txt$", "")) end
  table.sort(list)
  return table.concat(list, ", ")
end

-- apply(files, dir) -> the effective files (name.txt -> path) of a prompt folder
function M.apply(files, dir)
  local a = M.active
  if not a.overlay and next(a.files) == nil then return files end
  local out = {}
  for k, v in pairs(files) do out[k] = v end
  if a.overlay then
    for _, f in ipairs(fs.list(a.overlay) or {}) do
      if f:match("%.txt$") then
        if not files[f] then
          cli.fail("prompt overlay %s: %s is not a template of %s (templates: %s)", a.overlay, f, dir, names(files))
        end
        out[f] = a.overlay .. "/" .. f
      end
    end
  end
  for name, path in pairs(a.files) do
    if not files[name] then
      cli.fail("--prompt %s: %s has no template %s (templates: %s)", (name:gsub("%.txt$", "")), dir, name, names(files))
    end
    out[name] = path
  end
  return out
end

-- the overrides of one --variant value -> name, overrides
local function variant(spec)
  local name, rest = spec:match("^([%w_.-]+)=(.+)$")
  if not name then
    if not spec:match("^[%w_.-]+$") then cli.fail("--variant: '%s' is not NAME or NAME=SPEC (letters, digits, _ . -)", spec) end
    return spec, { files = {} }
  end
  if fs.kind(rest) == "dir" then return name, M.parse(nil, rest, "--variant " .. name) end
  local pairs_ = {}
  for p in rest:gmatch("[^+]+") do pairs_[#pairs_ + 1] = p end
  return name, M.parse(pairs_, nil, "--variant " .. name)
end

-- base_id(id) -> the trial id without its variant suffix
function M.base_id(id) return (id:gsub("@[%w_.-]+$", "")) end

-- setup(s, opts, env, trials) -> trials, setup, for_trial: runs the scenario's
-- setup once (or once per variant, each with its own env) under the overrides,
-- and expands the trials per variant (ids ID@NAME, trial.variant = NAME)
function M.setup(s, opts, env, trials)
  local base = M.parse(opts.prompt, opts["prompt-overlay"])
  if not opts.variant then
    M.configure(base)
    local ok, res = pcall(function() return s.setup and s.setup(opts, env) or {} end)
    M.configure(nil)
    if not ok then error(res, 0) end
    return trials, res, nil
  end
  local envs, setups, order = {}, {}, {}
  for _, spec in ipairs(opts.variant) do
    local name, o = variant(spec)
    if envs[name] then cli.fail("--variant: %s is given twice", name) end
    -- the run's --prompt/--prompt-overlay apply under every variant's own overrides
    local merged = { overlay = o.overlay or base.overlay, files = {} }
    for k, v in pairs(base.files) do merged.files[k] = v end
    for k, v in pairs(o.files) do merged.files[k] = v end
    local venv = setmetatable({}, { __index = env })
    M.configure(merged)
    local ok, res = pcall(function() return s.setup and s.setup(opts, venv) or {} end)
    M.configure(nil)
    if not ok then error(res, 0) end
    envs[name], setups[name], order[#order + 1] = venv, res, name
  end
  local out = {}
  for _, name in ipairs(order) do
    for _, t in ipairs(trials) do
      local c = {}
      for k, v in pairs(t) do c[k] = v end
      c.id, c.variant = t.id .. "@" .. name, name
      out[#out + 1] = c
    end
  end
  local function for_trial(trial) return envs[trial.variant] or env end
  return out, { variants = setups, variant_order = order }, for_trial
end

-- play(play) -> play(trial, env) that gives each trial its variant's env and marks its record
function M.play(play, for_trial)
  if not for_trial then return play end
  return function(trial, env)
    -- the variant's env, with the agent given (the transcript's recording agent)
    local venv = setmetatable({ agent = env.agent }, { __index = for_trial(trial) })
    local rec, err = play(trial, venv)
    if type(rec) == "table" and rec.variant == nil then rec.variant = trial.variant end
    return rec, err
  end
end

-- report(s, dir) -> console text: the scenario's report of the run; a run with
-- variants is reported once per variant, each from that variant's records alone
-- into DIR/variants/NAME/ (its own run.json, trials.jsonl, report.md and
-- summary.json), and DIR/report.md and summary.json gather them: a section and
-- a field per variant, one console line (or block) per variant, each prefixed
-- with its name. Pooling the variants' trials into one figure would mix arms.
function M.report(s, dir)
  local meta = json.read_file(dir .. "/run.json")
  local order = type(meta) == "table" and type(meta.setup) == "table" and meta.setup.variant_order
  if type(order) ~= "table" or #order == 0 then return s.report(dir) end
  local records = require "tabula.records"
  local parts, md, sm = {}, { "# Variants", "", "One report per variant: " .. table.concat(order, ", ") .. ".", "" }, { variants = {} }
  local lines = {}
  for _, name in ipairs(order) do lines[name] = {} end
  records.each(dir .. "/trials.jsonl", function(r)
    local v = r.variant or (type(r.trial_id) == "string" and r.trial_id:match("@([%w_.-]+)$"))
    if lines[v] then table.insert(lines[v], records.line(r)) end
  end, { skip_bad = true })
  for _, name in ipairs(order) do
    local sub = fs.join(dir, "variants", name)
    fs.mkdir_p(sub)
    local vmeta = {}
    for k, v in pairs(meta) do vmeta[k] = v end
    vmeta.setup = (meta.setup.variants or {})[name] or {}
    vmeta.variant = name
    fs.write_or_fail(sub .. "/run.json", json.encode(vmeta, { pretty = true }) .. "\n")
    fs.write_or_fail(sub .. "/trials.jsonl", #lines[name] > 0 and (table.concat(lines[name], "\n") .. "\n") or "")
    if fs.kind(dir .. "/transcripts") == "dir" and not fs.kind(sub .. "/transcripts") then
      os.execute(string.format("ln -s ../../transcripts %q", sub .. "/transcripts"))
    end
    local text = s.report(sub) or ""
    for line in text:gmatch("[^\n]+") do parts[#parts + 1] = string.format("[%s] %s\n", name, line) end
    md[#md + 1] = "## Variant " .. name
    md[#md + 1] = ""
    local body = fs.read(sub .. "/report.md") or ""
    md[#md + 1] = (body:gsub("\n(#+ )", "\n#%1"):gsub("^(#+ )", "#%1"))   -- its headings one level down
    sm.variants[name] = fs.kind(sub .. "/summary.json") == "file" and json.read_file(sub .. "/summary.json") or nil
  end
  fs.write_or_fail(dir .. "/summary.json", json.encode(sm, { pretty = true }) .. "\n")
  fs.write_or_fail(dir .. "/report.md", table.concat(md, "\n") .. "\n")
  return table.concat(parts)
end

return M
