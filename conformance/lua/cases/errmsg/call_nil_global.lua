print("before")
undefined_function(1, 2)
