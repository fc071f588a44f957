local t = {}
print(pcall(function() return t.a.b end))
print(pcall(function() return t[1][2] end))
print(pcall(function() local k = "key"; return t[k].x end))
print(pcall(function() return ({})().x end))
