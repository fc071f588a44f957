# Towers: the towers of Hanoi with thirteen disks, each pile a linked
# stack of disk objects pushed and popped by methods that check the
# rules and raise an error when one is broken.


class Benchmark:
    expected = None

    def inner_benchmark_loop(self, iterations):
        for _ in range(iterations):
            if not self.verify_result(self.benchmark()):
                return False
        return True

    def verify_result(self, result):
        return result == self.expected


class Disk:
    def __init__(self, size):
        self.size = size
        self.next = None


class Towers(Benchmark):
    def __init__(self, expected):
        self.expected = expected
        self.piles = None
        self.moves_done = 0

    def benchmark(self):
        self.piles = [None] * 4
        self.build_tower_at(1, 13)
        self.moves_done = 0
        self.move_disks(13, 1, 2)
        return self.moves_done

    def push_disk(self, disk, pile):
        top = self.piles[pile]
        if top is not None and disk.size >= top.size:
            raise ValueError("cannot put a big disk on a smaller one")
        disk.next = top
        self.piles[pile] = disk

    def pop_disk_from(self, pile):
        top = self.piles[pile]
        if top is None:
            raise ValueError("attempting to remove a disk from an empty pile")
        self.piles[pile] = top.next
        top.next = None
        return top

    def move_top_disk(self, from_pile, to_pile):
        self.push_disk(self.pop_disk_from(from_pile), to_pile)
        self.moves_done = self.moves_done + 1

    def build_tower_at(self, pile, disks):
        for i in range(disks, -1, -1):
            self.push_disk(Disk(i), pile)

    def move_disks(self, disks, from_pile, to_pile):
        if disks == 1:
            self.move_top_disk(from_pile, to_pile)
        else:
            other_pile = 6 - from_pile - to_pile
            self.move_disks(disks - 1, from_pile, other_pile)
            self.move_top_disk(from_pile, to_pile)
            self.move_disks(disks - 1, other_pile, to_pile)


def main():
    towers = Towers(8191)
    if not towers.inner_benchmark_loop(45):
        raise AssertionError("towers: wrong result %d" % towers.benchmark())
    print("towers: %d moves" % towers.benchmark())


main()
