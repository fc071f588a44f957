-- `goto continue` to a label ending the body of the loop it is in runs as
-- Python's continue; every other goto (out of a nested loop, past a
-- <close> variable, before `until`) keeps the dispatcher.  The loops mix
-- both, capture per-iteration locals, and divide by zero after them.
local odd = {}
for i = 1, 10 do
  if i % 2 == 0 then goto continue end
  odd[#odd + 1] = i
  ::continue::
end
put(table.concat(odd, ","))
local n, j = 0, 0
while j < 10 do
  j = j + 1
  if j == 3 then goto next end
  if j > 8 then goto next end
  n = n + j
  ::next::
end
put(n, j)
for k, v in ipairs({5, 6, 7, 8}) do
  if v == 6 then goto skip end
  n = n + v * k
  ::skip:: ::also::
end
put(n)
local fs = {}
for i = 1, 3 do
  local x = i * 10
  fs[#fs + 1] = function() return x end
  if i == 2 then goto continue end
  x = x + 1
  ::continue::
end
put(fs[1](), fs[2](), fs[3]())
local r = 0
repeat
  r = r + 1
  if r < 3 then goto cont end
  ::cont::
until r >= 5
put(r)
local pairs_seen = {}
for i = 1, 3 do
  for j = 1, 3 do
    if j == 2 then goto outer end
    pairs_seen[#pairs_seen + 1] = i .. j
  end
  ::outer::
end
put(table.concat(pairs_seen, " "))
local closed = {}
for i = 1, 3 do
  local c <close> = setmetatable({}, {__close = function() closed[#closed + 1] = i end})
  if i == 2 then goto continue end
  closed[#closed + 1] = "body" .. i
  ::continue::
end
put(table.concat(closed, " "))
local function divides(a, skip)
  for i = 1, 2 do
    local m = 0
    local f = function() m = m + 1 end
    if skip then goto continue end
    f()
    ::continue::
  end
  return 7 // a
end
put(pcall(divides, 0, true))
put(pcall(divides, 0, false))
local function count(t, limit)
  local total, i = 0, 0
  while true do
    i = i + 1
    if i > limit then break end
    if not t[i] then goto continue end
    if t[i] < 0 then return "negative at " .. i end
    total = total + t[i]
    ::continue::
  end
  return total
end
put(count({1, false, 3, nil, 5}, 6), count({1, -2}, 2))
local words = {}
for word in ("a bb ccc dd e"):gmatch("%a+") do
  if #word == 2 then goto continue end
  do
    local upper = word:upper()
    words[#words + 1] = upper
    if #word == 3 then goto continue end
  end
  words[#words + 1] = "!"
  ::continue::
end
put(table.concat(words))
return transcript()
