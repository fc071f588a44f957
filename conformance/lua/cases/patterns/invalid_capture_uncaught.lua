string.match("aa", "(a)%2")
