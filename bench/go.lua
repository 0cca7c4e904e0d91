-- Go speed: light playouts per second on 9x9 and 19x19 (target: 50,000 9x9
-- playouts/s on one core), the local solver's time on the shipped suite, and
-- GNU Go's genmove time on the same problems for scale (GNU Go is the named peer
-- for the solver; bench/go.sh runs bench/go_playout_peer.c first, the peer for
-- playouts, and passes its rate in GO_PEER_RATE).
--   ./tabula bench/go.lua [N9 [N19 [PROBLEMS]]]
local go = require "games.go"
local json = require "tabula.json"
local fs = require "tabula.fs"
local host = require "tabula.c.host"
local n9, n19, nprob = tonumber(arg[1]) or 20000, tonumber(arg[2]) or 2000, tonumber(arg[3]) or 20

local function clock() return os.clock() end

-- the load average: other processes on the machine slow every figure here
local load = fs.read("/proc/loadavg")
io.write(string.format("load average %s (cores shared with other work make every rate lower)\n",
  load and load:match("^(%S+ %S+ %S+)") or "unknown"))
local peer = tonumber(os.getenv("GO_PEER_RATE") or "")

for _, spec in ipairs { { 9, n9 }, { 19, n19 } } do
  local g = go.new(spec[1])
  local t0 = clock()
  local _, moves = g:playouts(spec[2], 1)
  local dt = clock() - t0
  local rate = spec[2] / dt
  local extra = ""
  if spec[1] == 9 then
    extra = string.format("; %.2fx the 50,000/s target", rate / 50000)
    if peer then extra = extra .. string.format("; %.2fx the flood-fill peer (bench/go_playout_peer.c, %.0f/s)", rate / peer, peer) end
  end
  io.write(string.format("playouts %dx%d: %d in %.2f s CPU = %.0f playouts/s (%.1f moves each)%s\n", spec[1], spec[1], spec[2], dt,
    rate, moves / spec[2], extra))
end

local text = fs.read(host.root .. "/games/go/suite.jsonl")
if not text then io.write("no games/go/suite.jsonl\n"); return end
local problems = {}
for l in text:gmatch("[^\n]+") do if #problems < nprob then problems[#problems + 1] = json.decode(l) end end
local admit = require "games.go.admit"
local solver_t
for _, method in ipairs { "id", "dfpn" } do
  local t0 = clock()
  local agree = 0
  for _, p in ipairs(problems) do if admit.prove(p, { nodes = 20000, method = method }) == "agree" then agree = agree + 1 end end
  local dt = clock() - t0
  if method == "dfpn" then solver_t = dt end
  io.write(string.format("solver (%s): %d suite problems in %.2f s CPU (%.3f s each), %d proven\n", method, #problems, dt, dt / #problems, agree))
end

if fs.kind("/usr/games/gnugo") then
  local loop = require "tabula.loop"
  local gnugo = require "games.go.gnugo"
  loop.run(function()
    local e = gnugo.start({ level = 10 })
    local hits, failed = 0, 0
    local w0 = loop.now()
    for _, p in ipairs(problems) do
      local ok, m = pcall(function() gnugo.setup(e, p); return gnugo.genmove(e, p.to_play) end)
      if not ok then failed = failed + 1 end
      for _, c in ipairs(p.correct) do if ok and c == m then hits = hits + 1 end end
    end
    local wall = loop.now() - w0
    e:close()
    io.write(string.format("gnugo --level 10 genmove: %d problems in %.2f s wall (%.3f s each), %d correct first moves, %d engine failures; solver/gnugo time ratio %.2f\n",
      #problems, wall, wall / #problems, hits, failed, solver_t / wall))
  end)
end
