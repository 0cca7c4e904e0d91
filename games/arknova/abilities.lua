-- games/arknova/abilities.lua — the ability of each animal card (by card number) and the effect
-- of each sponsor card, as families with their strengths, in our own format. Entered by hand from
-- a second public card list (RULES.md names both lists), which gives each ability's keyword and
-- number; cards.lua keeps the first list's family name, and the tests check that the two agree.
-- An animal entry is a list of { family, value }: value is a number (the strength), an action
-- card (boost, action, multiplier) or a continent (iconic). What each family does, and which are
-- implemented and which are out of scope, is in RULES-AUDIT.md (AN-F lines) and init.lua
-- (`ABILITY` / `SPONSOR`).
local M = {}

local A = {}
local function a(num, ...) A[num] = { ... } end
a(401, { "sprint", 3 })
a(402, { "pack" })
a(403, { "hunter", 4 })
a(404, { "hunter", 2 })
a(405, { "clever" })
a(408, { "boost", "association" })
a(409, { "action", "association" })
a(410, { "hunter", 1 })
a(411, { "inventive", 1 }, { "full-throated" })
a(412, { "hunter", 4 })
a(413, { "jumping", 3 })
a(414, { "inventive", 1 })
a(415, { "boost", "association" })
a(416, { "multiplier", "association" }, { "full-throated" })
a(417, { "pack" })
a(418, { "iconic-animal", "EU" })
a(419, { "boost", "animals" })
a(420, { "hunter", 1 })
a(421, { "full-throated" })
a(422, { "sunbathing", 3 })
a(423, { "pack" })
a(424, { "pack" })
a(425, { "pouch", 1 })
a(426, { "resistance" })
a(427, { "assertion" })
a(428, { "boost", "sponsors" })
a(429, { "boost", "sponsors" }, { "flock", 2 })
a(430, { "action", "sponsors" })
a(431, { "resistance" })
a(432, { "assertion" })
a(434, { "multiplier", "sponsors" })
a(435, { "digging", 3 })
a(436, { "iconic-animal", "AM" })
a(437, { "sponsor-magnet" })
a(438, { "flock", 3 })
a(439, { "flock", 2 })
a(440, { "digging", 2 })
a(441, { "sponsor-magnet" })
a(442, { "multiplier", "sponsors" }, { "flock", 4 })
a(443, { "flock", 3 })
a(444, { "jumping", 2 })
a(445, { "digging", 2 })
a(446, { "digging", 4 })
a(447, { "pouch", 2 }, { "flock", 4 })
a(448, { "pouch", 2 })
a(449, { "venom", 2 })
a(450, { "pouch", 1 })
a(451, { "dominance" })
a(452, { "iconic-animal", "AF" })
a(453, { "action", "cards" })
a(454, { "sunbathing", 3 })
a(455, { "clever" })
a(456, { "pilfering", 1 })
a(457, { "multiplier", "cards" })
a(458, { "pilfering", 2 })
a(459, { "inventive", "primate" })   -- 1 / 2 / 3 X-tokens for 1 / 3 / 5 primate icons
a(460, { "clever" })
a(461, { "jumping", 4 })
a(462, { "jumping", 3 })
a(463, { "pilfering", 1 })
a(464, { "inventive", 1 })
a(465, { "clever" })
a(466, { "boost", "cards" })
a(467, { "clever" })
a(469, { "snapping", 2 })
a(470, { "venom", 2 })
a(471, { "sunbathing", 3 })
a(472, { "sunbathing", 3 })
a(473, { "sunbathing", 2 })
a(474, { "constriction" })
a(475, { "hypnosis", 3 })
a(476, { "iconic-animal", "AS" })
a(477, { "snapping", 1 })
a(478, { "sunbathing", 2 })
a(479, { "snapping", 1 })
a(480, { "snapping", 1 })
a(481, { "sunbathing", 4 })
a(482, { "constriction" })
a(483, { "constriction" })
a(485, { "hypnosis", 3 })
a(487, { "clever" })
a(489, { "snapping", 2 })
a(490, { "scavenging", 2 })
a(491, { "sprint", 1 })
a(492, { "venom", 2 })
a(494, { "sprint", 2 })
a(496, { "scavenging", 2 })
a(497, { "posturing", 1 })
a(499, { "scavenging", 3 })
a(500, { "scavenging", 3 })
a(501, { "posturing", 2 })
a(502, { "boost", "build" })
a(503, { "perception", 4 })
a(504, { "scavenging", 4 })
a(505, { "determination" })
a(506, { "scavenging", 5 })
a(507, { "sprint", 1 })
a(508, { "posturing", 3 })
a(509, { "determination" })
a(510, { "multiplier", "build" })
a(511, { "posturing", 1 })
a(512, { "perception", 4 })
a(513, { "perception", 4 })
a(514, { "peacocking" })
a(515, { "action", "build" })
a(516, { "multiplier", "build" })
a(517, { "iconic-animal", "AU" })
a(518, { "posturing", 1 })
a(522, { "inventive", 1 })
a(524, { "digging", 1 })
a(528, { "pouch", 1 })
M.ANIMAL = A

