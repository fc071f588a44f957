print(load("local x <close> = nil; x = 1"))
