print(string.len(12.5), string.upper(1e20), string.rep(1, 3), ("x"):rep("3"))
print(string.format("%s %s", 1, 1.0), string.byte(12), string.sub(12345, 2, 3))
