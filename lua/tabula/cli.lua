-- tabula.cli — the option parser shared by commands and scenarios, and user errors.
--
-- An option spec is a list of { name, type, default, help [, choices = {...}, min = n] }.
-- Types: "string", "int", "number", "bool" (--x / --no-x), "list" (comma-separated),
-- "multi" (repeatable: each use adds one value to a list). An option with
-- hidden = true is parsed but not listed by --help (one accepted only to be
-- refused in one line, or an old spelling kept for a while); renamed = "name":
-- an old spelling whose value goes to the option "name", with a note (M.notes).
-- parse() returns opts (defaults filled in) and the positional arguments, or nil
-- after printing --help. Mistakes raise a user error naming the option.
local M = {}

local UserError = {}
UserError.__index = UserError
UserError.__tostring = function(e) return e.message end

-- fail(fmt, ...): stop with one clear line for the user (exit status 2).
function M.fail(fmt, ...)
  error(setmetatable({ message = string.format(fmt, ...), status = 2 }, UserError), 0)
end

-- user_error(message [, status]) -> the error object (to raise later or return).
function M.user_error(message, status)
  return setmetatable({ message = message, status = status or 2 }, UserError)
end

function M.is_user_error(e) return getmetatable(e) == UserError end

local function opt_name(o) return o[1] or o.name end
local function opt_type(o) return o[2] or o.type or "string" end
local function opt_default(o) if o[3] ~= nil then return o[3] end return o.default end
local function opt_help(o) return o[4] or o.help or "" end

