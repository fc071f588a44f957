local s = "hello"
print(s:sub("one"))
