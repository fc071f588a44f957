local t = setmetatable({}, {
  __index = function() return "meta" end,
  __newindex = function() error("no writes") end,
})
rawset(t, "k", "raw")
print(t.k, rawget(t, "other"), t.other)
print(pcall(function() t.z = 1 end))