-- Sponsor effects by card number: a list of { family, ... }; the family names are ours. Two of
-- the three card lists (RULES.md) give sponsor texts; where one of them lists an effect the other
-- leaves out, both are entered.
--   now what k count: at once, k of what (appeal / money / x / cp) per count: "one" (once),
--     an icon kind (science, primate, ...), "projects" (projects supported), "small" / "large"
--     (animals of size 1-2 / 4-5 in the zoo)
--   income-money k / income-cp k / income-x k: at each break
--   income-class class: at each break 3 / 6 / 9 money for 1 / 3 / 5 icons of that class in the zoo
--   any-icon icon k: each time an icon of that kind is played into any zoo (its own card's
--     icons included: rulebook p. 16), k money
--   own-icon icon what k: each time the owner plays that icon, k of what (rep / cp)
--   cost-small k / cost-large k: animals of size 1-2 / 4-5 cost k less
--   worker: one association worker at once
--   patents: 1 CP per science icon at once; every other player 2 money per CP gained
--   vet: supporting a conservation project needs strength 4 instead of 5
--   uni-money: at once 2 / 5 / 10 money for 1 / 2 / 3 universities
--   immune: venom, constriction, hypnosis and pilfering do not touch the owner
--   end-science: 1 / 2 CP at the end for 3 / 6 science icons
--   end-classes k / end-continents k: 1 CP at the end for k different class / continent icons
--   end-unis k / end-rep k: 1 CP at the end for k universities / reputation k or more
--   take-card: take 1 card from the deck or within the reputation range (at once and as income)
--   on-icon icon what: each time the owner plays that icon, one free kiosk / pavilion / 1-hex
--     enclosure (free-kiosk, free-pavilion, free-e1), one pouch card (pouch) or any action card
--     to slot 1 (clever)
--   new-icon: each time the owner plays a continent or class icon not yet in the zoo, 1 appeal
--     and 2 money
--   end-e1 k: 1 CP at the end for k occupied 1-hex standard enclosures
--   release-again: each support of a release-into-the-wild project gives 1 CP more, and each
--     release project may be supported more than once (a free level still needed)
--   icon-tokens k: k player tokens on the card; supporting a base project, exactly 1 may be spent
--     as any one missing icon
--   end-supports k: 1 CP at the end for k conservation projects supported
--   free-e5: place one 5-hex standard enclosure for free at once (optional; the usual rules)
--   large-ignore: playing a large animal (size 4-5), one of its conditions may be missing
--   none: the card has no effect of its own
-- Sponsor buildings (243-257; their shapes and needs are in data.lua, D.SPONSOR_BUILDINGS):
--   building: place the sponsor's building on the zoo map at once, free (the sponsor can only be
--     played when it has a legal place)
--   icon-gain icon what k [any]: each time the owner plays that icon into the zoo (with "any":
--     into any zoo), k of what (appeal / x); the sponsor's own icons count (rulebook p. 16)
--   icon-ability icon family k: each time the owner plays that icon, the ability: perception k
--     (draw k, keep k/2), sunbathing k, or hunter with X = the owner's predator icons
--   end-icons icon n1 [n2]: 1 CP at the end for n1 icons of that kind (and 1 more for n2)
--   take-now: take 1 card from the deck or within the reputation range, once
--   income-adjacent k: at each break k money per building next to the sponsor's building (empty
--     standard enclosures do not count)
--   end-covered k: k appeal at the end when every space without rock or water is covered
--   engineer: each Build action, one more building of a kind just built (not a special
--     enclosure) at the normal cost, outside the action's strength
--   pairs-cp: at once 1 CP per 2 different continent / class icons in the zoo; every other
--     player 2 money per CP gained
--   diversity: one may build over rock and water spaces, and rock / water needs are ignored
--     (animals' and sponsor buildings')
--   end-pair-appeal k n: k appeal at the end per pair of a rock and a water icon, at most n pairs
-- Map connectivity (a space is connected when a building covers it or stands next to it):
--   cover-money kind: 1 money for each space of a new building next to a water / rock space
--   now-pairs icon k: at once k appeal per 2 icons of that kind
--   now-connected kind: at once 1 appeal per connected water / rock / bonus space, or ("border")
--     per connected border space without a building
--   end-connected kind: 1 CP at the end when every water / rock space is connected
--   end-unconnected kind: 1 CP at the end per 2 unconnected water / rock / bonus spaces
--   end-free-groups n: 1 CP at the end per n spaces of each group of touching spaces without a
--     building (rock and water left out)
-- A sponsor absent from this table has an effect that is out of scope (M.SPONSOR_OOS says why).
local S = {}
local function s(num, ...) S[num] = { ... } end
s(201, { "take-card" }, { "end-science" })
s(202, { "own-icon", "science", "rep", 1 })
s(203, { "vet" }, { "uni-money" }, { "end-unis", 3 })
s(204, { "now", "money", 2, "science" }, { "own-icon", "science", "cp", 1 })
s(205, { "none" })
s(206, { "now", "appeal", 2, "projects" }, { "income-cp", 1 })
s(208, { "now", "appeal", 1, "science" }, { "any-icon", "science", 2 }, { "end-classes", 5 })
s(209, { "now", "x", 1, "one" }, { "income-x", 1 }, { "end-unis", 3 })
s(210, { "on-icon", "AM", "free-kiosk" })
s(211, { "on-icon", "EU", "free-e1" }, { "end-e1", 5 })
s(212, { "on-icon", "AU", "pouch" })
s(213, { "on-icon", "AS", "free-pavilion" })
s(214, { "on-icon", "AF", "clever" })
s(215, { "icon-tokens", 2 }, { "end-supports", 5 })
s(218, { "icon-tokens", 2 }, { "end-supports", 5 })
s(263, { "free-e5" }, { "large-ignore" })
s(216, { "worker" }, { "end-rep", 9 })
s(220, { "now", "money", 3, "one" }, { "income-money", 3 }, { "end-rep", 9 })
s(222, { "patents" })
s(223, { "none" })
s(224, { "now", "x", 1, "one" }, { "release-again" })
s(225, { "now", "x", 1, "one" }, { "immune" }, { "end-continents", 5 })
s(226, { "end-continents", 5 })
s(229, { "now", "appeal", 1, "small" }, { "cost-small", 3 })
s(230, { "now", "appeal", 2, "large" }, { "cost-large", 4 })
for num, class in pairs({ [231] = "primate", [232] = "reptile", [233] = "bird", [234] = "predator", [235] = "herbivore" }) do
  s(num, { "now", "appeal", 1, class }, { "income-class", class })
