-- tabula.providers.batches — the wire formats of the three batch APIs, one
-- adapter per kind (tabula.batch runs them):
--
--   openai     (providers openai and openai-chat: Responses and Chat
--              Completions bodies) a JSONL file of {custom_id, method, url,
--              body} uploaded to /files (purpose batch), POST /batches
--              {input_file_id, endpoint, completion_window "24h"}, GET
--              /batches/ID, the output and error files from
--              /files/ID/content, POST /batches/ID/cancel; at most 50,000
--              requests and 200 MB a batch, one model.
--   anthropic  POST /messages/batches {requests: [{custom_id, params}]},
--              GET /messages/batches/ID (processing_status "ended"), the
--              JSONL at results_url (succeeded, errored, canceled,
--              expired), POST .../cancel; at most 100,000 requests and 256 MB.
--   gemini     POST /models/M:batchGenerateContent with inline requests
--              ({request, metadata.key}), GET /batches/ID (metadata.state,
--              done, response.inlinedResponses), POST /batches/ID:cancel;
--              inline requests under 20 MB.
--
-- An adapter: limits { items, bytes }; line(item) -> what one item adds to
-- the batch (its size is counted against bytes); create(http, items, ctx, tag) -> id,
-- extra (journalled) | nil, err, the batch labelled with tag where the service
-- keeps a label (OpenAI metadata, Gemini display name); find(http, tag) -> the
-- id of the batch so labelled, or nil (absent where there is no label: Anthropic); poll(http, rec) -> { ended, status, raw };
-- results(http, rec, polled) -> cid -> { body = the reply object } |
-- { kind = "errored"|"expired"|"cancelled"|"failed", message }; cancel(http, rec).
-- http is tabula.batch's client: http:call(method, path_or_url, body [, ctype]) ->
-- decoded JSON (or text) | nil, err.
local json = require "tabula.json"

local M = {}

M.KIND = { openai = "openai", ["openai-chat"] = "openai", anthropic = "anthropic", gemini = "gemini" }

-- the path part of a base URL: "https://api.openai.com/v1" -> "/v1"
local function base_path(base) return base:match("^%a+://[^/]+(.*)$") or "" end

local function failed_all(items, kind, message)
  local out = {}
  for _, cid in ipairs(items) do out[cid] = { kind = kind, message = message } end
  return out
end

-- the message of an error object in any of the services' shapes
local function said(e)
  if type(e) ~= "table" then return tostring(e) end
  if type(e.error) == "table" then return said(e.error) end
  return tostring(e.message or e.code or e.type or json.canonical(e))
end

-- ---- OpenAI ----

local openai = { limits = { items = 50000, bytes = 190 * 1024 * 1024 } }

function openai.line(item, ctx)
  return json.canonical({ custom_id = item.cid, method = "POST", url = base_path(ctx.base) .. item.path, body = item.body })
end

