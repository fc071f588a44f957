local proxy = setmetatable({}, {__index = function(_, i) if i <= 4 then return i * 10 end end})
for i, v in ipairs(proxy) do print(i, v) end
