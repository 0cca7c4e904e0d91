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
--
-- Writing (the runner does this for every trial unless --no-transcripts):
--   local rec = transcripts.recorder(run_dir)
--   local t = rec:trial(trial_id)           -- t:wrap(agent) records every reply() call
--   env.agent = t:wrap(env.agent)            -- a ctx.board (with :fen()) or ctx.fen is kept per call
--   t:finish(status)                         -- appends the trial's line
--   env.agents[n] = t:wrap(env.agents[n], n) -- a match: each participant's calls labelled n
--   play = rec:recording(play)               -- or all of it around a scenario's play(trial, env)
--                                            -- (env.agent and every agent of env.agents)
--   rec.totals                               -- { calls, input, output, cost } recorded so far
-- Reading:
--   transcripts.load(run_dir, trial_id) -> { trial_id, status, calls = { {
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

-- recorder(dir) -> the run's recorder. A continued run does not read what earlier
-- sessions stored (its start must not grow with the run): a text they stored
-- may be stored once more (the same sha and text; readers take either), an
-- image is rewritten under the same name.
function M.recorder(dir)
  return setmetatable({ dir = tdir(dir), seen = {}, totals = { calls = 0, input = 0, output = 0, cost = 0 } }, Recorder)
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

-- trial(id) -> a recorder for one trial attempt
function Recorder:trial(id)
  self:open()
  return setmetatable({ rec = self, id = id, calls = {}, prevs = {} }, Trial)
end

-- record(conv, ctx, reply [, participant]): one model call
function Trial:record(conv, ctx, reply, participant)
  local before = self.prevs[participant or 1] or {}
  local keep = 0
  while keep < #conv and keep < #before and message_key(conv[keep + 1]) == before[keep + 1] do
    keep = keep + 1
  end
  local add = {}
  for i = keep + 1, #conv do add[#add + 1] = self.rec:message(conv[i]) end
  local call = { keep = keep, add = add, sample = ctx and ctx.sample, participant = participant }
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
    t:record(conv, ctx, reply, participant)
    if not reply then t.calls[#t.calls].error = err and err.message end
    return reply, err
  end }, { __index = agent })
end

-- finish(status [, error]): append this attempt's line (the last line of a trial id wins)
function Trial:finish(status, err)
  self.rec.trials:write({ trial_id = self.id, status = status, error = err, calls = self.calls })
end

-- ---- reading ----

local function read_texts(dir)
  local texts = {}
  for _, t in ipairs((records.read(tdir(dir) .. "/texts.jsonl", { skip_bad = true }))) do
    if t.sha then texts[t.sha] = t.text end
  end
  return texts
end

-- ids(dir) -> trial ids with a transcript (first appearance order)
function M.ids(dir)
  local out, seen = {}, {}
  for _, t in ipairs((records.read(tdir(dir) .. "/trials.jsonl", { skip_bad = true }))) do
    if t.trial_id and not seen[t.trial_id] then seen[t.trial_id] = true; out[#out + 1] = t.trial_id end
  end
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
  local out = { trial_id = line.trial_id, status = line.status, error = line.error, calls = {} }
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
  if not found then return nil, string.format("%s has no transcript for trial %s", dir, tostring(trial_id)) end
  return M.expand(dir, found)
end

-- load_all(dir) -> trial_id -> transcript (last attempt of each)
function M.load_all(dir)
  local texts, last = read_texts(dir), {}
  for _, t in ipairs((records.read(tdir(dir) .. "/trials.jsonl", { skip_bad = true }))) do
    if t.trial_id then last[t.trial_id] = t end
  end
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
