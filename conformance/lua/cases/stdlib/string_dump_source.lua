-- A dump keeps its chunk's source (the name load was given) once, for all
-- its functions; a stripped dump has none ("=?").
local prog = [[
  return function (x)
    return function (y) return x + y end
  end
]]
local long_name = string.rep("x", 300)
for _, name in ipairs{long_name, "=config", "@lib/util.lua", "inline chunk"} do
  local p = assert(load(prog, name))
  local f = assert(load(string.dump(p)))
  local g = f()
  local h = g(3)
  print(h(4), debug.getinfo(f).source == name, debug.getinfo(h).source == name,
        debug.getinfo(h).short_src == debug.getinfo(p).short_src)
  local s = assert(load(string.dump(p, true)))
  local sg = s()
  print(sg(1)(2), debug.getinfo(s).source, debug.getinfo(sg).short_src)
end
local dumped = string.dump(assert(load(prog, long_name)))
print(select(2, string.gsub(dumped, long_name, "")))   -- written once
