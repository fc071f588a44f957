local p = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
local escaped = p:gsub("%p", "%%%0")
print(escaped)
print(p:find(escaped), p:match(escaped) == p)
