print(type(debug.traceback()), debug.traceback("msg"):match("^msg\nstack traceback:") ~= nil)
print(type(debug.getinfo(1)), debug.getinfo(1).currentline, debug.getinfo(1, "S").short_src)
