print(xpcall(function() error("first") end, function(e) error("in handler") end))
