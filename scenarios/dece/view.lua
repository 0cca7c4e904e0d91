-- scenarios/dece/view.lua — DECE's panels in report.html (the S.view hook of tabula.view):
-- the overall table (PWS, Elo per game with intervals, cost), then per game (one at a time,
-- picked with a selector) the ratings with intervals and the Elo–cost staircase; and one
-- view per match that steps through its decisions (replayed from the match's event log):
-- the spectator's board (the public view, each seat named) or, picked with a selector, one
-- seat's own view (its private holdings drawn), the move by the game's own label (its id
-- on hover), the observation the deciding seat saw folded beside it (while that seat is
-- picked), the models' prompts and replies. A match's frames are kept compact
-- (tabula.view.frames), its game's matches sharing one dictionary.
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

-- the overview: the overall table first (PWS with its interval, the mean over games of
-- the per-game Bradley–Terry Elo and of the mean cost per appearance), then each game's
-- panels (PWS and Elo with intervals, the Elo–cost staircase), one game at a time
function V.overview(src, kit)
  local r = src.summary
  local panels = {}
  local rows = {}
  for _, nme in ipairs(r.names) do
    local o = r.overall[nme]
    local elo, cost, n = 0, 0, 0
    local elo_ranges = {}
    for _, g in ipairs(r.game_names) do
      local x = r.games[g].rows[nme]
      if x and x.elo then
        elo, cost, n = elo + x.elo, cost + (x.cost or 0), n + 1
        elo_ranges[#elo_ranges + 1] = string.format("%s %.0f [%.0f, %.0f]", g, x.elo, x.elo_lo or x.elo, x.elo_hi or x.elo)
      end
    end
    rows[#rows + 1] = { nme, kit.html.interval({ value = o.pws, lo = o.lo, hi = o.hi }),
      n > 0 and string.format("%.0f", elo / n) or "–", table.concat(elo_ranges, "; "),
      n > 0 and string.format("$%.4f", cost / n) or "–", tostring(o.games) }
  end
  table.sort(rows, function(a, b) return (r.overall[a[1]].pws or -1) > (r.overall[b[1]].pws or -1) end)
  panels[#panels + 1] = { title = "Overall: PWS (equal-weight mean over games) with 95% bootstrap interval; Bradley–Terry Elo per game with 95% intervals; cost",
    wide = true, html = kit.html.table({ "participant", "PWS [95% interval]", "mean Elo over games", "Elo per game [95% interval]",
      "mean cost per appearance", "games" }, rows) }
  -- the robustness appendix of the overall PWS (tabula.robustness), as report.md has it
  if r.robustness then panels[#panels + 1] = require("tabula.robustness").panel(r.robustness, kit.html, "Robustness (overall PWS)") end
  for _, g in ipairs(r.game_names) do
    local gr = r.games[g]
    local groups, egroups = {}, {}
    for _, nme in ipairs(gr.names) do
      local x = gr.rows[nme]
      groups[#groups + 1] = { label = nme, values = { { x.pws, x.pws_lo, x.pws_hi } } }
      egroups[#egroups + 1] = { label = nme, values = { { x.elo, x.elo_lo, x.elo_hi } } }
    end
    panels[#panels + 1] = { group = g, title = g .. ": PWS with 95% bootstrap intervals",
      html = kit.html.raw(kit.plot.bars({ title = g .. " PWS", ylabel = "PWS", ymax = 1, percent = true, names = { "PWS" }, groups = groups })) }
    local emax = 1500
    for _, x in pairs(gr.rows) do emax = math.max(emax, x.elo_hi or x.elo) end
    panels[#panels + 1] = { group = g, title = g .. ": Elo (Bradley–Terry) with 95% bootstrap intervals",
      html = kit.html.raw(kit.plot.bars({ title = g .. " Elo", ylabel = "Elo", ymax = emax * 1.05, names = { "Elo" }, groups = egroups })) }
    local pts, clo, chi = {}, nil, nil
    for _, s in ipairs(gr.staircase_cost) do
      pts[#pts + 1] = { s.cost, s.elo }
      clo, chi = math.min(clo or s.cost, s.cost), math.max(chi or s.cost, s.cost)
    end
    if #pts > 0 and chi <= clo then      -- every participant costs the same (the built-in players: nothing)
      panels[#panels + 1] = { group = g, title = g .. ": Elo–cost staircase V(B)", html = kit.html.raw(kit.plot.empty({ title = g .. " V(B)" },
        string.format("every participant costs $%.4f per appearance, so there is no trade-off to draw: the best Elo is %.0f at any budget.",
          clo, pts[#pts][2]))) }
    elseif #pts > 0 then
      pts[#pts + 1] = { pts[#pts][1] * 1.2 + 1e-4, pts[#pts][2] }
      panels[#panels + 1] = { group = g, title = g .. ": Elo–cost staircase V(B)",
        html = kit.html.raw(kit.plot.lines({ title = g .. " V(B)", xlabel = "mean cost per appearance B ($)", ylabel = "best Elo",
          series = { { name = "V(B)", points = pts } } })) }
    end
  end
  return panels
end

-- label_of(G, state, seat, id) -> the game's own label of action id (the one a model
-- saw in its list of legal actions), or nil
local function label_of(G, state, seat, id)
  if not id then return nil end
  local ok, legal = pcall(G.legal_actions, state, seat)
  if not ok then return nil end
  for _, a in ipairs(legal or {}) do if a.id == id then return a.label end end
end

-- the match replayed from its event log: one frame per decision. The board is the
-- spectator's: the public view (obs.spectator: no seat's private holdings drawn, each
-- seat named); a selector shows instead one seat's own view (its observation drawn as the
-- game draws it for that seat, with its private holdings) at every step. The text beside
-- the board is what the deciding seat saw (its observation, as the model was shown it),
-- shown only while that seat is picked. The frames are kept compact (tabula.view.frames)
-- and drawn in the browser, so the page grows with what changes, not with the drawings' size.
function V.trial(rec, _, src)
  local G = require("games." .. rec.game)
  local events = records.read(src.dir .. "/matches/" .. rec.match_id .. ".jsonl", { skip_bad = true })
  local state = G.setup(rec.n, rec.setup_seed)
  local frames, messages = {}, {}
  local names = {}
  for s, who in ipairs(rec.seats or {}) do names[s] = who end
  local n = rec.n or #names
  -- each seat's own view is drawn only for a game whose drawing shows private holdings
  -- (G.svg_private: 7 Wonders' hands, Splendor's reserved cards); elsewhere the seat's own
  -- drawing is the public one but for its name (nothing private, or its hand drawn as a count):
  -- it is not drawn again (drawing it tripled the time of a report)
  local private = G.svg and G.svg_private == true
  -- the text observation of a game with hidden information holds the deciding seat's private
  -- holdings: it shows only while that seat is picked
  local text_private = not (type(G.annotations) == "table" and G.annotations.hidden == 0)
  -- a page written during the run (src.live) draws the public view alone: each seat's own
  -- view would more than double the time the run's loop spends on the page, which the
  -- final page pays once
  local live = src.live ~= nil
  if live then private = false end
  -- the drawings of the state as it is now: each seat's own view (its observation, the
  -- seats named) and the seats' observations; made once a state (a simultaneous step's
  -- choices share them)
  local now
  local function views()
    if now then return now end
    now = { obs = {}, seats = {} }
    for k = 1, n do
      local o = G.observation(state, k)
      now.obs[k] = o
      if private then
        local mine = {}
        for key, v in pairs(o) do mine[key] = v end
        mine.names = names
        local ok, svg = pcall(G.svg, mine)
        if not ok then error(svg, 0) end
        now.seats[k] = { svg = svg }
      end
    end
    return now
  end
  -- the spectator's drawing of the state, seen from seat (whose private parts are left
  -- out), the text of seat's observation, and each seat's own drawing
  local function board(seat)
    local v = views()
    local o = v.obs[seat]
    local text = G.render(o)
    if not G.svg then return { game = "text", text = text }, nil end
    -- the seat's own panel as another seat sees it (a card reserved unseen stays unseen);
    -- what lies outside the panels the drawing leaves out for a spectator (a hand)
    local pub = {}
    for key, x in pairs(o) do pub[key] = x end
    local other = n > 1 and v.obs[seat % n + 1]
    if type(o.players) == "table" and other and type(other.players) == "table" and other.players[seat] then
      local players = {}
      for k, x in ipairs(o.players) do players[k] = x end
      players[seat] = other.players[seat]
      pub.players = players
    end
    pub.spectator, pub.names = true, names
    local ok, svg = pcall(G.svg, pub)
    if not ok then error(svg, 0) end
    return { svg = svg }, text, private and v.seats or nil
  end
  for _, e in ipairs(events) do
    if e.k == "step" then
      local labels = {}
      for _, c in ipairs(e.choices) do labels[c] = label_of(G, state, c.seat, c.action) end
      for _, c in ipairs(e.choices) do
        local who = rec.seats[c.seat]
        local b, text, seats = board(c.seat)
        local what = c.action and (labels[c] or c.action) or ("no legal answer: " .. tostring(c.why))
        frames[#frames + 1] = { board = b, text = text, tip = c.action, who = text_private and c.seat or nil, seats = seats,
          label = string.format("step %d: seat %d (%s) %s", e.step, c.seat, who, what) }
        if c.prompt then messages[#messages + 1] = { role = "user", title = "to " .. who, text = c.prompt, frame = #frames - 1, fold = true } end
        if c.reply then messages[#messages + 1] = { role = "assistant", title = who .. (c.action and (" → " .. (labels[c] or c.action)) or ""),
          text = c.reply, usage = c.usage, mark = c.failure and (c.action and "rejected" or "forfeit") or nil, frame = #frames - 1 } end
      end
      local ok = true
      for _, c in ipairs(e.choices) do if not c.action then ok = false end end
      if ok then
        for _, c in ipairs(e.choices) do G.apply(state, c.seat, c.action) end
        now = nil
      end
    end
  end
  local b, text, seats = board(1)
  frames[#frames + 1] = { board = b, text = text, who = text_private and 1 or nil, seats = seats,
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
  return { frames = frames, messages = messages, facts = facts, verdict = verdict, compact = true, group = rec.game,
    seats = G.svg and not live and names or nil, seats_public = not private or nil, text_private = text_private,
    text_title = text_private and "what the deciding seat saw (its own observation; shown while that seat is picked)"
      or "what the deciding seat saw (nothing in this game is private)" }
end

return V
