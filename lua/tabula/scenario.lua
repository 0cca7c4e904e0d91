-- tabula.scenario — the parts every scenario repeats: prompt folders beside the
-- scenario, report files, an accuracy report with a bootstrap interval, and a
-- whole single-turn question scenario (free answer or multiple choice).
--
--   local kit = require "tabula.scenario"
--   return kit.question {
--     name = "my_task", summary = "one line",
--     items = "data/my_items.jsonl",        -- default --items (relative to the scenario file)
--     require = { "fen", "answer" },         -- fields each item must have (one-line errors otherwise)
--     prepare = function(item) return item end,        -- transform an item, or nil to leave it out (optional)
--     values = function(item, trial) return { fen = item.fen } end,   -- placeholders of question.txt
--     choices = function(item) return options, correct_index end,      -- multiple choice (optional)
--     answer = function(item) return "42" end,        -- free answer: the engine player's reply
--     candidates = function(item) return {...} end,   -- free answer: what the random player picks from
--     score = function(item, text) return success, fields end,         -- free answer: judge a reply
--     group = function(item) return "easy" end,        -- report breakdown (optional)
--   }
-- Prompts: prompts/<name>/question.txt (and an optional system.txt) in the folder
-- beside the scenario file, else in tabula's prompts/. For multiple choice,
-- {{choices}} holds the lettered options and the reply's letter is extracted.
local fs = require "tabula.fs"
local json = require "tabula.json"
local cli = require "tabula.cli"
local prompt = require "tabula.prompt"
local records = require "tabula.records"
local metrics = require "tabula.metrics"
local items = require "tabula.items"
local choice = require "tabula.choice"
local host = require "tabula.c.host"

local M = {}

-- here(S, rel) -> rel resolved against the scenario file's folder (absolute paths unchanged)
function M.here(S, rel)
  if rel:sub(1, 1) == "/" then return rel end
  return fs.join(fs.dirname(S.path or "."), rel)
end

-- prompt_dir(S [, name]) -> the scenario's prompt folder: prompts/<name> beside the
-- scenario file, else in its parent folder (the layout scenarios/ + prompts/),
-- else tabula's prompts/<name>
function M.prompt_dir(S, name)
  name = name or S.name
  for _, rel in ipairs({ "prompts/", "../prompts/" }) do
    local dir = M.here(S, rel .. name)
    if fs.kind(dir) == "dir" then return dir end
  end
  return host.root .. "/prompts/" .. name
end

-- prompts(S, opts [, name]) -> the prompt set (opts.prompts overrides the folder)
function M.prompts(S, opts, name)
  return prompt.set(name or S.name, opts.prompts or M.prompt_dir(S, name))
end

-- number(text) -> the number after "Answer:" (the last such), else the last number in text, or nil
function M.number(text)
  if type(text) ~= "string" then return nil end
  local n
  for d in text:gmatch("[Aa]nswer%s*[:：]%s*%**%s*(%-?%d+%.?%d*)") do n = d end
  if not n then for d in text:gmatch("%-?%d+%.?%d*") do n = d end end
  return tonumber(n)
end

-- write_report(dir, summary, markdown) -> markdown: writes summary.json and report.md
function M.write_report(dir, summary, markdown)
  local ok, err = fs.write_atomic(dir .. "/summary.json", json.encode(summary, { pretty = true }) .. "\n")
  if not ok then cli.fail("%s", err) end
  ok, err = fs.write_atomic(dir .. "/report.md", markdown)
  if not ok then cli.fail("%s", err) end
  return markdown
end

