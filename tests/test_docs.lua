-- The documentation stays true: every public function of each module that
-- docs/API.md documents is mentioned in its section, and the example of
-- docs/SCENARIOS.md is the file examples/checks_mc.lua, which runs.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local json = require "tabula.json"
local test, T = t.suite()

local function sections(text)
  local out, name, buf = {}, nil, {}
  for line in (text .. "\n## end\n"):gmatch("([^\n]*)\n") do
    local h = line:match("^## (%S+)")
    if h then
      if name then out[name] = table.concat(buf, "\n") end
      name, buf = h, {}
    else
      buf[#buf + 1] = line
    end
  end
  return out
end

-- the public functions of a module: its function fields, and the methods of
-- the objects it documents as "Type:method" (taken from a metatable it names)
local function public(mod)
  local names = {}
  local function add(t)
    for k, v in pairs(t) do
      if type(k) == "string" and type(v) == "function" and not k:match("^_") then names[#names + 1] = k end
    end
  end
  add(mod)
  local ok, obj = pcall(function() return mod.new and mod.new() end)
  local mt = ok and type(obj) == "userdata" and getmetatable(obj)
  if mt and type(mt.__index) == "table" then add(mt.__index) end   -- a board's methods
  table.sort(names)
  return names
end

test("API.md documents every public function of the modules it lists", function()
  local text = fs.read(t.root() .. "/docs/API.md")
  local secs, checked, missing = sections(text), 0, {}
  for name, body in pairs(secs) do
    if name:match("^tabula%.") or name:match("^games%.") then
      local mod = require(name)
      for _, f in ipairs(public(mod)) do
        checked = checked + 1
        if not body:find("[%.:]" .. f .. "%(") and not body:find("`" .. f .. "(", 1, true) then
          missing[#missing + 1] = name .. "." .. f
        end
      end
    end
  end
  t.ok(checked >= 40, "documented functions checked: " .. checked)
  t.eq(missing, {}, "functions missing from docs/API.md")
end)

test("SCENARIOS.md's example is examples/checks_mc.lua, and it runs", function()
  local doc = fs.read(t.root() .. "/docs/SCENARIOS.md")
  local code = doc:match("## The example\n\n```lua\n(.-)```")
  t.eq(code, fs.read(t.root() .. "/examples/checks_mc.lua"))
  local n = select(2, code:gsub("\n", ""))
  t.ok(n <= 65, "about 60 lines: " .. n)
  local dir = os.tmpname(); os.remove(dir)
  t.run_scenario("examples/checks_mc.lua", { "--out", dir, "--limit", "5", "--quiet", "--workers", "1" })
  local sm = json.read_file(dir .. "/summary.json")
  t.eq({ sm.all.accuracy, sm.all.items }, { 1, 5 })
end)

return T
