-- Credentials stay out of everything tabula writes: a key in a models file is
-- refused (keys come from the environment, key_env), and the credentials a base
-- URL carries (user:pass@, ?key=, &api_key=) are redacted from run.json, the
-- records, the reports and the console.
local t = require "tabula.testing"
local mock = require "tests.mock"
local models = require "tabula.models"
local secrets = require "tabula.secrets"
local fs = require "tabula.fs"
local test, T = t.suite()

test("redact_url: user:password@, key-like query parameters; other URLs untouched", function()
  t.eq(secrets.redact_url("http://bob:hunter22@10.0.0.1:8000/v1"), "http://[redacted]@10.0.0.1:8000/v1")
  t.eq(secrets.redact_url("https://h.example/v1?key=AIzaSyX&alt=sse"), "https://h.example/v1?key=[redacted]&alt=sse")
  t.eq(secrets.redact_url("https://h.example/v1?model=m&api_key=abc123"), "https://h.example/v1?model=m&api_key=[redacted]")
  t.eq(secrets.redact_url("see https://h.example/x?access_token=t0k&x=1 and ftp://a@b/"),
    "see https://h.example/x?access_token=[redacted]&x=1 and ftp://[redacted]@b/")
  t.eq(secrets.redact_url("https://api.openai.com/v1?model=gpt&alt=sse"), "https://api.openai.com/v1?model=gpt&alt=sse")
  t.eq(secrets.redact_url("write to bob@example.com"), "write to bob@example.com")
  for _, n in ipairs({ "api_key", "key", "apiKey", "x-api-key", "token", "access_token", "secret", "client_secret",
    "password", "Authorization" }) do
    t.ok(secrets.key_like(n), n .. " is key-like")
  end
  for _, n in ipairs({ "key_env", "max_tokens", "model", "prices", "provider", "base_url" }) do
    t.ok(not secrets.key_like(n), n .. " is not key-like")
  end
end)

test("redaction inside a JSON record keeps it valid JSON", function()
  local records = require "tabula.records"
  local dir = t.tmpdir()
  local w = records.writer(dir .. "/r.jsonl")
  w:write({ trial_id = "a", reply = 'see https://h.example/x?key=abc"quoted" and "http://u:p@h/"\\' })
  w:close()
  local recs = records.read(dir .. "/r.jsonl")
  t.eq(recs[1].reply, 'see https://h.example/x?key=[redacted]"quoted" and "http://[redacted]@h/"\\')
end)

test("a key in a models file is refused in one line pointing at key_env", function()
  local dir = t.tmpdir()
  for _, body in ipairs({
    [[m = { provider = "openai", model = "x", api_key = "sk-abcdefgh" }]],
    [[m = { provider = "openai", model = "x", token = "abcdefgh" }]],
    [[m = { provider = "openai", model = "x", settings = { password = "abcdefgh" } }]],
    [[m = { provider = "openai", model = "x", headers = { Authorization = "Bearer abcdefgh" } }]],
  }) do
    fs.write_atomic(dir .. "/models.lua", "return { " .. body .. " }")
    local err = t.raises(function() models.resolve("m", dir .. "/models.lua") end, "key_env")
    t.contains(err, "model 'm' holds a key in '")
    t.ok(not err:find("abcdefgh", 1, true), "the refusal does not repeat the key: " .. err)
    t.ok(not err:find("\n"), "one line")
  end
  fs.write_atomic(dir .. "/models.lua", [[return { m = { provider = "openai", model = "x", key_env = "MY_KEY", max_tokens = 5 } }]])
  t.eq(models.resolve("m", dir .. "/models.lua").key_env, "MY_KEY")
end)

test("models.public: a base URL and a local:URL:MODEL name lose their credentials", function()
  local c = models.resolve("local:http://alice:pw-Ab12Cd34@127.0.0.1:9/v1:m")
  t.eq(c.base_url, "http://alice:pw-Ab12Cd34@127.0.0.1:9/v1")   -- still used for the calls
  local p = models.public(c)
  t.eq(p.base_url, "http://[redacted]@127.0.0.1:9/v1")
  t.eq(p.name, "local:http://[redacted]@127.0.0.1:9/v1:m")
  -- an error that echoes the password alone is redacted too
  t.eq(secrets.redact("server said: bad password pw-Ab12Cd34"), "server said: bad password [redacted]")
end)

-- scan(dir, needles) -> number of files scanned; raises naming the file a needle is in
local function scan(dir, needles)
  local files = 0
  local function walk(path)
    for _, name in ipairs(fs.list(path) or {}) do
      local p = path .. "/" .. name
      if fs.kind(p) == "dir" then walk(p)
      elseif name ~= "models.lua" then
        files = files + 1
        local text = fs.read(p)
        for _, n in ipairs(needles) do
          if text:find(n, 1, true) then error(string.format("%q leaked into %s", n, p)) end
        end
      end
    end
  end
  walk(dir)
  return files
end

test("a run against a URL with credentials: none in run.json, records, report.html, console", function()
  local s = mock.start({ { reply = "I resign." } })
  local dir = t.tmpdir()
  local port = s.url:match(":(%d+)$")
  fs.write_atomic(dir .. "/models.lua", string.format(
    [[return { q = { provider = "openai", model = "x", base_url = "http://carol:qk-Zz98Yy76@127.0.0.1:%s/v1", key_env = "NO_SUCH_KEY_ENV", optional_key = true } }]], port))
  local bin = t.tabula_bin()
  for i, model in ipairs({ "local:http://dave:pw-Xx11Ww22@127.0.0.1:" .. port .. "/v1:m", "q" }) do
    local out = t.sh(string.format("cd %s && %s run xiangqibench --limit 1 --trials 1 --model '%s' --out run%d --verbose > console%d.txt 2>&1; %s report run%d >> console%d.txt 2>&1",
      dir, bin, model, i, i, bin, i, i))
    t.contains(out, "rc=0")
    t.contains(fs.read(dir .. "/run" .. i .. "/run.json"), "[redacted]@127.0.0.1")
    t.ok(fs.kind(dir .. "/run" .. i .. "/report.html") == "file", "report.html written")
  end
  t.ok(#s:log() >= 2, "both runs called the server")
  t.ok(scan(dir, { "pw-Xx11Ww22", "qk-Zz98Yy76", "dave:", "carol:" }) >= 10, "scanned the run directories and consoles")
  s:close()
end)

return T
