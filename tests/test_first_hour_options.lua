-- The first hour with the options (issue 46, items 6, 12 and 16): no option a
-- scenario lists is silently ignored (DECE's sampling options reach its model
-- participants; --model is refused in the arenas, pointing at --players and
-- --participants); mistyped values stop in one line before any run directory
-- exists; ChessArena's count of games is --game-count (--games, its old
-- spelling, still works with a note) and its --help lists no refused option.
local t = require "tabula.testing"
local json = require "tabula.json"
local fs = require "tabula.fs"
local test, T = t.suite()

local DECE = "scenarios/dece"
local ARENA = "scenarios/chessarena"

-- tabula(args) -> rc, output (stdout and stderr) of the real binary, run from the root
local function tabula(args)
  local q = {}
  for i, a in ipairs(args) do q[i] = t.quote(a) end
  local out = t.sh("cd " .. t.root() .. " && " .. t.tabula_bin() .. " " .. table.concat(q, " "))
  return tonumber(out:match("rc=(%d+)\n$")), (out:gsub("rc=%d+\n$", ""))
end

-- one_line(out): what the binary printed is one line, with no traceback
local function one_line(out, what)
  t.ok(not out:find("traceback", 1, true) and not out:find("internal error", 1, true), what .. ": " .. out)
  t.eq(select(2, out:gsub("\n", "")), 1, what .. " prints one line: " .. out)
end

local function write_json(path, doc)
  fs.write_atomic(path, json.encode(doc))
  return path
end

-- a models.lua naming the mock server m (priced), and participants with one model
local function mock_models(dir, url)
  fs.write_atomic(dir .. "/models.lua", string.format([[return { m = { provider = "openai", model = "m",
    base_url = %q, optional_key = true, prices = { input = 2, cached = 1, output = 10 } } }]], url .. "/v1"))
  return dir .. "/models.lua"
end

