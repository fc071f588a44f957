-- Task scheduler simulation (Richards): task control blocks in a chain of
-- classes (TaskState <- TaskControlBlock), a Scheduler with per-kind task
-- bodies as closures, packets in linked queues, self field reads and writes
-- and obj:method() calls on every step.
local DATA_SIZE = 4
local IDLER, WORKER, HANDLER_A, HANDLER_B, DEVICE_A, DEVICE_B = 1, 2, 3, 4, 5, 6
local DEVICE_PACKET_KIND, WORK_PACKET_KIND = 0, 1

local RBObject = {}
RBObject.__index = RBObject

function RBObject:append(packet, queue_head)
  packet.link = nil
  if queue_head == nil then
    return packet
  end
  local mouse = queue_head
  local link = mouse.link
  while link ~= nil do
    mouse = link
    link = mouse.link
  end
  mouse.link = packet
  return queue_head
end

local Packet = setmetatable({}, {__index = RBObject})
Packet.__index = Packet

function Packet.new(link, identity, kind)
  local data = {}
  for i = 1, DATA_SIZE do
    data[i] = 0
  end
  return setmetatable({link = link, identity = identity, kind = kind,
                       datum = 1, data = data}, Packet)
end

local TaskState = setmetatable({}, {__index = RBObject})
TaskState.__index = TaskState

function TaskState.new(packet_pending, task_waiting, task_holding)
  return setmetatable({packet_pending = packet_pending, task_waiting = task_waiting,
                       task_holding = task_holding}, TaskState)
end

function TaskState:running()
  self.packet_pending, self.task_waiting, self.task_holding = false, false, false
end

function TaskState:pending()
  self.packet_pending, self.task_waiting, self.task_holding = true, false, false
end

function TaskState:is_task_holding_or_waiting()
  return self.task_holding or (not self.packet_pending and self.task_waiting)
end

function TaskState:is_waiting_with_packet()
  return self.packet_pending and self.task_waiting and not self.task_holding
end

local TaskControlBlock = setmetatable({}, {__index = TaskState})
TaskControlBlock.__index = TaskControlBlock

function TaskControlBlock.new(link, identity, priority, queue, state, handle, fn)
  local self = TaskState.new(state.packet_pending, state.task_waiting, state.task_holding)
  self.link = link
  self.identity = identity
  self.priority = priority
  self.input = queue
  self.handle = handle
  self.fn = fn
  return setmetatable(self, TaskControlBlock)
end

function TaskControlBlock:add_input_and_check_priority(packet, old_task)
  if self.input == nil then
    self.input = packet
    self.packet_pending = true
    if self.priority > old_task.priority then
      return self
    end
  else
    self.input = self:append(packet, self.input)
  end
  return old_task
end

function TaskControlBlock:run_task()
  local message
  if self:is_waiting_with_packet() then
    message = self.input
    self.input = message.link
    if self.input == nil then
      self:running()
    else
      self:pending()
    end
  end
  return self.fn(message, self.handle)
end

local Scheduler = setmetatable({}, {__index = RBObject})
Scheduler.__index = Scheduler

function Scheduler.new()
  return setmetatable({task_list = nil, current_task = nil, current_task_identity = 0,
                       task_table = {}, queue_packet_count = 0, hold_count = 0}, Scheduler)
end

function Scheduler:create_task(identity, priority, queue, state, handle, fn)
  local t = TaskControlBlock.new(self.task_list, identity, priority, queue, state, handle, fn)
  self.task_list = t
  self.task_table[identity] = t
end

function Scheduler:create_device(identity, priority, queue, state)
  local record = {pending = nil}
  self:create_task(identity, priority, queue, state, record, function(work, data)
    if work == nil then
      work = data.pending
      if work == nil then
        return self:wait_current()
      end
      data.pending = nil
      return self:queue_packet(work)
    end
    data.pending = work
    return self:hold_self()
  end)
end

