-- tabula render — board pictures (PNG, 792x870):
--   tabula render jianghu108 --id N --out file.png [--data FILE]   a problem with arrows A-D
--   tabula render xiangqi --fen FEN [--arrows h2e2,b0c2] --out file.png
--   tabula render chess --fen FEN [--arrows e2e4] --out file.svg   (SVG: the viewer's board)
--   tabula render go --size 9 --black C3,D4 --white E5 [--last D4] [--labels A=C4,B=E4]
--                    [--accepted C4] [--chosen E4] [--crop] --out file.svg      (SVG: the viewer's Go board)
--   tabula render go --problems FILE --id ID --out file.svg         a TsuGO problem, its accepted answers marked
local cli = require "tabula.cli"
local fs = require "tabula.fs"

-- start_fen(fen, start) -> the FEN to draw: "startpos" (as UCI writes it) or no
-- --fen is the game's initial position
local function start_fen(fen, start)
  if fen == nil or fen == "startpos" or fen == "start" then return start end
  return fen
end

return {
  summary = "draw a board picture: tabula render jianghu108 --id N --out file.png",
  usage = "jianghu108|xiangqi|chess|go [options]",
  options = {
    { "id", "string", nil, "Jianghu108 problem id" },
    { "data", "string", nil, "Jianghu108 problem file (default ../shared/data/jianghu108/江湖残局.json)" },
    { "fen", "string", nil, "position to draw (xiangqi, chess; startpos: the initial position, the default)" },
    { "arrows", "list", nil, "moves to draw as arrows (ICCS for xiangqi, labelled A, B, C, ...; UCI for chess)" },
    { "out", "string", nil, "file to write: PNG (SVG for chess and go)" },
    { "size", "int", 19, "go: board size" },
    { "black", "list", nil, "go: black stones (GTP like D4, or SGF like dd)" },
    { "white", "list", nil, "go: white stones" },
    { "last", "string", nil, "go: the last move, ringed" },
    { "labels", "list", nil, "go: option letters on points, A=C4,B=E4" },
    { "accepted", "list", nil, "go: accepted answers, in green squares" },
    { "chosen", "string", nil, "go: the chosen move, in a dashed ring" },
    { "crop", "bool", false, "go: only the problem's region (with --problems) or the stones' area, two lines around" },
    { "problems", "string", nil, "go: a TsuGO problem file (JSONL) to draw --id from" },
  },
  main = function(opts, args)
    local what = args[1]
    if not opts.out then cli.fail("render: give --out FILE.png") end
    local png, err
    if what == "jianghu108" then
      local jh = require "games.xiangqi.jianghu"
      local S = require("tabula.cmd.run").lib.load("scenarios/jianghu108")
      local problems = jh.load(S.data_path(opts))
      for _, p in ipairs(problems) do
        if tostring(p.id) == opts.id then png, err = jh.image(p) end
      end
      if not png and not err then cli.fail("render: no problem with id %s", tostring(opts.id)) end
    elseif what == "xiangqi" then
      local xq = require "games.xiangqi"
      local b, e = xq.new(start_fen(opts.fen, xq.START))
      if not b then cli.fail("render: bad FEN: %s", e) end
      png, err = require("tabula.image").xiangqi(b, opts.arrows)
    elseif what == "chess" then
      local chess = require "games.chess"
      local g, e = chess.new(start_fen(opts.fen, chess.START))
      if not g then cli.fail("render: bad FEN: %s", e) end
      for _, m in ipairs(opts.arrows or {}) do
        if not m:match("^[a-h][1-8][a-h][1-8][qrbn]?$") then cli.fail("render: arrow '%s' is not a UCI move", m) end
      end
      png = require("tabula.image").chess_svg(g:fen(), opts.arrows)
    elseif what == "go" then
      png = require("games.go.svg").render_cli(opts, cli.fail)
    else
      cli.fail("render: what to draw? jianghu108, xiangqi, chess or go")
    end
    if not png then cli.fail("render: %s", err) end
    local ok, werr = fs.write_atomic(opts.out, png)
    if not ok then cli.fail("%s", werr) end
    io.write(string.format("wrote %s (%d bytes)\n", opts.out, #png))
    return 0
  end,
}
