-- tabula admit go — the local solver on Go problems.
--   tabula admit go FILE.jsonl [--nodes N]       prove each problem's correct first moves
--   tabula admit go --generate N --seed S --out games/go/suite.jsonl [--card games/go/SUITE.md]
-- Proving prints one line per problem: agree (every correct move proven to
-- work), disagree (one proven to fail), unknown (not decided within the node
-- budget, or a ko), with the counts at the end.
local cli = require "tabula.cli"
local fs = require "tabula.fs"
local json = require "tabula.json"

local M = {}

local OPTIONS = {
  { "nodes", "int", 20000, "node budget per solver call", min = 100 },
  { "generate", "int", 0, "generate this many fresh problems instead of reading FILE" },
  { "seed", "int", 1, "generator seed" },
  { "out", "string", nil, "write generated problems here (JSONL)" },
  { "card", "string", nil, "write the suite's data card here (markdown)" },
  { "gnugo", "string", "/usr/games/gnugo", "with --generate: keep a problem only when GNU Go on the framed board finds a key move (none: no check)" },
  { "shared", "string", nil, "with --generate: refuse copies (up to symmetry, colour and translation) of the problems in these SGF folders (comma-separated)" },
}

-- confirm_with(path) -> confirm(p) for the generator: GNU Go's owl reader on
-- the framed board (games.go.frame) must answer with one of the key moves
local function confirm_with(e)
  local go = require "games.go"
  local gnugo = require "games.go.gnugo"
  return function(p)
    local attacker = go.other(p.goal == "live" and p.to_play or go.other(p.to_play))
    gnugo.setup(e, p, attacker)
    local code, pt = (p.goal == "kill" and gnugo.owl_attack or gnugo.owl_defend)(e, p.target)
    for _, c in ipairs(p.correct) do if code > 0 and pt == c then return true end end
    return false, string.format("framed GNU Go answers %s, not a key move", code > 0 and tostring(pt) or "nothing")
  end
end

-- fingerprints(dirs) -> set of the shared problems' fingerprints, count, their near-copy index
local function fingerprints(dirs)
  local collect = require "games.go.collect"
  local gen = require "games.go.generate"
  local set, n, near = {}, 0, gen.near_index()
  for dir in dirs:gmatch("[^,]+") do
    for _, f in ipairs(collect.files({ dir })) do
      for _, p in ipairs((collect.load(f))) do
        if p.stones then
          set[gen.fingerprint(p.stones, p.size)] = true; n = n + 1
          gen.near_add(near, p.stones, p.size, p.id)
        end
      end
    end
  end
  return set, n, near
end

