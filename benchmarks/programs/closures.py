# Closures and upvalues: creating closures in a loop, calling them,
# closures that share and mutate a captured variable, closures of closures.


def make_adder(a):
    return lambda x: x + a


def compose(f, g):
    return lambda x: f(g(x))


def make_counter():
    n = 0

    def add(k):
        nonlocal n
        n = n + k
        return n

    def get():
        return n

    return add, get


def run(iters):
    total = 0
    for i in range(1, iters + 1):
        f = compose(make_adder(i % 7), make_adder(1))
        add, get = make_counter()
        for j in range(1, 6):
            add(f(j))
        total = total + get()
    return total


# an accumulator whose captured variables live across the whole run
def make_acc():
    total, count = 0, 0

    def acc(v):
        nonlocal total, count
        total = total + v
        count = count + 1
        return total, count

    return acc


def main():
    acc = make_acc()
    total, count = 0, 0
    for i in range(1, 300001):
        total, count = acc(i % 13)
    print("total = %d, sum = %d, count = %d" % (run(100000), total, count))


main()
