-- String intrinsics (s:sub, s:byte, string.len), string method lookups
-- and table.concat, each beside the general path: arguments the inline
-- forms leave to the library, errors, the library and the string
-- metatable changed while the program runs.
local out = {}
local function put(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  out[#out + 1] = table.concat(t, " ")
end
local function subs(s)
  for _, ij in ipairs({{1, 1}, {2, 4}, {0, 3}, {-3, -1}, {3, 2}, {5, 100}, {1, 0}, {-100, 2}, {2.0, 3}, {"2", "3"}}) do
    put(s:sub(ij[1], ij[2]), s:sub(ij[1]), string.sub(s, ij[1], ij[2]))
  end
  for i = -2, #s + 2 do put(s:byte(i), string.byte(s, i)) end
  put(s:byte(), string.len(s), #s, s:len())
end
subs("hello world")
subs("")
subs(("x"):rep(1100) .. "y")
put(pcall(string.sub, "abc", "x"))
put(pcall(function() return ("abc"):sub({}) end))
put(pcall(string.byte, "abc", 1.5))
put(pcall(string.len, 42), pcall(string.len))
local n = 12
put((n .. ""):len(), (1.5 .. "|"):sub(1, 3))
-- the library changed or the string metatable's __index changed
local original = string.sub
string.sub = function(s, i, j) return "replaced" end
put(("abc"):sub(1, 1), string.sub("abc", 1, 1))
string.sub = original
put(("abc"):sub(1, 1))
local meta = getmetatable("")
local index = meta.__index
meta.__index = {sub = function(s, i) return "own " .. i end, byte = index.byte}
put(("abc"):sub(2, 2), ("abc"):byte(1))
meta.__index = function(s, k) return function(self, i) return k .. i end end
put(("abc"):sub(3, 3), ("abc"):len(2))
meta.__index = index
put(("abc"):sub(3, 3))
debug.setmetatable("", nil)
put(pcall(function() local s = "abc" return s:sub(1, 1) end))
debug.setmetatable("", meta)
put(("abc"):sub(2, 3))
-- table.concat
put(table.concat({"a", "b"}), table.concat({"a", 1, 2.5}), table.concat({}, ","), table.concat({"x"}, ", "))
put(table.concat({"a", "b", "c"}, 1), table.concat({n = 1}), table.concat({"a", "b", "c"}, "-", 2))

put(pcall(table.concat, {"a", nil, "c"}))
put(pcall(table.concat, {"a", {}}), pcall(table.concat, {"a", true}, ","))
local big = {} for i = 1, 100 do big[i] = "piece" .. i end
put(#table.concat(big), #table.concat(big, ", "))
local proxy = setmetatable({}, {__index = function(t, k) if k <= 3 then return "p" .. k end end, __len = function() return 3 end})
put(table.concat(proxy), table.concat(proxy, "+"))
local withhash = {"a", "b", name = "n"}
put(table.concat(withhash), table.concat(setmetatable({"m"}, {}), "/"))
put(pcall(table.concat, {"a"}, {}))
return table.concat(out, "\n")
