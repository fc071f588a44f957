local Queue = {}
Queue.__index = Queue
function Queue.new() return setmetatable({first = 1, last = 0, items = {}}, Queue) end
function Queue:push(v) self.last = self.last + 1; self.items[self.last] = v end
function Queue:pop()
  if self.first > self.last then return nil, "empty" end
  local v = self.items[self.first]
  self.items[self.first] = nil
  self.first = self.first + 1
  return v
end
function Queue:__len() return self.last - self.first + 1 end
local q = Queue.new()
for i = 1, 5 do q:push(i * i) end
print(#q, q:pop(), q:pop(), #q)
while #q > 0 do print(q:pop()) end
print(q:pop())
