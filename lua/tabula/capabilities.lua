-- tabula.capabilities — what each model family accepts, as data (the format is
-- in docs/API.md, "Model capabilities"). A model is matched by its provider and
-- the first family whose pattern (a Lua pattern, anchored) matches its model id;
-- a models-file entry overrides any field with `capabilities = { ... }` or
-- names a family with `family = "..."`. No match: the provider's `default`
-- family (conservative: sends what it is asked and nothing else).
--
-- thinking: "none"      no reasoning switch (reasoning options are not sent)
--           "budget"    a token budget (Anthropic budget_tokens, Gemini thinkingBudget)
--           "adaptive"  Anthropic adaptive thinking with output_config.effort
--           "effort"    OpenAI reasoning.effort
--           "level"     Gemini thinkingConfig.thinkingLevel
--           "passthrough" OpenAI-compatible servers: sent as asked
-- sampling: the accepted range of each sampling parameter ({lo, hi}; {v, v}: only
--   the default v, so it is not sent); a parameter absent is refused;
--   sampling_thinking: the same while thinking is on (absent: as sampling).
-- output: the output-limit field and its maximum.
-- carry: the reasoning must go back in later turns (signed blocks, encrypted
--   items, thought signatures); images: image inputs accepted.
-- ids: the family's model ids as the provider's models pages list them
--   (checked 2026-12: platform.claude.com models overview, ai.google.dev
--   models, the OpenAI models list); an id followed by a date snapshot
--   (claude-haiku-4-5-20251001, gpt-5.4-2026-03-05) counts as its id. An id no
--   family lists gets one warning naming the closest listed one before any
--   call, and a "not found" answer names it (tabula.model_settings.check_id).
local ANY = { temperature = { 0, 2 }, top_p = { 0, 1 } }
local CLAUDE_SAMPLING = { temperature = { 0, 1 }, top_p = { 0, 1 }, top_k = { 0, 1e9 } }
local CLAUDE_THINKING = { temperature = { 1, 1 }, top_p = { 0.95, 1 } }
local FIXED = { temperature = { 1, 1 }, top_p = { 1, 1 } }

