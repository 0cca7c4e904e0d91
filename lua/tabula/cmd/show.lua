-- tabula show RUN [TRIAL] — what a trial's model was sent and answered (from
-- RUN/transcripts/), with the board at each call; without TRIAL, the list of
-- trials with outcome, calls, tokens and cost. A match with agent programs
-- (tabula.program) also shows each program's model calls, as the proxy saw them.
local cli = require "tabula.cli"
local fs = require "tabula.fs"
local records = require "tabula.records"
local transcripts = require "tabula.transcripts"
local terminal = require "tabula.terminal"

local M = {}

-- board_text(fen) -> a text board for a Xiangqi (10 ranks) or chess (8 ranks) FEN, or nil
function M.board_text(fen)
  local ranks = select(2, (fen:match("^%S+") or ""):gsub("/", "")) + 1
  if ranks == 10 then
    local b = require("games.xiangqi").new(fen)
    return b and b:render("chinese")
  elseif ranks == 8 then
    local g = require("games.chess").new(fen)
    return g and g:render()
  end
end

local function indent(text, pre) return pre .. tostring(text):gsub("\n", "\n" .. pre) end

-- render(t) -> the text of one transcript; a match's calls are shown per
-- participant (each participant's conversation in order, in the order the
-- participants first spoke)
function M.render(t)
  local out = { string.format("trial %s: %s%s", t.trial_id, t.status or "?", t.error and (" (" .. t.error .. ")") or "") }
  local order, by = {}, {}
  for i, c in ipairs(t.calls) do
    local p = c.participant or false
    if not by[p] then by[p] = {}; order[#order + 1] = p end
    table.insert(by[p], { i = i, c = c })
  end
  for _, p in ipairs(order) do
    if p then out[#out + 1] = string.format("\n### participant %s (%d calls)", p, #by[p]) end
    for n, e in ipairs(by[p]) do M.render_call(out, p and n or e.i, e.c) end
  end
  return table.concat(out, "\n") .. "\n"
end

-- render_call(out, i, c): the lines of one call, appended to out
function M.render_call(out, i, c)
  out[#out + 1] = string.format("\n=== call %d%s", i, c.sample and string.format(" (sample %d)", c.sample) or "")
  if c.fen then
    out[#out + 1] = "--- board: " .. c.fen
    out[#out + 1] = M.board_text(c.fen) or ""
  end
  if c.new_from <= #c.messages then out[#out + 1] = transcripts.format_messages(c.messages, c.new_from) end
  local r = c.reply
  if r then
    if r.reasoning and r.reasoning ~= "" then
      out[#out + 1] = "--- reasoning"
      out[#out + 1] = indent(r.reasoning, "  | ")
    end
    local u = r.usage or {}
    out[#out + 1] = string.format("--- reply (%s; tokens in %d, out %d, reasoning %d; cost %.4f%s)", r.finish or "?",
      u.input or 0, u.output or 0, u.reasoning or 0, r.cost or 0, r.cached and "; from cache" or "")
    out[#out + 1] = r.text or ""
    for _, tc in ipairs(r.tool_calls or {}) do out[#out + 1] = transcripts.format_call(tc) end
  else
    out[#out + 1] = "--- no reply: " .. tostring(c.error or "infrastructure error")
  end
end

-- the text of the last message of a model request in any wire format (what the program
-- asked last: its conversation grows, the rest was shown with its earlier calls)
local function last_asked(req)
  if type(req) ~= "table" then return "" end
  local list = req.messages or req.contents or (type(req.input) == "table" and req.input) or nil
  if type(req.input) == "string" then return req.input end
  local m = type(list) == "table" and list[#list] or nil
  if type(m) ~= "table" then return "" end
  local parts, out = m.content or m.parts or m.output, {}
  if type(parts) == "string" then return string.format("(%s) %s", tostring(m.role or m.type), parts) end
  for _, p in ipairs(type(parts) == "table" and parts or {}) do
    if type(p) == "table" then
      local txt = p.text or p.content or (p.functionResponse and require("tabula.json").canonical(p.functionResponse))
      if type(txt) == "table" then txt = require("tabula.json").canonical(txt) end
      if txt then out[#out + 1] = tostring(txt) end
    end
  end
  if #out == 0 and m.output then out[1] = tostring(m.output) end
  return string.format("(%s) %s", tostring(m.role or m.type), table.concat(out, "\n"))
end

-- program_calls(dir, trial_id) -> the model calls the agent programs of a match made
-- (RUN/programs/MATCH/seatK/calls.jsonl, tabula.program), or nil when it had none
function M.program_calls(dir, trial_id)
  local base = fs.join(dir, "programs", (trial_id:gsub("[^%w%-_.]", "_")))
  local seats = fs.list(base)
  if not seats then return nil end
  table.sort(seats)
  local out = {}
  for _, seat in ipairs(seats) do
    local calls = records.read(fs.join(base, seat, "calls.jsonl"), { skip_bad = true })
    local cost = 0
    for _, c in ipairs(calls) do cost = cost + ((c.reply or {}).cost or 0) end
    out[#out + 1] = string.format("\n### agent program of %s: %d model calls, cost %.4f (%s)", seat, #calls, cost,
      fs.join(base, seat, "calls.jsonl"))
    for i, c in ipairs(calls) do
      local u = (c.reply or {}).usage or {}
      out[#out + 1] = string.format("\n=== program call %d (decision %s, launch %s): %s %s, model %s%s; HTTP %s%s", i,
        tostring(c.decision), tostring(c.launch), tostring(c.method), tostring(c.path), tostring(c.model_asked),
        c.model ~= c.model_asked and (" sent as " .. tostring(c.model)) or "", tostring(c.status),
        c.refused and (", refused: " .. c.refused) or "")
      local asked = last_asked(c.request)
      if asked ~= "" then out[#out + 1] = "--- asked last\n" .. indent(asked, "  ") end
      if c.reply then
        out[#out + 1] = string.format("--- reply (tokens in %d, out %d, reasoning %d; cost %.4f)", u.input or 0, u.output or 0,
          u.reasoning or 0, c.reply.cost or 0)
        out[#out + 1] = c.reply.text or ""
        for _, tc in ipairs(c.reply.tool_calls or {}) do out[#out + 1] = transcripts.format_call(tc) end
      elseif c.error then
        out[#out + 1] = "--- no reply: " .. tostring(c.error)
      end
    end
  end
  return table.concat(out, "\n") .. "\n"
end

-- list(dir) -> the text table of trials
function M.list(dir)
  local store = (require("tabula.json").read_file(dir .. "/run.json") or {}).records
  local file, id_field = require("tabula.runner").store(type(store) == "table" and store or nil)
  local recs = records.read(dir .. "/" .. file, { skip_bad = true })
  for _, r in ipairs(recs) do r.trial_id = r.trial_id or r[id_field] end
  local all = transcripts.load_all(dir)
  local out = { string.format("%-32s %-8s %-22s %5s %9s %9s %8s", "trial", "status", "reason", "calls", "tokens in", "out", "cost") }
  local last = {}
  for _, r in ipairs(recs) do if r.trial_id then last[r.trial_id] = r end end
  local seen = {}
  for _, r in ipairs(recs) do
    local id = r.trial_id
    if id and not seen[id] then
      seen[id] = true
      r = last[id]
      local s = all[id] and transcripts.summary(all[id]) or { calls = r.calls or 0, input = (r.usage or {}).input or 0,
        output = (r.usage or {}).output or 0, cost = r.cost or 0 }
      out[#out + 1] = string.format("%-32s %-8s %-22s %5d %9d %9d %8.4f", id, r.status or "finished", r.reason or r.result or "",
        s.calls, s.input, s.output, s.cost)
    end
  end
  return table.concat(out, "\n") .. "\n"
end

-- find(dir, want) -> the trial id equal to want, or the only one starting with it
function M.find(dir, want)
  local ids = transcripts.ids(dir)
  local hits = {}
  for _, id in ipairs(ids) do
    if id == want then return id end
    if id:sub(1, #want) == want then hits[#hits + 1] = id end
  end
  if #hits == 1 then return hits[1] end
  if #hits == 0 then cli.fail("show: %s has no transcript for a trial %s", dir, want) end
  cli.fail("show: '%s' matches %d trials (%s%s); give more of the id", want, #hits,
    table.concat(hits, ", ", 1, math.min(5, #hits)), #hits > 5 and ", ..." or "")
end

M.summary = "print a trial's transcript (tabula show RUN TRIAL) or the list of trials (tabula show RUN)"

return {
  summary = M.summary,
  usage = "RUN_DIR [TRIAL_ID or prefix]",
  main = function(_, args)
    local dir = args[1] or cli.fail("show: give a run directory")
    if #args > 2 then cli.fail("show: unexpected argument '%s'", args[3]) end
    if fs.kind(dir .. "/run.json") ~= "file" then cli.fail("%s is not a run directory (no run.json)", dir) end
    -- model text may hold terminal control sequences: printed without them
    if not args[2] then io.write(terminal.clean(M.list(dir))); return 0 end
    local id = M.find(dir, args[2])
    io.write(terminal.clean(M.render(assert(transcripts.load(dir, id)))))
    local pc = M.program_calls(dir, id)   -- an agent program's seat: what it asked its model
    if pc then io.write(terminal.clean(pc)) end
    return 0
  end,
  lib = M,
}
