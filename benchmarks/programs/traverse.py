# Container traversal: enumerate() over a list, .items() over a str-keyed
# dict, a plain for over the list, and a range loop with t[i] indexing.


def run(n, m, rounds):
    arr = []
    for i in range(1, n + 1):
        arr.append(i * 3 % 1001)
    d = {}
    for i in range(1, m + 1):
        d["key" + str(i)] = i % 97

    s1, s2, s3, s4 = 0, 0, 0, 0
    for _ in range(rounds):
        for i, v in enumerate(arr, 1):
            s1 = s1 + v * i
        for k, v in d.items():
            s2 = s2 + v + len(k)
        for v in arr:
            s3 = s3 + v
        for i in range(len(arr)):
            s4 = s4 + arr[i] % 7
    return s1, s2, s3, s4


print("s1 = %d, s2 = %d, s3 = %d, s4 = %d" % run(10000, 5000, 200))
