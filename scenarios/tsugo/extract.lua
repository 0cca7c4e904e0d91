-- scenarios/tsugo/extract.lua — from a response to a validated process tree:
-- the built-in extractor (the engine player's narrative, no network) or an
-- extractor model given the fixed instruction prompts/tsugo/extractor.txt and
-- the schema prompts/tsugo/tree_schema.txt. Model extractions go through the
-- agent, so they are cached like any model call.
local trees = require "scenarios.tsugo.trees"
local narrative = require "scenarios.tsugo.narrative"

local M = {}

local SIDE_NAMES = { B = "Black", W = "White" }

-- visible(reply) -> the visible reasoning the tree is read from: the reasoning
-- channel (when the provider exposes one) followed by the answer text
function M.visible(reply)
  local parts = {}
  if type(reply.reasoning) == "string" and reply.reasoning ~= "" then parts[#parts + 1] = reply.reasoning end
  if type(reply.text) == "string" and reply.text ~= "" then parts[#parts + 1] = reply.text end
  return table.concat(parts, "\n\n")
end

-- instruction(P, to_play, text) -> the extractor's message
function M.instruction(P, to_play, text)
  return P:fill("extractor", { side = SIDE_NAMES[to_play], schema = P:raw("tree_schema"), response = text })
end

-- run(spec) -> result, or nil, infra error (from the extractor model)
-- spec: text, to_play, size, options ({A = "S17"}), extractor = "builtin" | agent,
--       prompts (set), key (cache key), sample
-- result: { extractor, tree (validated, or nil), repairs, rejected, raw (model output) }
function M.run(spec)
  local nodes, why, raw
  if spec.extractor == "builtin" then
    nodes = narrative.extract(spec.text)
  else
    local conv = { { role = "user", content = M.instruction(spec.prompts, spec.to_play, spec.text) } }
    local reply, err = spec.extractor:reply(conv, { key = spec.key, sample = spec.sample })
    if not reply then return nil, err end
    raw = reply.text
    nodes, why = trees.decode(reply.text)
  end
  local res = { extractor = spec.extractor == "builtin" and "builtin" or spec.extractor.cfg.name, raw = raw }
  if not nodes then
    res.rejected = why
    res.repairs = {}
    return res
  end
  -- the candidate check needs the text; the built-in extractor reads only what the text names
  local tree, log = trees.validate(nodes, { size = spec.size, to_play = spec.to_play,
    text = spec.extractor ~= "builtin" and spec.text or nil, options = spec.options })
  res.tree, res.repairs, res.rejected = tree, log.repairs, log.rejected
  return res
end

return M
