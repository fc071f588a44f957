-- What a finished loop or an earlier call left in registers is garbage to
-- Lua: weak entries go and finalizers run at the next collection.
local cache = setmetatable({}, {__mode = "k"})
for i = 1, 5 do local key = {}; cache[key] = i end
collectgarbage()
print("weak keys left", next(cache))

local names = setmetatable({}, {__mode = "v"})
for _, word in ipairs({"alpha", "beta"}) do names[word] = {word} end
collectgarbage()
print("weak values left", next(names))

-- A temporary passed to a call, then replaced: its finalizer runs while
-- the locals in scope (here 'kept') stay.
local finished = false
local kept = {34}
local u = setmetatable({}, {__gc = function () finished = true end})
u = nil
local spins = 0
repeat u = {}; spins = spins + 1 until finished or spins > 10 ^ 6
print("finalized", finished, kept[1])

-- Objects still in scope are never taken.
local live = {}
local holder = setmetatable({[live] = "here"}, {__mode = "k"})
local function churn() local t = {}; for i = 1, 100 do t[i] = {} end; return #t end
print(churn(), collectgarbage(), holder[live])

-- collectgarbage inside a finalizer does nothing and gives fail.
local during
setmetatable({}, {__gc = function () during = {collectgarbage(), collectgarbage("count")} end})
collectgarbage()
print("inside a finalizer", during[1], during[2])
