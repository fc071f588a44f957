print(pcall(io.write, {}))
print(pcall(io.write, nil))
print(select("#", io.write()))
