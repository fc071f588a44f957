-- The traceback names each level of a local function that calls itself
-- with "..." as its last argument, as a statement.
local function v(n, ...) if n == 0 then local x = nil; return x.y end v(n - 1, ...) end
print(select(2, xpcall(v, debug.traceback, 2)))
print(coroutine.wrap(function() return select(2, xpcall(v, debug.traceback, 1, "a")) end)())
