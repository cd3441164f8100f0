# Memory: the CPython twin of memory.syn (the same list and map, built the same way).
def build(n, k):
    xs = []
    i = 0
    while i < n:
        xs.append(i * 3)
        i += 1
    m = {}
    j = 0
    while j < k:
        m["k" + str(j)] = j
        j += 1
    return [xs, m]


both = build(1000000, 200000)
print(len(both[0]), len(both[1]), both[0][999999], both[1]["k199999"])
