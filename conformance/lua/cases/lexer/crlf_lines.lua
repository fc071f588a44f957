local f = load("local a = 1\r\nlocal b = 2\r\n\r\nerror('x')")
print(pcall(f))
print(#load("return [[\r\nab\r\ncd]]")())
