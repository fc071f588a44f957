local f, err = load("return 1 +")
print(f, err)
assert(f, err)
