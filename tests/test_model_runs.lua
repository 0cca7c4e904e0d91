-- The benchmarks end to end over the mock server as each model family of the
-- issue (an adaptive-only Claude, an OpenAI reasoning model over Responses, a
-- Gemini 3 model, an OpenAI-compatible open server): no request refused, the
-- reasoning recorded, a retry carrying the first reply's reasoning, and the
-- protocol defaults a model refuses recorded as settings_adjusted in run.json
-- and report.md. (XiangqiBench: tests/test_model_families.lua.)
local t = require "tabula.testing"
local mock = require "tests.mock"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local fam = require "tests.families"
local test, T = t.suite()

local ORDER, FAMILIES = fam.ORDER, fam.FAMILIES

local function settings_adjusted(dir)
  return json.read_file(dir .. "/run.json").settings_adjusted
end

local function find(adj, setting)
  for _, a in ipairs(adj or {}) do if a.setting == setting then return a end end
  return nil
end

test("ChessArena (Blitz, one game) as each family: the retry carries the first reply's reasoning; the paper's sampling adjusted", function()
  for _, f in ipairs(ORDER) do
    local s = mock.start({
      { reply = "Rook to the ninth. <answer><move>a1a9</move></answer>", reasoning = "The rook mates on the back rank.", times = 1 },
      { reply = "<answer><move>a1a8</move></answer>", reasoning = "a8 it is." } })
    local dir = t.tmpdir()
    local mf = fam.models_file(dir, s)
    local player = f .. "@blitz"
    t.run_scenario("scenarios/chessarena.lua", { "--arena", dir .. "/arena", "--players", player .. ",random",
      "--start", player, "--games", "1", "--analysis-depth", "0", "--quiet", "--models", mf,
      "--fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1" })
    local games = records.read(dir .. "/arena/games.jsonl")
    t.eq(#games, 1, f)
    t.eq({ games[1].result, games[1].termination }, { "1-0", "checkmate" }, f)
    local b = fam.bodies(s)
    t.eq(#b, 2, f .. ": the illegal reply and its retry, none refused")
    if f ~= "open" then t.ok(fam.carried(f, b[2]), f .. ": the retry carries the first reply's reasoning") end
    -- ChessArena's temperature 0.2 and top_p 1: not sent to Claude 4.7 nor GPT-5.5
    local sent = b[1]
    if f == "claude" then t.eq({ sent.temperature, sent.top_p }, { nil, nil })
    elseif f == "gpt" then t.eq({ sent.temperature, sent.top_p }, { nil, 1 })
    elseif f == "gemini" then t.eq(sent.generationConfig.temperature, 0.2)
    else t.eq(sent.temperature, 0.2) end
    -- recorded per participant in the arena's run.json
    local adj = find(settings_adjusted(dir .. "/arena"), "temperature")
    if f == "claude" or f == "gpt" then t.eq({ adj.participant, adj.asked, adj.sent }, { player, 0.2, "not sent" }, f)
    else t.eq(adj, nil, f) end
    s:close()
  end
end)

test("Jianghu108 (5 problems) as each family: thinking on, the reasoning recorded, 131072 output tokens clamped and recorded", function()
  local data = t.need_shared("jianghu108") .. "/江湖残局.json"
  for _, f in ipairs(ORDER) do
    local s = mock.start({ { reply = "<box>C</box>", reasoning = "The cannon screens the general." } })
    local dir = t.tmpdir()
    local mf = fam.models_file(dir, s)
    t.run_scenario("scenarios/jianghu108.lua", { "--model", f, "--models", mf, "--data", data, "--ids", "1,2,3,4,5",
      "--out", dir .. "/run", "--quiet" })
    local recs = records.read(dir .. "/run/trials.jsonl")
    t.eq(#recs, 5, f)
    for _, r in ipairs(recs) do t.eq(r.reasoning, "The cannon screens the general.", f .. ": reasoning recorded") end
    t.eq(s:requests(), 5, f .. ": five calls, none refused")
    local adj = find(settings_adjusted(dir .. "/run"), "max-tokens")
    local max = ({ claude = 128000, gpt = 128000, gemini = 65536 })[f]
    if max then
      t.eq({ adj.asked, adj.sent }, { 131072, max }, f)
      t.contains(fs.read(dir .. "/run/report.md"), "`--max-tokens` asked 131072, sent " .. max)
    else
      t.eq(adj, nil, "an open server is sent what the protocol asks")
    end
    s:close()
  end
end)

test("TsuGO (the suite, K = 4) as each family: temperature 0.7 adjusted where refused and recorded; reasoning recorded", function()
  for _, f in ipairs(ORDER) do
    local s = mock.start({ { reply = "The vital point first.\nanswer is A", reasoning = "A kills: the eye space is too small." } })
    local dir = t.tmpdir()
    local mf = fam.models_file(dir, s)
    t.run_scenario("scenarios/tsugo.lua", { "--model", f, "--models", mf, "--candidates", "4", "--ids", "tabula-go-0001,tabula-go-0002",
      "--gnugo", "none", "--engine-playouts", "150", "--mcts-playouts", "60", "--no-references", "--out", dir .. "/run", "--quiet" })
    local recs = records.read(dir .. "/run/trials.jsonl")
    t.eq(#recs, 2, f)
    for _, r in ipairs(recs) do t.eq(r.reasoning, "A kills: the eye space is too small.", f .. ": reasoning recorded") end
    t.eq(s:requests(), 2, f .. ": none refused")
    local adj = find(settings_adjusted(dir .. "/run"), "temperature")
    if f == "claude" or f == "gpt" then
      t.eq({ adj.asked, adj.sent }, { 0.7, "not sent" }, f)
      t.contains(fs.read(dir .. "/run/report.md"), "settings_adjusted:")
    else
      t.eq(adj, nil, f .. " takes temperature 0.7")
    end
    s:close()
  end
end)

test("the cache-hit share and the adjusted settings in report.md and report.html", function()
  local s = mock.start({
    { match = "The game begins", reply = "```bash\nthink the chariot mates on b9\n```", reasoning = "b9.", usage = { input = 1000, cache_write = 900, output = 10 } },
    { match = "Noted.", reply = "```bash\nmove b1b9\n```", usage = { input = 1100, cached = 900, cache_write = 100, output = 10 } } })
  local dir = t.tmpdir()
  -- a models file's sampling settings are defaults: refused ones are adjusted, not an error
  fs.write_atomic(dir .. "/models.lua", string.format([[return { c = { provider = "anthropic", model = "claude-opus-4-7",
    base_url = %q, optional_key = true, settings = { temperature = 0.5 } } }]], s.url .. "/v1"))
  fs.write_atomic(dir .. "/cases.jsonl", json.canonical({ id = "mate1", fen = "3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1",
    first_winning_move = "b1b9", win_in_plies = 1, category = "forced_mate" }) .. "\n")
  local run = dir .. "/run"
  t.run_scenario("scenarios/xiangqibench.lua", { "--model", "c", "--models", dir .. "/models.lua", "--cases", dir .. "/cases.jsonl",
    "--trials", "1", "--out", run, "--quiet" })
  s:close()
  local md = fs.read(run .. "/report.md")
  t.contains(md, "prompt cache: 42.9% of 2100 input tokens read from the cache (900)\n")
  t.contains(md, "- `--temperature` asked 0.5, sent not sent: claude-adaptive refuses temperature")
  local scen = require("tabula.cmd.run").lib.load("scenarios/xiangqibench.lua")
  require("tabula.view").write(run, scen)
  local html = fs.read(run .. "/report.html")
  t.contains(html, "prompt cache 42.9% of input")
  t.contains(html, "--temperature asked 0.5, sent not sent: claude-adaptive refuses temperature")
end)

return T
