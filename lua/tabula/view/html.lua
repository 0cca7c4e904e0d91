-- tabula.view.html — building HTML as strings: escaping (every text from a
-- record goes through esc), attributes, elements and tables.
local M = {}

local ESC = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }

-- esc(v) -> v as text that HTML shows literally (nil -> ""); control
-- characters HTML cannot hold become U+FFFD
function M.esc(v)
  if v == nil then return "" end
  return (tostring(v):gsub("[&<>\"']", ESC):gsub("[%z\1-\8\11\12\14-\31\127]", "\239\191\189"))
end

-- raw(s): mark an already-built HTML string so tag/table do not escape it
local Raw = {}
function M.raw(s) return setmetatable({ s = s }, Raw) end
local function is_raw(v) return getmetatable(v) == Raw end

-- content(v) -> HTML: raw stays, a list is joined, anything else is escaped
local function content(v)
  if v == nil then return "" end
  if is_raw(v) then return v.s end
  if type(v) == "table" then
    local out = {}
    for i, x in ipairs(v) do out[i] = content(x) end
    return table.concat(out)
  end
  return M.esc(v)
end
M.content = content

-- attrs(t) -> ' k="v"' in sorted key order; true gives a bare attribute, false/nil none
function M.attrs(t)
  if not t then return "" end
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  local out = {}
  for _, k in ipairs(keys) do
    local v = t[k]
    if v == true then out[#out + 1] = " " .. k
    elseif v ~= false and v ~= nil then out[#out + 1] = string.format(' %s="%s"', k, M.esc(v)) end
  end
  return table.concat(out)
end

-- tag(name, attrs, body) -> "<name ...>body</name>"; body escaped unless raw
function M.tag(name, attrs, body)
  return M.raw("<" .. name .. M.attrs(attrs) .. ">" .. content(body) .. "</" .. name .. ">")
end

-- str(v) -> the HTML string of a raw value, list or text
function M.str(v) return content(v) end

-- table_(headers, rows, attrs) -> a <table>; a cell is text, raw HTML, or
-- { v = shown, sort = key, class = c } (sort key as data-v for the client's sort)
function M.table(headers, rows, attrs)
  local out = { "<table" .. M.attrs(attrs) .. "><thead><tr>" }
  for _, h in ipairs(headers) do out[#out + 1] = "<th>" .. content(h) .. "</th>" end
  out[#out + 1] = "</tr></thead><tbody>"
  for _, row in ipairs(rows) do
    out[#out + 1] = "<tr" .. M.attrs(row.attrs) .. ">"
    for _, c in ipairs(row) do
      if type(c) == "table" and not is_raw(c) and (c.v ~= nil or c.sort ~= nil) then
        out[#out + 1] = "<td" .. M.attrs({ ["data-v"] = c.sort, class = c.class }) .. ">" .. content(c.v) .. "</td>"
      else
        out[#out + 1] = "<td>" .. content(c) .. "</td>"
      end
    end
    out[#out + 1] = "</tr>"
  end
  out[#out + 1] = "</tbody></table>"
  return M.raw(table.concat(out))
end

-- pct(x [, digits]) -> "12.5%" or "n/a"
function M.pct(x, digits)
  if type(x) ~= "number" then return "n/a" end
  return string.format("%." .. (digits or 1) .. "f%%", 100 * x)
end

-- interval(e) -> "50.0% [20.1%, 80.3%]" for { value, lo, hi }
function M.interval(e)
  if not e or type(e.value) ~= "number" then return "n/a" end
  if type(e.lo) ~= "number" then return M.pct(e.value) end
  return string.format("%s [%s, %s]", M.pct(e.value), M.pct(e.lo), M.pct(e.hi))
end

return M
