-- bench/audit_mutations.lua — the mutation check of the games' rules audits (issue 42): every PASS
-- line of games/<game>/RULES-AUDIT.md has one small mechanical change that breaks its rule, kept
-- as data in games/<game>/mutations.tsv (id, file, text replaced, replacement; tab-separated, `\n`
-- in a field is a new line, `#` starts a comment line). The tree's games/, tests/ and what they
-- load are copied once to a scratch directory (the working tree is never touched). There, each
-- test an audit line names is first run unchanged (a test that fails without any mutation
-- proves nothing: its rows are reported BASELINE FAILS); then for each row the change is applied,
-- the test the line names runs (`tabula test tests/test_<game>.lua --only <name>`, at most
-- TIMEOUT seconds) and the line is reported KILLED (the test fails or hangs) or SURVIVED; the
-- file is restored. A mutation after which the test file no longer loads proves nothing about
-- the named test and is reported UNUSABLE. A row whose line is not PASS (MISSING, OUT-OF-SCOPE:
-- e.g. a rule with one source only) is kept as data and reported skipped. The test runs' TMPDIR
-- is inside the copy, so what a failing test keeps goes with it. Per game the table: PASS lines / with a
-- mutation (lines) / killed / survived / unusable (mutations: a line may have more than one),
-- and the PASS lines without a mutation; then, for several games, the whole table.
--
-- Run (from the repository's root; needs the built ./tabula and build/rel/mock_server):
--   tabula bench/audit_mutations.lua GAME [ID ...]     one game (only these lines, if given)
--   tabula bench/audit_mutations.lua all                every game of games/ with a RULES.md;
--                                                       a game without RULES-AUDIT.md says so
--   tabula bench/audit_mutations.lua --changed[=REF]    the games whose files differ from REF
--                                                       (default HEAD; untracked files count):
--                                                       before a change lands
--   ... all --list, ... --changed[=REF] --list          only print the games it would check
-- A game's files are games/<game>/ and tests/test_<game>.lua; a change to a shared file the game
-- tests load (games/*.lua: kit, rules_test, ismcts, svgkit) or to this script counts for every
-- game. Exit status 1 when a line survives, a row is unusable or a PASS line has no mutation.
local TIMEOUT = 300

local function usage()
  io.stderr:write("usage: tabula bench/audit_mutations.lua GAME [ID ...] | all [--list] | --changed[=REF] [--list]\n")
  os.exit(2)
end

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a"); f:close()
  return s
end
local function write(path, s)
  local f = assert(io.open(path, "wb")); f:write(s); f:close()
end
local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end
local function lines_of(cmd)
  local p = io.popen(cmd)
  local out = {}
  for l in p:lines() do out[#out + 1] = l end
  local ok = p:close()
  return out, ok
end
local function isdir(path) return os.execute("test -d " .. q(path)) end

-- the multi-player games: the folders of games/ with a RULES.md (games/README.md)
local function all_games()
  local out = {}
  for _, l in ipairs(lines_of("ls games")) do
    if l:match("^[%w_]+$") and read("games/" .. l .. "/RULES.md") then out[#out + 1] = l end
  end
  table.sort(out)
  return out
end

-- the games whose files differ from git `ref` (the working tree against it, and untracked files)
local function changed_games(ref)
  local paths, ok = lines_of("git diff --name-only " .. q(ref) .. " -- 2>/dev/null")
  if not ok then io.stderr:write("--changed: git diff against " .. ref .. " failed (not a git checkout, or no such revision)\n"); os.exit(2) end
  for _, l in ipairs(lines_of("git ls-files --others --exclude-standard -- games tests bench 2>/dev/null")) do paths[#paths + 1] = l end
  local games, every = {}, false
  for _, p in ipairs(paths) do
    local g = p:match("^games/([%w_]+)/") or p:match("^tests/test_([%w_]+)%.lua$")
    if g then games[g] = true
    elseif p:match("^games/[%w_]+%.lua$") or p == "bench/audit_mutations.lua" then every = true end
  end
  local out = {}
  for _, g in ipairs(all_games()) do if every or games[g] then out[#out + 1] = g end end
  return out, every
end

local games, only = {}, {}
local a1 = arg[1]
if not a1 then usage() end
if a1 == "all" then
  games = all_games()
elseif a1 == "--changed" or a1:match("^%-%-changed=") then
  local ref = a1:match("^%-%-changed=(.+)$") or "HEAD"
  local every
  games, every = changed_games(ref)
  print(string.format("changed against %s: %s%s", ref, #games > 0 and table.concat(games, " ") or "no game",
    every and " (a shared file changed: every game)" or ""))
elseif a1:match("^[%w_]+$") then
  games = { a1 }
  for i = 2, #arg do only[arg[i]] = true end
else
  usage()
end
if arg[2] == "--list" and (a1 == "all" or a1:match("^%-%-changed")) then
  for _, g in ipairs(games) do print(g) end
  os.exit(0)
end
if not read("tabula") or not read("build/rel/mock_server") then
  io.stderr:write("run from the repository root after make: ./tabula and build/rel/mock_server are needed\n")
  os.exit(2)
end

-- one scratch copy of the tree for every game
local scratch
local function make_scratch()
  if scratch then return scratch end
  scratch = os.tmpname()
  os.remove(scratch)
  -- tmp/: the TMPDIR of the test runs, so that the scratch directories a failing (killed) test
  -- keeps go away with the copy
  assert(os.execute("mkdir -p " .. q(scratch .. "/build/rel") .. " " .. q(scratch .. "/tmp")))
  for _, d in ipairs({ "lua", "games", "tests", "scenarios", "prompts", "examples" }) do
    if isdir(d) then assert(os.execute("cp -R " .. q(d) .. " " .. q(scratch .. "/" .. d))) end
  end
  assert(os.execute("cp tabula " .. q(scratch .. "/tabula") .. " && cp build/rel/mock_server " .. q(scratch .. "/build/rel/")))
  return scratch
end

-- run_test(game, name) -> passed, failed, output: the named test in the scratch copy
local function run_test(game, name)
  local p = io.popen("cd " .. q(scratch) .. " && TMPDIR=" .. q(scratch .. "/tmp") .. " TABULA_MOCK_SERVER=build/rel/mock_server timeout " .. TIMEOUT
    .. " ./tabula test tests/test_" .. game .. ".lua --only " .. q(name) .. " 2>&1; echo \"exit $?\"")
  local out = p:read("a"); p:close()
  local passed, failed = 0, 0
  for a, b in out:gmatch("(%d+) passed, (%d+) failed") do passed, failed = tonumber(a), tonumber(b) end
  if out:match("exit 124%s*$") then failed = failed + 1 end   -- timed out: the test hangs
  return passed, failed, out
end

-- check(game) -> a row of the table, or nil with the reason the game has none
local function check(game)
  local audit = read("games/" .. game .. "/RULES-AUDIT.md")
  if not audit then
    print(game .. ": no RULES-AUDIT.md (no audit lines to check)")
    return nil, "no RULES-AUDIT.md"
  end
  local status, names, order = {}, {}, {}
  for line in audit:gmatch("[^\n]+") do
    local id, name, st = line:match("^| *([%u]+%-[%w%.%-]+) *| .- | *(.-) *| *([%u%-]+) *|$")
    if id then
      status[id] = st
      if st == "PASS" then names[id] = name:match("^`(.*)`$") or name; order[#order + 1] = id end
    end
  end
  local tsv = read("games/" .. game .. "/mutations.tsv")
  if not tsv then
    print(string.format("%s: no mutations.tsv; %d PASS lines unchecked", game, #order))
    return { game = game, lines = #order, with = 0, killed = 0, survived = 0, bad = 0, missing = order }
  end
  local rows, lineno = {}, 0
  for line in tsv:gmatch("[^\n]*") do
    lineno = lineno + 1
    if line ~= "" and not line:match("^#") then
      local f = {}
      for field in (line .. "\t"):gmatch("([^\t]*)\t") do f[#f + 1] = field:gsub("\\n", "\n") end
      if #f ~= 4 then
        io.stderr:write(string.format("games/%s/mutations.tsv:%d: 4 tab-separated fields expected, %d found\n", game, lineno, #f))
        os.exit(2)
      end
      rows[#rows + 1] = { id = f[1], file = f[2], old = f[3], new = f[4], line = lineno }
    end
  end
  make_scratch()
  local baseline = {}   -- test name -> true when it passes unchanged
  local have, killed, survived, bad, skipped = {}, 0, 0, 0, 0
  for _, r in ipairs(rows) do
    if not next(only) or only[r.id] then
      have[r.id] = true
      local name = names[r.id]
      local path = scratch .. "/" .. r.file
      local src = read(path)
      local n = 0
      if src then
        local at = 1
        while true do
          local s, e = src:find(r.old, at, true)
          if not s then break end
          n, at = n + 1, e + 1
        end
      end
      if not status[r.id] then print(r.id .. "\tNO SUCH LINE in RULES-AUDIT.md (mutations.tsv:" .. r.line .. ")"); bad = bad + 1
      elseif not name then print(r.id .. "\tskipped (the line is " .. status[r.id] .. ")"); skipped = skipped + 1
      elseif n ~= 1 then print(string.format("%s\tBAD MUTATION: %d matches in %s", r.id, n, r.file)); bad = bad + 1
      else
        if baseline[name] == nil then
          local p, f = run_test(game, name)
          baseline[name] = p > 0 and f == 0
        end
        if not baseline[name] then print(r.id .. "\tBASELINE FAILS: the test does not pass unchanged: " .. name); bad = bad + 1
        else
          local s, e = src:find(r.old, 1, true)
          write(path, src:sub(1, s - 1) .. r.new .. src:sub(e + 1))
          local passed, failed, out = run_test(game, name)
          write(path, src)
          if out:match("FAIL [^\n]-%.lua: ") then
            -- the test file no longer loads: that proves nothing about the named test
            print(r.id .. "\tUNUSABLE: the mutated tree does not load tests/test_" .. game .. ".lua"); bad = bad + 1
          elseif passed + failed == 0 then print(r.id .. "\tNO TEST RAN: " .. name); bad = bad + 1
          elseif failed > 0 then killed = killed + 1; print(r.id .. "\tKILLED")
          else survived = survived + 1; print(r.id .. "\tSURVIVED\t" .. r.file .. ": " .. r.old:gsub("\n", "\\n")) end
        end
      end
    end
  end
  local missing = {}
  if not next(only) then for _, id in ipairs(order) do if not have[id] then missing[#missing + 1] = id end end end
  local with = 0
  for _, id in ipairs(order) do if have[id] then with = with + 1 end end
  local row = { game = game, lines = #order, with = with, killed = killed, survived = survived,
    bad = bad, missing = missing, skipped = skipped }
  print(string.format("%s: %d PASS lines, %d with a mutation, %d killed, %d survived, %d unusable%s%s", game, row.lines,
    row.with, killed, survived, bad, skipped > 0 and (", " .. skipped .. " rows of lines not PASS skipped") or "",
    #missing > 0 and ("; without a mutation: " .. table.concat(missing, " ")) or ""))
  return row
end

local results, failing = {}, false
for _, g in ipairs(games) do
  if not isdir("games/" .. g) then io.stderr:write("games/" .. g .. ": no such game\n"); os.exit(2) end
  local row, why = check(g)
  results[#results + 1] = row or { game = g, none = why }
  if row and (row.survived > 0 or row.bad > 0 or #row.missing > 0) then failing = true end
end
if scratch then os.execute("rm -rf " .. q(scratch)) end
if #games > 1 then
  print("")
  print("| game | PASS lines | with a mutation | killed | survived | unusable | without a mutation |")
  print("|---|---|---|---|---|---|---|")
  for _, r in ipairs(results) do
    if r.none then print(string.format("| %s | %s | | | | | |", r.game, r.none))
    else print(string.format("| %s | %d | %d | %d | %d | %d | %d |", r.game, r.lines, r.with, r.killed, r.survived, r.bad, #r.missing)) end
  end
end
os.exit(failing and 1 or 0)
