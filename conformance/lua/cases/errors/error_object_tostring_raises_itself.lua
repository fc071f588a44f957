print("before")
error(setmetatable({}, {__tostring = function(t) error(t) end}))
