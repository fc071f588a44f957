print("before")
error(setmetatable({}, {__tostring = function() return 42 end}))
