local a = [[
first newline skipped]]
print(a)
print([==[with ]] and ]=] inside]==])
print([[no \n escapes \t here]])
print(#[[
]], #[[

x]])
