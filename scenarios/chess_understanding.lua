-- scenarios/chess_understanding.lua — ChessArena's basic-understanding task:
-- name the piece on a square and list its legal moves (JSON answer). Metrics:
-- piece match accuracy (PMA), precision and recall of the move lists.
--
--   tabula run scenarios/chess_understanding.lua --items ../shared/data/chessarena/chess_modeling_evaluation.jsonl --model M
--   tabula run scenarios/chess_understanding.lua --fens positions.txt --model M   # generated items
--
-- Choices: the items' ground truth is recomputed by tabula's rules (and must
-- match the file's); precision and recall pool moves over all items (micro
-- averages); generated items take, per FEN, a piece of the side to move, an empty
-- square and a piece of the other side, chosen with --seed.
local tasks = require "scenarios.chessarena.tasks"
local chess = require "games.chess"
local records = require "tabula.records"
local prompt = require "tabula.prompt"
local metrics = require "tabula.metrics"
local fs = require "tabula.fs"
local json = require "tabula.json"
local cli = require "tabula.cli"
local selection = require "tabula.items"

local S = { name = "chess_understanding", summary = "chess basic understanding: piece and legal moves on a square",
  defaults = { trials = 1 } }

S.options = {
  { "items", "string", nil, "items JSONL (fen, prompt with 'Position: sq', ground_truth)" },
  { "fens", "string", nil, "FEN list to generate items from (one per line)" },
  { "ids", "list", nil, "item ids to keep: an item's \"id\", else its position in the file (1, 2, ...)" },
  { "limit", "int", nil, "at most this many items (after --ids)", min = 1 },
}

function S.plan(opts)
  local items, src = {}, nil
  if opts.fens then
    local fens = {}
    for line in fs.read_or_fail(opts.fens, "fens"):gmatch("[^\n]+") do
      if line:match("%S") then
        local ok, err = chess.new(line)
        if not ok then cli.fail("%s: bad FEN '%s': %s", opts.fens, line, err) end
        fens[#fens + 1] = line
      end
    end
    items, src = tasks.generate(fens, metrics.rng(opts.seed)), opts.fens
  else
    src = opts.items or fs.shared_data("chessarena/chess_modeling_evaluation.jsonl")
    if fs.kind(src) ~= "file" then cli.fail("no items at %s (give --items FILE or --fens FILE)", src) end
    for i, it in ipairs(records.read(src, { lenient = true })) do
      local sq = type(it.prompt) == "string" and it.prompt:match("Position:%s*(%a%d)")
      if not sq or type(it.fen) ~= "string" then cli.fail("%s: item %d has no fen or 'Position: square'", src, i) end
      local truth = tasks.truth(it.fen, sq)
      local kind = not truth.piece and "empty" or (#truth.legal_moves == 0 and "other_side_or_blocked" or "normal")
      items[#items + 1] = { id = it.id ~= nil and tostring(it.id) or nil, fen = it.fen, square = sq, ground_truth = truth, kind = kind }
    end
  end
  for i, it in ipairs(items) do it.pos, it.id = i, it.id or tostring(i) end
  local trials = {}
  for _, it in ipairs(selection.select(items, opts, { where = src })) do
    for k = 1, opts.trials do trials[#trials + 1] = { id = string.format("%d/%s/%d", it.pos, it.square, k), item = it, index = k } end
  end
  return trials, { items = src, items_sha256 = fs.sha256_file(src), n_items = #items }
end

function S.setup(opts, env)
  env.prompts = prompt.set("chess_tasks", opts.prompts)
  return { prompts = env.prompts:used() }
end

-- every square's answer on this board: what the random player picks from
function S.all_answers(fen)
  local out = {}
  for r = 1, 8 do for f = 1, 8 do out[#out + 1] = tasks.truth(fen, ("abcdefgh"):sub(f, f) .. r) end end
  return out
end

function S.play(trial, env)
  local it, P = trial.item, env.prompts
  local conv = { { role = "system", content = P:fill("understanding_system", {}) },
    { role = "user", content = P:fill("understanding_item", { fen = it.fen, square = it.square }) } }
  local ctx = { key = trial.id, sample = trial.index, rng = env.rng_for(trial),
    policy = function() return it.ground_truth end,
    legal_actions = S.all_answers(it.fen),
    format = function(a) return "```json\n" .. json.canonical({ piece = a.piece or json.null, legal_moves = json.array(a.legal_moves) }) .. "\n```" end }
  local reply, err = env.agent:reply(conv, ctx)
  if not reply then return nil, err end
  local answer, why = tasks.parse_understanding(reply.text)
  local single = tasks.score_understanding({ { truth = it.ground_truth, answer = answer } })
  return { trial_id = trial.id, fen = it.fen, square = it.square, kind = it.kind, truth = it.ground_truth,
    answer = answer, parse_error = why, reply = reply.text, piece_match = single.pma == 1,
    status = (single.pma == 1 and single.precision == 1 and single.recall == 1) and "success" or "failure",
    usage = reply.usage, cost = reply.cost }
end

function S.report(dir)
  local recs = records.read(dir .. "/trials.jsonl", { skip_bad = true })
  local list, by_kind = {}, {}
  for _, r in ipairs(recs) do
    if r.truth then
      local p = { truth = r.truth, answer = r.answer }
      list[#list + 1] = p
      by_kind[r.kind] = by_kind[r.kind] or {}
      table.insert(by_kind[r.kind], p)
    end
  end
  local sm = { all = tasks.score_understanding(list), by_kind = {} }
  for k, l in pairs(by_kind) do sm.by_kind[k] = tasks.score_understanding(l) end
  fs.write_or_fail(dir .. "/summary.json", json.encode(sm, { pretty = true }) .. "\n")
  local function row(name, s) return string.format("| %s | %d | %.1f%% | %.1f%% | %.1f%% |", name, s.n, 100 * (s.pma or 0), 100 * s.precision, 100 * s.recall) end
  local L = { "# Chess basic understanding", "", "| items | n | PMA | precision | recall |", "|---|---|---|---|---|", row("all", sm.all) }
  local kinds = {}
  for k in pairs(sm.by_kind) do kinds[#kinds + 1] = k end
  table.sort(kinds)
  for _, k in ipairs(kinds) do L[#L + 1] = row(k, sm.by_kind[k]) end
  local text = table.concat(L, "\n") .. "\n"
  fs.write_or_fail(dir .. "/report.md", text)
  return text
end

S.view = require("scenarios.chessarena.tasks_view").understanding

return S
