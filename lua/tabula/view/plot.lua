-- tabula.view.plot — plots as inline SVG, drawn by tabula itself (no
-- plotting library, nothing loaded): lines with interval bands, grouped bars
-- with interval whiskers.
--
--   plot.lines{ title =, xlabel =, ylabel =, ymin = 0, ymax = 1, percent = true,
--               series = { { name = "sighted pass@k", points = { { x, y, lo, hi }, ... }, dash = true } } }
--   plot.bars{ title =, ylabel =, ymax =, percent = true, names = { "chosen", "answer" },
--              groups = { { label = "A", values = { { v, lo, hi }, { v } } } } }
--
-- Plots that read: an axis whose values are all integers gets integer ticks;
-- tick labels carry as many decimals as their step needs (never "0 0 0");
-- bars whose labels would not fit under them are drawn horizontally, one row per
-- group; the legend wraps onto as many rows as its names need; a plot with
-- nothing to show (no points, or every x the same) is replaced by a sentence
-- saying so. Every label is a <text class="lbl"> so a browser test can check
-- that no two overlap.
local html = require "tabula.view.html"

local M = {}

M.PALETTE = { "#1565c0", "#c62828", "#2e7d32", "#8e24aa", "#ef6c00", "#00838f", "#6d4c41", "#546e7a" }

local W, H = 520, 300
local L, R, T, B = 56, 16, 30, 44     -- L is widened per plot to fit its y tick labels (fit_left)
local CHAR = 6.4            -- mean width of a character at font-size 11, in px

local function n(x) return string.format("%g", math.floor(x * 10 + 0.5) / 10) end

