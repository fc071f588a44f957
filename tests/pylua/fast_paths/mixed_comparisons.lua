-- Order comparisons of values read from tables (classes unknown to the
-- translator): integers with floats, the edges of both, NaN, strings, an
-- object with __lt and __le, and the errors of what cannot be compared.
local V = setmetatable({}, {__lt = function(a, b) return true end, __le = function(a, b) return false end})
local vals = {3, 2.5, 2^53, 2^53 + 1, math.maxinteger, 2^63, math.mininteger, -2^63, 0/0, -0.0, 0, "10", "9"}
local out = {}
for i = 1, #vals do
  for j = 1, #vals do
    local a, b = vals[i], vals[j]
    local ok1, lt = pcall(function() return a < b end)
    local ok2, le = pcall(function() return a <= b end)
    out[#out + 1] = (ok1 and tostring(lt) or "E") .. (ok2 and tostring(le) or "E")
  end
end
put(table.concat(out, " "))
put(pcall(function() return vals[1] < vals[12] end))
put(V < V, V <= V, pcall(function() return V < 1 end))
local box = {lo = {x = 1, y = 2.5}, hi = {x = 4.0, y = 3}}
put(box.lo.x <= box.hi.x, box.hi.y < box.lo.y, box.lo.y <= box.hi.y)
return transcript()
