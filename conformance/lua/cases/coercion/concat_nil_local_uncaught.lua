local s
print("start")
print("value: " .. s)
