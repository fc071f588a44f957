# Permute: counts the permutations of six elements by recursive swapping,
# every step a method call on the benchmark object, which keeps its
# counter and list in attributes.


class Benchmark:
    expected = None

    def inner_benchmark_loop(self, iterations):
        for _ in range(iterations):
            if not self.verify_result(self.benchmark()):
                return False
        return True

    def verify_result(self, result):
        return result == self.expected


class Permute(Benchmark):
    def __init__(self, expected):
        self.expected = expected
        self.count = 0
        self.v = []

    def benchmark(self):
        self.count = 0
        self.v = [0] * 7
        self.permute(6)
        return self.count

    def permute(self, n):
        self.count = self.count + 1
        if n != 0:
            n1 = n - 1
            self.permute(n1)
            for i in range(n, 0, -1):
                self.swap(n, i)
                self.permute(n1)
                self.swap(n, i)

    def swap(self, i, j):
        v = self.v
        tmp = v[i]
        v[i] = v[j]
        v[j] = tmp


def main():
    permute = Permute(8660)
    if not permute.inner_benchmark_loop(60):
        raise AssertionError("permute: wrong result %d" % permute.benchmark())
    print("permute: %d permutations" % permute.benchmark())


main()
