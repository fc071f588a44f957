print(10 .. 20, 1 .. "", 1.0 .. "", -0.0 .. "|", 1e100 .. "")
print(2^63 .. "", math.mininteger .. "", 0.1 .. "")
local n = 42
print("n=" .. n, n .. "!" , #(n .. ""))
