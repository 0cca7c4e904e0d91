-- bench/audit_mutations.lua — the mutation check of a game's rules audit (issue 42): every PASS
-- line of games/<game>/RULES-AUDIT.md has one small mechanical change that breaks its rule, kept
-- as data in games/<game>/mutations.tsv (id, file, text replaced, replacement; tab-separated, `\n`
-- in a field is a new line). For each row this copies the tree's games/ and tests/ to a scratch
-- directory, applies the change there (the working tree is never touched), runs the test the
-- audit line names (`tabula test tests/test_<game>.lua --only <name>`) and reports the line KILLED
-- (the test fails) or SURVIVED; then the table lines / with a mutation / killed / survived, and
-- the PASS lines that have no mutation. Exit status 1 when a line survives or has none.
-- Run: tabula bench/audit_mutations.lua GAME [ID ...]   (from the repository's root; needs the
--      built ./tabula and build/rel/mock_server). A game without mutations.tsv is reported as such.
local game = arg[1]
if not game or not game:match("^[%w_]+$") then
  io.stderr:write("usage: tabula bench/audit_mutations.lua GAME [ID ...]\n")
  os.exit(2)
end
local only = {}
for i = 2, #arg do only[arg[i]] = true end

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a"); f:close()
  return s
end
local function write(path, s)
  local f = assert(io.open(path, "wb")); f:write(s); f:close()
end
local function sh(cmd) return os.execute(cmd) end
local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local audit = read("games/" .. game .. "/RULES-AUDIT.md")
if not audit then io.stderr:write("games/" .. game .. "/RULES-AUDIT.md: no such file (run from the repository root)\n"); os.exit(2) end
local names, order = {}, {}
for line in audit:gmatch("[^\n]+") do
  local id, name = line:match("^| *([%u]+%-[%w%.%-]+) *| .- | *`(.-)` *| *PASS *|$")
  if id then names[id] = name; order[#order + 1] = id end
end
local tsv = read("games/" .. game .. "/mutations.tsv")
if not tsv then print(game .. ": no mutations.tsv; " .. #order .. " PASS lines unchecked"); os.exit(1) end
local rows = {}
local lineno = 0
for line in tsv:gmatch("[^\n]*") do
  lineno = lineno + 1
  if line ~= "" and not line:match("^#") then
    local f = {}
    for field in (line .. "\t"):gmatch("([^\t]*)\t") do f[#f + 1] = field:gsub("\\n", "\n") end
    if #f ~= 4 then io.stderr:write(string.format("games/%s/mutations.tsv:%d: 4 tab-separated fields expected, %d found\n", game, lineno, #f)); os.exit(2) end
    rows[#rows + 1] = { id = f[1], file = f[2], old = f[3], new = f[4] }
  end
end

local scratch = os.tmpname()
os.remove(scratch)
assert(sh("mkdir -p " .. q(scratch .. "/build/rel")))
for _, d in ipairs({ "lua", "games", "tests", "scenarios", "prompts", "examples" }) do
  if read(d .. "/README.md") or sh("test -d " .. q(d)) then sh("cp -R " .. q(d) .. " " .. q(scratch .. "/" .. d)) end
end
assert(sh("cp tabula " .. q(scratch .. "/tabula") .. " && cp build/rel/mock_server " .. q(scratch .. "/build/rel/")))

local have, killed, survived, bad = {}, 0, 0, 0
for _, r in ipairs(rows) do
  if not next(only) or only[r.id] then
    have[r.id] = true
    local name = names[r.id]
    local path = scratch .. "/" .. r.file
    local src = read(path)
    local _, n = (src or ""):gsub(r.old:gsub("[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0"), "")
    if not name then print(r.id .. "\tNO PASS LINE"); bad = bad + 1
    elseif n ~= 1 then print(string.format("%s\tBAD MUTATION: %d matches in %s", r.id, n, r.file)); bad = bad + 1
    else
      local s, e = src:find(r.old, 1, true)
      write(path, src:sub(1, s - 1) .. r.new .. src:sub(e + 1))
      local p = io.popen("cd " .. q(scratch) .. " && TABULA_MOCK_SERVER=build/rel/mock_server ./tabula test tests/test_" .. game
        .. ".lua --only " .. q(name) .. " 2>&1")
      local out = p:read("a"); p:close()
      write(path, src)
      local passed, failed = 0, 0
      for a, b in out:gmatch("(%d+) passed, (%d+) failed") do passed, failed = tonumber(a), tonumber(b) end
      if passed + failed == 0 then print(r.id .. "\tNO TEST RAN: " .. name); bad = bad + 1
      elseif failed > 0 then killed = killed + 1; print(r.id .. "\tKILLED")
      else survived = survived + 1; print(r.id .. "\tSURVIVED\t" .. r.file .. ": " .. r.old:gsub("\n", "\\n")) end
    end
  end
end
sh("rm -rf " .. q(scratch))
local missing = {}
if not next(only) then for _, id in ipairs(order) do if not have[id] then missing[#missing + 1] = id end end end
print(string.format("%s: %d PASS lines, %d with a mutation, %d killed, %d survived, %d unusable%s", game, #order,
  killed + survived + bad, killed, survived, bad, #missing > 0 and ("; without a mutation: " .. table.concat(missing, " ")) or ""))
os.exit((survived == 0 and bad == 0 and #missing == 0) and 0 or 1)
