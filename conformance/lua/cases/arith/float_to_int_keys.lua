local t = {}
t[1.0] = "a"; t[2] = "b"; t[3.5] = "c"
print(t[1], t[2.0], t[3.5], #t)
t[2^53] = "big"
print(t[2^53 | 0], math.type(next({[3.0] = 1})))
