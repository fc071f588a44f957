print(pcall(function() local x <close> = {} end))
print(pcall(function() local y <close> = 42 end))
local z <close> = "str"
