print(pcall(coroutine.yield, 1))
