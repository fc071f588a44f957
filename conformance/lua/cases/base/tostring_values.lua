print(tostring(nil), tostring(true), tostring(false), tostring(12), tostring(-0.5), tostring("s"))
print(type(tostring({})), tostring({}):match("^table: ") ~= nil, tostring(print):match("^builtin: ") ~= nil or tostring(print):match("^function: ") ~= nil)
print(pcall(tostring))
