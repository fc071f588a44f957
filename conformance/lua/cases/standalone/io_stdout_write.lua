io.stdout:write("via stdout handle\n")
print(io.type(io.stdout), io.type(42), io.type(io.stderr))
