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
    "unknown option --trails; did you mean --trials? (valid options: --trials, --temperature, --setting, --ids, --cache, --help)")
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
  t.contains(out, "bad.lua:1: unexpected symbol near '='")   -- Lua shortens a long chunk name from the left
  t.contains(out, "rc=2")
  fs.write_atomic(d .. "/boom.lua", "error('kaboom')\n")
  out = run(d .. "/boom.lua")
  t.contains(out, "kaboom")
  t.contains(out, "stack traceback")
  t.contains(out, "rc=1")
  out = run("test --bogus")
  t.contains(out, "unknown option --bogus (valid options: --verbose, --only, --jobs, --quick, --no-shared, --keep-tmp, --help)")
  out = run("test --help")
  t.contains(out, "--only TEXT")
end)

test("lpeg and re are linked in", function()
  local lpeg = require "lpeg"
  local re = require "re"
  t.eq(lpeg.match(lpeg.C(lpeg.R("az") ^ 1), "move"), "move")
  t.eq(re.match("move h2e2", "'move' %s+ {[a-i][0-9][a-i][0-9]}"), "h2e2")
end)

test("did you mean: unknown options, flags, commands and scenarios", function()
  t.eq(cli.suggest("trails", { "trials", "temperature" }), "trials")
  t.eq(cli.suggest("concurency", { "concurrency", "cache" }), "concurrency")
  t.eq(cli.suggest("xyzzy", { "trials", "temperature" }), nil, "nothing close: no guess")
  t.eq(cli.suggest("temp", { "trials", "temperature" }), "temperature", "the only one it begins")
  t.contains(t.raises(function() cli.parse(spec, { "--no-cahce" }) end), "unknown option --no-cahce; did you mean --no-cache?")
  t.contains(t.raises(function() cli.parse(spec, { "--setings", "x" }) end), "did you mean --setting?")
  local out = run("lsit")
  t.contains(out, "tabula: unknown command 'lsit'; did you mean 'list'?")
  t.contains(out, "rc=2")
  out = run("run xiangqibnech")
  t.contains(out, "tabula: no scenario xiangqibnech; did you mean xiangqibench?")
  t.contains(out, "rc=2")
  out = run("run xiangqibench --trails 2")
  t.contains(out, "unknown option --trails; did you mean --trials?")
  t.ok(not run("run nothing_like_it"):find("did you mean", 1, true), "no guess when nothing is close")
end)

test("--help: --[no-]x for flags, A,B,... for lists, no (default false) nor (default )", function()
  local text = cli.help_text({
    { "cache", "bool", true, "use the response cache" },
    { "stream", "bool", false, "stream replies" },
    { "no-html", "bool", false, "no report.html" },
    { "ids", "list", nil, "case ids" },
    { "transform", "list", {}, "transforms" },
    { "setting", "list", { "sighted", "full" }, "settings" },
    { "name", "string", "", "a name" },
    { "trials", "int", 3, "trials" },
  })
  t.contains(text, "--[no-]cache")
  t.contains(text, "use the response cache (on by default)")
  t.contains(text, "--[no-]stream")
  t.contains(text, "--no-html ")
  t.ok(not text:find("no-no-", 1, true), "a flag named no-x has no --no-no-x")
  t.contains(text, "--ids A,B,...")
  t.contains(text, "settings (default sighted,full)")
  t.contains(text, "--trials N")
  t.contains(text, "trials (default 3)")
  t.contains(text, "a list is comma-separated: --x a,b,c")
  t.contains(text, "turned on with --x and off with --no-x")
  -- every scenario's and command's help
  for _, args in ipairs({ "run xiangqibench --help", "run tsugo --help", "run jianghu108 --help", "run chess_puzzles --help",
    "run --help", "report --help", "problems --help" }) do
    out = run(args)
    t.contains(out, "rc=0", args)
    t.ok(not out:find("(default false)", 1, true), args .. ": no (default false)")
    t.ok(not out:find("(default )", 1, true), args .. ": no (default )")
    t.ok(not out:find("(default true)", 1, true), args .. ": no (default true)")
  end
  t.contains(run("run xiangqibench --help"), "--[no-]defender-fallback")
end)

test("tabula list: the scenarios beside this directory, then tabula's own, with their summaries", function()
  local out = run("list")
  t.contains(out, "rc=0")
  for _, s in ipairs({ "xiangqibench", "jianghu108", "tsugo", "chess_puzzles", "chess_understanding", "chess_move_selection" }) do
    local mod = require("tabula.cmd.run").lib.load(t.root() .. "/scenarios/" .. s .. ".lua")
    t.contains(out, s .. string.rep(" ", 2), "listed: " .. s)
    t.contains(out, mod.summary, "with its summary: " .. s)
  end
  local fs = require "tabula.fs"
  local d = t.tmpdir()
  fs.mkdir_p(d .. "/scenarios/folder")
  fs.write_atomic(d .. "/scenarios/mine.lua", [[return { name = "mine", summary = "my own one-file scenario",
    plan = function() return {} end, play = function() end }]])
  fs.write_atomic(d .. "/scenarios/folder/init.lua", [[return { name = "folder", summary = "my folder scenario",
    plan = function() return {} end, play = function() end }]])
  fs.write_atomic(d .. "/scenarios/broken.lua", "-- broken.lua — a scenario that does not load\nlocal x = = 1\n")
  out = t.sh(string.format("cd %s && %s list", d, t.tabula_bin()))
  t.contains(out, "rc=0")
  t.contains(out, "scenarios beside this directory (./scenarios):\n  broken")
  t.contains(out, "a scenario that does not load")
  t.ok(out:find("\n  folder%s+my folder scenario\n"), "a folder scenario with its summary: " .. out)
  t.ok(out:find("\n  mine%s+my own one%-file scenario\n"), "a one-file scenario with its summary")
  t.ok(out:find("mine", 1, true) < out:find("xiangqibench", 1, true), "here first, then tabula's own")
end)

return T
