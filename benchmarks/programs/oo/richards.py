# Task scheduler simulation (Richards): task control blocks in a chain of
# classes (TaskState <- TaskControlBlock), a Scheduler with per-kind task
# bodies as closures, packets in linked queues, attribute reads and writes
# and obj.method() calls on every step.
DATA_SIZE = 4
IDLER, WORKER, HANDLER_A, HANDLER_B, DEVICE_A, DEVICE_B = range(6)
DEVICE_PACKET_KIND, WORK_PACKET_KIND = 0, 1


class RBObject:
    def append(self, packet, queue_head):
        packet.link = None
        if queue_head is None:
            return packet
        mouse = queue_head
        link = mouse.link
        while link is not None:
            mouse = link
            link = mouse.link
        mouse.link = packet
        return queue_head


class Packet(RBObject):
    def __init__(self, link, identity, kind):
        self.link = link
        self.identity = identity
        self.kind = kind
        self.datum = 0
        self.data = [0] * DATA_SIZE


class TaskState(RBObject):
    def __init__(self, packet_pending, task_waiting, task_holding):
        self.packet_pending = packet_pending
        self.task_waiting = task_waiting
        self.task_holding = task_holding

    def running(self):
        self.packet_pending, self.task_waiting, self.task_holding = False, False, False

    def pending(self):
        self.packet_pending, self.task_waiting, self.task_holding = True, False, False

    def is_task_holding_or_waiting(self):
        return self.task_holding or (not self.packet_pending and self.task_waiting)

    def is_waiting_with_packet(self):
        return self.packet_pending and self.task_waiting and not self.task_holding


class TaskControlBlock(TaskState):
    def __init__(self, link, identity, priority, queue, state, handle, fn):
        super().__init__(state.packet_pending, state.task_waiting, state.task_holding)
        self.link = link
        self.identity = identity
        self.priority = priority
        self.input = queue
        self.handle = handle
        self.fn = fn

    def add_input_and_check_priority(self, packet, old_task):
        if self.input is None:
            self.input = packet
            self.packet_pending = True
            if self.priority > old_task.priority:
                return self
        else:
            self.input = self.append(packet, self.input)
        return old_task

    def run_task(self):
        message = None
        if self.is_waiting_with_packet():
            message = self.input
            self.input = message.link
            if self.input is None:
                self.running()
            else:
                self.pending()
        return self.fn(message, self.handle)


class DeviceRecord:
    def __init__(self):
        self.pending = None


class HandlerRecord:
    def __init__(self):
        self.work_in = None
        self.device_in = None


class IdleRecord:
    def __init__(self):
        self.control = 1
        self.count = 10000


class WorkerRecord:
    def __init__(self):
        self.destination = HANDLER_A
        self.count = 0


class Scheduler(RBObject):
    def __init__(self):
        self.task_list = None
        self.current_task = None
        self.current_task_identity = 0
        self.task_table = [None] * 6
        self.queue_packet_count = 0
        self.hold_count = 0

    def create_task(self, identity, priority, queue, state, handle, fn):
        t = TaskControlBlock(self.task_list, identity, priority, queue, state, handle, fn)
        self.task_list = t
        self.task_table[identity] = t

    def create_device(self, identity, priority, queue, state):
        def device(work, data):
            if work is None:
                work = data.pending
                if work is None:
                    return self.wait_current()
                data.pending = None
                return self.queue_packet(work)
            data.pending = work
            return self.hold_self()
        self.create_task(identity, priority, queue, state, DeviceRecord(), device)

    def create_handler(self, identity, priority, queue, state):
        def handler(work, data):
            if work is not None:
                if work.kind == WORK_PACKET_KIND:
                    data.work_in = self.append(work, data.work_in)
                else:
                    data.device_in = self.append(work, data.device_in)
            work_packet = data.work_in
            if work_packet is None:
                return self.wait_current()
            count = work_packet.datum
            if count >= DATA_SIZE:
                data.work_in = work_packet.link
                return self.queue_packet(work_packet)
            device_packet = data.device_in
            if device_packet is None:
                return self.wait_current()
            data.device_in = device_packet.link
            device_packet.datum = work_packet.data[count]
            work_packet.datum = count + 1
            return self.queue_packet(device_packet)
        self.create_task(identity, priority, queue, state, HandlerRecord(), handler)

    def create_idler(self, identity, priority, queue, state):
        def idler(work, data):
            data.count = data.count - 1
            if data.count == 0:
                return self.hold_self()
            if data.control & 1 == 0:
                data.control = data.control // 2
                return self.release(DEVICE_A)
            data.control = (data.control // 2) ^ 53256
            return self.release(DEVICE_B)
        self.create_task(identity, priority, queue, state, IdleRecord(), idler)

    def create_worker(self, identity, priority, queue, state):
        def worker(work, data):
            if work is None:
                return self.wait_current()
            if data.destination == HANDLER_A:
                data.destination = HANDLER_B
            else:
                data.destination = HANDLER_A
            work.identity = data.destination
            work.datum = 0
            for i in range(DATA_SIZE):
                data.count = data.count + 1
                if data.count > 26:
                    data.count = 1
                work.data[i] = 65 + data.count - 1
            return self.queue_packet(work)
        self.create_task(identity, priority, queue, state, WorkerRecord(), worker)

    def hold_self(self):
        self.hold_count = self.hold_count + 1
        t = self.current_task
        t.task_holding = True
        return t.link

    def wait_current(self):
        self.current_task.task_waiting = True
        return self.current_task

    def release(self, identity):
        t = self.task_table[identity]
        t.task_holding = False
        if t.priority > self.current_task.priority:
            return t
        return self.current_task

    def queue_packet(self, packet):
        t = self.task_table[packet.identity]
        self.queue_packet_count = self.queue_packet_count + 1
        packet.link = None
        packet.identity = self.current_task_identity
        return t.add_input_and_check_priority(packet, self.current_task)

    def schedule(self):
        self.current_task = self.task_list
        while self.current_task is not None:
            t = self.current_task
            if t.is_task_holding_or_waiting():
                self.current_task = t.link
            else:
                self.current_task_identity = t.identity
                self.current_task = t.run_task()

    def start(self):
        self.create_idler(IDLER, 0, None, TaskState(False, False, False))
        queue = Packet(None, WORKER, WORK_PACKET_KIND)
        queue = Packet(queue, WORKER, WORK_PACKET_KIND)
        self.create_worker(WORKER, 1000, queue, TaskState(True, True, False))
        queue = Packet(None, DEVICE_A, DEVICE_PACKET_KIND)
        queue = Packet(queue, DEVICE_A, DEVICE_PACKET_KIND)
        queue = Packet(queue, DEVICE_A, DEVICE_PACKET_KIND)
        self.create_handler(HANDLER_A, 2000, queue, TaskState(True, True, False))
        queue = Packet(None, DEVICE_B, DEVICE_PACKET_KIND)
        queue = Packet(queue, DEVICE_B, DEVICE_PACKET_KIND)
        queue = Packet(queue, DEVICE_B, DEVICE_PACKET_KIND)
        self.create_handler(HANDLER_B, 3000, queue, TaskState(True, True, False))
        self.create_device(DEVICE_A, 4000, None, TaskState(False, True, False))
        self.create_device(DEVICE_B, 5000, None, TaskState(False, True, False))
        self.schedule()
        return self.queue_packet_count, self.hold_count


def main():
    queued, held = 0, 0
    for _ in range(3):
        q, h = Scheduler().start()
        queued = queued + q
        held = held + h
    print("richards: queued = %d, held = %d" % (queued, held))


main()
