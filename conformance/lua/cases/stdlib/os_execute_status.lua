-- os.execute runs a shell command and reports how the shell ended;
-- print's lines are out before the command writes its own.
print("shell available:", os.execute())
print("before the command")
print(os.execute("echo written by the shell"))
print(os.execute("exit 7"))
print(os.execute("exit 0"))
print(os.execute("exit 259"))
print(os.execute("kill -TERM $$"))
local ok, how, code = os.execute("test -d .")
print(type(ok), how, math.type(code))
print(pcall(os.execute, {}))
print(select("#", os.execute("true")))
