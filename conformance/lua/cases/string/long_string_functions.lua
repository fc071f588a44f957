local s = string.rep("abc", 1000)
print(#s, s:sub(2998), #s:gsub("b", ""), select(2, s:gsub("abc", "")), s:find("cab", 2998, true))
