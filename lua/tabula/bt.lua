-- tabula.bt — Bradley–Terry fitted by Newton's method on pair comparisons, with items in
-- blocks each centred on its own (participants; seats or colours): DECE's Elo and seat term
-- (scenarios/dece/scores.lua), ChessArena's colour term (the robustness appendix, issue 48).
local M = {}

M.PENALTY = 0.02

-- solve(A, b) -> x for a small dense symmetric positive definite system (Gaussian elimination)
local function solve(A, b)
  local n = #b
  local m = {}
  for i = 1, n do m[i] = {}; for j = 1, n do m[i][j] = A[i][j] end; m[i][n + 1] = b[i] end
  for c = 1, n do
    local p = c
    for r = c + 1, n do if math.abs(m[r][c]) > math.abs(m[p][c]) then p = r end end
    m[c], m[p] = m[p], m[c]
    for r = c + 1, n do
      local f = m[r][c] / m[c][c]
      for j = c, n + 1 do m[r][j] = m[r][j] - f * m[c][j] end
    end
  end
  local x = {}
  for r = n, 1, -1 do
    local s = m[r][n + 1]
    for j = r + 1, n do s = s - m[r][j] * x[j] end
    x[r] = s / m[r][r]
  end
  return x
end
M.solve = solve

local function sigmoid(z) return 1 / (1 + math.exp(-z)) end

-- fit(k, comparisons, opts) -> θ (k values): minimise Σ w·[−y log σ(x·θ) − (1−y) log σ(−x·θ)]
-- + penalty·Σθ²/2 by Newton's method; a comparison is { x = {{item, ±1}, ...}, y, w }: the
-- linear predictor Σ ±θ_item (participant a minus participant b, plus seat terms), y = 1 if
-- a placed ahead, ½ tie, 0 behind; with opts.blocks the items are in blocks each centred
-- separately (participants; seats). penalty defaults
-- to 0.02; with penalty 0 the fit is the plain maximum likelihood (when it exists).
function M.fit(k, comps, opts)
  opts = opts or {}
  local lambda = opts.penalty or M.PENALTY
  local theta = {}
  for i = 1, k do theta[i] = 0 end
  for _ = 1, opts.iterations or 100 do
    local g, H = {}, {}
    for i = 1, k do g[i] = lambda * theta[i]; H[i] = {}; for j = 1, k do H[i][j] = 0 end; H[i][i] = lambda end
    for _, c in ipairs(comps) do
      local z = 0
      for _, t in ipairs(c.x) do z = z + t[2] * theta[t[1]] end
      local p = sigmoid(z)
      local r, h = c.w * (p - c.y), c.w * p * (1 - p)
      for _, t in ipairs(c.x) do
        g[t[1]] = g[t[1]] + r * t[2]
        for _, u in ipairs(c.x) do H[t[1]][u[1]] = H[t[1]][u[1]] + h * t[2] * u[2] end
      end
    end
    if lambda == 0 then   -- without the penalty the level is free: pin it with Σθ = 0
      for i = 1, k do for j = 1, k do H[i][j] = H[i][j] + 1 / k end end
    end
    local step = solve(H, g)
    local size = 0
    for i = 1, k do theta[i] = theta[i] - step[i]; size = math.max(size, math.abs(step[i])) end
    if size < 1e-12 then break end
  end
  -- centre (the penalised optimum is centred already; this removes rounding drift)
  for _, block in ipairs(opts.blocks or { { 1, k } }) do
    local s = 0
    for i = block[1], block[2] do s = s + theta[i] end
    for i = block[1], block[2] do theta[i] = theta[i] - s / (block[2] - block[1] + 1) end
  end
  return theta
end

return M