-- finished(dir) -> the run's final records (last per trial id, infrastructure errors left out)
function M.finished(dir)
  local last, order = {}, {}
  for _, r in ipairs((records.read(dir .. "/trials.jsonl", { skip_bad = true }))) do
    if r.trial_id then
      if not last[r.trial_id] then order[#order + 1] = r.trial_id end
      last[r.trial_id] = r
    end
  end
  local out = {}
  for _, id in ipairs(order) do
    if last[id].status ~= "error" then out[#out + 1] = last[id] end
  end
  return out
end

-- accuracy(recs [, key]) -> { n, items, successes, accuracy, lo, hi }: the share of
-- successful trials, with a 95% bootstrap interval over items (recs grouped by rec[key or "item_id"])
function M.accuracy(recs, key)
  key = key or "item_id"
  local per, order, succ = {}, {}, 0
  for _, r in ipairs(recs) do
    local k = tostring(r[key] or r.trial_id)
    if not per[k] then per[k] = { 0, 0 }; order[#order + 1] = k end
    per[k][1] = per[k][1] + 1
    if r.status == "success" then per[k][2] = per[k][2] + 1; succ = succ + 1 end
  end
  local values = {}
  for i, k in ipairs(order) do values[i] = per[k][2] / per[k][1] end
  local lo, hi = metrics.bootstrap_mean(values)
  return { n = #recs, items = #order, successes = succ, accuracy = #recs > 0 and succ / #recs or nil, lo = lo, hi = hi }
end

local function pct(x) return x and string.format("%.1f%%", 100 * x) or "-" end

-- accuracy_row(name, a) -> a Markdown table row: name, trials, items, accuracy, interval
function M.accuracy_row(name, a)
  return string.format("| %s | %d | %d | %s | [%s, %s] |", name, a.n, a.items, pct(a.accuracy), pct(a.lo), pct(a.hi))
end

-- question_report(dir, title) -> console text; writes summary.json and report.md
-- (accuracy overall and per group; per-letter bias for multiple choice)
function M.question_report(dir, title)
  local recs = M.finished(dir)
  local sm = { all = M.accuracy(recs), groups = {} }
  local by, names = {}, {}
  for _, r in ipairs(recs) do
    if r.group ~= nil then
      local g = tostring(r.group)
      if not by[g] then by[g] = {}; names[#names + 1] = g end
      table.insert(by[g], r)
    end
  end
  table.sort(names)
  local L = { "# " .. title, "", "| | trials | items | accuracy | 95% interval |", "|---|---|---|---|---|",
    M.accuracy_row("all", sm.all) }
  for _, g in ipairs(names) do
    sm.groups[g] = M.accuracy(by[g])
    L[#L + 1] = M.accuracy_row(g, sm.groups[g])
  end
  local mc = {}
  for _, r in ipairs(recs) do if r.answer_letter then mc[#mc + 1] = { choice = r.choice, answer = r.answer_letter } end end
  if #mc > 0 then
    sm.letters = choice.bias(mc)
    L[#L + 1] = ""
    L[#L + 1] = "| letter | chosen | correct answer | right |"
    L[#L + 1] = "|---|---|---|---|"
    for _, s in ipairs(sm.letters.letters) do
      L[#L + 1] = string.format("| %s | %d | %d | %d |", s.letter, s.chosen, s.correct, s.right)
    end
    L[#L + 1] = string.format("\n%d replies gave no letter.", sm.letters.unanswered)
  end
  local md = table.concat(L, "\n") .. "\n"
  M.write_report(dir, sm, md)
  return string.format("%s: accuracy %s [%s, %s] over %d trials of %d items\n", title, pct(sm.all.accuracy),
    pct(sm.all.lo), pct(sm.all.hi), sm.all.n, sm.all.items)
end

-- question(spec) -> a complete scenario (see the header)
function M.question(spec)
  local S = { name = spec.name, summary = spec.summary, defaults = spec.defaults or { trials = 1 }, view = spec.view }
  S.options = {}
  for _, o in ipairs(items.OPTIONS) do S.options[#S.options + 1] = o end
  S.options[#S.options + 1] = { "prompts", "string", nil, "prompt folder (default prompts/" .. spec.name .. " beside the scenario, else tabula's)" }
  for _, o in ipairs(spec.options or {}) do S.options[#S.options + 1] = o end

  local request   -- defined below

  function S.plan(opts)
    local path = opts.items or (spec.items and M.here(S, spec.items))
    local list, data = items.load(path, opts, { require = spec.require, check = spec.check, prepare = spec.prepare })
    local trials = {}
    for _, it in ipairs(list) do
      for k = 1, opts.trials do trials[#trials + 1] = { id = it.id .. "/" .. k, item = it, index = k } end
    end
    S.first = trials[1]
    return trials, data
  end

  function S.setup(opts, env)
    env.prompts = M.prompts(S, opts)
    if spec.setup then spec.setup(opts, env) end
    if S.first then request(S.first, env) end   -- a template error stops the run here, before any trial
    return { prompts = env.prompts:used() }
  end

  -- request(trial, env) -> conv, ctx, q (the shuffled choices, for multiple choice)
  function request(trial, env)
    local it, P = trial.item, env.prompts
    local rng = env.rng_for(trial)
    local values = spec.values and spec.values(it, trial, env) or {}
    local q
    if spec.choices then
      local options, correct = spec.choices(it, env)
      q = choice.shuffle(options, correct, rng)
      values.choices = choice.render(q)
    end
    local conv = {}
    if P:has("system") then conv[1] = { role = "system", content = P:fill("system", values) } end
    local user = P:fill("question", values)
    if spec.image then
      user = { { type = "text", text = user }, { type = "image", data = spec.image(it, q), mime = "image/png" } }
    end
    conv[#conv + 1] = { role = "user", content = user }
    local ctx = { key = trial.id, sample = trial.index, rng = rng, board = spec.board and spec.board(it) or nil }
    if q then
      ctx.legal_actions, ctx.policy = q.letters, function() return q.answer end
      ctx.format = function(l) return "Answer: " .. tostring(l) end
    else
      ctx.policy = spec.answer and function() return spec.answer(it) end
      ctx.legal_actions = spec.candidates and spec.candidates(it) or nil
      ctx.format = spec.format
    end
    return conv, ctx, q
  end

  function S.play(trial, env)
    local it = trial.item
    local conv, ctx, q = request(trial, env)
    local reply, err = env.agent:reply(conv, ctx)
    if not reply then return nil, err end
    local rec = { trial_id = trial.id, item_id = it.id, index = trial.index, reply = reply.text,
      usage = reply.usage, cost = reply.cost, group = spec.group and spec.group(it) or nil }
    local ok, fields
    if q then
      rec.choice = choice.extract(reply.text, #q.options)
      rec.answer_letter, rec.options = q.answer, q.options
      ok = rec.choice == q.answer
      rec.reason = rec.choice and (ok and "correct" or "wrong") or "no_answer"
    else
      ok, fields = spec.score(it, reply.text, env)
      rec.reason = ok and "correct" or "wrong"
      for k, v in pairs(fields or {}) do rec[k] = v end
    end
    rec.status = ok and "success" or "failure"
    return rec
  end

  function S.report(dir) return M.question_report(dir, spec.title or spec.summary or spec.name) end
  return S
end

return M
