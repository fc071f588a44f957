print(3.0 & 1, 2.0 | 1.0, 1 << 2.0, ~5.0, math.type(3.0 & 1))
-- strings are not coerced by bitwise operators (no string metamethods for them)
print(pcall(function() return "3" & 1 end))
print(pcall(function() return 1 | "0x10" end))
