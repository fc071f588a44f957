local called = false
print(xpcall(function() return "fine" end, function() called = true end), called)
