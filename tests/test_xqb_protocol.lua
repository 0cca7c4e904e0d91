-- XiangqiBench refereed as the official harness referees it (floatai/
-- xiangqibench 0.1.0: harness/protocol.py, harness.py, actions.py, runner.py):
-- scripted trials (replay:) that each reach the official outcome — the
-- action limit, what counts as an invalid action, the per-turn call cap, the
-- command parser and its aliases, simulate's length, the official mode names,
-- and the feedback that changes what the agent knows.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local test, T = t.suite()

local CASES = {
  mate1 = "3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1",          -- b1b9 mates
  calm = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1",             -- nothing happens quickly
  shuffle = "3k5/9/R8/9/9/9/9/9/9/4K4 w - - 0 1",          -- Black can only go d9-d8-d9
  soldier = "3k5/9/9/9/P8/9/9/9/R8/4K4 w - - 0 1",         -- a Red soldier across the river
}

local function cmd(text) return "```bash\n" .. text .. "\n```" end

-- play one case with scripted replies; returns the trial record
local function scripted(case, replies, extra)
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/cases.jsonl", json.canonical({ id = case, fen = CASES[case], first_winning_move = "b1b9",
    win_in_plies = 1 }) .. "\n")
  local lines = {}
  for i, r in ipairs(replies) do lines[i] = json.canonical({ text = r }) end
  fs.write_atomic(dir .. "/replies.jsonl", table.concat(lines, "\n") .. "\n")
  local args = { "--model", "replay:" .. dir .. "/replies.jsonl", "--cases", dir .. "/cases.jsonl", "--trials", "1",
    "--out", dir .. "/run", "--quiet" }
  for _, a in ipairs(extra or {}) do args[#args + 1] = a end
  t.run_scenario("scenarios/xiangqibench.lua", args)
  local recs = records.read(dir .. "/run/trials.jsonl")
  t.eq(#recs, 1)
  return recs[1]
end

local function kinds(r)
  local out = {}
  for i, a in ipairs(r.actions) do out[i] = a.kind end
  return out
end

-- ---- the action limit ----

test("a move offered as the 9th action is played", function()
  local replies = {}
  for i = 1, 8 do replies[i] = cmd("think step " .. i) end
  replies[9] = cmd("move b1b9")
  local r = scripted("mate1", replies)
  t.eq({ r.reason, r.official_reason, #r.actions }, { "win_mate", "checkmate", 9 })
end)

test("a malformed move past the 8th action is tried as a move (an invalid action), not an action-limit forfeit", function()
  local replies = {}
  for i = 1, 8 do replies[i] = cmd("think step " .. i) end
  replies[9] = cmd("move b1 b9")
  replies[10] = cmd("move b1b9")
  local r = scripted("mate1", replies)
  t.eq({ r.reason, r.actions[9].kind, #r.actions }, { "win_mate", "rejected", 10 })
end)

test("a non-move action past the 8th forfeits, refused actions included in the count", function()
  local replies = { cmd("view_board"), cmd("view_board"), cmd("think"), cmd("offer_draw"), cmd("legal_moves"),
    cmd("history"), cmd("think a"), cmd("moves"), cmd("history"), cmd("move b1b9") }
  local r = scripted("mate1", replies)
  t.eq({ r.reason, r.official_reason, #r.actions }, { "action_limit", "forfeit_action_limit", 9 })
  t.eq(r.actions[9].kind, "over_limit")
end)

-- ---- what counts as an invalid action ----

test("disabled commands are refused, not invalid: four of them, then a mate", function()
  local r = scripted("mate1", { cmd("legal_moves"), cmd("simulate b1b9"), cmd("view_board"), cmd("board"), cmd("move b1b9") },
    { "--setting", "restricted" })
  t.eq(r.reason, "win_mate")
  t.eq(kinds(r), { "refused", "refused", "refused", "refused", "accepted" })
  t.eq(r.actions[1].reject_reason, "legal_moves is disabled in this setting")
  t.contains(r.actions[1].feedback, "This does not count as an invalid action.")
end)

test("queries over their budget, an empty think and draw offers are refused, not invalid", function()
  local r = scripted("mate1", { cmd("view_board"), cmd("view_board"), cmd("view"), cmd("think"), cmd("offer_draw"),
    cmd("draw"), cmd("accept_draw"), cmd("move b1b9") })
  t.eq(r.reason, "win_mate")
  t.eq(kinds(r), { "accepted", "refused", "refused", "refused", "refused", "refused", "refused", "accepted" })
  t.eq(r.actions[4].reject_reason, "think needs some text")
  t.contains(r.actions[5].reject_reason, "draws are disabled")
end)

test("unknown commands are invalid: the third in a turn forfeits", function()
  local r = scripted("mate1", { cmd("fly"), cmd("hop"), cmd("teleport"), cmd("move b1b9") })
  t.eq({ r.reason, r.official_reason }, { "rejected_limit", "forfeit_invalid_action_limit" })
  t.eq(kinds(r), { "rejected", "rejected", "rejected" })
end)

test("the invalid count is per turn: two in each of two turns do not forfeit", function()
  local r = scripted("calm", { cmd("move a1b2"), cmd("fly"), cmd("move a1a2"), cmd("hop"), cmd("move a2b3"), cmd("resign") })
  t.eq(r.reason, "resignation")
  t.eq(kinds(r), { "illegal", "rejected", "accepted", "rejected", "illegal", "accepted" })
end)

-- ---- the parser ----

test("move takes its first word: 'move b1 b9' is a malformed move (invalid), three forfeit", function()
  local r = scripted("mate1", { cmd("move b1 b9"), cmd("move b1-b9"), cmd("MOVE b1 b9") })
  t.eq({ r.reason, r.official_reason }, { "illegal_move_limit", "forfeit_invalid_action_limit" })
  t.contains(r.actions[1].reject_reason, "bad move format 'b1'")
  t.contains(r.actions[2].reject_reason, "bad move format 'b1-b9'")
end)

test("the last fenced block of any language is read", function()
  local r = scripted("mate1", { "```bash\nresign\n```\nOn second thought:\n```python\nmove B1B9\n```" })
  t.eq({ r.reason, r.actions[1].command.move }, { "win_mate", "b1b9" })
end)

test("the first line that is neither empty nor a # comment is the command", function()
  local r = scripted("mate1", { "```bash\n# the mate\n\n   move b1b9\nresign\n```" })
  t.eq(r.reason, "win_mate")
  -- a block of comments only is no command
  local rr = scripted("mate1", { "```\n# nothing yet\n```", cmd("move b1b9") })
  t.eq(kinds(rr), { "no_command", "accepted" })
end)

test("a '$ ' prompt and the 'chess' program name are stripped", function()
  local r = scripted("mate1", { cmd("$ think one"), cmd("chess history"), cmd("$ chess move b1b9") })
  t.eq(r.reason, "win_mate")
  t.eq(kinds(r), { "accepted", "accepted", "accepted" })
end)

test("the official aliases: sim, board, moves, get_legal_moves, get_history", function()
  local r = scripted("mate1", { cmd("sim a8a7 d9d8"), cmd("board"), cmd("moves"), cmd("get_legal_moves"), cmd("get_history"),
    cmd("move b1b9") })
  t.eq(r.reason, "win_mate")
  local names = {}
  for i, a in ipairs(r.actions) do names[i] = a.kind .. ":" .. a.command.name end
  t.eq(names, { "accepted:simulate", "accepted:view_board", "accepted:legal_moves", "accepted:legal_moves", "accepted:history",
    "accepted:move" })
end)

test("a simulate longer than 8 plies is cut to 8 and run", function()
  local r = scripted("calm", { cmd("simulate a1a2 d9d8 a2a3 d8d9 a3a4 d9d8 a4a5 d8d9 a5a6 d9d8"), cmd("resign") })
  t.eq(r.actions[1].kind, "accepted")
  t.eq(r.actions[1].simulate_cut, 10)
  t.eq({ r.simulations[1].length, r.simulations[1].outcome }, { 8, "complete" })
end)

test("simulate takes its words unchecked: a word that is no move stops the line there", function()
  local r = scripted("calm", { cmd("simulate a1a2 nonsense d9d8"), cmd("resign") })
  t.eq(r.actions[1].kind, "accepted")
  t.eq({ r.simulations[1].outcome, r.simulations[1].stopped_at }, { "illegal", 2 })
end)

-- ---- the per-turn call cap ----

test("a turn takes at most 13 model calls (actions + replies without a command)", function()
  local replies = {}
  -- four replies without a command, then a think (which ends the run of them), twice, then three more
  for _ = 1, 2 do
    for _ = 1, 4 do replies[#replies + 1] = "thinking..." end
    replies[#replies + 1] = cmd("think still")
  end
  for _ = 1, 3 do replies[#replies + 1] = "thinking..." end
  replies[#replies + 1] = cmd("move b1b9")   -- the 14th call: never made
  local r = scripted("mate1", replies)
  t.eq({ r.reason, r.official_reason, r.calls, #r.actions }, { "call_cap", "forfeit_action_budget_exhausted", 13, 13 })
  t.eq(r.status, "failure")
end)

-- ---- the official mode names ----

test("the official mode names select our settings, and records name both", function()
  local r = scripted("mate1", { cmd("legal_moves"), cmd("move b1b9") }, { "--setting", "S-NT" })
  t.eq({ r.setting, r.official_mode, r.reason }, { "no-queries", "S-NT", "win_mate" })
  t.eq(r.actions[1].kind, "refused", "S-NT has no query commands")
  local rr = scripted("mate1", { cmd("move b1b9") }, { "--setting", "repl-blind" })
  t.eq({ rr.setting, rr.official_mode }, { "restricted", "restricted" })
end)

-- ---- feedback ----

test("the repetition watch: the position after your move seen a second time is announced", function()
  local r = scripted("shuffle", { cmd("move a7b7"), cmd("move b7a7"), cmd("move a7b7"), cmd("move b7a7") })
  t.eq(r.reason, "repetition_draw")
  t.eq(r.actions[2].feedback:find("Repetition:", 1, true), nil, "not before the second occurrence")
  t.contains(r.actions[3].feedback, "Repetition: the position after your move has now occurred 2 times.")
end)

test("the material line counts a soldier across the river as 1, as the official count", function()
  local r = scripted("soldier", { cmd("move a1a2"), cmd("resign") })
  t.contains(r.actions[1].feedback, "Material: Red R1 N0 B0 A0 C0 P1 | Black R0 N0 B0 A0 C0 P0 | balance: Red +10 (nominal)")
end)

test("with no command in the reply's text, a command in its reasoning counts", function()
  local S = require("tabula.cmd.run").lib.load(t.root() .. "/scenarios/xiangqibench.lua")
  local opts = { ["max-plies"] = 40, actions = 8, rejected = 3, illegal = 3, ["no-command"] = 5, ["view-budget"] = 1,
    ["simulate-budget"] = 1, ["simulate-max"] = 8 }
  local env = { opts = opts, prompts = require("tabula.prompt").set("xiangqibench"), defender = { kind = "builtin" } }
  local tr = S.new_trial({ id = "x", case = { fen = CASES.mate1 }, setting = "sighted", index = 1 }, env)
  tr.rec = { moves = {}, initial_fen = tr.board:fen(), defender_moves = {}, simulations = {} }
  tr.tb = { actions = 0, rejected = 0, views = 0, sims = 0, calls = 0, over = false }
  tr.illegal_run, tr.no_cmd_run = 0, 0
  local action = {}
  tr:text_step({ text = "I have it.", reasoning = "The mate:\n```bash\nmove b1b9\n```" }, action, {})
  t.eq({ tr.reason, action.command_from }, { "win_mate", "reasoning" })
end)

return T
