print(load("local caf\xC3\xA9 = 1"))
