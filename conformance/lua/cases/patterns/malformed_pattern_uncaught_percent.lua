print(("abc"):match("abc%"))