return {
  -- the reasoning scale, lowest first: --reasoning-effort names a point on it,
  -- and a family's own levels are matched to the nearest (ties go up)
  scale = { "none", "minimal", "low", "medium", "high", "xhigh", "max" },
  -- --reasoning-effort -> a thinking budget (budget families)
  budget_for_effort = { none = 0, minimal = 1024, low = 2048, medium = 8192, high = 24576, xhigh = 32768, max = 65536 },
  -- --thinking-budget -> an effort (adaptive, effort and level families): the
  -- first row whose bound is at least the budget
  effort_for_budget = { { 0, "none" }, { 1024, "minimal" }, { 4096, "low" }, { 16384, "medium" }, { 32768, "high" },
    { 65536, "xhigh" }, { math.huge, "max" } },

  -- the batch APIs' price factor per provider (tabula.batch; a models-file entry
  -- overrides it with batch_price_factor or gives batch_prices): every service
  -- bills batch calls at half its price. The prices themselves, and each
  -- provider's rule for cached input: tabula.prices
  batch = { openai = 0.5, ["openai-chat"] = 0.5, anthropic = 0.5, gemini = 0.5 },

  families = {
    -- Anthropic: Claude Opus 4.7 and later, and every Claude 5 model
    { name = "claude-adaptive", provider = "anthropic", match = { "^claude%-opus%-4[%-%.][7-9]", "^claude%-%a+%-[5-9]" },
      thinking = "adaptive", efforts = { "low", "medium", "high", "xhigh", "max" }, thinking_default = true,
      sampling = {}, output = { field = "max_tokens", max = 128000 }, carry = true, images = true,
      ids = { "claude-opus-4-7", "claude-sonnet-5" } },
    -- Claude 4.6: adaptive thinking, which may be off; with it on, temperature 1 only
    { name = "claude-4.6", provider = "anthropic", match = { "^claude%-%a+%-4[%-%.]6" },
      thinking = "adaptive", efforts = { "low", "medium", "high", "max" }, thinking_off = true,
      sampling = CLAUDE_SAMPLING, sampling_thinking = CLAUDE_THINKING, output = { field = "max_tokens", max = 64000 },
      carry = true, images = true, ids = { "claude-opus-4-6", "claude-sonnet-4-6" } },
    -- Claude 4.5 and before: budgeted thinking
    { name = "claude-budget", provider = "anthropic", match = { "^claude%-opus%-4[%-%.][0-5]", "^claude%-%a+%-4[%-%.][0-5]", "^claude%-opus%-4$",
      "^claude%-sonnet%-4$", "^claude%-3" },
      thinking = "budget", budget = { 1024, 63000 }, default_budget = 4096, thinking_off = true,
      sampling = CLAUDE_SAMPLING, sampling_thinking = CLAUDE_THINKING, output = { field = "max_tokens", max = 64000 },
      carry = true, images = true,
      ids = { "claude-haiku-4-5", "claude-opus-4-5", "claude-sonnet-4-5", "claude-opus-4-1", "claude-opus-4-0", "claude-sonnet-4-0",
        "claude-opus-4", "claude-sonnet-4" } },
    { name = "anthropic-default", provider = "anthropic", default = true,
      thinking = "budget", budget = { 1024, 1e9 }, default_budget = 4096, thinking_off = true,
      sampling = CLAUDE_SAMPLING, output = { field = "max_tokens" }, carry = true, images = true },

    -- OpenAI over Responses: reasoning models take no sampling but their defaults
    { name = "openai-reasoning", provider = "openai", match = { "^gpt%-5%.%d", "^gpt%-[6-9]" },
      thinking = "effort", efforts = { "none", "low", "medium", "high", "xhigh" }, thinking_off = true,
      sampling = FIXED, output = { field = "max_output_tokens", max = 128000 }, carry = true, images = true,
      ids = { "gpt-5.6", "gpt-5.5", "gpt-5.5-pro", "gpt-5.4", "gpt-5.4-pro", "gpt-5.4-mini", "gpt-5.4-nano", "gpt-5.2", "gpt-5.2-pro",
        "gpt-5.1" } },
    { name = "openai-gpt-5", provider = "openai", match = { "^gpt%-5" },
      thinking = "effort", efforts = { "minimal", "low", "medium", "high" }, thinking_off = true,
      sampling = FIXED, output = { field = "max_output_tokens", max = 128000 }, carry = true, images = true,
      ids = { "gpt-5", "gpt-5-mini", "gpt-5-nano" } },
    { name = "openai-o-series", provider = "openai", match = { "^o%d" },
      thinking = "effort", efforts = { "low", "medium", "high" },
      sampling = FIXED, output = { field = "max_output_tokens", max = 100000 }, carry = true, images = true,
      ids = { "o3", "o3-pro", "o3-mini", "o4-mini", "o1" } },
    { name = "openai-chat-model", provider = "openai", match = { "^gpt%-4" },
      thinking = "none", sampling = ANY, output = { field = "max_output_tokens", max = 32768 }, images = true,
      ids = { "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-4o", "gpt-4o-mini" } },
    { name = "openai-default", provider = "openai", default = true,
      thinking = "effort", sampling = ANY, output = { field = "max_output_tokens" }, images = true },

    -- Gemini 3: thinking levels; thinking cannot be turned off; temperature 1.0 recommended.
    -- The levels each model's docs list: Gemini 3.1 Pro low, medium, high (no
    -- minimal); Gemini 3 Pro low, high; the Flash and Flash-Lite models
    -- minimal, low, medium, high
    { name = "gemini-3", provider = "gemini", match = { "^gemini%-3%.%d+%-pro", "^gemini%-[4-9]", "^gemini%-pro%-latest" },
      thinking = "level", efforts = { "low", "medium", "high" }, thinking_default = true, sampling = ANY, recommended = { temperature = 1.0 },
      output = { field = "maxOutputTokens", max = 65536 }, carry = true, images = true,
      ids = { "gemini-3.1-pro-preview", "gemini-3.1-pro-preview-customtools", "gemini-pro-latest" } },
    { name = "gemini-3-flash", provider = "gemini", match = { "^gemini%-3[%.%d]*%-flash", "^gemini%-flash" },
      thinking = "level", efforts = { "minimal", "low", "medium", "high" }, thinking_default = true, sampling = ANY,
      recommended = { temperature = 1.0 }, output = { field = "maxOutputTokens", max = 65536 }, carry = true, images = true,
      ids = { "gemini-3-flash-preview", "gemini-3.5-flash", "gemini-3.6-flash", "gemini-3.5-flash-lite", "gemini-3.1-flash-lite",
        "gemini-3.1-flash-lite-preview", "gemini-flash-latest", "gemini-flash-lite-latest" } },
    { name = "gemini-3", provider = "gemini", match = { "^gemini%-3" },
      thinking = "level", efforts = { "low", "high" }, thinking_default = true, sampling = ANY, recommended = { temperature = 1.0 },
      output = { field = "maxOutputTokens", max = 65536 }, carry = true, images = true, ids = { "gemini-3-pro-preview" } },
    -- Gemini 2.5: thinking budgets (Pro cannot turn thinking off)
    { name = "gemini-2.5-pro", provider = "gemini", match = { "^gemini%-2%.5%-pro" },
      thinking = "budget", budget = { 128, 32768 }, dynamic_budget = -1, thinking_default = true, sampling = ANY,
      output = { field = "maxOutputTokens", max = 65536 }, carry = true, images = true, ids = { "gemini-2.5-pro" } },
    { name = "gemini-2.5", provider = "gemini", match = { "^gemini%-2%.5" },
      thinking = "budget", budget = { 0, 24576 }, dynamic_budget = -1, thinking_off = true, thinking_default = true, sampling = ANY,
      output = { field = "maxOutputTokens", max = 65536 }, carry = true, images = true,
      ids = { "gemini-2.5-flash", "gemini-2.5-flash-lite" } },
    { name = "gemini-default", provider = "gemini", default = true,
      thinking = "budget", budget = { 0, 1e9 }, dynamic_budget = -1, thinking_off = true, sampling = ANY,
      output = { field = "maxOutputTokens" }, images = true },

    -- OpenAI-compatible servers (local:, openrouter, deepseek, together,
    -- dashscope; provider "openai-chat"): Chat Completions, sent as asked
    { name = "openai-compatible", provider = "openai-chat", default = true,
      thinking = "passthrough", thinking_off = true, sampling = ANY, output = { field = "max_tokens" }, images = true },
  },
}
