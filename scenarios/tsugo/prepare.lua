-- scenarios/tsugo/prepare.lua — what TsuGO prepares for each problem before any
-- trial: its K=4 option set in the original frame (options.lua's rule over the
-- reference tree's wrong first moves, the local solver's refuted first moves,
-- the open-root MCTS proposals and GNU Go's move) and the log of how each option
-- was chosen (the pool, with the solver's refutations: the proofs that the
-- distractors lose). A problem of one's own (--problems) costs seconds of CPU
-- here (the solver reads every local first move), so:
--  * what is prepared is kept: one file per problem in a cache folder
--    (--prepared-cache, default TMPDIR/tabula-tsugo-prepared), named by the
--    sha256 of the problem as loaded and of every setting that changes the
--    result (the problem's seed, --mcts-playouts, --solver-distractor-nodes,
--    GNU Go and --gnugo-frame). A second run over the same problems reads it,
--    and so does every worker process of a run (each makes the plan again).
--    A preparation whose GNU Go failed is not kept (it is tried again).
--  * the problems not in the cache are prepared in parallel, in up to
--    --workers processes (default: one per core), each a `tabula -e` child
--    writing its share into the cache, with a progress line on stderr.
--
--   local sets, logs = prepare.all(list, seeds, opts, pool)   -- by problem id
local json = require "tabula.json"
local fs = require "tabula.fs"
local go = require "games.go"
local gnugo = require "games.go.gnugo"
local solve = require "games.go.solve"
local engine = require "tabula.engine"
local options = require "scenarios.tsugo.options"
local mcts = require "scenarios.tsugo.mcts"
local refs = require "scenarios.tsugo.references"

local M = {}

M.FORMAT = 1   -- raised when what is prepared changes (older cache files are then not read)

-- gnugo_pool(opts) -> a pool of one GNU Go, or nil
function M.gnugo_pool(opts)
  if opts.gnugo == "none" or fs.kind(opts.gnugo) ~= "file" then return nil end
  return engine.pool(function() return gnugo.start({ path = opts.gnugo, level = 10 }) end, 1)
end

-- the first moves the local solver proves wrong (SGF): the suite's own proven
-- wrong moves, else a search of every local point at a small budget
local function solver_refuted(p, s, opts)
  if p.convention == "solver proof" and p.wrong then return p.wrong end
  local n = opts["solver-distractor-nodes"]
  if n <= 0 or not s.query then return {} end
  local q = {}
  for k, v in pairs(s.query) do q[k] = v end
  q.nodes = n
  local out = {}
  for _, m in ipairs(solve.first_moves(p, q, { moves = s.points }).moves) do
    if m.result == "loss" then out[#out + 1] = m.move end
  end
  return out
end

-- option_set(p, opts, pool, seed) -> the K=4 option set of a problem (original
-- frame, SGF) by the paper's rule, or nil; its log; GNU Go's error, if it failed
function M.option_set(p, opts, pool, seed)
  local s = mcts.setting(p)
  local accepted = {}
  for _, c in ipairs(p.correct) do accepted[c] = true end
  local local_set = {}
  for _, pt in ipairs(s.points) do local_set[pt] = true end
  local function gtp(list) local o = {} for i, v in ipairs(list) do o[i] = go.to_gtp(v, p.size) end return o end
  local r = mcts.run(p, { seed = seed, playouts = opts["mcts-playouts"] })
  local ranked = {}
  for _, e in ipairs(r.root) do ranked[#ranked + 1] = e end
  table.sort(ranked, function(a, b) return a.visits > b.visits end)
  local proposals = {}
  for i = 1, math.min(5, #ranked) do proposals[i] = ranked[i].point end
  local sources = { { name = "tree", points = gtp(p.wrong or {}) }, { name = "solver", points = gtp(solver_refuted(p, s, opts)) },
    { name = "mcts", points = gtp(proposals) } }
  local gnugo_error
  if pool then
    local ok, g = pcall(pool.with, pool, function(e) return refs.gnugo(e, p, s, nil, opts["gnugo-frame"]) end)
    if not ok then
      gnugo_error = gnugo.message(g)
      io.stderr:write("tsugo: problem ", p.id, ": no GNU Go proposal for the options: ", gnugo_error, "\n")
    elseif g.open then sources[#sources + 1] = { name = "gnugo", points = { go.to_gtp(g.open, p.size) } } end
  end
  local acc_gtp = {}
  for c in pairs(accepted) do acc_gtp[go.to_gtp(c, p.size)] = true end
  local o, log = options.choose({
    canonical = go.to_gtp(p.correct[1], p.size), accepted = acc_gtp, sources = sources, size = p.size,
    rng = require("tabula.metrics").rng(seed),
    usable = function(pt)
      local sgf = go.from_gtp(pt, p.size)
      if not sgf then return false, "off the board" end
      if s.game:get(sgf) then return false, "occupied" end
      if not s.game:is_legal(sgf, p.to_play) then return false, "illegal for the side to play" end
      if not local_set[sgf] then return false, "outside the local region" end
      return true
    end,
  })
  if not o then return nil, log, gnugo_error end
  local sgf = { order = {} }
  for i, l in ipairs(options.LETTERS) do
    sgf[l] = go.from_gtp(o[l], p.size)
    sgf.order[i] = sgf[l]
  end
  return sgf, log, gnugo_error
end

-- cache_dir(opts) -> the folder prepared problems are kept in
function M.cache_dir(opts)
  if opts["prepared-cache"] then return opts["prepared-cache"] end
  return (os.getenv("TMPDIR") or "/tmp") .. "/tabula-tsugo-prepared"
end

-- key(p, seed, opts, gnugo_on) -> the name of a problem's cache file: the sha256 of
-- the problem as loaded and of the settings its preparation depends on
function M.key(p, seed, opts, gnugo_on)
  return fs.sha256(json.canonical({ format = M.FORMAT, problem = p, seed = seed, playouts = opts["mcts-playouts"],
    solver_nodes = opts["solver-distractor-nodes"], gnugo = gnugo_on and opts.gnugo or "none",
    frame = gnugo_on and opts["gnugo-frame"] or nil }))
end

local function path_of(dir, key) return dir .. "/" .. key .. ".json" end

-- read(dir, key) -> the kept preparation { options = set | false, log } or nil
local function read(dir, key)
  local text = fs.read(path_of(dir, key))
  local e = text and json.decode(text)
  if type(e) ~= "table" or e.key ~= key then return nil end
  return e
end

-- keep(dir, key, p, set, log, seconds): one problem's preparation, written whole (a
-- failed write only costs preparing it again)
local function keep(dir, key, p, set, log, seconds)
  fs.mkdir_p(dir)
  pcall(fs.write_atomic, path_of(dir, key), json.canonical({ key = key, id = p.id, options = set or false, log = log,
    seconds = seconds }) .. "\n")
end

-- one(p, seed, opts, pool, dir, key) -> set, log: prepared now and kept
local function one(p, seed, opts, pool, dir, key)
  local c0 = os.clock()
  local set, log, gnugo_error = M.option_set(p, opts, pool, seed)
  if not gnugo_error then keep(dir, key, p, set, log, os.clock() - c0) end
  return set, log
end

-- child(job_file, k, n): a `tabula -e` child of all(): prepares the k-th of n shares
-- of the job's problems into the cache
function M.child(job_file, k, n)
  local job = json.decode(fs.read(job_file))
  local pool = M.gnugo_pool(job.opts)
  for i = k, #job.todo, n do
    local e = job.todo[i]
    one(e.problem, e.seed, job.opts, pool, job.dir, e.key)
  end
  if pool then pool:close() end
end

-- the options the children need (plain values)
local SETTINGS = { "mcts-playouts", "solver-distractor-nodes", "gnugo", "gnugo-frame" }

-- all(list, seeds, opts, pool) -> option sets and logs by problem id: read from
-- the cache, the rest prepared (in parallel when there are several) and kept.
-- Says on stderr, unless opts.quiet, how many were prepared and read, with a
-- progress line while preparing.
function M.all(list, seeds, opts, pool)
  local dir = M.cache_dir(opts)
  local sets, logs, todo = {}, {}, {}
  for _, p in ipairs(list) do
    local key = M.key(p, seeds[p.id], opts, pool ~= nil)
    local e = read(dir, key)
    if e then sets[p.id], logs[p.id] = e.options or nil, e.log
    else todo[#todo + 1] = { problem = p, seed = seeds[p.id], key = key } end
  end
  local from_cache = #list - #todo
  if #todo == 0 then
    if not opts.quiet and #list > 0 then
      io.stderr:write(string.format("tsugo: %d problem%s prepared before, read from %s\n", #list, #list == 1 and "" or "s", dir))
    end
    return sets, logs
  end
  local say = not opts.quiet
  local tty = say and require("tabula.c.host").isatty(2)
  local started = require("tabula.loop").now()
  local done = 0
  local function progress(id)
    if not say then return end
    local line = string.format("tsugo: preparing problems (K=4 options, solver refutations): %d of %d done%s", done, #todo,
      id and (", last " .. id) or "")
    if tty then io.stderr:write("\r\27[K", line) else io.stderr:write(line, "\n") end
    io.stderr:flush()
  end
  -- (a worker process of the run prepares alone: its parent prepared in parallel
  -- already, and only what it could not keep is left)
  local nproc = require("tabula.model_settings").quiet and 1 or math.min(#todo, opts.workers or require("tabula.workers").cores())
  progress()
  if nproc > 1 then
    local loop = require "tabula.loop"
    local proc = require "tabula.c.proc"
    local host = require "tabula.c.host"
    local job = { dir = dir, opts = {}, todo = todo }
    for _, k in ipairs(SETTINGS) do job.opts[k] = opts[k] end
    fs.mkdir_p(dir)
    local job_file = os.tmpname()
    fs.write_atomic(job_file, json.encode(job))
    local kids = {}
    for k = 1, nproc do
      local code = string.format("require('scenarios.tsugo.prepare').child(%q, %d, %d)", job_file, k, nproc)
      kids[#kids + 1] = proc.spawn({ host.exe, "-e", code }, "inherit", { owned = true })   -- (nil if it cannot start)
    end
    local seen, running = {}, #kids
    while true do
      for _, e in ipairs(todo) do
        if not seen[e.key] and fs.kind(path_of(dir, e.key)) == "file" then
          seen[e.key] = true
          done = done + 1
          progress(e.problem.id)
        end
      end
      if running == 0 then break end
      running = 0
      for i, kid in ipairs(kids) do
        if kid and kid:reap(false) then kids[i] = false elseif kid then running = running + 1 end
      end
      loop.sleep(0.1)
    end
    os.remove(job_file)
  end
  -- what the children kept; the rest (one process, a child that failed, a
  -- preparation not kept) here
  for _, e in ipairs(todo) do
    local kept = nproc > 1 and read(dir, e.key)
    if kept then
      sets[e.problem.id], logs[e.problem.id] = kept.options or nil, kept.log
    else
      sets[e.problem.id], logs[e.problem.id] = one(e.problem, e.seed, opts, pool, dir, e.key)
      if nproc == 1 then done = done + 1; progress(e.problem.id) end
    end
  end
  if say then
    if tty then io.stderr:write("\n") end
    io.stderr:write(string.format("tsugo: prepared %d problem%s in %.1f s (%d process%s), %d read from before; kept in %s\n",
      #todo, #todo == 1 and "" or "s", require("tabula.loop").now() - started, nproc, nproc == 1 and "" or "es", from_cache, dir))
  end
  return sets, logs
end

return M