function openai.create(http, items, ctx, tag)
  local lines = {}
  for i, it in ipairs(items) do lines[i] = openai.line(it, ctx) end
  local boundary = "tabula-batch-" .. tostring(math.random(1e9)) .. tostring(#items)
  local body = table.concat({
    "--" .. boundary, 'Content-Disposition: form-data; name="purpose"', "", "batch",
    "--" .. boundary, 'Content-Disposition: form-data; name="file"; filename="batch.jsonl"', "Content-Type: application/jsonl", "",
    table.concat(lines, "\n") .. "\n" .. "--" .. boundary .. "--", "" }, "\r\n")
  local f, err = http:call("POST", "/files", body, "multipart/form-data; boundary=" .. boundary)
  if not f then return nil, err end
  if type(f) ~= "table" or type(f.id) ~= "string" then return nil, { message = "the file upload answered without an id" } end
  local b
  b, err = http:call("POST", "/batches", json.canonical({ input_file_id = f.id, endpoint = base_path(ctx.base) .. items[1].path,
    completion_window = "24h", metadata = { tabula_tag = tag } }))
  if not b then return nil, err end
  if type(b) ~= "table" or type(b.id) ~= "string" then return nil, { message = "the batch was created without an id" } end
  return b.id, { file_id = f.id }
end

local OPENAI_ENDED = { completed = true, expired = true, cancelled = true, failed = true }

function openai.poll(http, rec)
  local b, err = http:call("GET", "/batches/" .. rec.id)
  if not b then return nil, err end
  if type(b) ~= "table" then return nil, { message = "the batch status is not a JSON object" } end
  return { ended = OPENAI_ENDED[b.status] == true, status = tostring(b.status), raw = b }
end

local function jsonl(text)
  local out = {}
  for line in tostring(text):gmatch("[^\n]+") do
    local d = json.decode(line)
    if type(d) == "table" then out[#out + 1] = d end
  end
  return out
end

function openai.results(http, rec, polled)
  local b = polled.raw
  if b.status == "failed" then
    local why = type(b.errors) == "table" and type(b.errors.data) == "table" and b.errors.data[1]
    return failed_all(rec.items, "failed", "the batch failed validation: " .. (why and said(why) or "no reason given"))
  end
  local out = {}
  for _, field in ipairs({ "output_file_id", "error_file_id" }) do
    local id = b[field]
    if type(id) == "string" then
      local text, err = http:call("GET", "/files/" .. id .. "/content", nil, nil, true)
      if not text then return nil, err end
      for _, line in ipairs(jsonl(text)) do
        local cid, r = line.custom_id, line.response
        if type(cid) == "string" then
          if type(r) == "table" and r.status_code == 200 and type(r.body) == "table" then out[cid] = { body = r.body }
          elseif type(r) == "table" and r.status_code then
            out[cid] = { kind = "errored", message = string.format("HTTP %s: %s", tostring(r.status_code), said(r.body)) }
          else
            local e = type(line.error) == "table" and line.error or {}
            local kind = e.code == "batch_expired" and "expired" or e.code == "batch_cancelled" and "cancelled" or "errored"
            out[cid] = { kind = kind, message = said(e) }
          end
        end
      end
    end
  end
  return out
end

-- the newest 100 batches: a kill between the create and its answer leaves no more behind
function openai.find(http, tag)
  local list, err = http:call("GET", "/batches?limit=100")
  if not list then return nil, err end
  for _, b in ipairs(type(list) == "table" and type(list.data) == "table" and list.data or {}) do
    if type(b) == "table" and type(b.metadata) == "table" and b.metadata.tabula_tag == tag then return b.id end
  end
  return nil
end

function openai.cancel(http, rec) return http:call("POST", "/batches/" .. rec.id .. "/cancel", "{}") end

-- ---- Anthropic ----

local anthropic = { limits = { items = 100000, bytes = 250 * 1024 * 1024 } }

function anthropic.line(item) return json.canonical({ custom_id = item.cid, params = item.body }) end

function anthropic.create(http, items)
  local reqs = json.array()
  for i, it in ipairs(items) do reqs[i] = { custom_id = it.cid, params = it.body } end
  local b, err = http:call("POST", "/messages/batches", json.canonical({ requests = reqs }))
  if not b then return nil, err end
  if type(b) ~= "table" or type(b.id) ~= "string" then return nil, { message = "the message batch was created without an id" } end
  return b.id, {}
end

function anthropic.poll(http, rec)
  local b, err = http:call("GET", "/messages/batches/" .. rec.id)
  if not b then return nil, err end
  if type(b) ~= "table" then return nil, { message = "the message batch is not a JSON object" } end
  return { ended = b.processing_status == "ended", status = tostring(b.processing_status), raw = b }
end

function anthropic.results(http, rec, polled)
  local url = polled.raw.results_url
  if type(url) ~= "string" then url = "/messages/batches/" .. rec.id .. "/results" end
  local text, err = http:call("GET", url, nil, nil, true)
  if not text then return nil, err end
  local out = {}
  for _, line in ipairs(jsonl(text)) do
    local r = type(line.result) == "table" and line.result or {}
    if type(line.custom_id) == "string" then
      if r.type == "succeeded" and type(r.message) == "table" then out[line.custom_id] = { body = r.message }
      else
        local kind = r.type == "expired" and "expired" or r.type == "canceled" and "cancelled" or "errored"
        out[line.custom_id] = { kind = kind, message = r.error and said(r.error) or ("the request was " .. tostring(r.type)) }
      end
    end
  end
  return out
end

function anthropic.cancel(http, rec) return http:call("POST", "/messages/batches/" .. rec.id .. "/cancel", "{}") end

-- ---- Gemini ----

local gemini = { limits = { items = 100000, bytes = 19 * 1024 * 1024 } }

function gemini.line(item) return json.canonical({ request = item.body, metadata = { key = item.cid } }) end

function gemini.create(http, items, _, tag)
  local reqs = json.array()
  for i, it in ipairs(items) do reqs[i] = { request = it.body, metadata = { key = it.cid } } end
  local path = items[1].path:gsub(":generateContent$", ":batchGenerateContent")
  local op, err = http:call("POST", path, json.canonical({ batch = { display_name = "tabula-" .. tag,
    input_config = { requests = { requests = reqs } } } }))
  if not op then return nil, err end
  if type(op) ~= "table" or type(op.name) ~= "string" then return nil, { message = "the batch was created without a name" } end
  return op.name, {}
end

-- BATCH_STATE_* (the REST reference) or JOB_STATE_* (the SDKs' spelling)
local function gemini_state(op)
  local s = type(op.metadata) == "table" and op.metadata.state or op.state
  return tostring(s):gsub("^BATCH_STATE_", ""):gsub("^JOB_STATE_", "")
end

function gemini.poll(http, rec)
  local op, err = http:call("GET", "/" .. rec.id)
  if not op then return nil, err end
  if type(op) ~= "table" then return nil, { message = "the batch is not a JSON object" } end
  local st = gemini_state(op)
  return { ended = op.done == true or st == "SUCCEEDED" or st == "FAILED" or st == "CANCELLED" or st == "EXPIRED",
    status = st:lower(), raw = op }
end

function gemini.results(_, rec, polled)
  local op, st = polled.raw, polled.status
  local r = type(op.response) == "table" and op.response or (type(op.metadata) == "table" and type(op.metadata.output) == "table" and op.metadata.output) or {}
  local list = type(r.inlinedResponses) == "table" and r.inlinedResponses.inlinedResponses
  local out = {}
  if type(list) ~= "table" then
    local kind = st == "expired" and "expired" or st == "cancelled" and "cancelled" or "failed"
    return failed_all(rec.items, kind, "the batch ended " .. st .. " without responses")
  end
  for i, e in ipairs(list) do
    local cid = type(e.metadata) == "table" and e.metadata.key or rec.items[i]   -- in order when no key came back
    if type(cid) == "string" then
      if type(e.response) == "table" then out[cid] = { body = e.response }
      else out[cid] = { kind = "errored", message = said(e.error) } end
    end
  end
  return out
end

function gemini.find(http, tag)
  local list, err = http:call("GET", "/batches?pageSize=100")
  if not list then return nil, err end
  for _, op in ipairs(type(list) == "table" and type(list.operations) == "table" and list.operations or {}) do
    local m = type(op) == "table" and type(op.metadata) == "table" and op.metadata or {}
    if m.displayName == "tabula-" .. tag then return op.name end
  end
  return nil
end

function gemini.cancel(http, rec) return http:call("POST", "/" .. rec.id .. ":cancel", "{}") end

M.openai, M.anthropic, M.gemini = openai, anthropic, gemini

-- for(provider) -> the adapter, or nil when the provider has no batch API
function M.adapter(provider) return M[M.KIND[provider] or ""] end

return M
