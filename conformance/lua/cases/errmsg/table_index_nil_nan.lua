print(pcall(function() local t = {}; t[nil] = 1 end))
print(pcall(function() local t = {}; t[0/0] = 1 end))
print(pcall(rawset, {}, nil, 1))
local t = {}
print(t[nil], t[0/0])
