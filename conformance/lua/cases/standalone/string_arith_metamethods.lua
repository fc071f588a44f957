-- Arithmetic on strings goes through the string metatable's metamethods:
-- numeric strings convert there, a replaced metamethod takes over, and
-- errors raised inside carry no position.
local samples = {"10", "3.5", " 0x10 ", "1e2", "-7", "2^53"}
for _, s in ipairs(samples) do
  print(s, pcall(function() return s + 1, s * "2", 2 ^ s, s // 3, s % "4", -s end))
end
print(pcall(function() return "4" // "0" end))
print(pcall(function() return "4" % 0 end))
print("4.0" // "0", "-4" / "0")
print(pcall(function() return "abc" + 1 end))
print(pcall(function() return 1 - "x1" end))
local obj = setmetatable({}, {__sub = function(a, b) return "obj sub" end})
print("5" - obj, obj - "5")
local meta = getmetatable("")
local saved = meta.__add
meta.__add = function(a, b) return "replaced " .. tostring(a) .. "+" .. tostring(b) end
print("1" + 2, 3 + "4")
meta.__add = saved
print("1" + 2)
local sum = 0
for i = 1, 1000 do sum = sum + tostring(i) * "2" end
print(sum)
print(select(2, xpcall(function() return "4" // "0" end, debug.traceback)))
