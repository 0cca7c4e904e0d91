-- tabula admit — certify XiangqiBench cases: a forced mate for Red proven by the
-- built-in exhaustive mate search, the category from the same search with Black
-- to move, the true legal-move count, piece tags. Input: FEN lines or JSONL
-- with a "fen" field; or --generate N fresh candidates with distance quotas.
-- Positions that do not confirm are reported with the reason.
local cli = require "tabula.cli"
local fs = require "tabula.fs"
local json = require "tabula.json"
local records = require "tabula.records"

local function read_inputs(path)
  local text = fs.read_or_fail(path, "admit")
  local out, n = {}, 0
  for line in text:gmatch("[^\n]+") do
    n = n + 1
    if not line:match("^%s*$") and not line:match("^%s*#") then
      if line:match("^%s*{") then
        local rec, err = json.decode(line, { lenient = true })
        if not rec then cli.fail("%s:%d: %s", path, n, err) end
        if type(rec.fen) ~= "string" then cli.fail("%s:%d: no \"fen\" field", path, n) end
        out[#out + 1] = { fen = rec.fen, id = rec.id, line = n }
      else
        out[#out + 1] = { fen = line, line = n }
      end
    end
  end
  return out
end

local function parse_quota(text)
  local q = {}
  for d, n in text:gmatch("(%d+):(%d+)") do q[tonumber(d)] = tonumber(n) end
  return q
end

local xiangqi = {
  summary = "prove forced mates for XiangqiBench cases (or generate fresh ones)",
  usage = "[options] [FILE]",
  options = {
    { "out", "string", nil, "write admitted cases here (JSONL); default: print them" },
    { "max-plies", "int", 11, "mate horizon in plies" },
    { "min-plies", "int", 1, "refuse shorter mates" },
    { "nodes", "int", 2000000, "node budget per search" },
    { "checks-only", "bool", false, "Red may only play checking moves (the solver-proof admission)" },
    { "engine", "string", nil, "also ask a UCI engine for its mate score: fairy-stockfish or uci:/path" },
    { "engine-depth", "int", 20, "the engine's search depth" },
    { "generate", "int", 0, "generate this many fresh cases instead of reading FILE" },
    { "seed", "int", 1, "generator seed" },
    { "quota", "string", "3:18,5:28,7:34,9:28,11:16", "cases wanted per mate distance when generating" },
    { "race-share", "number", 0.6, "at least this share of generated cases are threat races" },
    { "id-prefix", "string", "tabula", "id prefix for generated cases" },
  },
  main = function(opts, args)
    local admit = require "games.xiangqi.admit"
    local base = {
      max_plies = opts["max-plies"], min_plies = opts["min-plies"], nodes = opts.nodes,
      checks_only = opts["checks-only"], engine_depth = opts["engine-depth"],
    }
    if opts.engine then
      local engine = require "tabula.engine"
      local argv = opts.engine == "fairy-stockfish" and { "/usr/games/fairy-stockfish" }
        or { (opts.engine:match("^uci:(.+)$") or cli.fail("--engine must be fairy-stockfish or uci:/path")) }
      base.engine = engine.start({ name = opts.engine, argv = argv, timeout = 30 })
      base.engine:uci({ UCI_Variant = "xiangqi", Threads = 1, Hash = 64 })
    end
    local writer = opts.out and records.writer(opts.out)
    local function emit(case)
      if writer then writer:write(case) else io.write(json.canonical(case), "\n") end
    end
    local admitted, refused = 0, 0
    if opts.generate > 0 then
      local quota = parse_quota(opts.quota)
      local total_quota = 0
      for _, n in pairs(quota) do total_quota = total_quota + n end
      local have, races, seen = {}, 0, {}
      local rng_state = opts.seed
      local function rng(a, b)   -- a small deterministic LCG, independent of math.random
        rng_state = (rng_state * 6364136223846793005 + 1442695040888963407) & 0x7fffffffffffffff
        return a + (rng_state >> 16) % (b - a + 1)
      end
      local tried = 0
      local function take(case)
        local d = case.win_in_plies
        have[d] = have[d] or 0
        if not quota[d] or have[d] >= quota[d] or seen[admit.identity(case.fen) .. "!"] then return false end
        seen[admit.identity(case.fen) .. "!"] = true
        have[d] = have[d] + 1
        admitted = admitted + 1
        if case.category == "threatmate_race" then races = races + 1 end
        case.id = string.format("%s_%04d", opts["id-prefix"], admitted)
        case.source = "tabula-generator"
        case.raw_index = tried
        emit(case)
        io.stderr:write(string.format("admitted %d/%d (tried %d): %s mate in %d, %s\n",
          admitted, opts.generate, tried, case.id, d, case.category))
        return true
      end
      local races_wanted = math.ceil(opts.generate * opts["race-share"])
      while admitted < opts.generate do
        local fen = admit.candidate(rng)
        if fen and not seen[admit.identity(fen)] then
          seen[admit.identity(fen)] = true
          tried = tried + 1
          local case = admit.admit(fen, base)
          if case then
            local raced = false
            -- an unopposed mate becomes a race when Black gets a threat of its own
            -- (the race is kept instead of the position it came from)
            if case.category == "forced_mate" and races < races_wanted and quota[case.win_in_plies] then
              local race_only = setmetatable({ want = function(cat) return cat == "threatmate_race" end },
                { __index = base })
              for _ = 1, 40 do
                local mutated = admit.add_threat(fen, rng)
                if mutated and not seen[admit.identity(mutated)] then
                  seen[admit.identity(mutated)] = true
                  local rc = admit.admit(mutated, race_only)
                  if rc and take(rc) then raced = true; break end
                end
              end
            end
            local forced_room = (opts.generate - races_wanted) - (admitted - races)
            if not raced and (case.category == "threatmate_race" or forced_room > 0) then take(case) end
          end
        end
      end
    else
      local input = args[1] or cli.fail("admit: give a FILE of FEN lines or JSONL, or --generate N")
      for i, item in ipairs(read_inputs(input)) do
        local case, why = admit.admit(item.fen, base)
        if case then
          admitted = admitted + 1
          case.id = item.id or string.format("case_%04d", i)
          emit(case)
        else
          refused = refused + 1
          io.stderr:write(string.format("refused %s (%s line %d): %s\n", item.id or item.fen, input, item.line, why))
        end
      end
    end
    if writer then writer:close() end
    if base.engine then base.engine:close() end
    io.stderr:write(string.format("%d admitted, %d refused\n", admitted, refused))
    return 0
  end,
}

-- `tabula admit go ...` proves Go problems (games/go/admit.lua); anything else is XiangqiBench
return {
  summary = xiangqi.summary .. "; 'tabula admit go --help' for Go problems",
  usage = xiangqi.usage,
  raw_args = true,
  main = function(_, args)
    if args[1] == "go" then return require("games.go.admit").main({ table.unpack(args, 2) }) end
    local opts, rest = cli.parse(xiangqi.options, args, { program = "tabula admit", usage = xiangqi.usage, summary = xiangqi.summary })
    if opts == nil then return 0 end
    return xiangqi.main(opts, rest) or 0
  end,
}
