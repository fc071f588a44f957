-- Each string.gsub calling Lua is a C call: deep recursion through it is a C stack overflow.
local count = 0
local function foo ()
  count = count + 1
  string.gsub("a", ".", foo)
end
print(pcall(foo))
print(count > 150 and count < 200)
