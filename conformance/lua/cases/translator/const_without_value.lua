-- a <const> local without an initializer is a local holding nil, not a folded constant
local v1 <const>
local v2 <const> = nil
print(v1, v2)
print(pcall(function() return v1 | 1 end))
print(pcall(function() return v2 | 1 end))
print(pcall(function() local a <const> return a.x end))
