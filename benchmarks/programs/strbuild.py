# String building: %-formatting with %d %5d %x %s %.3f, concatenation
# with +, str(), and ''.join of many pieces (with a separator too).


def run(n):
    parts = []
    for i in range(1, n + 1):
        parts.append("%d:%5d:%x:%s:%.3f;" % (i, i * 7 % 1000, i, "k" + str(i % 10), i / 7))
    s = "".join(parts)

    words = []
    for i in range(1, n + 1):
        words.append("w" + str(i % 100) + "_" + str(i % 3))
    joined = ", ".join(words)

    total = 0
    for _ in range(300):
        line = ""
        for i in range(1, 201):
            line = line + str(i) + ","
        total = total + len(line)
    return s, joined, total


s, joined, total = run(200000)
print("len = %d, joined = %d, total = %d, sample = %s | %s"
      % (len(s), len(joined), total, s[100000:100040], joined[-30:]))