test("DECE: --temperature and --max-tokens reach a model participant whose file sets neither; its own settings win", function()
  local mock = require "tests.mock"
  local s = mock.start({ { reply = "ACTION: nothing-legal", usage = { input = 10, output = 5 } } })
  local dir = t.tmpdir()
  local parts = write_json(dir .. "/parts.json", { participants = {
    { name = "plain", model = "m", harness = { fallback = "random" } },
    { name = "own", model = "m", harness = { fallback = "random" }, sampling = { temperature = 0.9 } },
    { name = "random", player = "random" } } })
  local rc, out = tabula({ "run", DECE, "--participants", parts, "--models", mock_models(dir, s.url), "--games", "azul",
    "--out", dir .. "/run", "--concurrency", "1", "--max-calls", "6", "--quiet", "--temperature", "0.25", "--max-tokens", "321" })
  local log = s:log()
  s:close()
  t.eq(rc, 4, "the run stops at its --max-calls budget: " .. out)
  t.ok(#log >= 2, "the model participants were called")
  local temps, max_out = {}, {}
  for _, e in ipairs(log) do
    local body = json.decode(e.body)
    temps[body.temperature] = true
    max_out[body.max_output_tokens] = true
  end
  t.ok(temps[0.25], "--temperature reached the participant without its own")
  t.ok(temps[0.9], "the participant's own temperature is kept")
  t.eq(max_out, { [321] = true }, "--max-tokens reached both participants (and bounds what a call reserves)")
  -- the settings are part of each participant's manifest (its identity in run.json)
  local meta = json.read_file(dir .. "/run/run.json")
  t.eq(meta.participants.plain.manifest.sampling, { temperature = 0.25, max_tokens = 321 })
  t.eq(meta.participants.own.manifest.sampling, { temperature = 0.9, max_tokens = 321 })
end)

test("DECE: sampling options with only built-in players, and --model, are refused in one line", function()
  local dir = t.tmpdir()
  local rc, out = tabula({ "run", DECE, "--games", "azul", "--temperature", "0.3", "--out", dir .. "/a" })
  t.eq(rc, 2, out)
  one_line(out, "--temperature without a model")
  t.contains(out, "--temperature: no participant of this run is a model")
  rc, out = tabula({ "run", DECE, "--games", "azul", "--model", "openai:gpt-5.5", "--out", dir .. "/b" })
  t.eq(rc, 2, out)
  one_line(out, "--model in DECE")
  t.contains(out, "--participants")
  t.ok(not fs.kind(dir .. "/a") and not fs.kind(dir .. "/b"), "no run directory is left")
end)

test("ChessArena: --model and --out are refused in one line; --help lists neither", function()
  local dir = t.tmpdir()
  local rc, out = tabula({ "run", ARENA, "--arena", dir .. "/arena", "--players", "random,stockfish:depth=1", "--model", "openai:gpt-5.5" })
  t.eq(rc, 2, out)
  one_line(out, "--model in ChessArena")
  t.contains(out, "--players")
  rc, out = tabula({ "run", ARENA, "--arena", dir .. "/arena", "--out", dir .. "/x" })
  t.eq(rc, 2, out)
  one_line(out, "--out in ChessArena")
  t.contains(out, "--arena")
  rc, out = tabula({ "run", ARENA, "--help" })
  t.eq(rc, 0, out)
  t.ok(not out:find("%-%-out "), "--help does not list --out: " .. out)
  t.ok(not out:find("%-%-model "), "--help does not list --model")
  t.ok(not out:find("not taken here", 1, true), "no refused option is listed")
  t.contains(out, "--game-count N")
end)

test("ChessArena: the count of games is --game-count; --games still works with a one-line note", function()
  local S = require("tabula.cmd.run").lib.load(t.root() .. "/" .. ARENA)
  local cli = require "tabula.cli"
  local spec = require("tabula.cmd.run").lib.spec(S)
  local opts = assert(cli.parse(spec, { "--arena", "x", "--game-count", "3" }))
  S.settle_options(opts)
  t.eq(opts["game-count"], 3)
  t.eq(opts.games, 3, "the planner's count")
  t.eq(cli.notes(opts), {})
  opts = assert(cli.parse(spec, { "--arena", "x", "--games", "4" }))
  S.settle_options(opts)
  t.eq(opts["game-count"], 4)
  t.eq(opts.games, 4)
  t.eq(#cli.notes(opts), 1)
  t.contains(cli.notes(opts)[1], "--game-count")
  t.contains(t.raises(function() cli.parse(spec, { "--arena", "x", "--games", "4", "--game-count", "5" }) end), "give --game-count only")
  t.contains(t.raises(function() cli.parse(spec, { "--game-count", "-1" }) end), "at least 0")
  -- the binary: the note, once, and the games played
  local dir = t.tmpdir()
  local rc, out = tabula({ "run", ARENA, "--arena", dir .. "/a", "--players", "random,stockfish:depth=1", "--games", "0" })
  t.eq(rc, 0, out)
  t.eq(select(2, out:gsub("is now %-%-game%-count", "")), 1, "the note once: " .. out)
end)

test("--limit below one stops in one line (it hung with no output)", function()
  local dir = t.tmpdir()
  local rc, out = tabula({ "run", "scenarios/xiangqibench", "--model", "random", "--limit", "-3", "--out", dir .. "/run" })
  t.eq(rc, 2, out)
  one_line(out, "--limit -3")
  t.contains(out, "--limit must be at least 1")
  t.ok(not fs.kind(dir .. "/run"))
end)

test("DECE participants with mistyped fields stop in one line naming the participant and the field", function()
  local dir = t.tmpdir()
  local cases = {
    { { player = "heuristic", epsilon = "x" }, "epsilon must be a number from 0 to 1, not \"x\"" },
    { { player = "ismcts", simulations = "many" }, "simulations must be a whole number" },
    { { player = "ismcts", simulations = 1e308 }, "simulations must be a whole number from 1 to" },
    { { player = "ismcts", steps = 0 }, "steps must be a whole number" },
    { { player = "ismcts", time_target = 1e308 }, "time_target must be a number of seconds" },
    { { player = "ismcts", simulatons = 8 }, "unknown field 'simulatons' for player ismcts" },
    { { model = "random", sampling = { temperature = "hot" } }, "sampling.temperature must be a number, not \"hot\"" },
    { { model = "random", sampling = { temprature = 0.2 } }, "unknown sampling field 'temprature'" },
    { { model = "random", budget = { max_cost = "lots" } }, "budget.max_cost must be a number >= 0" },
  }
  for i, c in ipairs(cases) do
    local e = c[1]
    e.name = "p"
    local parts = write_json(dir .. "/parts" .. i .. ".json", { participants = { e,
      { name = "random", player = "random" }, { name = "heuristic", player = "heuristic" } } })
    local rc, out = tabula({ "run", DECE, "--participants", parts, "--games", "azul", "--out", dir .. "/run" .. i })
    t.eq(rc, 2, out)
    one_line(out, c[2])
    t.contains(out, "participant 1 (p)")
    t.contains(out, c[2])
    t.ok(not fs.kind(dir .. "/run" .. i), "no run directory is left")
  end
end)

test("a run directory whose index (or records) is a directory: one line from run and report", function()
  local dir = t.tmpdir()
  local run = dir .. "/run"
  local rc, out = tabula({ "run", "scenarios/xiangqibench", "--model", "random", "--limit", "1", "--trials", "1", "--defender-nodes", "3000",
    "--out", run, "--quiet" })
  t.eq(rc, 0, out)
  os.remove(run .. "/trials.jsonl.idx")
  fs.mkdir_p(run .. "/trials.jsonl.idx")
  rc, out = tabula({ "report", run })
  t.eq(rc, 2, out)
  one_line(out, "report")
  t.contains(out, "trials.jsonl.idx is a directory, not a file")
  rc, out = tabula({ "run", "scenarios/xiangqibench", "--model", "random", "--limit", "1", "--trials", "1", "--defender-nodes", "3000",
    "--out", run, "--quiet" })
  t.eq(rc, 2, out)
  one_line(out, "run")
  t.contains(out, "trials.jsonl.idx is a directory, not a file")
end)

return T
