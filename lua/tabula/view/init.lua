-- tabula.view — the self-contained report.html of a run: overview (identity,
-- headline metrics, the scenario's plots), the trial list (sort, filter,
-- search) and one trial view per trial (the transcript beside the board, a
-- ply scrubber). One file: inline CSS, inline SVG, a little inline script;
-- nothing is loaded from the network, and every text from a record is escaped.
--
-- A scenario provides its parts through one hook, S.view (docs/SCENARIOS.md):
--   S.view = {
--     load = function(dir) -> src,              -- optional: { meta, recs } (default: run.json, trials.jsonl)
--     overview = function(src, kit) -> panels,  -- { { title =, html = }... }: plots and tables
--     row = function(rec) -> fields,            -- optional: trial list fields (see M.COLUMNS)
--     trial = function(rec, kit, src) -> tv,    -- { frames = { { board = spec, label =, text =, tip = }... },
--   }                                           --   messages = { { role, text, reasoning, usage, mark, frame }... },
--                                               --   facts = { { name, value }... }, verdict =, compact = }
-- tv.compact: the view of a long match (hundreds of large drawings): its frames are kept as
-- compact data (tabula.view.frames) and drawn in the browser when the user steps there, so
-- the page grows with what changes between frames; with no messages, the frames' captions
-- are its move list (tip: the action id, shown on hover); tv.text_title names the text fold;
-- tv.group names the views that share a token dictionary (a game's matches); tv.seats (the
-- seats' names) adds a selector of whose view is drawn: the public one or seat k's own
-- (frame.seats[k]; tv.seats_public: the game has nothing private, the public one serves),
-- and frame.who (the seat whose observation frame.text is) keeps that text hidden until
-- its seat is picked.
-- An overview panel with a group (panel.group, e.g. a game) is shown one group at a time.
-- kit = { html, board, plot, metrics } (the modules a panel draws with).
-- When the run recorded transcripts (tabula.transcripts), a trial view shows
-- them instead of the scenario's messages: every request message and reply,
-- placed on the frame whose board has the call's FEN; tv.call_marks[i] marks
-- the reply of call i (rejected, illegal…).
local html = require "tabula.view.html"
local board = require "tabula.view.board"
local plot = require "tabula.view.plot"
local frames_mod = require "tabula.view.frames"
local metrics = require "tabula.metrics"
local records = require "tabula.records"
local json = require "tabula.json"
local fs = require "tabula.fs"
local host = require "tabula.c.host"

local M = {}

-- the trial list's columns: key, heading, numeric, offered as a filter
M.COLUMNS = {
  { "id", "trial" }, { "case", "case" }, { "setting", "setting", false, true },
  { "outcome", "outcome", false, true }, { "reason", "reason", false, true },
  { "answer", "answer" }, { "expected", "expected" },
  { "turns", "turns", true }, { "tokens", "tokens", true }, { "cost", "cost ($)", true }, { "time", "time (s)", true },
}

-- usage_of(rec) -> tokens, cost: the record's usage and cost, or when it has none the sums
-- over the calls it keeps per step or per move (rec.steps, rec.per_move: chess puzzles,
-- ChessArena games); nil when no usage is recorded
function M.usage_of(rec)
  local function tok(u) return (tonumber(u.input) or 0) + (tonumber(u.output) or 0) end
  if type(rec.usage) == "table" and (rec.usage.input or rec.usage.output) then return tok(rec.usage), rec.cost end
  local tokens, cost, any = 0, nil, false
  for _, list in ipairs({ rec.steps, rec.per_move }) do
    for _, st in ipairs(type(list) == "table" and list or {}) do
      if type(st) == "table" and type(st.usage) == "table" then tokens, any = tokens + tok(st.usage), true end
      if type(st) == "table" and tonumber(st.cost) then cost = (cost or 0) + st.cost end
    end
  end
  return any and tokens or nil, rec.cost or cost
end

-- default_row(rec) -> the list fields every record format shares
function M.default_row(rec)
  local tokens, cost = M.usage_of(rec)
  return { id = rec.trial_id, case = rec.case_id or rec.problem_id or rec.puzzle_id or rec.item_id,
    setting = rec.setting, outcome = rec.status, reason = rec.reason, turns = rec.turns or rec.plies,
    tokens = tokens, cost = cost, time = rec.seconds,
    answer = M.verdict_field(rec, "answer"), expected = M.verdict_field(rec, "expected") }
end

-- the verdict of a trial, from the record fields docs/SCENARIOS.md documents:
-- each entry names the fields read for it, the first present wins
M.VERDICT = {
  { "reason", { "reason" } },
  { "answer", { "parsed", "choice", "given", "extracted" } },
  { "expected", { "expected", "answer_letter", "truth" } },
  { "ending", { "ending", "termination" } },
}

-- verdict(rec) -> { outcome = status, { "answer", "3" }, ... }: what the trial header shows for any scenario
function M.verdict(rec)
  local v = { outcome = rec.status or "?" }
  for _, e in ipairs(M.VERDICT) do
    for _, k in ipairs(e[2]) do
      local x = rec[k]
      if x ~= nil and x ~= json.null then
        v[#v + 1] = { e[1], type(x) == "table" and json.canonical(x) or tostring(x) }
        break
      end
    end
  end
  if #v == 1 and rec.status == "failure" and rec.reason == nil then v[#v + 1] = { "reason", "not recorded" } end
  return v
end

-- verdict_field(rec, name) -> the verdict's entry `name` ("answer", "expected"…) or nil
function M.verdict_field_of(v, name)
  for _, e in ipairs(v) do if e[1] == name then return e[2] end end
end
function M.verdict_field(rec, name) return M.verdict_field_of(M.verdict(rec), name) end

-- default_overview(src) -> the panels of a scenario without its own: success by the records' group
function M.default_overview(src)
  local by, names = {}, {}
  for _, r in ipairs(src.recs) do
    if r.status ~= "error" then
      local g = r.group ~= nil and tostring(r.group) or "all trials"
      if not by[g] then by[g] = { n = 0, ok = 0 }; names[#names + 1] = g end
      by[g].n, by[g].ok = by[g].n + 1, by[g].ok + (r.status == "success" and 1 or 0)
    end
  end
  if #names == 0 then return {} end
  table.sort(names)
  local groups = {}
  for _, g in ipairs(names) do
    local lo, hi = metrics.wilson(by[g].ok, by[g].n)
    groups[#groups + 1] = { label = string.format("%s (n=%d)", g, by[g].n), values = { { by[g].ok / by[g].n, lo, hi } } }
  end
  return { { title = "Success (95% Wilson intervals)", html = html.raw(plot.bars({ title = "success rate", ymax = 1, percent = true, groups = groups })) } }
end

-- board_of(fen) -> the board spec a recorded ctx.board position is drawn with:
-- ten ranks are Xiangqi, eight chess, an SGF node Go (games.go.svg.sgf); anything else is shown as its text
function M.board_of(fen)
  local placement = type(fen) == "string" and fen:match("^(%S+)") or ""
  local _, slashes = placement:gsub("/", "")
  if slashes == 9 then return { game = "xiangqi", fen = fen } end
  if slashes == 7 then return { game = "chess", fen = fen } end
  if type(fen) == "string" and fen:match("^%s*%(%s*;") then return { game = "go", sgf = fen, fen = fen } end
  return { game = "text", text = tostring(fen), fen = fen }
end

-- frames_from_calls(tr) -> one frame per distinct position the calls recorded (ctx.board)
function M.frames_from_calls(tr)
  local frames, last = {}, nil
  for i, c in ipairs(tr.calls or {}) do
    if c.fen and c.fen ~= last then
      frames[#frames + 1] = { board = M.board_of(c.fen), label = string.format("position at call %d", i) }
      last = c.fen
    end
  end
  return frames
end

-- load_run(dir) -> src: run.json and trials.jsonl of a run directory
function M.load_run(dir)
  local meta = json.read_file(dir .. "/run.json")
  local recs = records.final((records.read(dir .. "/trials.jsonl", { skip_bad = true })))
  return { dir = dir, meta = meta, recs = recs }
end

local function asset(name)
  return fs.read_or_fail(host.root .. "/lua/tabula/view/" .. name, "viewer asset")
end

local function fmt_num(v, key)
  if type(v) == "string" and (key == "answer" or key == "expected") and utf8.len(v) and utf8.len(v) > 40 then
    return v:sub(1, utf8.offset(v, 40) - 1) .. "…"
  end
  if type(v) ~= "number" then return v end
  if key == "cost" then return string.format("%.4f", v) end
  if key == "time" then return string.format("%.1f", v) end
  if math.type(v) == "float" and v ~= math.floor(v) then return string.format("%.3g", v) end
  return string.format("%d", math.floor(v))
end

-- identity(meta) -> the run's identity as a definition list
local function identity(meta)
  local rows = {}
  local function add(k, v) if v ~= nil and v ~= "" then rows[#rows + 1] = { k, v } end end
  add("scenario", meta.scenario)
  add("scenario file", meta.scenario_file and (meta.scenario_file .. (meta.scenario_sha256 and ("  sha256 " .. meta.scenario_sha256) or "")))
  if type(meta.model) == "table" then
    local m = {}
    for k, v in pairs(meta.model) do if type(v) ~= "table" then m[#m + 1] = k .. "=" .. tostring(v) end end
    table.sort(m)
    add("model", table.concat(m, ", "))
  else add("model", meta.model) end
  local opts = meta.options_identity or meta.options
  if type(opts) == "table" then add("settings", json.canonical(opts)) end
  for _, a in ipairs(type(meta.settings_adjusted) == "table" and meta.settings_adjusted or {}) do   -- refused by the model
    add("settings adjusted", string.format("--%s asked %s, sent %s: %s", a.setting, tostring(a.asked), tostring(a.sent), a.why))
  end
  local setup = meta.setup or {}
  if type(setup.prompts) == "table" and next(setup.prompts) then add("prompts (sha256)", json.canonical(setup.prompts)) end
  if type(meta.data) == "table" then add("data", json.canonical(meta.data)) end
  for k, v in pairs(setup) do if k ~= "prompts" then add("setup: " .. k, type(v) == "table" and json.canonical(v) or v) end end
  add("tabula version", meta.tabula_version)
  add("created", meta.created)
  add("resumed", meta.resumed and (tostring(meta.resumed) .. " times"))
  add("trials planned", meta.trials_planned)
  for k, v in pairs(meta.extra or {}) do add(k, v) end
  local out = { '<dl class="identity">' }
  for _, r in ipairs(rows) do
    out[#out + 1] = "<dt>" .. html.esc(r[1]) .. "</dt><dd>" .. html.esc(r[2]) .. "</dd>"
  end
  out[#out + 1] = "</dl>"
  return table.concat(out)
end

-- headline(recs) -> counts every run has: trials, outcomes, tokens, cost
local function headline(recs, rows, unit)
  local outcomes, tokens, cost, input, cached = {}, 0, 0, 0, 0
  for i, rec in ipairs(recs) do
    local r = rows[i]
    outcomes[r.outcome or "?"] = (outcomes[r.outcome or "?"] or 0) + 1
    tokens = tokens + (r.tokens or 0)
    cost = cost + (r.cost or 0)
    local u = type(rec.usage) == "table" and rec.usage or {}
    input, cached = input + (tonumber(u.input) or 0), cached + (tonumber(u.cached) or 0)
  end
  local parts = {}
  for k, v in pairs(outcomes) do parts[#parts + 1] = k .. " " .. v end
  table.sort(parts)
  local share = cached > 0 and input > 0 and string.format("; prompt cache %.1f%% of input", 100 * cached / input) or ""
  return string.format('<p class="headline">%d %s (%s); %d tokens; $%.4f%s</p>', #recs, unit or "trials",
    html.esc(table.concat(parts, ", ")), tokens, cost, share)
end

local function trial_list(rows)
  local present = {}
  for _, r in ipairs(rows) do for k, v in pairs(r) do if v ~= nil then present[k] = true end end end
  local cols = {}
  for _, c in ipairs(M.COLUMNS) do if present[c[1]] then cols[#cols + 1] = c end end
  local out = { '<div class="filters"><input id="search" type="search" placeholder="search trial or case id" aria-label="search">' }
  for _, c in ipairs(cols) do
    if c[4] then
      local vals, seen = {}, {}
      for _, r in ipairs(rows) do
        local v = r[c[1]]
        if v ~= nil and not seen[tostring(v)] then seen[tostring(v)] = true; vals[#vals + 1] = tostring(v) end
      end
      table.sort(vals)
      out[#out + 1] = string.format('<label>%s <select class="filter" data-col="%s"><option value="">all</option>', html.esc(c[2]), c[1])
      for _, v in ipairs(vals) do out[#out + 1] = string.format('<option value="%s">%s</option>', html.esc(v), html.esc(v)) end
      out[#out + 1] = "</select></label>"
    end
  end
  out[#out + 1] = string.format(' <span class="count"><span id="shown">%d</span> of %d shown</span></div>', #rows, #rows)
  out[#out + 1] = '<table id="trial-list" class="list"><thead><tr>'
  for _, c in ipairs(cols) do
    out[#out + 1] = string.format('<th data-num="%s">%s</th>', c[3] and "1" or "", html.esc(c[2]))
  end
  out[#out + 1] = "</tr></thead><tbody>"
  for i, r in ipairs(rows) do
    local a = { class = "trow " .. (r.outcome or ""), ["data-n"] = i, ["data-id"] = r.id,
      ["data-search"] = string.lower(tostring(r.id or "") .. " " .. tostring(r.case or "")) }
    for _, c in ipairs(cols) do if c[4] then a["data-" .. c[1]] = r[c[1]] ~= nil and tostring(r[c[1]]) or "" end end
    out[#out + 1] = "<tr" .. html.attrs(a) .. ">"
    for _, c in ipairs(cols) do
      local v = r[c[1]]
      out[#out + 1] = string.format("<td%s>%s</td>", type(v) == "number" and (' data-v="' .. v .. '"') or "", html.esc(fmt_num(v, c[1])))
    end
    out[#out + 1] = "</tr>"
  end
  out[#out + 1] = "</tbody></table>"
  return table.concat(out)
end

local function usage_text(u, cost)
  if type(u) ~= "table" then return nil end
  local parts = {}
  for _, k in ipairs({ "input", "cached", "output", "reasoning" }) do
    if (u[k] or 0) > 0 then parts[#parts + 1] = k .. " " .. u[k] end
  end
  if cost and cost > 0 then parts[#parts + 1] = string.format("$%.5f", cost) end
  if #parts == 0 then return nil end
  return table.concat(parts, " · ")
end

local MARKS = { illegal = "illegal", rejected = "rejected", no_command = "no command", error = "error", forfeit = "forfeit" }

-- chunks: a board or message body that recurs across trial views (the system
-- prompt of every trial, identical games of repeated trials) is kept once in a
-- <template id="r-N"> and put in place when a trial view opens. Inside a
-- drawing, the parts a game marks as shared (games.svgkit.share: a card, a
-- tile, a player's board, the same in many frames of a match) are chunks too:
-- kept once as <template><svg>part</svg></template>, placed by <g data-r="N">.
local function new_pool() return { id = {}, list = {}, count = {}, svg = {} } end

local function chunk(pool, s, is_svg)
  if not pool then return s end
  local i = pool.id[s]
  if not i then i = #pool.list + 1; pool.list[i] = s; pool.id[s] = i; pool.count[i] = 0; pool.svg[i] = is_svg end
  pool.count[i] = pool.count[i] + 1
  return "\1" .. i .. "\2"
end

-- drawing(pool, svg) -> the drawing with each shared part ("\3part\4", parts within
-- parts too) made a chunk
local function drawing(pool, svg)
  if not svg:find("\3", 1, true) then return svg end
  if not pool then return (svg:gsub("[\3\4]", "")) end
  local stack, at = { {} }, 1
  while true do
    local i = svg:find("[\3\4]", at)
    local top = stack[#stack]
    if not i then top[#top + 1] = svg:sub(at); break end
    top[#top + 1] = svg:sub(at, i - 1)
    if svg:byte(i) == 3 then stack[#stack + 1] = {}
    elseif #stack > 1 then
      local part = table.concat(table.remove(stack))
      local outer = stack[#stack]
      outer[#outer + 1] = chunk(pool, part, true)
    end
    at = i + 1
  end
  return table.concat(stack[1])
end

M.SHARE_MIN = 120

-- resolve(pool, text, shared) -> text with each chunk inlined, or replaced by a
-- placeholder when it recurs (shared: chunk -> template number, in order);
-- chunks inside chunks are resolved the same way
local function resolve(pool, text, shared)
  shared.done = shared.done or {}
  return (text:gsub("\1(%d+)\2", function(n)
    n = tonumber(n)
    local s = shared.done[n]
    if not s then s = resolve(pool, pool.list[n], shared); shared.done[n] = s end
    if pool.count[n] < 2 or #s < M.SHARE_MIN then return s end
    if not shared[n] then shared.n = shared.n + 1; shared[n] = shared.n; shared.order[shared.n] = n end
    return string.format(pool.svg[n] and '<g data-r="%d"></g>' or '<i data-r="%d"></i>', shared[n])
  end))
end

-- image_html(file) -> an <img> holding the PNG a model was sent (a data: address, so the
-- page stays one file); the pool keeps an image sent in many calls once per page
local function image_html(file)
  local data = file and fs.read(file)
  if not data then return '<p class="missing">[image not found: ' .. html.esc(file) .. "]</p>" end
  return '<img class="sent" alt="image sent to the model" src="data:image/png;base64,' .. require("tabula.base64").encode(data) .. '">'
end

local function message(m, pool)
  local cls = "msg role-" .. (m.role or "user") .. (m.mark and " bad" or "")
  local head = { '<div class="mhead"><b>', html.esc(m.title or m.role or "message"), "</b>" }
  if m.mark then head[#head + 1] = ' <span class="badge">' .. html.esc(MARKS[m.mark] or m.mark) .. "</span>" end
  local u = usage_text(m.usage, m.cost)
  if u then head[#head + 1] = ' <span class="usage">' .. html.esc(u) .. "</span>" end
  head[#head + 1] = "</div>"
  local body = chunk(pool, "<pre>" .. html.esc(m.text or "") .. "</pre>")
  for _, file in ipairs(m.images or {}) do body = body .. chunk(pool, image_html(file)) end
  if m.fold then body = "<details><summary>show</summary>" .. body .. "</details>" end
  local reasoning = ""
  if type(m.reasoning) == "string" and m.reasoning ~= "" then
    reasoning = '<details class="reasoning"><summary>reasoning</summary><pre>' .. html.esc(m.reasoning) .. "</pre></details>"
  end
  return string.format('<div class="%s" data-frame="%d">%s%s%s</div>', cls, m.frame or 0, table.concat(head), reasoning, body)
end

-- trial_view(id, tv [, pool [, dicts]]) -> the HTML of one trial view (inside a <template>);
-- tv.compact (a view of many large frames) keeps its frames as tabula.view.frames data
-- against the token dictionary of its group (tv.group: a game's matches share one; dicts:
-- frames.new_dicts()), drawn in the browser on demand. tv.seats (the seats' names) adds
-- a selector of whose view is drawn: the public one (frame.board) or seat k's own
-- (frame.seats[k], a board spec); frame.who names the seat whose observation frame.text is,
-- shown only while that seat is picked.
function M.trial_view(id, tv, pool, dicts)
  local frames = tv.frames or {}
  if #frames == 0 then frames = { { board = { game = "text", text = "(no board for this trial)" }, label = "" } } end
  local out = { string.format('<div class="tv" data-trial="%s" data-frames="%d"><h2>%s</h2>', html.esc(id), #frames, html.esc(id)) }
  if tv.verdict then
    local v = tv.verdict
    local parts = { "<b>" .. html.esc(v.outcome) .. "</b>" }
    for _, e in ipairs(v) do parts[#parts + 1] = '<span class="vk">' .. html.esc(e[1]) .. "</span> " .. html.esc(e[2]) end
    out[#out + 1] = string.format('<p class="verdict %s">%s</p>', html.esc(v.outcome), table.concat(parts, " · "))
  end
  if tv.facts and #tv.facts > 0 then
    out[#out + 1] = '<dl class="facts">'
    for _, f in ipairs(tv.facts) do
      out[#out + 1] = "<dt>" .. html.esc(f[1]) .. "</dt><dd>" .. html.esc(f[2]) .. "</dd>"
    end
    out[#out + 1] = "</dl>"
  end
  out[#out + 1] = '<div class="cols"><div class="boardpane"><div class="scrub"' .. (#frames < 2 and " hidden" or "") .. '>'
    .. '<button data-step="-9999" title="first (Home)">|◀</button><button data-step="-1" title="previous (←)">◀</button>'
    .. string.format('<input type="range" min="0" max="%d" value="0" aria-label="ply">', #frames - 1)
    .. '<button data-step="1" title="next (→)">▶</button><button data-step="9999" title="last (End)">▶|</button>'
    .. '<span class="pos"></span></div><div class="frames">'
  if tv.compact and dicts then
    -- one figure, drawn by report.js from the frames' compact data when the user steps
    local list = {}
    local function svg_of(b) return b and (board.svg(b):gsub("[\3\4]", "")) or nil end
    for i, f in ipairs(frames) do
      local seats
      if tv.seats and not tv.seats_public then
        seats = {}
        for k = 1, #tv.seats do seats[k] = svg_of((f.seats or {})[k]) end
      end
      list[i] = { svg = svg_of(f.board), text = f.text, label = f.label, tip = f.tip, who = f.who, seats = seats }
    end
    if tv.seats then
      -- whose view: the public one, or one seat's own (its private holdings drawn)
      local opts = { '<option value="0">everyone\'s: the public view</option>' }
      for k, who in ipairs(tv.seats) do
        opts[#opts + 1] = string.format('<option value="%d">seat %d, %s: its own view%s</option>', k, k, html.esc(who),
          not tv.seats_public and " (private)" or tv.text_private and " (drawn as the public one; its own observation text shows while it is picked)"
            or " (the public one: nothing is private in this game)")
      end
      out[#out + 1] = '<p class="seat-pick"><label>view <select class="seat-pick">' .. table.concat(opts) .. "</select></label></p>"
    end
    local dict = frames_mod.dict_for(dicts, tv.group)
    out[#out + 1] = '<figure class="frame cur" data-i="0"><div class="fboard"></div><figcaption></figcaption>'
      .. '<details class="obs-text"><summary>' .. html.esc(tv.text_title or "text observation") .. '</summary><pre></pre></details></figure>'
      .. frames_mod.element("frames-data", frames_mod.data(dict, list), ' data-dict="' .. html.esc(tostring(tv.group or "")) .. '"')
  else
    for i, f in ipairs(frames) do
      local text = f.text and chunk(pool, '<details class="obs-text"><summary>text observation</summary><pre>' .. html.esc(f.text) .. "</pre></details>") or ""
      out[#out + 1] = string.format('<figure class="frame%s" data-i="%d">%s<figcaption>%s</figcaption>%s</figure>',
        i == 1 and " cur" or "", i - 1, chunk(pool, drawing(pool, board.svg(f.board))), html.esc(f.label or ""), text)
    end
  end
  out[#out + 1] = "</div>"
  if tv.legend then out[#out + 1] = '<p class="legend">' .. html.esc(tv.legend) .. "</p>" end
  out[#out + 1] = '</div><div class="transcript">'
  for _, m in ipairs(tv.messages or {}) do out[#out + 1] = message(m, pool) end
  if not tv.messages or #tv.messages == 0 then out[#out + 1] = '<p class="empty">No transcript recorded for this trial.</p>' end
  out[#out + 1] = "</div></div></div>"
  return table.concat(out)
end

-- transcript_messages(tr, tv) -> the messages of a recorded transcript
-- (tabula.transcripts): per call the new request messages, then the reply.
-- A call is placed on the first frame (from the previous call's on) whose board
-- has the call's FEN (or on frame tv.call_frames[i], 1-based); tv.call_marks[i]
-- marks call i's reply (e.g. "illegal").
function M.transcript_messages(tr, tv)
  local frames, marks = tv.frames or {}, tv.call_marks or {}
  local out, at = {}, 1
  for i, c in ipairs(tr.calls or {}) do
    if tv.call_frames and tv.call_frames[i] then
      at = tv.call_frames[i]
    elseif c.fen then
      for j = at, #frames do
        if frames[j].board and frames[j].board.fen == c.fen then at = j; break end
      end
    end
    for j = c.new_from or 1, #(c.messages or {}) do
      local m = c.messages[j]
      local text, images = m.content, nil
      if type(text) == "table" then
        local parts = {}
        images = {}
        for _, p in ipairs(text) do
          if p.type == "image" then images[#images + 1] = p.file else parts[#parts + 1] = p.text or "" end
        end
        text = table.concat(parts, "\n")
      end
      out[#out + 1] = { role = m.role, text = text, images = images, fold = m.role == "system", frame = at - 1 }
    end
    local r = c.reply
    if r then
      out[#out + 1] = { role = "assistant", title = string.format("assistant · call %d%s", i, r.cached and " (from cache)" or ""),
        text = r.text, reasoning = r.reasoning, usage = r.usage, cost = r.cost, mark = marks[i], frame = at - 1 }
    else
      out[#out + 1] = { role = "error", text = "no reply: " .. tostring(c.error or "infrastructure error"), mark = "error", frame = at - 1 }
    end
  end
  return out
end

-- load_transcripts(dir) -> trial_id -> transcript (none when the run has none)
local function load_transcripts(dir)
  if fs.kind(dir .. "/transcripts/trials.jsonl") ~= "file" then return {} end
  return require("tabula.transcripts").load_all(dir)
end

M.kit = { html = html, board = board, plot = plot, metrics = metrics }

-- panels(list) -> the overview's figures. Panels with a group (p.group: a game's name)
-- are shown one group at a time, picked with a selector above them (report.js); the
-- others always
local function panels(list)
  local groups, seen = {}, {}
  for _, p in ipairs(list or {}) do
    if p.group and not seen[p.group] then seen[p.group] = true; groups[#groups + 1] = p.group end
  end
  local out = {}
  local function figure(p)
    out[#out + 1] = string.format('<figure class="panel%s"%s><figcaption>%s</figcaption>%s</figure>',
      p.wide and " wide" or "", p.group and (' data-group="' .. html.esc(p.group) .. '"' .. (p.group ~= groups[1] and " hidden" or "")) or "",
      html.esc(p.title or ""), html.str(p.html))
  end
  out[#out + 1] = '<div class="panels">'
  for _, p in ipairs(list or {}) do if not p.group then figure(p) end end
  out[#out + 1] = "</div>"
  if #groups > 0 then
    out[#out + 1] = '<p class="group-pick"><label>panels for <select id="panel-group">'
    for _, g in ipairs(groups) do out[#out + 1] = '<option value="' .. html.esc(g) .. '">' .. html.esc(g) .. "</option>" end
    out[#out + 1] = '</select></label></p><div class="panels">'
    for _, p in ipairs(list or {}) do if p.group then figure(p) end end
    out[#out + 1] = "</div>"
  end
  return table.concat(out)
end

-- page{ title, identity = meta, headline, panels, rows, views } -> the whole document
-- (page{ title, body } for a page of other content in the same frame)
function M.page(o)
  local out = {
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    "<title>", html.esc(o.title), "</title><style>", asset("report.css"), "</style></head>",
    o.reload and string.format('<body data-reload="%d">', math.max(1, math.floor(o.reload))) or "<body>",
    board.defs(),
    '<header><h1>', html.esc(o.title), "</h1>",
    o.rows and '<nav><a href="#">overview</a> · <a href="#trials">trials</a>' or "",
    o.letters and ' · <button id="letters" type="button">Latin letters</button>' or "", o.rows and "</nav>" or "", "</header>",
  }
  if o.body then
    out[#out + 1] = '<section id="overview">' .. o.body .. "</section>"
  else
    out[#out + 1] = '<section id="overview"><details class="ident"><summary>run identity</summary>' .. identity(o.identity or {})
      .. "</details>" .. (o.headline or "") .. panels(o.panels) .. "</section>"
  end
  if o.rows then
    out[#out + 1] = '<section id="trials"><h2>' .. html.esc(o.list_title or "Trials") .. "</h2>" .. trial_list(o.rows) .. "</section>"
    out[#out + 1] = '<section id="view" hidden></section>'
    for i, v in ipairs(o.views or {}) do
      out[#out + 1] = string.format('<template id="tv-%d">%s</template>', i, v)
    end
    for i, v in ipairs(o.shared or {}) do
      out[#out + 1] = string.format('<template id="r-%d">%s</template>', i, v)
    end
    if o.tokens then out[#out + 1] = o.tokens end
  end
  out[#out + 1] = "<script>" .. asset("report.js") .. "</script></body></html>\n"
  return table.concat(out)
end

-- live_note(live, n, planned) -> the line a page written during the run opens with
local function live_note(live, n, planned)
  if live.interrupted then
    return string.format('<p class="live">Written when the run was interrupted, at %s: %d%s trials recorded. '
      .. "Running the same command continues the run; its end writes the final page.</p>",
      html.esc(live.at), n, planned and (" of " .. planned) or "")
  end
  return string.format('<p class="live">Written during the run, at %s: %d%s trials recorded so far. '
    .. "This page is rewritten every %s seconds while the run lasts and reloads itself to show it; the run's end writes the final one, which stays.</p>",
    html.esc(live.at), n, planned and (" of " .. planned) or "", html.esc(live.every))
end

-- build(dir, S [, opts]) -> the report.html text of a run; opts.live = { at, every }
-- for a page written during the run (tabula.view.live), or { at, interrupted = true }
-- for the page written when the run was interrupted. A run with --variant gets a
-- headline and overview panels per variant (its trials alone: pooling would mix arms).
function M.build(dir, S, opts)
  opts = opts or {}
  local hook = S.view or {}
  local src = (hook.load or M.load_run)(dir)
  src.dir, src.scenario = dir, S
  src.live = opts.live      -- a page written during the run: a trial hook may leave out what is costly to make
  src.transcripts = src.transcripts or load_transcripts(dir)
  local rows, views, pool, dicts = {}, {}, new_pool(), frames_mod.new_dicts()
  for i, rec in ipairs(src.recs) do
    local row = M.default_row(rec)
    if hook.row then for k, v in pairs(hook.row(rec) or {}) do row[k] = v end end
    row.id = row.id or tostring(i)
    rows[i] = row
    local key = rec.trial_id or rec.game_id or rec.match_id      -- a trial, an arena's game, a match
    local tv
    if hook.trial then   -- a failure names the trial it was drawing (M.try_write keeps the trace)
      local okt, got = xpcall(hook.trial, debug.traceback, rec, M.kit, src)
      if not okt then error(string.format("drawing %s: %s", key or ("record " .. i), tostring(got)), 0) end
      tv = got
    end
    tv = tv or { messages = { { role = "record", text = json.encode(rec, { pretty = true }) } } }
    local tr = key and src.transcripts[key]
    if tr and #(tr.calls or {}) > 0 then
      if not tv.frames or #tv.frames == 0 then tv.frames = M.frames_from_calls(tr) end
      tv.messages = M.transcript_messages(tr, tv)
      if not hook.trial then
        tv.messages[#tv.messages + 1] = { role = "record", text = json.encode(rec, { pretty = true }), fold = true, frame = #tv.frames - 1 }
      end
    end
    tv.verdict = tv.verdict or M.verdict(rec)
    if tv.verdict.outcome == "?" and row.outcome then tv.verdict.outcome = tostring(row.outcome) end
    if row.reason and not M.verdict_field_of(tv.verdict, "reason") then table.insert(tv.verdict, 1, { "reason", tostring(row.reason) }) end
    for _, e in ipairs(tv.verdict) do       -- the list shows the verdict's answer and expected answer
      if (e[1] == "answer" or e[1] == "expected") and row[e[1]] == nil then row[e[1]] = e[2] end
    end
    views[i] = M.trial_view(row.id, tv, pool, dicts)
  end
  local shared = { n = 0, order = {} }
  for i, v in ipairs(views) do views[i] = resolve(pool, v, shared) end
  local chunks = {}
  for i, n in ipairs(shared.order) do
    chunks[i] = pool.svg[n] and ('<svg xmlns="http://www.w3.org/2000/svg">' .. shared.done[n] .. "</svg>") or shared.done[n]
  end
  local meta = src.meta or {}
  local function overview_of(s2) return hook.overview and hook.overview(s2, M.kit) or M.default_overview(s2) end
  local order = type(meta.setup) == "table" and meta.setup.variant_order
  local overview, head
  if type(order) == "table" and #order > 0 then   -- one headline and one set of panels per variant
    overview, head = {}, {}
    for _, name in ipairs(order) do
      local sub, vrows = {}, {}
      for k, v in pairs(src) do sub[k] = v end
      sub.recs = {}
      for i, rec in ipairs(src.recs) do
        local v = rec.variant or (type(rec.trial_id) == "string" and rec.trial_id:match("@([%w_.-]+)$"))
        if v == name then sub.recs[#sub.recs + 1] = rec; vrows[#vrows + 1] = rows[i]; rows[i].variant = name end
      end
      head[#head + 1] = (headline(sub.recs, vrows, src.unit):gsub('^<p class="headline">', '<p class="headline">' .. html.esc(name) .. ": "))
      for _, panel in ipairs(overview_of(sub)) do
        panel.title = name .. ": " .. tostring(panel.title or "")
        overview[#overview + 1] = panel
      end
    end
    head = table.concat(head)
  else
    overview, head = overview_of(src), headline(src.recs, rows, src.unit)
  end
  -- the Latin-letter switch only where a Xiangqi board is drawn
  local letters = false
  for _, list in ipairs({ views, chunks }) do
    for _, v in ipairs(list) do if v:find('class="board xiangqi', 1, true) then letters = true end end
  end
  for _, p in ipairs(overview) do if html.str(p.html):find('class="board xiangqi', 1, true) then letters = true end end
  return M.page({ letters = letters,
    reload = opts.live and not opts.live.interrupted and tonumber(opts.live.every) or nil,   -- a page written during the run reloads itself
    title = "tabula report: " .. tostring(meta.scenario or S.name) .. (function()
      local m = type(meta.model) == "table" and meta.model.name or meta.model or src.subtitle
      return m and m ~= "" and (" — " .. tostring(m)) or ""
    end)(),
    identity = meta, headline = (opts.live and live_note(opts.live, #src.recs, meta.trials_planned) or "") .. head,
    panels = overview,
    rows = rows, views = views, shared = chunks, list_title = src.list_title,
    tokens = #dicts.order > 0 and frames_mod.dicts_html(dicts, html.esc) or nil,
  })
end

-- write(dir, S [, opts]) -> path, bytes: writes dir/report.html (atomically replaced)
function M.write(dir, S, opts)
  local text = M.build(dir, S, opts)
  local path = dir .. "/report.html"
  local ok, err = fs.write_atomic(path, text)
  if not ok then require("tabula.cli").fail("%s", err) end
  return path, #text
end

-- try_write(dir, S [, opts]) -> path, bytes | nil, message: M.write, a failure told in one
-- line (a full disk; a bug in a drawing, named by its trial and place, its trace kept in
-- DIR/report.html.trace for whoever mends it). The records are never touched.
function M.try_write(dir, S, opts)
  local cli = require "tabula.cli"
  local trace = dir .. "/report.html.trace"
  local ok, path, size = xpcall(M.write, function(e)
    if cli.is_user_error(e) then return e end
    return debug.traceback(tostring(e), 2)
  end, dir, S, opts)
  if ok then os.remove(trace); return path, size end
  if cli.is_user_error(path) then return nil, path.message end
  local msg = tostring(path)
  fs.write_atomic(trace, msg .. "\n")
  return nil, string.format("%s (a bug; its trace is in %s)", msg:match("^[^\n]*"), trace)
end

-- page_failed(dir, message [, stands]): a page try_write could not write, raised as the
-- one line tabula prints (exit status 1), saying what stands beside the records
function M.page_failed(dir, message, stands)
  error(require("tabula.cli").user_error(string.format("report.html could not be written: %s; %sthe records untouched (`tabula report %s` writes the page again)",
    message, stands and (stands .. ", ") or "", dir), 1), 0)
end

return M
