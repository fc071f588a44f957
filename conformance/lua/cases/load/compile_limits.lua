-- Lua's compile-time limits: nesting, registers, upvalues, locals.
local function nested(init, rep)
  local f, msg = load(init .. string.rep(rep, 500))
  print(f, msg:find("overflow") ~= nil)
end
nested("local a; a", ",a")
nested("local a; a=", "{")
nested("return ", "(")
nested("local function a (x) return x end; return ", "a(")
nested("", "do ")
nested("local a = ''; return ", "a..")
nested("local a = 1; return ", "a^")

-- 100 levels compile
print(load("return " .. string.rep("(", 100) .. "2" .. string.rep(")", 100))())
print(load("local a = 1; return " .. string.rep("a^", 100) .. "a")())

print(select(2, load("a = f(x" .. string.rep(",x", 260) .. ")")):match("too many registers"))

local s = "local function fooA ()\n  local "
for j = 1, 127 do s = s .. "a" .. j .. ", " end
s = s .. "b,c\nlocal function fooB ()\n  local "
for j = 1, 127 do s = s .. "b" .. j .. ", " end
s = s .. "b\nfunction fooC () return b+c"
for j = 1, 127 do s = s .. "+a" .. j .. "+b" .. j end
print(select(2, load(s .. "\nend  end end")):match("too many upvalues %(limit is 255%) in function at line 5"))

s = "\nfunction foo ()\n  local "
for j = 1, 300 do s = s .. "a" .. j .. ", " end
print(select(2, load(s .. "b\n")))
s = "local "
for j = 1, 300 do s = s .. "a" .. j .. ", " end
print(select(2, load(s .. "b = 1")))
