local s = "text"
print(pcall(function() return s.x.y end))
print(s.len ~= nil)
