print(pcall(coroutine.create, 1))
print(pcall(coroutine.resume, 1))
print(pcall(coroutine.status, "x"))
print(pcall(coroutine.wrap))
