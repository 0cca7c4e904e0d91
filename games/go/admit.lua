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

-- confirm_with(e, nodes) -> confirm(p), stats: the generator's check by GNU
-- Go's owl reader on the framed board (games.go.frame), for the position the
-- model is shown. It must answer with one of the key moves; and every move
-- scored wrong must not work for it: each listed wrong move, and each empty
-- point of the problem's box (the region and its margin, where an open answer
-- may land) outside the allowed area, played for the side to move and then
-- read by owl with the opponent moving first. A move GNU Go finds working (or
-- working through a ko) is a disagreement, settled by the local solver in
-- the enlarged area (the allowed points and the whole box, occupied points
-- included): the problem is kept when the solver proves the move fails there,
-- dropped otherwise. stats: problems (checked), wrong, box (moves checked),
-- illegal (box points GNU Go refuses), key (rejected: GNU Go's move not a
-- key), settled / dropped (disagreements), and by[p] = { wrong, box,
-- settled = {moves} } for each problem that passed.
local function confirm_with(e, nodes)
  local go = require "games.go"
  local gnugo = require "games.go.gnugo"
  local frame = require "games.go.frame"
  local solve = require "games.go.solve"
  local stats = { problems = 0, wrong = 0, box = 0, illegal = 0, key = 0, settled = 0, dropped = 0, by = {} }
  -- the solver in the enlarged area: does move m fail?
  local function fails_enlarged(p, m)
    local area, seen = {}, {}
    local b = frame.box(p)
    for _, pt in ipairs(p.allowed) do seen[pt] = true; area[#area + 1] = pt end
    for x = b[1], b[3] do
      for y = b[2], b[4] do
        local pt = go.xy_sgf(x, y)
        if not seen[pt] then seen[pt] = true; area[#area + 1] = pt end
      end
    end
    table.sort(area)
    local q = assert(solve.query({ size = p.size, stones = p.stones, to_play = p.to_play, target = p.target,
      allowed = area, goal = p.goal }, { nodes = nodes, depth = 21 }))
    q.method = "id"
    local r = solve.first_moves(p, q, { moves = { m } })
    return r.moves[1] ~= nil and r.moves[1].result == "loss"
  end
  local function confirm(p)
    local attacker = go.other(p.goal == "live" and p.to_play or go.other(p.to_play))
    gnugo.setup(e, p, attacker)
    local code, pt = (p.goal == "kill" and gnugo.owl_attack or gnugo.owl_defend)(e, p.target)
    local key = false
    for _, c in ipairs(p.correct) do if code > 0 and pt == c then key = true end end
    if not key then
      stats.key = stats.key + 1
      return false, string.format("framed GNU Go answers %s, not a key move", code > 0 and tostring(pt) or "nothing")
    end
    -- the moves scored wrong: listed ones, then the box's empty points outside the area
    local moves, allowed, occupied = {}, {}, {}
    for _, m in ipairs(p.wrong) do moves[#moves + 1] = { m, "wrong" } end
    for _, m in ipairs(p.allowed) do allowed[m] = true end
    for _, c in ipairs({ "black", "white" }) do for _, s in ipairs(p.stones[c]) do occupied[s] = true end end
    local b = frame.box(p)
    for y = b[2], b[4] do
      for x = b[1], b[3] do
        local m = go.xy_sgf(x, y)
        if not allowed[m] and not occupied[m] then moves[#moves + 1] = { m, "box" } end
      end
    end
    local mine = { wrong = 0, box = 0, settled = {} }
    local disputed = {}
    for _, mv in ipairs(moves) do
      local m, kind = mv[1], mv[2]
      if gnugo.play(e, p.to_play, m) then
        mine[kind] = mine[kind] + 1
        local works
        if not gnugo.color(e, p.target) then
          works = true                                    -- the target was captured
        elseif p.goal == "kill" then
          works = gnugo.owl_defend(e, p.target) ~= 1      -- the defender cannot live outright
        else
          works = gnugo.owl_attack(e, p.target) ~= 1      -- the attacker cannot kill outright
        end
        gnugo.undo(e)
        if works then disputed[#disputed + 1] = m end
      elseif kind == "box" then
        stats.illegal = stats.illegal + 1
      else
        return false, "framed GNU Go refuses the listed wrong move " .. m
      end
    end
    for _, m in ipairs(disputed) do
      if not fails_enlarged(p, m) then
        stats.dropped = stats.dropped + 1
        return false, string.format("framed GNU Go finds %s working and the solver in the enlarged area does not prove it fails", m)
      end
      mine.settled[#mine.settled + 1] = m
    end
    stats.problems = stats.problems + 1
    stats.wrong = stats.wrong + mine.wrong
    stats.box = stats.box + mine.box
    stats.settled = stats.settled + #mine.settled
    stats.by[p] = mine
    return true
  end
  return confirm, stats
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

local function card(path, list, opts, tries, rejected, walls, checks)
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
    string.format("The wall is checked on the board the model sees (games.go.generate.wall_faults): every attacker chain "
      .. "with a stone outside the allowed area next to it has at least %d liberties outside the area, so no sequence "
      .. "inside the area brings it to atari, and the defender needs %d moves outside before one can.",
      require("games.go.generate").WALL_LIBS, require("games.go.generate").WALL_LIBS - 1),
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
      .. (opts.gnugo ~= "none" and string.format("Every key is confirmed by GNU Go %s (level 10) on the framed board (games/go/frame.lua): its owl reader's move is a key move; "
        .. "and every move scored wrong is checked there too: each listed wrong move, and each empty point of the problem's box "
        .. "(its region and the frame's margin) outside the allowed area, played and read by owl with the opponent moving first, "
        .. "must not work (alive, or dead, outright). A move GNU Go finds working is a disagreement, settled by the local solver "
        .. "in the enlarged area (the allowed points and the whole box): kept when the solver proves the move fails there, "
        .. "dropped otherwise. ", tostring(opts.gnugo_version)) or "")
      .. (opts.known_count and string.format("No problem is a copy (up to symmetry, colour and translation) of the %d problems in %s, "
        .. "nor a near copy (at most %d points differ, a recoloured stone counting two, under a symmetry and colour, "
        .. "where the stones stand or moved to the corner). ", opts.known_count, opts.shared, require("games.go.generate").NEAR) or "")
      .. string.format("Proven candidates rejected: %d for a capturable wall, %d as copies of shared problems, %d by GNU Go, %d as near copies of shared problems. ",
        rejected.wall, rejected.copy, rejected.confirm, rejected.near)
      .. string.format("Among themselves %d problems are near copies of an earlier one (the generator's bands repeat; not removed). ",
        self_near(list))
      .. "License: CC0.",
    "",
    "## Checks on the board the model sees",
    "",
    string.format("- Walls: %d proven candidates checked for a capturable wall; %d dropped; %d of the %d problems are repaired "
      .. "(their band steps up, where the generator before issue 43 left the band's lower run a separate chain, "
      .. "often with few liberties outside the area; a stone now closes it). Every problem's wall passes the check.",
      walls.checked, rejected.wall, walls.repaired, #list),
  }
  if checks then
    local wrong, box, settled, where = 0, 0, 0, {}
    for _, p in ipairs(list) do
      local c = checks.by[p]
      wrong, box, settled = wrong + c.wrong, box + c.box, settled + #c.settled
      for _, m in ipairs(c.settled) do where[#where + 1] = p.id .. " " .. m end
    end
    lines[#lines + 1] = string.format("- GNU Go on the suite: %d listed wrong moves and %d empty box points outside the area checked; "
      .. "%d disagreements, each settled by the solver in the enlarged area (the move proven to fail)%s.",
      wrong, box, settled, #where > 0 and (": " .. table.concat(where, ", ")) or "")
    lines[#lines + 1] = string.format("- GNU Go on all proven candidates: %d rejected as GNU Go's move is not a key; %d dropped "
      .. "for a disagreement the solver did not settle; %d box points GNU Go refused as illegal (not checked).",
      checks.key, checks.dropped, checks.illegal)
  end
  for _, l in ipairs({ "", "| tier | problems |", "|---|---|" }) do lines[#lines + 1] = l end
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
    local list, tries, rejected, walls, checks
    local function generate(confirm)
      list, tries, rejected, walls = gen.run({ count = opts.generate, seed = opts.seed, nodes = opts.nodes, confirm = confirm,
                                        known = known, near = near },
        function(line) io.stderr:write(line, "\n") end)
    end
    if opts.gnugo ~= "none" then
      if fs.kind(opts.gnugo) ~= "file" then cli.fail("admit go: no GNU Go at %s (give --gnugo none to skip the check)", opts.gnugo) end
      require("tabula.loop").run(function()
        local e = require("games.go.gnugo").start({ path = opts.gnugo, level = 10 })
        opts.gnugo_version = e:command("version")
        local confirm
        confirm, checks = confirm_with(e, opts.nodes)
        local ok, err = pcall(generate, confirm)
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
    if opts.card then card(opts.card, list, opts, tries, rejected, walls, checks) end
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