function Scheduler:create_handler(identity, priority, queue, state)
  local record = {work_in = nil, device_in = nil}
  self:create_task(identity, priority, queue, state, record, function(work, data)
    if work ~= nil then
      if work.kind == WORK_PACKET_KIND then
        data.work_in = self:append(work, data.work_in)
      else
        data.device_in = self:append(work, data.device_in)
      end
    end
    local work_packet = data.work_in
    if work_packet == nil then
      return self:wait_current()
    end
    local count = work_packet.datum
    if count > DATA_SIZE then
      data.work_in = work_packet.link
      return self:queue_packet(work_packet)
    end
    local device_packet = data.device_in
    if device_packet == nil then
      return self:wait_current()
    end
    data.device_in = device_packet.link
    device_packet.datum = work_packet.data[count]
    work_packet.datum = count + 1
    return self:queue_packet(device_packet)
  end)
end

function Scheduler:create_idler(identity, priority, queue, state)
  local record = {control = 1, count = 10000}
  self:create_task(identity, priority, queue, state, record, function(work, data)
    data.count = data.count - 1
    if data.count == 0 then
      return self:hold_self()
    end
    if data.control & 1 == 0 then
      data.control = data.control // 2
      return self:release(DEVICE_A)
    end
    data.control = (data.control // 2) ~ 53256
    return self:release(DEVICE_B)
  end)
end

function Scheduler:create_worker(identity, priority, queue, state)
  local record = {destination = HANDLER_A, count = 0}
  self:create_task(identity, priority, queue, state, record, function(work, data)
    if work == nil then
      return self:wait_current()
    end
    if data.destination == HANDLER_A then
      data.destination = HANDLER_B
    else
      data.destination = HANDLER_A
    end
    work.identity = data.destination
    work.datum = 1
    for i = 1, DATA_SIZE do
      data.count = data.count + 1
      if data.count > 26 then
        data.count = 1
      end
      work.data[i] = 65 + data.count - 1
    end
    return self:queue_packet(work)
  end)
end

function Scheduler:hold_self()
  self.hold_count = self.hold_count + 1
  local t = self.current_task
  t.task_holding = true
  return t.link
end

function Scheduler:wait_current()
  self.current_task.task_waiting = true
  return self.current_task
end

function Scheduler:release(identity)
  local t = self.task_table[identity]
  t.task_holding = false
  if t.priority > self.current_task.priority then
    return t
  end
  return self.current_task
end

function Scheduler:queue_packet(packet)
  local t = self.task_table[packet.identity]
  self.queue_packet_count = self.queue_packet_count + 1
  packet.link = nil
  packet.identity = self.current_task_identity
  return t:add_input_and_check_priority(packet, self.current_task)
end

function Scheduler:schedule()
  self.current_task = self.task_list
  while self.current_task ~= nil do
    local t = self.current_task
    if t:is_task_holding_or_waiting() then
      self.current_task = t.link
    else
      self.current_task_identity = t.identity
      self.current_task = t:run_task()
    end
  end
end

function Scheduler:start()
  self:create_idler(IDLER, 0, nil, TaskState.new(false, false, false))
  local queue = Packet.new(nil, WORKER, WORK_PACKET_KIND)
  queue = Packet.new(queue, WORKER, WORK_PACKET_KIND)
  self:create_worker(WORKER, 1000, queue, TaskState.new(true, true, false))
  queue = Packet.new(nil, DEVICE_A, DEVICE_PACKET_KIND)
  queue = Packet.new(queue, DEVICE_A, DEVICE_PACKET_KIND)
  queue = Packet.new(queue, DEVICE_A, DEVICE_PACKET_KIND)
  self:create_handler(HANDLER_A, 2000, queue, TaskState.new(true, true, false))
  queue = Packet.new(nil, DEVICE_B, DEVICE_PACKET_KIND)
  queue = Packet.new(queue, DEVICE_B, DEVICE_PACKET_KIND)
  queue = Packet.new(queue, DEVICE_B, DEVICE_PACKET_KIND)
  self:create_handler(HANDLER_B, 3000, queue, TaskState.new(true, true, false))
  self:create_device(DEVICE_A, 4000, nil, TaskState.new(false, true, false))
  self:create_device(DEVICE_B, 5000, nil, TaskState.new(false, true, false))
  self:schedule()
  return self.queue_packet_count, self.hold_count
end

local queued, held = 0, 0
for _ = 1, 3 do
  local q, h = Scheduler.new():start()
  queued = queued + q
  held = held + h
end
print(string.format("richards: queued = %d, held = %d", queued, held))
