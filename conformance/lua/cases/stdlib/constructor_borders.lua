print(#{1, nil, 3}, #{1, nil, nil}, #{nil, nil, 3}, #{1, nil, 3, nil}, #{nil, nil}, #{n = 1, 1, nil, 3})
local function pack(...) return {...} end
print(#pack(1, nil, 3), #pack(nil, nil, 3), #pack(1, 2, nil), #pack())
local t = {[0] = "x", 1, nil, 3}
print(#t, t[0], t[3])
for k, v in pairs({1, nil, 3, nil, 5}) do io.write(k, "=", v, " ") end print()
print(table.concat({1, nil, 3} , ",", 3, 3), select("#", table.unpack({1, nil, 3})))
