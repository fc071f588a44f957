local obj = {}
obj:method()
