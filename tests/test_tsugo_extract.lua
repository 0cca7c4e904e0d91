-- TsuGO extraction: the fixed instruction, a model extractor over the mock
-- server (the answer text reaches it, its JSON is validated with the candidate
-- check, a second extraction is replayed from the cache), and the built-in one.
local t = require "tabula.testing"
local fs = require "tabula.fs"
local agent = require "tabula.agent"
local prompt = require "tabula.prompt"
local extract = require "scenarios.tsugo.extract"
local test, T = t.suite()

local RESPONSE = "Option A, S17: White R18 and Black lives. Option B R18 fails at once.\nanswer is A"
local TREE = [[```json
{"nodes":[{"id":0,"label":"start","type":"root","parent":null},
 {"id":1,"label":"B:S17","type":"move","parent":0,"side":"B","move_pos":"S17"},
 {"id":2,"label":"W:R18","type":"move","parent":1,"side":"W","move_pos":"R18"},
 {"id":3,"label":"Black lives","type":"judgment","parent":2,"polarity":"win"},
 {"id":4,"label":"B:R18","type":"move","parent":0,"side":"B","move_pos":"R18"},
 {"id":5,"label":"B:T19","type":"move","parent":0,"side":"B","move_pos":"T19"}]}
```]]

test("the extractor instruction names the side and carries the schema and the response", function()
  local P = prompt.set("tsugo")
  local text = extract.instruction(P, "W", RESPONSE)
  t.contains(text, "White plays first.")
  t.contains(text, '"move_pos": "T14"')
  t.contains(text, "The answer to convert:\n" .. RESPONSE)
  t.eq(text:find("{{", 1, true), nil, "every placeholder filled")
end)

test("a model extractor over the mock server: validated, repaired, cached", function()
  local mock = require "tests.mock"
  local s = mock.start({ { match = "The answer to convert", reply = TREE } })
  local dir = t.tmpdir()
  local ok, err = pcall(function()
    local a = agent.new({ name = "mock-extractor", provider = "openai", model = "x", base_url = s.url .. "/v1", optional_key = true },
      { cache_dir = dir .. "/cache" })
    local spec = { text = RESPONSE, to_play = "B", options = { A = "S17", B = "R18", C = "T19", D = "Q18" },
      extractor = a, prompts = prompt.set("tsugo"), key = "p1/extract", sample = 1 }
    local res = assert(extract.run(spec))
    t.eq(res.extractor, "mock-extractor")
    t.eq(res.rejected, nil)
    t.eq(res.repairs, { "dropped candidate 5 (T19): the response never names it",
      "move 4 (B:R18) ends without a judgment; closed with other" })
    t.eq(#res.tree.nodes, 6)
    t.contains(s:log()[1].body, "Option B R18 fails at once.")
    local again = assert(extract.run(spec))
    t.eq(#again.tree.nodes, 6)
    t.eq(s:requests(), 1, "the second extraction came from the cache")
    -- an extractor that answers prose: the tree is rejected with the reason
    s:script({ { reply = "I cannot do that." } })
    spec.sample = 2
    local bad = assert(extract.run(spec))
    t.eq(bad.tree, nil)
    t.contains(bad.rejected, "no JSON object")
  end)
  s:close()
  if not ok then error(err, 0) end
end)

test("the built-in extractor reads the narrative without a model", function()
  local res = extract.run({ text = "Candidate A: B S17.\n  Line: B S17, W R18 -> win (lives).\nanswer is A",
    to_play = "B", extractor = "builtin" })
  t.eq(res.extractor, "builtin")
  t.eq(#res.tree.nodes, 4)
  t.eq(res.repairs, {})
end)

return T
