-- Model families over loopback: what tabula sends to each (golden request
-- bodies), reasoning carried across the turns of a trial (signed thinking
-- blocks, encrypted reasoning items, thought signatures) as the mock server
-- checks it, settings a model refuses (a default adjusted and recorded, an
-- explicit option an error before any call), prompt-cache breakpoints and the
-- usage arithmetic, streamed and not.
local t = require "tabula.testing"
local mock = require "tests.mock"
local agent = require "tabula.agent"
local models = require "tabula.models"
local ms = require "tabula.model_settings"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"
local test, T = t.suite()

local F = require "tests.families"
local FAMILIES, ORDER, cfg, fast, bodies, carried, models_file = F.FAMILIES, F.ORDER, F.cfg, F.fast, F.bodies, F.carried, F.models_file

local conv = { { role = "system", content = "You play Xiangqi." }, { role = "user", content = "Your move?" } }

-- ---- the capability table ----

test("families by model name: adaptive-only Claude, budgeted Claude, OpenAI reasoning, Gemini 3 and 2.5, open servers", function()
  local want = {
    { "anthropic", "claude-opus-4-7", "claude-adaptive" }, { "anthropic", "claude-opus-4.7", "claude-adaptive" },
    { "anthropic", "claude-sonnet-5", "claude-adaptive" }, { "anthropic", "claude-opus-4-6", "claude-4.6" },
    { "anthropic", "claude-sonnet-4-5", "claude-budget" }, { "anthropic", "claude-opus-4-1", "claude-budget" },
    { "anthropic", "claude-haiku-4-5", "claude-budget" }, { "anthropic", "claude-next", "anthropic-default" },
    { "openai", "gpt-5", "openai-gpt-5" }, { "openai", "gpt-5.5", "openai-reasoning" }, { "openai", "o3", "openai-o-series" },
    { "openai", "o4-mini", "openai-o-series" }, { "openai", "gpt-4.1", "openai-chat-model" }, { "openai", "m", "openai-default" },
    { "gemini", "gemini-3-pro", "gemini-3" }, { "gemini", "gemini-3.1-pro", "gemini-3" }, { "gemini", "gemini-2.5-pro", "gemini-2.5-pro" },
    { "gemini", "gemini-2.5-flash", "gemini-2.5" }, { "openai-chat", "qwen3-8b", "openai-compatible" },
  }
  for _, w in ipairs(want) do
    t.eq(ms.family({ name = w[2], provider = w[1], model = w[2] }).name, w[3], w[1] .. ":" .. w[2])
  end
  -- the presets: openai is Responses, the compatible servers Chat Completions
  t.eq(models.resolve("openai:gpt-5.5").provider, "openai")
  for _, p in ipairs({ "openrouter:x/y", "deepseek:deepseek-chat", "together:a", "dashscope:qwen-max", "local:http://127.0.0.1:1/v1:q" }) do
    t.eq(models.resolve(p).provider, "openai-chat", p)
  end
  -- a models file names a family or overrides fields
  t.eq(ms.family({ name = "x", provider = "anthropic", model = "my-claude", family = "claude-adaptive" }).name, "claude-adaptive")
  local f = ms.family({ name = "x", provider = "openai", model = "gpt-4.1", capabilities = { output = { field = "max_output_tokens", max = 1000 } } })
  t.eq(f.output.max, 1000)
  t.contains(t.raises(function() ms.family({ name = "x", provider = "gemini", model = "g", family = "nope" }) end), "unknown family 'nope'")
end)

