-- tabula.agent_programs — the real agent programs a DECE participant may be
-- (issue 44): how to find each one and how to run it headless for one
-- decision, pointed at a model endpoint of tabula's (the metering proxy, or
-- the mock) and given its seat as the stdio MCP server "tabula".
--
--   local AP = require "tabula.agent_programs"
--   AP.names()                 -> { "claude-code", "codex", "gemini-cli", "opencode", "qwen-code" }
--   local e = AP.get("codex")  -- nil for an unknown name
--   e.wires                    -- the provider wire formats it can be pointed at
--   e.resume                   -- true when it can continue its own session (ctx.resume);
--                                 false: e.resume_why says why, and prepare refuses ctx.resume
--   e.locate()                 -> path of its executable | nil, why
--   e.prepare(ctx)             -> { argv = {...}, env = { NAME = value }, files = { { path =, text = } } }
--   AP.write_files(plan)       -- writes plan.files (their folders made)
--
-- ctx = { workspace = its cwd, home = its HOME (one per seat), wire = "openai" |
-- "openai-chat" | "anthropic" | "gemini", base_url = the endpoint for that wire,
-- key = the token it sends as its API key, model = model id, mcp = { command =
-- abs path, args = {...}, env = {...} optional }, prompt = this decision's
-- instruction, resume = continue its own previous session in this home }.
--
-- Every entry: headless (exec / -p / run), the tabula tools approved without
-- asking and the program's own tools (shell, files, web) switched off where it
-- allows, telemetry, update checks and other traffic off, its configuration
-- written under ctx.home or ctx.workspace only, the key only in an environment
-- variable, the model fixed. What each program cannot switch off, and why each
-- setting is there, is in docs/AGENT-PROGRAMS.md. Install them with
-- `make agent-programs` (build/agents, pinned versions).
local json = require "tabula.json"
local fs = require "tabula.fs"
local host = require "tabula.c.host"

local M = {}

M.WIRES = { openai = true, ["openai-chat"] = true, anthropic = true, gemini = true }

-- where `make agent-programs` installs them
function M.bin_dir() return host.root .. "/build/agents/node_modules/.bin" end

-- locator(bin) -> function() -> path | nil, why: build/agents first, then PATH
local function locator(bin, name)
  return function()
    local p = M.bin_dir() .. "/" .. bin
    if fs.kind(p) then return p end
    for dir in (host.getenv("PATH") or ""):gmatch("[^:]+") do
      local q = dir .. "/" .. bin
      if fs.kind(q) == "file" then return q end
    end
    return nil, string.format("%s is not installed (make agent-programs PROGRAMS=%s installs it in build/agents)", bin, name)
  end
end

local function check(ctx, entry)
  for _, k in ipairs({ "workspace", "home", "wire", "base_url", "key", "model", "prompt" }) do
    if type(ctx[k]) ~= "string" or ctx[k] == "" then error(entry.name .. ": prepare needs ctx." .. k, 3) end
  end
  for _, k in ipairs({ "workspace", "home" }) do
    if ctx[k]:sub(1, 1) ~= "/" then error(entry.name .. ": ctx." .. k .. " must be an absolute path", 3) end
  end
  if type(ctx.mcp) ~= "table" or type(ctx.mcp.command) ~= "string" then error(entry.name .. ": prepare needs ctx.mcp.command", 3) end
  local ok = false
  for _, w in ipairs(entry.wires) do ok = ok or w == ctx.wire end
  if not ok then
    error(string.format("%s cannot speak the %s wire (it speaks %s)", entry.name, ctx.wire, table.concat(entry.wires, ", ")), 3)
  end
  if ctx.resume and not entry.resume then
    error(string.format("%s cannot resume its own session (%s): give it fresh sessions", entry.name, entry.resume_why), 3)
  end
end

-- the environment every program gets: its own home (and XDG folders in it),
-- no colour, no update notices, no tracking
local function base_env(ctx)
  return {
    HOME = ctx.home,
    XDG_CONFIG_HOME = ctx.home .. "/.config",
    XDG_DATA_HOME = ctx.home .. "/.local/share",
    XDG_STATE_HOME = ctx.home .. "/.local/state",
    XDG_CACHE_HOME = ctx.home .. "/.cache",
    NO_COLOR = "1", FORCE_COLOR = "0", TERM = "dumb", CI = "1",
    NO_UPDATE_NOTIFIER = "1", NPM_CONFIG_UPDATE_NOTIFIER = "false", DO_NOT_TRACK = "1",
  }
