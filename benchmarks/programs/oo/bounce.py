# Bounce: balls moving in a box, each an object whose method updates its
# position and velocity, driven through a small benchmark harness class
# that the program's class inherits from.


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


class Ball:
    def __init__(self, random):
        self.x = random.next() % 500
        self.y = random.next() % 500
        self.x_vel = (random.next() % 300) - 150
        self.y_vel = (random.next() % 300) - 150

    def bounce(self):
        x_limit, y_limit = 500, 500
        bounced = False
        self.x = self.x + self.x_vel
        self.y = self.y + self.y_vel
        if self.x > x_limit:
            self.x = x_limit
            self.x_vel = 0 - abs(self.x_vel)
            bounced = True
        if self.x < 0:
            self.x = 0
            self.x_vel = abs(self.x_vel)
            bounced = True
        if self.y > y_limit:
            self.y = y_limit
            self.y_vel = 0 - abs(self.y_vel)
            bounced = True
        if self.y < 0:
            self.y = 0
            self.y_vel = abs(self.y_vel)
            bounced = True
        return bounced


class Bounce(Benchmark):
    def __init__(self, expected):
        self.expected = expected

    def benchmark(self):
        random = Random()
        balls = [Ball(random) for _ in range(100)]
        bounces = 0
        for _ in range(50):
            for ball in balls:
                if ball.bounce():
                    bounces = bounces + 1
        return bounces


def main():
    bounce = Bounce(1331)
    if not bounce.inner_benchmark_loop(100):
        raise AssertionError("bounce: wrong result %d" % bounce.benchmark())
    print("bounce: %d bounces" % bounce.benchmark())


main()
