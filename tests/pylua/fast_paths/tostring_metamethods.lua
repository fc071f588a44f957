-- tostring of values whose __tostring is a Lua function (run plainly where
-- nothing can suspend it), a callable table, or returns what is no string.
local o = setmetatable({}, {__tostring = function(s) return "obj" end})
local num = setmetatable({}, {__tostring = function(s) return 42 end})
local flt = setmetatable({}, {__tostring = function(s) return 1.5 end})
local bad = setmetatable({}, {__tostring = function(s) return {} end})
local err = setmetatable({}, {__tostring = function(s) error("boom") end})
local none = setmetatable({}, {__tostring = function(s) end})
local many = setmetatable({}, {__tostring = function(s, extra) return "first", extra end})
local callable = setmetatable({}, {__tostring = setmetatable({}, {__call = function(self, v) return "called" end})})
put(tostring(o), tostring(num), tostring(flt), tostring(many))
put(pcall(tostring, bad))
put(pcall(tostring, err))
put(pcall(tostring, none))
put(pcall(tostring, callable))
put(select('#', tostring(o, 1, 2)))
put(pcall(tostring))
local deep = setmetatable({}, {__tostring = function(s) return tostring(s) end})
put(pcall(tostring, deep))
local n = 0
for i = 1, 300 do n = n + #tostring(o) end
put(n, string.format("%s|%s", o, 1), ("x"):rep(2, tostring(o)))
getmetatable(o).__tostring = function() return "changed" end
put(tostring(o))
return transcript()
