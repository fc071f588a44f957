# Integer loop (first-issue benchmark): a few million iterations of
# integer arithmetic with %, //, and the bitwise operators & | ^ << >>.


def run(n):
    acc, x, odd = 0, 1, 0
    for i in range(1, n + 1):
        x = (x * 1103515245 + 12345) & 0x7fffffff
        if x % 3 == 0:
            acc = acc + (x >> 7)
        else:
            acc = acc ^ (i << 2)
        odd = (odd + (x // 5) % 7) | (i & 1)
    return acc, odd


acc, odd = run(2000000)
print("acc = %d, odd = %d" % (acc, odd))
