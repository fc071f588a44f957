-- a debug hook seeing line events of loops with goto continue
local lines = {}
local function f()
  local s = 0
  for i = 1, 3 do
    if i == 2 then goto continue end
    s = s + i
    ::continue::
  end
  return s
end
debug.sethook(function(_, l) lines[#lines + 1] = l end, "l")
f()
debug.sethook()
print(table.concat(lines, " "))
