print(os.getenv("PYLUA_CONFORMANCE_SURELY_UNSET_VARIABLE"))
print(type(os.getenv("PATH")))
print(pcall(os.getenv))
