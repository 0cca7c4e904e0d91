-- tabula.records — JSONL files that survive a crash. Writers append one whole
-- line per record and fsync; readers detect a torn last line (a record cut off
-- by a kill) and skip it, reporting it; a broken line elsewhere is an error that
-- names the file and line.
local fs = require "tabula.fs"
local json = require "tabula.json"
local cjson = require "tabula.c.json"
local cli = require "tabula.cli"
local secrets = require "tabula.secrets"

local M = {}

-- each(path, fn [, {lenient=true, skip_bad=true, keys={...}, from=offset}]) -> info: calls
-- fn(record, lineno) for every whole line, reading one line at a time (memory
-- does not grow with the file). With keys, records hold only those top-level
-- fields. info = { torn = bool, torn_bytes = n, bad = { {line=, error=}... } }.
-- A missing file reads as no records.
function M.each(path, fn, opts)
  opts = opts or {}
  local info = { torn = false, torn_bytes = 0, bad = {} }
  local reader = cjson.lines(path, opts.from)   -- a block at a time, each line decoded from the buffer
  if not reader then return info end
  local decode_opts = { lenient = opts.lenient, keys = opts.keys }
  while true do
    local kind, v, lineno = reader:next(decode_opts)
    if kind == "record" then
      fn(v, lineno)
    elseif kind == "bad" then
      if not opts.skip_bad then
        reader:close()
        cli.fail("%s:%d: invalid JSON record: %s", path, lineno, v)
      end
      info.bad[#info.bad + 1] = { line = lineno, error = v }
    elseif kind == "torn" then
      -- no newline at the end: a torn write, whatever it holds
      info.torn, info.torn_bytes = true, v
    else
      break
    end
  end
  reader:close()
  return info
end

-- read(path [, opts]) -> records, info: every record in memory (see each);
-- info.lines[i] is the line number of records[i]
function M.read(path, opts)
  local out, lines = {}, {}
  local info = M.each(path, function(rec, lineno)
    out[#out + 1] = rec
    lines[#out] = lineno
  end, opts)
  info.lines = lines
  return out, info
end

-- final(recs) -> records, errors: each trial's final state, in file order. A
-- trial recorded as an infrastructure error and later (on resume) as a result
-- is that result; errors counts the trials whose final state is an error.
function M.final(recs)
  local last = {}
  for i, r in ipairs(recs) do
    local id = r.trial_id
    if id ~= nil then
      local j = last[id]
      if not j or r.status ~= "error" or recs[j].status == "error" then last[id] = i end
    end
  end
  local out, errors = {}, 0
  for i, r in ipairs(recs) do
    if r.trial_id == nil or last[r.trial_id] == i then
      out[#out + 1] = r
      if r.status == "error" then errors = errors + 1 end
    end
  end
  return out, errors
end

-- each_final(path, fn [, opts]) -> errors, info: like each, but only each
-- trial's final record (as M.final chooses it: a later record replaces an
-- earlier one, except that an error never replaces a result). Two passes (the
-- first over the index when there is one); memory holds a counter per trial,
-- not the records. (Occurrences are counted per trial rather than by line, so
-- the index and the records agree however blank or damaged lines fall.)
function M.each_final(path, fn, opts)
  opts = opts or {}
  -- pass 1: which occurrence of each trial is final (from the index when there is one)
  local last, last_status, seen = {}, {}, {}
  M.each_id(path, function(r)
    local id = r.trial_id
    if id == nil then return end
    local k = (seen[id] or 0) + 1
    seen[id] = k
    if not last[id] or r.status ~= "error" or last_status[id] == "error" then
      last[id], last_status[id] = k, r.status
    end
  end)
  -- pass 2: the final records, decoded one at a time
  local errors = 0
  seen = {}
  local info = M.each(path, function(r)
    local id = r.trial_id
    local k
    if id ~= nil then k = (seen[id] or 0) + 1; seen[id] = k end
    if id == nil or last[id] == k then
      if r.status == "error" then errors = errors + 1 end
      fn(r)
    end
  end, opts)
  return errors, info
end

local Writer = {}
Writer.__index = Writer

-- writer(path [, {index = true}]) -> writer, torn_bytes: opens for appending
-- (creating the directory), cutting off a torn last line left by an earlier
-- crash. With index, every record also appends { id, s = status, b, e = the
-- byte offsets where its line begins and ends } to PATH.idx, after the record itself is
-- on disk; each_id reads that small file instead of the records.
function M.writer(path, opts)
  fs.mkdir_p(fs.dirname(path))
  local a, torn = fs.appender(path)
  if not a then cli.fail("%s", torn) end
  local w = setmetatable({ path = path, appender = a }, Writer)
  if opts and opts.index then
    local f = io.open(path, "rb")
    w.offset = f and f:seek("end") or 0
    if f then f:close() end
    local ia, ierr = fs.appender(path .. ".idx")
    if not ia then cli.fail("%s", ierr) end
    w.index = ia
  end
  return w, torn
end

-- each_id(path, fn) -> info: fn({ trial_id, status }, lineno?) for every record,
-- from PATH.idx where it covers the file (a few bytes a record), then from the
-- records past the last indexed one (written before a crash could index them,
-- or by a writer without an index). info as for each.
function M.each_id(path, fn)
  local size = fs.kind(path) == "file" and (function()
    local f = io.open(path, "rb"); local n = f:seek("end"); f:close(); return n
  end)() or 0
  local covered = 0
  local idx = cjson.lines(path .. ".idx")
  if idx then
    while true do
      local kind, entry = idx:next()
      if kind ~= "record" or type(entry) ~= "table" then break end
      local b, e = entry.b, entry.e
      -- only an unbroken run of entries from the start of the file counts
      if b ~= covered or math.type(e) ~= "integer" or e > size or e <= covered then break end
      fn({ trial_id = entry.id, status = entry.s })
      covered = e
    end
    idx:close()
  end
  if covered == size then return { torn = false, torn_bytes = 0, bad = {} } end
  return M.each(path, fn, { skip_bad = true, keys = { "trial_id", "status" }, from = covered })
end

-- line(record) -> the record as one line of valid UTF-8 JSON, whatever bytes its
-- strings hold (engine output, model replies, server errors): NUL is escaped,
-- invalid UTF-8 becomes U+FFFD and the record says how many bytes were
-- replaced (replaced_invalid_utf8); API keys are redacted.
function M.line(rec)
  local text, replaced = json.encode(rec)
  if not text then error("cannot encode a record as JSON: " .. replaced, 2) end
  if replaced > 0 then
    rec.replaced_invalid_utf8 = replaced
    text = json.canonical(rec)
  end
  return secrets.redact(text)
end

-- writer:write(record): one line, fsynced before it returns. A failed write
-- (a full disk) stops the run with one line naming the file and the error;
-- the records written before it stay intact.
function Writer:write(rec)
  local line = M.line(rec)
  local ok, err = self.appender:write(line)
  if not ok then error(cli.user_error(string.format("%s: %s", self.path, err), 1), 0) end
  if self.index then
    local b = self.offset
    self.offset = b + #line + 1
    ok, err = self.index:write(json.canonical({ id = rec.trial_id, s = rec.status, b = b, e = self.offset }))
    if not ok then error(cli.user_error(string.format("%s.idx: %s", self.path, err), 1), 0) end
  end
end

function Writer:close()
  self.appender:close()
  if self.index then self.index:close() end
end
Writer.__close = Writer.close

return M
