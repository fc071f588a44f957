# list.sort without a comparison function (integers, strings) and with a
# Python comparison function via functools.cmp_to_key (records by two keys;
# integers descending).
from functools import cmp_to_key


class Rec:
    def __init__(self, id, score):
        self.id = id
        self.score = score


def checksum(t, f):
    c = 0
    for i, v in enumerate(t, 1):
        c = (c * 31 + f(v) * i) % 1000000007
    return c


def ident(x):
    return x


def by_score_desc(a, b):
    if a.score != b.score:
        return b.score - a.score
    return a.id - b.id


def run(n):
    seed = 42
    nums, strs, recs = [], [], []
    for i in range(1, n + 1):
        seed = (seed * 1103515245 + 12345) % 2147483648
        nums.append(seed % 100000)
        strs.append("s" + str(seed % 50000))
        recs.append(Rec(i, seed % 1000))

    desc = list(nums)

    nums.sort()
    strs.sort()
    desc.sort(key=cmp_to_key(lambda a, b: b - a))
    recs.sort(key=cmp_to_key(by_score_desc))

    return "nums = %d, desc = %d, recs = %d, strs = %s..%s, %s" % (
        checksum(nums, ident), checksum(desc, ident),
        checksum(recs, lambda r: r.id),
        strs[0], strs[-1], strs[n // 2 - 1])


print(run(50000))