-- prove(p, opts) -> "agree" | "disagree" | "unknown", detail
function M.prove(p, opts)
  if not (p.target and p.allowed) then return M.verify(p, opts) end
  local solve = require "games.go.solve"
  local q, why = solve.query(p, { nodes = opts.nodes })
  if not q then return "unknown", why end
  q.method = opts.method                  -- nil: df-pn; "id": the first solver
  local r = solve.first_moves(p, q, { moves = p.correct })
  local won, lost = 0, {}
  for _, m in ipairs(r.moves) do
    if m.result == "win" then won = won + 1 elseif m.result == "loss" then lost[#lost + 1] = m.move end
  end
  if #lost > 0 then return "disagree", "proven to fail: " .. table.concat(lost, " ") .. " (" .. q.goal .. ")" end
  if won == #p.correct and won > 0 then return "agree", q.goal end
  return "unknown", q.goal
end

-- full_region(p) -> the local region a suite problem is played in: its allowed
-- points, every defender stone and every attacker chain inside them (all of
-- whose liberties are allowed points); only the attacker's outer wall is out
function M.full_region(p)
  local go = require "games.go"
  local g = go.position(p.size, p.stones, p.to_play)
  local allowed, out = {}, {}
  for _, pt in ipairs(p.allowed) do allowed[pt] = true; out[pt] = true end
  local attacker = go.other(g:get(p.target))
  for _, c in ipairs({ "black", "white" }) do
    for _, pt in ipairs(p.stones[c]) do
      local inside = true
      if c == attacker then
        local _, libs = g:group(pt)
        for _, l in ipairs(libs) do if not allowed[l] then inside = false end end
      end
      if inside then out[pt] = true end
    end
  end
  return out
end

-- recheck(p [, nodes]) -> list of faults (empty when sound): a suite problem
-- re-solved in its full local region by the first solver (as generated): every
-- first move decided, the proven set exactly the key, every listed wrong move
-- failing and every failing move listed
function M.recheck(p, nodes)
  local solve = require "games.go.solve"
  local faults, full = {}, {}
  for pt in pairs(M.full_region(p)) do full[#full + 1] = pt end
  table.sort(full)
  local q = assert(solve.query({ size = p.size, stones = p.stones, to_play = p.to_play, target = p.target,
    allowed = full, goal = p.goal }, { nodes = nodes or 20000, depth = 21 }))
  q.method = "id"
  local r = solve.first_moves(p, q)
  if r.status ~= "solved" then faults[#faults + 1] = "a first move is undecided" end
  local got, want = {}, {}
  for _, c in ipairs(r.correct) do got[#got + 1] = c end
  for _, c in ipairs(p.correct) do want[#want + 1] = c end
  table.sort(got); table.sort(want)
  if table.concat(got, " ") ~= table.concat(want, " ") then
    faults[#faults + 1] = string.format("proven key %s, listed %s", table.concat(got, " "), table.concat(want, " "))
  end
  local wrong, result = {}, {}
  for _, w in ipairs(p.wrong or {}) do wrong[w] = true end
  for _, m in ipairs(r.moves) do result[m.move] = m.result end
  for _, w in ipairs(p.wrong or {}) do
    if result[w] ~= "loss" then faults[#faults + 1] = "listed wrong move " .. w .. " is " .. tostring(result[w]) end
  end
  for mv, res in pairs(result) do
    if res == "loss" and not wrong[mv] then faults[#faults + 1] = "failing move " .. mv .. " is not listed as wrong" end
  end
  table.sort(faults)
  return faults
end

-- a problem that does not name its group: each correct move bracketed by games.go.verify
function M.verify(p, opts)
  local verify = require "games.go.verify"
  local agree, lost, kos, goal = 0, {}, 0, nil
  for _, m in ipairs(p.correct) do
    local v, info = verify.move(p, m, { nodes = opts.nodes })
    if v == "agree" then agree = agree + 1; goal = goal or info.goal
    elseif v == "disagree" then lost[#lost + 1] = m end
    if info.ko then kos = kos + 1 end
  end
  if #lost > 0 then return "disagree", "proven to fail for either goal: " .. table.concat(lost, " ") end
  if agree == #p.correct and agree > 0 then return "agree", goal end
  return "unknown", kos > 0 and "ko" or nil
end

-- how many problems of list are near copies of an earlier one
local function self_near(list)
  local gen = require "games.go.generate"
  local index, n = gen.near_index(), 0
  for _, p in ipairs(list) do
    if gen.near_copy(index, p.stones, 19) then n = n + 1 end
    gen.near_add(index, p.stones, 19, p.id)
  end
  return n
end

local function card(path, list, opts, tries, rejected)
  local by_tier, by_goal = {}, {}
  for _, p in ipairs(list) do
    by_tier[p.tier] = (by_tier[p.tier] or 0) + 1
    by_goal[p.goal .. " (" .. p.to_play .. " to play)"] = (by_goal[p.goal .. " (" .. p.to_play .. " to play)"] or 0) + 1
  end
  local lines = {
    "# The Go suite (games/go/suite.jsonl)",
    "",
    "Fresh life-and-death problems made by tabula's generator and proven by its local solver",
    "(src/gosolve.c), so TsuGO runs with no external data. Regenerate it byte for byte with:",
    "",
    "```sh",
    string.format("./tabula admit go --generate %d --seed %d --nodes %d%s%s --out games/go/suite.jsonl --card games/go/SUITE.md",
      opts.generate, opts.seed, opts.nodes, opts.gnugo ~= "/usr/games/gnugo" and (" --gnugo " .. opts.gnugo) or "",
      opts.shared and (" --shared " .. opts.shared) or ""),
    "```",
    "",
    string.format("%d problems from %d candidates (seed %d). Every problem: 19x19, a corner or top-side", #list, tries, opts.seed),
    "position; the defender's band with its eye space and the attacker's band outside it, which has",
    "open liberties beyond the moves considered, so only the group at stake (`target`) can die.",
    "The solver searches moves inside the attacker's band (`allowed`: the whole local region,",
    "occupied points included, so a point freed by a capture is played again) plus pass; the defender",
    "wins when the target is unconditionally alive (Benson) or both pass with it on the board",
    "(seki counts as life); the attacker when it is captured. Kept: the side to play wins, the",
    "other side would win moving first, one or two first moves work (`correct`; every other",
    "allowed move is proven to fail: `wrong`), no answer changes with who wins kos. `depth` is",
    "the proof length in plies (the main line's depth); `branching` the legal first moves. Tiers by",
    "main-line depth: Easy <= 3, Intermediate <= 5, Medium <= 7, Hard > 7, one tier harder when",
    string.format("branching >= %d.", require("games.go.generate").WIDE),
    "Duplicates up to the 8 symmetries and colour are removed. "
      .. (opts.gnugo ~= "none" and string.format("Every key is confirmed by GNU Go %s (level 10) on the framed board (games/go/frame.lua): its owl reader's move is a key move. ", tostring(opts.gnugo_version)) or "")
      .. (opts.known_count and string.format("No problem is a copy (up to symmetry, colour and translation) of the %d problems in %s, "
        .. "nor a near copy (at most %d points differ, a recoloured stone counting two, under a symmetry and colour, "
        .. "where the stones stand or moved to the corner). ", opts.known_count, opts.shared, require("games.go.generate").NEAR) or "")
      .. string.format("Proven candidates rejected: %d as copies of shared problems, %d by GNU Go, %d as near copies of shared problems. ",
        rejected.copy, rejected.confirm, rejected.near)
      .. string.format("Among themselves %d problems are near copies of an earlier one (the generator's bands repeat; not removed). ",
        self_near(list))
      .. "License: CC0.",
    "",
    "| tier | problems |", "|---|---|",
  }
  for _, t in ipairs { "Easy", "Intermediate", "Medium", "Hard" } do lines[#lines + 1] = string.format("| %s | %d |", t, by_tier[t] or 0) end
  lines[#lines + 1] = ""
  lines[#lines + 1] = "| goal | problems |"
  lines[#lines + 1] = "|---|---|"
  local ks = {}
  for k in pairs(by_goal) do ks[#ks + 1] = k end
  table.sort(ks)
  for _, k in ipairs(ks) do lines[#lines + 1] = string.format("| %s | %d |", k, by_goal[k]) end
  fs.write_or_fail(path, table.concat(lines, "\n") .. "\n")
end

function M.main(args)
  local opts, rest = cli.parse(OPTIONS, args, { program = "tabula admit go", usage = "FILE | --generate N --out FILE",
    summary = "prove Go problems with the local solver, or generate a proven suite" })
  if opts == nil then return 0 end
  if opts.generate > 0 then
    local gen = require "games.go.generate"
    local known, nknown, near
    if opts.shared then known, nknown, near = fingerprints(opts.shared) end
    local list, tries, rejected
    local function generate(confirm)
      list, tries, rejected = gen.run({ count = opts.generate, seed = opts.seed, nodes = opts.nodes, confirm = confirm,
                                        known = known, near = near },
        function(line) io.stderr:write(line, "\n") end)
    end
    if opts.gnugo ~= "none" then
      if fs.kind(opts.gnugo) ~= "file" then cli.fail("admit go: no GNU Go at %s (give --gnugo none to skip the check)", opts.gnugo) end
      require("tabula.loop").run(function()
        local e = require("games.go.gnugo").start({ path = opts.gnugo, level = 10 })
        opts.gnugo_version = e:command("version")
        local ok, err = pcall(generate, confirm_with(e))
        e:close()
        if not ok then error(err, 0) end
      end)
    else
      generate(nil)
    end
    opts.known_count = nknown
    local out = {}
    for i, p in ipairs(list) do out[i] = json.canonical(p) end
    local text = table.concat(out, "\n") .. "\n"
    if opts.out then fs.write_or_fail(opts.out, text) else io.write(text) end
    if opts.card then card(opts.card, list, opts, tries, rejected) end
    io.stderr:write(string.format("%d problems from %d candidates\n", #list, tries))
    return #list == opts.generate and 0 or 1
  end
  if not rest[1] then cli.fail("usage: tabula admit go FILE.jsonl (or --generate N --out FILE)") end
  local text = fs.read_or_fail(rest[1], "admit go")
  local counts = { agree = 0, disagree = 0, unknown = 0 }
  for line in text:gmatch("[^\n]+") do
    local p = json.decode(line)
    if type(p) == "table" then
      local verdict, detail = M.prove(p, opts)
      counts[verdict] = counts[verdict] + 1
      io.write(string.format("%s: %s (%s)\n", tostring(p.id), verdict, tostring(detail)))
    end
  end
  io.write(string.format("%d agree, %d disagree, %d unknown\n", counts.agree, counts.disagree, counts.unknown))
  return counts.disagree > 0 and 1 or 0
end

return M
