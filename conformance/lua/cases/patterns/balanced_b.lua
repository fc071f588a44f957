print(("f(a(b)c)d"):match("%b()"), ("[x][y]"):match("%b[]"), ("no parens"):match("%b()"))
print(("((unbalanced"):match("%b()"), ("{a{b}c}"):match("%b{}"), ("''quoted''"):match("%b''"))
print(("if x then y end end"):match("%bie"))
print((("call(1, f(2), 3) rest"):gsub("%b()", "(...)")))
