-- XiangqiBench's official scorer draws its case bootstrap with numpy
-- (default_rng, integers, quantile). src/stats.c implements that stream and
-- those rules in C; this file checks them against numpy itself (Debian's
-- python3-numpy, installed by make deps), on many seeds, bounds and value
-- sets, and the pass@k / pass^k rows against the official rules restated
-- here in numpy (the earliest trials of a cell, a short cell kept in row k,
-- the per-row seeds). Skipped, saying why, where numpy is not installed.
local t = require "tabula.testing"
local json = require "tabula.json"
local fs = require "tabula.fs"
local stats = require "tabula.c.stats"
local test, T = t.suite()

local PY = "/usr/bin/python3"

-- numpy(script, input) -> the decoded JSON the script prints for the JSON input
local function numpy(script, input)
  t.need_program(PY)
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/in.json", json.encode(input))
  fs.write_atomic(dir .. "/s.py", script)
  local h = io.popen(string.format("%s %s/s.py < %s/in.json 2>&1", PY, dir, dir))
  local out = h:read("a"); h:close()
  if out:find("No module named 'numpy'", 1, true) then t.skip("python3-numpy is not installed (run make deps)") end
  local ok, v = pcall(json.decode, out)
  assert(ok, "numpy script: " .. out:sub(1, 400))
  return v
end

test("the bounded integers of numpy's default_rng(seed).integers(0, high, size) for many seeds and bounds", function()
  local cases = {}
  for _, seed in ipairs({ 0, 1, 2027, 2127, 2427, 2827, 123456789, 4294967295, 4294967296, 2 ^ 53 - 1 }) do
    for _, high in ipairs({ 1, 2, 3, 7, 10, 119, 130, 1000, 65536, 65537, 2 ^ 31 + 11, 2 ^ 32 }) do
      cases[#cases + 1] = { seed = math.tointeger(seed), high = math.tointeger(high), count = 257 }
    end
  end
  local want = numpy([[
import json, sys
import numpy as np
out = []
for c in json.load(sys.stdin):
    out.append([int(x) for x in np.random.default_rng(c["seed"]).integers(0, c["high"], size=c["count"])])
print(json.dumps(out))
]], cases)
  t.eq(#want, #cases)
  for i, c in ipairs(cases) do
    t.eq(stats.np_integers(c.seed, c.high, c.count), want[i], string.format("seed %d, high %d", c.seed, c.high))
  end
end)

test("the bootstrap mean and its 2.5% / 97.5% quantiles equal numpy's to the last bit", function()
  local rng = require("tabula.metrics").rng(47)
  local sets = {}
  for i = 1, 24 do
    local n, v = 1 + rng(40), {}
    for j = 1, n do
      local kind = i % 3
      v[j] = kind == 0 and (rng(2) - 1) or kind == 1 and (rng(4) - 1) / 3 or rng(1000) / 997
    end
    sets[i] = { values = v, seed = 2027 + 100 * (i % 5), draws = i % 4 == 0 and 4000 or 500 }
  end
  local want = numpy([[
import json, sys
import numpy as np
out = []
for s in json.load(sys.stdin):
    arr = np.asarray(s["values"], dtype=float)
    mean = float(arr.mean())
    if arr.size < 2:
        out.append([mean.hex(), None, None]); continue
    rng = np.random.default_rng(s["seed"])
    means = arr[rng.integers(0, arr.size, size=(s["draws"], arr.size))].mean(axis=1)
    lo, hi = np.quantile(means, [0.025, 0.975])
    out.append([mean.hex(), float(lo).hex(), float(hi).hex()])
print(json.dumps(out))
]], sets)
  local function hex(x) return x and string.format("%a", x) end
  -- Python's float.hex and C's %a spell the same double differently: compare the values
  local function val(s) return s and tonumber(s) end
  for i, s in ipairs(sets) do
    local mean, lo, hi = stats.np_bootstrap_mean(s.values, s.draws, s.seed)
    t.eq({ mean, lo, hi }, { val(want[i][1]), val(want[i][2]), val(want[i][3]) },
      string.format("set %d (%d values, seed %d): %s %s %s", i, #s.values, s.seed, hex(mean), hex(lo), hex(hi)))
  end
end)

test("official_pass_rows: pass@k and pass^k with their intervals as the official rules give them in numpy", function()
  local rng = require("tabula.metrics").rng(41)
  local runs = {}
  for r = 1, 6 do
    local units = {}
    for i = 1, 5 + rng(30) do
      local n = rng(10) <= 2 and rng(3) - 1 or 3   -- some cells short (0-2 scored trials)
      units[i] = { n = n, c = n > 0 and rng(n + 1) - 1 or 0 }
    end
    runs[r] = units
  end
  local want = numpy([[
import json, sys
from math import comb
import numpy as np
def boot(values, seed):
    arr = np.asarray(values, dtype=float)
    m = float(arr.mean())
    if arr.size < 2: return [m, None, None]
    rng = np.random.default_rng(seed)
    means = arr[rng.integers(0, arr.size, size=(4000, arr.size))].mean(axis=1)
    lo, hi = np.quantile(means, [0.025, 0.975])
    return [m, float(lo), float(hi)]
out = []
for units in json.load(sys.stdin):
    rows = []
    for k in range(1, 4):
        at, hat = [], []
        for u in units:
            n, c = u["n"], u["c"]
            if n >= k:
                at.append(1.0 if n - c < k else 1.0 - comb(n - c, k) / comb(n, k))
                hat.append(0.0 if c < k else comb(c, k) / comb(n, k))
            else:
                at.append(float(c > 0)); hat.append(0.0)
        a = boot(at, 2027 + 100 * k)
        h = a if k == 1 else boot(hat, 2027 + 400 + 100 * k)
        rows.append([a, h])
    out.append(rows)
print(json.dumps(out))
]], runs)
  local function triple(x) return { x[1], x[2], x[3] } end
  for r, units in ipairs(runs) do
    local rows = stats.official_pass_rows(units, 3, 4000, 2027)
    for k = 1, 3 do
      local row = rows[k]
      t.eq({ row.k, row.cases }, { k, #units })
      local got_at = triple({ row.pass_at.value, row.pass_at.lo, row.pass_at.hi })
      local got_hat = triple({ row.pass_hat.value, row.pass_hat.lo, row.pass_hat.hi })
      local w = want[r][k]
      local function norm(x) return { x[1], not json.is_null(x[2]) and x[2] or nil, not json.is_null(x[3]) and x[3] or nil } end
      t.eq(got_at, norm(w[1]), string.format("run %d pass@%d", r, k))
      t.eq(got_hat, norm(w[2]), string.format("run %d pass^%d", r, k))
    end
  end
end)

return T
