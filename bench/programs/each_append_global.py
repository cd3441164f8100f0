# The same loop at module level, with a smaller list (20,000): the twin of each_append_global.syn.
acc = []
for x in range(20000):
    acc.append(x * 2 + 1)
print(len(acc), acc[0], acc[19999], sum(acc))
