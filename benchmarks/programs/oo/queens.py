# Queens: places eight queens by backtracking, the board's free rows and
# diagonals kept as boolean lists in the benchmark object's attributes and
# read and written through small methods.


class Benchmark:
    expected = None

    def inner_benchmark_loop(self, iterations):
        for _ in range(iterations):
            if not self.verify_result(self.benchmark()):
                return False
        return True

    def verify_result(self, result):
        return result == self.expected


class Queens(Benchmark):
    def __init__(self, expected):
        self.expected = expected

    def benchmark(self):
        result = True
        for _ in range(10):
            result = result and self.queens()
        return result

    def queens(self):
        self.free_rows = [True] * 9
        self.free_maxs = [True] * 17
        self.free_mins = [True] * 17
        self.queen_rows = [-1] * 9
        return self.place_queen(1)

    def place_queen(self, c):
        for r in range(1, 9):
            if self.get_row_column(r, c):
                self.queen_rows[r] = c
                self.set_row_column(r, c, False)
                if c == 8:
                    return True
                if self.place_queen(c + 1):
                    return True
                self.set_row_column(r, c, True)
        return False

    def get_row_column(self, r, c):
        return self.free_rows[r] and self.free_maxs[c + r] and self.free_mins[c - r + 8]

    def set_row_column(self, r, c, v):
        self.free_rows[r] = v
        self.free_maxs[c + r] = v
        self.free_mins[c - r + 8] = v


def main():
    queens = Queens(True)
    if not queens.inner_benchmark_loop(120):
        raise AssertionError("queens: wrong result")
    print("queens: " + " ".join(str(c) for c in queens.queen_rows[1:]))


main()
