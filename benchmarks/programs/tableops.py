# list.append / insert / pop: appending, popping from the end, inserting
# and removing at the front and in the middle, and a stack/queue workload.


def run(rounds):
    check = 0
    for r in range(1, rounds + 1):
        t = []
        for i in range(1, 201):
            t.append(i * r % 1009)
        for i in range(1, 11):
            t.insert(0, i)
            t.insert(len(t) // 2 - 1, i * 2)
        for i in range(1, 11):
            check = check + t.pop(0)
            check = check + t.pop(len(t) // 2 - 1) * 3
        while len(t) > 0:
            v = t.pop()
            if v % 5 == 0:
                check = check + v
        check = check % 1000000007
    return check


def stack_queue(n):
    stack, queue, qhead = [], [], 0
    acc = 0
    for i in range(1, n + 1):
        stack.append(i)
        queue.append(i * 2)
        if i % 3 == 0:
            acc = acc + stack.pop() - queue[qhead]
            qhead = qhead + 1
    return acc, len(stack), len(queue) - qhead


check = run(2500)
acc, left, queued = stack_queue(1000000)
print("check = %d, acc = %d, left = %d, queued = %d" % (check, acc, left, queued))
