local f = load("local a = 1\nlocal b = 2\n\nerror('boom')", "=chunk")
print(pcall(f))
f = load("\n\n\nreturn nil + 1", "@file.lua")
print(pcall(f))
