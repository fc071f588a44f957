-- io.read's formats are counted from argument #1, a file method's from #2;
-- a file method called without a name (through pcall) is reported as '?'.
print(pcall(io.read, "?"))
local f = assert(io.open("io_read_argument_numbers.lua"))
print(pcall(function() return f:read("?") end))
print(pcall(f.read, f, "?"))
print(pcall(f.seek, f, "nowhere"))
print(pcall(f.write, 42))
print(pcall(getmetatable(f).__tostring, {}))
-- a lines iterator that cannot read gives no values at all
local numbers = f:lines("n")
print(select("#", numbers()))
print(numbers())
f:close()
local words = io.lines("io_read_argument_numbers.lua", 1)
print(words(), select("#", words()))
