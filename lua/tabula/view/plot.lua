-- tabula.view.plot — plots as inline SVG, drawn by tabula itself (no
-- plotting library, nothing loaded): lines with interval bands, grouped bars
-- with interval whiskers.
--
--   plot.lines{ title =, xlabel =, ylabel =, ymin = 0, ymax = 1, percent = true,
--               series = { { name = "sighted pass@k", points = { { x, y, lo, hi }, ... }, dash = true } } }
--   plot.bars{ title =, ylabel =, ymax =, percent = true, names = { "chosen", "answer" },
--              groups = { { label = "A", values = { { v, lo, hi }, { v } } } } }
local html = require "tabula.view.html"

local M = {}

M.PALETTE = { "#1565c0", "#c62828", "#2e7d32", "#8e24aa", "#ef6c00", "#00838f", "#6d4c41", "#546e7a" }

local W, H = 520, 300
local L, R, T, B = 56, 16, 30, 44

local function n(x) return string.format("%g", math.floor(x * 10 + 0.5) / 10) end

local function fmt(v, percent)
  if percent then return string.format("%g%%", math.floor(v * 1000 + 0.5) / 10) end
  if math.abs(v) >= 100 then return string.format("%.0f", v) end
  return string.format("%g", math.floor(v * 100 + 0.5) / 100)
end

