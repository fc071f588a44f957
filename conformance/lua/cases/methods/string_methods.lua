print(("x"):rep(3), ("Hello"):upper(), ("%d items"):format(3))
local s = "hello world"
print(s:len(), s:sub(1, 5), s:find("wor"), s:byte(1))
print(#s:rep(2, ", "))
