-- tabula batch status RUN | tabula batch cancel RUN — the batches a `tabula run
-- --batch` submitted (RUN/batches.jsonl, tabula.batch): status polls each
-- batch not yet ended and prints one line per batch; cancel asks the service
-- to cancel each of them (the run, continued, finds their calls cancelled and
-- submits them again in a new batch, up to --retries). The keys come from the
-- environment variables the batches name, as for the run.
local cli = require "tabula.cli"
local fs = require "tabula.fs"
local loop = require "tabula.loop"
local records = require "tabula.records"
local batch = require "tabula.batch"

local function counts(polled)
  local raw = polled and polled.raw or {}
  local c = raw.request_counts or (type(raw.metadata) == "table" and raw.metadata.batchStats) or nil
  if type(c) ~= "table" then return "" end
  local keys, parts = {}, {}
  for k in pairs(c) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do parts[#parts + 1] = string.format("%s %s", k, tostring(c[k])) end
  return " (" .. table.concat(parts, ", ") .. ")"
end

local SUMMARY = "the batches of a --batch run: tabula batch status RUN, tabula batch cancel RUN"
local USAGE = "status|cancel RUN"

local function main(_, args)
  for _, a in ipairs(args) do
    if a == "--help" or a == "-h" then
      io.write(cli.help_text({}, { program = "tabula batch", usage = USAGE, summary = SUMMARY }))
      return 0
    end
  end
  local what, dir = args[1], args[2]
  if what ~= "status" and what ~= "cancel" then cli.fail("batch: give status or cancel, then the run directory (tabula batch status RUN)") end
  if not dir then cli.fail("batch %s: give the run directory", what) end
  if fs.kind(dir .. "/" .. batch.JOURNAL) ~= "file" then cli.fail("batch %s: %s has no %s (was it run with --batch?)", what, dir, batch.JOURNAL) end
  local list, orphans = batch.read(dir)
  local open, writer = 0, nil
  loop.run(function()
    for _, b in ipairs(list) do
      local head = string.format("%s  %s %s, %d calls, submitted %s", b.id, tostring(b.provider), tostring(b.name or b.model), #b.items, tostring(b.at))
      if b.ended then
        local failed = 0
        for _ in pairs(b.failed) do failed = failed + 1 end
        io.write(string.format("%s: ended %s, %d answered, %d failed\n", head, tostring(b.status), #b.items - failed, failed))
      else
        open = open + 1
        local client, adapter = batch.client_for(b)
        if what == "status" then
          local polled, err = adapter.poll(client, b)
          if polled then io.write(string.format("%s: %s%s%s\n", head, polled.status, counts(polled), polled.ended and " (its results are read when the run continues)" or ""))
          else io.write(string.format("%s: cannot be polled: %s\n", head, tostring(err and err.message))) end
        else
          local ok, err = adapter.cancel(client, b)
          if ok then
            writer = writer or records.writer(dir .. "/" .. batch.JOURNAL)
            writer:write({ op = "cancel", id = b.id, at = os.date("!%Y-%m-%dT%H:%M:%SZ") })
            io.write(string.format("%s: cancel requested\n", head))
          else io.write(string.format("%s: not cancelled: %s\n", head, tostring(err and err.message))) end
        end
      end
    end
  end)
  for _, o in ipairs(orphans) do
    io.write(string.format("(tag %s)  %s %s, %d calls: created at %s, its id never answered; the run, continued, looks it up at the service\n",
      tostring(o.tag), tostring(o.provider), tostring(o.name or o.model), #o.items, tostring(o.at)))
  end
  if writer then writer:close() end
  io.write(string.format("%d batches, %d not ended\n", #list, open))
  return 0
end

return {
  summary = SUMMARY,
  usage = USAGE,
  raw_args = true,
  main = main,
}
