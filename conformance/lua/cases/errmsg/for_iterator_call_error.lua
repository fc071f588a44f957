print(pcall(function() for k in nil do end end))
print(pcall(function() for k in {} do end end))
