-- NUL bytes in strings, in loaded source and in chunk names
local s = "a\0b"
print(#s, s:byte(2), ("x\0y"):rep(2) == "x\0yx\0y")
local f = load("return '\0', #'\0\0'", "=name\0with nul")
local a, b = f()
print(#a, b)
print(load("return 1 +", "=bad\0name"))
print(pcall(load("error('e\\0r')", "=chunk\0")))
print(load("x = \0"))
