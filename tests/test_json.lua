-- JSON: round trips, Chinese text, exact integers, NaN leniency, canonical order, errors.
local t = require "tabula.testing"
local json = require "tabula.json"
local test, T = t.suite()

test("nested structures round-trip", function()
  local v = { a = { 1, 2, { b = "c", d = { true, false, json.null } } }, e = 1.5, f = json.object(), g = json.array() }
  local text = json.canonical(v)
  t.eq(text, '{"a":[1,2,{"b":"c","d":[true,false,null]}],"e":1.5,"f":{},"g":[]}')
  local back = json.decode(text)
  t.eq(json.canonical(back), text)
  t.eq(back.a[3].d[3], json.null)
end)

test("Chinese text and escapes round-trip byte for byte", function()
  local s = "第015局 妙振兵铃 - 适情雅趣 帥仕相傌炮兵俥 \"q\" \\ \n\t"
  local text = json.canonical({ name = s })
  t.eq(json.decode(text).name, s)
  t.eq(json.decode('"\\u5e25\\ud83d\\ude00"'), "帥😀")
end)

test("large integers are exact; floats keep their type", function()
  t.eq(json.decode("9007199254740993"), 9007199254740993)
  t.eq(math.type(json.decode("9007199254740993")), "integer")
  t.eq(json.canonical(9223372036854775807), "9223372036854775807")
  t.eq(json.canonical(-9223372036854775807 - 1), "-9223372036854775808")
  t.eq(math.type(json.decode("15.0")), "float")
  t.eq(json.canonical(15.0), "15.0")
  t.eq(json.canonical(0.1), "0.1")
  t.eq(json.decode(json.canonical(1 / 3)), 1 / 3)
  t.eq(json.canonical(1e300), "1e+300")
end)

test("canonical encoding sorts keys at every level", function()
  local a = json.canonical({ z = 1, a = { y = 2, b = 3 }, m = "x" })
  t.eq(a, '{"a":{"b":3,"y":2},"m":"x","z":1}')
  local b = json.decode('{"m":"x","z":1,"a":{"b":3,"y":2}}')
  t.eq(json.canonical(b), a)
end)

test("lenient mode accepts bare NaN and Infinity; strict mode names the problem", function()
  local line = '{"Rating": 1500, "Themes": NaN, "x": -Infinity}'
  local v = json.decode(line, { lenient = true })
  t.ok(v.Themes ~= v.Themes, "NaN decodes to NaN")
  t.eq(v.x, -math.huge)
  local bad, err = json.decode(line)
  t.eq(bad, nil)
  t.contains(err, "line 1, column 28 (byte 27): NaN is not JSON")
  t.raises(function() json.canonical({ x = 0 / 0 }) end, "NaN")
  t.eq(json.encode({ x = 0 / 0 }, { lenient = true }), '{"x":NaN}')
end)

test("errors report line, column and byte offset", function()
  local _, err, line, col, off = json.decode('{\n  "a": 1,\n  "b" 2\n}')
  t.eq({ line, col, off }, { 3, 7, 18 })
  t.contains(err, "expected ':' after key")
  _, err = json.decode('[1, 2')
  t.contains(err, "unexpected end of input in array")
  _, err = json.decode('{"a":1} x')
  t.contains(err, "unexpected text after the JSON value")
  _, err = json.decode('"abc')
  t.contains(err, "unterminated string")
  _, err = json.decode('[01]')
  t.contains(err, "leading zeros")
  -- columns count characters, not bytes
  _, err = json.decode('{"名字": x}')
  t.contains(err, "line 1, column 8 (byte 11)")
end)

test("encoding refuses what JSON cannot hold", function()
  t.raises(function() json.canonical({ 1, 2, x = 3 }) end, "mixes array and object keys")
  t.raises(function() json.canonical({ f = print }) end, "cannot encode a function")
  t.raises(function() json.canonical({ a = { b = print } }) end, "in field 'b'")
end)

test("read_file names the file in its error", function()
  local fs = require "tabula.fs"
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/bad.json", '{"a": [1, 2,]}')
  local msg = t.raises(function() json.read_file(dir .. "/bad.json") end)
  t.contains(msg, dir .. "/bad.json: line 1, column 13")
  os.remove(dir .. "/bad.json"); os.remove(dir)
end)

test("keys pick fields down nested objects and arrays; the rest is left out", function()
  local text = '{"a":1,"b":[{"c":1,"d":"x"},{"c":2},3],"e":{"c":3,"f":{"g":4}},"h":"skip \\" me","c":[1]}'
  local got = json.decode(text, { keys = { "a", "zz", b = { "c" }, e = { "c", f = { "nothing" } } } })
  t.eq(got, { a = 1, b = { { c = 1 }, { c = 2 }, 3 }, e = { c = 3, f = {} } })
  t.eq(getmetatable(got), nil, "the picked top level is a plain table, as before")
  -- a top-level array or scalar is decoded whole
  t.eq(json.decode('[{"a":1,"b":2}]', { keys = { "a" } }), { { a = 1, b = 2 } })
  t.eq(json.decode('"s"', { keys = { "a" } }), "s")
  -- a repeated field keeps its first value; an escaped key still matches
  t.eq(json.decode('{"a":1,"a":2,"\\u0062":3}', { keys = { "a", "b" } }), { a = 1, b = 3 })
  t.raises(function() json.decode("{}", { keys = { 1 } }) end, "keys hold field names")
end)

-- a string literal's body from pieces that cross every position of an 8-byte word
local PIECES = { "a", "é", "\\n", '\\"', "\\\\", "\\/", "\\u00e9", "\\ud83d\\ude00", "\t", "\\x", "\\u12", "\\ud800",
  '"', "\\", "漢字", "        ", "\\u0000" }
test("skipped fields are checked like decoded ones: same values, same errors", function()
  local rng = require("tabula.metrics").rng(5)
  local agree, failures = 0, 0
  for _ = 1, 3000 do
    local body = {}
    for i = 1, rng(12) - 1 do body[i] = PIECES[rng(#PIECES)] end
    local pad = string.rep("x", rng(8) - 1)
    local num = ({ "1", "-0.5e3", "1e999", "01", "2.", "123456789012345678901234567890" })[rng(6)]
    local text = string.format('{"%s":"%s","keep":%s,"n":%s}', pad, table.concat(body), '"v"', num)
    local full, ferr, fl, fc, fo = json.decode(text)
    local part, perr, pl, pc, po = json.decode(text, { keys = { "keep" } })
    t.eq({ part ~= nil, perr, pl, pc, po }, { full ~= nil, ferr, fl, fc, fo }, text)
    if full then t.eq(part, { keep = "v" }); agree = agree + 1 else failures = failures + 1 end
  end
  t.ok(agree > 100 and failures > 100, string.format("both kinds exercised (%d good, %d bad)", agree, failures))
end)

test("the ChessArena puzzle files decode in lenient mode", function()
  local dir = t.need_shared("chessarena")
  local records = require "tabula.records"
  local fs = require "tabula.fs"
  local total, nan_lines = 0, 0
  for _, f in ipairs(fs.list(dir)) do
    if f:match("^puzzles_.*%.jsonl$") then
      local text = fs.read(dir .. "/" .. f)
      for line in text:gmatch("[^\n]+") do
        if line:find("NaN", 1, true) and not json.decode(line) then nan_lines = nan_lines + 1 end
      end
      local recs, info = records.read(dir .. "/" .. f, { lenient = true })
      total = total + #recs
      t.eq(#info.bad, 0)
    end
  end
  t.eq(total, 1000)
  t.ok(nan_lines > 0, "some lines need lenient mode")
end)

return T
