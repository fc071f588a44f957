local s = string.rep("a", 200)
print(#s:match(string.rep("a?", 100) .. string.rep("a", 100)))
print(s:find(("a"):rep(150)))
