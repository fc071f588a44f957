-- A small class library: classes, single inheritance, super calls,
-- mixins, __tostring and other metamethods inherited by subclasses.
local class = {}

local METAMETHODS = {"__tostring", "__eq", "__lt", "__le", "__add", "__concat", "__len", "__call"}

local function instance_of(obj, cls)
  local c = getmetatable(obj)
  while c do
    if c == cls then return true end
    c = c.super
  end
  return false
end

function class.new(name, parent)
  local cls = {name = name, super = parent, methods = {}}
  cls.__index = cls
  if parent then
    setmetatable(cls, {__index = parent, __tostring = function() return "class " .. name end})
    for _, mm in ipairs(METAMETHODS) do
      if rawget(cls, mm) == nil and parent[mm] then cls[mm] = parent[mm] end
    end
  else
    setmetatable(cls, {__tostring = function() return "class " .. name end})
  end
  function cls.new(...)
    local obj = setmetatable({}, cls)
    if obj.init then obj:init(...) end
    return obj
  end
  function cls.is(obj) return instance_of(obj, cls) end
  function cls.include(mixin)
    for k, v in pairs(mixin) do
      if cls[k] == nil then cls[k] = v end
    end
    return cls
  end
  return cls
end

function class.super(cls, obj, method, ...)
  return cls.super[method](obj, ...)
end

return class
