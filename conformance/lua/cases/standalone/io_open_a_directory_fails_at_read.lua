-- As C's fopen: a directory opens for reading (so `if io.open(path)`
-- finds it), and each read fails with EISDIR; a write fails as on any
-- file opened for reading; opening it to write fails at the open.
local f, err, code = io.open(".")
print(io.type(f), err, code)
print(f:read("a"))
print(f:read("l"))
print(f:read(5))
print(f:read("n"))
print(f:seek("set", 0))
print(f:write("x"))
print(pcall(function() for l in f:lines() do end end))
print(f:close())
print(io.type(f))
print(io.open(".", "w"))
print(io.open(".", "r+"))
print(io.open(".", "rb") ~= nil)
print(pcall(function() for l in io.lines(".") do end end))
