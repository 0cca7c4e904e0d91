-- bench/report_size.lua — helper of bench/report_size.sh: how long a DECE report.html
-- takes in headless Chromium (tabula.chromium): the overview loaded and its game
-- selector working, one match view opened (its data inflated), its last frame drawn,
-- and a seat's own view picked there. The overview is timed twice: as the browser's
-- first tab (its start-up included, as this bench measured before) and again in a
-- second tab (the page's own time, as in a browser already open).
--   tabula bench/report_size.lua RUN/report.html MATCH_ID
local loop = require "tabula.loop"
local chromium = require "tabula.chromium"

loop.run(function()
  local b, why = chromium.start()
  if not b then print("no Chromium: " .. tostring(why)); return end
  local c0 = loop.now()
  local cold = b:open("file://" .. arg[1], { width = 1400, height = 1000 })
  cold:wait("!!document.querySelector('#panel-group')")
  local c1 = loop.now()
  cold:close()
  local t0 = loop.now()
  local p = b:open("file://" .. arg[1], { width = 1400, height = 1000 })
  p:wait("!!document.querySelector('#panel-group')")
  local t1 = loop.now()
  p:eval(string.format("location.hash = 'trial=%s'; 1", arg[2]))
  p:wait("!!document.querySelector('#view .fboard svg')")
  local t2 = loop.now()
  p:eval("var r = document.querySelector('#view input[type=range]'); r.value = r.max; r.dispatchEvent(new Event('input')); 1")
  local t3 = loop.now()
  local seat = p:eval([[(function () {
    var s = document.querySelector('#view select.seat-pick');
    if (!s) return 'none';
    s.value = '1'; s.dispatchEvent(new Event('change'));
    return document.querySelector('#view .fboard svg') ? 'drawn' : 'missing';
  })()]])
  local t4 = loop.now()
  print(string.format("  in Chromium: overview interactive %.2f s as the first tab, %.2f s in a second (target <= 3 s), match %s opened %.2f s, "
    .. "its last frame drawn %.2f s, seat 1's own view there %.2f s (%s)", c1 - c0, t1 - t0, arg[2], t2 - t1, t3 - t2, t4 - t3, seat))
  if #p.console > 0 then print("  console: " .. table.concat(p.console, " | ")) end
  b:close()
end)