test("the protocol defaults a model refuses are adjusted and recorded; the mapping of effort and budget", function()
  -- ChessArena's paper sampling on an adaptive-only Claude and an OpenAI reasoning model
  for _, fam in ipairs({ "claude", "gpt" }) do
    local sent, adj = ms.fit(cfg(fam), { temperature = 0.2, top_p = 1, max_tokens = 4096 }, {})
    t.eq({ sent.temperature, sent.top_p }, { nil, fam == "gpt" and 1 or nil }, fam)
    t.eq(adj[1].setting, "temperature")
    t.eq({ adj[1].asked, adj[1].sent }, { 0.2, "not sent" })
  end
  -- Jianghu108: thinking on, 131072 output tokens, on a budgeted Claude: clamped to its maximum
  local sent, adj = ms.fit(cfg({ provider = "anthropic", model = "claude-sonnet-4-5" }), { think = true, max_tokens = 131072 }, {})
  t.eq({ sent.max_tokens, sent.thinking.budget }, { 64000, 4096 })
  t.eq({ adj[1].setting, adj[1].asked, adj[1].sent }, { "max-tokens", 131072, 64000 })
  -- TsuGO's temperature 0.7 on a budgeted Claude with thinking on: only 1 is taken
  sent, adj = ms.fit(cfg({ provider = "anthropic", model = "claude-sonnet-4-5" }), { temperature = 0.7, thinking_budget = 8000, max_tokens = 32768 }, {})
  t.eq({ sent.temperature, sent.thinking.budget, #adj }, { nil, 8000, 1 })
  t.contains(adj[1].why, "while thinking")
  -- Gemini 3 takes 0.7 (1.0 is only recommended) but cannot turn thinking off
  sent, adj = ms.fit(cfg("gemini"), { temperature = 0.7, think = false }, {})
  t.eq({ sent.temperature, sent.thinking.level }, { 0.7, "low" })
  t.eq({ adj[1].setting, adj[1].sent }, { "think", "thinkingLevel low" })
  -- the mapping: a budget to an effort or level, an effort to a budget, nearest levels
  t.eq(ms.fit(cfg("claude"), { thinking_budget = 131072 }, {}).thinking, { effort = "max" })
  t.eq(ms.fit(cfg("gpt"), { thinking_budget = 8000 }, {}).thinking, { effort = "medium" })
  t.eq(ms.fit(cfg("gemini"), { reasoning_effort = "medium" }, {}).thinking, { level = "high" })   -- gemini-3-pro: low, high
  t.eq(ms.fit(cfg({ provider = "anthropic", model = "claude-opus-4-1" }), { reasoning_effort = "high" }, {}).thinking, { budget = 24576 })
  t.eq(ms.fit(cfg({ provider = "openai", model = "o3" }), { reasoning_effort = "minimal" }, {}).thinking, { effort = "low" })
  -- --no-think on OpenAI: the lowest effort there is (o-series cannot go below low)
  t.eq(ms.fit(cfg("gpt"), { think = false }, {}).thinking, { effort = "none" })
  t.eq(ms.fit(cfg({ provider = "openai", model = "gpt-5" }), { think = false }, {}).thinking, { effort = "minimal" })
  sent, adj = ms.fit(cfg({ provider = "openai", model = "o3" }), { think = false }, {})
  t.eq({ sent.thinking, adj[1].sent }, { { effort = "low" }, "effort low" })
  -- an adaptive-only Claude thinks by default; --no-think leaves thinking out
  t.eq(ms.fit(cfg("claude"), {}, {}).thinking, {})
  t.eq(ms.fit(cfg("claude"), { think = false }, {}).thinking, { off = true })
  -- a non-reasoning model: reasoning options are not sent
  sent, adj = ms.fit(cfg({ provider = "openai", model = "gpt-4.1" }), { reasoning_effort = "high" }, {})
  t.eq({ sent.thinking, adj[1].setting, adj[1].sent }, { nil, "reasoning-effort", "not sent" })
end)

test("an explicit option the model refuses is an error naming the option, the model and what it accepts, before any call", function()
  local s = mock.start({ { reply = "x" } })
  local e = t.raises(function() agent.new(cfg("claude", s), fast({ settings = { temperature = 0.2 }, explicit = { temperature = true } })) end)
  t.contains(e, "--temperature 0.2: model mock-claude-opus-4-7 (family claude-adaptive) accepts no temperature")
  e = t.raises(function() agent.new(cfg("gpt", s), fast({ settings = { top_p = 0.9 }, explicit = { ["top-p"] = true } })) end)
  t.contains(e, "--top-p 0.9: model mock-gpt-5.5 (family openai-reasoning) accepts only the default top_p 1")
  e = t.raises(function() agent.new(cfg("gemini", s), fast({ settings = { think = false }, explicit = { think = true } })) end)
  t.contains(e, "(family gemini-3) cannot turn thinking off")
  -- through tabula run: the command fails, and the mock saw nothing
  local dir = t.tmpdir()
  fs.write_atomic(dir .. "/models.lua", string.format([[return { c = { provider = "anthropic", model = "claude-opus-4-7",
    base_url = %q, key_env = "TABULA_NO_KEY", optional_key = true } }]], s.url .. "/v1"))
  e = t.raises(function()
    t.run_scenario("scenarios/xiangqibench.lua", { "--model", "c", "--models", dir .. "/models.lua", "--temperature", "0.3",
      "--out", dir .. "/run", "--quiet", "--trials", "1" })
  end)
  t.contains(e, "--temperature 0.3: model c (family claude-adaptive) accepts no temperature")
  t.eq(s:requests(), 0)
  s:close()
end)

test("a scenario's own setting (TsuGO's robustness temperature 0) is fitted too: adjusted, never an error", function()
  local a = agent.new(cfg("gpt"), fast({ settings = { temperature = 1 }, explicit = { temperature = true } }))
  t.eq({ a.settings.temperature, #a.adjusted }, { 1, 0 }, "the default 1 is taken")
  a:adjust({ temperature = 0 })
  t.eq(a.settings.temperature, nil)
  t.eq({ a.adjusted[1].setting, a.adjusted[1].asked, a.adjusted[1].sent }, { "temperature", 0, "not sent" })
  local g = agent.new(cfg("gemini"), fast({ settings = { temperature = 0.7 } }))
  g:adjust({ temperature = 0 })
  t.eq(g.settings.temperature, 0, "Gemini takes it")
end)

test("a 400 about a parameter says which option to try without", function()
  local s = mock.start({ { reply = "x" } })
  -- a models-file entry that claims the wrong family: tabula sends temperature, the service refuses it
  local a = agent.new(cfg("claude", s, { family = "claude-budget" }), fast({ settings = { temperature = 0.5 } }))
  local r, err = a:reply(conv)
  t.eq(r, nil)
  t.contains(err.message, "HTTP 400: temperature: Extra inputs are not permitted (the model refused a setting: try without --temperature")
  t.eq(ms.hint("messages.1.content.0: Invalid `signature` in `thinking` block"), "", "not a setting to drop")
  s:close()
end)

-- ---- golden request bodies ----

-- a turn each provider gave before, to be sent back
local TURNS = {
  anthropic = { provider = "anthropic", content = json.array({ { type = "thinking", thinking = "The chariot can mate.", signature = "sig-0001" },
    { type = "text", text = "think b1b9" } }) },
  openai = { provider = "openai", items = json.array({ { type = "reasoning", id = "rs_01", summary = json.array({ { type = "summary_text", text = "The chariot can mate." } }),
    encrypted_content = "enc-0001" }, { type = "message", id = "msg_01", role = "assistant", status = "completed",
    content = json.array({ { type = "output_text", text = "think b1b9", annotations = json.array() } }) } }) },
  gemini = { provider = "gemini", parts = json.array({ { text = "The chariot can mate.", thought = true }, { text = "think b1b9", thoughtSignature = "sig-0002" } }) },
}

local GOLDEN_CASES = {
  { "claude-adaptive", { provider = "anthropic", model = "claude-opus-4-7" }, { reasoning_effort = "high", max_tokens = 32000 } },
  { "claude-budget", { provider = "anthropic", model = "claude-sonnet-4-5" }, { thinking_budget = 8000, temperature = 0.2 } },
  { "openai-reasoning", { provider = "openai", model = "gpt-5.5" }, { reasoning_effort = "high", max_tokens = 16384, temperature = 0.2 } },
  { "openai-chat-model", { provider = "openai", model = "gpt-4.1" }, { temperature = 0.2, max_tokens = 4096 } },
  { "gemini-3", { provider = "gemini", model = "gemini-3-pro" }, { reasoning_effort = "low", temperature = 1.0 } },
  { "gemini-2.5", { provider = "gemini", model = "gemini-2.5-flash" }, { thinking_budget = 2048 } },
  { "openai-compatible", { provider = "openai-chat", model = "qwen3-8b" }, { temperature = 0.7, max_tokens = 4096, think = true } },
}

test("golden request bodies per provider and family (a second turn carrying the first)", function()
  for _, case in ipairs(GOLDEN_CASES) do
    local name, f = case[1], case[2]
    local turn = TURNS[f.provider]
    local conversation = { conv[1], conv[2], { role = "assistant", content = "think b1b9", turn = turn }, { role = "user", content = "Noted." } }
    local got, want = F.golden(name, case, conversation)
    t.eq(got, want, name)
  end
end)

-- ---- reasoning carried across turns, checked by the mock ----

local RULES = {
  { match = "Your move?", reply = "think b1b9", reasoning = "The chariot on b1 can reach b9." },
  { match = "Noted.", reply = "move b1b9", reasoning = "Mate now." },
}

for _, fam in ipairs({ "claude", "gpt", "gemini" }) do
  for _, stream in ipairs({ false, true }) do
    test(fam .. ": turn 2 carries turn 1's reasoning unchanged" .. (stream and " (streamed)" or ""), function()
      local s = mock.start(RULES)
      local a = agent.new(cfg(fam, s), fast({ stream = stream }))
      local c = { conv[1], conv[2] }
      local r1, err = a:reply(c)
      t.ok(r1, err and err.message)
      t.eq(r1.reasoning, "The chariot on b1 can reach b9.", "the reasoning is recorded")
      t.ok(r1.turn, "the reply carries its provider turn")
      c[#c + 1] = agent.assistant(r1)
      c[#c + 1] = { role = "user", content = "Noted." }
      local r2, err2 = a:reply(c)
      t.ok(r2, err2 and err2.message)
      t.eq(r2.text, "move b1b9")
      local b = bodies(s)
      local sent = carried(fam, b[2])
      t.ok(sent, "turn 2 sends turn 1's reasoning back")
      if fam == "claude" then
        t.eq(sent.thinking, "The chariot on b1 can reach b9.")
        t.eq(sent.signature, r1.turn.content[1].signature)
        t.eq(b[1].thinking, { type = "adaptive", display = "summarized" })
      elseif fam == "gpt" then
        t.eq({ sent.id, sent.encrypted_content }, { r1.turn.items[1].id, r1.turn.items[1].encrypted_content })
        t.eq({ b[2].store, b[2].include }, { false, { "reasoning.encrypted_content" } })
        t.eq(b[2].input[3].type, "message", "the message item follows its reasoning item")
      else
        t.eq(sent.text, "think b1b9")
        t.eq(b[1].generationConfig.thinkingConfig, { includeThoughts = true })
      end
      s:close()
    end)
  end

  test(fam .. ": a changed signature or a dropped turn is refused with the service's words", function()
    local s = mock.start(RULES)
    local a = agent.new(cfg(fam, s), fast())
    local r1 = assert(a:reply({ conv[1], conv[2] }))
    local plain = { conv[1], conv[2], { role = "assistant", content = r1.text }, { role = "user", content = "Noted." } }
    -- the agent that was answered puts the turn back even on a plain-text append
    local r, err = a:reply(plain)
    t.ok(r, err and err.message)
    t.ok(carried(fam, bodies(s)[2]))
    -- changed (each refusal from another model name: a 400 stops that model's later calls)
    local turn = json.decode(json.canonical(r1.turn))
    if fam == "claude" then turn.content[1].thinking = "Something else."
    elseif fam == "gpt" then turn.items[1].encrypted_content = "enc-forged"
    else turn.parts[#turn.parts].thoughtSignature = "sig-forged" end
    local forged = agent.new(cfg(fam, s, { name = "forged" }), fast())
    r, err = forged:reply({ conv[1], conv[2], { role = "assistant", content = r1.text, turn = turn }, { role = "user", content = "Noted." } })
    t.eq(r, nil)
    t.eq(err.status, 400)
    t.contains(err.message, ({ claude = "Invalid `signature` in `thinking` block", gpt = "could not be verified",
      gemini = "Thought signature is not valid" })[fam])
    -- dropped: a fresh agent (which never saw the reply) sends the text alone
    local b = agent.new(cfg(fam, s, { name = "dropped" }), fast())
    r, err = b:reply(plain)
    t.eq(r, nil)
    t.contains(err.message, ({ claude = "Expected `thinking` or `redacted_thinking`", gpt = "missing from the input",
      gemini = "missing its thought_signature" })[fam])
    s:close()
  end)
end

test("claude: redacted_thinking blocks come back verbatim, in order, streamed and not", function()
  local s = mock.start({ { match = "Your move?", reply = "think b1b9", reasoning = "R1", redacted = true }, { match = "Noted.", reply = "move b1b9" } })
  for _, stream in ipairs({ false, true }) do
    local a = agent.new(cfg("claude", s, { name = "r" .. tostring(stream) }), fast({ stream = stream }))
    local r1 = assert(a:reply({ conv[1], conv[2] }))
    t.eq({ r1.turn.content[1].type, r1.turn.content[2].type, r1.turn.content[3].type }, { "redacted_thinking", "thinking", "text" })
    local r2, err = a:reply({ conv[1], conv[2], agent.assistant(r1), { role = "user", content = "Noted." } })
    t.ok(r2, err and err.message)
    local b = bodies(s)
    t.eq(b[#b].messages[2].content[1], r1.turn.content[1], "the redacted block, unchanged")
  end
  -- a changed redacted block is refused
  local a = agent.new(cfg("claude", s, { name = "forger" }), fast())
  local r1 = assert(a:reply({ conv[1], conv[2] }))
  local turn = json.decode(json.canonical(r1.turn))
  turn.content[1].data = "red-sig-0000000000000000"
  local _, err = a:reply({ conv[1], conv[2], { role = "assistant", content = r1.text, turn = turn }, { role = "user", content = "Noted." } })
  t.contains(err.message, "Invalid `data` in `redacted_thinking` block")
  s:close()
end)

test("a cached replay returns the same turn, and the next request carries it", function()
  for _, f in ipairs({ "claude", "gpt", "gemini" }) do
    local s = mock.start(RULES)
    local dir = t.tmpdir()
    local first = agent.new(cfg(f, s), fast({ cache_dir = dir .. "/cache" }))
    local r1 = assert(first:reply({ conv[1], conv[2] }))
    -- a resumed run: another agent (another process) replays turn 1 from the cache
    local again = agent.new(cfg(f, s, { name = "resumed" }), fast({ cache_dir = dir .. "/cache" }))
    local r1c = assert(again:reply({ conv[1], conv[2] }))
    t.eq(r1c.cached, true, f)
    t.eq(r1c.turn, r1.turn, f .. ": the same provider turn")
    local r2, err = again:reply({ conv[1], conv[2], { role = "assistant", content = r1c.text }, { role = "user", content = "Noted." } })
    t.ok(r2, f .. ": " .. tostring(err and err.message))
    t.eq(s:requests(), 2, f .. ": turn 1 once, turn 2 once")
    t.ok(carried(f, bodies(s)[2]), f)
    s:close()
  end
end)

test("the mock refuses what the services refuse (thinking modes, sampling, both thinking fields)", function()
  local s = mock.start({ { reply = "x" } })
  local function post(path, body)
    local http = require "tabula.http"
    local res = assert(http.request({ method = "POST", url = s.url .. path, body = json.canonical(body), timeout = 5,
      headers = { "Content-Type: application/json" } }))
    return res.status, res.body
  end
  local msgs = json.array({ { role = "user", content = "hi" } })
  local cases = {
    { "/v1/messages", { model = "claude-opus-4-7", max_tokens = 9000, messages = msgs, thinking = { type = "enabled", budget_tokens = 4096 } },
      "is not supported for this model. Use \\\"thinking.type.adaptive\\\" and \\\"output_config.effort\\\"" },
    { "/v1/messages", { model = "claude-opus-4-7", max_tokens = 100, messages = msgs, temperature = 0.2 }, "temperature: Extra inputs are not permitted" },
    { "/v1/messages", { model = "claude-sonnet-4-5", max_tokens = 9000, messages = msgs, temperature = 0.2,
      thinking = { type = "enabled", budget_tokens = 4096 } }, "`temperature` may only be set to 1 when thinking is enabled" },
    { "/v1/messages", { model = "claude-sonnet-4-5", max_tokens = 4096, messages = msgs, thinking = { type = "enabled", budget_tokens = 4096 } },
      "`max_tokens` must be greater than `thinking.budget_tokens`" },
    { "/v1/messages", { model = "claude-sonnet-4-5", max_tokens = 100, messages = msgs, thinking = { type = "adaptive" } },
      "does not match any of the expected tags" },
    { "/v1/responses", { model = "gpt-5.5", input = msgs, temperature = 0.2 }, "Unsupported parameter: 'temperature' is not supported with this model." },
    { "/v1/responses", { model = "gpt-4.1", input = msgs, reasoning = { effort = "high" } }, "'reasoning.effort' is not supported with this model" },
    { "/v1/responses", { model = "gpt-5.5", input = json.array({ { type = "reasoning", id = "rs_x", summary = json.array() } }), store = false },
      "Items are not persisted when `store` is set to false" },
    { "/v1beta/models/gemini-3-pro:generateContent", { contents = json.array({ { role = "user", parts = json.array({ { text = "hi" } }) } }),
      generationConfig = { thinkingConfig = { thinkingBudget = 1024, thinkingLevel = "low" } } }, "only set one of thinking budget and thinking level" },
    { "/v1beta/models/gemini-3-pro:generateContent", { contents = json.array({ { role = "user", parts = json.array({ { text = "hi" } }) } }),
      generationConfig = { thinkingConfig = { thinkingBudget = 0 } } }, "Thinking can't be disabled for this model" },
  }
  for i, case in ipairs(cases) do
    local status, body = post(case[1], case[2])
    t.eq(status, 400, "case " .. i)
    t.contains(body, case[3])
  end
  -- and takes what tabula sends for each family
  for _, fam in ipairs(ORDER) do
    local a = agent.new(cfg(fam, s), fast({ settings = { temperature = 0.2, top_p = 1, max_tokens = 200000, think = true } }))
    local r, err = a:reply(conv)
    t.ok(r, fam .. ": " .. tostring(err and err.message))
  end
  s:close()
end)

-- ---- prompt caching and usage ----

test("cache breakpoints after the fixed prefix; one usage convention; the write premium priced", function()
  local s = mock.start({ { match = "Your move?", reply = "think b1b9", reasoning = "R", usage = { input = 1000, cached = 0, cache_write = 900, output = 10 } },
    { match = "Noted.", reply = "move b1b9", usage = { input = 1200, cached = 900, cache_write = 250, output = 20 } } })
  for _, stream in ipairs({ false, true }) do
    local a = agent.new(cfg("claude", s), fast({ stream = stream }))
    a.cfg.prices = { input = 5, cached = 0.5, output = 25 }
    local r1 = assert(a:reply({ conv[1], conv[2] }))
    t.eq(r1.usage.input, 1000, "input counts cache writes")
    t.eq({ r1.usage.cached, r1.usage.cache_write }, { 0, 900 })
    -- 1e-6 * (5 * (1000 - 0 - 900) + 6.25 * 900 + 25 * 10)
    t.near(r1.cost, 1e-6 * (500 + 5625 + 250), 1e-12)
    local r2 = assert(a:reply({ conv[1], conv[2], agent.assistant(r1), { role = "user", content = "Noted." } }))
    t.eq({ r2.usage.input, r2.usage.cached, r2.usage.cache_write }, { 1200, 900, 250 })
    t.near(r2.cost, 1e-6 * (5 * 50 + 0.5 * 900 + 6.25 * 250 + 25 * 20), 1e-12)
  end
  local b = bodies(s)
  -- first call: the system prompt only; the second: system, the first and the last user message
  t.eq(b[1].system[1].cache_control, { type = "ephemeral" })
  t.eq(b[1].messages[1].content, "Your move?", "a one-turn request gets no message breakpoint")
  t.eq(b[2].messages[1].content[1].cache_control, { type = "ephemeral" })
  t.eq(b[2].messages[3].content[1].cache_control, { type = "ephemeral" })
  t.eq(b[2].messages[2].content, { { type = "thinking", thinking = "R", signature = b[2].messages[2].content[1].signature },
    { type = "text", text = "think b1b9" } }, "the carried turn is sent unchanged, without a breakpoint")
  -- --no-prompt-cache: none
  local a = agent.new(cfg("claude", s), fast({ prompt_cache = false }))
  assert(a:reply({ conv[1], conv[2] }))
  local last = bodies(s)[#bodies(s)]
  t.eq(type(last.system), "string")
  -- OpenAI: prompt_cache_key per run, kept out of the response cache's key; cached reads inside input
  s:script({ { reply = "x", usage = { input = 800, cached = 600, output = 5 } } })
  local dir = t.tmpdir()
  local g = agent.new(cfg("gpt", s), fast({ cache_dir = dir .. "/cache" }))
  local r = assert(g:reply(conv))
  t.eq({ r.usage.input, r.usage.cached }, { 800, 600 })
  t.near(r.cost, 1e-6 * (2 * 200 + 0.2 * 600 + 8 * 5), 1e-12)
  t.contains(bodies(s)[1].prompt_cache_key, "tabula-")
  t.eq(models.cost({ input = 2 }, { input = 100, cache_write = 100, cache_write_1h = 100 }), 1e-6 * 400, "1h writes at 2x input")
  s:close()
end)

-- ---- whole scenarios over the mock, one per family ----


test("XiangqiBench (sighted, restricted) over the mock as each family, streamed and not: turn 2 carries turn 1's reasoning; no 400", function()
  local s = mock.start({
    { match = "The game begins", reply = "```bash\nthink the chariot mates on b9\n```", reasoning = "The chariot on b1 can reach b9." },
    { match = "Noted.", reply = "```bash\nmove b1b9\n```", reasoning = "Mate now." } })
  local dir = t.tmpdir()
  local mf = models_file(dir, s)
  fs.write_atomic(dir .. "/cases.jsonl", json.canonical({ id = "mate1", fen = "3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1",
    first_winning_move = "b1b9", win_in_plies = 1, category = "forced_mate" }) .. "\n")
  for _, run in ipairs({ { "claude" }, { "gpt" }, { "gemini" }, { "open" }, { "claude", true }, { "gpt", true }, { "gemini", true } }) do
    local fam, stream = run[1], run[2]
    s:script({
      { match = "The game begins", reply = "```bash\nthink the chariot mates on b9\n```", reasoning = "The chariot on b1 can reach b9." },
      { match = "Noted.", reply = "```bash\nmove b1b9\n```", reasoning = "Mate now." } })
    local out = dir .. "/run-" .. fam .. (stream and "-stream" or "")
    t.run_scenario("scenarios/xiangqibench.lua", { "--model", fam, "--models", mf, "--cases", dir .. "/cases.jsonl",
      "--setting", "sighted,restricted", "--trials", "1", "--out", out, "--quiet", stream and "--stream" or "--no-stream" })
    local recs = records.read(out .. "/trials.jsonl")
    t.eq(#recs, 2, fam)
    for _, r in ipairs(recs) do
      t.eq({ r.reason, r.calls }, { "win_mate", 2 }, fam .. " " .. tostring(r.setting))
      t.eq(r.actions[1].reasoning, "The chariot on b1 can reach b9.", fam .. ": reasoning recorded")
    end
    local b = bodies(s)
    t.eq(#b, 4, fam .. ": two trials of two calls, none refused")
    local log = s:log()
    t.eq(b[1].stream == true or log[1].path:find("streamGenerateContent", 1, true) ~= nil, stream == true, fam .. ": streamed as asked")
    local carrying = 0
    for _, body in ipairs(b) do if carried(fam, body) then carrying = carrying + 1 end end
    t.eq(carrying, fam == "open" and 0 or 2, fam .. ": each trial's turn 2 carries its turn 1's reasoning")
    local meta = json.read_file(out .. "/run.json")
    t.eq(type(meta.settings_adjusted), "table")
  end
  s:close()
end)

return T
