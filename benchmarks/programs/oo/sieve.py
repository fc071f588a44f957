# Sieve: the primes below 5,000 by Eratosthenes' sieve over a boolean
# list, a method of the benchmark object.


class Benchmark:
    expected = None

    def inner_benchmark_loop(self, iterations):
        for _ in range(iterations):
            if not self.verify_result(self.benchmark()):
                return False
        return True

    def verify_result(self, result):
        return result == self.expected


class Sieve(Benchmark):
    def __init__(self, expected):
        self.expected = expected

    def benchmark(self):
        flags = [True] * 5000
        return self.sieve(flags, 5000)

    def sieve(self, flags, size):
        prime_count = 0
        for i in range(2, size + 1):
            if flags[i - 1]:
                prime_count = prime_count + 1
                k = i + i
                while k <= size:
                    flags[k - 1] = False
                    k = k + i
        return prime_count


def main():
    sieve = Sieve(669)
    if not sieve.inner_benchmark_loop(150):
        raise AssertionError("sieve: wrong result %d" % sieve.benchmark())
    print("sieve: %d primes" % sieve.benchmark())


main()
