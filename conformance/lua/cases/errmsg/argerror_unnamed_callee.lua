-- A library function called through an expression with no name (the result
-- of another call) is named in argument errors by where the libraries hold
-- it, as luaL_argerror's pushglobalfuncname does.
local function pick(f) return f end
local function try(f, ...)
  print(select(2, pcall(function(...) return pick(f)(...) end, ...)))
end
try(string.rep)
try(math.floor, "x")
try(utf8.char, "y")
try(table.insert, 1, 2)
try(tonumber)
try(setmetatable, 5)
-- a named call site still wins
local r = string.rep
print(select(2, pcall(function() return r() end)))
print(select(2, pcall(function() return ("ab"):rep() end)))
