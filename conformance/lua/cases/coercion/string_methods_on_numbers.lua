print(("x"):rep(3), ("%d"):format(5), ("abc"):upper())
local n = 12345
print(#tostring(n), tostring(n):reverse(), (tostring(1.5)):len())
print(pcall(function() return (5):rep(2) end))
