-- games.wingspan.svg — the observed state drawn for the viewer: the birdfeeder's dice, the
-- bird tray, the four round goals, and each player's mat (forest, grassland, wetland rows of
-- five slots with the bird, its eggs, cached food and tucked cards), built from the
-- observation only (games/svgkit.lua pieces).
local K = require "games.svgkit"
local D = require "games.wingspan.data"

local M = {}

local HAB = { { "forest", "#2e7d32" }, { "grassland", "#c0a030" }, { "wetland", "#1565c0" } }
local FOOD = { invertebrate = "#8d6e63", seed = "#fbc02d", fish = "#1e88e5", fruit = "#c62828", rodent = "#757575",
               ["invertebrate/seed"] = "#a1887f" }
local COLOUR = { brown = "#a0522d", white = "#eeeeee", pink = "#f48fb1", none = "#cccccc" }
-- a slot is wide enough for the longest bird name (28 characters, "Black-Bellied
-- Whistling-Duck") at 11 px: at 150 the name ran under the next card
local SLOT_W, SLOT_H = 196, 46

-- card(o, id) -> a bird card at the origin (name, points, power colour band)
local function card(o, id)
  local c = o.cards[id]
  return K.group("bird", {
    K.rect(0, 0, SLOT_W - 4, SLOT_H - 4, { fill = "#fffdf5", stroke = "#555", rx = 3 }),
    K.rect(0, SLOT_H - 12, SLOT_W - 4, 8, { fill = COLOUR[c.colour] or "#ccc" }),
    K.text(3, 13, c.name, { font_size = 11 }),
    K.text(3, 27, c.points .. " pts", { font_size = 11 }),
  }, c.name .. ": " .. c.power)
end

function M.draw(o)
  local parts = {}
  local x0, y = 10, 20
  parts[#parts + 1] = K.text(x0, y, string.format("Wingspan, round %d of 4%s", o.round, o.over and " (over)" or ""), { font_size = 14, font_weight = "bold" })
  y = y + 16
  parts[#parts + 1] = K.text(x0, y + 12, "Birdfeeder:", { font_size = 11 })
  for k, face in ipairs(o.feeder) do
    parts[#parts + 1] = K.group("die", { K.rect(x0 + 70 + (k - 1) * 26, y, 22, 22, { fill = FOOD[face] or "#999", stroke = "#222", rx = 4 }) }, face)
  end
  parts[#parts + 1] = K.text(x0 + 220, y + 12, "Tray:", { font_size = 11 })
  for k, id in ipairs(o.tray) do parts[#parts + 1] = K.place(x0 + 255 + (k - 1) * SLOT_W, y - 8, card(o, id)) end
  y = y + 44
  local g = {}
  -- the round goals in the prompt's words (they were "R1: … [4/0/0]" with no legend, then
  -- the goals' ids, "nest_birds:bowl"), two a line
  for r, goal in ipairs(o.goals) do g[r] = "round " .. r .. ": " .. D.goal_words(goal.goal) .. (goal.points and (" [" .. table.concat(goal.points, "/") .. "]") or "") end
  parts[#parts + 1] = K.text(x0, y, "Round goals (" .. o.goal_side .. " side; once scored, [the points of seat 1/2/3...]):", { font_size = 11 })
  parts[#parts + 1] = K.text(x0, y + 15, table.concat(g, "     ", 1, math.min(2, #g)), { font_size = 11 })
  if #g > 2 then parts[#parts + 1] = K.text(x0, y + 30, table.concat(g, "     ", 3), { font_size = 11 }) end
  y = y + 42
  for i, p in ipairs(o.players) do
    local top = y
    parts[#parts + 1] = K.rect(x0 - 4, top, 80 + 5 * SLOT_W + 8, 3 * SLOT_H + 26, { fill = "none", stroke = K.SEATS[i] or "#333", stroke_width = 2 })
    parts[#parts + 1] = K.text(x0, top + 14, string.format("%s: %d points shown, %d cubes left", K.who(o, i), p.score, p.cubes),
      { font_size = 11, font_weight = "bold", fill = K.SEATS[i] or "#333" })
    for r, h in ipairs(HAB) do
      local ry = top + 20 + (r - 1) * SLOT_H
      parts[#parts + 1] = K.rect(x0, ry, 76, SLOT_H - 4, { fill = h[2], rx = 3 })
      parts[#parts + 1] = K.text(x0 + 4, ry + 16, h[1], { font_size = 10, fill = "#fff" })
      for c = 1, 5 do
        local sx = x0 + 80 + (c - 1) * SLOT_W
        local bird = p.rows[h[1]][c]
        if bird then
          parts[#parts + 1] = K.place(sx, ry, card(o, bird.id))
          local marks = {}
          for e = 1, bird.eggs do marks[#marks + 1] = K.circle(sx + 6 + (e - 1) * 9, ry + 35, 3, { class = "egg", fill = "#f5f0e1", stroke = "#444" }) end
          local held = {}     -- on the card's second line, right of its points
          if bird.tucked > 0 then held[#held + 1] = "tucked " .. bird.tucked end
          if bird.cache > 0 then held[#held + 1] = "food " .. bird.cache end
          if #held > 0 then marks[#marks + 1] = K.text(sx + SLOT_W - 8, ry + 27, table.concat(held, ", "), { font_size = 11, text_anchor = "end" }) end
          parts[#parts + 1] = table.concat(marks)
        else
          parts[#parts + 1] = K.rect(sx, ry, SLOT_W - 4, SLOT_H - 4, { fill = "none", stroke = "#bbb", stroke_dasharray = "3,3" })
        end
      end
    end
    y = top + 3 * SLOT_H + 32
  end
  return K.doc("wingspan", 100 + 5 * SLOT_W + 20, y + 10, parts)
end

return M
