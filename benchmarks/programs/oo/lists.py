# Linked lists and queues: a singly linked list built recursively and
# walked by recursive methods (the Takeuchi-like tail of three lists), a
# doubly linked list with a generator for iteration, and a linked Queue
# class driving a breadth-first walk over a generated graph.


class Element:
    def __init__(self, value, next_element):
        self.value = value
        self.next = next_element

    def length(self):
        if self.next is None:
            return 1
        return 1 + self.next.length()


def make_list(length):
    if length == 0:
        return None
    return Element(length, make_list(length - 1))


def is_shorter_than(x, y):
    x_tail, y_tail = x, y
    while y_tail is not None:
        if x_tail is None:
            return True
        x_tail = x_tail.next
        y_tail = y_tail.next
    return False


def tail(x, y, z):
    if is_shorter_than(y, x):
        return tail(tail(x.next, y, z), tail(y.next, z, x), tail(z.next, x, y))
    return z


class Node:
    def __init__(self, value, prev, next_node):
        self.value = value
        self.prev = prev
        self.next = next_node


class DoublyLinkedList:
    def __init__(self):
        self.head = Node(None, None, None)
        self.head.prev = self.head.next = self.head
        self.size = 0

    def insert_after(self, node, value):
        new_node = Node(value, node, node.next)
        node.next.prev = new_node
        node.next = new_node
        self.size = self.size + 1
        return new_node

    def push_back(self, value):
        return self.insert_after(self.head.prev, value)

    def push_front(self, value):
        return self.insert_after(self.head, value)

    def remove(self, node):
        node.prev.next = node.next
        node.next.prev = node.prev
        self.size = self.size - 1
        return node.value

    def nodes(self):
        head = self.head
        node = head.next
        while node is not head:
            yield node
            node = node.next


class QueueNode:
    def __init__(self, value):
        self.value = value
        self.next = None


class Queue:
    def __init__(self):
        self.first = None
        self.last = None
        self.count = 0

    def push(self, value):
        node = QueueNode(value)
        if self.last is None:
            self.first = node
        else:
            self.last.next = node
        self.last = node
        self.count = self.count + 1

    def pop(self):
        node = self.first
        self.first = node.next
        if self.first is None:
            self.last = None
        self.count = self.count - 1
        return node.value

    def is_empty(self):
        return self.count == 0


def tail_lengths(rounds):
    total = 0
    for _ in range(rounds):
        total = total + tail(make_list(15), make_list(10), make_list(6)).length()
    return total


def josephus(n, step):
    lst = DoublyLinkedList()
    for i in range(1, n + 1):
        lst.push_back(i)
    node = lst.head.next
    order = 0
    while lst.size > 1:
        for _ in range(step - 1):
            node = node.next
            if node is lst.head:
                node = node.next
        next_node = node.next
        if next_node is lst.head:
            next_node = next_node.next
        order = (order * 31 + lst.remove(node)) % 1000003
        node = next_node
    total = 0
    for n_node in lst.nodes():
        total = total + n_node.value
    return order + total


def bfs_levels(nodes, fanout):
    edges = [None]
    for i in range(1, nodes + 1):
        edges.append([(i * 7 + k * 13) % nodes + 1 for k in range(1, fanout + 1)])
    depth = {1: 0}
    queue = Queue()
    queue.push(1)
    total = 0
    while not queue.is_empty():
        v = queue.pop()
        d = depth[v]
        total = total + d
        for w in edges[v]:
            if w not in depth:
                depth[w] = d + 1
                queue.push(w)
    return total


def main():
    a = tail_lengths(10)
    b = josephus(3000, 7)
    c = 0
    for _ in range(9):
        c = c + bfs_levels(6000, 4)
    print("lists: tail = %d, josephus = %d, bfs = %d" % (a, b, c))


main()