end

local function args_of(ctx)
  local a = {}
  for i, v in ipairs(ctx.mcp.args or {}) do a[i] = v end
  return a
end

local function mcp_env(ctx)
  local e = {}
  for k, v in pairs(ctx.mcp.env or {}) do e[k] = v end
  return e
end

-- pretty JSON (sorted keys) for a config file a person may read
local function json_text(v) return assert(json.encode(v, { pretty = true })) .. "\n" end

-- TOML: a basic string, an array of strings
local function tq(s)
  return '"' .. s:gsub('[\\"]', "\\%0"):gsub("\n", "\\n"):gsub("\t", "\\t"):gsub("%c", function(c)
    return string.format("\\u%04x", c:byte())
  end) .. '"'
end
local function tarr(list)
  local out = {}
  for i, s in ipairs(list) do out[i] = tq(s) end
  return "[" .. table.concat(out, ", ") .. "]"
end

local entries = {}

-- codex (OpenAI Codex CLI, a Rust binary): `codex exec`, config in
-- $CODEX_HOME/config.toml, a custom model provider whose key is read from env_key.
entries.codex = {
  wires = { "openai" },
  bin = "codex",
  prepare = function(ctx)
    local chome = ctx.home .. "/.codex"
    local lines = {
      "# written by tabula (lua/tabula/agent_programs.lua) for one seat; docs/AGENT-PROGRAMS.md",
      "model = " .. tq(ctx.model),
      'model_provider = "tabula"',
      'approval_policy = "never"',
      'sandbox_mode = "read-only"',
      "check_for_update_on_startup = false",
      'web_search = "disabled"',
      "hide_agent_reasoning = true",
      "",
      "[model_providers.tabula]",
      'name = "tabula"',
      "base_url = " .. tq(ctx.base_url),
      'env_key = "TABULA_AGENT_KEY"',
      'wire_api = "responses"',
      "request_max_retries = 0",
      "stream_max_retries = 0",
      "",
      "[features]",
      "shell_tool = false",
      "apps = false",
      "plugins = false",
      "image_generation = false",
      "goals = false",
      "enable_request_compression = false",
      "",
      "[agents]",
      "enabled = false",
      "",
      "[analytics]",
      "enabled = false",
      "",
      "[mcp_servers.tabula]",
      "command = " .. tq(ctx.mcp.command),
      "args = " .. tarr(args_of(ctx)),
      "startup_timeout_sec = 60",
      "tool_timeout_sec = 1200",
      'default_tools_approval_mode = "approve"',
    }
    local menv = mcp_env(ctx)
    if next(menv) then
      lines[#lines + 1] = ""
      lines[#lines + 1] = "[mcp_servers.tabula.env]"
      local keys = {}
      for k in pairs(menv) do keys[#keys + 1] = k end
      table.sort(keys)
      for _, k in ipairs(keys) do lines[#lines + 1] = tq(k) .. " = " .. tq(menv[k]) end
    end
    local env = base_env(ctx)
    env.CODEX_HOME = chome
    env.TABULA_AGENT_KEY = ctx.key
    local argv = { "exec" }
    if ctx.resume then argv[#argv + 1] = "resume" end
    for _, a in ipairs({ "--skip-git-repo-check", "-m", ctx.model }) do argv[#argv + 1] = a end
    if ctx.resume then argv[#argv + 1] = "--last" else
      for _, a in ipairs({ "-C", ctx.workspace, "--color", "never" }) do argv[#argv + 1] = a end
    end
    argv[#argv + 1] = ctx.prompt
    return { argv = argv, env = env,
      files = { { path = chome .. "/config.toml", text = table.concat(lines, "\n") .. "\n" } } }
  end,
}

-- qwen-code (Qwen Code, a fork of gemini-cli): `qwen PROMPT`, settings in
-- ~/.qwen/settings.json; OpenAI-compatible, Anthropic or Gemini auth by env.
local QWEN_OWN_TOOLS = { "edit", "write_file", "read_file", "grep_search", "glob", "run_shell_command", "todo_write",
  "save_memory", "agent", "skill", "exit_plan_mode", "web_fetch", "web_search", "list_directory", "lsp",
  "ask_user_question", "cron_create", "cron_list", "cron_delete", "task_stop", "send_message", "monitor",
  "tool_search", "structured_output" }
entries["qwen-code"] = {
  wires = { "openai-chat", "anthropic", "gemini" },
  bin = "qwen",
  prepare = function(ctx)
    local auth = ({ ["openai-chat"] = "openai", anthropic = "anthropic", gemini = "gemini" })[ctx.wire]
    local server = { command = ctx.mcp.command, args = json.array(args_of(ctx)), trust = true, timeout = 1200000 }
    if next(mcp_env(ctx)) then server.env = mcp_env(ctx) end
    local settings = {
      mcpServers = { tabula = server },
      security = { auth = { selectedType = auth } },
      model = { name = ctx.model, skipNextSpeakerCheck = true, skipStartupContext = true, skipLoopDetection = true },
      memory = { enableManagedAutoMemory = false },
      tools = { exclude = json.array(QWEN_OWN_TOOLS) },
      privacy = { usageStatisticsEnabled = false },
      telemetry = { enabled = false },
      general = { disableAutoUpdate = true, disableUpdateNag = true },
      ide = { enabled = false },
    }
    local env = base_env(ctx)
    env.QWEN_DISABLE_AUTO_TITLE = "1"
    if ctx.wire == "openai-chat" then
      env.OPENAI_API_KEY, env.OPENAI_BASE_URL, env.OPENAI_MODEL = ctx.key, ctx.base_url, ctx.model
    elseif ctx.wire == "anthropic" then
      env.ANTHROPIC_API_KEY, env.ANTHROPIC_BASE_URL, env.ANTHROPIC_MODEL = ctx.key, ctx.base_url, ctx.model
    else
      env.GEMINI_API_KEY, env.GOOGLE_GEMINI_BASE_URL, env.GEMINI_MODEL = ctx.key, ctx.base_url, ctx.model
    end
    -- (no --allowed-mcp-server-names: an array option would take the prompt; the settings hold tabula alone)
    local argv = { "--approval-mode", "yolo", "--auth-type", auth, "-m", ctx.model }
    if ctx.resume then argv[#argv + 1] = "--continue" end
    argv[#argv + 1] = ctx.prompt
    return { argv = argv, env = env,
      files = { { path = ctx.home .. "/.qwen/settings.json", text = json_text(settings) } } }
  end,
}

-- gemini-cli (Google's Gemini CLI): `gemini -p PROMPT`, settings in
-- ~/.gemini/settings.json, the key in GEMINI_API_KEY, the endpoint in
-- GOOGLE_GEMINI_BASE_URL.
local GEMINI_OWN_TOOLS = { "list_directory", "read_file", "write_file", "glob", "search_file_content", "grep_search",
  "replace", "run_shell_command", "web_fetch", "google_web_search", "save_memory", "read_many_files",
  "write_todos", "codebase_investigator", "delegate_to_agent", "activate_skill", "enter_plan_mode", "exit_plan_mode",
  "ask_user", "get_internal_docs", "cli_help", "update_topic", "list_background_processes", "read_background_output",
  "invoke_agent" }
entries["gemini-cli"] = {
  wires = { "gemini" },
  -- its session file holds each tool result twice (in the model turn's toolCalls and as a
  -- user turn), and --resume sends both: the service refuses that history ("the number of
  -- function response parts is equal to the number of function call parts")
  resume = false,
  resume_why = "gemini-cli 0.61 sends each function response twice in a resumed conversation, which the service refuses",
  bin = "gemini",
  prepare = function(ctx)
    local server = { command = ctx.mcp.command, args = json.array(args_of(ctx)), trust = true, timeout = 1200000 }
    if next(mcp_env(ctx)) then server.env = mcp_env(ctx) end
    local settings = {
      mcpServers = { tabula = server },
      security = { auth = { selectedType = "gemini-api-key" }, folderTrust = { enabled = false } },
      model = { name = ctx.model, skipNextSpeakerCheck = true },
      tools = { exclude = json.array(GEMINI_OWN_TOOLS) },
      privacy = { usageStatisticsEnabled = false },
      telemetry = { enabled = false },
      general = { disableAutoUpdate = true, disableUpdateNag = true, enableAutoUpdate = false,
        enableAutoUpdateNotification = false },
      ide = { enabled = false },
      experimental = { codebaseInvestigatorSettings = { enabled = false } },
    }
    local env = base_env(ctx)
    env.GEMINI_API_KEY, env.GOOGLE_GEMINI_BASE_URL, env.GEMINI_MODEL = ctx.key, ctx.base_url, ctx.model
    env.GEMINI_CLI_NO_RELAUNCH = "true"
    local argv = { "--approval-mode", "yolo", "-m", ctx.model, "--allowed-mcp-server-names", "tabula", "--output-format", "text" }
    if ctx.resume then argv[#argv + 1] = "--resume"; argv[#argv + 1] = "latest" end
    argv[#argv + 1] = "-p"
    argv[#argv + 1] = ctx.prompt
    return { argv = argv, env = env,
      files = { { path = ctx.home .. "/.gemini/settings.json", text = json_text(settings) } } }
  end,
}

-- claude-code (Anthropic's Claude Code): `claude -p PROMPT`, the endpoint in
-- ANTHROPIC_BASE_URL, the key in ANTHROPIC_API_KEY, its state in
-- CLAUDE_CONFIG_DIR, the MCP server from a file given with --strict-mcp-config.
entries["claude-code"] = {
  wires = { "anthropic" },
  bin = "claude",
  prepare = function(ctx)
    local server = { type = "stdio", command = ctx.mcp.command, args = json.array(args_of(ctx)) }
    if next(mcp_env(ctx)) then server.env = mcp_env(ctx) end
    local mcp_file = ctx.home .. "/.claude/tabula-mcp.json"
    local settings = {
      permissions = { allow = json.array({ "mcp__tabula__observe", "mcp__tabula__act", "mcp__tabula" }),
        defaultMode = "dontAsk" },
      env = json.object(),
      includeCoAuthoredBy = false,
    }
    local env = base_env(ctx)
    env.CLAUDE_CONFIG_DIR = ctx.home .. "/.claude"
    env.ANTHROPIC_BASE_URL, env.ANTHROPIC_API_KEY = ctx.base_url, ctx.key
    env.ANTHROPIC_MODEL = ctx.model
    env.ANTHROPIC_SMALL_FAST_MODEL, env.ANTHROPIC_DEFAULT_HAIKU_MODEL = ctx.model, ctx.model
    env.ANTHROPIC_DEFAULT_SONNET_MODEL, env.ANTHROPIC_DEFAULT_OPUS_MODEL = ctx.model, ctx.model
    env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = "1"
    env.DISABLE_TELEMETRY, env.DISABLE_ERROR_REPORTING, env.DISABLE_AUTOUPDATER = "1", "1", "1"
    env.DISABLE_BUG_COMMAND, env.DISABLE_NON_ESSENTIAL_MODEL_CALLS = "1", "1"
    env.CLAUDE_CODE_DISABLE_TERMINAL_TITLE = "1"
    env.MCP_TIMEOUT, env.MCP_TOOL_TIMEOUT = "60000", "1200000"
    local argv = { "-p", "--model", ctx.model, "--mcp-config", mcp_file, "--strict-mcp-config",
      "--tools", "", "--allowedTools", "mcp__tabula__observe,mcp__tabula__act,mcp__tabula",
      "--permission-mode", "dontAsk", "--output-format", "text" }
    if ctx.resume then argv[#argv + 1] = "--continue" end
    argv[#argv + 1] = ctx.prompt
    return { argv = argv, env = env, files = {
      { path = mcp_file, text = json_text({ mcpServers = { tabula = server } }) },
      { path = ctx.home .. "/.claude/settings.json", text = json_text(settings) },
    } }
  end,
}

-- opencode (sst/opencode, a Bun binary): `opencode run PROMPT`, its config in
-- the file OPENCODE_CONFIG names (under ctx.home), a provider of its own
-- ("tabula") whose key is read from the environment ({env:...}).
local OPENCODE_OWN_TOOLS = { "bash", "edit", "write", "read", "grep", "glob", "list", "patch", "todowrite", "todoread",
  "webfetch", "websearch", "codesearch", "task", "skill", "lsp", "multiedit", "question" }
entries.opencode = {
  wires = { "openai-chat", "openai", "anthropic", "gemini" },
  bin = "opencode",
  prepare = function(ctx)
    local npm = ({ ["openai-chat"] = "@ai-sdk/openai-compatible", openai = "@ai-sdk/openai",
      anthropic = "@ai-sdk/anthropic", gemini = "@ai-sdk/google" })[ctx.wire]
    local tools, perm = { }, { }
    for _, t in ipairs(OPENCODE_OWN_TOOLS) do tools[t] = false; perm[t] = "deny" end
    tools["tabula_*"] = true
    perm["tabula_*"] = "allow"
    local server = { type = "local", command = json.array({ ctx.mcp.command, table.unpack(args_of(ctx)) }), enabled = true,
      timeout = 60000 }
    if next(mcp_env(ctx)) then server.environment = mcp_env(ctx) end
    local config = {
      ["$schema"] = "https://opencode.ai/config.json",
      model = "tabula/" .. ctx.model,
      small_model = "tabula/" .. ctx.model,
      provider = { tabula = { npm = npm, name = "tabula", options = { baseURL = ctx.base_url,
        apiKey = "{env:TABULA_AGENT_KEY}" }, models = { [ctx.model] = { name = ctx.model } } } },
      enabled_providers = json.array({ "tabula" }),
      mcp = { tabula = server },
      tools = tools,
      permission = perm,
      autoupdate = false,
      share = "disabled",
      snapshot = false,
      lsp = false,
      formatter = false,
    }
    local path = ctx.home .. "/.config/opencode/opencode.json"
    local env = base_env(ctx)
    env.OPENCODE_CONFIG = path
    env.TABULA_AGENT_KEY = ctx.key
    env.OPENCODE_DISABLE_AUTOUPDATE, env.OPENCODE_DISABLE_MODELS_FETCH = "true", "true"
    env.OPENCODE_DISABLE_LSP_DOWNLOAD, env.OPENCODE_DISABLE_DEFAULT_PLUGINS = "true", "true"
    env.OPENCODE_DISABLE_SHARE, env.OPENCODE_DISABLE_CLAUDE_CODE = "true", "true"
    env.OPENCODE_PURE = "1"   -- no external plugins
    -- at start it installs @opencode-ai/plugin into its config folder from npm, in the
    -- background (a failure is a logged warning): its registry is a closed local port
    env.NPM_CONFIG_REGISTRY = "http://127.0.0.1:9/"
    env.NPM_CONFIG_OFFLINE = "true"
    env.OPENCODE_DISABLE_EXTERNAL_SKILLS, env.OPENCODE_DISABLE_PROJECT_CONFIG = "true", "true"
    local argv = { "run", "-m", "tabula/" .. ctx.model }
    if ctx.resume then argv[#argv + 1] = "--continue" end
    argv[#argv + 1] = ctx.prompt
    return { argv = argv, env = env, files = { { path = path, text = json_text(config) } } }
  end,
}

for name, e in pairs(entries) do
  e.name = name
  if e.resume == nil then e.resume = true end
  e.locate = locator(e.bin, name)
  local prep = e.prepare
  e.prepare = function(ctx)
    check(ctx, e)
    return prep(ctx)
  end
end

-- names() -> the programs' names, sorted
function M.names()
  local out = {}
  for name in pairs(entries) do out[#out + 1] = name end
  table.sort(out)
  return out
end

-- get(name) -> the program's entry, or nil
function M.get(name) return entries[name] end

-- write_files(plan): writes each of plan.files (making its folder)
function M.write_files(plan)
  for _, f in ipairs(plan.files) do
    fs.mkdir_p(fs.dirname(f.path))
    assert(fs.write_atomic(f.path, f.text))
  end
end

return M
