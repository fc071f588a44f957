local t = setmetatable({}, {__unm = function(a, b) return "neg", rawequal(a, b) end})
print(-t)
