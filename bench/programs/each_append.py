# for over a 10^5-element list, building a new list with append: the twin of each_append.syn.
def doubled(xs):
    acc = []
    for x in xs:
        acc.append(x * 2 + 1)
    return acc


ys = doubled(list(range(100000)))
print(len(ys), ys[0], ys[99999], sum(ys))
