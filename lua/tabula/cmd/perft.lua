-- tabula perft xiangqi|chess FEN DEPTH — count leaf nodes of the legal-move tree
-- (FEN "startpos" for the start position).
local cli = require "tabula.cli"

return {
  summary = "count move-tree leaves: tabula perft xiangqi|chess FEN DEPTH [--divide]",
  usage = "xiangqi|chess FEN DEPTH [--divide]",
  options = {
    { "divide", "bool", false, "print the count below each first move" },
  },
  main = function(opts, args)
    local game, fen, depth = args[1], args[2], math.tointeger(tonumber(args[3] or ""))
    if game ~= "xiangqi" and game ~= "chess" then cli.fail("perft: the game must be xiangqi or chess (got %s)", tostring(game)) end
    if not fen or not depth or depth < 0 then cli.fail("usage: tabula perft xiangqi|chess FEN DEPTH") end
    local max = game == "chess" and 10 or 12        -- what the C cores accept
    if depth > max then cli.fail("perft: depth %d is out of range for %s (0..%d)", depth, game, max) end
    local rules = require(game == "chess" and "games.chess" or "games.xiangqi")
    local b, err = rules.new(fen == "startpos" and rules.START or fen)
    if not b then cli.fail("perft: bad FEN: %s", err) end
    local started = os.clock()
    local total = 0
    if opts.divide and depth >= 1 then
      for _, m in ipairs(b:moves()) do
        local c = b:copy()
        c:play(m)
        local n = c:perft(depth - 1)
        io.write(string.format("%s: %d\n", m, n))
        total = total + n
      end
    else
      total = b:perft(depth)
    end
    local secs = os.clock() - started
    io.write(string.format("nodes %d\ntime %.3fs\nnps %.0f\n", total, secs, secs > 0 and total / secs or 0))
    return 0
  end,
}
