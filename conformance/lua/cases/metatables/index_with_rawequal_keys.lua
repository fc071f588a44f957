local t = setmetatable({}, {__index = function(t, k) return math.type(k) end})
print(t[1], t[1.5], t[2^53])
t[1] = "one"
print(t[1.0])
