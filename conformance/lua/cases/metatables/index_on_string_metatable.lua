local mt = getmetatable("")
print(type(mt), mt.__index == string, ("abc").len == string.len, ("x").nope)
