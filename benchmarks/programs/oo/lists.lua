-- Linked lists and queues: a singly linked list built recursively and
-- walked by recursive methods (the Takeuchi-like tail of three lists), a
-- doubly linked list with an iterator closure for the generic for, and a
-- linked Queue class driving a breadth-first walk over a generated graph.
local Element = {}
Element.__index = Element

function Element.new(value, next_element)
  return setmetatable({value = value, next = next_element}, Element)
end

function Element:length()
  if self.next == nil then
    return 1
  end
  return 1 + self.next:length()
end

local function make_list(length)
  if length == 0 then
    return nil
  end
  return Element.new(length, make_list(length - 1))
end

local function is_shorter_than(x, y)
  local x_tail, y_tail = x, y
  while y_tail ~= nil do
    if x_tail == nil then
      return true
    end
    x_tail = x_tail.next
    y_tail = y_tail.next
  end
  return false
end

local function tail(x, y, z)
  if is_shorter_than(y, x) then
    return tail(tail(x.next, y, z), tail(y.next, z, x), tail(z.next, x, y))
  end
  return z
end

local DoublyLinkedList = {}
DoublyLinkedList.__index = DoublyLinkedList

function DoublyLinkedList.new()
  local head = {}
  head.prev, head.next = head, head
  return setmetatable({head = head, size = 0}, DoublyLinkedList)
end

function DoublyLinkedList:insert_after(node, value)
  local new_node = {value = value, prev = node, next = node.next}
  node.next.prev = new_node
  node.next = new_node
  self.size = self.size + 1
  return new_node
end

function DoublyLinkedList:push_back(value)
  return self:insert_after(self.head.prev, value)
end

function DoublyLinkedList:push_front(value)
  return self:insert_after(self.head, value)
end

function DoublyLinkedList:remove(node)
  node.prev.next = node.next
  node.next.prev = node.prev
  self.size = self.size - 1
  return node.value
end

function DoublyLinkedList:nodes()
  local head = self.head
  local node = head
  return function()
    node = node.next
    if node ~= head then
      return node
    end
  end
end

local Queue = {}
Queue.__index = Queue

function Queue.new()
  return setmetatable({first = nil, last = nil, count = 0}, Queue)
end

function Queue:push(value)
  local node = {value = value, next = nil}
  if self.last == nil then
    self.first = node
  else
    self.last.next = node
  end
  self.last = node
  self.count = self.count + 1
end

function Queue:pop()
  local node = self.first
  self.first = node.next
  if self.first == nil then
    self.last = nil
  end
  self.count = self.count - 1
  return node.value
end

function Queue:is_empty()
  return self.count == 0
end

local function tail_lengths(rounds)
  local total = 0
  for _ = 1, rounds do
    total = total + tail(make_list(15), make_list(10), make_list(6)):length()
  end
  return total
end

local function josephus(n, step)
  local list = DoublyLinkedList.new()
  for i = 1, n do
    list:push_back(i)
  end
  local node = list.head.next
  local order = 0
  while list.size > 1 do
    for _ = 1, step - 1 do
      node = node.next
      if node == list.head then
        node = node.next
      end
    end
    local next_node = node.next
    if next_node == list.head then
      next_node = next_node.next
    end
    order = (order * 31 + list:remove(node)) % 1000003
    node = next_node
  end
  local sum = 0
  for n_node in list:nodes() do
    sum = sum + n_node.value
  end
  return order + sum
end

local function bfs_levels(nodes, fanout)
  local edges = {}
  for i = 1, nodes do
    local out = {}
    for k = 1, fanout do
      table.insert(out, (i * 7 + k * 13) % nodes + 1)
    end
    edges[i] = out
  end
  local depth = {[1] = 0}
  local queue = Queue.new()
  queue:push(1)
  local total = 0
  while not queue:is_empty() do
    local v = queue:pop()
    local d = depth[v]
    total = total + d
    for _, w in ipairs(edges[v]) do
      if depth[w] == nil then
        depth[w] = d + 1
        queue:push(w)
      end
    end
  end
  return total
end

local a = tail_lengths(10)
local b = josephus(3000, 7)
local c = 0
for _ = 1, 9 do
  c = c + bfs_levels(6000, 4)
end
print(string.format("lists: tail = %d, josephus = %d, bfs = %d", a, b, c))
