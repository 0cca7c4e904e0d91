-- tests/fake_uci.lua MODE — a faulty UCI engine for the tests, run by tabula
-- itself: `tabula tests/fake_uci.lua MODE`. It answers uci and isready; to
-- "go" it answers by MODE:
--   illegal  bestmove a0a9 (never legal for Black)
--   nul      a bestmove holding a NUL byte
--   chatty   info lines for 10 s, never a bestmove
--   long     3 MB without a newline
--   bigline  a 900 KB info line, then bestmove a0a9
local mode = arg[1] or "illegal"
local function say(s) io.write(s, "\n"); io.flush() end
for line in io.lines() do
  if line == "uci" then say("id name fake-" .. mode); say("uciok")
  elseif line == "isready" then say("readyok")
  elseif line:match("^go") then
    if mode == "illegal" then say("bestmove a0a9")
    elseif mode == "nul" then say("bestmove h\0x")
    elseif mode == "chatty" then
      local t0 = os.time()
      while os.time() - t0 < 10 do say("info depth 1 score cp 0 nodes 1 pv a9a8") end
    elseif mode == "long" then io.write(string.rep("x", 3 * 1024 * 1024)); io.flush()
    elseif mode == "bigline" then say("info string " .. string.rep("y", 900 * 1024)); say("bestmove a0a9")
    end
  elseif line == "quit" then break end
end
