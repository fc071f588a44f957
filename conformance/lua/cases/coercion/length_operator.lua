print(#"abc", #"", #{1, 2, 3}, #{n = 1}, #"\0\0")
print(pcall(function() return #5 end))
print(pcall(function() local x = nil; return #x end))
