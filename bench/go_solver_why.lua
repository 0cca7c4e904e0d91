-- Why the solver leaves shared problems unknown: for each problem of the
-- selection (as bench/go_solver_shared.lua picks it) that admit.prove does not
-- decide, each correct move, each goal, each model (unfavourable to the side to
-- play / favourable), each group at stake tried: the result and the nodes; whether
-- the move lies in the model's allowed points; the board (with the region).
--   ./tabula bench/go_solver_why.lua [NODES [EVERY [DATA [SOURCES [ONLY]]]]]
-- ONLY: comma-separated problem indices in the selection (1-based) to look at.
local testing = require "tabula.testing"
local collect = require "games.go.collect"
local admit = require "games.go.admit"
local verify = require "games.go.verify"
local go = require "games.go"

local nodes, every = tonumber(arg[1]) or 20000, tonumber(arg[2]) or 1
local data = arg[3] or testing.shared_data("")
if not data then io.write("no shared data folder (../shared/data); pass it as the third argument\n"); return end
local only
if arg[5] then
  only = {}
  for k in arg[5]:gmatch("%d+") do only[tonumber(k)] = true end
end
local problems = collect.shared(data, arg[4])

local function board(p, marks)
  local g = go.position(p.size, p.stones, p.to_play)
  local r = p.region
  local lines = {}
  for y = math.max(0, r[2] - 2), math.min(p.size - 1, r[4] + 2) do
    local row = {}
    for x = math.max(0, r[1] - 2), math.min(p.size - 1, r[3] + 2) do
      local pt = go.xy_sgf(x, y)
      local c = g:get(pt)
      local ch = c == "black" and "X" or c == "white" and "O" or "."
      if marks[pt] then ch = marks[pt] end
      row[#row + 1] = ch
    end
    lines[#lines + 1] = string.format("  %2d %s", y, table.concat(row, " "))
  end
  local head = {}
  for x = math.max(0, r[1] - 2), math.min(p.size - 1, r[3] + 2) do head[#head + 1] = string.char(97 + x) end
  return "     " .. table.concat(head, " ") .. "\n" .. table.concat(lines, "\n")
end

local k, t0 = 0, os.clock()
for i, p in ipairs(problems) do
  if (i - 1) % every == 0 then
    k = k + 1
    if not only or only[k] then
      local c0 = os.clock()
      local v, detail = admit.prove(p, { nodes = nodes })
      io.write(string.format("#%d %s [%s] %s to play, goal %s: %s (%s) %.1fs\n", k, p.id, tostring(p.tier), p.to_play,
        tostring(p.goal), v, tostring(detail), os.clock() - c0))
      if v == "unknown" or only then
        local marks = {}
        for _, m in ipairs(p.correct) do marks[m] = "*" end
        io.write(board(p, marks), "\n")
        io.write("  correct: ", table.concat(p.correct, " "), "  region ", table.concat(p.region, ","), "\n")
        local box = verify.box_of(p, 1)
        for _, m in ipairs(p.correct) do
          for _, goal in ipairs({ "kill", "live" }) do
            for _, fav in ipairs({ false, true }) do
              for pick = 1, (fav or goal ~= "kill") and 1 or 3 do
                local g, q = verify.model(p, box, goal, fav, nodes, pick)
                if g then
                  local inset = false
                  for _, a in ipairs(q.allowed) do if a == m then inset = true end end
                  local c1 = os.clock()
                  local res, n = verify.after(g, q, m)
                  io.write(string.format("    %s %-4s %-6s pick %d target %s (%d targets): %-7s %7d nodes %5.1fs%s\n", m, goal,
                    fav and "fav" or "unfav", pick, q.target, q.targets and #q.targets or 1, res, n, os.clock() - c1,
                    inset and "" or "  MOVE NOT ALLOWED"))
                end
              end
            end
          end
        end
      end
      io.flush()
    end
  end
end
io.write(string.format("%.1f s CPU\n", os.clock() - t0))
