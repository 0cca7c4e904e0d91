-- tabula.view.live — report.html kept up to date during a run (--report-every
-- SECONDS): a task on the event loop that wakes every SECONDS, builds the page
-- from the records written so far and replaces report.html atomically; the page
-- says when it was written and how many of the planned trials were recorded.
-- A run shorter than SECONDS is never touched; the end of the run writes the
-- final page. A page that fails to build is one warning line, never the run's end.
--
--   local live = require("tabula.view.live").start(S, dir, seconds)
--   ... the run ...
--   live:stop()
local loop = require "tabula.loop"

local M = {}

-- write(S, dir) -> true | nil, message: report.html of the run so far, with the note
function M.write(S, dir, every)
  local path, err = require("tabula.view").try_write(dir, S, { live = { at = os.date("!%Y-%m-%d %H:%M:%S UTC"), every = every } })
  if not path then return nil, err end
  return true
end

-- interrupted(S, dir): report.html of the trials recorded when the run was
-- interrupted (Ctrl-C, SIGTERM) -> the path | nil, message
function M.interrupted(S, dir)
  return require("tabula.view").try_write(dir, S, { live = { at = os.date("!%Y-%m-%d %H:%M:%S UTC"), interrupted = true } })
end

-- start(S, dir, seconds) -> a handle with :stop(); seconds nil or <= 0: nothing runs
function M.start(S, dir, seconds)
  local h = { writes = 0 }
  if not seconds or seconds <= 0 or not loop.current() then
    function h.stop() end
    return h
  end
  local warned = false
  h.task = loop.spawn(function()
    while true do
      loop.sleep(seconds)
      local ok, err = M.write(S, dir, seconds)
      if ok then h.writes = h.writes + 1
      elseif not warned then
        warned = true
        io.stderr:write(string.format("warning: report.html could not be rewritten during the run (%s); the run goes on\n", err))
      end
    end
  end)
  function h.stop()
    if h.task and not h.task:done() then loop.cancel(h.task) end
  end
  return h
end

return M
