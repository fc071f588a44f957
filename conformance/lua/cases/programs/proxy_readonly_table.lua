local function readonly(t)
  return setmetatable({}, {
    __index = t,
    __newindex = function(_, k) error("attempt to modify read-only field '" .. tostring(k) .. "'", 2) end,
    __len = function() return #t end,
    __pairs = function() return next, t, nil end,
  })
end
local days = readonly({"mon", "tue", "wed"})
print(days[1], #days)
print(pcall(function() days[4] = "thu" end))
local n = 0
for k, v in pairs(days) do n = n + 1 end
print(n)
