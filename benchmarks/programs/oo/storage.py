# Storage: builds a tree of lists seven levels deep, four children a
# node and leaves of random length, counting the nodes in an attribute of
# the benchmark object: allocation and list construction.


class Benchmark:
    expected = None

    def inner_benchmark_loop(self, iterations):
        for _ in range(iterations):
            if not self.verify_result(self.benchmark()):
                return False
        return True

    def verify_result(self, result):
        return result == self.expected


class Random:
    def __init__(self):
        self.seed = 74755

    def next(self):
        self.seed = ((self.seed * 1309) + 13849) & 65535
        return self.seed


class Storage(Benchmark):
    def __init__(self, expected):
        self.expected = expected
        self.count = 0

    def benchmark(self):
        random = Random()
        self.count = 0
        self.build_tree_depth(7, random)
        return self.count

    def build_tree_depth(self, depth, random):
        self.count = self.count + 1
        if depth == 1:
            return [0] * (random.next() % 10 + 1)
        return [self.build_tree_depth(depth - 1, random) for _ in range(4)]


def main():
    storage = Storage(5461)
    if not storage.inner_benchmark_loop(40):
        raise AssertionError("storage: wrong result %d" % storage.benchmark())
    print("storage: %d nodes" % storage.benchmark())


main()
