local Point = {}
Point.__index = Point
function Point.new(x, y) return setmetatable({x = x, y = y}, Point) end
function Point:len2() return self.x * self.x + self.y * self.y end
function Point.__add(a, b) return Point.new(a.x + b.x, a.y + b.y) end
function Point.__tostring(p) return "(" .. p.x .. "," .. p.y .. ")" end
local p = Point.new(1, 2) + Point.new(3, 4)
print(tostring(p), p:len2(), getmetatable(p) == Point)
