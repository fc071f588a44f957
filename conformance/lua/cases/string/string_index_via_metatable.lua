local s = "abc"
print(s.upper == string.upper, s.nope)
print(("x").len == string.len)
