-- tabula.choice — multiple-choice questions: options shuffled with the trial's
-- seed, letters, answer extraction in the usual formats, per-letter bias.
--
--   local choice = require "tabula.choice"
--   local q = choice.shuffle({ "h2e2", "b0c2", "a0a1" }, 1, env.rng_for(trial))
--   -- q.options (shuffled), q.letters {"A","B","C"}, q.answer (the correct letter),
--   -- q.order (q.options[i] is original option q.order[i])
--   choice.render(q)                        --> "A. b0c2\nB. h2e2\nC. a0a1"
--   choice.extract("I pick **B**.", 3)      --> "B"
--   choice.bias(records)                    --> per letter: chosen, correct, accuracy
local M = {}

M.LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

function M.letter(i) return M.LETTERS:sub(i, i) end

-- shuffle(options, correct, rng) -> q (rng(n) -> 1..n; without rng the order is kept)
function M.shuffle(options, correct, rng)
  local order = {}
  for i = 1, #options do order[i] = i end
  if rng then
    for i = #order, 2, -1 do
      local j = rng(i)
      order[i], order[j] = order[j], order[i]
    end
  end
  local q = { options = {}, letters = {}, order = order }
  for i, k in ipairs(order) do
    q.options[i] = options[k]
    q.letters[i] = M.letter(i)
    if k == correct then q.answer = M.letter(i) end
  end
  return q
end

-- render(q [, fmt]) -> the option lines ("A. text"; fmt is a format with %s letter and %s text)
function M.render(q, fmt)
  local lines = {}
  for i, o in ipairs(q.options) do lines[i] = string.format(fmt or "%s. %s", q.letters[i], tostring(o)) end
  return table.concat(lines, "\n")
end

-- extract(text, n) -> the chosen letter (among the first n) or nil. Looks, in
-- this order, for "Answer: X" (also "answer is X", "Final answer"), \boxed{X},
-- a bold or bracketed letter, a letter alone on the last line that has one;
-- the last match of the first pattern that matches wins.
function M.extract(text, n)
  if type(text) ~= "string" then return nil end
  local last = M.letter(n or 26)
  local function ok(l) return l and #l == 1 and l >= "A" and l <= last and l or nil end
  local patterns = {
    "[Aa]nswer%s*[:：]%s*%**%(?%[?(%a)%f[%A]",
    "[Aa]nswer is%s*%**%(?%[?(%a)%f[%A]",
    "\\boxed{%s*(%a)%s*}",
    "%*%*%(?(%a)%)?[%.%):]?%*%*",
    "%((%a)%)",
    "%[(%a)%]",
  }
  for _, p in ipairs(patterns) do
    local found
    for l in text:gmatch(p) do found = ok(l:upper() == l and l or nil) or found end
    if found then return found end
  end
  -- a line that is only the letter (maybe with "." or ")"), the last such line
  local found
  for line in text:gmatch("[^\n]+") do
    local l = line:match("^%s*%(?(%u)[%.%)]?%s*$")
    if ok(l) then found = l end
  end
  return found
end

-- bias(recs) -> { letters = { {letter, chosen, correct, right} }, unanswered }
-- recs: records with .choice (the letter given, or nil) and .answer (the correct letter)
function M.bias(recs)
  local by, unanswered = {}, 0
  local function slot(l)
    by[l] = by[l] or { letter = l, chosen = 0, correct = 0, right = 0 }
    return by[l]
  end
  for _, r in ipairs(recs) do
    if r.answer then slot(r.answer).correct = slot(r.answer).correct + 1 end
    if r.choice then
      local s = slot(r.choice)
      s.chosen = s.chosen + 1
      if r.choice == r.answer then s.right = s.right + 1 end
    else
      unanswered = unanswered + 1
    end
  end
  local out = {}
  for _, s in pairs(by) do out[#out + 1] = s end
  table.sort(out, function(a, b) return a.letter < b.letter end)
  return { letters = out, unanswered = unanswered }
end

return M
