-- A hook gets two arguments for every event, as Lua's hookf pushes them:
-- the event's name, and the line (nil but for a line event).
local function f() return 1 end
local seen = {}
debug.sethook(function(...) seen[#seen + 1] = select('#', ...) .. " " .. tostring((...)) .. " " .. tostring((select(2, ...))) end, "cr")
f()
debug.sethook()
print(table.concat(seen, "; "))
seen = {}
local n = 0
debug.sethook(function(...) if #seen < 2 then seen[#seen + 1] = select('#', ...) .. " " .. tostring((...)) .. " " .. tostring((select(2, ...))) end end, "", 1)
for i = 1, 10 do n = n + i end
debug.sethook()
print(table.concat(seen, "; "))
local co = coroutine.create(function() local function g() return 2 end g() end)
seen = {}
debug.sethook(co, function(...) seen[#seen + 1] = select('#', ...) .. " " .. tostring((...)) end, "r")
coroutine.resume(co)
print(table.concat(seen, "; "))
