-- tabula compare RUN_A RUN_B [RUN_C ...] — paired comparison of runs over their
-- shared trial ids (each later run against the first, or with --all-pairs every
-- pair): success rates with bootstrap intervals, the paired difference, an exact
-- McNemar test with p-values adjusted for the family of comparisons (--adjust
-- holm|bonferroni|none) and simultaneous intervals, the trials that flipped each
-- way and token/cost differences. --floor RUN=RERUN names a re-run of one run:
-- its flips are the noise floor each comparison's discordance is set beside.
-- RUN@VARIANT selects one prompt variant of a run. Markdown on stdout, or JSON
-- with --json. (tabula.compare's header says how each figure is computed.)
local cli = require "tabula.cli"
local fs = require "tabula.fs"
local json = require "tabula.json"
local compare = require "tabula.compare"

return {
  summary = "paired comparison of runs: tabula compare RUN_A RUN_B [...] (RUN@VARIANT for one variant of a run)",
  usage = "RUN_A RUN_B [...] [options]",
  options = {
    { "json", "bool", false, "print JSON instead of Markdown" },
    { "out", "string", nil, "also write the Markdown (FILE.md) or JSON (FILE.json) to this file" },
    { "seed", "int", 20260101, "bootstrap seed" },
    { "draws", "int", 4000, "bootstrap draws" },
    { "max-ids", "int", 20, "flipped trial ids listed per direction in Markdown" },
    { "html", "string", nil, "where to write the HTML comparison (default RUN_A/compare.html)" },
    { "adjust", "string", "holm", "multiplicity adjustment of the McNemar p-values over the family of comparisons",
      choices = compare.ADJUST },
    { "all-pairs", "bool", false, "compare every pair of runs, not only each run with the first" },
    { "floor", "string", nil, "RUN=RERUN: a re-run of RUN (same configuration); its flips give the noise floor" },
  },
  main = function(opts, args)
    local res = compare.runs(args, { seed = opts.seed, draws = opts.draws, adjust = opts.adjust,
      all_pairs = opts["all-pairs"], floor = opts.floor })
    local md = compare.markdown(res, opts["max-ids"])
    local js = json.encode(res, { pretty = true }) .. "\n"
    io.write(opts.json and js or md)
    -- the page shows the whole result: every comparison of the family, the noise floor
    local page = require("tabula.view.compare").write(res, args, opts.html or (res.runs[1].dir .. "/compare.html"))
    if not opts.json then io.stderr:write("wrote " .. page .. "\n") end
    if opts.out then
      local ok, err = fs.write_atomic(opts.out, opts.out:match("%.json$") and js or md)
      if not ok then cli.fail("compare: %s", err) end
    end
    return 0
  end,
}
