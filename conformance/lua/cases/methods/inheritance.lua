local Base = {}
Base.__index = Base
function Base.new(name) return setmetatable({name = name}, Base) end
function Base:hello() return "hello from " .. self.name end
function Base:kind() return "base" end
local Derived = setmetatable({}, {__index = Base})
Derived.__index = Derived
function Derived.new(name) return setmetatable(Base.new(name), Derived) end
function Derived:kind() return "derived/" .. Base.kind(self) end
local d = Derived.new("d")
print(d:hello(), d:kind(), rawget(Derived, "hello"))
