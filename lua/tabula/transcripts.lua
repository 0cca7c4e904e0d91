-- tabula.transcripts — what each trial's model was sent and what it answered,
-- stored compactly in the run directory, and read back.
--
--   RUN/transcripts/trials.jsonl  one line per finished trial attempt:
--       { trial_id, status, calls = { { keep, add, reply, fen, sample, participant }, ... } }
--       `keep` is how many messages of the previous request (plus the previous
--       reply as an assistant message) this request starts with; `add` holds
--       the messages after them. A growing conversation costs one message a call.
--       In a match each call names its participant, and `keep` counts against
--       that participant's previous call.
--       Tool traffic is kept as sent: an assistant message's tool_calls ({ id,
--       name, arguments }: the arguments as the model wrote them), a tool
--       result's call_id, name and is_error, and a reply's tool_calls.
--   RUN/transcripts/texts.jsonl   { sha, text }: every message text of 200 bytes
--       or more, stored once per session of the run (system prompts, long boards);
--       a message refers to it as { ref = sha }.
--   RUN/transcripts/images/SHA.png  images sent to the model, stored once.
--   RUN/transcripts/open/SHA.jsonl  a trial's call journal, in a run whose trials
--       continue from their own event logs (recorder(dir, { resumes = true }): DECE's
--       matches, S.records.logs): each call is appended (fsynced) as it returns, after
--       a line { trial_id, attempt } for each attempt that makes one. Such a trial killed (or failed)
--       mid-way continues where its log ends and does not ask again what the log holds,
--       so the calls made before the interruption would be in no transcript: the next
--       attempt carries them, its line holding the calls of every attempt in order
--       (`carried`: how many of them the earlier attempts made). The journal is removed
--       once the trial has a line that is not an error; until then load() shows it
--       (status "interrupted"). Elsewhere a re-run trial replays its earlier calls from
--       the response cache, and its last line is its transcript.
--
-- Writing (the runner does this for every trial unless --no-transcripts):
--   local rec = transcripts.recorder(run_dir)
--   local t = rec:trial(trial_id)           -- t:wrap(agent) records every reply() call
--   env.agent = t:wrap(env.agent)            -- a ctx.board (with :fen()) or ctx.fen is kept per call
--   t:finish(status)                         -- appends the trial's line (carrying earlier attempts' calls)
--   env.agents[n] = t:wrap(env.agents[n], n) -- a match: each participant's calls labelled n
--   play = rec:recording(play)               -- or all of it around a scenario's play(trial, env)
--                                            -- (env.agent and every agent of env.agents)
--   rec.totals                               -- { calls, input, output, cost } recorded so far
-- Reading:
--   transcripts.load(run_dir, trial_id) -> { trial_id, status, carried, calls = { {
--       messages = full request (role, content: text or parts), reply = { text,
--       reasoning, finish, usage, cost, cached, seconds }, fen, sample } } } | nil, why
--   transcripts.ids(run_dir) -> trial ids with a transcript, in file order
--   transcripts.summary(t) -> { calls, input, output, reasoning, cost }
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"

local M = {}

M.SHARED_MIN = 200   -- texts at least this long are stored once in texts.jsonl

local function tdir(dir) return dir .. "/transcripts" end

local function short_sha(data) return fs.sha256(data):sub(1, 24) end

-- the tool calls of a message or reply as stored (arguments: the raw text)
local function calls_of(list)
  if not list or #list == 0 then return nil end
  local out = {}
  for i, c in ipairs(list) do out[i] = { id = c.id, name = c.name, arguments = c.raw or c.arguments } end
  return out
end

