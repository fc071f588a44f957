-- An `or` of constants is tested by its right operand alone (Lua's
-- luaK_goiftrue), so `(10 or 2) and x` is x, variable info included
-- (found by the campaign: 960003092).
local t = {}
local k <const> = 7
local function try(f) print(select(2, pcall(f))) end
try(function() return ((10 or 2) and t[1]) + 1 end)
try(function() local x; return ((10 or 2) and x) .. "" end)
try(function() return ((1 or 2 or 3) and t.z) + 1 end)
try(function() return ((k or "s") and t.z) + 1 end)
try(function() return ((false and 1 or 2) and t.z) + 1 end)
try(function() return ((nil and 1 or not 2 or 3) and t.z) + 1 end)
try(function() return (not (10 or 2) or t.w) + 1 end)
try(function() if (10 or 2) then return #t.z end end)
-- A right operand that is no true constant is tested: no variable info.
try(function() return ((10 or nil) and t.z) + 1 end)
try(function() return ((false and 1 or nil) and t.z) + 1 end)
