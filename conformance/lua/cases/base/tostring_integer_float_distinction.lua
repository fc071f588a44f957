print(tostring(1), tostring(1.0), tostring(-0.0), tostring(1e100), tostring(2^63), tostring(math.mininteger))
