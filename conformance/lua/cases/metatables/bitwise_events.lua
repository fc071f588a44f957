local mt = {}
local function V(x) return setmetatable({x = x}, mt) end
local function val(v) return type(v) == "table" and v.x or v end
for _, e in ipairs({"band", "bor", "bxor", "shl", "shr", "bnot"}) do
  mt["__" .. e] = function(a, b) return e .. "(" .. tostring(val(a)) .. "," .. tostring(val(b)) .. ")" end
end
local a = V(7)
print(a & 1, 1 | a, a ~ a, a << 2, 2 >> a, ~a)
