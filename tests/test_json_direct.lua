-- JSON written and read without a cJSON tree (src/l_json.c): the compact text
-- equals what cJSON prints for the same value (its pretty print, whitespace
-- between tokens removed), and big or broken inputs decode as before.
local t = require "tabula.testing"
local json = require "tabula.json"
local test, T = t.suite()

-- text without the whitespace between tokens (strings kept as they are)
local function squeeze(text)
  local out, i, n, in_string = {}, 1, #text, false
  while i <= n do
    local c = text:sub(i, i)
    if in_string then
      out[#out + 1] = c
      if c == "\\" then out[#out + 1] = text:sub(i + 1, i + 1); i = i + 1
      elseif c == '"' then in_string = false end
    elseif c == '"' then in_string = true; out[#out + 1] = c
    elseif not c:match("%s") then out[#out + 1] = c end
    i = i + 1
  end
  return table.concat(out)
end

local function big(n, f)
  local v = {}
  for i = 1, n do f(v, i) end
  return v
end

local values = {
  { a = { 1, 2, { b = "c", d = { true, false, json.null } } }, e = 1.5, f = json.object(), g = json.array() },
  { ["key with \"quotes\" \\ and\ttab"] = "line\nbreak\r\b\f\1\31 end", ["帥"] = "兵 😀 \127" },
  { bad_utf8 = "a\255b\192", nul = "x\0y", ["k\255ey"] = 1, ["n\0ul"] = 2 },
  { ints = { 0, -1, 9223372036854775807, -9223372036854775807 - 1 }, floats = { 0.1, 1e300, -2.5e-300, 15.0, 1 / 3 } },
  big(5000, function(v, i) v[i] = i * 3 end),
  big(5000, function(v, i) v["k" .. i] = { i, tostring(i) } end),
  "just a string", 42, json.null, true,
}

test("compact text is cJSON's text without the whitespace, for every kind of value", function()
  for i, v in ipairs(values) do
    local compact, replaced = json.encode(v)
    local pretty, replaced2 = json.encode(v, { pretty = true })
    t.ok(compact, "value " .. i)
    t.eq(compact, squeeze(pretty), "value " .. i)
    t.eq(replaced, replaced2, "value " .. i .. ": replaced bytes")
  end
end)

test("errors name the field, the same in both writers", function()
  for _, v in ipairs({ { a = { b = function() end } }, { 1, { x = 0 / 0 } }, { [1] = 1, x = 2 }, { [true] = 1 } }) do
    local _, e1 = json.encode(v)
    local _, e2 = json.encode(v, { pretty = true })
    t.ok(e1, "an error")
    t.eq(e1, e2)
  end
  t.contains(select(2, json.encode({ a = { b = print } })), "(in field 'b') (in field 'a')")
  t.eq(json.encode({ x = 0 / 0 }, { lenient = true }), '{"x":NaN}')
end)

test("big arrays and objects decode whole, in order, with their markers", function()
  for _, n in ipairs({ 4095, 4096, 4097, 10000 }) do
    local arr = big(n, function(v, i) v[i] = { i } end)
    local back = json.decode(json.encode(arr))
    t.eq(#back, n)
    t.eq(back[n][1], n)
    t.eq(getmetatable(back), json.array_mt)
    local obj = big(n, function(v, i) v["k" .. i] = i end)
    local oback = json.decode(json.encode(obj))
    local count = 0
    for k, v in pairs(oback) do count = count + 1; t.eq(obj[k], v) end
    t.eq(count, n)
    t.eq(getmetatable(oback), json.object_mt)
  end
  t.eq(json.decode('{"a":1,"a":2}').a, 2)   -- the last of a repeated key
end)

test("a broken document deep inside gives its position and leaves nothing behind", function()
  local text = '{"a":[1,2,{"b":[true,' .. string.rep('"x",', 3000) .. '{"c": nul}]}]}'
  for _ = 1, 50 do
    local v, err = json.decode(text)
    t.eq(v, nil)
    t.contains(err, "unexpected character")
  end
  local long = string.rep("é", 3000)
  t.eq(json.decode(json.encode({ s = long, n = 12345678901234567890.0 })).s, long)
end)

return T
