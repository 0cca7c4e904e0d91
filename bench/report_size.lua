-- bench/report_size.lua — helper of bench/report_size.sh: how long a DECE report.html
-- takes in headless Chromium (tabula.chromium): the overview loaded and its game
-- selector working, one match view opened, its last frame drawn.
--   tabula bench/report_size.lua RUN/report.html MATCH_ID
local loop = require "tabula.loop"
local chromium = require "tabula.chromium"

loop.run(function()
  local b, why = chromium.start()
  if not b then print("no Chromium: " .. tostring(why)); return end
  local t0 = loop.now()
  local p = b:open("file://" .. arg[1], { width = 1400, height = 1000 })
  p:wait("!!document.querySelector('#panel-group')")
  local t1 = loop.now()
  p:eval(string.format("location.hash = 'trial=%s'; 1", arg[2]))
  p:wait("!!document.querySelector('#view .fboard svg')")
  local t2 = loop.now()
  p:eval("var r = document.querySelector('#view input[type=range]'); r.value = r.max; r.dispatchEvent(new Event('input')); 1")
  local t3 = loop.now()
  print(string.format("  in Chromium: overview interactive %.2f s (target <= 3 s), match %s opened %.2f s, its last frame drawn %.2f s",
    t1 - t0, arg[2], t2 - t1, t3 - t2))
  b:close()
end)
