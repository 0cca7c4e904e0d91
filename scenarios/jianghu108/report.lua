-- scenarios.jianghu108.report — Jianghu108 metrics from a run's records:
-- accuracy overall, by circumstance, by whether the answer is E, the chosen
-- letters against the answers, tokens and cost. Writes report.md, summary.json.
local records = require "tabula.records"
local json = require "tabula.json"
local fs = require "tabula.fs"

local M = {}

local function acc(list)
  local n, c = 0, 0
  for _, r in ipairs(list) do n = n + 1; if r.correct then c = c + 1 end end
  return { n = n, correct = c, accuracy = n > 0 and c / n or nil }
end

function M.compute(recs)
  local final, errors = records.final(recs)
  local scored = {}
  for _, r in ipairs(final) do if r.status == "success" or r.status == "failure" then scored[#scored + 1] = r end end
  local groups = { win = {}, draw = {}, answer_e = {}, answer_not_e = {} }
  local chosen, answers = {}, {}
  local methods = {}
  local tok = { input = 0, cached = 0, output = 0, reasoning = 0 }
  local cost = 0
  for _, r in ipairs(scored) do
    table.insert(groups[r.circumstance] or groups.win, r)
    table.insert(r.answer == "E" and groups.answer_e or groups.answer_not_e, r)
    local c = r.extracted or "none"
    chosen[c] = (chosen[c] or 0) + 1
    answers[r.answer] = (answers[r.answer] or 0) + 1
    methods[r.extraction] = (methods[r.extraction] or 0) + 1
    for k in pairs(tok) do tok[k] = tok[k] + ((r.usage or {})[k] or 0) end
    cost = cost + (r.cost or 0)
  end
  return {
    overall = acc(scored), by_circumstance = { win = acc(groups.win), draw = acc(groups.draw) },
    by_answer = { E = acc(groups.answer_e), not_E = acc(groups.answer_not_e) },
    chosen_letters = chosen, answer_letters = answers, extraction = methods,
    tokens = tok, cost = cost, errors = errors,
  }
end

local function pct(a) return a.accuracy and string.format("%.1f%% (%d/%d)", 100 * a.accuracy, a.correct, a.n) or "n/a" end

function M.console(sm)
  return string.format("Jianghu108 accuracy %s; win %s, draw %s; answer E %s, not E %s\n",
    pct(sm.overall), pct(sm.by_circumstance.win), pct(sm.by_circumstance.draw), pct(sm.by_answer.E), pct(sm.by_answer.not_E))
end

function M.markdown(sm, meta)
  local L = { "# Jianghu108 report", "",
    string.format("Model: %s. Language: %s. Vision: %s. Scored trials: %d (infrastructure errors not scored: %d).",
      meta.model and meta.model.name or "?", meta.options and meta.options.lang or "?", tostring(meta.options and meta.options.vision),
      sm.overall.n, sm.errors), "",
    "| subset | accuracy |", "|---|---|",
    "| all | " .. pct(sm.overall) .. " |",
    "| Red wins | " .. pct(sm.by_circumstance.win) .. " |",
    "| draw | " .. pct(sm.by_circumstance.draw) .. " |",
    "| answer is E | " .. pct(sm.by_answer.E) .. " |",
    "| answer is not E | " .. pct(sm.by_answer.not_E) .. " |", "",
    "## Letters chosen against answers", "", "| letter | chosen | answer |", "|---|---|---|" }
  for _, l in ipairs({ "A", "B", "C", "D", "E", "none" }) do
    L[#L + 1] = string.format("| %s | %d | %d |", l, sm.chosen_letters[l] or 0, sm.answer_letters[l] or 0)
  end
  L[#L + 1] = ""
  L[#L + 1] = string.format("Extraction: %d from a box, %d from an isolated letter, %d without an answer, %d empty.",
    sm.extraction.box or 0, sm.extraction.letter or 0, sm.extraction.none or 0, sm.extraction.empty or 0)
  L[#L + 1] = string.format("Tokens: %d input (%d cached), %d output (%d reasoning). Cost $%.4f.",
    sm.tokens.input, sm.tokens.cached, sm.tokens.output, sm.tokens.reasoning, sm.cost)
  if meta.data and meta.data.validation and #meta.data.validation > 0 then
    L[#L + 1] = ""
    L[#L + 1] = "## Validator findings"
    L[#L + 1] = ""
    for _, f in ipairs(meta.data.validation) do
      L[#L + 1] = string.format("- problem %s%s: %s: %s%s", tostring(f.id), f.option and (" option " .. f.option) or "",
        f.check, f.message, f.fatal and " (fatal)" or "")
    end
  end
  return table.concat(L, "\n") .. "\n"
end

function M.write(dir)
  local meta = json.read_file(dir .. "/run.json")
  local recs = records.read(dir .. "/trials.jsonl", { skip_bad = true })
  local sm = M.compute(recs)
  fs.write_or_fail(dir .. "/summary.json", json.encode(sm, { pretty = true }) .. "\n")
  fs.write_or_fail(dir .. "/report.md", M.markdown(sm, meta))
  return M.console(sm)
end

return M
