# A closure-heavy pipeline: the twin of closures.syn, with map/filter/reduce and lambdas.
from functools import reduce


def scaler(k):
    return lambda x: x * k + 1


def divisible_by(d):
    return lambda x: x % d == 0


triple = scaler(3)
step1 = list(map(triple, range(100000)))
step2 = list(filter(divisible_by(4), step1))
step3 = list(map(lambda x: x // 2, step2))
total = reduce(lambda a, b: a + b, step3, 0)
evens = list(filter(lambda x: x % 2 == 0 and x % 3 != 0, range(100000)))
print(total, len(evens), reduce(lambda a, b: a if a > b else b, evens))
