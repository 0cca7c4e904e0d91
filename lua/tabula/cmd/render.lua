-- tabula render — board pictures (PNG, 792x870):
--   tabula render jianghu108 --id N --out file.png [--data FILE]   a problem with arrows A-D
--   tabula render xiangqi --fen FEN [--arrows h2e2,b0c2] --out file.png
local cli = require "tabula.cli"
local fs = require "tabula.fs"

return {
  summary = "draw a board picture: tabula render jianghu108 --id N --out file.png",
  usage = "jianghu108|xiangqi [options]",
  options = {
    { "id", "string", nil, "Jianghu108 problem id" },
    { "data", "string", nil, "Jianghu108 problem file (default ../shared/data/jianghu108/江湖残局.json)" },
    { "fen", "string", nil, "position to draw (xiangqi)" },
    { "arrows", "list", nil, "moves to draw as arrows (xiangqi), labelled A, B, C, ..." },
    { "out", "string", nil, "PNG file to write" },
  },
  main = function(opts, args)
    local what = args[1]
    if not opts.out then cli.fail("render: give --out FILE.png") end
    local png, err
    if what == "jianghu108" then
      local jh = require "games.xiangqi.jianghu"
      local S = require("tabula.cmd.run").lib.load("scenarios/jianghu108.lua")
      local problems = jh.load(S.data_path(opts))
      for _, p in ipairs(problems) do
        if tostring(p.id) == opts.id then png, err = jh.image(p) end
      end
      if not png and not err then cli.fail("render: no problem with id %s", tostring(opts.id)) end
    elseif what == "xiangqi" then
      local xq = require "games.xiangqi"
      local jh = require "games.xiangqi.jianghu"
      local render = require "games.xiangqi.render"
      local b, e = xq.new(opts.fen or xq.START)
      if not b then cli.fail("render: bad FEN: %s", e) end
      local pieces, arrows = {}, {}
      for _, p in ipairs(b:pieces()) do
        local t = p.piece:upper()
        pieces[#pieces + 1] = { square = p.square, side = p.piece:match("%u") and "red" or "black",
          text = p.piece:match("%u") and render.RED[t] or render.BLACK[t] }
      end
      for i, m in ipairs(opts.arrows or {}) do
        if not m:match("^[a-i]%d[a-i]%d$") then cli.fail("render: arrow '%s' is not an ICCS move", m) end
        arrows[#arrows + 1] = { from = m:sub(1, 2), to = m:sub(3, 4), label = string.char(64 + i),
          color = jh.ARROW_COLOURS[(i - 1) % 4 + 1], capture = b:at(m:sub(3, 4)) ~= nil }
      end
      png, err = require("tabula.c.image").render_xiangqi({ pieces = pieces, arrows = arrows, river = { "楚河", "汉界" },
        files = "abcdefghi", rank_base = 0 })
    else
      cli.fail("render: what to draw? jianghu108 or xiangqi")
    end
    if not png then cli.fail("render: %s", err) end
    local ok, werr = fs.write_atomic(opts.out, png)
    if not ok then cli.fail("%s", werr) end
    io.write(string.format("wrote %s (%d bytes)\n", opts.out, #png))
    return 0
  end,
}
