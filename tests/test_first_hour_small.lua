-- The small frictions of the first hour (issue 46, item 16): a failed start
-- leaves no run directory (nor an arena with only a lock); a progress line
-- without a reason has no empty "()"; the data validation is said once, not
-- once per worker; `tabula render xiangqi --fen startpos` draws the initial
-- position.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local progress = require "tabula.progress"
local test, T = t.suite()

local function tabula(args)
  local q = {}
  for i, a in ipairs(args) do q[i] = t.quote(a) end
  local out = t.sh("cd " .. t.root() .. " && env -u OPENAI_API_KEY " .. t.quote(t.tabula_bin()) .. " " .. table.concat(q, " "))
  return tonumber(out:match("rc=(%d+)\n$")), (out:gsub("rc=%d+\n$", ""))
end

test("a ChessArena start that fails (a player's key is missing) leaves no arena directory behind", function()
  local dir = t.tmpdir()
  local rc, out = tabula({ "run", "scenarios/chessarena", "--arena", dir .. "/arena", "--players", "openai:gpt-5.5@blitz,random",
    "--game-count", "1" })
  t.eq(rc, 2, out)
  t.contains(out, "OPENAI_API_KEY")
  t.eq(fs.kind(dir .. "/arena"), nil, "no arena directory (with only its lock) is left")
  -- an arena that existed keeps what it holds, and is not locked afterwards
  fs.mkdir_p(dir .. "/kept")
  fs.write_atomic(dir .. "/kept/note.txt", "mine\n")
  rc, out = tabula({ "run", "scenarios/chessarena", "--arena", dir .. "/kept", "--players", "openai:gpt-5.5@blitz,random",
    "--game-count", "1" })
  t.eq(rc, 2, out)
  t.eq(fs.read(dir .. "/kept/note.txt"), "mine\n")
end)

test("a failed start in this process releases the run directory's lock and removes what it made", function()
  local run = require("tabula.cmd.run").lib
  local runner = require "tabula.runner"
  local dir = t.tmpdir() .. "/new"
  runner.lock_run(dir)
  t.eq(fs.kind(dir .. "/.lock"), "file")
  run.abandon(dir, false)
  t.eq(runner.locked_dir, nil, "the lock is released")
  t.eq(fs.kind(dir), nil, "the directory it made is gone")
  local kept = t.tmpdir() .. "/kept"
  fs.mkdir_p(kept)
  runner.lock_run(kept)
  run.abandon(kept, true)
  t.eq(fs.kind(kept), "dir", "a directory that existed stays")
end)

test("a progress line without a reason has no empty parentheses", function()
  t.eq(progress.trial_line({ trial_id = "a", status = "success" }, 1, 2), "[1/2] a success")
  t.eq(progress.trial_line({ trial_id = "a", status = "failure", reason = "" }, 1, 2), "[1/2] a failure")
  t.eq(progress.trial_line({ trial_id = "a", status = "failure", reason = "wrong" }, 1, 2), "[1/2] a failure (wrong)")
  t.eq(progress.trial_line({ status = "finished", result = "1-0" }, 3, 4, "game-1"), "[3/4] game-1 finished (1-0)")
  local lines = {}
  local update = progress.reporter({ tty = false, out = { write = function(_, ...) for _, s in ipairs({ ... }) do lines[#lines + 1] = s end end,
    flush = function() end } })
  update({ match_id = "azul-001", status = "finished" }, 1, 1, "azul-001")
  t.eq(table.concat(lines), "[1/1] azul-001 finished\n")
end)

test("Jianghu108's data validation is said once, not once per worker", function()
  local data = t.need_shared("jianghu108/江湖残局.json")
  local dir = t.tmpdir()
  local _, alone = tabula({ "run", "scenarios/jianghu108", "--data", data, "--model", "random", "--limit", "2", "--trials", "1",
    "--workers", "1", "--out", dir .. "/one" })
  local rc, out = tabula({ "run", "scenarios/jianghu108", "--data", data, "--model", "random", "--limit", "2", "--trials", "1",
    "--workers", "2", "--out", dir .. "/two" })
  t.eq(rc, 0, out)
  local n1 = select(2, alone:gsub("\nvalidate: ", "")) + (alone:match("^validate: ") and 1 or 0)
  local n2 = select(2, out:gsub("\nvalidate: ", "")) + (out:match("^validate: ") and 1 or 0)
  t.ok(n1 >= 1, "the public data has a finding to say: " .. alone)
  t.eq(n2, n1, "with two workers the findings are said as often as with one")
end)

test("tabula render xiangqi --fen startpos (and chess) draws the initial position", function()
  local dir = t.tmpdir()
  local rc, out = tabula({ "render", "xiangqi", "--fen", "startpos", "--out", dir .. "/x.png" })
  t.eq(rc, 0, out)
  local _, plain = tabula({ "render", "xiangqi", "--out", dir .. "/y.png" })
  t.contains(plain, "wrote")
  t.eq(fs.read(dir .. "/x.png"), fs.read(dir .. "/y.png"), "startpos is the initial position")
  rc, out = tabula({ "render", "chess", "--fen", "startpos", "--out", dir .. "/c.svg" })
  t.eq(rc, 0, out)
end)

return T
