-- scenarios/chess_puzzles.lua — ChessArena's puzzle task on Lichess puzzles:
-- play Moves[1] (the opponent's setup move) on the FEN; the model must find
-- Moves[2], Moves[4], ... with the opponent's replies played for it; a puzzle is
-- solved only if every one of its moves matches the solution exactly, as in the
-- paper (--any-mate also accepts a different mating move, Lichess's own rule).
-- Puzzle solving accuracy (PSA) by 400-point rating band. Each move is asked
-- through ChessArena's Blitz/Standard template (prompts/chessarena/), with the
-- paper's sampling defaults (temperature 0.2, top_p 1, 4096 tokens, 16384 with
-- reasoning on).
--
--   tabula run scenarios/chess_puzzles.lua --puzzles ../shared/data/chessarena/puzzles_1000_1400.jsonl --model M
--   tabula run scenarios/chess_puzzles.lua --puzzles lichess_db_puzzle.csv --limit 500 --model M
--
-- Choices: each solver move is a fresh prompt (the FEN and the puzzle's moves so
-- far as the last moves, no legal moves, no hint);
-- --puzzles takes JSONL or any of the Lichess CSV layouts (column order from the
-- header); bands are 200-600, 600-1000, ... (--band-width).
local tasks = require "scenarios.chessarena.tasks"
local chess = require "games.chess"
local records = require "tabula.records"
local prompt = require "tabula.prompt"
local arena_prompts = require "scenarios.chessarena.prompts"
local fs = require "tabula.fs"
local json = require "tabula.json"
local cli = require "tabula.cli"
local items = require "tabula.items"

local S = { name = "chess_puzzles", summary = "chess puzzles: PSA by rating band", defaults = { trials = 1 } }
S.settle_options = arena_prompts.settle

S.options = {
  { "puzzles", "list", nil, "puzzle files (JSONL or Lichess CSV); default the seven ChessArena files" },
  { "ids", "list", nil, "puzzle ids to keep (a,b,c)" },
  { "limit", "int", nil, "at most this many puzzles (after --ids)", min = 1 },
  { "band-width", "int", 400, "rating band width for PSA" },
  { "any-mate", "bool", false, "also accept a mating move other than the solution's (Lichess's rule)" },
  { "last-moves", "int", 10, "how many of the puzzle's moves so far the prompt shows" },
}

function S.plan(opts)
  local files = opts.puzzles
  if not files then
    local dir = fs.shared_data("chessarena")
    files = {}
    for _, f in ipairs(fs.list(dir) or {}) do if f:match("^puzzles_.*%.jsonl$") then files[#files + 1] = dir .. "/" .. f end end
    if #files == 0 then cli.fail("no puzzles: give --puzzles FILE") end
  end
  local trials, data, all = {}, { files = {} }, {}
  for _, f in ipairs(files) do
    data.files[#data.files + 1] = { path = f, sha256 = fs.sha256_file(f) }
    for _, p in ipairs(tasks.load_puzzles(f)) do
      local g, err = chess.new(p.fen)
      if not g then cli.fail("%s:%d: puzzle %s: bad FEN: %s", f, p.line, tostring(p.id), err) end
      for i, m in ipairs(p.moves) do      -- the whole line must be playable
        if not g:play(m) then cli.fail("%s:%d: puzzle %s: move %d (%s) is not legal", f, p.line, tostring(p.id), i, m) end
      end
      all[#all + 1] = p
    end
  end
  local chosen = items.select(all, opts, { id = function(p) return tostring(p.id) end, what = "puzzle",
    where = table.concat(files, ", ") })
  for _, p in ipairs(chosen) do
    for k = 1, opts.trials do trials[#trials + 1] = { id = string.format("%s/%d", p.id, k), puzzle = p, index = k } end
  end
  return trials, data
end

function S.setup(opts, env)
  env.prompts = prompt.set("chessarena", opts.prompts)
  return { prompts = env.prompts:used() }
end

function S.play(trial, env)
  local p, P = trial.puzzle, env.prompts
  local g = assert(chess.new(p.fen))
  assert(g:play(p.moves[1]), "setup move")
  local played = { p.moves[1] }
  local steps, solved = {}, true
  for i = 2, #p.moves, 2 do
    local conv = { { role = "system", content = arena_prompts.system(P, "blitz", g:side()) },
      { role = "user", content = arena_prompts.turn(P, g:fen(), g:side(), played, env.opts["last-moves"]) } }
    local want = p.moves[i]
    local ctx = { key = trial.id, sample = trial.index * 1000 + i, rng = env.rng_for(trial), legal_actions = g:moves(),
      policy = function() return want end, format = function(u) return "<answer><move>" .. u .. "</move></answer>" end }
    local reply, err = env.agent:reply(conv, ctx)
    if not reply then return nil, err end
    local choice = chess.extract_move(g, reply.text)
    local ok = choice == want
    if not ok and choice and env.opts["any-mate"] then
      local _, mate = g:gives_check(choice)
      ok = mate == true
    end
    steps[#steps + 1] = { want = want, choice = choice, right = ok, reply = reply.text, usage = reply.usage, cost = reply.cost }
    if not ok then solved = false; break end
    g:play(choice)
    played[#played + 1] = choice
    if g:status() ~= "ongoing" then break end
    if p.moves[i + 1] then
      if not g:play(p.moves[i + 1]) then break end       -- the solver took another mating line
      played[#played + 1] = p.moves[i + 1]
    end
  end
  return { trial_id = trial.id, puzzle_id = p.id, fen = p.fen, line = p.moves, rating = p.rating, band = tasks.band(p.rating, env.opts["band-width"]),
    solved = solved, steps = steps, status = solved and "success" or "failure" }
end

function S.report(dir)
  local recs = records.read(dir .. "/trials.jsonl", { skip_bad = true })
  local bands, n, ok = {}, 0, 0
  for _, r in ipairs(recs) do
    if r.band then
      local b = bands[r.band] or { n = 0, solved = 0 }
      b.n = b.n + 1
      if r.solved then b.solved = b.solved + 1; ok = ok + 1 end
      n = n + 1
      bands[r.band] = b
    end
  end
  local names = {}
  for k in pairs(bands) do names[#names + 1] = k end
  table.sort(names, function(a, b) return tonumber(a:match("^%d+")) < tonumber(b:match("^%d+")) end)
  local L = { "# Chess puzzles", "", "| band | puzzles | PSA |", "|---|---|---|" }
  for _, k in ipairs(names) do
    L[#L + 1] = string.format("| %s | %d | %.1f%% |", k, bands[k].n, 100 * bands[k].solved / bands[k].n)
  end
  L[#L + 1] = string.format("| all | %d | %.1f%% |", n, n > 0 and 100 * ok / n or 0)
  local text = table.concat(L, "\n") .. "\n"
  fs.write_or_fail(dir .. "/report.md", text)
  fs.write_or_fail(dir .. "/summary.json", json.encode({ bands = bands, n = n, solved = ok }, { pretty = true }) .. "\n")
  return text
end

S.view = require("scenarios.chessarena.tasks_view").puzzles

return S
