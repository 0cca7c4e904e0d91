-- games/arknova/prereqs.lua — the prerequisites printed on Ark Nova's animal and sponsor cards
-- (the conditions on the card's left edge), in our own format, entered by hand from two public
-- card lists that agree on them (RULES.md, "Components", names the lists and the few numbers
-- only one of them gives). A card number maps to its conditions:
--   <icon> = n      at least n icons of a continent (AF, EU, AS, AM, AU), class, "bear" or
--                   "science" in the zoo (partner zoos count as their continent, universities
--                   as science: the icons every project counts)
--   partner = n     animals: n partner zoos of the animal's continent; sponsors: n partner zoos
--   animals2        the upgraded Animals card; sponsors2: the upgraded Sponsors card
--   rep = n         reputation at least n
--   max_appeal = n  appeal at most n
local R = {}
local function r(num, t) R[num] = t end
-- animals
r(402, { predator = 3 })
r(403, { partner = 1 })
r(406, { AS = 3 })
r(407, { science = 2 })
r(409, { partner = 1 })
r(411, { predator = 2, animals2 = true })
r(412, { AM = 1 })
r(416, { bear = 1, animals2 = true })
r(418, { EU = 2 })
r(420, { EU = 1 })
r(421, { animals2 = true })
r(422, { partner = 1 })
r(425, { science = 1 })
r(426, { animals2 = true })
r(427, { science = 1 })
r(429, { AF = 3 })
r(430, { partner = 1 })
r(431, { animals2 = true })
r(432, { animals2 = true })
r(433, { herbivore = 1, bear = 1, partner = 1 })
r(434, { science = 2 })
r(436, { AM = 3 })
r(437, { AM = 1 })
r(441, { partner = 1 })
r(442, { herbivore = 2 })
r(446, { animals2 = true })
r(448, { AU = 1 })
r(451, { primate = 2, animals2 = true })
r(452, { AF = 2 })
r(453, { AF = 1 })
r(456, { partner = 1 })
r(457, { primate = 3 })
r(458, { AS = 1 })
r(459, { science = 1 })
r(461, { partner = 1 })
r(463, { partner = 1 })
r(464, { primate = 1 })
r(468, { science = 2 })
r(469, { reptile = 3 })
r(470, { AF = 1, reptile = 1 })
r(474, { reptile = 2 })
r(475, { science = 2, animals2 = true })
r(476, { AS = 2 })
r(481, { AM = 2, animals2 = true })
r(482, { partner = 1 })
r(483, { science = 2 })
r(485, { partner = 1 })
r(489, { partner = 1 })
r(492, { AU = 1, science = 1 })
r(498, { science = 2 })
r(500, { science = 1 })
r(501, { AS = 1 })
r(503, { bird = 2 })
r(504, { bird = 1 })
r(505, { animals2 = true })
r(506, { bird = 3 })
r(508, { partner = 1 })
r(509, { animals2 = true })
r(510, { EU = 1 })
r(512, { partner = 1 })
r(514, { AU = 2 })
r(516, { partner = 1 })
r(517, { AU = 1 })
-- sponsors
r(201, { sponsors2 = true })
r(202, { science = 1 })
r(204, { science = 4 })
r(205, { science = 3 })
r(206, { science = 4 })
r(207, { sponsors2 = true, max_appeal = 25 })
r(215, { partner = 2 })
r(216, { sponsors2 = true })
r(218, { science = 2 })
r(219, { sponsors2 = true })
r(221, { science = 1 })
r(222, { max_appeal = 25 })
r(224, { science = 1 })
r(227, { rep = 6 })
r(228, { rep = 3 })
r(231, { primate = 1 })
r(232, { reptile = 1 })
r(233, { bird = 1 })
r(234, { predator = 1 })
r(235, { herbivore = 1 })
r(243, { rep = 3 })
r(244, { rep = 3 })
r(245, { rep = 3 })
r(258, { max_appeal = 25 })
r(259, { max_appeal = 25 })
r(260, { max_appeal = 25 })
r(262, { sponsors2 = true })
r(263, { sponsors2 = true, rep = 6 })
r(264, { max_appeal = 25 })

local M = { BY_NUM = R }

-- ok(env, p, card) -> whether the seat meets the card's prerequisites; env.count_icon(p, icon);
-- a seat with no_prereqs set (setup option prereqs = false) meets every one; env.ignore_one(p, c)
-- true (WAZA Large Animal Program, 263, for a large animal): one printed condition may be missing
-- (one icon of a count, or one other condition)
function M.ok(env, p, c)
  local need = R[c.num]
  if not need or c.project or p.no_prereqs then return true end
  local short = 0
  for k, v in pairs(need) do
    if k == "animals2" then if not p.up.animals then short = short + 1 end
    elseif k == "sponsors2" then if not p.up.sponsors then short = short + 1 end
    elseif k == "rep" then if p.rep < v then short = short + 1 end
    elseif k == "max_appeal" then if p.appeal > v then short = short + 1 end
    elseif k == "partner" then
      local n = 0
      for _, z in ipairs(p.partners) do if c.sponsor or z == c.cont then n = n + 1 end end
      if n < v then short = short + (v - n) end
    else
      local n = env.count_icon(p, k)
      if n < v then short = short + (v - n) end
    end
  end
  if short == 0 then return true end
  return short == 1 and env.ignore_one ~= nil and env.ignore_one(p, c)
end

-- words(card) -> the prerequisites spelled for a card label ("" when none)
local NAMES = { animals2 = "upgraded Animals card", sponsors2 = "upgraded Sponsors card" }
function M.words(c)
  local need = R[c.num]
  if not need then return "" end
  local out = {}
  local keys = {}
  for k in pairs(need) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do
    local v = need[k]
    if NAMES[k] then out[#out + 1] = NAMES[k]
    elseif k == "rep" then out[#out + 1] = "reputation " .. v .. "+"
    elseif k == "max_appeal" then out[#out + 1] = "appeal " .. v .. " or less"
    elseif k == "partner" then out[#out + 1] = v .. " partner zoo" .. (v > 1 and "s" or "") .. (c.sponsor and "" or " of its continent")
    else out[#out + 1] = v .. " " .. k .. " icon" .. (v > 1 and "s" or "") end
  end
  return "needs " .. table.concat(out, ", ")
end

return M
