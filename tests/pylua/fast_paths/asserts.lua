-- assert inline where its value holds: the results are its arguments, and a
-- value that fails (nil, false), a message that is no string, a replaced
-- assert and results of a call take the general path.
local function pair(...) return ... end
put(assert(1), assert("s", "m"), select("#", assert(0, nil, 3)), assert(pair(5, 6)))
local t = {assert(true, "msg")}
put(#t, t[1], t[2], assert(0 == 0), assert(pair(7)))
put(pcall(function() assert(false) end))
put(pcall(function() assert(nil, "named") end))
put(select(2, pcall(function() local x = assert(false, {code = 1}) return x end)).code)
put(pcall(function() assert(pair(nil, "from call")) end))
put(pcall(function() assert() end))
put(select("#", pcall(assert, false, nil)), pcall(assert, 1 > 2, 42))
local function checked(v, m) return assert(v, m) end
put(checked(3, "unused"), pcall(checked, false, "tail"))
local real = assert
assert = function(v, m) return "mine", v, m end
put(assert(false, "m"), assert(1))
assert = real
for i = 1, 3 do assert(i > 0, "loop") end
put(pcall(function() return assert(io.open("/nonexistent/file")) end))
return transcript()
