-- tabula perft xiangqi FEN DEPTH — count leaf nodes of the legal-move tree.
local cli = require "tabula.cli"

return {
  summary = "count move-tree leaves: tabula perft xiangqi FEN DEPTH [--divide]",
  usage = "xiangqi FEN DEPTH [--divide]",
  options = {
    { "divide", "bool", false, "print the count below each first move" },
  },
  main = function(opts, args)
    local game, fen, depth = args[1], args[2], math.tointeger(tonumber(args[3] or ""))
    if game ~= "xiangqi" then cli.fail("perft: the game must be 'xiangqi' (got %s)", tostring(game)) end
    if not fen or not depth or depth < 0 then cli.fail("usage: tabula perft xiangqi FEN DEPTH") end
    local xq = require "games.xiangqi"
    local b, err = xq.new(fen == "startpos" and xq.START or fen)
    if not b then cli.fail("perft: bad FEN: %s", err) end
    local started = os.clock()
    local total = 0
    if opts.divide and depth >= 1 then
      for _, m in ipairs(b:moves()) do
        b:play(m)
        local n = b:perft(depth - 1)
        b:undo()
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
