-- comparisons of two constants, folded or not, as Lua compares them
print("a" == nil, "a" ~= nil, 1e-300 == nil, nil == nil, true == true, false ~= nil)
print(1 == 1.0, 0 == -0.0, "1" == 1, 2^53 == 9007199254740992, 0.1 + 0.2 == 0.3)
print(nil == false, "" == nil, 3 ~= 3.0, math.maxinteger + 0.0 == math.maxinteger)
