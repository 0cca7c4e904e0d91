-- scenarios/dece/view.lua — DECE's panels in report.html (the S.view hook of tabula.view):
-- ratings with intervals per game (PWS and Elo), the Elo–cost staircase per game, and one
-- view per match that steps through its decisions with the observation each deciding seat
-- saw (replayed from the match's event log), the models' prompts and replies beside it.
local report = require "scenarios.dece.report"
local records = require "tabula.records"
local json = require "tabula.json"
local fs = require "tabula.fs"

local V = {}

function V.load(dir)
  local meta = json.read_file(dir .. "/run.json")
  local recs = records.read(dir .. "/matches.jsonl", { skip_bad = true })
  return { dir = dir, meta = meta, recs = recs, unit = "matches", list_title = "Matches", summary = report.compute(dir) }
end

function V.row(rec)
  local tokens, cost = 0, nil
  for _, u in ipairs(rec.usage or {}) do tokens = tokens + (u.input or 0) + (u.output or 0) end
  return { id = rec.match_id, case = rec.game, setting = table.concat(rec.seats or {}, ","), outcome = rec.status,
           reason = #(rec.forfeits or {}) > 0 and ("forfeit seat " .. table.concat(rec.forfeits, ",")) or nil,
           turns = rec.steps, tokens = tokens, cost = cost, time = rec.wall_seconds }
end

function V.overview(src, kit)
  local r = src.summary
  local panels = {}
  for _, g in ipairs(r.game_names) do
    local gr = r.games[g]
    local groups, egroups = {}, {}
    for _, nme in ipairs(gr.names) do
      local x = gr.rows[nme]
      groups[#groups + 1] = { label = nme, values = { { x.pws, x.pws_lo, x.pws_hi } } }
      egroups[#egroups + 1] = { label = nme, values = { { x.elo, x.elo_lo, x.elo_hi } } }
    end
    panels[#panels + 1] = { title = g .. ": PWS with 95% bootstrap intervals",
      html = kit.html.raw(kit.plot.bars({ title = g .. " PWS", ylabel = "PWS", ymax = 1, percent = true, names = { "PWS" }, groups = groups })) }
    local emax = 1500
    for _, x in pairs(gr.rows) do emax = math.max(emax, x.elo_hi or x.elo) end
    panels[#panels + 1] = { title = g .. ": Elo (Bradley–Terry) with 95% bootstrap intervals",
      html = kit.html.raw(kit.plot.bars({ title = g .. " Elo", ylabel = "Elo", ymax = emax * 1.05, names = { "Elo" }, groups = egroups })) }
    local pts, clo, chi = {}, nil, nil
    for _, s in ipairs(gr.staircase_cost) do
      pts[#pts + 1] = { s.cost, s.elo }
      clo, chi = math.min(clo or s.cost, s.cost), math.max(chi or s.cost, s.cost)
    end
    if #pts > 0 and chi <= clo then      -- every participant costs the same (the built-in players: nothing)
      panels[#panels + 1] = { title = g .. ": Elo–cost staircase V(B)", html = kit.html.raw(kit.plot.empty({ title = g .. " V(B)" },
        string.format("every participant costs $%.4f per appearance, so there is no trade-off to draw: the best Elo is %.0f at any budget.",
          clo, pts[#pts][2]))) }
    elseif #pts > 0 then
      pts[#pts + 1] = { pts[#pts][1] * 1.2 + 1e-4, pts[#pts][2] }
      panels[#panels + 1] = { title = g .. ": Elo–cost staircase V(B)",
        html = kit.html.raw(kit.plot.lines({ title = g .. " V(B)", xlabel = "mean cost per appearance B ($)", ylabel = "best Elo",
          series = { { name = "V(B)", points = pts } } })) }
    end
  end
  local rows = {}
  for _, nme in ipairs(r.names) do
    local o = r.overall[nme]
    rows[#rows + 1] = { nme, kit.html.interval({ value = o.pws, lo = o.lo, hi = o.hi }), tostring(o.games) }
  end
  panels[#panels + 1] = { title = "Overall PWS (equal-weight mean over games)", wide = true,
    html = kit.html.table({ "participant", "PWS [95% interval]", "games" }, rows) }
  return panels
end

-- the match replayed from its event log: one frame per decision, the observation of the seat
-- that chose (for a simultaneous step, the first seat's; the others are in the transcript)
function V.trial(rec, _, src)
  local G = require("games." .. rec.game)
  local events = records.read(src.dir .. "/matches/" .. rec.match_id .. ".jsonl", { skip_bad = true })
  local state = G.setup(rec.n, rec.setup_seed)
  local frames, messages = {}, {}
  -- the board the game draws of an observation (G.svg), its text form folded beside it
  local function board(o)
    local text = G.render(o)
    if G.svg then
      local kit = require "games.svgkit"
      kit.sharing = true            -- the parts recurring across frames are kept once per page
      local ok, svg = pcall(G.svg, o)
      kit.sharing = false
      if not ok then error(svg, 0) end
      return { svg = svg }, text
    end
    return { game = "text", text = text }, nil
  end
  for _, e in ipairs(events) do
    if e.k == "step" then
      for _, c in ipairs(e.choices) do
        local who = rec.seats[c.seat]
        local b, text = board(G.observation(state, c.seat))
        frames[#frames + 1] = { board = b, text = text,
          label = string.format("step %d: seat %d (%s) %s", e.step, c.seat, who, c.action or ("no legal answer: " .. tostring(c.why))) }
        if c.prompt then messages[#messages + 1] = { role = "user", title = "to " .. who, text = c.prompt, frame = #frames - 1, fold = true } end
        if c.reply then messages[#messages + 1] = { role = "assistant", title = who, text = c.reply, usage = c.usage,
          mark = c.failure and (c.action and "rejected" or "forfeit") or nil, frame = #frames - 1 } end
      end
      local ok = true
      for _, c in ipairs(e.choices) do if not c.action then ok = false end end
      if ok then for _, c in ipairs(e.choices) do G.apply(state, c.seat, c.action) end end
    end
  end
  local b, text = board(G.observation(state, 1))
  frames[#frames + 1] = { board = b, text = text,
    label = string.format("end: ranks %s, scores %s", table.concat(rec.ranks, ","), table.concat(rec.scores, ",")) }
  local facts = { { "game", rec.game }, { "seats", table.concat(rec.seats, ", ") }, { "setup seed", tostring(rec.setup_seed) },
    { "ranks", table.concat(rec.ranks, ", ") }, { "scores", table.concat(rec.scores, ", ") }, { "decisions D", tostring(rec.D) },
    { "status", rec.status } }
  -- the verdict: who finished where, and how the match ended
  local standing = {}
  for s, who in ipairs(rec.seats or {}) do
    standing[#standing + 1] = string.format("%s: rank %s, %s points", who, tostring((rec.ranks or {})[s]), tostring((rec.scores or {})[s]))
  end
  local verdict = { outcome = rec.status or "?", { "result", table.concat(standing, "; ") } }
  if #(rec.forfeits or {}) > 0 then verdict[#verdict + 1] = { "ending", "forfeit by seat " .. table.concat(rec.forfeits, ", ") } end
  return { frames = frames, messages = messages, facts = facts, verdict = verdict }
end

return V
