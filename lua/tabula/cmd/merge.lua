-- tabula merge OUT SHARD_DIR... — join the run directories of `tabula run
-- --shard K/N` into one run directory, as if the run had been made in one piece.
--
-- The shards must belong to one run: the same scenario file, model and options
-- (apart from --shard), every K of 1..N present once, and no trial recorded in
-- two shards. A shard still running (its lock held) or that did not finish its
-- plan is refused, naming it (--partial merges it anyway, listed in run.json
-- under merged_partial); so is a target holding another run. The records are
-- copied line by line (unchanged; damaged lines are skipped and reported) with
-- a new index (a scenario with its own records file, e.g. DECE's matches.jsonl,
-- has it merged the same way, with its per-match event logs and its schedule), the transcripts (texts shared between trials once), spend.jsonl
-- (every shard's lines: a budget counts them all) and the response caches;
-- run.json is the unsharded run's, with the shard directories listed under
-- merged_from. The merge is built in a directory beside the target
-- (.NAME.merging, every file fsynced) and renamed into place once whole: a
-- merge that fails midway (a full disk, shards that disagree) stops with one
-- line naming the file and leaves no target behind, so the same command can be
-- retried; a leftover of a merge killed midway is cleared by the next one. The records are held in
-- memory while they are merged. Continuing the merged directory with `tabula
-- run` (without --shard) runs whatever the shards left unfinished.
local cli = require "tabula.cli"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local failures = require "tabula.failures"
local run = require("tabula.cmd.run").lib

-- mkdir(dir): creates dir (and its parents), or stops naming it
local function mkdir(dir)
  local ok, err = fs.mkdir_p(dir)
  if not ok then cli.fail("merge: %s", err) end
end

-- the fields of run.json that must agree across shards (options without shard)
local function identity(meta)
  local opts = {}
  for k, v in pairs(meta.options_identity or {}) do
    if k ~= "shard" then opts[k] = v end
  end
  return json.canonical({ scenario = meta.scenario, scenario_sha256 = meta.scenario_sha256,
    model = meta.model, options = opts, prompts = (meta.setup or {}).prompts, data = meta.data })
end

-- what differs between two identities, for the error message
local function difference(a, b)
  local function enc(v) if v == nil then return "null" end return json.canonical(v) end
  local da, db = json.decode(a), json.decode(b)
  for _, k in ipairs({ "scenario", "scenario_sha256", "model", "prompts", "data" }) do
    if enc(da[k]) ~= enc(db[k]) then return k end
  end
  for k, v in pairs(da.options) do
    if enc(v) ~= enc(db.options[k]) then return "option --" .. k end
  end
  for k in pairs(db.options) do
    if da.options[k] == nil then return "option --" .. k end
  end
  return "run identity"
end

local remove_tree = fs.remove_tree   -- the merge's own staging directory only

-- staging(out) -> the directory a merge into out is built in: beside it, hidden
local function staging(out)
  return fs.dirname(out) .. "/." .. fs.basename(out) .. ".merging"
end

local function copy_tree(from, to)
  if fs.kind(from) ~= "dir" then return 0 end
  local n = 0
  for _, name in ipairs(fs.list(from)) do
    local src, dst = from .. "/" .. name, to .. "/" .. name
    if fs.kind(src) == "dir" then
      n = n + copy_tree(src, dst)
    elseif fs.kind(dst) ~= "file" then
      mkdir(to)
      fs.write_or_fail(dst, fs.read_or_fail(src))
      n = n + 1
    end
  end
  return n
end

-- lines(path [, keys]) -> { {text, rec}... }: the whole lines of a JSONL file
-- as they are (damaged ones skipped and reported by tabula.records)
local function lines(path, keys)
  local out = {}
  records.each(path, function(rec, _, text) out[#out + 1] = { text, rec } end,
    { skip_bad = true, keys = keys, text = true })
  return out
end

-- refusals(dir, meta) -> why this shard cannot be merged as finished (nil if it can), lock:
-- its run lock held by a run, or its plan not finished
-- store(meta) -> the records file and its id field (a scenario's own records,
-- run.json's records: DECE's matches.jsonl by match_id), its folder of per-trial
-- logs (DECE's matches/, event logs a match resumes from) and the files every
-- shard holds the same copy of (DECE's schedule.json)
local function store(meta)
  local s = type(meta.records) == "table" and meta.records or {}
  return s.file or "trials.jsonl", s.id or "trial_id", s.logs, s.files or {}
end

local function refusals(dir, meta)
  local why, lock = {}, nil
  if fs.kind(dir .. "/.lock") == "file" then
    local err, holder
    lock, err, holder = fs.lock(dir .. "/.lock")
    if not lock and holder then
      why[#why + 1] = string.format("shard %s is still running (process %d holds %s/.lock)", dir, holder, dir)
    elseif not lock then
      cli.fail("merge: %s", err)
    end
  end
  local done, recorded = {}, 0
  local file, idf = store(meta)
  local runner = require "tabula.runner"
  local required = select(3, runner.store(type(meta.records) == "table" and meta.records or nil))
  local check = runner.checker(idf, required)   -- a record that lost its status or fields is not recorded
  local function count(r)
    local id = r[idf]
    if id ~= nil and r.status ~= "error" and not done[id] and not (idf ~= "trial_id" and check(r)) then
      done[id] = true
      recorded = recorded + 1
    end
  end
  if idf == "trial_id" then records.each_id(dir .. "/" .. file, count, { check = check, keys = required })
  else
    local keys = { idf, "status" }
    for _, k in ipairs(required) do keys[#keys + 1] = k end
    records.each(dir .. "/" .. file, count, { skip_bad = true, keys = keys })
  end
  local planned = meta.trials_planned or 0
  if recorded < planned then
    why[#why + 1] = string.format("shard %s is unfinished (%d of %d trials recorded)", dir, recorded, planned)
  end
  return #why > 0 and why or nil, lock, recorded, planned
end

local function main(opts, args)
  local out = args[1] or cli.fail("merge: give the output directory, then the shard directories")
  if #out > 1 then out = out:gsub("/+$", "") end
  local dirs = { table.unpack(args, 2) }
  if #dirs == 0 then cli.fail("merge: give the shard directories to join after %s", out) end
  for _, f in ipairs({ "trials.jsonl", "matches.jsonl" }) do
    if fs.kind(out .. "/" .. f) == "file" then cli.fail("merge: %s already holds records (%s); give a new directory", out, f) end
  end
  local metas, by_k, meta_of, count, ident = {}, {}, {}, nil, nil
  for i, d in ipairs(dirs) do
    if fs.kind(d .. "/run.json") ~= "file" then cli.fail("merge: %s is not a run directory (no run.json)", d) end
    local meta = json.read_file(d .. "/run.json")
    local shard = meta.options and meta.options.shard
    if not shard then cli.fail("merge: %s is not a shard (it was not run with --shard K/N)", d) end
    local k, n = run.parse_shard(shard)
    count = count or n
    if n ~= count then cli.fail("merge: %s is shard %s, but %s is shard %s", d, shard, dirs[1], metas[1].options.shard) end
    if by_k[k] then cli.fail("merge: %s and %s are both shard %s", by_k[k], d, shard) end
    local id = identity(meta)
    if ident and id ~= ident then
      cli.fail("merge: %s belongs to another run than %s (%s differs)", d, dirs[1], difference(ident, id))
    end
    ident = ident or id
    by_k[k], metas[i], meta_of[k] = d, meta, meta
  end
  local missing = {}
  for k = 1, count do
    if not by_k[k] then missing[#missing + 1] = string.format("%d/%d", k, count) end
  end
  if #missing > 0 then cli.fail("merge: shards missing: %s", table.concat(missing, ", ")) end
  -- the target: a new directory, or one holding this very run (an earlier merge cut short)
  if fs.kind(out .. "/run.json") == "file" then
    local ok, theirs = pcall(json.read_file, out .. "/run.json")
    local id = ok and type(theirs) == "table" and identity(theirs)
    if id ~= ident then
      cli.fail("merge: %s holds another run (%s/run.json: %s differs from the shards'); give a new directory", out, out,
        id and difference(ident, id) or "unreadable")
    end
  end
  if fs.kind(out) and fs.kind(out) ~= "dir" then cli.fail("merge: %s is not a directory; give a new directory", out) end
  for _, name in ipairs(fs.kind(out) == "dir" and fs.list(out) or {}) do
    if name ~= "run.json" and name ~= ".lock" then
      cli.fail("merge: %s is not empty (it holds %s); give a new directory", out, name)
    end
  end
  -- shards still running or unfinished: refused unless --partial (then recorded)
  local locks, partial, why = {}, {}, {}
  for k = 1, count do
    local d = by_k[k]
    local refused, lock, recorded, planned = refusals(d, meta_of[k])
    locks[#locks + 1] = lock
    if refused then
      for _, w in ipairs(refused) do why[#why + 1] = w end
      partial[#partial + 1] = { shard = d, recorded = recorded, planned = planned, why = table.concat(refused, "; ") }
    end
  end
  if #why > 0 and not opts.partial then
    cli.fail("merge: %s; let it finish (or continue it with the same tabula run command), or give --partial to merge what it holds",
      table.concat(why, "; "))
  end
  -- the merge is built in a directory of its own next to the target (its
  -- leftover from a merge cut short is cleared first) and renamed into place
  -- once whole: a merge that fails midway leaves the target as it was
  local tmp = staging(out)
  mkdir(tmp)
  locks[#locks + 1] = failures.lock_dir(tmp)   -- held until the merge ends (a second merge into out waits its turn)
  for _, name in ipairs(fs.list(tmp) or {}) do
    if name ~= ".lock" then remove_tree(tmp .. "/" .. name) end
  end
  if fs.kind(out) == "dir" then locks[#locks + 1] = failures.lock_dir(out) end
  local seen, planned, cached, tlines, spent = {}, 0, 0, {}, { calls = 0, cost = 0 }
  local ok, err = pcall(function(dst)
    -- records: copied unchanged, shard by shard; a trial in two shards is refused
    local file, idf, logs, shared = store(metas[1])
    local out_lines = {}
    for k = 1, count do
      local d = by_k[k]
      for _, l in ipairs(lines(d .. "/" .. file, { idf })) do
        local id = type(l[2]) == "table" and l[2][idf]
        local other = id and seen[id]
        if other and other ~= d then cli.fail("merge: trial %s is recorded in both %s and %s", id, other, d) end
        if id then seen[id] = d end
        out_lines[#out_lines + 1] = l[1]
      end
    end
    records.write_file(dst .. "/" .. file, out_lines, { index = idf == "trial_id" })
    -- the scenario's per-trial logs (a log in two shards is refused) and its shared files
    -- (the same in every shard, since they are part of the run's identity)
    if logs then
      local from = {}
      for k = 1, count do
        local ld = by_k[k] .. "/" .. logs
        for _, name in ipairs(fs.kind(ld) == "dir" and fs.list(ld) or {}) do
          if from[name] then cli.fail("merge: %s/%s is in both %s and %s", logs, name, from[name], by_k[k]) end
          from[name] = by_k[k]
        end
        copy_tree(ld, dst .. "/" .. logs)
      end
    end
    for _, f in ipairs(shared) do
      local first = fs.read(by_k[1] .. "/" .. f)
      for k = 2, count do
        if fs.read(by_k[k] .. "/" .. f) ~= first then cli.fail("merge: %s differs between %s and %s", f, by_k[1], by_k[k]) end
      end
      if first then fs.write_or_fail(dst .. "/" .. f, first) end
    end

    -- transcripts (texts shared between trials are stored once) and images
    local texts, shas, transcribed = {}, {}, 0
    for k = 1, count do
      local td = by_k[k] .. "/transcripts"
      if fs.kind(td) == "dir" then
        transcribed = transcribed + 1
        for _, l in ipairs(lines(td .. "/trials.jsonl", { "trial_id" })) do tlines[#tlines + 1] = l[1] end
        for _, l in ipairs(lines(td .. "/texts.jsonl", { "sha" })) do
          local sha = type(l[2]) == "table" and l[2].sha
          if sha and not shas[sha] then shas[sha] = true; texts[#texts + 1] = l[1] end
        end
        copy_tree(td .. "/images", dst .. "/transcripts/images")
      end
    end
    if transcribed > 0 then
      mkdir(dst .. "/transcripts")
      records.write_file(dst .. "/transcripts/trials.jsonl", tlines)
      records.write_file(dst .. "/transcripts/texts.jsonl", texts)
    end

    -- spending: every shard's lines, so a budget on the merged run counts them all
    local spend = {}
    for k = 1, count do
      for _, l in ipairs(lines(by_k[k] .. "/spend.jsonl")) do
        spend[#spend + 1] = l[1]
        if type(l[2]) == "table" then
          spent.calls = spent.calls + (tonumber(l[2].calls) or 0)
          spent.cost = spent.cost + (tonumber(l[2].cost) or 0)
        end
      end
    end
    if #spend > 0 then records.write_file(dst .. "/spend.jsonl", spend) end

    for k = 1, count do cached = cached + copy_tree(by_k[k] .. "/cache", dst .. "/cache") end

    -- run.json: the unsharded run's (written last: a merge cut short has none)
    local meta = metas[1]
    for _, m in ipairs(metas) do
      planned = planned + (m.trials_planned or 0)
      if m.created and m.created < meta.created then meta.created = m.created end
    end
    meta.options.shard, meta.options_identity.shard = nil, nil
    meta.trials_planned = planned
    meta.merged_from = {}
    for k = 1, count do meta.merged_from[k] = by_k[k] end
    if #partial > 0 then meta.merged_partial = partial end
    fs.write_or_fail(dst .. "/run.json", json.encode(meta, { pretty = true }) .. "\n")
  end, tmp)
  if not ok then
    remove_tree(tmp)
    for _, l in ipairs(locks) do l:unlock() end
    if cli.is_user_error(err) then   -- named after the target, where the file was going
      cli.fail("%s", (tostring(err.message):gsub(tmp:gsub("%p", "%%%0"), (out:gsub("%%", "%%%%")))))
    end
    error(err, 0)
  end
  -- into place: a target left by `merge` before (nothing but run.json and its lock) is replaced
  if fs.kind(out) == "dir" then
    for _, name in ipairs({ "run.json", ".lock" }) do
      if fs.kind(out .. "/" .. name) then fs.remove(out .. "/" .. name) end
    end
    local gone, rerr = fs.remove(out)
    if not gone then remove_tree(tmp); cli.fail("merge: %s", rerr) end
  end
  local moved, merr = os.rename(tmp, out)
  if not moved then remove_tree(tmp); cli.fail("merge: cannot rename %s to %s: %s", tmp, out, tostring(merr)) end
  local n = 0
  for _ in pairs(seen) do n = n + 1 end
  io.write(string.format("merged %d shards into %s: %d trials, %d cached replies, %d transcripts, %d calls spent (%.4g USD)%s\n",
    count, out, n, cached, #tlines, spent.calls, spent.cost,
    #partial > 0 and string.format("; partial: %d shard%s not finished", #partial, #partial == 1 and "" or "s") or ""))
  for _, l in ipairs(locks) do l:unlock() end
  return 0
end

return {
  summary = "join the run directories of `tabula run --shard K/N` into one",
  usage = "OUT SHARD_DIR... [--partial]",
  options = {
    { "partial", "bool", false, "merge shards that are still running or did not finish their plan (recorded in run.json as merged_partial)" },
  },
  main = main,
}
