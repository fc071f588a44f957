local function make(x)
  return function(d) x = x + d; return x end
end
local m = make(100)
print(m(1), m(10), make(0)(5))
