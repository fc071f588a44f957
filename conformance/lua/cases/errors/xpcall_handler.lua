local function handler(e) return "handled: " .. tostring(e) end
print(xpcall(function() error("oops") end, handler))
print(xpcall(function() error({}) end, function(e) return type(e) end))
print(xpcall(function(a, b) return a + b end, handler, 3, 4))
print(xpcall(function() local x = nil; return x.y end, handler))