-- a comparable key for a message (role + content, images by their hash, tool calls and call ids)
local function message_key(m)
  local extra = ""
  for _, c in ipairs(m.tool_calls or {}) do extra = extra .. "\0" .. tostring(c.id) .. "\0" .. tostring(c.raw or c.arguments) end
  if m.call_id then extra = extra .. "\0" .. tostring(m.call_id) end
  if type(m.content) == "string" then return m.role .. "\0" .. m.content .. extra end
  local parts = { m.role }
  for _, p in ipairs(m.content or {}) do
    parts[#parts + 1] = p.type == "image" and ("img:" .. short_sha(p.data or "")) or (p.text or "")
  end
  return table.concat(parts, "\0") .. extra
end

local Recorder = {}
Recorder.__index = Recorder

-- recorder(dir [, { resumes = true }]) -> the run's recorder; resumes: the run's
-- trials continue from their own event logs (their calls are journalled, see
-- above). A continued run does not read what earlier sessions stored (its start
-- must not grow with the run; a trial reads its own journal only): a text they
-- stored may be stored once more (the same sha and text; readers take either),
-- an image is rewritten under the same name.
function M.recorder(dir, opts)
  return setmetatable({ dir = tdir(dir), seen = {}, totals = { calls = 0, input = 0, output = 0, cost = 0 },
    resumes = opts and opts.resumes or nil }, Recorder)
end

-- journal_path(tdir, id) -> where a trial's call journal is kept
local function journal_path(td, id) return td .. "/open/" .. short_sha(tostring(id)) .. ".jsonl" end

-- read_journal(path) -> { trial_id, calls, attempts } | nil: what a journal holds
-- (a line torn by a kill is left out)
local function read_journal(path)
  if fs.kind(path) ~= "file" then return nil end
  local out = { calls = {}, attempts = 0 }
  for _, l in ipairs((records.read(path, { skip_bad = true, quiet = true }))) do
    if l.attempt then out.attempts = out.attempts + 1; out.trial_id = l.trial_id
    elseif type(l.call) == "table" then out.calls[#out.calls + 1] = l.call end
  end
  return out
end

-- open(): the files, on the first trial (so a refused --out is left untouched)
function Recorder:open()
  if self.trials then return end
  fs.mkdir_p(self.dir)
  self.texts = records.writer(self.dir .. "/texts.jsonl")
  self.trials = records.writer(self.dir .. "/trials.jsonl")
end

function Recorder:text(s)
  if #s < M.SHARED_MIN then return s end
  local sha = short_sha(s)
  if not self.seen[sha] then
    self.texts:write({ sha = sha, text = s })
    self.seen[sha] = true
  end
  return { ref = sha }
end

function Recorder:image(p)
  local sha = short_sha(p.data or "")
  local name = "images/" .. sha .. ".png"
  if not self.seen[name] then
    fs.mkdir_p(self.dir .. "/images")
    fs.write_or_fail(self.dir .. "/" .. name, p.data or "")
    self.seen[name] = true
  end
  return { type = "image", file = name, mime = p.mime, detail = p.detail }
end

function Recorder:message(m)
  local out = self:message_content(m)
  out.tool_calls, out.call_id, out.name = calls_of(m.tool_calls), m.call_id, m.role == "tool" and m.name or nil
  out.is_error = m.is_error or nil
  return out
end

function Recorder:message_content(m)
  local c = m.content
  if type(c) == "string" then return { role = m.role, content = self:text(c) } end
  local parts = {}
  for i, p in ipairs(c or {}) do
    if p.type == "image" then parts[i] = self:image(p)
    else parts[i] = { type = p.type or "text", text = self:text(p.text or "") } end
  end
  return { role = m.role, parts = parts }
end

-- recording(play) -> play'(trial, env): runs play(trial, env) with env.agent
-- recorded for that trial, and appends the trial's transcript line
function Recorder:recording(play)
  return function(trial, env)
    local t = self:trial(trial.id)
    local tenv = setmetatable({ agent = env.agent and t:wrap(env.agent) }, { __index = env })
    if env.agents then
      tenv.agents = {}
      for name, a in pairs(env.agents) do tenv.agents[name] = t:wrap(a, name) end
    end
    local ok, rec, err = pcall(play, trial, tenv)
    local status = ok and (rec and (rec.status or "finished") or "error") or "error"   -- a game record may have no status
    local why = (not ok) and (type(rec) == "table" and rec.message or tostring(rec)) or (err and err.message) or nil
    t:finish(status, why)
    if not ok then error(rec, 0) end
    return rec, err
  end
end

function Recorder:close()
  if not self.trials then return end
  self.texts:close()
  self.trials:close()
  self.texts, self.trials = nil, nil
end

local Trial = {}
Trial.__index = Trial

-- trial(id) -> a recorder for one trial attempt; in a run whose trials resume,
-- it starts with the calls its earlier attempts journalled
function Recorder:trial(id)
  self:open()
  local t = setmetatable({ rec = self, id = id, calls = {}, prevs = {} }, Trial)
  if self.resumes then
    t.journal_path = journal_path(self.dir, id)
    local earlier = read_journal(t.journal_path)
    if earlier then
      for i, c in ipairs(earlier.calls) do t.calls[i] = c end
      t.carried = #earlier.calls
    end
    t.attempt = (earlier and earlier.attempts or 0) + 1
  end
  return t
end

-- journal_call(call): a call appended to the trial's journal (opened at its first call;
-- a torn last line an earlier kill left is cut off)
function Trial:journal_call(call)
  if not self.journal then
    self.journal = records.writer(self.journal_path)
    self.journal:write({ trial_id = self.id, attempt = self.attempt })
  end
  self.journal:write({ call = call })
end

-- record(conv, ctx, reply [, participant [, error]]): one model call (error: why it has no reply)
function Trial:record(conv, ctx, reply, participant, err)
  local before = self.prevs[participant or 1] or {}
  local keep = 0
  while keep < #conv and keep < #before and message_key(conv[keep + 1]) == before[keep + 1] do
    keep = keep + 1
  end
  local add = {}
  for i = keep + 1, #conv do add[#add + 1] = self.rec:message(conv[i]) end
  local call = { keep = keep, add = add, sample = ctx and ctx.sample, participant = participant, error = err }
  if ctx and ctx.board and ctx.board.fen then call.fen = ctx.board:fen()
  elseif ctx and type(ctx.fen) == "string" then call.fen = ctx.fen end
  local tot = self.rec.totals
  tot.calls = tot.calls + 1
  if reply then
    local u = reply.usage or {}
    tot.input, tot.output = tot.input + (u.input or 0), tot.output + (u.output or 0)
    tot.cost = tot.cost + (reply.cost or 0)
    call.reply = { text = reply.text and self.rec:text(reply.text), reasoning = reply.reasoning and self.rec:text(reply.reasoning),
      finish = reply.finish, usage = reply.usage, cost = reply.cost, cached = reply.cached, seconds = reply.seconds,
      tool_calls = calls_of(reply.tool_calls) }
  end
  self.calls[#self.calls + 1] = call
  if self.journal_path then self:journal_call(call) end
  local prev = {}
  for i, m in ipairs(conv) do prev[i] = message_key(m) end
  if reply and reply.text then prev[#prev + 1] = message_key({ role = "assistant", content = reply.text, tool_calls = reply.tool_calls }) end
  self.prevs[participant or 1] = prev
end

-- wrap(agent [, participant]) -> an agent whose reply() calls are recorded
-- (labelled with the participant's name in a match; everything else passes through)
function Trial:wrap(agent, participant)
  local t = self
  return setmetatable({ reply = function(_, conv, ctx)
    local reply, err = agent:reply(conv, ctx)
    t:record(conv, ctx, reply, participant, not reply and err and err.message or nil)
    return reply, err
  end }, { __index = agent })
end

-- finish(status [, error]): append this attempt's line (the last line of a trial id wins);
-- a journalled trial's journal is removed once its line is not an error (an error
-- is tried again, and its next attempt carries the calls)
function Trial:finish(status, err)
  self.rec.trials:write({ trial_id = self.id, status = status, error = err, calls = self.calls,
    carried = (self.carried or 0) > 0 and self.carried or nil })
  if self.journal then self.journal:close(); self.journal = nil end
  if self.journal_path and status ~= "error" then os.remove(self.journal_path) end   -- (none if no call was made)
end

-- ---- reading ----

local function read_texts(dir)
  local texts = {}
  for _, t in ipairs((records.read(tdir(dir) .. "/texts.jsonl", { skip_bad = true }))) do
    if t.sha then texts[t.sha] = t.text end
  end
  return texts
end

-- journals(dir) -> trial_id -> what its call journal holds (the trials interrupted
-- and not finished since, in a run whose trials resume)
local function journals(dir)
  local out, od = {}, tdir(dir) .. "/open"
  if fs.kind(od) ~= "dir" then return out end
  for _, f in ipairs(fs.list(od)) do
    local j = f:match("%.jsonl$") and read_journal(od .. "/" .. f)
    if j and j.trial_id ~= nil then out[j.trial_id] = j end
  end
  return out
end

-- latest(id, line, journal) -> the line that shows the trial: its journal when that
-- holds calls its last line does not (an attempt interrupted since), else the line
local function latest(id, line, j)
  if j and (not line or #j.calls > #(line.calls or {})) then
    return { trial_id = id, status = "interrupted", calls = j.calls }
  end
  return line
end

-- ids(dir) -> trial ids with a transcript (first appearance order; then those
-- whose only transcript is their journal)
function M.ids(dir)
  local out, seen = {}, {}
  for _, t in ipairs((records.read(tdir(dir) .. "/trials.jsonl", { skip_bad = true }))) do
    if t.trial_id and not seen[t.trial_id] then seen[t.trial_id] = true; out[#out + 1] = t.trial_id end
  end
  local rest = {}
  for id in pairs(journals(dir)) do if not seen[id] then rest[#rest + 1] = id end end
  table.sort(rest, function(a, b) return tostring(a) < tostring(b) end)
  for _, id in ipairs(rest) do out[#out + 1] = id end
  return out
end

-- expand(dir, line [, texts]) -> the full transcript of one stored line
function M.expand(dir, line, texts)
  texts = texts or read_texts(dir)
  local function text(v)
    if type(v) == "table" and v.ref then return texts[v.ref] or ("[missing text " .. v.ref .. "]") end
    return v
  end
  local content
  local function message(m)
    local out = content(m)
    out.tool_calls, out.call_id, out.name, out.is_error = m.tool_calls, m.call_id, m.name, m.is_error
    return out
  end
  function content(m)
    if not m.parts then return { role = m.role, content = text(m.content) } end
    local parts = {}
    for i, p in ipairs(m.parts) do
      if p.type == "image" then parts[i] = { type = "image", file = tdir(dir) .. "/" .. p.file, mime = p.mime, detail = p.detail }
      else parts[i] = { type = p.type, text = text(p.text) } end
    end
    return { role = m.role, content = parts }
  end
  local out = { trial_id = line.trial_id, status = line.status, error = line.error, calls = {}, carried = line.carried }
  local prevs = {}   -- each participant's previous request (one conversation without participants)
  for _, c in ipairs(line.calls or {}) do
    local prev = prevs[c.participant or 1] or {}
    local msgs = {}
    for i = 1, math.min(c.keep or 0, #prev) do msgs[i] = prev[i] end
    for _, m in ipairs(c.add or {}) do msgs[#msgs + 1] = message(m) end
    local reply = c.reply and {
      text = text(c.reply.text), reasoning = text(c.reply.reasoning), finish = c.reply.finish,
      usage = c.reply.usage, cost = c.reply.cost, cached = c.reply.cached, seconds = c.reply.seconds, tool_calls = c.reply.tool_calls }
    out.calls[#out.calls + 1] = { messages = msgs, reply = reply, fen = c.fen, sample = c.sample, error = c.error,
      new_from = math.min(c.keep or 0, #prev) + 1, participant = c.participant }
    prev = {}
    for i, m in ipairs(msgs) do prev[i] = m end
    if reply and reply.text then prev[#prev + 1] = { role = "assistant", content = reply.text, tool_calls = reply.tool_calls } end
    prevs[c.participant or 1] = prev
  end
  return out
end

-- load(dir, trial_id) -> the trial's transcript (its last recorded attempt) | nil, why
function M.load(dir, trial_id)
  local found
  for _, t in ipairs((records.read(tdir(dir) .. "/trials.jsonl", { skip_bad = true }))) do
    if t.trial_id == trial_id then found = t end
  end
  found = latest(trial_id, found, journals(dir)[trial_id])
  if not found then return nil, string.format("%s has no transcript for trial %s", dir, tostring(trial_id)) end
  return M.expand(dir, found)
end

-- load_all(dir) -> trial_id -> transcript (last attempt of each, or its journal as load() takes it)
function M.load_all(dir)
  local texts, last = read_texts(dir), {}
  for _, t in ipairs((records.read(tdir(dir) .. "/trials.jsonl", { skip_bad = true }))) do
    if t.trial_id then last[t.trial_id] = t end
  end
  for id, j in pairs(journals(dir)) do last[id] = latest(id, last[id], j) end
  local out = {}
  for id, t in pairs(last) do out[id] = M.expand(dir, t, texts) end
  return out
end

-- format_messages(messages [, from]) -> readable text of messages[from..]: a
-- "--- role" line before each; an image part shows its file (or its size)
function M.format_messages(messages, from)
  local out = {}
  for j = from or 1, #messages do
    local m = messages[j]
    out[#out + 1] = "--- " .. tostring(m.role) .. (m.role == "tool" and string.format(" %s %s%s", tostring(m.name), tostring(m.call_id),
      m.is_error and " (refused)" or "") or "")
    if type(m.content) == "string" then out[#out + 1] = m.content
    else
      for _, p in ipairs(m.content or {}) do
        if p.type == "image" then
          out[#out + 1] = p.file and ("[image: " .. p.file .. "]") or string.format("[image: %d bytes]", #(p.data or ""))
        else out[#out + 1] = p.text or "" end
      end
    end
    for _, c in ipairs(m.tool_calls or {}) do out[#out + 1] = M.format_call(c) end
  end
  return table.concat(out, "\n")
end

-- format_call(call) -> "[tool call ID NAME ARGUMENTS]" (a stored call: arguments as the model wrote them)
function M.format_call(c)
  return string.format("[tool call %s %s %s]", tostring(c.id), tostring(c.name), tostring(c.raw or c.arguments))
end

-- summary(t) -> { calls, input, output, reasoning, cost } over a transcript's calls
function M.summary(t)
  local s = { calls = 0, input = 0, output = 0, reasoning = 0, cost = 0 }
  for _, c in ipairs(t.calls) do
    s.calls = s.calls + 1
    local u = c.reply and c.reply.usage or {}
    s.input = s.input + (u.input or 0)
    s.output = s.output + (u.output or 0)
    s.reasoning = s.reasoning + (u.reasoning or 0)
    s.cost = s.cost + (c.reply and c.reply.cost or 0)
  end
  return s
end

return M