-- ticks(lo, hi) -> about five round values between lo and hi
local function ticks(lo, hi)
  local span = hi - lo
  if span <= 0 then return { lo } end
  local step = 10 ^ math.floor(math.log(span / 5, 10))
  for _, m in ipairs({ 1, 2, 2.5, 5, 10 }) do
    if span / (step * m) <= 6 then step = step * m; break end
  end
  local out = {}
  local v = math.ceil(lo / step - 1e-9) * step
  while v <= hi + 1e-9 do out[#out + 1] = v; v = v + step end
  return out
end

local function frame(o, ylo, yhi, ysc)
  local out = { string.format('<svg class="plot" viewBox="0 0 %d %d" width="%d" height="%d" font-family="sans-serif" font-size="11">', W, H, W, H),
    string.format('<text x="%d" y="16" font-size="13" font-weight="bold">%s</text>', L, html.esc(o.title or "")) }
  for _, t in ipairs(ticks(ylo, yhi)) do
    local y = ysc(t)
    out[#out + 1] = string.format('<line x1="%d" x2="%d" y1="%s" y2="%s" stroke="#e0e0e0"/><text x="%d" y="%s" text-anchor="end" fill="#555">%s</text>',
      L, W - R, n(y), n(y), L - 4, n(y + 4), fmt(t, o.percent))
  end
  out[#out + 1] = string.format('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#555"/><line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#555"/>',
    L, W - R, H - B, H - B, L, L, T, H - B)
  if o.xlabel then out[#out + 1] = string.format('<text x="%d" y="%d" text-anchor="middle" fill="#333">%s</text>', (L + W - R) // 2, H - 6, html.esc(o.xlabel)) end
  if o.ylabel then out[#out + 1] = string.format('<text transform="translate(12 %d) rotate(-90)" text-anchor="middle" fill="#333">%s</text>', (T + H - B) // 2, html.esc(o.ylabel)) end
  return out
end

local function legend(out, names, colors, dashes)
  local x = L + 8
  for i, name in ipairs(names) do
    local w = 26 + 6.5 * #name
    if x + w > W - R then break end
    out[#out + 1] = string.format('<line x1="%s" x2="%s" y1="%d" y2="%d" stroke="%s" stroke-width="3"%s/><text x="%s" y="%d">%s</text>',
      n(x), n(x + 16), T + 6, T + 6, colors[i], dashes[i] and ' stroke-dasharray="5 3"' or "", n(x + 20), T + 10, html.esc(name))
    x = x + w
  end
end

-- lines(o) -> SVG: one polyline per series, its [lo, hi] as a shaded band
function M.lines(o)
  local xs, ymin, ymax = {}, o.ymin, o.ymax
  local xlo, xhi
  for _, s in ipairs(o.series) do
    for _, p in ipairs(s.points) do
      xlo = math.min(xlo or p[1], p[1]); xhi = math.max(xhi or p[1], p[1])
      for j = 2, 4 do
        if type(p[j]) == "number" then
          ymin = o.ymin or math.min(ymin or p[j], p[j]); ymax = o.ymax or math.max(ymax or p[j], p[j])
        end
      end
      xs[p[1]] = true
    end
  end
  xlo, xhi, ymin, ymax = xlo or 0, xhi or 1, ymin or 0, ymax or 1
  if ymax <= ymin then ymax = ymin + 1 end
  if xhi <= xlo then xhi = xlo + 1 end
  local function xsc(x) return L + 10 + (x - xlo) / (xhi - xlo) * (W - R - L - 20) end
  local function ysc(y) return H - B - (y - ymin) / (ymax - ymin) * (H - B - T - 20) end
  local out = frame(o, ymin, ymax, ysc)
  local xt = o.xticks or ticks(xlo, xhi)
  for _, x in ipairs(xt) do
    out[#out + 1] = string.format('<text x="%s" y="%d" text-anchor="middle" fill="#555">%s</text>', n(xsc(x)), H - B + 14, fmt(x))
  end
  local names, colors, dashes = {}, {}, {}
  for i, s in ipairs(o.series) do
    local col = s.color or M.PALETTE[(i - 1) % #M.PALETTE + 1]
    names[i], colors[i], dashes[i] = s.name, col, s.dash
    local up, down, pts = {}, {}, {}
    for _, p in ipairs(s.points) do
      if type(p[2]) == "number" then pts[#pts + 1] = n(xsc(p[1])) .. "," .. n(ysc(p[2])) end
      if type(p[3]) == "number" and type(p[4]) == "number" then
        up[#up + 1] = n(xsc(p[1])) .. "," .. n(ysc(p[4]))
        table.insert(down, 1, n(xsc(p[1])) .. "," .. n(ysc(p[3])))
      end
    end
    if #up > 1 then
      out[#out + 1] = string.format('<polygon points="%s %s" fill="%s" opacity="0.13"/>', table.concat(up, " "), table.concat(down, " "), col)
    elseif #up == 1 then
      out[#out + 1] = string.format('<polyline points="%s %s" stroke="%s" stroke-width="8" opacity="0.2"/>', up[1], down[1], col)
    end
    out[#out + 1] = string.format('<polyline class="series" points="%s" fill="none" stroke="%s" stroke-width="2"%s/>',
      table.concat(pts, " "), col, s.dash and ' stroke-dasharray="5 3"' or "")
    for _, p in ipairs(pts) do
      local x, y = p:match("([^,]+),(.+)")
      out[#out + 1] = string.format('<circle cx="%s" cy="%s" r="2.5" fill="%s"/>', x, y, col)
    end
  end
  legend(out, names, colors, dashes)
  out[#out + 1] = "</svg>"
  return table.concat(out)
end

-- bars(o) -> SVG: groups of bars, each value { v, lo, hi } with a whisker for [lo, hi]
function M.bars(o)
  local ymin, ymax = 0, o.ymax
  for _, g in ipairs(o.groups) do
    for _, v in ipairs(g.values) do
      for j = 1, 3 do if type(v[j]) == "number" and not o.ymax then ymax = math.max(ymax or v[j], v[j]) end end
    end
  end
  ymax = (ymax and ymax > 0) and ymax or 1
  local function ysc(y) return H - B - (y - ymin) / (ymax - ymin) * (H - B - T - 20) end
  local out = frame(o, ymin, ymax, ysc)
  local ng, nb = #o.groups, #(o.names or { 1 })
  local gw = (W - R - L - 10) / math.max(1, ng)
  local bw = math.min(40, (gw - 8) / nb)
  for gi, g in ipairs(o.groups) do
    local gx = L + 5 + (gi - 1) * gw
    out[#out + 1] = string.format('<text x="%s" y="%d" text-anchor="middle" fill="#333">%s</text>', n(gx + gw / 2), H - B + 14, html.esc(g.label))
    local x0 = gx + (gw - bw * nb) / 2
    for bi, v in ipairs(g.values) do
      local col = M.PALETTE[(bi - 1) % #M.PALETTE + 1]
      if type(v[1]) == "number" then
        local x = x0 + (bi - 1) * bw
        out[#out + 1] = string.format('<rect class="bar" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s</title></rect>',
          n(x + 1), n(ysc(v[1])), n(bw - 2), n(ysc(0) - ysc(v[1])), col, html.esc((g.label or "") .. ": " .. fmt(v[1], o.percent)))
        if type(v[2]) == "number" and type(v[3]) == "number" then
          local cx = x + bw / 2
          out[#out + 1] = string.format('<path d="M%s %sV%sM%s %sH%sM%s %sH%s" stroke="#222" stroke-width="1.3"/>',
            n(cx), n(ysc(v[2])), n(ysc(v[3])), n(cx - 4), n(ysc(v[2])), n(cx + 4), n(cx - 4), n(ysc(v[3])), n(cx + 4))
        end
      end
    end
  end
  if o.names and #o.names > 1 then
    local colors, dashes = {}, {}
    for i in ipairs(o.names) do colors[i] = M.PALETTE[(i - 1) % #M.PALETTE + 1] end
    legend(out, o.names, colors, dashes)
  end
  out[#out + 1] = "</svg>"
  return table.concat(out)
end

return M
