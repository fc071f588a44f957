print(type(string.dump), type(string.dump(function() end)))
