print(math.floor("3.7"), math.abs("-3"), math.sqrt("16"))
-- math.max checks numbers but compares the original values
print(pcall(math.max, "10", 9))
print(string.rep(5, 2), string.len(123), string.upper(1.5))
print(("10"):rep(2) + 1)
