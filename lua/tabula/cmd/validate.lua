-- tabula validate jianghu108 FILE — every check of the Jianghu108 spec on a
-- problem file: one line per finding (problem, option, check). Exit status 1
-- only when a finding makes a problem unusable.
local cli = require "tabula.cli"

return {
  summary = "check a problem file: tabula validate jianghu108|tsumego FILE",
  usage = "jianghu108|tsumego FILE",
  main = function(_, args)
    if args[1] == "tsumego" then return require("games.go.validate_cmd")(args[2]) end
    if args[1] ~= "jianghu108" or not args[2] then cli.fail("usage: tabula validate jianghu108 FILE") end
    local jh = require "games.xiangqi.jianghu"
    local problems = jh.load(args[2])
    local findings, usable = jh.validate(problems)
    local fatal = 0
    for _, f in ipairs(findings) do
      io.write(jh.format_finding(f), "\n")
      if f.fatal then fatal = fatal + 1 end
    end
    local ok = 0
    for _, p in ipairs(problems) do if usable[p.id] then ok = ok + 1 end end
    io.write(string.format("%d problems, %d findings, %d fatal; %d usable\n", #problems, #findings, fatal, ok))
    return fatal > 0 and 1 or 0
  end,
}
