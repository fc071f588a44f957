local mt = {}
local function V(x) return setmetatable({x = x}, mt) end
local function val(v) return type(v) == "table" and v.x or v end
for _, e in ipairs({"add", "sub", "mul", "div", "mod", "pow", "unm", "idiv"}) do
  mt["__" .. e] = function(a, b) return e .. "(" .. tostring(val(a)) .. "," .. tostring(val(b)) .. ")" end
end
local a = V(1)
print(a + 2, 3 - a, a * a, a / 1, a % 2, 2 ^ a, -a, a // 5)