end
s(236, { "any-icon", "primate", 3 })
s(237, { "any-icon", "reptile", 3 })
s(238, { "any-icon", "bird", 3 })
s(239, { "any-icon", "predator", 3 })
s(240, { "any-icon", "herbivore", 3 })
s(261, { "now", "appeal", 1, "one" }, { "end-classes", 5 })
s(262, { "now", "money", 2, "kinds" }, { "new-icon" })
s(243, { "building" }, { "icon-gain", "herbivore", "appeal", 2 }, { "end-icons", "herbivore", 6 })
s(244, { "building" }, { "icon-gain", "bird", "appeal", 2 }, { "end-icons", "bird", 6 })
s(245, { "building" }, { "icon-gain", "water", "appeal", 2 }, { "end-icons", "water", 6 })
s(246, { "building" }, { "icon-gain", "rock", "appeal", 2 }, { "end-icons", "rock", 6 })
s(247, { "building" }, { "icon-gain", "primate", "appeal", 2 }, { "end-icons", "primate", 6 })
s(248, { "building" }, { "icon-gain", "primate", "x", 1 })
s(249, { "building" }, { "icon-ability", "bird", "perception", 2 })
s(250, { "building" }, { "icon-ability", "reptile", "sunbathing", 2 })
s(251, { "building" }, { "icon-gain", "bear", "appeal", 2, "any" }, { "end-icons", "bear", 3, 6 })
s(252, { "building" }, { "icon-ability", "predator", "hunter" })
s(254, { "building" }, { "take-now" })
s(255, { "building" }, { "now", "appeal", 4, "one" })
s(256, { "building" }, { "now", "appeal", 4, "one" })
s(257, { "building" }, { "income-adjacent", 2 }, { "end-covered", 5 })
s(217, { "engineer" }, { "end-covered", 5 })
s(207, { "pairs-cp" })
s(219, { "diversity" }, { "now", "money", 2, "water" }, { "now", "money", 2, "rock" }, { "end-pair-appeal", 2, 3 })
s(241, { "now", "appeal", 1, "water" }, { "cover-money", "water" }, { "end-connected", "water" })
s(242, { "now-pairs", "rock", 3 }, { "cover-money", "rock" }, { "end-connected", "rock" })
s(258, { "now-connected", "water" }, { "end-unconnected", "water" })
s(259, { "now-connected", "rock" }, { "end-unconnected", "rock" })
s(260, { "now-connected", "border" }, { "end-free-groups", 6 })
s(264, { "now-connected", "bonus" }, { "end-unconnected", "bonus" })
M.SPONSOR = S

-- Sponsors out of scope and why (every sponsor is either above or here).
M.SPONSOR_OOS = {
  [221] = "doubled placement bonuses of border hexes (not modelled)",
  [227] = "choosing small or large animals and revealing cards for the first one (not modelled)",
  [228] = "an extra small animal per Animals action and one taken from the display (not modelled)",
  [253] = "its building is entered, but its effect (3 times, a herbivore icon lets one play a sponsor card "
    .. "from the hand inside the Animals action) is not modelled",
}
return M
