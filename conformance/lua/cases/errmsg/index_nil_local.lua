local x
print(x.field)
