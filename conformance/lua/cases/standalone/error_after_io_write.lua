io.write("partial output ")
io.write("then error\n")
error("stopped")
