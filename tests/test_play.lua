-- tabula play: a person at the terminal ends the session with Ctrl-D (end of
-- input) or quit; the game does not restart and nothing is recorded for it.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local test, T = t.suite()

-- play(input) -> output, dir: tabula play with `input` piped in
local function play(input)
  local dir = t.tmpdir()
  local out = t.sh(string.format("cd %s && printf '%s' | %s play xiangqibench --case tabula_0001 --out run",
    dir, input, t.tabula_bin()))
  return out, dir
end

local function count(text, piece)
  return select(2, text:gsub(piece:gsub("%p", "%%%0"), ""))
end

for _, c in ipairs({ { "Ctrl-D at the first prompt", "", "end of input" },
                     { "quit at the first prompt", "quit\\n", "quit" },
                     { "quit after a move", "move h2e2\\nquit\\n", "quit" },
                     { "Ctrl-D after a move", "move h2e2\\n", "end of input" } }) do
  test("tabula play: " .. c[1] .. " ends the session", function()
    local out, dir = play(c[2])
    t.contains(out, "rc=0")
    t.contains(out, "play: session ended (" .. c[3] .. "); trial tabula_0001/sighted/1 not recorded")
    t.eq(count(out, "--- system"), 1, "the game was shown once, not restarted")
    t.ok(not out:find("re-queued", 1, true), "no retry of the trial")
    t.eq(fs.read(dir .. "/run/trials.jsonl") or "", "", "nothing recorded")
  end)
end

return T
