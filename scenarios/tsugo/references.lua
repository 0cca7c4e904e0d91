-- scenarios/tsugo/references.lua — the non-LLM references of one problem:
-- MCTS/UCT with an open and a restricted (the four options) root, and GNU Go
-- over GTP as the guided reference (the paper's KataGo role; KataGo is not
-- used here).
--
-- GNU Go answers the life-and-death question through its owl reader: for a
-- kill problem `owl_attack TARGET`, for a live problem `owl_defend TARGET`
-- (TARGET: the defender's largest chain in the region, as for MCTS); "0" (no
-- move found) is no answer. Restricted to the K=4 options: each option is
-- played and the reader asked whether the other side still succeeds
-- (`owl_defend` / `owl_attack` with the other side to move); the options that
-- work are kept, GNU Go's own move first if it is one of them, else the first
-- in A-D order; none working → its open move if it is an option, else no answer.
local go = require "games.go"
local mcts = require "scenarios.tsugo.mcts"

local M = {}

local function gtp(pt, size) return go.to_gtp(pt, size) end

-- the GTP session's board: the problem's stones (GTP `play` of setup stones;
-- a normalized problem has no captures among them)
local function load(e, p)
  assert(e:command("boardsize " .. p.size))
  assert(e:command("clear_board"))
  for _, c in ipairs({ "black", "white" }) do
    for _, pt in ipairs(p.stones[c]) do
      local ok, err = e:command("play " .. c .. " " .. gtp(pt, p.size))
      if not ok then error({ infra = true, message = "gnugo refused setup stone " .. pt .. ": " .. tostring(err) }) end
    end
  end
end

-- owl(e, cmd, target, size) -> code, point (SGF) | 0
local function owl(e, cmd, target, size)
  local r = e:command(cmd .. " " .. gtp(target, size)) or "0"
  local code, v = r:match("^(%d)%s*(%S*)")
  code = tonumber(code) or 0
  local pt = v and v ~= "" and go.from_gtp(v, size) or nil
  return code, pt
end

-- gnugo(e, p, setting, options_sgf) -> { open = SGF or nil, restricted = SGF or nil, working = {...} }
function M.gnugo(e, p, s, options)
  load(e, p)
  local kill = p.to_play ~= s.defender
  local ask = kill and "owl_attack" or "owl_defend"
  local back = kill and "owl_defend" or "owl_attack"
  local out = { working = {} }
  if not s.target then return out end
  local code, pt = owl(e, ask, s.target, p.size)
  if code > 0 then out.open = pt end
  if options then
    local color = p.to_play
    for _, o in ipairs(options) do
      if e:command(string.format("play %s %s", color, gtp(o, p.size))) then
        local gone = (e:command("color " .. gtp(s.target, p.size)) or "empty") == "empty"
        local works
        if gone then works = kill
        else
          local c2 = owl(e, back, s.target, p.size)
          works = c2 == 0
        end
        if works then out.working[#out.working + 1] = o end
        assert(e:command("undo"))
      end
    end
    for _, o in ipairs(out.working) do if o == out.open then out.restricted = o end end
    out.restricted = out.restricted or out.working[1]
    if not out.restricted then
      for _, o in ipairs(options) do if o == out.open then out.restricted = o end end
    end
  end
  return out
end

-- mcts_both(p, options_sgf, seed, playouts) -> { open = result, restricted = result }
function M.mcts_both(p, options, seed, playouts)
  return { open = mcts.run(p, { seed = seed, playouts = playouts }),
    restricted = options and mcts.run(p, { seed = seed, playouts = playouts, root = options }) or nil }
end

return M
