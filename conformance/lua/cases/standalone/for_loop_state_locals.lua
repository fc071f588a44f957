-- A for loop's state is locals named "(for state)" (three for a numeric
-- loop, four for a generic one, the last its closing value), numbered by
-- debug.getlocal before the loop's variables.
local function names(level)
  local out, i = {}, 1
  while true do
    local name = debug.getlocal(level + 1, i)
    if not name then break end
    out[#out + 1] = name
    i = i + 1
  end
  return table.concat(out, " ")
end
local outer = 1
for i = 1, 2 do
  local s = names(1)
  print(s)
  for k, v in pairs({a = 1}) do
    local t = names(1)
    print(t)
  end
end
local closing = setmetatable({}, {__close = function() end})
for _ in function(_, c) if not c then return 1 end end, nil, nil, closing do
  local states = 0
  for i = 1, 20 do
    local n, v = debug.getlocal(1, i)
    if n == "(for state)" then
      states = states + 1
      if states == 4 then print(i, v == closing) end
    end
  end
end
-- loadfile skips a first '#' line before a binary chunk without adding a line
local file = os.tmpname()
local f = assert(io.open(file, "wb"))
f:write("#!/usr/bin/env lua\n", string.dump(function() return 20, "\0\0" end))
f:close()
local a, b = assert(loadfile(file))()
print(a, #b)
os.remove(file)
