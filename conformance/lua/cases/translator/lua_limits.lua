-- where Lua itself refuses a chunk, the message is Lua's
local function names(prefix, n)
  local t = {}
  for i = 1, n do t[i] = prefix .. i end
  return table.concat(t, ", ")
end
print(load("local " .. names("a", 201) .. " = 1"))
print(load("local function f(" .. names("p", 201) .. ") end"))
print(load("local " .. names("a", 150) .. "\nfor i = 1, 2 do for k, v in pairs{} do local " .. names("b", 50) .. " end end"))
print(type(load("local " .. names("a", 199) .. "\nlocal function g() end")))
print(load("local x\n" .. string.rep("local y <const> = 1\n", 200)))
print(type(load("return " .. string.rep("(", 150) .. "1" .. string.rep(")", 150))))
print(type(load(string.rep("do ", 150) .. string.rep("end ", 150))))
local deep = load("local x = 0 " .. string.rep("if x then ", 150) .. "x = 1 " .. string.rep("end ", 150) .. "return x")
print(deep())
