print(string.format("%s|%10s|%-10s|%.2s|%5.1s|", "hello", "hi", "hi", "hello", "xyz"))
print(string.format("%s %s %s %s", nil, true, 12, 1.5))
print(string.format("%s", setmetatable({}, {__tostring = function() return "OBJ" end})))
print(string.format("%s", "a\0b") == "a\0b", #string.format("%s", "a\0b"))
