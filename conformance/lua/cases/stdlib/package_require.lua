-- package and require: Lua's search order, messages and loader data
print(require "string" == string, require "package" == package)
print((package.config:gsub("\n", "|")))

package.path = "?.lua;?/?"
package.cpath = "?.so;?/init"
print(pcall(require, "no.such.mod"))

package.preload["util.greet"] = function(name, data)
  print("loader got", name, data)
  return {hello = function(who) return "hello, " .. who end}
end
local m, data = require "util.greet"
print(m.hello("world"), data)
print(require "util.greet" == m, select("#", require "util.greet"))

package.preload.nothing = function() end
print(require "nothing", package.loaded.nothing)

print(package.searchpath("a.b.c", "x/?.lua;y/?/init.lua"))
print(package.searchpath("a.b", "?", "", ""))

local old = package.path
package.path = {}
print(pcall(require, "zz"))
package.path = old
local searchers = package.searchers
package.searchers = 3
print(pcall(require, "zz"))
package.searchers = searchers

-- a searcher of our own, in front of the others
table.insert(package.searchers, 1, function(name)
  if name:match("^virtual%.") then
    return function(n) return "module " .. n end, "virtual data"
  end
  return "\n\tno virtual module '" .. name .. "'"
end)
print(require "virtual.one")
print(pcall(require, "other"))
