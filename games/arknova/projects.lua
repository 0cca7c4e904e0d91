-- games/arknova/projects.lua — Ark Nova's conservation projects in our own format: the 12 base
-- projects (101-112, three on the board, four with four players) and the 20 project cards of the
-- zoo deck (113-132: ten release-into-the-wild projects, five breeding programmes, five that count
-- icons or animals), each with its three levels (left, middle, right); and the rules that decide
-- what a seat may support and what supporting does. Entered by hand from public card lists and
-- cross-checked (games/arknova/RULES.md, "Components", says which and where they disagree).
--
-- A project's `kind` says what a level needs:
--   count    — `need` icons / animals of what `count` names in the seat's zoo (an icon, "classes"
--              or "continents" for different ones, "water" / "rock" for the animals' water and
--              rock icons, "small" for animals of size 1-2, "large" for size 4-5)
--   release  — release one animal of the zoo with the `icon` into the wild; the level is decided
--              by its size: `size` "4+" (4 or 5), "3", or "2-" (1 or 2); every support also gives
--              the project's `rep`
--   breeding — an animal of the `icon` class whose continent has one of the seat's partner zoos
-- and each level gives `cp` conservation points and `rep` reputation.
local P = {}

local function level(need, cp, rep) return { need = need, cp = cp, rep = rep or 0 } end

