-- tabula problems go FILES... --out problems.jsonl — convert SGF/JSON tsumego
-- (files or folders) into normalized problems (games/go/README.md), keep those
-- that pass every check (games.go.checks), and write a data card beside the
-- output with the counts kept and dropped, by reason and by source.
local cli = require "tabula.cli"
local fs = require "tabula.fs"
local json = require "tabula.json"

-- one_line(err) -> an error's first line (no traceback)
local function one_line(err)
  local cli_err = type(err) == "table" and err.message
  return (tostring(cli_err or err):match("^[^\n]*"))
end

local function card(path, files, kept, dropped, by_source, by_tier, conventions, opts, errors, rejected)
  local lines = {
    "# Data card: " .. fs.basename(opts.out),
    "",
    "Made by `tabula problems go` from " .. #files .. " files (" .. #rejected .. " rejected, " .. #errors .. " file errors, listed below).",
    string.format("Filters: local (stones and moves within %dx%d), a stated side to play, a non-empty", opts["max-region"], opts["max-region"]),
    "correct first-move set of empty legal points, not ko-dependent, a solution in the file.",
    "",
    "| | problems |", "|---|---|",
    "| kept | " .. kept .. " |",
  }
  local reasons = {}
  for r in pairs(dropped) do reasons[#reasons + 1] = r end
  table.sort(reasons)
  for _, r in ipairs(reasons) do lines[#lines + 1] = "| dropped: " .. r .. " | " .. dropped[r] .. " |" end
  local function tbl(title, t)
    lines[#lines + 1] = ""
    lines[#lines + 1] = "| " .. title .. " | kept | dropped |"
    lines[#lines + 1] = "|---|---|---|"
    local ks = {}
    for k in pairs(t) do ks[#ks + 1] = k end
    table.sort(ks)
    for _, k in ipairs(ks) do lines[#lines + 1] = string.format("| %s | %d | %d |", k, t[k].kept, t[k].dropped) end
  end
  tbl("source (license)", by_source)
  tbl("tier", by_tier)
  tbl("convention", conventions)
  if #rejected > 0 then
    lines[#lines + 1] = ""
    lines[#lines + 1] = "Rejected files (no problem could be read from them):"
    for _, r in ipairs(rejected) do lines[#lines + 1] = "- " .. r[1] end
  end
  if #errors > 0 then
    lines[#lines + 1] = ""
    lines[#lines + 1] = "File errors (the intact games of those files were kept):"
    for _, e in ipairs(errors) do lines[#lines + 1] = "- " .. e end
  end
  fs.write_or_fail(path, table.concat(lines, "\n") .. "\n")
end

return {
  summary = "convert Go problem files: tabula problems go FILES... --out problems.jsonl",
  usage = "go FILES...",
  options = {
    { "out", "string", nil, "the JSONL file to write (a data card is written beside it as .md)" },
    { "card", "string", nil, "where to write the data card (default: OUT with .md)" },
    { "max-region", "int", 13, "local filter: stones and moves within this many rows and columns", min = 2 },
    { "all", "bool", false, "keep problems that fail a check too (their findings are listed in them)" },
  },
  main = function(opts, args)
    if args[1] ~= "go" or not args[2] then cli.fail("usage: tabula problems go FILES... --out problems.jsonl") end
    if not opts.out then cli.fail("option --out is required (the JSONL file to write)") end
    local collect = require "games.go.collect"
    local checks = require "games.go.checks"
    local files = collect.files({ table.unpack(args, 2) })
    local out = {}
    local kept, dropped, errors = 0, {}, {}
    local by_source, by_tier, conventions = {}, {}, {}
    local function count(t, k, field)
      k = k or "?"
      t[k] = t[k] or { kept = 0, dropped = 0 }
      t[k][field] = t[k][field] + 1
    end
    local rejected = {}   -- files that gave no problem: { file, reason }
    for _, f in ipairs(files) do
      -- one bad file never stops the batch: it is listed with its reason
      local ok, list, errs = pcall(collect.load, f)
      if not ok then list, errs = {}, { string.format("%s: cannot be converted: %s", f, one_line(list)) } end
      for _, e in ipairs(errs) do errors[#errors + 1] = e end
      if #list == 0 and #errs > 0 then rejected[#rejected + 1] = { f, errs[1] } end
      for _, p in ipairs(list) do
        local fok, findings = pcall(checks.check, p, { max_region = opts["max-region"] })
        if not fok then findings = { { fatal = true, check = "check failed: " .. one_line(findings) } } end
        local fatal
        for _, x in ipairs(findings) do if x.fatal then fatal = fatal or x.check end end
        local field = fatal and "dropped" or "kept"
        count(by_source, (p.source or "?") .. " (" .. (p.license or "?") .. ")", field)
        count(by_tier, p.tier, field)
        count(conventions, p.convention, field)
        if fatal then dropped[fatal] = (dropped[fatal] or 0) + 1 end
        if not fatal or opts.all then
          if #findings > 0 then
            p.findings = {}
            for i, x in ipairs(findings) do p.findings[i] = x.check and x.check:match("^check failed") and x.check or checks.format(x) end
          end
          out[#out + 1] = json.canonical(p)
          if not fatal then kept = kept + 1 end
        end
      end
    end
    fs.write_or_fail(opts.out, #out > 0 and (table.concat(out, "\n") .. "\n") or "")
    local card_path = opts.card or (opts.out:gsub("%.jsonl$", "") .. ".md")
    card(card_path, files, kept, dropped, by_source, by_tier, conventions, opts, errors, rejected)
    local nd = 0
    for _, n in pairs(dropped) do nd = nd + n end
    io.write(string.format("%d files, %d problems kept, %d dropped; wrote %s and %s\n", #files, kept, nd, opts.out, card_path))
    if #rejected > 0 then
      io.stderr:write(string.format("tabula: %d of %d files rejected:\n", #rejected, #files))
      for _, r in ipairs(rejected) do io.stderr:write("  ", r[2]:find(r[1], 1, true) == 1 and r[2] or (r[1] .. ": " .. r[2]), "\n") end
      return 1
    end
    return 0
  end,
}
