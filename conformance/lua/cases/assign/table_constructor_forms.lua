local t = {1, 2, [10] = "ten", x = "x", ["y z"] = "yz", 3; 4}
print(#t, t[1], t[4], t[10], t.x, t["y z"])
local k = "key"
local v = {[k] = 1, [k .. "2"] = 2, [1 + 1] = "two"}
print(v.key, v.key2, v[2])
