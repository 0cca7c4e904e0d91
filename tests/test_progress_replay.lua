-- Watching and replaying runs: the live progress line on a terminal, a line per
-- trial otherwise; replay players match single-turn records by trial id.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local records = require "tabula.records"
local progress = require "tabula.progress"
local test, T = t.suite()

local function sink()
  local buf = {}
  return { write = function(self, ...) for _, s in ipairs({ ... }) do buf[#buf + 1] = s end return self end,
    flush = function() end, text = function() return table.concat(buf) end }
end

test("progress: one live line on a terminal with counts, tokens, cost and ETA; lines per trial otherwise", function()
  local clock = 100
  local out = sink()
  local update, finish = progress.reporter({ tty = true, out = out, now = function() return clock end })
  clock = 110
  update({ trial_id = "a", status = "success", usage = { input = 900, output = 100 }, cost = 0.5, calls = 2 }, 1, 4)
  clock = 120
  update({ trial_id = "b", status = "error" }, 2, 4)
  finish()
  local text = out:text()
  t.eq(select(2, text:gsub("\r", "")), 2, "redrawn in place")
  t.eq(select(2, text:gsub("\n", "")), 1, "one newline, at the end")
  t.contains(text, "[1/4] 1 ok, 0 failed, 0 errors | 2 calls, 1000 tokens, $0.5000 | 0:10 elapsed, ETA 0:30")
  t.contains(text, "[2/4] 1 ok, 0 failed, 1 errors | 2 calls, 1000 tokens, $0.5000 | 0:20 elapsed, ETA 0:20")
  for _, o in ipairs({ { tty = false }, { tty = true, verbose = true } }) do
    out = sink()
    o.out = out
    update, finish = progress.reporter(o)
    update({ trial_id = "a", status = "failure", reason = "wrong" }, 1, 2)
    finish()
    t.eq(out:text(), "[1/2] a failure (wrong)\n")
  end
end)

test("replay matches single-turn records by trial id, whatever the file's order", function()
  local d = t.tmpdir()
  t.run_scenario("examples/checks_mc.lua", { "--out", d .. "/a", "--model", "random", "--limit", "12", "--quiet", "--workers", "1" })
  local recs = records.read(d .. "/a/trials.jsonl")
  local lines = {}
  for i = #recs, 1, -1 do lines[#lines + 1] = require("tabula.json").canonical(recs[i]) end
  fs.write_atomic(d .. "/reversed.jsonl", table.concat(lines, "\n") .. "\n")
  t.run_scenario("examples/checks_mc.lua", { "--out", d .. "/b", "--model", "replay:" .. d .. "/reversed.jsonl",
    "--limit", "12", "--quiet", "--workers", "1" })
  local want, got = {}, {}
  for _, r in ipairs(recs) do want[r.trial_id] = r.choice end
  for _, r in ipairs(records.read(d .. "/b/trials.jsonl")) do got[r.trial_id] = r.choice end
  t.eq(got, want)
  local n = 0
  for _ in pairs(want) do n = n + 1 end
  t.eq(n, 12)
end)

return T
