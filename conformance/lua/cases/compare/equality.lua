local t = {}
print(1 == 1.0, "1" == 1, t == t, {} == {}, nil == false, "a" == "a")
print(1 ~= "1", t ~= {}, print == print, math.huge == 1/0)
local f1 = function() end
local f2 = function() end
print(f1 == f1, f1 == f2)
