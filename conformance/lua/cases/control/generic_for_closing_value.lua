local log = {}
local function iter()
  local closer = setmetatable({}, {__close = function() log[#log + 1] = "closed" end})
  local i = 0
  return function() i = i + 1; if i <= 3 then return i end end, nil, nil, closer
end
for i in iter() do print(i) end
print(log[1])
for i in iter() do if i == 2 then break end end
print(#log, log[2])
