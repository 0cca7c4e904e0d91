-- The local life-and-death solver against the reference answers of the shared
-- Go problems (../shared/data: Go Game Guru, goproblems, Cho Chikun, Go Seigen,
-- Xuanxuan Qijing), converted and filtered as `tabula problems go` does. Each
-- problem's correct first moves are checked by games.go.admit.prove
-- (games.go.verify): agree / disagree / unknown, and every disagreement is listed.
--   ./tabula bench/go_solver_shared.lua [NODES [EVERY [DATA [SOURCES]]]]
-- NODES per solver call (20000); EVERY: only every k-th problem (1); DATA: the
-- shared data folder (../shared/data); SOURCES: comma-separated folders to
-- read (default all five, e.g. gogameguru). Prints the counts by source and
-- by tier.
local testing = require "tabula.testing"
local collect = require "games.go.collect"
local admit = require "games.go.admit"

local nodes, every = tonumber(arg[1]) or 20000, tonumber(arg[2]) or 1
local data = arg[3] or testing.shared_data("")
if not data then io.write("no shared data folder (../shared/data); pass it as the third argument\n"); return end
local problems = collect.shared(data, arg[4])

local counts, by_source, by_tier, disagreements = { agree = 0, disagree = 0, unknown = 0 }, {}, {}, {}
local kos, n, t0 = 0, 0, os.clock()
for i, p in ipairs(problems) do
  if (i - 1) % every == 0 then
    n = n + 1
    local v, detail = admit.prove(p, { nodes = nodes })
    counts[v] = counts[v] + 1
    local s = by_source[p.source] or { agree = 0, disagree = 0, unknown = 0 }
    by_source[p.source] = s
    s[v] = s[v] + 1
    local tier = tostring(p.tier or "?")
    local tt = by_tier[tier] or { agree = 0, disagree = 0, unknown = 0 }
    by_tier[tier] = tt
    tt[v] = tt[v] + 1
    if detail == "ko" then kos = kos + 1 end
    if v == "disagree" then disagreements[#disagreements + 1] = p.id .. ": " .. tostring(detail) end
    if n % 50 == 0 then
      io.stderr:write(string.format("%d problems: %d agree, %d disagree, %d unknown\n", n, counts.agree, counts.disagree, counts.unknown))
    end
  end
end
local dt = os.clock() - t0
io.write(string.format("solver on %d of %d shared problems at %d nodes per call: %d agree, %d disagree, %d unknown (%d of them ko-dependent); %.1f s CPU (%.3f s each)\n",
  n, #problems, nodes, counts.agree, counts.disagree, counts.unknown, kos, dt, dt / math.max(1, n)))
local srcs = {}
for k in pairs(by_source) do srcs[#srcs + 1] = k end
table.sort(srcs)
for _, k in ipairs(srcs) do
  local s = by_source[k]
  io.write(string.format("  %-16s %4d agree %4d disagree %4d unknown\n", k, s.agree, s.disagree, s.unknown))
end
local tiers = {}
for k in pairs(by_tier) do tiers[#tiers + 1] = k end
table.sort(tiers)
for _, k in ipairs(tiers) do
  local s = by_tier[k]
  local total = s.agree + s.disagree + s.unknown
  io.write(string.format("  tier %-12s %4d agree %4d disagree %4d unknown (decided %.1f%%)\n", k, s.agree, s.disagree, s.unknown,
    100 * (s.agree + s.disagree) / math.max(1, total)))
end
io.write(string.format("decided: %d of %d (%.1f%%)\n", counts.agree + counts.disagree, n, 100 * (counts.agree + counts.disagree) / math.max(1, n)))
for _, d in ipairs(disagreements) do io.write("  disagree: ", d, "\n") end
