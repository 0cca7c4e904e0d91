-- tabula merge OUT SHARD_DIR... — join the run directories of `tabula run
-- --shard K/N` into one run directory, as if the run had been made in one piece.
--
-- The shards must belong to one run: the same scenario file, model and options
-- (apart from --shard), every K of 1..N present once, and no trial recorded in
-- two shards. The records are copied line by line (unchanged), the response
-- caches are copied, and run.json is the unsharded run's, with the shard
-- directories listed under merged_from. Continuing the merged directory with
-- `tabula run` (without --shard) runs whatever the shards left unfinished.
local cli = require "tabula.cli"
local fs = require "tabula.fs"
local json = require "tabula.json"
local run = require("tabula.cmd.run").lib

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

local function copy_tree(from, to)
  if fs.kind(from) ~= "dir" then return 0 end
  local n = 0
  for _, name in ipairs(fs.list(from)) do
    local src, dst = from .. "/" .. name, to .. "/" .. name
    if fs.kind(src) == "dir" then
      n = n + copy_tree(src, dst)
    elseif fs.kind(dst) ~= "file" then
      fs.mkdir_p(to)
      local ok, err = fs.write_atomic(dst, fs.read(src))
      if not ok then cli.fail("%s", err) end
      n = n + 1
    end
  end
  return n
end

local function main(_, args)
  local out = args[1] or cli.fail("merge: give the output directory, then the shard directories")
  local dirs = { table.unpack(args, 2) }
  if #dirs == 0 then cli.fail("merge: give the shard directories to join after %s", out) end
  if fs.kind(out .. "/trials.jsonl") == "file" then cli.fail("merge: %s already holds records; give a new directory", out) end
  local metas, by_k, count, ident = {}, {}, nil, nil
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
    by_k[k], metas[i] = d, meta
  end
  local missing = {}
  for k = 1, count do
    if not by_k[k] then missing[#missing + 1] = string.format("%d/%d", k, count) end
  end
  if #missing > 0 then cli.fail("merge: shards missing: %s", table.concat(missing, ", ")) end

  -- records: copied unchanged, shard by shard; a trial in two shards is refused
  fs.mkdir_p(out)
  local seen, planned = {}, 0
  local tmp = out .. "/trials.jsonl.merging"
  local f = assert(io.open(tmp, "wb"))
  for k = 1, count do
    local d = by_k[k]
    local path = d .. "/trials.jsonl"
    if fs.kind(path) == "file" then
      local lineno = 0
      for line in io.lines(path, "L") do
        lineno = lineno + 1
        local r = line:sub(-1) == "\n" and json.decode(line, { keys = { "trial_id" } })
        if not r then
          if not line:match("^%s*$") then
            io.stderr:write(string.format("note: %s:%d is torn or damaged; it is left out\n", path, lineno))
          end
        else
          local other = r.trial_id and seen[r.trial_id]
          if other and other ~= d then
            f:close(); os.remove(tmp)
            cli.fail("merge: trial %s is recorded in both %s and %s", r.trial_id, other, d)
          end
          if r.trial_id then seen[r.trial_id] = d end
          f:write(line)
        end
      end
    end
  end
  f:close()
  os.rename(tmp, out .. "/trials.jsonl")
  local cached = 0
  for k = 1, count do cached = cached + copy_tree(by_k[k] .. "/cache", out .. "/cache") end

  -- run.json: the unsharded run's
  local meta = metas[1]
  for _, m in ipairs(metas) do
    planned = planned + (m.trials_planned or 0)
    if m.created and m.created < meta.created then meta.created = m.created end
  end
  meta.options.shard, meta.options_identity.shard = nil, nil
  meta.trials_planned = planned
  meta.merged_from = {}
  for k = 1, count do meta.merged_from[k] = by_k[k] end
  local ok, err = fs.write_atomic(out .. "/run.json", json.encode(meta, { pretty = true }) .. "\n")
  if not ok then cli.fail("%s", err) end
  local n = 0
  for _ in pairs(seen) do n = n + 1 end
  io.write(string.format("merged %d shards into %s: %d trials, %d cached replies\n", count, out, n, cached))
  return 0
end

return {
  summary = "join the run directories of `tabula run --shard K/N` into one",
  usage = "OUT SHARD_DIR...",
  main = main,
}
