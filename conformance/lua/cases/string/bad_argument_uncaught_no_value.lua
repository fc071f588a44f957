string.rep()
