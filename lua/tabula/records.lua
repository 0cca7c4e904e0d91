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

-- The index: a writer with {index = true} appends to PATH.idx, after each
-- record is on disk, one entry { id = trial_id, s = status, b = the byte offset
-- of its line, n = its length (without the newline), h = its checksum, and
-- x = why, for a record a rebuild found invalid (each_id's check) } (64
-- bits, 16 hex digits: FNV-1a's constants stepped over the line's 8-byte words;
-- tabula.c.json.checksum).
-- Readers check every line that has an entry against it: a line whose bytes
-- no longer match (the same length and another checksum, or the same trial
-- and another length) is a damaged record, skipped and named with its line.
-- An index that disagrees with the file (an entry that does not start a line,
-- a line that is not the record its entry names, entries past the end, a line
-- of the index that is not an entry) is not used from that point on, with a
-- note; the lines after it are read as they are, and each_id {rebuild = true}
-- rewrites the index from the file.

local function is_entry(e)
  return type(e) == "table" and math.type(e.b) == "integer" and math.type(e.n) == "integer"
    and type(e.h) == "string" and e.id ~= nil
end

-- walk(path, fn, opts) -> info: the lines of path, checked against its index.
-- fn(value, lineno, entry) for each whole line that is not damaged: value is
-- the line decoded (with opts.keys, opts.lenient); with opts.ids, a line its
-- entry vouches for is not decoded (value nil; the entry holds id and status).
-- info = { torn, torn_bytes, bad = { {line=, error=}... }, stale = why the
-- index was left | nil, unindexed = lines without an entry; with opts.collect,
-- what the index should hold: its first `kept` lines as they are, then `entries` }
local function walk(path, fn, opts)
  local info = { torn = false, torn_bytes = 0, bad = {}, unindexed = 0, kept = 0 }
  local reader = cjson.lines(path)
  if not reader then return info end
  local idx = opts.index ~= false and cjson.lines(path .. ".idx") or nil
  local entry   -- the next entry not yet matched to a line
  -- with opts.collect: entries are held only from the first line the index does
  -- not vouch for (until then the index's own lines are kept: info.kept)
  local collecting = opts.collect and not idx
  local collect = opts.collect and {} or nil
  local function keep(e)
    if collecting then collect[#collect + 1] = e elseif collect then info.kept = info.kept + 1 end
  end
  local function stale(why)
    info.stale = info.stale or why
    collecting = collect ~= nil
    if idx then idx:close(); idx = nil end
    entry = nil
  end
  local function advance()
    local kind, e, ln = idx:next()
    if kind == nil then idx:close(); idx, entry = nil, nil
    elseif kind == "torn" then stale("its last entry is torn")
    elseif not is_entry(e) then stale(string.format("line %d of the index is not an entry", ln))
    else entry = e end
  end
  if idx then advance() end
  local line_opts = { decode = not opts.ids, checksum = idx ~= nil or collect ~= nil, keys = opts.keys, lenient = opts.lenient }
  local id_keys = { keys = { "trial_id", "status" } }
  for _, k in ipairs(opts.ids and opts.check_keys or {}) do id_keys.keys[#id_keys.keys + 1] = k end
  while true do
    local kind, v, lineno, offset, len, sum = reader:next(line_opts)
    if kind == nil then break end
    if kind == "torn" then info.torn, info.torn_bytes = true, v; break end
    if entry and entry.b < offset then
      stale(string.format("its entry for trial %s (byte %d) does not start a line", tostring(entry.id), entry.b))
    end
    local vouch   -- the entry this line matches
    if entry and entry.b == offset then
      local e = entry
      if e.n == len and e.h == sum then
        vouch = e
        advance()
        -- a record its entry marks invalid (x), or (with opts.check) whose id and status fail the check
        local why = opts.ids and (type(e.x) == "string" and e.x or opts.check and opts.check({ trial_id = e.id, status = e.s }, true))
        if why then
          info.bad[#info.bad + 1] = { line = lineno, invalid = true, error = why }
          keep(e)
          goto continue
        end
      else
        local r = reader:decode(id_keys)
        if r == nil or (type(r) == "table" and r.trial_id == e.id) then
          -- the record its entry names, changed: damaged (its entry is kept, so it stays so)
          info.bad[#info.bad + 1] = { line = lineno, changed = true, error = string.format(
            "its bytes changed after it was written: checksum mismatch with its index entry (trial %s)", tostring(e.id)) }
          keep(e)
          if e.n == len then advance() else stale(string.format("line %d changed length", lineno)) end
          goto continue
        end
        stale(string.format("line %d is not the record its entry names (trial %s)", lineno, tostring(e.id)))
      end
    end
    if not vouch then
      info.unindexed = info.unindexed + 1
      collecting = collect ~= nil
      if opts.ids then
        local r, err = reader:decode(id_keys)
        if r ~= nil then kind, v = "record", r else kind, v = "bad", err end
        local why = kind == "record" and opts.check and opts.check(r)
        if why then   -- indexed with its mark, so it stays invalid however the index is read
          info.bad[#info.bad + 1] = { line = lineno, invalid = true, error = why }
          if collect and type(r) == "table" and r.trial_id ~= nil then
            keep({ id = r.trial_id, s = r.status, b = offset, n = len, h = sum, x = why })
          end
          goto continue
        end
      end
    end
    if kind == "bad" then
      info.bad[#info.bad + 1] = { line = lineno, error = v }
      if vouch then keep(vouch) end
    else
      if vouch then keep(vouch)
      elseif collect and type(v) == "table" and v.trial_id ~= nil then
        keep({ id = v.trial_id, s = type(v.status) == "string" and v.status or nil, b = offset, n = len, h = sum })
      end
      fn(v, lineno, vouch, opts.text and reader:text() or nil)
    end
    ::continue::
  end
  reader:close()
  if entry then
    local extra = 0
    while entry do extra = extra + 1; advance() end
    stale(string.format("it lists %d record%s past the end of the file", extra, extra == 1 and "" or "s"))
  end
  if idx then idx:close() end
  info.entries = collect
  return info
end

local reported = {}   -- what this process has said about its files (once each)

-- say(key, line): line on stderr, unless this process said it already (by key)
local function say(key, line)
  if reported[key] then return end
  reported[key] = true
  io.stderr:write(line, "\n")
end

-- report(path, info [, consequence]): says on stderr (once per process) how many
-- lines a read of path skipped as damaged and the first one's line number, and
-- a torn last line. Every reader that skips (each with skip_bad) comes here.
function M.report(path, info, consequence)
  local bad = info.bad
  if #bad > 0 then
    say(string.format("%s\0bad\0%d\0%d", path, #bad, bad[1].line),
      string.format("warning: %s: %d damaged line%s skipped, %s line %d (%s)%s", path, #bad, #bad == 1 and "" or "s",
        #bad == 1 and "at" or "the first at", bad[1].line, bad[1].error, consequence and ("; " .. consequence) or ""))
  end
  if info.torn then
    say(path .. "\0torn", string.format("note: %s ends in a torn line (%d bytes, from an interrupted write); it is left out%s", path,
      info.torn_bytes, consequence and ("; " .. consequence) or ""))
  end
end

local function stale_note(path, info, rebuilt)
  if info.stale then
    say(path .. "\0stale", string.format("note: %s.idx does not match %s (%s); %s", path, path, info.stale,
      rebuilt and "rebuilt it from the records" or "the records are read without it"))
  end
end

-- each(path, fn [, {lenient=true, skip_bad=true, keys={...}, quiet=true, text=true}])
-- -> info: calls fn(record, lineno [, text: the line as it is in the file]) for
-- every whole line, reading one line at a time (memory does not grow with the
-- file), each line checked against PATH.idx when there is one (see above). With keys, records hold only those top-level fields.
-- info = { torn = bool, torn_bytes = n, bad = { {line=, error=}... } }. A damaged
-- line is an error naming the file and line, or with skip_bad is skipped and
-- reported (M.report; quiet leaves that to the caller). A missing file reads as no records.
function M.each(path, fn, opts)
  opts = opts or {}
  local info = walk(path, function(v, lineno, _, text) fn(v, lineno, text) end,
    { keys = opts.keys, lenient = opts.lenient, text = opts.text })
  if #info.bad > 0 and not opts.skip_bad then
    local b = info.bad[1]
    cli.fail("%s:%d: %s: %s", path, b.line, b.changed and "damaged record" or "invalid JSON record", b.error)
  end
  stale_note(path, info)
  if opts.skip_bad and not opts.quiet then M.report(path, info) end
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
-- first decoding only the lines the index does not vouch for), both checking
-- the lines against the index the same way, so both skip the same damaged
-- lines; the final record is known by its line number. Memory holds a line
-- number per trial, not the records.
function M.each_final(path, fn, opts)
  opts = opts or {}
  -- pass 1: the line of each trial's final record
  local last, last_status = {}, {}
  M.each_id(path, function(r, lineno)
    local id = r.trial_id
    if id == nil then return end
    if not last[id] or r.status ~= "error" or last_status[id] == "error" then
      last[id], last_status[id] = lineno, r.status
    end
  end, { quiet = true })
  -- pass 2: the final records, decoded one at a time
  local errors = 0
  local info = M.each(path, function(r, lineno)
    local id = r.trial_id
    if id == nil or last[id] == lineno then
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
-- crash. With index, every record also appends its entry to PATH.idx (see
-- above), after the record itself is on disk.
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

-- index_entry(rec, line, offset) -> the index line of a record written as line at
-- offset, or nil for a record without a trial id (read without an entry)
local function index_entry(rec, line, offset)
  if type(rec) ~= "table" or rec.trial_id == nil then return nil end
  return json.canonical({ id = rec.trial_id, s = rec.status, b = offset, n = #line, h = cjson.checksum(line) })
end

-- write_file(path, lines [, {index = true}]): a whole file of records (each
-- line one record's text, as from line()) and its index, each written to a
-- temporary file, fsynced and renamed into place; a failed write stops with
-- one line naming the file (nothing half-written is left in place)
function M.write_file(path, lines, opts)
  local text = #lines > 0 and (table.concat(lines, "\n") .. "\n") or ""
  fs.write_or_fail(path, text)
  if opts and opts.index then
    local out, offset = {}, 0
    for i, line in ipairs(lines) do
      local e = index_entry(json.decode(line, { keys = { "trial_id", "status" } }), line, offset)
      if e then out[#out + 1] = e .. "\n" end
      offset = offset + #line + 1
    end
    fs.write_or_fail(path .. ".idx", table.concat(out))
  end
end

-- each_id(path, fn [, {rebuild = true, quiet = true, check = fn, keys = {...}}])
-- -> info: fn({ trial_id, status }, lineno) for every record that is not
-- damaged, the lines checked against PATH.idx (see above) and decoded only
-- where no entry vouches for them. Damaged lines are skipped and reported
-- (M.report, unless quiet). With check(record [, partial]) -> why | nil, a
-- record it refuses is a damaged line too (named with why): a decoded line is
-- checked whole (its trial_id, status and opts.keys), a line an entry vouches
-- for by its entry's id and status (partial); a line its entry marks invalid
-- (x = why, written by a rebuild that refused it) is damaged for every reader.
-- With rebuild (the caller holds the run's lock), an index that disagrees with
-- the file or misses lines is rewritten from the file, refused records marked.
-- info as for each.
function M.each_id(path, fn, opts)
  opts = opts or {}
  local info = walk(path, function(v, lineno, e)
    if e then fn({ trial_id = e.id, status = e.s }, lineno) else fn(v, lineno) end
  end, { ids = true, collect = opts.rebuild, check = opts.check, check_keys = opts.keys })
  local rebuilt = false
  if opts.rebuild and (info.stale or info.unindexed > 0) then
    local lines = {}
    local old = info.kept > 0 and cjson.lines(path .. ".idx")
    for i = 1, info.kept do
      old:next({ decode = false })
      lines[i] = old:text() .. "\n"
    end
    if old then old:close() end
    for _, e in ipairs(info.entries) do lines[#lines + 1] = json.canonical(e) .. "\n" end
    fs.write_or_fail(path .. ".idx", table.concat(lines))
    rebuilt = true
  end
  stale_note(path, info, rebuilt)
  if not opts.quiet then M.report(path, info) end
  return info
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
    local e = index_entry(rec, line, b)
    if e then ok, err = self.index:write(e) end
    if not ok then error(cli.user_error(string.format("%s.idx: %s", self.path, err), 1), 0) end
  end
end

function Writer:close()
  self.appender:close()
  if self.index then self.index:close() end
end
Writer.__close = Writer.close

return M
