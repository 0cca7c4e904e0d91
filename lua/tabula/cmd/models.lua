-- tabula models — what is configured (models.lua or --models FILE, and the
-- short-form presets), the capability family of each (README, Models), and
-- whether each key is present. Keys are never printed.
local models = require "tabula.models"
local secrets = require "tabula.secrets"

return {
  summary = "list configured models and whether their API keys are set",
  options = { { "models", "string", nil, "models file (default: ./models.lua)" } },
  main = function(opts)
    local rows = {}
    local file = models.default_file(opts.models)
    if file then
      for name, m in pairs(models.load_file(file)) do
        local c = models.resolve(name, file)
        rows[#rows + 1] = { name, c.provider, c.model, c.base_url or "", c.key_env or "", c,
          c.provider ~= "builtin" and require("tabula.model_settings").family(c).name or "" }
      end
    end
    for prefix, p in pairs(models.PRESETS) do
      rows[#rows + 1] = { prefix .. ":MODEL", p.provider, "(any)", p.base_url, p.key_env, p, "(by name)" }
    end
    table.sort(rows, function(a, b) return a[1] < b[1] end)
    io.write(string.format("%-28s %-12s %-22s %-18s %-8s %s\n", "name", "provider", "model", "family", "key", "base URL"))
    for _, r in ipairs(rows) do
      local key = r[5] == "" and "none" or (models.key(r[6]) and "set" or "MISSING")
      io.write(string.format("%-28s %-12s %-22s %-18s %-8s %s%s\n", r[1], r[2], r[3], r[7], key, secrets.redact_url(r[4]),
        r[5] ~= "" and ("  ($" .. r[5] .. ")") or ""))
    end
    io.write("built-in players (no key): engine, random, replay:FILE, human; local:URL:MODEL for any OpenAI-compatible server\n")
    if not file then io.write("(no models.lua here; pass --models FILE to add named models)\n") end
    return 0
  end,
}
