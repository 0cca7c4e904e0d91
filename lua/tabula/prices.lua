-- tabula.prices — the built-in price table and each provider's rule for what
-- cached input costs, in USD per million tokens.
--
-- complete(cfg) fills a resolved model's prices (tabula.models.resolve calls
-- it):
--   * a model whose models-file entry gives no prices, named by an id this
--     table lists (or that id followed by a date snapshot, claude-haiku-4-5-
--     20251001), gets the table's row;
--   * prices given without `cached` (cache reads), or for Anthropic without
--     `cache_write` / `cache_write_1h` (cache writes, 5-minute and one-hour),
--     get them from the provider's published rule below, as a factor of the
--     input price. A server this file knows no rule for (any openai-chat
--     server: its cache discount is its own) keeps cached reads at the full
--     input price, the bound that never undercounts; give `cached` in the
--     models file for it.
-- What a models file gives always wins. Prices change: a row that is out of
-- date is overridden by giving `prices` in the models file.
--
-- Sources, checked 2026-12-02 through the stored copies of these pages:
--   Anthropic  platform.claude.com/docs/en/about-claude/pricing (columns "Base
--              Input Tokens | 5m Cache Writes | 1h Cache Writes | Cache Hits &
--              Refreshes | Output Tokens"): writes 1.25 x and 2 x the input
--              price, hits 0.1 x, for every model; Opus 4.8, 4.7 and 4.6 5 / 25,
--              Sonnet 4.x 3 / 15, Haiku 4.5 1 / 5, Opus 4.1 and 4 15 / 75 (the
--              newer rows as quoted by studioglobal.ai on Opus 4.7, c-ai.chat
--              and benchr.org on Haiku 4.5, checked against that page 2026-05).
--   OpenAI     openai.com/api/pricing, as quoted on 2026-06 (morphllm.com
--              "OpenAI API pricing", benchr.org "GPT-5.5 pricing explained"):
--              GPT-5.5 5 / 0.50 / 30, GPT-5.4 2.50 / 0.25 / 15, mini 0.75 /
--              0.075 / 4.50, nano 0.20 / 0.02 / 1.25, the -pro models 30 / 180
--              with no cached rate; the GPT-5 family's cached input is 10 % of
--              its input price, GPT-4.1, o3 and o4-mini 25 %, GPT-4o, o1 and
--              o3-mini 50 %.
--   Google     ai.google.dev/gemini-api/docs/pricing (as quoted by models.dev,
--              providers/google gemini-3.6-flash, and the Gemini 3.1 Pro model
--              page): Gemini 3.1 Pro Preview 2 / 0.20 / 12 (prompts up to 200k
--              tokens), Gemini 3.6 Flash 0.75 / 0.075 / 3.75 (introductory,
--              through 2026-12-31); context-cache reads 10 % of the input price.
--   Long prompts (over 200k tokens at Google and Anthropic's 1M context, over
--   272k at OpenAI) cost more at every provider: the table carries the
--   standard tier only.
local M = {}

M.CHECKED = "2026-12-02"

-- the rule per provider: the first row whose pattern matches the model id gives
-- the factors of the input price (cached reads; cache writes where billed)
M.RULES = {
  anthropic = { { ".", cached = 0.1, cache_write = 1.25, cache_write_1h = 2 } },
  openai = {
    { "%-pro$", cached = 1 },           -- the -pro models list no cached rate
    { "^gpt%-5", cached = 0.1 },
    { "^gpt%-4%.1", cached = 0.25 },
    { "^gpt%-4o", cached = 0.5 },
    { "^o1", cached = 0.5 },
    { "^o3%-mini", cached = 0.5 },
    { "^o%d", cached = 0.25 },
  },
  gemini = { { ".", cached = 0.1 } },
}

-- the table: provider -> model id -> { input, cached, output }; cache writes
-- and any cached rate not written here follow the rule above
M.TABLE = {
  anthropic = {
    ["claude-opus-4-8"] = { input = 5, output = 25 },
    ["claude-opus-4-7"] = { input = 5, output = 25 },
    ["claude-opus-4-6"] = { input = 5, output = 25 },
    ["claude-sonnet-4-6"] = { input = 3, output = 15 },
    ["claude-sonnet-4-5"] = { input = 3, output = 15 },
    ["claude-haiku-4-5"] = { input = 1, output = 5 },
    ["claude-opus-4-1"] = { input = 15, output = 75 },
  },
  openai = {
    ["gpt-5.5"] = { input = 5, cached = 0.5, output = 30 },
    ["gpt-5.5-pro"] = { input = 30, output = 180 },
    ["gpt-5.4"] = { input = 2.5, cached = 0.25, output = 15 },
    ["gpt-5.4-pro"] = { input = 30, output = 180 },
    ["gpt-5.4-mini"] = { input = 0.75, cached = 0.075, output = 4.5 },
    ["gpt-5.4-nano"] = { input = 0.2, cached = 0.02, output = 1.25 },
  },
  gemini = {
    ["gemini-3.1-pro-preview"] = { input = 2, cached = 0.2, output = 12 },
    ["gemini-3.6-flash"] = { input = 0.75, cached = 0.075, output = 3.75 },
  },
}

-- the id without a date snapshot (-20251001, -2026-03-05)
local function base_id(model)
  return (tostring(model or ""):gsub("%-%d%d%d%d%-?%d%d%-?%d%d$", ""))
end

-- rule(provider, model) -> the factors of the provider's rule for this model, or nil
function M.rule(provider, model)
  for _, r in ipairs(M.RULES[provider] or {}) do
    if base_id(model):match(r[1]) then return r end
  end
  return nil
end

-- builtin(provider, model) -> a copy of the table's row for the id (or the id
-- followed by a date snapshot), or nil
function M.builtin(provider, model)
  local rows = M.TABLE[provider]
  if not rows or type(model) ~= "string" then return nil end
  local row = rows[model] or rows[base_id(model)]
  if not row then return nil end
  local c = {}
  for k, v in pairs(row) do c[k] = v end
  return c
end

-- fill(prices, provider, model) -> prices with the rule's rates added where
-- prices gives none (prices is changed in place)
function M.fill(prices, provider, model)
  local r = M.rule(provider, model)
  local p_in = tonumber(prices.input)
  if not (r and p_in) then return prices end
  for _, k in ipairs({ "cached", "cache_write", "cache_write_1h" }) do
    -- rounded to a millionth of a dollar per million tokens (0.1 x 3 is 0.3)
    if prices[k] == nil and r[k] then prices[k] = math.floor(r[k] * p_in * 1e6 + 0.5) / 1e6 end
  end
  return prices
end

-- complete(cfg) -> cfg with its prices filled (see the header); cfg.prices_from
-- says "built-in" when the prices came from the table
function M.complete(cfg)
  local provider = cfg.provider   -- openai-chat servers have no rule and no rows
  if type(cfg.prices) ~= "table" then
    local row = M.builtin(provider, cfg.model)
    if not row then return cfg end
    cfg.prices, cfg.prices_from = row, "the built-in table, checked " .. M.CHECKED
  end
  M.fill(cfg.prices, provider, cfg.model)
  return cfg
end

return M
