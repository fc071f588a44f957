print(pcall(42))
print(pcall(nil))
print(pcall({}))
print(pcall(setmetatable({}, {__call = function(_, a) return "called with", a end}), "x"))
