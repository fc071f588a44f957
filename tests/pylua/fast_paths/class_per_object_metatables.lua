-- Objects made each with a metatable of its own, {__index = Class}, as many
-- programs make them: their lookups share the class's cache, and every
-- change a cache must notice (a class's store, a metatable's __index
-- replaced, a class's own metatable set) shows at once.
local Base = {} Base.__index = Base
function Base:name() return "base" end
function Base:kind() return "object" end
local Shape = setmetatable({}, {__index = Base})
function Shape.new(w) return setmetatable({w = w}, {__index = Shape}) end
function Shape:area() return self.w * self.w end
function Shape:name() return "shape" .. self.w end
local shapes = {}
for i = 1, 30 do shapes[i] = Shape.new(i) end
local function survey(tag)
  local parts = {}
  for i = 1, #shapes, 7 do
    local s = shapes[i]
    parts[#parts + 1] = tostring(s:name()) .. "/" .. tostring(s.kind and s:kind()) .. "/" .. tostring(s.area and s:area())
  end
  put(tag, table.concat(parts, " "), shapes[1].missing)
end
survey("start")
function Shape:name() return "renamed" .. self.w end
survey("class store")
getmetatable(shapes[8]).__index = {name = function() return "own" end}
survey("one metatable's __index")
Shape.area = nil
survey("class removal")
setmetatable(Shape, {__index = {kind = function() return "other" end}})
survey("class's metatable")
rawset(getmetatable(shapes[15]), "__index", Base)
survey("rawset of __index")
getmetatable(shapes[22]).__index = function(t, k) return function() return "fn " .. k end end
survey("__index function")
local later = Shape.new(100)
put(later:name(), later:kind(), later.area, getmetatable(later).__index == Shape)
local mt = {__index = Shape}
local a, b = setmetatable({w = 1}, mt), setmetatable({w = 2}, mt)
put(a:name(), b:name())
mt.__index = Base
put(a:name(), b:name(), a.w)
return transcript()
