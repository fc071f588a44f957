print(load("# not a comment in load"))