local function text_width(s) return CHAR * (utf8.len(s) or #s) end

-- ticks(lo, hi, integer) -> about five round values between lo and hi, and their step
function M.ticks(lo, hi, integer)
  local span = hi - lo
  if span <= 0 then return { lo }, 1 end
  local step = 10 ^ math.floor(math.log(span / 5, 10))
  for _, m in ipairs({ 1, 2, 2.5, 5, 10 }) do
    if span / (step * m) <= 6 then step = step * m; break end
  end
  if integer then step = math.max(1, math.floor(step + 0.5)) end
  local out = {}
  local v = math.ceil(lo / step - 1e-9) * step
  while v <= hi + 1e-9 do out[#out + 1] = v; v = v + step end
  return out, step
end

-- decimals(step) -> the digits after the point that tell ticks `step` apart
local function decimals(step)
  if step <= 0 then return 0 end
  local d = 0
  while d < 6 and math.abs(step * 10 ^ d - math.floor(step * 10 ^ d + 0.5)) > 1e-6 do d = d + 1 end
  return d
end

-- fmt(v, percent, step) -> a tick label with the decimals the step needs
function M.fmt(v, percent, step)
  step = step or 1
  if percent then return string.format("%." .. decimals(step * 100) .. "f%%", v * 100) end
  return string.format("%." .. decimals(step) .. "f", v)
end

local function all_integer(list)
  for _, v in ipairs(list) do if type(v) == "number" and v ~= math.floor(v) then return false end end
  return #list > 0
end

local function label(x, y, s, extra)
  return string.format('<text class="lbl" x="%s" y="%s"%s>%s</text>', n(x), n(y), extra or "", html.esc(s))
end

-- legend_rows(names) -> rows of { i, x } fitting the plot's width
local function legend_rows(names, width)
  local rows, row, x = {}, {}, L + 8
  for i, name in ipairs(names) do
    local w = 30 + text_width(name)
    if #row > 0 and x + w > width - R then rows[#rows + 1] = row; row = {}; x = L + 8 end
    row[#row + 1] = { i, x }
    x = x + w
  end
  if #row > 0 then rows[#rows + 1] = row end
  return rows
end

local function legend(out, names, colors, dashes, y0, width)
  for r, row in ipairs(legend_rows(names, width)) do
    local y = y0 + (r - 1) * 16
    for _, e in ipairs(row) do
      local i, x = e[1], e[2]
      out[#out + 1] = string.format('<line x1="%s" x2="%s" y1="%d" y2="%d" stroke="%s" stroke-width="3"%s/>',
        n(x), n(x + 16), y - 4, y - 4, colors[i], dashes[i] and ' stroke-dasharray="5 3"' or "")
      out[#out + 1] = label(x + 20, y, names[i], ' class="lbl legend"')
    end
  end
end

local function svg(width, height, body)
  return string.format('<svg class="plot" viewBox="0 0 %d %d" width="%d" height="%d" font-family="sans-serif" font-size="11">', width, height, width, height)
    .. table.concat(body) .. "</svg>"
end

-- empty(o, why) -> the sentence that stands in for a plot with nothing to show
function M.empty(o, why)
  return string.format('<p class="plot-empty"><b>%s</b>: %s</p>', html.esc(o.title or "plot"), html.esc(why))
end

-- fit_left(o, ylo, yhi, yint): room on the left for the widest y tick label and the axis label
local function fit_left(o, ylo, yhi, yint)
  local ts, step = M.ticks(ylo, yhi, yint)
  local w = 0
  for _, t in ipairs(ts) do w = math.max(w, text_width(M.fmt(t, o.percent, step))) end
  L = math.max(56, math.ceil(w + (o.ylabel and 30 or 12)))
end

-- axes(o, ylo, yhi, ysc, yint, top, bottom) -> SVG parts: title, y ticks and grid, axes, axis labels
local function axes(o, ylo, yhi, ysc, yint, top, bottom)
  local out = { string.format('<text class="lbl" x="%d" y="16" font-size="13" font-weight="bold">%s</text>', L, html.esc(o.title or "")) }
  local ts, step = M.ticks(ylo, yhi, yint)
  for _, t in ipairs(ts) do
    local y = ysc(t)
    out[#out + 1] = string.format('<line x1="%d" x2="%d" y1="%s" y2="%s" stroke="#e0e0e0"/>', L, W - R, n(y), n(y))
    out[#out + 1] = label(L - 4, y + 4, M.fmt(t, o.percent, step), ' text-anchor="end" fill="#555"')
  end
  out[#out + 1] = string.format('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#555"/><line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#555"/>',
    L, W - R, bottom, bottom, L, L, top, bottom)
  if o.xlabel then out[#out + 1] = label((L + W - R) // 2, bottom + 32, o.xlabel, ' text-anchor="middle" fill="#333"') end
  if o.ylabel then
    out[#out + 1] = string.format('<text class="lbl" transform="translate(12 %d) rotate(-90)" text-anchor="middle" fill="#333">%s</text>',
      (top + bottom) // 2, html.esc(o.ylabel))
  end
  return out
end

-- lines(o) -> SVG: one polyline per series, its [lo, hi] as a shaded band
function M.lines(o)
  local xs, ys, ymin, ymax = {}, {}, o.ymin, o.ymax
  local xlo, xhi
  for _, s in ipairs(o.series) do
    for _, p in ipairs(s.points) do
      xlo = math.min(xlo or p[1], p[1]); xhi = math.max(xhi or p[1], p[1])
      xs[#xs + 1] = p[1]
      for j = 2, 4 do
        if type(p[j]) == "number" then
          ys[#ys + 1] = p[j]
          ymin = o.ymin or math.min(ymin or p[j], p[j]); ymax = o.ymax or math.max(ymax or p[j], p[j])
        end
      end
    end
  end
  if #ys == 0 then return M.empty(o, "no points to draw.") end
  if xhi <= xlo then
    return M.empty(o, string.format("every point has %s = %s, so there is no curve to draw.", o.xlabel or "x", M.fmt(xlo, false, 0.0001)))
  end
  if ymax <= ymin then ymin, ymax = ymin - 1, ymax + 1 end
  local names, colors, dashes = {}, {}, {}
  for i, s in ipairs(o.series) do
    names[i], colors[i], dashes[i] = s.name, s.color or M.PALETTE[(i - 1) % #M.PALETTE + 1], s.dash
  end
  local lrows = #legend_rows(names, W)
  local top = T + 16 * math.max(0, lrows - 1)
  local bottom = top + (H - T - B)
  fit_left(o, ymin, ymax, not o.percent and all_integer(ys))
  local function xsc(x) return L + 10 + (x - xlo) / (xhi - xlo) * (W - R - L - 20) end
  local function ysc(y) return bottom - (y - ymin) / (ymax - ymin) * (bottom - top - 20) end
  local out = axes(o, ymin, ymax, ysc, not o.percent and all_integer(ys), top, bottom)
  local xt, xstep = o.xticks, nil
  if not xt then xt, xstep = M.ticks(xlo, xhi, all_integer(xs)) end
  for _, x in ipairs(xt) do
    out[#out + 1] = label(xsc(x), bottom + 14, xstep and M.fmt(x, false, xstep) or tostring(x), ' text-anchor="middle" fill="#555"')
  end
  for i, s in ipairs(o.series) do
    local col = colors[i]
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
  legend(out, names, colors, dashes, T + 10, W)
  return svg(W, bottom + B, out)
end

local function bar_values(o)
  local vals = {}
  for _, g in ipairs(o.groups) do
    for _, v in ipairs(g.values) do for j = 1, 3 do if type(v[j]) == "number" then vals[#vals + 1] = v[j] end end end
  end
  return vals
end

local function whisker_title(g, v, o, step)
  return html.esc((g.label or "") .. ": " .. M.fmt(v[1], o.percent, step))
end

-- hbars(o) -> SVG: the same bars laid on their side, one row per group, labels on the left
local function hbars(o, vals, vmax, integer)
  local nb = #(o.names or { 1 })
  local lw = 0
  for _, g in ipairs(o.groups) do lw = math.max(lw, text_width(g.label or "")) end
  lw = math.min(lw, 260)
  local left = math.floor(lw + 14)
  local bh = math.max(8, math.min(16, 22 / nb))
  local rowh = bh * nb + 8
  local names, colors, dashes = o.names or {}, {}, {}
  for i in ipairs(names) do colors[i] = M.PALETTE[(i - 1) % #M.PALETTE + 1] end
  local lrows = nb > 1 and #legend_rows(names, W) or 0
  local top = T + 16 * lrows
  local bottom = top + rowh * #o.groups
  local right = W - R - 10
  local function xsc(v) return left + v / vmax * (right - left) end
  local out = { string.format('<text class="lbl" x="%d" y="16" font-size="13" font-weight="bold">%s</text>', L, html.esc(o.title or "")) }
  local ts, step = M.ticks(0, vmax, integer)
  for _, t in ipairs(ts) do
    local x = xsc(t)
    out[#out + 1] = string.format('<line x1="%s" x2="%s" y1="%d" y2="%d" stroke="#e0e0e0"/>', n(x), n(x), top, bottom)
    out[#out + 1] = label(x, bottom + 14, M.fmt(t, o.percent, step), ' text-anchor="middle" fill="#555"')
  end
  out[#out + 1] = string.format('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#555"/>', left, left, top, bottom)
  local axis = o.ylabel or o.xlabel
  if axis then out[#out + 1] = label((left + right) // 2, bottom + 32, axis, ' text-anchor="middle" fill="#333"') end
  for gi, g in ipairs(o.groups) do
    local y0 = top + (gi - 1) * rowh + 4
    local s = g.label or ""
    if text_width(s) > lw then s = s:sub(1, math.floor(lw / CHAR) - 1) .. "…" end
    out[#out + 1] = label(left - 6, y0 + bh * nb / 2 + 4, s, ' text-anchor="end" fill="#333"')
    for bi, v in ipairs(g.values) do
      if type(v[1]) == "number" then
        local y = y0 + (bi - 1) * bh
        out[#out + 1] = string.format('<rect class="bar" x="%d" y="%s" width="%s" height="%s" fill="%s"><title>%s</title></rect>',
          left, n(y), n(math.max(0, xsc(v[1]) - left)), n(bh - 1), M.PALETTE[(bi - 1) % #M.PALETTE + 1], whisker_title(g, v, o, step / 10))
        if type(v[2]) == "number" and type(v[3]) == "number" then
          local cy = y + bh / 2
          out[#out + 1] = string.format('<path d="M%s %sH%sM%s %sV%sM%s %sV%s" stroke="#222" stroke-width="1.3"/>',
            n(xsc(v[2])), n(cy), n(xsc(v[3])), n(xsc(v[2])), n(cy - 3), n(cy + 3), n(xsc(v[3])), n(cy - 3), n(cy + 3))
        end
      end
    end
  end
  if nb > 1 then legend(out, names, colors, dashes, T + 10, W) end
  return svg(W, bottom + (axis and 40 or 24), out)
end

-- bars(o) -> SVG: groups of bars, each value { v, lo, hi } with a whisker for [lo, hi];
-- on their side when the group labels would not fit under the bars
function M.bars(o)
  if #o.groups == 0 then return M.empty(o, "nothing to count.") end
  local vals = bar_values(o)
  local nonzero = false
  for _, v in ipairs(vals) do if v ~= 0 then nonzero = true end end
  if not nonzero then
    local names = {}
    for i, g in ipairs(o.groups) do names[i] = g.label or "" end
    return M.empty(o, string.format("every value is %s (%s).", o.percent and "0%" or "0", table.concat(names, ", ")))
  end
  local integer = not o.percent and all_integer(vals)
  local ymax = o.ymax
  if not ymax then for _, v in ipairs(vals) do ymax = math.max(ymax or v, v) end end
  ymax = (ymax and ymax > 0) and ymax or 1
  local ng, nb = #o.groups, #(o.names or { 1 })
  fit_left(o, 0, ymax, integer)
  local gw = (W - R - L - 10) / ng
  local fits = true
  for _, g in ipairs(o.groups) do if text_width(g.label or "") > gw - 4 then fits = false end end
  if not fits or o.horizontal then return hbars(o, vals, ymax, integer) end
  local names, colors, dashes = o.names or {}, {}, {}
  for i in ipairs(names) do colors[i] = M.PALETTE[(i - 1) % #M.PALETTE + 1] end
  local lrows = nb > 1 and #legend_rows(names, W) or 0
  local top = T + 16 * math.max(0, lrows - 1)
  local bottom = top + (H - T - B)
  local function ysc(y) return bottom - y / ymax * (bottom - top - 20) end
  local out = axes(o, 0, ymax, ysc, integer, top, bottom)
  local _, step = M.ticks(0, ymax, integer)
  local bw = math.min(40, (gw - 8) / nb)
  for gi, g in ipairs(o.groups) do
    local gx = L + 5 + (gi - 1) * gw
    out[#out + 1] = label(gx + gw / 2, bottom + 14, g.label or "", ' text-anchor="middle" fill="#333"')
    local x0 = gx + (gw - bw * nb) / 2
    for bi, v in ipairs(g.values) do
      local col = M.PALETTE[(bi - 1) % #M.PALETTE + 1]
      if type(v[1]) == "number" then
        local x = x0 + (bi - 1) * bw
        out[#out + 1] = string.format('<rect class="bar" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s</title></rect>',
          n(x + 1), n(ysc(v[1])), n(bw - 2), n(ysc(0) - ysc(v[1])), col, whisker_title(g, v, o, step / 10))
        if type(v[2]) == "number" and type(v[3]) == "number" then
          local cx = x + bw / 2
          out[#out + 1] = string.format('<path d="M%s %sV%sM%s %sH%sM%s %sH%s" stroke="#222" stroke-width="1.3"/>',
            n(cx), n(ysc(v[2])), n(ysc(v[3])), n(cx - 4), n(ysc(v[2])), n(cx + 4), n(cx - 4), n(ysc(v[3])), n(cx + 4))
        end
      end
    end
  end
  if nb > 1 then legend(out, names, colors, dashes, T + 10, W) end
  return svg(W, bottom + B, out)
end

return M
