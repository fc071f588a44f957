print(_G._G == _G, _G.print == print, type(_G))
_G.newglobal = "set via _G"
print(newglobal)
local keys = {}
for _, name in ipairs({"assert", "error", "ipairs", "pairs", "pcall", "print", "select", "tostring", "tonumber", "type", "xpcall", "string", "table", "math", "coroutine", "utf8"}) do
  keys[#keys + 1] = name .. ":" .. type(_G[name])
end
print(table.concat(keys, " "))
