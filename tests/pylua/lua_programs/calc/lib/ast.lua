-- Node classes: a base class with a constructor and inherited methods,
-- subclasses through __index chains, and __tostring / __eq / __len.
local Node = {}
Node.__index = Node
Node.__tostring = function(n) return n:describe() end

function Node:extend(name)
  local cls = setmetatable({}, {__index = self})
  cls.__index = cls
  cls.__tostring = self.__tostring
  cls.__name = name
  cls.super = self
  return cls
end

function Node:new(fields)
  local obj = setmetatable(fields or {}, self)
  obj.id = Node.next_id
  Node.next_id = Node.next_id + 1
  return obj
end
Node.next_id = 1

function Node:describe() return (getmetatable(self).__name or "Node") .. "#" .. self.id end
function Node:children() return {} end
function Node:count()
  local total = 1
  for _, child in ipairs(self:children()) do total = total + child:count() end
  return total
end

local M = {Node = Node}

M.Number = Node:extend("Number")
function M.Number:describe() return string.format("Number(%s)", math.type(self.value) == "float" and string.format("%.4g", self.value) or self.value) end

M.String = Node:extend("String")
function M.String:describe() return string.format("String(%q)", self.value) end

M.Name = Node:extend("Name")
function M.Name:describe() return "Name(" .. self.name .. ")" end

M.Binary = Node:extend("Binary")
function M.Binary:children() return {self.left, self.right} end
function M.Binary:describe()
  return string.format("(%s %s %s)", tostring(self.left), self.op, tostring(self.right))
end

M.Unary = Node:extend("Unary")
function M.Unary:children() return {self.operand} end
function M.Unary:describe() return string.format("(%s %s)", self.op, tostring(self.operand)) end

M.Call = Node:extend("Call")
function M.Call:children()
  local list = {self.callee}
  table.move(self.args, 1, #self.args, 2, list)
  return list
end
function M.Call:describe()
  local parts = {}
  for i, a in ipairs(self.args) do parts[i] = tostring(a) end
  return tostring(self.callee) .. "(" .. table.concat(parts, ", ") .. ")"
end

M.List = Node:extend("List")
M.List.__len = function(self) return #self.items end
function M.List:children() return self.items end
function M.List:describe()
  local parts = {}
  for i = 1, #self do parts[#parts + 1] = tostring(self.items[i]) end
  return "[" .. table.concat(parts, ", ") .. "]"
end

M.Index = Node:extend("Index")
function M.Index:children() return {self.object, self.key} end

M.Function = Node:extend("Function")
function M.Function:children() return self.body end
function M.Function:describe() return "fn(" .. table.concat(self.params, ", ") .. ")" end

for _, name in ipairs({"Let", "Assign", "Print", "If", "While", "Return", "ExprStat"}) do
  M[name] = Node:extend(name)
end
function M.If:children()
  local list = {self.cond}
  for _, s in ipairs(self.body) do list[#list + 1] = s end
  for _, s in ipairs(self.orelse or {}) do list[#list + 1] = s end
  return list
end
function M.While:children()
  local list = {self.cond}
  for _, s in ipairs(self.body) do list[#list + 1] = s end
  return list
end
function M.Let:children() return {self.value} end
function M.Assign:children() return {self.target, self.value} end
function M.Print:children() return self.args end
function M.Return:children() return {self.value} end
function M.ExprStat:children() return {self.expr} end

return M
