local t = setmetatable({}, {__pairs = function(t)
  local i = 0
  return function(_, k) i = i + 1; if i <= 3 then return i, i * i end end, t, nil
end})
for k, v in pairs(t) do print(k, v) end
