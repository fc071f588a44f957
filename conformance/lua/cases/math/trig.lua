local function r(x) return string.format("%.6f", x) end
print(r(math.sin(0)), r(math.sin(math.pi / 2)), r(math.cos(0)), r(math.cos(math.pi)), r(math.tan(math.pi / 4)))
print(r(math.asin(1)), r(math.acos(0)), r(math.atan(1)), r(math.atan(1, 1)), r(math.atan(1, -1)))
print(r(math.atan(-1, -1)), r(math.atan(0, -1)), r(math.atan(1, 0)), r(math.atan(0)), math.atan(0, 1))
print(math.sin(0), math.cos(0), math.type(math.sin(0)))
