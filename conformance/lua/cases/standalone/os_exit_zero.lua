print("before exit")
io.write("buffered ")
os.exit(0)
print("never printed")
