-- scenarios.chessarena.view — ChessArena's parts of report.html (the S.view
-- hook). An arena directory is the unit: the leaderboard, every player's
-- rating with its RD band over the arena's games, per-player statistics, and
-- one view per game (the position after every ply, the replies of model
-- players with rejected attempts marked).
local chess = require "games.chess"
local rating = require "tabula.rating"
local records = require "tabula.records"
local json = require "tabula.json"
local fs = require "tabula.fs"

local M = {}

M.LEGEND = "Blue: White's move. Red: Black's move."

-- load(dir) -> src: the arena's players and games
function M.load(dir)
  local players = {}
  if fs.kind(dir .. "/players.json") == "file" then players = json.read_file(dir .. "/players.json") end
  local games = records.read(dir .. "/games.jsonl", { skip_bad = true })
  local ids = {}
  for id in pairs(players) do ids[#ids + 1] = id end
  table.sort(ids)
  return { meta = { scenario = "chessarena", model = "arena " .. dir,
    extra = { players = table.concat(ids, ", "), games = tostring(#games) } },
    recs = games, list_title = "Games", unit = "games" }
end

function M.row(g)
  local tokens, cost, any = 0, 0, false
  for _, m in ipairs(g.per_move or {}) do
    if m.usage then any = true; tokens = tokens + (m.usage.input or 0) + (m.usage.output or 0) end
    cost = cost + (m.cost or 0)
  end
  return { id = g.game_id, case = tostring(g.white) .. " vs " .. tostring(g.black), outcome = g.result,
    reason = g.termination, turns = g.plies, tokens = any and tokens or nil, cost = cost, time = g.seconds }
end

function M.overview(src, kit)
  local html, plot = kit.html, kit.plot
  local t = rating.table({ floor = src.floor })
  local series, by = {}, {}
  for n, g in ipairs(src.recs) do
    t:add(g.white, g.black, g.result)
    for _, id in ipairs({ g.white, g.black }) do
      if not by[id] then by[id] = { name = id, points = {} }; series[#series + 1] = by[id] end
      local p = t:get(id)
      table.insert(by[id].points, { n, p.r, p.r - 1.96 * p.rd, p.r + 1.96 * p.rd })
    end
  end
  table.sort(series, function(a, b) return a.name < b.name end)
  local rows = {}
  for _, r in ipairs(t:leaderboard(true)) do
    rows[#rows + 1] = { r.id, { v = string.format("%.0f", r.r), sort = r.r }, { v = string.format("%.0f", r.rd), sort = r.rd },
      string.format("[%.0f, %.0f]", r.lo, r.hi), r.games, string.format("%d/%d/%d", r.w, r.d, r.l) }
  end
  local stats = src.scenario.stats(src.recs)
  local srows, ids = {}, {}
  for id in pairs(stats) do ids[#ids + 1] = id end
  table.sort(ids)
  for _, id in ipairs(ids) do
    local s = stats[id]
    local function rate(a, b) return b > 0 and html.pct(a / b) or "-" end
    srows[#srows + 1] = { id, rate(s.parse_errors, s.attempts), rate(s.illegal, s.attempts), rate(s.forbidden, s.attempts),
      rate(s.legal, s.attempts), rate(s.legal_first, s.decisions), rate(s.top, s.analysed) }
  end
  return {
    { title = "Leaderboard (Glicko-1, every player)", html = html.table({ "player", "rating", "RD", "95% interval", "games", "W/D/L" }, rows) },
    { title = "Rating over games", html = html.raw(plot.lines({ title = "rating with its 95% band (±1.96 RD) after each game",
      xlabel = "game", ylabel = "rating", series = series })) },
    -- parse errors, illegal, forbidden and legal: shares of all attempts (100% together)
    { title = "Move quality by player", html = html.table({ "player", "parse errors", "illegal", "forbidden", "legal", "legal first try", "top-3" }, srows) },
    require("tabula.robustness").panel(src.scenario.robustness(src.recs), html, "Robustness (score share: points per game, every player)"),
  }
end

function M.trial(g, kit)
  local game = chess.new(g.start_fen or chess.START)
  local frames = { { board = { game = "chess", fen = game and game:fen() or g.start_fen }, label = "start" } }
  for i, u in ipairs(g.moves or {}) do
    local side = i % 2 == 1 and "white" or "black"
    if game then
      side = game:side()
      local san = game:san(u)
      game:play(u)
      frames[#frames + 1] = { board = { game = "chess", fen = game:fen(), arrows = { { move = u, kind = side == "white" and "agent" or "defender" } } },
        label = string.format("ply %d: %s (%s)", i, san or u, side) }
    end
  end
  local msgs = {}
  for _, m in ipairs(g.per_move or {}) do
    local at = (m.ply or 1) - 1
    local who = string.format("%s · ply %d (%s)", tostring(m.player), m.ply or 0, tostring(m.side))
    if m.replies then
      for j, text in ipairs(m.replies) do
        local final = j == #m.replies and not m.forfeit
        msgs[#msgs + 1] = { role = "assistant", title = who .. (#m.replies > 1 and (" · attempt " .. j) or ""), text = text,
          mark = (not final) and (m.forfeit and "forfeit" or "rejected") or nil, frame = at,
          usage = final and m.usage or nil, cost = final and m.cost or nil }
      end
    else
      msgs[#msgs + 1] = { role = "player", title = who, text = tostring(m.move or "(no move)"), frame = at }
    end
  end
  -- the verdict in words: who beat whom, and how
  local w, b, how = tostring(g.white), tostring(g.black), g.termination and tostring(g.termination):gsub("_", " ") or "?"
  local words = g.result == "1-0" and string.format("%s (White) beat %s (Black) by %s", w, b, how)
    or g.result == "0-1" and string.format("%s (Black) beat %s (White) by %s", b, w, how)
    or g.result == "1/2-1/2" and string.format("%s (White) and %s (Black) drew by %s", w, b, how)
    or string.format("%s (White) vs %s (Black): %s (%s)", w, b, tostring(g.result), how)
  return { frames = frames, messages = msgs, legend = M.LEGEND,
    verdict = { outcome = tostring(g.result or "?"), { "result", words } },
    facts = { { "players", tostring(g.white) .. " (White) vs " .. tostring(g.black) .. " (Black)" },
      { "result", tostring(g.result) .. " (" .. tostring(g.termination) .. ")" }, { "plies", g.plies },
      { "PGN", g.pgn } } }
end

return M
