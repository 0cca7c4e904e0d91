-- The option parser and the command line: errors name the option and list the valid ones.
local t = require "tabula.testing"
local cli = require "tabula.cli"
local test, T = t.suite()

local spec = {
  { "trials", "int", 3, "trials per case" },
  { "temperature", "number", nil, "sampling temperature" },
  { "setting", "string", "sighted", "observation setting", choices = { "sighted", "restricted" } },
  { "ids", "list", nil, "case ids" },
  { "cache", "bool", true, "use the response cache" },
}

test("defaults, values in both forms, flags and lists", function()
  local o, rest = cli.parse(spec, { "--trials", "5", "--temperature=0.7", "x.lua", "--no-cache", "--ids", "a,b" })
  t.eq(o, { trials = 5, temperature = 0.7, setting = "sighted", ids = { "a", "b" }, cache = false })
  t.eq(rest, { "x.lua" })
  t.eq(cli.parse(spec, {}).trials, 3)
end)

test("mistakes are clear errors naming the option", function()
  t.contains(t.raises(function() cli.parse(spec, { "--trails", "3" }) end),
    "unknown option --trails (valid options: --trials, --temperature, --setting, --ids, --cache, --help)")
  t.contains(t.raises(function() cli.parse(spec, { "--trials", "three" }) end),
    "option --trials expects an integer, got 'three'")
  t.contains(t.raises(function() cli.parse(spec, { "--trials" }) end), "option --trials needs a value")
  t.contains(t.raises(function() cli.parse(spec, { "--setting", "blind" }) end),
    "option --setting must be one of sighted, restricted, got 'blind'")
  t.contains(t.raises(function() cli.parse(spec, { "--temperature", "hot" }) end),
    "option --temperature expects a number")
  t.ok(cli.is_user_error(select(2, pcall(cli.parse, spec, { "--nope" }))))
end)

local function run(args)
  local h = io.popen(t.tabula_bin() .. " " .. args .. " 2>&1; echo rc=$?")
  local out = h:read("a"); h:close()
  return out
end

test("the binary: version, help, unknown command, missing script, syntax error", function()
  local out = run("version")
  t.contains(out, "tabula 0.1.0")
  t.contains(out, "lua 5.4")
  t.contains(out, "lpeg 1.0")
  t.contains(out, "libcurl ")
  t.contains(out, "cjson 1.7")
  t.contains(run("help"), "test ")
  out = run("frobnicate")
  t.contains(out, "tabula: unknown command 'frobnicate'")
  t.contains(out, "rc=2")
  out = run("/nonexistent/x.lua")
  t.contains(out, "cannot open /nonexistent/x.lua")
  t.contains(out, "rc=2")
  local fs = require "tabula.fs"
  local d = t.tmpdir()
  fs.write_atomic(d .. "/bad.lua", "local x = = 1\n")
  out = run(d .. "/bad.lua")
  t.contains(out, d .. "/bad.lua:1:")
  t.contains(out, "rc=2")
  fs.write_atomic(d .. "/boom.lua", "error('kaboom')\n")
  out = run(d .. "/boom.lua")
  t.contains(out, "kaboom")
  t.contains(out, "stack traceback")
  t.contains(out, "rc=1")
  out = run("test --bogus")
  t.contains(out, "unknown option --bogus (valid options: --verbose, --only, --help)")
  out = run("test --help")
  t.contains(out, "--only STRING")
end)

test("lpeg and re are linked in", function()
  local lpeg = require "lpeg"
  local re = require "re"
  t.eq(lpeg.match(lpeg.C(lpeg.R("az") ^ 1), "move"), "move")
  t.eq(re.match("move h2e2", "'move' %s+ {[a-i][0-9][a-i][0-9]}"), "h2e2")
end)

return T
