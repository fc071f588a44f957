-- Tail calls through __call metamethods, and chains of __call.
local function foo(x, ...) local a = {...}; return x, a[1], a[2] end
local t = setmetatable({}, {__call = foo})
local function foo2(x) return t(10, x) end
local a, b, c = foo2(100)
print(a == t, b, c)

-- a chain of 100 __call metamethods ending in a tail-recursive function
local n = 3000
local function f()
  if n == 0 then return 1023 end
  n = n - 1
  return f()
end
for i = 1, 100 do f = setmetatable({}, {__call = f}) end
print(f())

-- each link of the chain is passed on as an argument
local u = table.pack
for i = 1, 20 do u = setmetatable({i}, {__call = u}) end
local res = u("a", "b", "c")
print(res.n, res[1][1], res[20][1], res[21], res[23])

-- a callable object that tail-calls itself
local obj = setmetatable({left = 50000}, {__call = function(self, acc)
  if self.left == 0 then return acc end
  self.left = self.left - 1
  return self(acc + 2)
end})
print(obj(0))

-- a tail call of a host function, and of a value that cannot be called
local function host(...) return select("#", ...) end
local function to_host(...) return host(...) end
print(to_host(1, nil, 3))
local function to_string(x) return tostring(x) end
print(to_string(12))
local function bad() local v = 3 return v() end
print(pcall(bad))
local function bad_field(o) return o.missing(1) end
print(pcall(bad_field, {}))
