-- tabula.progress — how a run reports its progress on stderr: on a terminal,
-- one live line (done/total, successes, failures, errors, calls, tokens, cost,
-- elapsed time and ETA) redrawn after each trial; otherwise, or with
-- --verbose, one line per finished trial.
--
--   local update, finish, state, redraw = progress.reporter({ tty = host.isatty(2), verbose = opts.verbose,
--     extra = function() return "..." end })   -- extra: a part of the live line (tabula.batch's batches and items)
--   update(rec, n, total)   -- the runner's progress callback
--   finish()                -- ends the live line
--   redraw()                -- the live line again (extra changed)
local loop = require "tabula.loop"
local terminal = require "tabula.terminal"

local M = {}

local function clock(s)
  s = math.floor(s + 0.5)
  if s >= 3600 then return string.format("%d:%02d:%02d", s // 3600, s % 3600 // 60, s % 60) end
  return string.format("%d:%02d", s // 60, s % 60)
end

local function count(n)
  if n >= 1e6 then return string.format("%.1fM", n / 1e6) end
  if n >= 1e4 then return string.format("%.1fk", n / 1e3) end
  return tostring(math.floor(n))
end

-- line(state, now) -> the live line's text
function M.line(st, now)
  local el = now - st.started
  local eta = st.done > 0 and st.done < st.total and string.format(", ETA %s", clock(el / st.done * (st.total - st.done))) or ""
  local batches = st.extra and (" | " .. st.extra()) or ""
  return string.format("[%d/%d] %d ok, %d failed, %d errors | %d calls, %s tokens, $%.4f%s | %s elapsed%s",
    st.done, st.total, st.ok, st.failed, st.errors, st.calls, count(st.tokens), st.cost, batches, clock(el), eta)
end

-- add(state, rec): count a finished trial
function M.add(st, rec)
  st.done = st.done + 1
  -- a match's record: "finished" (or no status: a ChessArena game) is a result
  if rec.status == "success" or rec.status == "finished" or rec.status == nil then st.ok = st.ok + 1
  elseif rec.status == "error" then st.errors = st.errors + 1
  else st.failed = st.failed + 1 end
  local u = type(rec.usage) == "table" and rec.usage or {}
  if type(rec.calls) == "table" or u[1] then   -- a match: per seat (DECE)
    for _, x in ipairs(u) do st.tokens = st.tokens + (x.input or 0) + (x.output or 0) end
    for _, n in ipairs(type(rec.calls) == "table" and rec.calls or {}) do st.calls = st.calls + (tonumber(n) or 0) end
    return
  end
  if type(rec.per_move) == "table" and rec.usage == nil then   -- a game: per move (ChessArena)
    for _, m in ipairs(rec.per_move) do
      local mu = type(m.usage) == "table" and m.usage or {}
      st.tokens = st.tokens + (mu.input or 0) + (mu.output or 0)
      st.cost = st.cost + (tonumber(m.cost) or 0)
      st.calls = st.calls + (tonumber(m.attempts) or 0)
    end
    return
  end
  st.tokens = st.tokens + (u.input or 0) + (u.output or 0)
  st.cost = st.cost + (tonumber(rec.cost) or 0)
  st.calls = st.calls + (tonumber(rec.calls) or (rec.usage and 1 or 0))
end

-- trial_line(rec, n, total, id) -> "[n/total] ID STATUS (REASON)": the line of
-- one finished trial; no parentheses when the record gives no reason
function M.trial_line(rec, n, total, id)
  local why = rec.reason or rec.result
  why = why ~= nil and tostring(why) or ""
  return string.format("[%d/%d] %s %s%s", n, total, tostring(rec.trial_id or id),
    tostring(rec.status or "finished"), why:match("%S") and (" (" .. why .. ")") or "")
end

-- reporter({ tty, verbose, out, now }) -> update(rec, n, total), finish()
function M.reporter(o)
  local out, now = o.out or io.stderr, o.now or loop.now
  local st = { done = 0, total = 0, ok = 0, failed = 0, errors = 0, calls = 0, tokens = 0, cost = 0, started = now(), extra = o.extra }
  local live = o.tty and not o.verbose
  local drawn = false
  -- redraw(): the live line again (the batches' part changed between trials)
  local function redraw()
    if not live then return end
    out:write("\r", M.line(st, now()), "\27[K")
    out:flush()
    drawn = true
  end
  local function update(rec, n, total, id)
    M.add(st, rec)
    st.done, st.total = n, total
    if live then
      out:write("\r", M.line(st, now()), "\27[K")
      drawn = true
    else
      out:write(terminal.clean(M.trial_line(rec, n, total, id)), "\n")
    end
    out:flush()
  end
  local function finish()
    if drawn then out:write("\n"); out:flush() end
  end
  return update, finish, st, redraw
end

return M
