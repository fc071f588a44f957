print(type(nil), type(true), type(1), type(1.5), type("s"), type({}), type(print), type(type))
print(type(coroutine.create(print)), pcall(type))
