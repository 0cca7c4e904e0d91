-- bench/report_scale.lua — helpers of bench/report_scale.sh.
--   tabula bench/report_scale.lua make TEMPLATE_RUN OUT N   synthetic run of N real-shaped records
--   tabula bench/report_scale.lua old RUN                    the summary as before: every record read line by line, decoded
--                                                            whole and held; the pass table k by k
--   tabula bench/report_scale.lua resume RUN                 what continuing a run reads before its first new trial
--                                                            (runner.prepare: run.json, the lock, ids and states; the
--                                                            transcripts recorder's opening)
--   tabula bench/report_scale.lua resume-old RUN             the same as before (every record and stored text decoded)
local records = require "tabula.records"
local json = require "tabula.json"
local fs = require "tabula.fs"
local report = require "scenarios.xiangqibench.report"

-- every record in memory as records.read read them before: a line at a time
-- from f:lines, each decoded whole
local function read_as_before(path)
  local out = {}
  local f = assert(io.open(path, "rb"))
  for line in f:lines("L") do
    if line:sub(-1) == "\n" and not line:match("^%s*$") then out[#out + 1] = json.decode(line) end
  end
  f:close()
  return out
end

local mode = arg[1]
if mode == "make" then
  local src, out, n = arg[2], arg[3], tonumber(arg[4])
  local templates = records.read(src .. "/trials.jsonl")
  fs.mkdir_p(out)
  local meta = json.read_file(src .. "/run.json")
  fs.write_atomic(out .. "/run.json", json.encode(meta, { pretty = true }) .. "\n")
  local f = assert(io.open(out .. "/trials.jsonl", "wb"))
  local idx = assert(io.open(out .. "/trials.jsonl.idx", "wb"))   -- as the runner's writer keeps it
  local offset = 0
  local lines = {}
  for i, r in ipairs(templates) do
    r.trial_id = "TRIAL"
    r.case_id = "CASE"
    lines[i] = json.canonical(r)
  end
  for i = 1, n do
    local line = lines[(i - 1) % #lines + 1]
    local rec = line:gsub('"TRIAL"', string.format('"t%07d"', i), 1):gsub('"CASE"', string.format('"c%04d"', i % 500), 1)
    f:write(rec, "\n")
    idx:write(json.canonical({ id = string.format("t%07d", i), s = "success", b = offset, n = #rec,
      h = require("tabula.c.json").checksum(rec) }), "\n")
    offset = offset + #rec + 1
  end
  f:close()
  idx:close()
  -- the transcripts' shared texts: as many per trial as the template has, each its own
  -- (a real run's boards and replies differ from trial to trial)
  local texts = {}
  local tf = io.open(src .. "/transcripts/texts.jsonl", "rb")
  if tf then
    for line in tf:lines() do texts[#texts + 1] = line end
    tf:close()
  end
  if #texts > 0 then
    fs.mkdir_p(out .. "/transcripts")
    local tout = assert(io.open(out .. "/transcripts/texts.jsonl", "wb"))
    for i = 1, (#texts * n + #templates - 1) // #templates do
      local line = texts[(i - 1) % #texts + 1]:gsub('"sha":"[^"]*"', string.format('"sha":"%024x"', i), 1)
      tout:write(line, "\n")
    end
    tout:close()
  end
  print(string.format("wrote %d records to %s", n, out))
elseif mode == "old" then
  report.pass_table = report.pass_table_reference   -- the pass table as it was computed: k by k
  local meta = json.read_file(arg[2] .. "/run.json")
  local sm = report.compute(read_as_before(arg[2] .. "/trials.jsonl"), meta)
  print(string.format("old summary: %d trials", sm.trials))
elseif mode == "resume" then
  local runner = require "tabula.runner"
  local meta = json.read_file(arg[2] .. "/run.json")
  local done = runner.prepare(arg[2], meta)
  require("tabula.transcripts").recorder(arg[2]):open()   -- what the first trial opens
  local n = 0
  for _ in pairs(done) do n = n + 1 end
  print(string.format("resume read %d ids", n))
elseif mode == "resume-old" then
  local recs = read_as_before(arg[2] .. "/trials.jsonl")
  local seen = {}   -- the transcripts' stored texts, as the recorder read them before
  for _, t in ipairs(read_as_before(arg[2] .. "/transcripts/texts.jsonl")) do seen[t.sha] = true end
  local done = {}
  for _, r in ipairs(recs) do done[r.trial_id] = r end
  print(string.format("old resume read %d records", #recs))
end
