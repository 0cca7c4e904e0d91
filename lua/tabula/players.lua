-- tabula.players — the built-in players: no network, zero tokens, zero cost.
--   random        a uniformly random legal action, in the scenario's reply format
--   engine        the scenario's policy (e.g. the built-in search), in that format
--   replay:FILE   replies taken in order from a JSONL file: {"text": ...} per line,
--                 optionally {"key": K, "text": ...} to give each trial (ctx.key) its own sequence;
--                 a run's trials.jsonl also works (its actions' model texts, or a single-turn
--                 record's "reply", matched by trial id whatever the order of the file)
--   human         reads the reply from the terminal; end of input (Ctrl-D) or a
--                 line "quit" ends the session (a user error with status 0)
-- The scenario passes ctx = { legal_actions = {...}, policy = fn() -> action,
-- format = fn(action) -> text, rng = fn(n) -> 1..n, key = trial id }.
local json = require "tabula.json"
local terminal = require "tabula.terminal"
local fs = require "tabula.fs"
local cli = require "tabula.cli"

local M = {}

local function zero_reply(text)
  return { text = text, finish = "stop", usage = { input = 0, cached = 0, output = 0, reasoning = 0 },
           cost = 0, cached = false, attempts = 1, seconds = 0 }
end

local Player = {}
Player.__index = Player

local function load_replay(path)
  local text = fs.read_or_fail(path, "replay")
  local seqs, n = { [""] = {} }, 0
  for line in text:gmatch("[^\n]+") do
    n = n + 1
    local rec, err = json.decode(line, { lenient = true })
    if not rec then cli.fail("%s:%d: %s", path, n, err) end
    if type(rec) ~= "table" or getmetatable(rec) == json.array_mt then
      cli.fail("%s:%d: a replay line must be a JSON object (got %s)", path, n, rec == json.null and "null" or type(rec))
    end
    if type(rec.actions) == "table" then          -- a trial record from a run
      local key = tostring(rec.trial_id or rec.id or "")
      seqs[key] = seqs[key] or {}
      for _, a in ipairs(rec.actions) do
        if type(a) == "table" and type(a.model_text) == "string" then table.insert(seqs[key], a.model_text) end
      end
    elseif rec.key == nil and rec.trial_id ~= nil then   -- a single-turn trial record: its reply, by trial id
      if rec.status ~= "error" then
        if type(rec.reply) ~= "string" then cli.fail("%s:%d: trial %s has no \"reply\" string to replay", path, n, tostring(rec.trial_id)) end
        seqs[tostring(rec.trial_id)] = { rec.reply }   -- the last record of a trial wins
      end
    else
      local t = rec.text or rec.reply
      if type(t) ~= "string" then cli.fail("%s:%d: a replay line needs a \"text\" string", path, n) end
      local key = rec.key and tostring(rec.key) or ""
      seqs[key] = seqs[key] or {}
      table.insert(seqs[key], t)
    end
  end
  return seqs
end

function M.new(cfg)
  local p = setmetatable({ kind = cfg.player, cfg = cfg }, Player)
  if p.kind == "replay" then
    p.seqs = load_replay(cfg.file)
    p.pos = {}
  end
  return p
end

-- show(conversation, ctx): print to the person what the model would get since the
-- last call (every message but their own replies); images saved to files
function Player:show(conversation, ctx)
  local key = tostring(ctx.key or "")
  self.shown = self.shown or {}
  local from = (self.shown[key] or 0) + 1
  if from > #conversation then from = 1 end    -- a new conversation
  for i = from, #conversation do
    local m = conversation[i]
    if m.role ~= "assistant" then
      io.write("\n--- ", m.role, "\n")
      if type(m.content) == "string" then terminal.write(io.stdout, m.content, "\n")
      else
        for _, p in ipairs(m.content or {}) do
          if p.type == "image" then
            self.images = (self.images or 0) + 1
            local path = string.format("%s/tabula-play-%d.png", os.getenv("TMPDIR") or "/tmp", self.images)
            fs.write_or_fail(path, p.data or "")
            io.write("[image saved to ", path, "]\n")
          else terminal.write(io.stdout, p.text or "", "\n") end
        end
      end
    end
  end
  self.shown[key] = #conversation
end

function Player:reply(conversation, ctx)
  local kind = self.kind
  if kind == "random" then
    local actions = ctx.legal_actions or {}
    if #actions == 0 then return zero_reply(ctx.format and ctx.format(nil) or "") end
    local pick = ctx.rng and ctx.rng(#actions) or math.random(#actions)
    return zero_reply(ctx.format and ctx.format(actions[pick]) or actions[pick])
  elseif kind == "engine" then
    if not ctx.policy then error("the engine player needs the scenario's policy", 2) end
    local action = ctx.policy()
    return zero_reply(ctx.format and ctx.format(action) or action)
  elseif kind == "replay" then
    local key = ctx.key and self.seqs[tostring(ctx.key)] and tostring(ctx.key) or ""
    local seq = self.seqs[key]
    local i = (self.pos[key] or 0) + 1
    self.pos[key] = i
    if not seq or not seq[i] then
      return nil, { infra = true, kind = "replay", message = string.format(
        "replay %s has no reply %d%s", self.cfg.file, i, key ~= "" and (" for " .. key) or "") }
    end
    return zero_reply(seq[i])
  elseif kind == "human" then
    self:show(conversation, ctx)
    if not self.hinted then io.write("(your reply, one line; quit or Ctrl-D ends the session)\n"); self.hinted = true end
    io.write("> ")
    io.flush()
    local line = io.read("l")
    -- Ctrl-D (end of input) or quit ends the session; the trial is not recorded
    if line == nil or line:match("^%s*quit%s*$") then
      if line == nil then io.write("\n") end
      error(cli.user_error(string.format("play: session ended (%s); trial %s not recorded",
        line == nil and "end of input" or "quit", tostring(ctx.key or "?")), 0), 0)
    end
    if ctx.wrap_human then line = ctx.wrap_human(line) end
    return zero_reply(line)
  end
  error("unknown built-in player " .. tostring(kind))
end

return M
