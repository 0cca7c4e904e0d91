-- tabula validate tsumego FILE — every check of games.go.checks on a converted
-- problems file (JSONL): one line per finding; exit status 1 when any finding
-- makes a problem unusable.
local cli = require "tabula.cli"
local fs = require "tabula.fs"
local json = require "tabula.json"

return function(path)
  if not path then cli.fail("usage: tabula validate tsumego FILE") end
  local checks = require "games.go.checks"
  local text = fs.read_or_fail(path, "validate tsumego")
  local n, fatal, findings, usable = 0, 0, 0, 0
  local line_no = 0
  for line in text:gmatch("[^\n]+") do
    line_no = line_no + 1
    local p, err = json.decode(line)
    if type(p) ~= "table" then
      io.write(string.format("%s:%d: not a JSON object: %s\n", path, line_no, tostring(err)))
      fatal = fatal + 1
    else
      n = n + 1
      p.id = p.id or (path .. ":" .. line_no)
      local ok, list = pcall(checks.check, p)
      if not ok then list = { { id = p.id, check = "form", message = "malformed problem: " .. tostring(list), fatal = true } } end
      local bad = false
      for _, f in ipairs(list) do
        io.write(checks.format(f), "\n")
        findings = findings + 1
        if f.fatal then bad = true; fatal = fatal + 1 end
      end
      if not bad then usable = usable + 1 end
    end
  end
  io.write(string.format("%d problems, %d findings, %d fatal; %d usable\n", n, findings, fatal, usable))
  return fatal > 0 and 1 or 0
end