-- base projects: the card's number, name, what is counted and the three levels
P.BASE = {}
local function base(num, name, count, levels)
  P.BASE[#P.BASE + 1] = { id = "p" .. num, num = num, name = name, kind = "count", count = count, levels = levels }
end
base(101, "Species Diversity", "classes", { level(5, 5), level(4, 3), level(3, 2) })
base(102, "Habitat Diversity", "continents", { level(5, 5), level(4, 3), level(3, 2) })
base(103, "Africa", "AF", { level(5, 5), level(4, 3), level(2, 2) })
base(104, "Americas", "AM", { level(5, 5), level(4, 3), level(2, 2) })
base(105, "Australia", "AU", { level(5, 5), level(4, 4), level(2, 2) })
base(106, "Asia", "AS", { level(5, 5), level(4, 3), level(2, 2) })
base(107, "Europe", "EU", { level(5, 5), level(4, 4), level(2, 2) })
base(108, "Primates", "primate", { level(5, 5), level(4, 4), level(2, 2) })
base(109, "Reptiles", "reptile", { level(5, 5), level(4, 4), level(2, 2) })
base(110, "Predators", "predator", { level(5, 5), level(4, 4), level(2, 2) })
base(111, "Herbivores", "herbivore", { level(5, 5), level(4, 4), level(2, 2) })
base(112, "Birds", "bird", { level(5, 5), level(4, 4), level(2, 2) })

-- the project cards of the zoo deck; as zoo cards they carry the fields every card has
P.DECK = {}
local function card(num, name, kind, what, levels, rep)
  P.DECK[#P.DECK + 1] = { id = "c" .. num, num = num, name = name, project = true, kind = kind,
    icon = kind ~= "count" and what or nil, count = kind == "count" and what or nil, levels = levels, rep = rep or 0,
    cont = "", class = "", size = 0, cost = 0, appeal = 0, cp = 0, science = 0, rock = 0, water = 0,
    flags = "", ability = "" }
end
local RELEASE = { { need = "4+", cp = 5, rep = 0 }, { need = "3", cp = 4, rep = 0 }, { need = "2-", cp = 3, rep = 0 } }
card(113, "Bavarian Forest National Park", "release", "EU", RELEASE, 1)
card(114, "Yosemite National Park", "release", "AM", RELEASE, 1)
card(115, "Angthong National Park", "release", "AS", RELEASE, 1)
card(116, "Serengeti National Park", "release", "AF", RELEASE, 1)
card(117, "Blue Mountains National Park", "release", "AU", RELEASE, 1)
card(118, "Savanna", "release", "predator", RELEASE, 1)
card(119, "Low Mountain Range", "release", "bird", RELEASE, 1)
card(120, "Bamboo Forest", "release", "herbivore", RELEASE, 1)
card(121, "Sea Cave", "release", "reptile", RELEASE, 1)
card(122, "Jungle", "release", "primate", RELEASE, 1)
local BREED = { level(1, 2, 2), level(1, 1, 2), level(1, 2, 0) }
card(123, "Bird Breeding Program", "breeding", "bird", BREED)
card(124, "Predator Breeding Program", "breeding", "predator", BREED)
card(125, "Reptile Breeding Program", "breeding", "reptile", BREED)
card(126, "Herbivore Breeding Program", "breeding", "herbivore", BREED)
card(127, "Primate Breeding Program", "breeding", "primate", BREED)
card(128, "Aquatic", "count", "water", { level(5, 4), level(4, 3), level(2, 2) })
card(129, "Geological", "count", "rock", { level(5, 4), level(4, 3), level(2, 2) })
card(130, "Small Animals", "count", "small", { level(8, 4), level(5, 3), level(2, 2) })
card(131, "Large Animals", "count", "large", { level(4, 4), level(3, 3), level(2, 2) })
card(132, "Research", "count", "science", { level(5, 4), level(4, 3), level(2, 2) })

P.BY_ID = {}
for _, pr in ipairs(P.BASE) do P.BY_ID[pr.id] = pr end
for _, pr in ipairs(P.DECK) do P.BY_ID[pr.id] = pr end
-- 2 players: one level of each base project is blocked (left of the first, middle of the second,
-- right of the third); played project cards on the board: at most one per player
P.BLOCKED_2P = { 1, 2, 3 }

local WORD = { classes = "different animal classes", continents = "different continents", water = "water icons",
  rock = "rock icons", small = "small animals (size 1-2)", large = "large animals (size 4-5)", science = "science icons",
  AF = "Africa icons", AM = "Americas icons", AU = "Australia icons", AS = "Asia icons", EU = "Europe icons" }
local SIZE = { ["4+"] = "size 4-5", ["3"] = "size 3", ["2-"] = "size 1-2" }
local function icon_word(x) return WORD[x] or (x .. " icons") end

-- the words for one level of a project (what it needs, what it gives)
function P.level_words(pr, lv)
  local l = pr.levels[lv]
  local gain = l.cp .. " CP" .. ((l.rep + (pr.kind == "release" and pr.rep or 0)) > 0
    and (" + " .. (l.rep + (pr.kind == "release" and pr.rep or 0)) .. " rep") or "")
  if pr.kind == "count" then return string.format("%d %s -> %s", l.need, icon_word(pr.count), gain) end
  if pr.kind == "release" then
    return string.format("release a %s animal (%s) -> %s, losing its appeal", pr.icon, SIZE[l.need], gain)
  end
  return string.format("a %s from a partner-zoo continent -> %s", pr.icon, gain)
end

-- the words for a project card in hand or on the display
function P.card_words(pr)
  local lv = {}
  for k = 1, 3 do lv[k] = P.level_words(pr, k) end
  return string.format("%s (%s %d: %s)", pr.name, pr.project and "conservation project card" or "base conservation project",
    pr.num, table.concat(lv, " / "))
end

-- rules ---------------------------------------------------------------------------------------
-- env: CARD, count_icon(p, icon), CLASSES, CONTINENTS (from games.arknova)

local function size_bucket(c)
  if c.size >= 4 then return "4+" elseif c.size == 3 then return "3" end
  return "2-"
end
P.size_bucket = size_bucket

-- count(env, p, what) -> how many of `what` the seat's zoo shows
function P.count(env, p, what)
  if what == "classes" or what == "continents" then
    local n = 0
    for _, c in ipairs(what == "classes" and env.CLASSES or env.CONTINENTS) do
      if env.count_icon(p, c) > 0 then n = n + 1 end
    end
    return n
  elseif what == "water" or what == "rock" or what == "small" or what == "large" then
    local n = 0
    for _, id in ipairs(p.zoo) do
      local c = env.CARD[id]
      if what == "water" then n = n + c.water elseif what == "rock" then n = n + c.rock
      elseif what == "small" then if c.size >= 1 and c.size <= 2 then n = n + 1 end
      elseif c.size >= 4 then n = n + 1 end
    end
    return n
  end
  return env.count_icon(p, what)
end

-- the animals of the zoo a release project at level lv could take
function P.release_animals(env, p, pr, lv)
  local out = {}
  for _, id in ipairs(p.zoo) do
    local c = env.CARD[id]
    if c.size > 0 and (c.cont == pr.icon or c.class == pr.icon) and size_bucket(c) == pr.levels[lv].need then
      out[#out + 1] = id
    end
  end
  return out
end

local function breeding_ok(env, p, pr)
  for _, id in ipairs(p.zoo) do
    local c = env.CARD[id]
    if c.class == pr.icon then
      for _, k in ipairs(p.partners) do if k == c.cont then return true end end
    end
  end
  return false
end

-- options(env, s, seat) -> the project task ids open to seat (the strength is the caller's):
-- "project:<id>:<level>" for a project on the board or a project card in hand (played, then
-- supported), with ":<animal>" for a release
function P.options(env, s, seat)
  local p = s.players[seat]
  local out = {}
  local done = {}
  for _, k in ipairs(p.supported) do done[k] = true end
  local again = env.release_again and env.release_again(p)
  local function offer(pr, levels)
    if done[pr.id] and not (again and pr.kind == "release") then return end
    for lv = 1, 3 do
      if levels[lv] == 0 then
        if pr.kind == "count" then
          local have = P.count(env, p, pr.count)
          if have >= pr.levels[lv].need then out[#out + 1] = "project:" .. pr.id .. ":" .. lv
          elseif not pr.project and (p.icon_tokens or 0) > 0 and have + 1 >= pr.levels[lv].need then
            -- Breeding Cooperation / Breeding Program (215, 218): exactly 1 token as any icon, base projects only
            out[#out + 1] = "project:" .. pr.id .. ":" .. lv .. ":token"
          end
        elseif pr.kind == "release" then
          for _, a in ipairs(P.release_animals(env, p, pr, lv)) do out[#out + 1] = "project:" .. pr.id .. ":" .. lv .. ":" .. a end
        elseif breeding_ok(env, p, pr) then
          out[#out + 1] = "project:" .. pr.id .. ":" .. lv
        end
      end
    end
  end
  for _, bp in ipairs(s.projects) do offer(P.BY_ID[bp.id], bp.levels) end
  local seen = {}
  for _, list in ipairs({ p.hand, p.bhand or {} }) do
    for _, id in ipairs(list) do
      local pr = P.BY_ID[id]
      if pr and not seen[id] then seen[id] = true; offer(pr, { 0, 0, 0 }) end
    end
  end
  return out
end

-- a project card played from hand goes onto the board after the base projects, the newest first;
-- past one played card per player the oldest leaves for the discard pile (its supporters keep
-- what they gained). A base project taken into the hand (assertion, dominance) is played the
-- same way (`from_hand`); when it leaves the board it goes back to the box, not to the deck's
-- discard pile.
local function place_card(s, id)
  local base = 0
  for k, bp in ipairs(s.projects) do if not (bp.card or bp.from_hand) then base = k end end
  local isbase = P.BY_ID[id].project == nil
  table.insert(s.projects, base + 1, { id = id, levels = { 0, 0, 0 }, card = not isbase or nil, from_hand = isbase or nil })
  local played = #s.projects - base
  if played > s.n then
    local old = table.remove(s.projects)
    if old.card then s.discard[#s.discard + 1] = old.id end
  end
end

-- release(env, s, seat, animal): the animal leaves the zoo for the discard pile: its appeal is
-- lost, its building has the place free again, its icons no longer count
function P.release(env, s, seat, aid)
  local p = s.players[seat]
  for i, id in ipairs(p.zoo) do if id == aid then table.remove(p.zoo, i); break end end
  for _, b in ipairs(p.buildings) do
    for i, id in ipairs(b.animals) do if id == aid then table.remove(b.animals, i); break end end
  end
  local lost = math.min(p.appeal, env.CARD[aid].appeal)
  p.appeal = p.appeal - lost
  p.released = (p.released or 0) + 1
  p.released_appeal = (p.released_appeal or 0) + lost
  s.discard[#s.discard + 1] = aid
end

-- support(env, s, seat, task): carry out "project:<id>:<level>[:<animal>]"; returns the CP and
-- reputation to gain (the caller moves the tracks, so their bonuses apply)
function P.support(env, s, seat, task)
  local p = s.players[seat]
  local pid, lv, aid = task:match("^project:([^:]+):(%d):?(.*)$")
  lv = tonumber(lv)
  local pr = P.BY_ID[pid]
  local onboard
  for _, bp in ipairs(s.projects) do if bp.id == pid then onboard = bp end end
  if not onboard then
    for i, id in ipairs(p.hand) do if id == pid then table.remove(p.hand, i); p.public[id] = nil; break end end
    for i, id in ipairs(p.bhand or {}) do if id == pid then table.remove(p.bhand, i); break end end
    place_card(s, pid)
    for _, bp in ipairs(s.projects) do if bp.id == pid then onboard = bp end end
  end
  onboard.levels[lv] = seat
  p.supported[#p.supported + 1] = pid
  if pr.kind == "release" then P.release(env, s, seat, aid) end
  if aid == "token" then p.icon_tokens = p.icon_tokens - 1 end
  local l = pr.levels[lv]
  local more = (pr.kind == "release" and env.release_again and env.release_again(p)) and 1 or 0
  return l.cp + more, l.rep + (pr.kind == "release" and pr.rep or 0)
end

-- the setup's base projects: `k` of the shuffled base projects, with the 2-player blocks
function P.setup(s, order, k)
  for i = 1, k do
    local levels = { 0, 0, 0 }
    if s.n == 2 then levels[P.BLOCKED_2P[i]] = -1 end
    s.projects[i] = { id = order[i], levels = levels }
  end
end

return P
