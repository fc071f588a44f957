print(getmetatable("abc").__index == string)
print(getmetatable("abc") == getmetatable(""))
