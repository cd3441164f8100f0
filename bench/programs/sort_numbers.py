# Sorting 10^5 numbers: the twin of sort_numbers.syn.
xs = list(map(lambda i: i * 7919 % 100003 + i % 7 / 8, range(100000)))
ys = sorted(xs)
print(len(ys), ys[0], ys[50000], ys[99999])
