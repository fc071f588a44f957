print(pcall(function() return ("x"):rep(1.5) end))
print(pcall(string.char, 2^63))
print(pcall(function() local t = {}; return t[1] | 1 end))
