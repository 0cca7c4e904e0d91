-- tabula.records — JSONL files that survive a crash. Writers append one whole
-- line per record and fsync; readers detect a torn last line (a record cut off
-- by a kill) and skip it, reporting it; a broken line elsewhere is an error that
-- names the file and line.
local fs = require "tabula.fs"
local json = require "tabula.json"
local cli = require "tabula.cli"
local secrets = require "tabula.secrets"

local M = {}

-- each(path, fn [, {lenient=true, skip_bad=true, keys={...}}]) -> info: calls
-- fn(record, lineno) for every whole line, reading one line at a time (memory
-- does not grow with the file). With keys, records hold only those top-level
-- fields. info = { torn = bool, torn_bytes = n, bad = { {line=, error=}... } }.
-- A missing file reads as no records.
function M.each(path, fn, opts)
  opts = opts or {}
  local info = { torn = false, torn_bytes = 0, bad = {} }
  local f = io.open(path, "rb")
  if not f then return info end
  local decode_opts = { lenient = opts.lenient, keys = opts.keys }
  local lineno = 0
  for line in f:lines("L") do
    lineno = lineno + 1
    if line:sub(-1) ~= "\n" then
      -- no newline at the end: a torn write, whatever it holds
      info.torn, info.torn_bytes = true, #line
      break
    end
    if not line:match("^%s*$") then
      local rec, err = json.decode(line, decode_opts)
      if rec ~= nil then
        fn(rec, lineno)
      elseif opts.skip_bad then
        info.bad[#info.bad + 1] = { line = lineno, error = err }
      else
        f:close()
        cli.fail("%s:%d: invalid JSON record: %s", path, lineno, err)
      end
    end
  end
  f:close()
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

local Writer = {}
Writer.__index = Writer

-- writer(path) -> writer, torn_bytes: opens for appending (creating the
-- directory), cutting off a torn last line left by an earlier crash.
function M.writer(path)
  fs.mkdir_p(fs.dirname(path))
  local a, torn = fs.appender(path)
  if not a then cli.fail("%s", torn) end
  return setmetatable({ path = path, appender = a }, Writer), torn
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
  local ok, err = self.appender:write(M.line(rec))
  if not ok then error(cli.user_error(string.format("%s: %s", self.path, err), 1), 0) end
end

function Writer:close() self.appender:close() end
Writer.__close = Writer.close

return M