-- distance(a, b) -> the edit distance (insertions, deletions, substitutions and
-- swaps of two neighbours each count one)
local function distance(a, b)
  local d = {}
  for i = 0, #a do d[i] = { [0] = i } end
  for j = 0, #b do d[0][j] = j end
  for i = 1, #a do
    for j = 1, #b do
      local cost = a:byte(i) == b:byte(j) and 0 or 1
      local v = math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if i > 1 and j > 1 and a:byte(i) == b:byte(j - 1) and a:byte(i - 1) == b:byte(j) then
        v = math.min(v, d[i - 2][j - 2] + 1)
      end
      d[i][j] = v
    end
  end
  return d[#a][#b]
end
M.distance = distance

-- suggest(word, candidates) -> the candidate the user most likely meant, or nil:
-- the closest within a third of the word's length (at least one edit), else
-- the only candidate that starts with the word
function M.suggest(word, candidates)
  word = tostring(word)
  local best, best_d, prefixed = nil, math.huge, {}
  local limit = math.max(1, #word // 3)
  for _, c in ipairs(candidates) do
    local d = distance(word:lower(), c:lower())
    if d < best_d or (d == best_d and best and c < best) then best, best_d = c, d end
    if #word >= 2 and c:sub(1, #word) == word then prefixed[#prefixed + 1] = c end
  end
  if best and best_d <= limit and best_d > 0 then return best end
  if #prefixed == 1 then return prefixed[1] end
  return nil
end

-- did_you_mean(word, candidates [, prefix]) -> " (did you mean PREFIXword?)" or ""
function M.did_you_mean(word, candidates, prefix)
  local s = M.suggest(word, candidates)
  return s and string.format("; did you mean %s%s?", prefix or "", s) or ""
end

local function valid_list(spec)
  local names = {}
  for _, o in ipairs(spec) do if not o.hidden then names[#names + 1] = "--" .. opt_name(o) end end
  names[#names + 1] = "--help"
  return table.concat(names, ", ")
end

local function convert(o, raw)
  local t, name = opt_type(o), opt_name(o)
  local v
  if t == "string" then v = raw
  elseif t == "int" then
    v = math.tointeger(tonumber(raw))
    if v == nil then M.fail("option --%s expects an integer, got '%s'", name, raw) end
  elseif t == "number" then
    v = tonumber(raw)
    if v == nil then M.fail("option --%s expects a number, got '%s'", name, raw) end
    if v ~= v or v == math.huge or v == -math.huge then M.fail("option --%s expects a finite number, got '%s'", name, raw) end
  elseif t == "list" then
    v = {}
    for item in raw:gmatch("[^,]+") do v[#v + 1] = item end
  else
    error("option --" .. name .. " has an unknown type " .. tostring(t))
  end
  if o.min and v < o.min then M.fail("option --%s must be at least %s, got '%s'", name, o.min, raw) end
  if o.choices then
    local ok = false
    for _, c in ipairs(o.choices) do if c == v then ok = true end end
    if not ok then
      M.fail("option --%s must be one of %s, got '%s'", name, table.concat(o.choices, ", "), raw)
    end
  end
  return v
end

-- METAVAR: how each type's value is written after the option
local METAVAR = { string = "TEXT", int = "N", number = "X", list = "A,B,...", multi = "TEXT" }

-- syntax(o) -> how the option is written: --x N, --ids A,B,..., --[no-]cache
local function syntax(o)
  local t, name = opt_type(o), opt_name(o)
  if t == "bool" then return name:sub(1, 3) == "no-" and ("--" .. name) or ("--[no-]" .. name) end
  return "--" .. name .. " " .. (o.metavar or METAVAR[t] or t:upper())
end

-- default_text(o) -> " (default X)", " (on by default)" or "" (no false flag, no empty default)
local function default_text(o)
  local t, d = opt_type(o), opt_default(o)
  if d == nil then return "" end
  if t == "bool" then return d == true and " (on by default)" or "" end
  if type(d) == "table" then d = table.concat(d, ",") end
  d = tostring(d)
  return d ~= "" and (" (default " .. d .. ")") or ""
end

function M.help_text(spec, info)
  info = info or {}
  local lines = {}
  if info.summary then lines[#lines + 1] = info.summary end
  lines[#lines + 1] = "usage: " .. (info.program or "tabula") .. " " .. (info.usage or "[options]")
  local any = false
  for _, o in ipairs(spec) do if not o.hidden then any = true end end
  if any then lines[#lines + 1] = "options:" end
  local width, has = 0, {}
  local shown = {}   -- an option marked hidden (accepted only to be refused or renamed) is not listed
  for _, o in ipairs(spec) do if not o.hidden then shown[#shown + 1] = o end end
  spec = shown
  for _, o in ipairs(spec) do
    width = math.max(width, #syntax(o))
    has[opt_type(o)] = true
  end
  width = math.min(width, 30)
  for _, o in ipairs(spec) do
    local t = opt_type(o)
    local choices = o.choices and (" [" .. table.concat(o.choices, "|") .. "]") or ""
    local more = (t == "multi" and not opt_help(o):find("(repeatable)", 1, true)) and " (repeatable)" or ""
    lines[#lines + 1] = string.format("  %-" .. width .. "s %s%s%s%s", syntax(o), opt_help(o), choices, more, default_text(o))
  end
  local notes = {}
  if has.bool then notes[#notes + 1] = "a flag --[no-]x is turned on with --x and off with --no-x" end
  if has.list then notes[#notes + 1] = "a list is comma-separated: --x a,b,c" end
  if #spec > 0 then notes[#notes + 1] = "--x=value works too" end
  if #notes > 0 then lines[#lines + 1] = "(" .. table.concat(notes, "; ") .. ")" end
  return table.concat(lines, "\n") .. "\n"
end

-- given(opts) -> the set of option names the user gave on the command line (as
-- opposed to defaults), for the opts table parse returned; empty for any other
local given_of = setmetatable({}, { __mode = "k" })
function M.given(opts) return given_of[opts] or {} end

-- notes(opts) -> the lines parse has to say about the options given (an old
-- spelling taken for its new name), for the command to print once it starts
local notes_of = setmetatable({}, { __mode = "k" })
function M.notes(opts) return notes_of[opts] or {} end

function M.parse(spec, args, info)
  local by_name = {}
  for _, o in ipairs(spec) do by_name[opt_name(o)] = o end
  local opts, rest, given = {}, {}, {}
  given_of[opts] = given
  for _, o in ipairs(spec) do
    local d = opt_default(o)
    if type(d) == "table" then local c = {} for i, x in ipairs(d) do c[i] = x end d = c end
    opts[opt_name(o)] = d
  end
  local i = 1
  while i <= #args do
    local a = args[i]
    if a == "--" then
      for j = i + 1, #args do rest[#rest + 1] = args[j] end
      break
    elseif a == "--help" or a == "-h" then
      io.stdout:write(M.help_text(spec, info))
      return nil
    elseif a:sub(1, 2) == "--" then
      local name, value = a:match("^%-%-([^=]+)=(.*)$")
      name = name or a:sub(3)
      local o = by_name[name]
      local negated = false
      if not o and name:sub(1, 3) == "no-" and by_name[name:sub(4)]
        and opt_type(by_name[name:sub(4)]) == "bool" then
        o, negated = by_name[name:sub(4)], true
      end
      if not o then
        local names = {}
        for _, x in ipairs(spec) do
          names[#names + 1] = opt_name(x)
          if opt_type(x) == "bool" and opt_name(x):sub(1, 3) ~= "no-" then names[#names + 1] = "no-" .. opt_name(x) end
        end
        M.fail("unknown option --%s%s (valid options: %s)", name, M.did_you_mean(name, names, "--"), valid_list(spec))
      end
      name = opt_name(o)
      given[name] = true
      if opt_type(o) == "bool" then
        if value ~= nil then
          if value == "true" or value == "1" or value == "yes" then opts[name] = not negated
          elseif value == "false" or value == "0" or value == "no" then opts[name] = negated
          else M.fail("option --%s is a flag; got '%s'", name, value) end
        else
          opts[name] = not negated
        end
      else
        if value == nil then
          i = i + 1
          value = args[i]
          if value == nil then M.fail("option --%s needs a value (%s)", name, opt_type(o)) end
        end
        if opt_type(o) == "multi" then
          opts[name] = opts[name] or {}
          table.insert(opts[name], value)
        else
          opts[name] = convert(o, value)
        end
      end
    else
      rest[#rest + 1] = a
    end
    i = i + 1
  end
  -- an old spelling (renamed = "new-name"): its value goes to the new name, with a note
  for _, o in ipairs(spec) do
    local old, new = opt_name(o), o.renamed
    if new and given[old] then
      if given[new] and opts[new] ~= opts[old] then
        M.fail("--%s %s and --%s %s: give --%s only (--%s is its old spelling)", old, tostring(opts[old]), new, tostring(opts[new]), new, old)
      end
      opts[new], given[new] = opts[old], true
      notes_of[opts] = notes_of[opts] or {}
      table.insert(notes_of[opts], o.note or string.format("note: --%s is now --%s (taken as --%s %s)", old, new, new, tostring(opts[old])))
    end
  end
  return opts, rest
end

return M
